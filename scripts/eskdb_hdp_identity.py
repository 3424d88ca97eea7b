"""Bit-identity and CPU-time check of ESKDB_HDP (conf/algo/eskdb_hdp.yaml settings).

    python scripts/eskdb_hdp_identity.py save DIR   # write predict_proba of each case to DIR
    python scripts/eskdb_hdp_identity.py check DIR  # refit and compare with np.array_equal

Cases: car, vowel, segment (whole) and a 3000-row connect_4 subsample; fit CPU seconds
(time.process_time) are printed for each. Needs the dataset mirror (BENCH_DATA_DIR).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's bench/algorithms

CASES = (("car", None), ("vowel", None), ("segment", None), ("connect_4", 3000))


def _model(ds):
    from algorithms.eskdb import ESKDB
    return ESKDB(n_estimators=10, max_k=5, estimation="hdp", n_iterations=1000, burn_in=100, tying="level",
                 prior="gamma", random_cut_points=True, random_order=True, cut_point_count="boundaries",
                 missing_slot="observed", tie_order="weka", loo_rule="authors", n_jobs=1, random_state=0,
                 categorical_features=ds.categorical, n_categories=ds.n_categories)


def main(mode: str, out: str) -> int:
    from bench.data import load
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    bad = 0
    from algorithms.eskdb import ESKDB
    rng = np.random.default_rng(0)  # compile the Numba kernels outside the timings
    Xw = rng.normal(size=(200, 3))
    ESKDB(n_estimators=2, estimation="hdp", n_iterations=20, burn_in=5, random_state=0).fit(Xw, Xw[:, 0] > 0)
    for name, rows in CASES:
        ds = load(name)
        X, y = ds.X, ds.y
        if rows is not None:
            idx = np.random.default_rng(0).permutation(X.shape[0])[:rows]
            X, y = X[idx], y[idx]
        c0 = time.process_time()
        model = _model(ds).fit(X, y)
        cpu = time.process_time() - c0
        proba = model.predict_proba(X)
        path = out_dir / f"{name}.npy"
        if mode == "save":
            np.save(path, proba)
            status = "saved"
        else:
            ok = np.array_equal(np.load(path), proba)
            bad += not ok
            status = "IDENTICAL" if ok else "DIFFERENT"
        print(f"{name:10s} {X.shape[0]:6d}x{X.shape[1]:<3d} fit CPU {cpu:7.2f} s  {status}", flush=True)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
