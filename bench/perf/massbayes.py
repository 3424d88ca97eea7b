"""MassBayes (``algorithms.massbayes.MassBayes``): flat training time in N, and the speed of a
10-fold CV against the paper's Java figures and a same-run peer.

``massbayes_cv``: a full 10-fold CV (fit + predict_proba on every fold, bench's cv10 splits,
data already loaded, Numba kernels compiled beforehand) of MassBayes with psi = 5000, t = 100,
h = 10 on magic and letter, at 1 thread and, where the machine has them, 2 threads. Peers:

- the paper's Java implementation, Table 5 (3.9 s on magic, 5.5 s on letter, the runtime of
  the 10-fold CV on a 2.27 GHz machine in 2012; not the same run: a reference only);
- scikit-learn's ExtraTreesClassifier with the same budget shape, measured in the same run:
  100 trees, each on 5000 instances drawn per tree (bootstrap, max_samples=5000), one random
  attribute per split (max_features=1), grown to pure leaves: random trees on fixed-size
  subsamples, like h:d-trees.

``massbayes_flat``: training time of MassBayes (psi = 5000, t = 100) on the 48-d
RingCurve-Wave-TriGaussian at N = 70 000 ... 10 500 000, generated in chunks and fed to
``fit_stream`` (only the sample is kept). "ours" is the tree growing alone (the sampling pass,
which reads every chunk once, is reported in the note); the peer is scikit-learn's GaussianNB
``partial_fit`` over the same chunks, a linear-time count learner. The note gives the log-log
slope of our training time between the smallest and the largest N (the target is below 0.1).
"""

from __future__ import annotations

import time

import numpy as np

from . import benchmark, best_of, row

PAPER_JAVA_CV_S = {"magic": 3.9, "letter": 5.5}  # MassBayes, Table 5


def _cv_seconds(make, X, y, folds) -> float:
    t0 = time.perf_counter()
    for tr, te in folds:
        make().fit(X[tr], y[tr]).predict_proba(X[te])
    return time.perf_counter() - t0


@benchmark("massbayes_cv")
def massbayes_cv(quick: bool = False) -> list[dict]:
    import numba
    from sklearn.ensemble import ExtraTreesClassifier

    from algorithms.massbayes import MassBayes

    from ..data import load
    from ..protocols import splits

    rows = []
    base_threads = numba.get_num_threads()
    thread_counts = [base_threads] + ([2] if base_threads == 1 and numba.config.NUMBA_NUM_THREADS >= 2 else [])
    rng = np.random.default_rng(0)
    MassBayes(t=2, psi=50).fit(rng.random((100, 3)), np.arange(100) % 2).predict_proba(rng.random((5, 3)))
    for name in ("magic", "letter"):
        ds = load(name)
        folds = [(s.train, s.test) for s in splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0)]
        accs = []
        for threads in thread_counts:
            numba.set_num_threads(threads)
            ours_s, _ = best_of(lambda: _cv_seconds(lambda: MassBayes(t=100, h=10, psi=5000, random_state=0),
                                                    ds.X, ds.y, folds), repeat=1 if quick else 3)
            et_s, _ = best_of(lambda: _cv_seconds(
                lambda: ExtraTreesClassifier(n_estimators=100, max_features=1, bootstrap=True, max_samples=5000,
                                             n_jobs=threads, random_state=0), ds.X, ds.y, folds),
                repeat=1 if quick else 3)
            if not accs:
                for tr, te in folds:
                    m = MassBayes(t=100, h=10, psi=5000, random_state=0).fit(ds.X[tr], ds.y[tr])
                    accs.append(float((m.predict(ds.X[te]) == ds.y[te]).mean()))
            case = f"{name} 10-fold CV, psi=5000 t=100, {threads} thread(s)"
            note = f"accuracy {100 * np.mean(accs):.2f}%"
            rows.append(row("massbayes_cv", case, "MassBayes (Numba)", ours_s, "paper's Java (Table 5)",
                            PAPER_JAVA_CV_S[name], note=note + "; target ratio >= 5"))
            rows.append(row("massbayes_cv", case, "MassBayes (Numba)", ours_s,
                            "sklearn ExtraTrees (100 trees, 5000/tree, 1 attr/split)", et_s, note=note))
    numba.set_num_threads(base_threads)
    return rows


@benchmark("massbayes_flat")
def massbayes_flat(quick: bool = False) -> list[dict]:
    from sklearn.naive_bayes import GaussianNB

    from algorithms.massbayes import MassBayes

    from ..data.synthetic_massbayes import ringcurve_wave_trigaussian_chunks as chunks

    sizes = [70_000, 1_050_000] if quick else [70_000, 525_000, 1_050_000, 10_500_000]
    MassBayes(t=2, psi=500).fit_stream(chunks(2000, seed=0), n_samples=2000)  # compile
    rows, build = [], {}
    classes = np.arange(7)
    for n in sizes:
        model = MassBayes(t=100, h=10, psi=5000, random_state=0).fit_stream(chunks(n, seed=0), n_samples=n)
        extra = model.diagnostics_
        build[n] = extra["build_cpu_s"]
        nb, nb_s = GaussianNB(), 0.0
        for Xc, yc in chunks(n, seed=0):
            t0 = time.process_time()
            nb.partial_fit(Xc, yc, classes=classes)
            nb_s += time.process_time() - t0
        rows.append(row("massbayes_flat", f"RCWT-48d N={n}, psi=5000 t=100", "MassBayes trees (CPU s)",
                        extra["build_cpu_s"], "GaussianNB partial_fit (CPU s)", nb_s,
                        note=f"sampling pass incl. generation {extra['sampling_cpu_s']:.2f} s CPU; "
                             f"{extra['n_nodes']} nodes"))
    lo, hi = sizes[0], sizes[-1]
    slope = np.log(build[hi] / build[lo]) / np.log(hi / lo)
    rows.append(row("massbayes_flat", f"log-log slope of training time, N {lo} -> {hi}", "MassBayes trees",
                    build[hi], None, None, note=f"slope {slope:.3f} (target < 0.1); "
                                                f"time ratio {build[hi] / build[lo]:.2f} for {hi // lo}x data"))
    return rows


@benchmark("massbayes_fit_n")
def massbayes_fit_n(quick: bool = False) -> list[dict]:
    """Whole ``fit`` (validation, label coding, sampling, trees) of MassBayes (psi = 5000, t = 100,
    h = 10) on magic resampled with replacement to 190 000 and 1 900 000 rows (seed 0): least
    process CPU time of 3 fits each. The goal is at most 1.5x for 10x the rows; what still grows
    with N is linear: input validation, the label bincount and the sampling pass (a permutation of
    N when t psi >= N / 4)."""
    from algorithms.massbayes import MassBayes

    from ..data import load
    from .counts import best_cpu

    ds = load("magic")
    rng = np.random.default_rng(0)
    MassBayes(t=2, psi=50).fit(rng.random((100, 3)), np.arange(100) % 2)
    secs = {}
    for n in (190_000, 1_900_000):
        rows = rng.integers(0, ds.X.shape[0], n)
        X, y = ds.X[rows], ds.y[rows]
        secs[n] = best_cpu(lambda: MassBayes(t=100, h=10, psi=5000, random_state=0).fit(X, y), 1 if quick else 3)
    return [row("massbayes_fit_n", "magic resampled, whole fit CPU s at 1 900 000 vs 190 000 rows",
                "MassBayes fit at 190k", secs[190_000], "MassBayes fit at 1.9M", secs[1_900_000],
                note="peer/ours = growth for 10x rows (goal <= 1.5); psi=5000 t=100 h=10")]
