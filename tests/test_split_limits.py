"""Splits bounded in memory and time without ending the job or the sweep: each
split runs in a forked child process under the limits; a split over its time budget is stopped and
stored as ``timeout``, one whose process dies (an abort in native code out of memory, a crash) is
stored as failed with a message naming the limit, and the job goes on. Results stay bit-identical
to an in-process run."""

import json
import resource
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from bench.data import load as load_data
from bench.protocols import splits
from bench.resources import run_limited
from bench.runner import SetupError, run_job
from bench.store import load
from tests.conftest import run_bench

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and RLIMIT_DATA are Linux's")

CV3 = {"name": "cv3", "kind": "kfold", "n_splits": 3}


def _odd_size():
    """A training-fold size of wine under cv3 (seed 0) that fewer folds have than the others."""
    sizes = [s.train.size for s in splits(load_data("sk_wine").y, CV3, 0)]
    return min(set(sizes), key=sizes.count), sizes


def _algo(**kw):
    return {"name": "misbehave", "estimator": {"_target_": "tests.helpers.MisbehavingClassifier", **kw}}


def test_a_split_over_its_time_limit_is_stopped_and_stored_as_timeout(tmp_path):
    bad, sizes = _odd_size()
    t0 = time.perf_counter()
    res = run_job(_algo(bad_n_train=int(bad), how="hang", seconds=60), "sk_wine", CV3, 0, "e", str(tmp_path),
                  progress=False, warmup=False, mem_limit_gb=None, time_limit_s=1.5)
    took = time.perf_counter() - t0
    assert took < 20, took  # the hang (a C-level sleep of 60 s) was cut at 1.5 s
    timeouts = [r for r in res.records if r["status"] == "timeout"]
    assert len(timeouts) == sizes.count(bad) and len(res.records) == len(sizes)
    assert all(r["status"] == "ok" for r in res.records if r["n_train"] != bad)
    rec = timeouts[0]
    assert "time limit of 1.5 s (time_limit_s=1.5)" in rec["error"] and rec["time_limit_s"] == 1.5
    assert res.failed and all(r["status"] == "timeout" for r in res.failed)  # not computed: retried next time
    df = load(tmp_path)
    assert set(df["status"]) == {"ok", "timeout"}
    again = run_job(_algo(bad_n_train=int(bad), how="hang", seconds=60), "sk_wine", CV3, 0, "e", str(tmp_path),
                    progress=False, warmup=False, mem_limit_gb=None, time_limit_s=None, retry_failed=False)
    assert again.reused == len(sizes)  # the limit is in no key: the same records


def test_a_process_that_dies_is_a_failed_split_naming_the_memory_limit(tmp_path):
    bad, sizes = _odd_size()
    before = resource.getrlimit(resource.RLIMIT_DATA)
    res = run_job(_algo(bad_n_train=int(bad), how="abort"), "sk_wine", CV3, 0, "e", str(tmp_path), progress=False,
                  warmup=False, mem_limit_gb=16)
    assert resource.getrlimit(resource.RLIMIT_DATA) == before  # the job's own process was never limited
    failed = [r for r in res.records if r["status"] == "failed"]
    assert len(failed) == sizes.count(bad) and len(res.records) == len(sizes)
    err = failed[0]["error"]
    assert err.startswith("SplitCrashed: the split's process was killed by SIGABRT")
    assert "per-split memory limit of 16.00 GiB (mem_limit_gb=16" in err and "Raise it with mem_limit_gb" in err
    ex = run_job(_algo(bad_n_train=int(bad), how="exit"), "sk_wine", CV3, 0, "e2", str(tmp_path), progress=False,
                 warmup=False, time_limit_s=30)
    assert "exited with status 3 without a result" in ex.failed[0]["error"]


def test_run_limited_outcomes():
    assert run_limited(lambda: 41 + 1, 2**34).value == 42
    out = run_limited(lambda: 1 / 0, None, 10)
    assert out.kind == "raised" and out.error["type"] == "ZeroDivisionError" and "1 / 0" in out.error["traceback"]
    out = run_limited(lambda: bytearray(2**33), 2**31)
    assert out.kind == "raised" and out.error["memory"]
    out = run_limited(lambda: time.sleep(30), None, 0.5)
    assert out.kind == "timeout" and out.wall_s < 10


def test_isolated_splits_are_bit_identical_to_in_process_ones(tmp_path):
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    a = run_job(algo, "sk_wine", CV3, 0, "e", str(tmp_path / "a"), progress=False, mem_limit_gb=None)
    b = run_job(algo, "sk_wine", CV3, 0, "e", str(tmp_path / "b"), progress=False, mem_limit_gb=8, time_limit_s=60)
    for x, y in zip(a.records, b.records):
        assert x["predictions_sha256"] == y["predictions_sha256"] and x["metrics"] == y["metrics"]
        assert y["memory"]["peak_rss_mb"] >= y["memory"]["start_rss_mb"] > 0


def test_bad_time_limit_is_a_setup_error(tmp_path):
    for bad in ("soon", -1, True):
        with pytest.raises(SetupError, match="time_limit_s="):
            run_job(_algo(), "sk_wine", CV3, 0, "e", str(tmp_path), progress=False, time_limit_s=bad)


def test_timeout_counts_as_not_computed_in_the_reports():
    from bench.report.context import status_counts
    from bench.stats.collect import run_status

    df = pd.DataFrame({"dataset": "d", "algo": "a", "protocol": "p", "seed": 0, "repeat": 0, "fold": [0, 1, 2],
                       "status": ["ok", "timeout", "not_applicable"], "error": [None, "TimeoutError: x", "n/a"],
                       "n_instances": 10})
    counts = status_counts(df)
    assert counts == {"ok": 1, "not_applicable": 1, "failed": 1, "timeout": 1}
    st = run_status(df)
    assert not st["complete"].iloc[0] and st["n_failed"].iloc[0] == 2


def test_memory_limit_sweep_on_splice_ends_with_a_summary(tmp_path):
    """'s case: A3DE, A2DE and NB on splice under mem_limit_gb=0.24 in a one-process sweep used to
    abort (rc 134, LLVM or std::bad_alloc) in about one run of four, losing the summary and the NB job."""
    out = run_bench(["-m", "algo=a3de,a2de,nb", "data=splice", "protocol=cv2", "mem_limit_gb=0.24",
                     "hydra.launcher.n_jobs=1", "progress=false"], tmp_path, check=False, timeout=240)
    assert out.returncode == 1, (out.returncode, out.stderr[-3000:])
    assert "=== sweep summary: 3 jobs" in out.stdout
    df = load(tmp_path)
    assert len(df) == 6 and set(df["algo"]) == {"a3de", "a2de", "nb"}
    bad = df[df["status"] != "ok"]
    assert bad["error"].str.contains("memory limit of 0.24 GiB").all()
