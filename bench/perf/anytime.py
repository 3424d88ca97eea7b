"""Anytime classifiers (Kranen et al. 2010): queries per second at budgets of 10, 100 and 1000 Gaussians
(instances for anytime NN), against same-run peers at full budget:

- MC-Tree and the Bayes tree against scikit-learn's ``KernelDensity`` per class (Gaussian
  kernels of the same per-class bandwidths, obtained by rescaling each class's data to a unit
  isotropic bandwidth; exact, ``rtol=0``), i.e. the kernel-density Bayes classifier that both
  trees become with an unlimited budget;
- our own brute-force full kernel density (``predict_proba``) against the same peer;
- anytime NN against ``KNeighborsClassifier(n_neighbors=1, algorithm="brute")``.

Data: letter (15,000 training / query objects from the rest) when ``BENCH_DATA_DIR`` has it,
else a synthetic 26-class, 16-attribute Gaussian mixture of the same size.
"""

from __future__ import annotations


import numpy as np

from . import benchmark, best_of, row


def _data(quick: bool):
    n_train, n_query = (4000, 500) if quick else (15000, 2000)
    try:
        from ..data import load

        ds = load("letter")
        X, y, name = ds.X, ds.y, "letter"
    except Exception:  # no mirror: a synthetic stand-in of the same shape
        rng = np.random.default_rng(0)
        y = rng.integers(0, 26, size=20000)
        X = rng.normal(size=(20000, 16)) + rng.normal(scale=2.0, size=(26, 16))[y]
        name = "synthetic 26x16"
    rng = np.random.default_rng(1)
    idx = rng.permutation(len(y))
    tr, te = idx[:n_train], idx[n_train:n_train + n_query]
    return X[tr], y[tr], X[te], f"{name} {n_train} train / {n_query} queries"


def _kde_peer(est, Xq):
    """Full-budget kernel-density Bayes posteriors with scikit-learn's KernelDensity."""
    from sklearn.neighbors import KernelDensity

    Zq = est._transform(Xq)
    order = est.model_["order"]
    scores = np.empty((len(Zq), est.classes_.size))
    for c in range(est.classes_.size):
        kern = est.kernels_[est.kernel_class_ == c]
        h = np.sqrt(est.kernel_var_[c])
        kde = KernelDensity(kernel="gaussian", bandwidth=1.0, rtol=0.0).fit(kern / h)
        scores[:, c] = kde.score_samples(Zq / h) - np.log(h).sum() + np.log(len(kern) / len(order))
    return scores


@benchmark("anytime")
def anytime_speed(quick: bool = False) -> list[dict]:
    from algorithms.anytime import AnytimeNN, BayesTree, MCTree
    from sklearn.neighbors import KNeighborsClassifier

    Xtr, ytr, Xq, case = _data(quick)
    nq = len(Xq)
    rows = []
    repeat = 1 if quick else 2
    mc = MCTree(random_state=0).fit(Xtr, ytr)
    bt = BayesTree(random_state=0).fit(Xtr, ytr)
    mc.predict_proba_anytime(Xq[:5], [10])  # compile outside the timings
    bt.predict_proba_anytime(Xq[:5], [10])
    mc.predict_proba(Xq[:5])
    t_peer, peer_scores = best_of(lambda: _kde_peer(mc, Xq), repeat=1)
    ours_full = mc.kde_log_scores(mc._transform(Xq))
    agree = float(np.mean(np.argmax(ours_full, 1) == np.argmax(peer_scores, 1)))
    t_full, _ = best_of(lambda: mc.predict_proba(Xq), repeat)
    rows.append(row("anytime", f"{case}: full kernel density", "MCTree.predict_proba (brute force, Numba)",
                    t_full, "sklearn KernelDensity per class", t_peer,
                    note=f"{nq / t_full:.0f} vs {nq / t_peer:.0f} queries/s; same decisions on {100 * agree:.1f}%"))
    for est, label in ((mc, "MC-Tree"), (bt, "Bayes tree")):
        for budget in (10, 100, 1000):
            t, (_, units, _) = best_of(lambda: est.predict_proba_anytime(Xq, [budget], return_cost=True), repeat)
            rows.append(row("anytime", f"{case}: {label} at {budget} Gaussians", "predict_proba_anytime", t,
                            "sklearn KernelDensity per class (full budget)", t_peer,
                            note=f"{nq / t:.0f} queries/s; {units.mean():.0f} Gaussians/query evaluated"))
    nn = AnytimeNN(random_state=0).fit(Xtr, ytr)
    nn.predict_proba_anytime(Xq[:5], [10])
    Z, Zq = (Xtr - nn.center_) / nn.scale_, (Xq - nn.center_) / nn.scale_
    knn = KNeighborsClassifier(n_neighbors=1, algorithm="brute").fit(Z, ytr)
    t_knn, _ = best_of(lambda: knn.predict(Zq), repeat)
    for budget in (10, 100, 1000):
        t, _ = best_of(lambda: nn.predict_proba_anytime(Xq, [budget]), repeat)
        rows.append(row("anytime", f"{case}: anytime NN at {budget} instances", "predict_proba_anytime", t,
                        "KNeighborsClassifier(1, brute), all instances", t_knn, note=f"{nq / t:.0f} queries/s"))
    t_all, _ = best_of(lambda: nn.predict_proba(Xq), repeat)
    rows.append(row("anytime", f"{case}: anytime NN, all instances", "AnytimeNN.predict_proba", t_all,
                    "KNeighborsClassifier(1, brute)", t_knn, note=f"{nq / t_all:.0f} vs {nq / t_knn:.0f} queries/s"))
    t_fit, _ = best_of(lambda: MCTree(random_state=0).fit(Xtr, ytr), 1)
    t_bfit, _ = best_of(lambda: BayesTree(random_state=0).fit(Xtr, ytr), 1)
    rows.append(row("anytime", f"{case}: fit", "MCTree.fit (delta=inf)", t_fit, "BayesTree.fit", t_bfit,
                    note="tree construction"))
    return rows
