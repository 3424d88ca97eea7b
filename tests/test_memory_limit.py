"""Per-split memory limit (``mem_limit_gb``): an allocation beyond it raises MemoryError in
NumPy and in Numba-compiled code, the process survives, the runner stores the split as failed
with a message naming the limit, and the job goes on with the next split."""

import resource
import sys

import numpy as np
import pytest
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin

from bench.resources import AUTO_MEM_FRACTION, data_mb, memory_limit, physical_memory_bytes, resolve_mem_limit
from bench.runner import SetupError, algo_identity, run_job

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA semantics are Linux's")

GiB = 2**30
CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}


@njit(cache=True)
def _njit_alloc(n):
    a = np.empty(n, np.float64)
    a[:] = 1.0
    return a.sum()


def _small_limit() -> int:
    """The current data memory + 200 MiB."""
    return int((data_mb() + 200) * 2**20)


def test_limit_raises_memory_error_in_numpy_and_numba_and_is_restored():
    _njit_alloc(10)  # compile (or load) outside the limit
    before = resource.getrlimit(resource.RLIMIT_DATA)
    n = GiB // 8
    with memory_limit(_small_limit()) as applied:
        assert applied is not None and resource.getrlimit(resource.RLIMIT_DATA)[0] == applied
        with pytest.raises(MemoryError):
            np.ones(n)
        with pytest.raises(MemoryError):
            np.zeros(n)  # calloc'd: counted even though untouched
        with pytest.raises(MemoryError):
            _njit_alloc(n)
        with pytest.raises(MemoryError):
            bytearray(GiB)
        assert np.ones(1000).sum() == 1000  # small allocations still work under the limit
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    # the process survived and the same allocations succeed once the limit is lifted
    assert np.ones(n)[-1] == 1.0 and _njit_alloc(n) == float(n)


def test_limit_is_restored_after_an_exception():
    before = resource.getrlimit(resource.RLIMIT_DATA)
    with pytest.raises(RuntimeError):
        with memory_limit(_small_limit()):
            raise RuntimeError("x")
    assert resource.getrlimit(resource.RLIMIT_DATA) == before


def test_resolve_mem_limit():
    assert resolve_mem_limit(None) is None and resolve_mem_limit(0) is None and resolve_mem_limit("null") is None
    assert resolve_mem_limit(1.5) == int(1.5 * GiB) and resolve_mem_limit("2") == 2 * GiB
    phys = physical_memory_bytes()
    assert phys and resolve_mem_limit("auto") == int(AUTO_MEM_FRACTION * phys)
    for bad in ("lots", -1, True):
        with pytest.raises(ValueError, match="mem_limit_gb"):
            resolve_mem_limit(bad)


class HungryClassifier(ClassifierMixin, BaseEstimator):
    """Allocates ``hungry_gb`` GiB in fit (NumPy or a Numba kernel) on the training fold of
    size ``hungry_n_train``; otherwise predicts the training class frequencies."""

    def __init__(self, hungry_n_train=-1, hungry_gb=1.0, numba=False):
        self.hungry_n_train = hungry_n_train
        self.hungry_gb = hungry_gb
        self.numba = numba

    def fit(self, X, y):
        if len(y) == self.hungry_n_train:
            n = int(self.hungry_gb * GiB) // 8
            self.waste_ = _njit_alloc(n) if self.numba else np.ones(n).sum()
        self.classes_, counts = np.unique(y, return_counts=True)
        self.prior_ = counts / counts.sum()
        return self

    def predict_proba(self, X):
        return np.tile(self.prior_, (len(X), 1))


@pytest.mark.parametrize("use_numba", [False, True])
def test_split_over_the_limit_fails_cleanly_and_the_job_goes_on(tmp_path, use_numba):
    # iris under cv2 with seed 0: both training folds hold 75 rows; sk_wine (178): 89 and 89
    algo = {"name": "hungry", "estimator": {"_target_": "tests.test_memory_limit.HungryClassifier",
                                            "hungry_n_train": 89, "hungry_gb": 1.0, "numba": use_numba}}
    _njit_alloc(10)
    limit_gb = (data_mb() + 300) / 1024
    before = resource.getrlimit(resource.RLIMIT_DATA)
    res = run_job(algo, "sk_wine", {**CV2, "n_repeats": 2}, 0, "e", str(tmp_path), progress=False,
                  warmup=False, mem_limit_gb=limit_gb)
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    assert len(res.records) == 4 and len(res.failed) == 4  # every fold of wine trains on 89 rows
    rec = res.failed[0]
    assert rec["status"] == "failed" and rec["error"].startswith("MemoryError")
    assert f"{limit_gb:.2f} GiB" in rec["error"] and "mem_limit_gb=" in rec["error"]
    assert "Raise it with mem_limit_gb=<GiB>" in rec["error"] and "MemoryError" in rec["traceback"]
    assert rec["memory_limit_mb"] == pytest.approx(limit_gb * 1024, abs=1e-3)
    # the same job without a limit computes all splits (1 GiB is fine on the machine)
    ok = run_job(algo, "sk_wine", {**CV2, "n_repeats": 2}, 0, "e", str(tmp_path), progress=False,
                 warmup=False, mem_limit_gb=None)
    assert ok.computed == 4 and not ok.failed


def test_next_split_runs_after_a_failed_one(tmp_path):
    # kfold with 3 folds on wine (178 rows) trains on 118/119/119 rows: only folds of 118 rows blow up
    from bench.data import load
    from bench.protocols import splits

    proto = {"name": "cv3", "kind": "kfold", "n_splits": 3}
    sizes = [s.train.size for s in splits(load("sk_wine").y, proto, 0)]
    target = min(set(sizes), key=sizes.count)  # a size held by fewer folds than the others
    algo = {"name": "hungry", "estimator": {"_target_": "tests.test_memory_limit.HungryClassifier",
                                            "hungry_n_train": int(target), "hungry_gb": 1.0}}
    res = run_job(algo, "sk_wine", proto, 0, "e", str(tmp_path), progress=False, warmup=False,
                  mem_limit_gb=(data_mb() + 300) / 1024)
    assert len(res.failed) == sizes.count(target) and len(res.records) == len(sizes)
    oks = [r for r in res.records if r["status"] == "ok"]
    assert len(oks) == len(sizes) - sizes.count(target) > 0
    assert all(r["n_train"] != target for r in oks)


def test_bad_option_is_a_setup_error(tmp_path):
    algo = {"name": "hungry", "estimator": {"_target_": "tests.test_memory_limit.HungryClassifier"}}
    with pytest.raises(SetupError, match="mem_limit_gb='lots'"):
        run_job(algo, "sk_wine", CV2, 0, "e", str(tmp_path), progress=False, mem_limit_gb="lots")


def test_limit_is_not_part_of_any_key(tmp_path):
    algo = {"name": "hungry", "estimator": {"_target_": "tests.test_memory_limit.HungryClassifier"}}
    a = run_job(algo, "sk_wine", CV2, 0, "e", str(tmp_path), progress=False, warmup=False, mem_limit_gb=None)
    b = run_job(algo, "sk_wine", CV2, 0, "e", str(tmp_path), progress=False, warmup=False, mem_limit_gb=8)
    assert a.key == b.key and a.directory == b.directory and b.reused == 2 and b.computed == 0
    assert "mem_limit_gb" not in algo and algo_identity(algo) == algo_identity(dict(algo))
    assert not any("mem_limit" in k for k in a.records[0])


def test_sweep_in_one_process_continues_after_a_split_over_the_limit(tmp_path):
    """The failure this guards against: one job's split exhausting memory used to get the whole
    sweep process OOM-killed; now its splits fail cleanly and the next job runs."""
    from bench.store import load
    from tests.conftest import run_bench

    out = run_bench(["-m", "algo=rf10", "data=sk_wine,sk_iris", "protocol=cv2", "progress=false", "warmup=false",
                     "allow_failures=true", "algo.estimator._target_=tests.test_memory_limit.HungryClassifier",
                     "~algo.estimator.n_estimators", "~algo.estimator.max_features", "~algo.estimator.n_jobs",
                     "+algo.estimator.hungry_n_train=89", "+algo.estimator.hungry_gb=4", "mem_limit_gb=2"],
                    tmp_path, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    df = load(tmp_path)
    wine, iris = df[df["dataset"] == "sk_wine"], df[df["dataset"] == "sk_iris"]
    assert len(wine) == 2 and (wine["status"] == "failed").all()
    assert wine["error"].str.contains("per-split memory limit of 2.00 GiB").all()
    assert len(iris) == 2 and (iris["status"] == "ok").all()
    assert "memory limit of 2.00 GiB (mem_limit_gb=2" in out.stderr
