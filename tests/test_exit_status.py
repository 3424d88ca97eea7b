"""`python -m bench` exit status: non-zero when a split failed, when a job plans no splits,
when a job of a sweep failed; a message (problem, value, fix) instead of a traceback."""

from bench.store import load
from tests.conftest import run_bench

BAD_RF = ["algo=rf10", "data=sk_iris", "protocol=cv2", "progress=false", "warmup=false",
          "algo.estimator.n_estimators=-5"]


def test_all_splits_failed_exits_1_and_names_the_traceback(tmp_path):
    out = run_bench(BAD_RF, tmp_path, check=False)
    assert out.returncode == 1, out.stderr[-2000:]
    assert "FAILED: 2 of 2 splits of rf10[n_estimators=-5] on sk_iris failed" in out.stderr
    assert "n_estimators" in out.stderr and "field `traceback` of" in out.stderr
    assert "Traceback (most recent call last)" not in out.stderr
    df = load(tmp_path)
    assert (df["status"] == "failed").all() and df["traceback"].str.contains("n_estimators").all()
    allowed = run_bench(BAD_RF + ["allow_failures=true"], tmp_path, check=False)
    assert allowed.returncode == 0 and "allow_failures=true" in allowed.stderr


def test_setup_errors_exit_2_with_a_message(tmp_path):
    for args, expect in ((["protocol.n_repeats=0"], "protocol.n_repeats=0"), (["seed=-1"], "seed=-1 is negative")):
        out = run_bench(["algo=gnb", "data=sk_iris", "progress=false", *args], tmp_path, check=False)
        assert out.returncode == 2, out.stderr[-2000:]
        assert expect in out.stderr and "Traceback" not in out.stderr


def test_unwritable_results_dir_exits_2_with_a_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    out = run_bench(["algo=gnb", "data=sk_iris", "progress=false"], blocker / "res", check=False)
    assert out.returncode == 2
    assert "cannot write to the results directory" in out.stderr and "BENCH_RESULTS_DIR" in out.stderr
    assert "Traceback" not in out.stderr


def test_sweep_with_one_failed_job_exits_1(tmp_path):
    out = run_bench(["-m", "hydra/launcher=basic", "algo=rf10", "data=sk_iris", "protocol=cv2",
                     "progress=false", "warmup=false", "algo.estimator.n_estimators=3,-5"], tmp_path, check=False)
    assert out.returncode == 1, out.stdout[-2000:] + out.stderr[-2000:]
    assert "sweep summary: 2 jobs" in out.stdout and "sweep FAILED: 0 jobs could not run, 1 jobs had failed splits" \
        in out.stdout
    assert "FAILED: 2 of 2 splits of rf10[n_estimators=-5] on sk_iris failed" in out.stdout  # the config that failed
    # a sweep whose jobs all succeed exits 0: test_cli.test_two_worker_multirun_joblib
