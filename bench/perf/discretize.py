"""Discretisation speed: our MDL / equal-frequency discretisers against Weka 3.6's Discretize
filters on the same training data, in the same run.

Both sides learn the cut points and discretise the training data: ours is
``fit_transform``, Weka's is ``setInputFormat`` + ``Filter.useFilter`` timed on
the Java side (excluding JVM start-up and ARFF parsing). Each side's time is
the minimum over repeats; Weka's repeats run in one JVM, so the best one is
JIT-warm. The rows also check that both sides found the same cut points.
"""

from __future__ import annotations

import numpy as np

from . import benchmark, best_of, row


def _synthetic(n: int, d: int = 10, n_classes: int = 7, seed: int = 0):
    """A covtype-shaped numeric table (n x d, 7 classes) with continuous values (all distinct:
    the worst case for sorting and for the number of candidate cuts)."""
    from ..data.dataset import Dataset

    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    centres = rng.normal(size=(n_classes, d))
    X = centres[y] + rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d)
    return Dataset(f"synth_{n}x{d}", X, y, [f"c{k}" for k in range(n_classes)], [f"x{j}" for j in range(d)],
                   np.zeros(d, dtype=bool), meta={"source": "synthetic:perf"})


def _case(name, ds, ours_factory, weka_filter, weka_options, weka_repeats):
    from ..weka import available
    from ..weka import cuts as W

    X, y = np.asarray(ds.X), ds.y
    fitted = ours_factory().fit(X, y)  # also compiles / loads the Numba cache outside the timing
    t_ours, _ = best_of(lambda: ours_factory().fit_transform(X, y), 3)
    if not available():
        return row("discretize", name, "bench", t_ours, note="Weka not installed: no peer")
    w = W.cut_points(ds, np.arange(ds.n_instances), weka_filter, weka_options, repeats=weka_repeats, heap="6g")
    agree = W.compare(fitted.cut_points_, w.cut_points)
    return row("discretize", name, "bench", t_ours, "Weka 3.6", w.best_fit_s,
               note=f"cut points identical on {agree.n_identical}/{agree.n_attributes} attributes; "
                    f"Weka first run {w.fit_s[0]:.3f}s",
               weka_fit_s=w.fit_s, identical=agree.n_identical, attributes=agree.n_attributes)


@benchmark("discretize")
def discretize(quick: bool = False) -> list[dict]:
    from algorithms.discretize import EqualFrequencyDiscretizer, MDLDiscretizer

    from ..data import load
    from ..weka.cuts import SUPERVISED, UNSUPERVISED

    rows = []
    letter = load("letter")
    rows.append(_case(f"MDL fit letter {letter.n_instances}x{letter.n_features}", letter, MDLDiscretizer,
                      SUPERVISED, [], 5))
    rows.append(_case(f"equal-freq 10 fit letter {letter.n_instances}x{letter.n_features}", letter,
                      EqualFrequencyDiscretizer, UNSUPERVISED, ["-F", "-B", "10"], 5))
    n = 100_000 if quick else 581_012
    big = _synthetic(n)
    rows.append(_case(f"MDL fit synthetic {n}x10, 7 classes", big, MDLDiscretizer, SUPERVISED, [], 2))
    return rows
