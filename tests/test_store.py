import json
import multiprocessing as mp
import os
from pathlib import Path

import numpy as np
import pytest

from bench.runner import run_job
from bench.store import RunKey, Store, load, load_predictions

ALGO = {"name": "rec", "estimator": {"_target_": "tests.helpers.RecordingClassifier"}}
SLOW = {"name": "slow", "estimator": {"_target_": "tests.helpers.SlowGaussianNB", "delay": 0.2}}
CV4 = {"name": "cv4", "kind": "kfold", "n_splits": 4}


def _key():
    return RunKey("exp", "ds", "algo", "abc123", "cv10", 0)


def test_put_get_roundtrip(tmp_path):
    st = Store(tmp_path, _key())
    rec = {"repeat": 0, "fold": 3, "status": "ok", "metrics": {"error": 0.25}}
    st.put(rec, {"test_index": np.arange(4), "proba": np.eye(4, 2, dtype=np.float32)})
    got = st.get(0, 3)
    assert got["metrics"]["error"] == 0.25
    preds = load_predictions(got)
    assert preds["test_index"].tolist() == [0, 1, 2, 3]


def test_unreadable_record_counts_as_absent(tmp_path):
    st = Store(tmp_path, _key())
    st.dir.mkdir(parents=True)
    st.record_path(0, 0).write_text('{"repeat": 0, "fold"')  # a torn write from an old version
    assert st.get(0, 0) is None


def test_atomic_write_leaves_no_partial_file(tmp_path, monkeypatch):
    st = Store(tmp_path, _key())
    rec = {"repeat": 0, "fold": 0, "status": "ok"}

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        st.put(rec, None)
    monkeypatch.undo()
    assert st.get(0, 0) is None
    assert not list(st.dir.glob("*.json")) and not list(st.dir.glob("*.tmp"))


def test_resume_reuses_finished_splits(tmp_path):
    first = run_job(ALGO, "sk_iris", CV4, 0, "e", str(tmp_path), progress=False)
    assert (first.computed, first.reused) == (4, 0)
    # lose one record: only that split is recomputed
    Path(first.records[2]["path"]).unlink()
    second = run_job(ALGO, "sk_iris", CV4, 0, "e", str(tmp_path), progress=False)
    assert (second.computed, second.reused) == (1, 3)
    third = run_job(ALGO, "sk_iris", CV4, 0, "e", str(tmp_path), progress=False, rerun=True)
    assert third.computed == 4
    df = load(tmp_path)
    assert len(df) == 4 and set(df["fold"]) == {0, 1, 2, 3}


def _worker(root, out):
    res = run_job(SLOW, "sk_iris", CV4, 0, "e", root, progress=False)
    out.put((res.computed, res.reused))


def test_two_concurrent_workers_never_lose_or_duplicate(tmp_path):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(tmp_path), q)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    results = [q.get(timeout=5) for _ in procs]
    assert sum(c for c, _ in results) == 4  # each split computed exactly once
    assert sum(r for _, r in results) == 4  # and reused by the other worker
    files = sorted(p.name for p in tmp_path.rglob("r*-f*.json"))
    assert files == [f"r00-f0{i}.json" for i in range(4)]
    assert not list(tmp_path.rglob("*.tmp"))


def test_load_filters_and_flattens(tmp_path):
    run_job(ALGO, "sk_iris", CV4, 0, "e1", str(tmp_path), progress=False)
    run_job(ALGO, "sk_wine", CV4, 0, "e2", str(tmp_path), progress=False)
    df = load(tmp_path)
    assert len(df) == 8
    assert {"metrics.error", "times.fit_cpu_s", "git_commit", "bench_version", "algo_hash"} <= set(df.columns)
    assert len(load(tmp_path, experiment="e2")) == 4
    assert len(load(tmp_path, dataset="sk_iris", fold=1)) == 1
