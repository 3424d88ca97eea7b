"""Sweeps through ``hydra/launcher=cluster_slurm`` on a real SLURM cluster.

These tests submit real SLURM jobs. They run where a SLURM controller answers (``sinfo`` lists a
usable node) and are skipped with the reason elsewhere. On a Debian machine, as root,
``make slurm-up`` starts a single-node cluster (scripts/slurm_up.sh) and ``make slurm-down``
stops it; ``.ci/run`` does that around ``pytest -m slurm tests/test_slurm.py``.

What they check:
- a sweep of 3 algorithms x 2 datasets under cv5x2 runs as one SLURM job array, and every stored
  record (metrics, predictions, everything but timing and memory fields) is bit-identical to the
  same sweep run here with the joblib launcher;
- cancelling one task of a running array (``scancel``), then rerunning the sweep, ends with
  exactly one record per split, and the splits stored before the cancel are reused, not redone;
- a split that raises inside a SLURM job is stored as ``failed`` with its traceback, the other
  splits still run, and the sweep exits non-zero;
- chunk tasks of one job (``+chunk=0,1``, as ``bench.experiments run --launcher slurm`` submits a
  job estimated longer than its time limit) share its splits: every split is computed once.

The partition is ``BENCH_SLURM_PARTITION`` or the cluster's default partition. The results
directory is under pytest's tmp dir, which on a single-node cluster is shared by construction; on
a multi-node cluster point ``--basetemp`` at a shared filesystem.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB

from bench.runner import estimator_seed
from bench.store import load, load_predictions, read_record

from .conftest import ROOT

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

ALGOS = "nb,a1de,nb_disc"
DATASETS = "sk_iris,sk_wine"
#: record fields that legitimately differ between two runs of the same split (git_commit gains
#: "-dirty" when a file of the checkout is edited between the two runs)
# record_sha256 is the checksum of the whole record, times included: it differs whenever the times do
VOLATILE = {"times", "memory", "duration_s", "started_at", "finished_at", "path", "git_commit", "record_sha256"}


def _slurm_state() -> tuple[str | None, str]:
    """(partition, "") when SLURM can take jobs here, else (None, reason)."""
    if shutil.which("sinfo") is None or shutil.which("sbatch") is None:
        return None, "SLURM is not installed (no sinfo/sbatch); as root on Debian: make slurm-up"
    try:
        out = subprocess.run(["sinfo", "-h", "-o", "%P %t"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"sinfo did not answer ({exc}); start SLURM with make slurm-up"
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or [""])[-1][:160]
        return None, f"no SLURM controller answers (sinfo: {last}); start one with make slurm-up (root, Debian)"
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    usable = [p for p, state in rows if state.rstrip("*") in ("idle", "mix", "alloc", "comp")]
    if not usable:
        return None, f"SLURM has no usable node (sinfo: {out.stdout.strip()[:200]})"
    wanted = os.environ.get("BENCH_SLURM_PARTITION")
    if wanted:
        return wanted, ""
    default = [p for p in usable if p.endswith("*")]
    return (default or usable)[0].rstrip("*"), ""


def _has_submitit() -> bool:
    try:
        import hydra_plugins.hydra_submitit_launcher  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def partition():
    if not _has_submitit():
        pytest.skip("hydra-submitit-launcher is not installed (pip install 'bench[cluster]')")
    part, reason = _slurm_state()
    if part is None:
        pytest.skip(reason)
    return part


@pytest.fixture
def job_name():
    """A unique SLURM job name per test; whatever is left of its jobs is cancelled at the end."""
    name = f"bench-test-{uuid.uuid4().hex[:10]}"
    yield name
    subprocess.run(["scancel", "--name", name], capture_output=True)


def _bench(args, results_dir, timeout=600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(results_dir)}
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _slurm_args(partition: str, name: str) -> list[str]:
    return ["hydra/launcher=cluster_slurm", f"hydra.launcher.partition={partition}",
            f"hydra.launcher.name={name}", "hydra.launcher.timeout_min=10", "hydra.launcher.mem_gb=2"]


def _explain(proc: subprocess.CompletedProcess) -> str:
    return f"exit {proc.returncode}\nSTDOUT:\n{proc.stdout[-3000:]}\nSTDERR:\n{proc.stderr[-3000:]}"


def _sacct(name: str) -> list[tuple[str, str]]:
    """(job id, state) of every job (array task) with this name, from SLURM's accounting."""
    out = subprocess.run(["sacct", "-n", "-X", "-P", "--name", name, "-o", "JobID,State"],
                         capture_output=True, text=True, timeout=30)
    return [tuple(line.split("|")[:2]) for line in out.stdout.splitlines() if "|" in line]


def _sacct_final(name: str, timeout: float = 60) -> list[tuple[str, str]]:
    """Like :func:`_sacct`, once no task is PENDING/RUNNING/COMPLETING any more: the Hydra launcher
    returns as soon as the result pickles exist, so the last task may still be ending."""
    deadline = time.time() + timeout
    while True:
        jobs = _sacct(name)
        if jobs and not any(state in ("PENDING", "RUNNING", "COMPLETING") for _, state in jobs):
            return jobs
        if time.time() > deadline:
            return jobs
        time.sleep(0.5)


def _key(row) -> tuple:
    return (row["algo"], row["dataset"], int(row["repeat"]), int(row["fold"]))


def test_slurm_array_sweep_is_bit_identical_to_local(partition, job_name, tmp_path):
    sweep = ["-m", f"algo={ALGOS}", f"data={DATASETS}", "protocol=cv5x2", "progress=false"]
    t0 = time.perf_counter()
    on_slurm = _bench(sweep + _slurm_args(partition, job_name), tmp_path / "slurm")
    slurm_s = time.perf_counter() - t0
    assert on_slurm.returncode == 0, _explain(on_slurm)
    assert "sweep summary: 6 jobs" in on_slurm.stdout
    local = _bench(sweep + ["hydra.launcher.n_jobs=1"], tmp_path / "local")
    assert local.returncode == 0, _explain(local)

    # one job array of 6 tasks, every task COMPLETED in SLURM's accounting
    jobs = _sacct_final(job_name)
    assert len(jobs) == 6, jobs
    assert len({jid.split("_")[0] for jid, _ in jobs}) == 1, f"not one job array: {jobs}"
    assert all(state == "COMPLETED" for _, state in jobs), jobs

    a, b = load(tmp_path / "slurm"), load(tmp_path / "local")
    assert len(a) == len(b) == 6 * 10
    assert (a["status"] == "ok").all()
    assert a.groupby(["algo", "dataset", "repeat", "fold"]).size().eq(1).all()
    by_key = {_key(r): r for _, r in b.iterrows()}
    assert set(by_key) == {_key(r) for _, r in a.iterrows()}
    for _, ra in a.iterrows():
        rb = by_key[_key(ra)]
        ja, jb = read_record(Path(ra["path"])), read_record(Path(rb["path"]))
        for k in VOLATILE:
            ja.pop(k, None), jb.pop(k, None)
        assert ja == jb, f"{_key(ra)}: {sorted(k for k in ja if ja.get(k) != jb.get(k))} differ"
        pa, pb = load_predictions(ra.to_dict()), load_predictions(rb.to_dict())
        assert sorted(pa) == sorted(pb)
        for k in pa:
            assert pa[k].dtype == pb[k].dtype and pa[k].tobytes() == pb[k].tobytes(), f"{_key(ra)}: {k} differs"
    print(f"\nSLURM sweep: 6 jobs as one array ({jobs[0][0].split('_')[0]}), {len(a)} records, "
          f"{slurm_s:.1f} s; all bit-identical to the joblib run")


def test_cancelled_task_then_rerun_gives_one_record_per_split(partition, job_name, tmp_path):
    res = tmp_path / "res"
    sweep = ["-m", "algo=gnb", "algo.estimator._target_=tests.helpers.SlowGaussianNB",
             "+algo.estimator.delay=1.0", f"data={DATASETS}", "protocol=cv5x2", "progress=false"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(res)}
    proc = subprocess.Popen([sys.executable, "-m", "bench", *sweep, *_slurm_args(partition, job_name)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # wait until sk_wine (array task 1) has stored 2 of its 10 splits, then cancel that task
        deadline = time.time() + 300
        while time.time() < deadline:
            df = load(res, dataset="sk_wine") if res.exists() else None
            if df is not None and len(df) >= 2:
                break
            assert proc.poll() is None, f"the sweep ended before it could be cancelled:\n{proc.stdout.read()}"
            time.sleep(0.2)
        else:
            pytest.fail("sk_wine stored no 2 splits within 300 s")
        tasks = subprocess.run(["squeue", "-h", "--name", job_name, "-o", "%i"], capture_output=True, text=True)
        wine_task = [t for t in tasks.stdout.split() if t.endswith("_1")]
        assert wine_task, f"array task 1 not in the queue: {tasks.stdout!r}"
        subprocess.run(["scancel", wine_task[0]], check=True)
        out, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0, f"a sweep with a cancelled task exited 0:\n{out[-3000:]}"
    states = dict(_sacct_final(job_name))
    assert states.get(wine_task[0], "").startswith("CANCELLED"), states
    before = load(res)
    n_wine = int((before["dataset"] == "sk_wine").sum())
    assert 2 <= n_wine < 10, f"sk_wine had {n_wine} of 10 splits at cancel time"
    kept = {_key(r): json.dumps(read_record(Path(r["path"])), sort_keys=True) for _, r in before.iterrows()}

    again = _bench(sweep + _slurm_args(partition, job_name + "-rerun"), res)
    subprocess.run(["scancel", "--name", job_name + "-rerun"], capture_output=True)
    assert again.returncode == 0, _explain(again)
    after = load(res)
    assert len(after) == 20 and (after["status"] == "ok").all()
    assert after.groupby(["dataset", "repeat", "fold"]).size().eq(1).all()
    assert len([p for p in res.rglob("*.json") if p.name[0] == "r"]) == 20
    # what was stored before the cancel is reused as it was, not computed again
    for _, r in after.iterrows():
        if _key(r) in kept:
            assert json.dumps(read_record(Path(r["path"])), sort_keys=True) == kept[_key(r)], _key(r)
    print(f"\ncancel and resume: {len(before)} of 20 splits stored when task {wine_task[0]} was cancelled "
          f"(sk_wine {n_wine}/10); the rerun computed {20 - len(before)} and reused {len(before)}; "
          f"20 records, one per split")


class FailsOnOddSeed(GaussianNB):
    """GaussianNB whose fit raises when the injected ``random_state`` is odd and the training set
    has ``train_rows`` rows: some splits of one dataset fail, the rest of the sweep does not."""

    def __init__(self, random_state=None, train_rows=89, var_smoothing=1e-9):
        super().__init__(var_smoothing=var_smoothing)
        self.random_state = random_state
        self.train_rows = train_rows

    def fit(self, X, y, sample_weight=None):
        if len(y) == self.train_rows and self.random_state is not None and self.random_state % 2 == 1:
            raise RuntimeError(f"deliberate failure (random_state {self.random_state})")
        return super().fit(X, y, sample_weight)


def test_failing_split_in_a_slurm_job_is_stored_and_the_sweep_fails(partition, job_name, tmp_path):
    res = tmp_path / "res"
    # cv5x2 trains on 89 of sk_wine's 178 rows (75 of sk_iris's 150): the sk_wine splits whose
    # estimator seed is odd fail, worked out here from bench's seed derivation
    expected = {(r, f) for r in range(5) for f in range(2) if estimator_seed(0, r, f) % 2 == 1}
    assert 0 < len(expected) < 10
    proc = _bench(["-m", "algo=gnb", "algo.estimator._target_=tests.test_slurm.FailsOnOddSeed",
                   f"data={DATASETS}", "protocol=cv5x2", "progress=false",
                   *_slurm_args(partition, job_name)], res)
    df = load(res)
    assert len(df) == 20, _explain(proc)
    failed = df[df["status"] == "failed"]
    assert set(failed["dataset"]) == {"sk_wine"}, _explain(proc)
    assert {(int(r), int(f)) for r, f in zip(failed["repeat"], failed["fold"])} == expected
    assert (df.loc[df["status"] != "failed", "status"] == "ok").all()
    for _, r in failed.iterrows():
        assert r["error"].startswith("RuntimeError: deliberate failure")
        assert "Traceback" in r["traceback"] and "raise RuntimeError" in r["traceback"]
    # the SLURM jobs themselves completed (a failed split is data, not a crash) ...
    assert all(state == "COMPLETED" for _, state in _sacct_final(job_name)), _sacct(job_name)
    assert "1 jobs had failed splits" in proc.stdout and f"sk_wine: {len(expected)} failed" in proc.stdout
    # ... but the sweep says so in its exit status
    assert proc.returncode != 0, ("a sweep with failed splits must exit non-zero (bench.callbacks.SweepSummary; "
                                  f"allow_failures=true opts out)\n{_explain(proc)}")
    print(f"\nfailing split: {len(expected)} of 20 splits stored as failed with their tracebacks; "
          f"sweep exit status {proc.returncode}")


def test_chunk_tasks_of_one_job_share_its_splits(partition, job_name, tmp_path):
    import re

    res = tmp_path / "res"
    proc = _bench(["-m", "algo=gnb", "algo.estimator._target_=tests.helpers.SlowGaussianNB",
                   "+algo.estimator.delay=1.0", "data=sk_wine", "protocol=cv5x2", "progress=false", "+chunk=0,1",
                   *_slurm_args(partition, job_name)], res)
    assert proc.returncode == 0, _explain(proc)
    df = load(res)
    assert len(df) == 10 and (df["status"] == "ok").all()
    assert df.groupby(["repeat", "fold"]).size().eq(1).all()
    # each task's job table says how many splits it computed and how many it found done
    logs = sorted(res.glob(".sweeps/*/*/.submitit/*/*_log.out"))
    counts = [re.search(r"10 splits[:,] (\d+) computed, (\d+) reused", p.read_text()) for p in logs]
    computed = [int(m.group(1)) for m in counts if m]
    assert len(computed) == 2, [p.read_text()[-500:] for p in logs]
    assert sum(computed) == 10 and min(computed) >= 1, computed
    print(f"\nchunks: 2 tasks of one job computed {computed} of its 10 splits")
