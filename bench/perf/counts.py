"""Count-engine speed: naive Bayes against scikit-learn's CategoricalNB, and A1DE against Weka 3.6's
AODE (training and classification), on letter and on a covtype-shaped table, in the same run.

Data. ``letter`` MDL-discretised (``MDLDiscretizer``, fitted on all rows), split as fold 0 of
10-fold CV. The covtype-shaped table has 581012 rows and 54 nominal attributes with covtype's
cardinalities: the mirror's ``covtype_head20k`` (the first 20000 rows of UCI covtype),
MDL-discretised, resampled with replacement to 581012 rows (seed 0); 90% train, 10% test.
Both sides get the same discretised codes (Weka as an ARFF with the value lists declared), so
discretisation time is outside every timing.

Timings. Ours: ``fit`` includes input validation and coding; best wall time of 3 calls
after one warm-up (Numba compiled), and the best process CPU time in the note (robust when
the machine is shared). Weka: ``WekaTime`` builds and tests 3 times in one JVM and
the best (JIT-warm) repeat counts; ARFF parsing is excluded. Settings matched: AODE ``-F 1``
(Laplace) against ``AnDE(n=1, smoothing="laplace")``, whose probabilities agree with it to
about 1e-15 (tests/test_weka_bayes.py). CategoricalNB gets the same float array and declared
value counts (``min_categories``). The count-pass row times only the attribute-value x class
counting kernel on already coded data and reports cell updates per second. The rows marked
``int8 codes`` fit on the same codes as a small integer array, which is what Weka gets (nominal
values; bench's discretisers hand on float codes, NaN for missing): no float checks, a smaller read.
"""

from __future__ import annotations

import numpy as np

from . import benchmark, best_cpu, best_of, row  # noqa: F401  (best_cpu: bench.perf.petal imports it here)

COVTYPE_ROWS = 581_012


def _nominal_dataset(name, X, y, n_values, classes):
    from ..data.dataset import Dataset

    d = X.shape[1]
    return Dataset(name, X, y, list(classes), [f"a{j}" for j in range(d)], np.ones(d, dtype=bool),
                   [[str(v) for v in range(int(k))] for k in n_values], {"source": "synthetic:perf"})


def letter_mdl():
    """MDL-discretised letter as a nominal Dataset."""
    from algorithms.discretize import MDLDiscretizer

    from ..data import load

    ds = load("letter")
    disc = MDLDiscretizer(categorical_features=ds.categorical, n_categories=ds.n_categories)
    X = disc.fit_transform(ds.X, ds.y)
    return _nominal_dataset("letter_mdl", X, ds.y, disc.n_categories_out_, ds.classes)


def covtype_shaped(n_rows: int = COVTYPE_ROWS, seed: int = 0):
    """covtype_head20k MDL-discretised and resampled to ``n_rows`` (synthetic with the same
    cardinalities when the mirror is not available)."""
    from algorithms.discretize import MDLDiscretizer

    from ..data import DataError, load

    rng = np.random.default_rng(seed)
    try:
        ds = load("covtype_head20k")
        disc = MDLDiscretizer(categorical_features=ds.categorical, n_categories=ds.n_categories)
        Xd = disc.fit_transform(ds.X, ds.y)
        rows = rng.integers(0, ds.n_instances, n_rows)
        return _nominal_dataset(f"covtype_shaped_{n_rows}", Xd[rows], ds.y[rows], disc.n_categories_out_,
                                ds.classes), "covtype_head20k MDL-discretised, resampled"
    except DataError:
        k = np.array([21, 10, 8, 9, 9, 15, 9, 8, 8, 21] + [2] * 44)
        y = rng.integers(0, 7, n_rows)
        X = np.where(rng.random((n_rows, k.size)) < 0.3, y[:, None] % k, rng.integers(0, k, (n_rows, k.size)))
        return _nominal_dataset(f"covtype_shaped_{n_rows}", X.astype(float), y, k, [str(c) for c in range(7)]), \
            "synthetic with covtype's MDL cardinalities"


def _split(n, seed=0, test_fraction=0.1):
    perm = np.random.default_rng(seed).permutation(n)
    n_test = int(round(n * test_fraction))
    return np.sort(perm[n_test:]), np.sort(perm[:n_test])


def _nb_rows(case, ds, tr):
    from sklearn.naive_bayes import CategoricalNB

    from algorithms._counts import CountTable, code_dtype, encode, encode_classes
    from algorithms.naive_bayes import NaiveBayes

    X, y = ds.X[tr], ds.y[tr]
    k = ds.n_categories
    ours = lambda: NaiveBayes(categorical_features=ds.categorical, n_categories=k).fit(X, y)  # noqa: E731
    peer = lambda: CategoricalNB(alpha=1.0, min_categories=k).fit(X, y)                   # noqa: E731
    ours()
    t_ours, _ = best_of(ours, 3)
    Xcodes = X.astype(code_dtype(int(np.max(k))))
    ours_int = lambda: NaiveBayes(categorical_features=ds.categorical, n_categories=k).fit(Xcodes, y)  # noqa: E731
    ours_int()
    t_int, _ = best_of(ours_int, 3)
    cpu_int = best_cpu(ours_int, 3)
    t_peer, _ = best_of(peer, 3)
    cpu_ours, cpu_peer = best_cpu(ours, 3), best_cpu(peer, 3)
    codes, yc = encode(X, k), encode_classes(y, ds.n_classes)
    sets = np.arange(X.shape[1]).reshape(-1, 1)

    def count_pass():
        tb = CountTable(sets, k, ds.n_classes)
        tb.add(codes, yc)
        return tb

    count_pass()
    t_count, _ = best_of(count_pass, 5)
    cpu_count = best_cpu(count_pass, 5)
    cells = X.shape[0] * X.shape[1]
    rows = []
    from ..weka import available
    if available():
        from ..weka.timing import time_classifier

        te = np.setdiff1d(np.arange(ds.X.shape[0]), tr)[:2000]
        w = time_classifier(ds, tr, te, "weka.classifiers.bayes.NaiveBayes", [], repeats=3)
        rows.append(row("counts", f"NB fit {case} {X.shape[0]}x{X.shape[1]}", "NaiveBayes (NB-Disc)", t_ours,
                        "Weka NaiveBayes", w.best_train_s,
                        note=f"same codes as nominal ARFF; Weka best of 3 builds in one JVM (first "
                             f"{w.train_s[0]:.2f}s); goal ratio >= 2"))
        rows.append(row("counts", f"NB fit {case} {X.shape[0]}x{X.shape[1]}, {Xcodes.dtype} codes",
                        "NaiveBayes (NB-Disc)", t_int, "Weka NaiveBayes", w.best_train_s,
                        note=f"ours {cpu_int:.3f} CPU s on integer codes (as Weka gets nominal values)",
                        ours_cpu_s=cpu_int))
    return rows + [
        row("counts", f"NB fit {case} {X.shape[0]}x{X.shape[1]}", "NaiveBayes (NB-Disc)", t_ours,
            "sklearn CategoricalNB", t_peer, note=f"fit incl. validation and coding; CPU s ours {cpu_ours:.4f}, "
                                                  f"CategoricalNB {cpu_peer:.4f}", ours_cpu_s=cpu_ours,
            peer_cpu_s=cpu_peer),
        row("counts", f"NB count pass {case} {X.shape[0]}x{X.shape[1]}", "attribute-value x class kernel",
            t_count, "sklearn CategoricalNB fit", t_peer,
            note=f"{cells / t_count / 1e6:.0f} M cell updates/s wall, {cells / max(cpu_count, 1e-9) / 1e6:.0f} M/s CPU, "
                 f"one core", cells_per_s=cells / t_count, ours_cpu_s=cpu_count),
    ]


def _ande_rows(case, ds, tr, te, weka_repeats, a2de_test_rows):
    from algorithms._counts import code_dtype
    from algorithms.ande import AnDE

    from ..weka import available
    from ..weka.timing import time_classifier

    Xtr, ytr, Xte = ds.X[tr], ds.y[tr], ds.X[te]
    k = ds.n_categories
    make = lambda n: AnDE(n=n, smoothing="laplace", min_parent_count=1, n_categories=k)  # noqa: E731
    model = make(1).fit(Xtr, ytr)
    model.predict_proba(Xte[:10])
    t_fit, model = best_of(lambda: make(1).fit(Xtr, ytr), 3)
    t_pred, _ = best_of(lambda: model.predict_proba(Xte), 3)
    cpu_fit = best_cpu(lambda: make(1).fit(Xtr, ytr), 3)
    cpu_pred = best_cpu(lambda: model.predict_proba(Xte), 3)
    shape = f"{len(tr)}x{Xtr.shape[1]}"
    if available():
        w = time_classifier(ds, tr, te, "weka.classifiers.bayes.AODE", ["-F", "1"], repeats=weka_repeats)
        w_fit, w_pred = w.best_train_s, w.best_test_s
        note_w = f"Weka first (cold) repeat: train {w.train_s[0]:.2f}s, test {w.test_s[0]:.2f}s"
    else:
        w_fit = w_pred = None
        note_w = "Weka not installed: no peer"
    # the same codes as integers (what Weka and Petal receive: nominal values, no float columns to check)
    Xcodes = Xtr.astype(code_dtype(int(np.max(k))))
    make(1).fit(Xcodes, ytr)
    t_fit_i, _ = best_of(lambda: make(1).fit(Xcodes, ytr), 3)
    cpu_fit_i = best_cpu(lambda: make(1).fit(Xcodes, ytr), 3)
    rows = [
        row("counts", f"A1DE fit {case} {shape}", "AnDE n=1 (Laplace, F=1)", t_fit, "Weka AODE -F 1", w_fit,
            note=f"ours {cpu_fit:.3f} CPU s; " + note_w, ours_cpu_s=cpu_fit),
        row("counts", f"A1DE fit {case} {shape}, {Xcodes.dtype} codes", "AnDE n=1 (Laplace, F=1)", t_fit_i,
            "Weka AODE -F 1", w_fit, note=f"ours {cpu_fit_i:.3f} CPU s on integer codes (as Weka gets nominal values)"
                                          + ("; goal ratio >= 10" if len(tr) > 100_000 else ""), ours_cpu_s=cpu_fit_i),
        row("counts", f"A1DE predict {case} {len(te)} rows", "AnDE n=1", t_pred, "Weka AODE -F 1", w_pred,
            note=f"{len(te) / t_pred:,.0f} rows/s ours ({cpu_pred:.3f} CPU s)"
                 + (f", {len(te) / w_pred:,.0f} rows/s Weka" if w_pred else ""),
            rows_per_s=len(te) / t_pred, ours_cpu_s=cpu_pred),
    ]
    a2 = make(2).fit(Xtr[:1000], ytr[:1000])          # warm-up (compilation)
    a2.predict_proba(Xte[:5])
    reps = 1 if len(tr) > 100_000 else 3
    t2_fit, a2 = best_of(lambda: make(2).fit(Xtr, ytr), reps)
    cpu2_fit = best_cpu(lambda: make(2).fit(Xtr, ytr), reps)
    sub = Xte[:a2de_test_rows]
    t2_pred, _ = best_of(lambda: a2.predict_proba(sub), 1)
    cpu2_pred = best_cpu(lambda: a2.predict_proba(sub), 1)
    rows += [
        row("counts", f"A2DE fit {case} {shape}", "AnDE n=2 (Laplace, F=1)", t2_fit,
            note=f"ours {cpu2_fit:.2f} CPU s; no peer (Weka 3.6 has no A2DE); tables "
                 f"{a2.counts_.nbytes / 1e6:.1f} MB", ours_cpu_s=cpu2_fit),
        row("counts", f"A2DE predict {case} {len(sub)} rows", "AnDE n=2", t2_pred,
            note=f"{len(sub) / t2_pred:,.0f} rows/s ({cpu2_pred:.2f} CPU s)", rows_per_s=len(sub) / t2_pred,
            ours_cpu_s=cpu2_pred),
    ]
    return rows


@benchmark("counts")
def counts(quick: bool = False) -> list[dict]:
    rows = []
    letter = letter_mdl()
    from ..protocols import splits

    s = next(iter(splits(letter.y, {"kind": "kfold", "n_splits": 10}, 0)))
    rows += _nb_rows("letter (MDL)", letter, s.train)
    rows += _ande_rows("letter (MDL)", letter, s.train, s.test, weka_repeats=5, a2de_test_rows=len(s.test))
    n = 100_000 if quick else COVTYPE_ROWS
    big, how = covtype_shaped(n)
    tr, te = _split(n)
    case = f"covtype-shaped ({how})"
    rows += _nb_rows(case, big, tr)
    rows += _ande_rows(case, big, tr, te, weka_repeats=2 if quick else 3, a2de_test_rows=2000)
    return rows
