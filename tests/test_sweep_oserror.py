"""A sweep goes on after a job's OSError: a job whose records cannot be written
(disk full, a file-size limit, permissions) stores the split in flight as failed where that still
fits, stops, and says so in its summary; the other jobs run and the sweep ends with its table."""

import errno
import os
import resource
import subprocess
import sys

import pytest

from bench import store as S
from bench.runner import run_job
from bench.store import load
from tests.conftest import ROOT

ALGO = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}


def test_a_job_stops_at_an_oserror_and_keeps_what_it_did(tmp_path, monkeypatch):
    real = S.atomic_write_bytes

    def full(path, data):
        if str(path).endswith(".npz"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(S, "atomic_write_bytes", full)
    with pytest.raises(OSError) as info:
        run_job(ALGO, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, warmup=False)
    exc = info.value
    assert exc.errno == errno.ENOSPC and exc.filename and exc.bench_collected
    partial = exc.bench_result
    assert partial.computed == 1 and len(partial.failed) == 1
    rec = load(tmp_path).iloc[0]  # the failed record (no .npz) fitted
    assert rec["status"] == "failed" and "could not be stored" in rec["error"] and rec["lost_status"] == "ok"
    monkeypatch.undo()
    again = run_job(ALGO, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, warmup=False)
    assert again.computed == 2 and not again.failed  # retried once the disk has room


def _limited_fsize():
    resource.setrlimit(resource.RLIMIT_FSIZE, (12 * 1024, 12 * 1024))  # a file over 12 KiB fails with EFBIG


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE semantics are Linux's")
def test_a_sweep_goes_on_after_a_job_cannot_write_its_records(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "bench", "-m", "algo=gnb", "data=sk_iris,sk_digits,sk_wine",
                          "protocol=cv2", "progress=false", "hydra.launcher.n_jobs=1"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, preexec_fn=_limited_fsize)
    assert out.returncode == 1, out.stderr[-3000:]
    assert "=== sweep summary: 3 jobs" in out.stdout, out.stdout[-3000:] + out.stderr[-3000:]
    assert "FAILED: gnb on sk_digits: OSError: [Errno 27] File too large" in out.stdout
    assert "the job stopped: its records cannot be written" in out.stdout
    df = load(tmp_path)
    ok = df[df["status"] == "ok"]
    assert sorted(ok["dataset"].unique()) == ["sk_iris", "sk_wine"] and len(ok) == 4  # the jobs after it ran
    digits = df[df["dataset"] == "sk_digits"]
    assert len(digits) == 1 and digits["status"].iloc[0] == "failed"  # stored as failed where it fitted


def test_the_sweep_table_says_why_a_job_left_no_summary(tmp_path):
    from bench.callbacks import _unwritable

    assert _unwritable(tmp_path) is None
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert _unwritable(blocker).startswith("NotADirectoryError")


#: loaded by every process of the sweep below (the parent and each loky worker): a disk that is full
#: for every job's copy of its config, for the records of sk_digits and for that job's summary, and
#: an interrupt that reaches the worker running the sk_wine job
SITECUSTOMIZE = '''
import errno, os, pathlib
import hydra.core.utils as hcu

_save = hcu._save_config


def _save_config(cfg, filename, output_dir):
    if filename == "config.yaml":
        if "sk_wine" in str(cfg.get("data", {}).get("name", "")):
            raise KeyboardInterrupt
        raise OSError(errno.ENOSPC, "No space left on device")
    _save(cfg, filename, output_dir)


hcu._save_config = _save_config
import bench.fileio as F

_write = F.atomic_write_bytes


def atomic_write_bytes(path, data):
    if "sk_digits" in str(path):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    _write(path, data)


F.atomic_write_bytes = atomic_write_bytes
_text = pathlib.Path.write_text


def write_text(self, *a, **k):
    if self.name == "bench_summary.json" and os.environ.get("BENCH_TEST_FULL") in str(self):
        raise OSError(errno.ENOSPC, "No space left on device", str(self))
    return _text(self, *a, **k)


pathlib.Path.write_text = write_text
'''


def test_faults_in_the_workers_of_a_two_worker_sweep_end_only_their_jobs(tmp_path):
    """The default launcher with 2 workers: a full disk while Hydra saves each job's config (in the
    worker), a job whose records and summary cannot be written, and a worker interrupted mid-job.
    Each ends as its job's failure; the sweep runs 3 jobs of 3 and its table names each fault."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SITECUSTOMIZE)
    results = tmp_path / "results"
    env = {**os.environ, "PYTHONPATH": f"{hook}{os.pathsep}{ROOT}", "BENCH_RESULTS_DIR": str(results),
           "BENCH_TEST_FULL": "/1/"}
    out = subprocess.run([sys.executable, "-m", "bench", "-m", "algo=gnb", "data=sk_iris,sk_digits,sk_wine",
                          "protocol=cv2", "progress=false", "hydra.launcher.n_jobs=2"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    text = out.stdout + out.stderr
    assert out.returncode == 1, text[-3000:]
    assert "Traceback" not in text, text[-3000:]
    assert "=== sweep summary: 3 jobs" in out.stdout, text[-3000:]
    assert "FAILED: gnb on sk_digits: OSError: [Errno 28] No space left on device" in out.stdout, text[-3000:]
    assert "FAILED: gnb on sk_wine: KeyboardInterrupt: the job's process was interrupted" in out.stdout
    df = load(results)
    ok = df[df["status"] == "ok"]
    assert sorted(ok["dataset"].unique()) == ["sk_iris"] and len(ok) == 2


def _processes_with_env(marker: str) -> list[int]:
    pids = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/environ", "rb") as fh:
                    if marker.encode() in fh.read():
                        pids.append(int(p))
            except OSError:
                continue
    return pids


@pytest.mark.skipif(not os.path.exists("/proc/self/environ"), reason="needs Linux /proc")
def test_ctrl_c_stops_the_sweep_and_every_worker_with_one_line(tmp_path):
    import signal
    import time

    res = tmp_path / "res"
    args = ["-m", "algo=gnb", "algo.estimator._target_=tests.helpers.SlowGaussianNB", "+algo.estimator.delay=0.4",
            "data=sk_iris,sk_wine,sk_digits", "protocol=cv10", "progress=false", "hydra.launcher.n_jobs=2"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(res), "BENCH_TEST_MARKER": tmp_path.name}
    proc = subprocess.Popen([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and (not res.exists() or len(list(res.rglob("r*-f*.json"))) < 3):
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    lines = [ln for ln in err.splitlines() if ln.startswith("interrupted:")]
    assert len(lines) == 1 and "run the same command again to resume" in lines[0] and str(res) in lines[0]
    time.sleep(2)
    assert _processes_with_env(f"BENCH_TEST_MARKER={tmp_path.name}") == []  # no worker computes on
    n = len(list(res.rglob("r*-f*.json")))
    time.sleep(1)
    assert 0 < n < 30 and len(list(res.rglob("r*-f*.json"))) == n
