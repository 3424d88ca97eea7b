"""MC-Tree's clustering and MDS kernels against scikit-learn's, at the sizes MC-Tree uses:

- k-means++ seeding + EM for a diagonal Gaussian mixture (``algorithms.anytime._kernels.
  kmeanspp_seeds`` + ``em_diag_gmm``, as ``MCTree._split`` calls them) against
  ``sklearn.cluster.kmeans_plusplus`` + ``GaussianMixture(covariance_type="diag")`` with the same
  iteration cap, tolerance and variance floor; and, to separate the seeding from the EM, the
  scikit-learn mixture started at *our* seeds;
- SMACOF (``smacof``, unit weights, started at the original coordinates, as ``MCTree._mds``)
  against ``sklearn.manifold.smacof(metric=True, init=..., n_init=1)`` on the same class-penalised
  dissimilarities, at ``mds_max_points`` = 500 landmarks.

Besides the time, each row says whether the result is the same (labels, or the configuration to
the last bit): MC-Tree may only move to the library where the trees stay identical.

Data: letter (16 attributes, 26 classes; MC-Tree's Sec. 4.1 fanout = #classes = 26, and the
2 KB page fanout of :func:`algorithms.anytime.mctree.page_fanout`) when ``BENCH_DATA_DIR`` has
it, else the synthetic stand-in of :mod:`bench.perf.anytime`.
"""

from __future__ import annotations

import numpy as np

from . import benchmark, best_of, row


def _ours_em(Y, k, seed, max_iter=100, tol=1e-4):
    from algorithms.anytime._kernels import em_diag_gmm, kmeanspp_seeds

    rng = np.random.default_rng(seed)
    seeds = kmeanspp_seeds(Y, k, rng.random(k))
    var = Y.var(axis=0).mean() if Y.shape[1] else 0.0
    labels = em_diag_gmm(Y, np.ascontiguousarray(Y[seeds]), max_iter, tol, 1e-6 * var + 1e-12)
    return seeds, labels


def _sklearn_em(Y, k, seed, means=None, max_iter=100, tol=1e-4):
    from sklearn.cluster import kmeans_plusplus
    from sklearn.mixture import GaussianMixture

    if means is None:
        means, _ = kmeans_plusplus(Y, k, random_state=seed)
    var = Y.var(axis=0).mean() if Y.shape[1] else 0.0
    gm = GaussianMixture(n_components=k, covariance_type="diag", means_init=means, max_iter=max_iter, tol=tol,
                         reg_covar=1e-6 * var + 1e-12, random_state=seed)
    return gm.fit(Y).predict(Y)


def _agreement(a, b) -> str:
    from sklearn.metrics import adjusted_rand_score

    same = "identical labels" if np.array_equal(a, b) else "labels differ"
    return f"{same} (ARI {adjusted_rand_score(a, b):.3f})"


@benchmark("mctree_libs")
def mctree_library_kernels(quick: bool = False) -> list[dict]:
    from sklearn.manifold import smacof as sk_smacof

    from algorithms.anytime._kernels import class_penalised_distances, smacof
    from algorithms.anytime.mctree import page_fanout

    from .anytime import _data

    Xtr, ytr, _, case = _data(quick)
    Z = (Xtr - Xtr.mean(axis=0)) / np.where(Xtr.std(axis=0) > 0, Xtr.std(axis=0), 1.0)
    repeat = 1 if quick else 3
    rows = []
    big = np.bincount(ytr).argmax()
    cases = [(f"one class's node ({(ytr == big).sum()} objects)", np.ascontiguousarray(Z[ytr == big])),
             (f"all objects ({len(Z)})", np.ascontiguousarray(Z))]
    fanouts = sorted({int(np.unique(ytr).size), int(page_fanout(Z.shape[1]))})
    _ours_em(cases[0][1][:50], 3, 0)   # compile outside the timings
    for label, Y in cases:
        for k in fanouts:
            t_ours, (seeds, ours) = best_of(lambda: _ours_em(Y, k, 0), repeat)
            t_sk, sk = best_of(lambda: _sklearn_em(Y, k, 0), repeat)
            sk_same_start = _sklearn_em(Y, k, 0, means=Y[seeds])
            rows.append(row("mctree_libs", f"{case}: EM {label}, {Y.shape[1]} attributes, theta={k}",
                            "kmeanspp_seeds + em_diag_gmm (Numba)", t_ours,
                            "sklearn kmeans_plusplus + GaussianMixture(diag)", t_sk,
                            note=f"sklearn: {_agreement(ours, sk)}; sklearn GMM from our seeds: "
                                 f"{_agreement(ours, sk_same_start)}"))
    m = 250 if quick else 500   # MCTree's mds_max_points
    rng = np.random.default_rng(0)
    lm = np.sort(rng.choice(len(Z), size=m, replace=False))
    Lz, Ly = np.ascontiguousarray(Z[lm]), ytr[lm].astype(np.int64)
    for delta in (2.0, 10.0):
        target = class_penalised_distances(Lz, Ly, delta)
        smacof(target[:20, :20], Lz[:20], 2, 1e-5)   # compile outside the timings
        t_ours, (X1, s1, it1) = best_of(lambda: smacof(target, Lz, 100, 1e-5), repeat)
        t_sk, (X2, s2, it2) = best_of(lambda: sk_smacof(target, metric=True, n_components=Lz.shape[1], init=Lz,
                                                         n_init=1, max_iter=100, eps=1e-5, normalized_stress=False,
                                                         return_n_iter=True), repeat)
        diff = float(np.abs(X1 - X2).max())
        rows.append(row("mctree_libs", f"{case}: SMACOF {m} landmarks, {Lz.shape[1]} dims, delta={delta:g}",
                        "smacof (Numba)", t_ours, "sklearn.manifold.smacof", t_sk,
                        note=f"{it1} vs {it2} iterations; raw stress {s1:.6g} vs {s2:.6g}; "
                             f"max |X_ours - X_sklearn| = {diff:.3g}"
                             + ("; identical" if np.array_equal(X1, X2) else "")))
    return rows
