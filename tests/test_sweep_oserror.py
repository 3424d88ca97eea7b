"""A sweep goes on after a job's OSError (issue 31, case 6): a job whose records cannot be written
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
