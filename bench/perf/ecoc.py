"""ECOC-NB speed (seed 001): training time of ECOC-NB with 1023-bit BCH codes against NB's, and the
straightforward ECOC's scaling in the number of bits, measured in one run.

Cases.

* ``gauss 200k`` (quick: 50k): 200000 x 50 dense numeric rows, 16 classes (Gaussian classes with
  rounded values), 90% for training. Many instances per attribute: the regime of the paper's
  claim that ECOC-NB "is almost as fast as a conventional Naive Bayes" (O((n + t) g) against
  O(t g), with t >> n). Normal estimator.
* ``letter``: UCI letter (20000 x 16, 26 classes), fold 0 of 10-fold CV, normal estimator.
* ``wap``: the paper's text set wap (1560 x 8460 word counts, sparse, 20 classes), fold 0 of 10-fold
  CV, normal, kernel and 10-bin equal-frequency discretised estimators (the discretisation is fitted
  once, outside the timings, as the paper discretised its data beforehand). Here NB is a pass over
  the ~200k stored counts, O(nnz + g k), while the precalculation of 1023 columns is
  O(n g k) = 1023 x 8460 x 20: the ratio is far above 1, as in the paper's Tables 2-4 at 1023 bits
  (1.8x normal, 3.2x kernel, 9.9x discretised on fbis), and it is reported as measured.

Timings: process CPU seconds of ``fit`` (validation, the pass, the code draw and the
precalculation), the best of 3 calls after a warm-up (Numba compiled, BCH codebook cached); the
machine is shared, so CPU time is used and the ratios matter, not the seconds. Peers in the same run:
NB on the same statistics engine (:class:`OnePassNaiveBayes`), and the project's
:class:`algorithms.naive_bayes.NaiveBayes` (dense data only). The straightforward ECOC
(:class:`StraightforwardECOC`, n independent NB trainings) is timed at 15, 31, 63 and 127 bits;
its seconds per bit should be constant (linear scaling).
"""

from __future__ import annotations

import time

import numpy as np

from . import benchmark, row

LENGTH = 1023
SF_LENGTHS = (15, 31, 63, 127)


def best_cpu(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def gaussian_classes(n: int, d: int = 50, k: int = 16, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = np.round(rng.normal(0, 2, (k, d))[y] + rng.normal(0, 1, (n, d)), 2)
    return X, y


def _fold0(y):
    from ..protocols import splits

    s = next(iter(splits(y, {"kind": "kfold", "n_splits": 10}, 0)))
    return s.train


def _ecoc_rows(case, X, y, numeric="normal", dense_peer=True, nb_kwargs=None, sf=True):
    from algorithms.ecoc import ECOCNaiveBayes, OnePassNaiveBayes, StraightforwardECOC
    from algorithms.naive_bayes import NaiveBayes

    kw = dict(numeric=numeric, **(nb_kwargs or {}))
    nb = lambda: OnePassNaiveBayes(**kw).fit(X, y)               # noqa: E731
    ecoc = lambda: ECOCNaiveBayes(code="bch", code_length=LENGTH, random_state=0, **kw).fit(X, y)  # noqa: E731
    nb(), ecoc()                                                   # warm-up: Numba, BCH codebook
    t_nb, t_ecoc = best_cpu(nb), best_cpu(ecoc)
    shape = f"{X.shape[0]}x{X.shape[1]}, k={np.unique(y).size}"
    est = {"normal": "normal", "kernel": "kernel", "discrete": "discretised"}[numeric if not nb_kwargs else "discrete"]
    rows = [row("ecoc", f"fit {case} {shape} ({est})", f"ECOC-NB {LENGTH}-bit BCH", t_ecoc,
                "NB (same statistics engine)", t_nb,
                note=f"ECOC-NB / NB = {t_ecoc / t_nb:.2f} (issue target <= 1.3; paper fbis: 1.8 normal, "
                     f"3.2 kernel, 9.9 discretised)")]
    if dense_peer and numeric in ("normal", "kernel") and not nb_kwargs:
        ref = lambda: NaiveBayes(numeric={"normal": "gaussian", "kernel": "kde"}[numeric]).fit(X, y)  # noqa: E731
        ref()
        t_ref = best_cpu(ref)
        rows.append(row("ecoc", f"fit {case} {shape} ({est})", f"ECOC-NB {LENGTH}-bit BCH", t_ecoc,
                        "NaiveBayes (algorithms.naive_bayes)", t_ref,
                        note=f"ECOC-NB / NaiveBayes = {t_ecoc / t_ref:.2f}"))
    if sf:
        per_bit = []
        for bits in SF_LENGTHS:
            fit = lambda b=bits: StraightforwardECOC(code="bch", code_length=b, random_state=0, **kw).fit(X, y)  # noqa: E731
            t_sf = best_cpu(fit, repeat=1 if bits > 31 else 2)
            per_bit.append(t_sf / bits)
            rows.append(row("ecoc", f"fit {case} {shape} ({est}) straightforward {bits} bits",
                            f"straightforward ECOC {bits}-bit", t_sf, "NB (same statistics engine)", t_nb,
                            note=f"SF / NB = {t_sf / t_nb:.1f} (paper: about the number of bits); "
                                 f"{1e3 * t_sf / bits:.2f} ms per bit"))
        rows[-1]["note"] += f"; ms per bit at 15..127 bits: {', '.join(f'{1e3 * p:.2f}' for p in per_bit)}"
    return rows


@benchmark("ecoc")
def ecoc(quick: bool = False) -> list[dict]:
    from algorithms.ecoc import SparseEqualFrequencyDiscretizer

    from ..data import load

    rows = []
    n = 50_000 if quick else 200_000
    X, y = gaussian_classes(n)
    tr = np.arange(int(0.9 * n))
    rows += _ecoc_rows(f"gauss {n // 1000}k", X[tr], y[tr], sf=not quick)
    letter = load("letter")
    tr = _fold0(letter.y)
    rows += _ecoc_rows("letter", letter.X[tr], letter.y[tr])
    wap = load("wap")
    tr = _fold0(wap.y)
    Xw, yw = wap.X[tr], wap.y[tr]
    rows += _ecoc_rows("wap", Xw, yw, dense_peer=False)
    if not quick:
        rows += _ecoc_rows("wap", Xw, yw, numeric="kernel", dense_peer=False)
    disc = SparseEqualFrequencyDiscretizer(n_bins=10).fit(Xw)
    rows += _ecoc_rows("wap", disc.transform(Xw), yw, dense_peer=False, sf=not quick,
                       nb_kwargs={"categorical_features": np.ones(Xw.shape[1], bool),
                                  "n_categories": disc.n_categories_out_})
    return rows
