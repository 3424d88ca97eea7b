"""The job's worker process (bench.resources.LimitedWorker): one process runs one split after
another under the limits and is replaced after anything but a clean return; each call starts with
the global random states of a fresh fork; a job forks once, not once per split."""

import os
import random
import signal
import sys
import time

import numpy as np
import pytest

from bench.resources import LimitedWorker

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and RLIMIT_DATA are Linux's")


def _handler(msg):
    kind = msg[0]
    if kind == "pid":
        return os.getpid()
    if kind == "draw":  # the global generators, as an unseeded library would use them
        return float(np.random.random()), random.random()
    if kind == "raise":
        raise ValueError("bad split")
    if kind == "alloc":
        return len(bytearray(msg[1]))
    if kind == "sleep":
        time.sleep(msg[1])
        return "slept"
    if kind == "abort":
        os.kill(os.getpid(), signal.SIGABRT)
    if kind == "keep":  # memory the process keeps after the call
        _handler.kept = np.ones(msg[1] // 8)
        _handler.kept[:] = 2.0
        return "kept"
    raise AssertionError(kind)


def test_one_process_serves_many_calls_each_from_the_fork_state():
    with LimitedWorker(_handler, 2**34) as w:
        pids = {w.call(("pid",)).value for _ in range(5)}
        assert len(pids) == 1 and os.getpid() not in pids and w.started == 1
        draws = [w.call(("draw",)).value for _ in range(3)]
        assert draws[0] == draws[1] == draws[2]  # restored before each call: as a fresh fork would draw
        state = np.random.get_state()
        expected = (float(np.random.random()), random.random())
        np.random.set_state(state)
        assert draws[0][0] == expected[0]


def test_a_call_that_raises_is_reported_and_the_next_one_gets_a_new_process():
    with LimitedWorker(_handler, 2**34, classify=lambda e: {"not_applicable": isinstance(e, KeyError)}) as w:
        first = w.call(("pid",)).value
        out = w.call(("raise",))
        assert out.kind == "raised" and out.error["type"] == "ValueError" and "bad split" in out.error["traceback"]
        assert out.error["not_applicable"] is False
        assert w.call(("pid",)).value != first and w.started == 2


def test_memory_limit_holds_in_the_process_and_a_memory_error_replaces_it():
    with LimitedWorker(_handler, 2**30) as w:
        assert w.call(("alloc", 2**20)).value == 2**20
        out = w.call(("alloc", 2**32))
        assert out.kind == "raised" and out.error["memory"]
        assert w.call(("alloc", 2**20)).value == 2**20 and w.started == 2


def test_timeout_and_death_end_the_process_and_the_next_call_runs():
    with LimitedWorker(_handler, None) as w:
        t0 = time.perf_counter()
        out = w.call(("sleep", 30), time_limit_s=0.5)
        assert out.kind == "timeout" and time.perf_counter() - t0 < 10
        assert w.call(("sleep", 0), time_limit_s=5).value == "slept"
        died = w.call(("abort",))
        assert died.kind == "died" and died.signal == signal.SIGABRT
        assert w.call(("pid",)).kind == "returned" and w.started == 3


def test_a_process_that_keeps_memory_is_replaced_before_the_next_call():
    with LimitedWorker(_handler, None) as w:
        first = w.call(("pid",)).value
        assert w.call(("keep", 256 * 2**20)).value == "kept"  # 256 MiB kept: beyond WORKER_GROWTH_MB
        assert w.call(("pid",)).value != first and w.started == 2


def test_a_job_forks_one_worker_for_all_its_splits(tmp_path, monkeypatch):
    from bench import resources
    from bench.runner import harness_seconds, run_job

    starts = []
    real = resources.LimitedWorker._start

    def counted(self):
        starts.append(1)
        real(self)

    monkeypatch.setattr(resources.LimitedWorker, "_start", counted)
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    res = run_job(algo, "sk_wine", {"name": "cv10", "kind": "kfold", "n_splits": 10}, 0, "e", str(tmp_path),
                  progress=False, mem_limit_gb=8)
    assert res.computed == 10 and not res.failed and len(starts) == 1
    harness, own, n = harness_seconds(res)
    timed = ("preprocess_fit_wall_s", "fit_wall_s", "preprocess_predict_wall_s", "predict_wall_s")
    assert n == 10 and own == pytest.approx(sum(sum(r["times"][k] for k in timed) for r in res.records))
    assert harness > 0 and harness + own == pytest.approx(res.wall["splits_s"] - res.wall["warmup_s"])
    again = run_job(algo, "sk_wine", {"name": "cv10", "kind": "kfold", "n_splits": 10}, 0, "e", str(tmp_path),
                    progress=False, mem_limit_gb=8)
    assert again.reused == 10 and harness_seconds(again) is None and len(starts) == 1  # nothing to compute: no fork


def test_a_process_that_ended_while_idle_is_replaced_for_the_next_call():
    with LimitedWorker(_handler, None) as w:
        first = w.call(("pid",)).value
        os.kill(first, signal.SIGKILL)
        time.sleep(0.2)
        out = w.call(("pid",))
        assert out.kind == "returned" and out.value != first and w.started == 2
