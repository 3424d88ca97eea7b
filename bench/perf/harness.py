"""The harness's own cost: a split through bench's runner against the bare
fit + predict_proba of the same estimator on the same arrays."""

from __future__ import annotations

import numpy as np

from . import benchmark, best_of, row


@benchmark("harness")
def harness_overhead(quick: bool = False) -> list[dict]:
    from sklearn.naive_bayes import GaussianNB

    from ..data.dataset import Dataset
    from ..protocols import Split
    from ..runner import run_split

    n = 20_000 if quick else 200_000
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 20))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(np.int64)
    ds = Dataset("perf", X, y, ["a", "b"], [f"x{j}" for j in range(20)], np.zeros(20, bool))
    idx = rng.permutation(n)
    split = Split(0, 0, np.sort(idx[: n // 2]), np.sort(idx[n // 2:]))
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}

    def bare():
        m = GaussianNB().fit(X[split.train], y[split.train])
        return m.predict_proba(X[split.test])

    t_bare, _ = best_of(bare)
    t_runner, _ = best_of(lambda: run_split(algo, ds, split, seed=0))
    return [row("harness", f"GaussianNB {n}x20 split", "bench runner", t_runner, "bare sklearn", t_bare,
                note="ratio < 1: runner overhead (slicing, pickled size, metrics)")]
