"""End-to-end: `python -m bench` as a user runs it, in subprocesses, on tiny data."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from bench.store import load
from tests.conftest import ROOT, run_bench


def test_single_job_stores_records_and_resumes(tmp_path):
    res = tmp_path / "res"
    out = run_bench(["algo=gnb", "data=sk_iris", "protocol=cv4", "progress=false"], res)
    assert "gnb on sk_iris" in out.stdout and "error rate" in out.stdout and "4 computed" in out.stdout
    df = load(res)
    assert len(df) == 4 and (df["status"] == "ok").all()
    assert df["experiment"].unique().tolist() == ["default"]
    again = run_bench(["algo=gnb", "data=sk_iris", "protocol=cv4", "progress=false"], res)
    assert "0 computed, 4 reused" in again.stdout


def test_unknown_algorithm_lists_the_available_ones(tmp_path):
    out = run_bench(["algo=nope", "data=sk_iris"], tmp_path, check=False)
    assert out.returncode != 0
    assert "Could not find 'algo/nope'" in out.stderr and "rf100" in out.stderr and "gnb" in out.stderr


def test_unavailable_dataset_fails_clearly(tmp_path):
    out = run_bench(["algo=gnb", "data=covtype"], tmp_path, check=False,
                    env_extra={"BENCH_DATA_DIR": str(tmp_path / "empty"), "BENCH_DATASETS_DIR": "",
                               "BENCH_OPENML_OFFLINE": "1"})
    assert out.returncode == 2
    assert "covtype.csv.gz" in out.stderr and "BENCH_DATA_DIR" in out.stderr


def test_two_worker_multirun_joblib(tmp_path):
    res = tmp_path / "res"
    out = run_bench(["-m", "algo=gnb,rf10", "data=sk_iris,synth_mixed", "protocol=cv2", "progress=false",
                     "hydra.launcher.n_jobs=2"], res)
    assert "sweep summary: 4 jobs" in out.stdout
    df = load(res)
    assert len(df) == 8 and (df["status"] == "ok").all()
    assert df.groupby(["algo", "dataset", "fold"]).size().eq(1).all()


def test_submitit_local_launcher_runs_the_same_sweep(tmp_path):
    res = tmp_path / "res"
    out = run_bench(["-m", "hydra/launcher=cluster_local", "algo=gnb,rf10", "data=sk_iris", "protocol=cv2",
                     "progress=false"], res, timeout=600)
    assert "sweep summary: 2 jobs" in out.stdout
    df = load(res)
    assert len(df) == 4 and (df["status"] == "ok").all()


def test_sigkill_mid_sweep_then_resume_gives_one_record_per_split(tmp_path):
    res = tmp_path / "res"
    args = ["-m", "algo=gnb", "algo.estimator._target_=tests.helpers.SlowGaussianNB", "+algo.estimator.delay=0.4",
            "data=sk_iris,sk_wine", "protocol=cv10", "progress=false", "hydra.launcher.n_jobs=2"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(res)}
    proc = subprocess.Popen([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline:
        n = len(list(res.rglob("r*-f*.json"))) if res.exists() else 0
        if n >= 6:
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its workers die at once
    proc.wait()
    killed_at = len(list(res.rglob("r*-f*.json")))
    assert 0 < killed_at < 20
    out = run_bench(args, res, timeout=300)
    assert "sweep summary: 2 jobs" in out.stdout
    df = load(res)
    assert len(df) == 20 and (df["status"] == "ok").all()
    assert df.groupby(["dataset", "fold"]).size().eq(1).all()
    assert len(list(res.rglob("r*-f*.json"))) == 20


@pytest.mark.slow  # ~110 CPU seconds; `make smoke` (run by .ci/run) exercises the same driver
def test_smoke_experiment_driver(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "bench.experiments", "run", "smoke", "--scale", "smoke",
                          "--jobs", "2", "--results-dir", str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    df = load(tmp_path, experiment="smoke")
    assert set(df["dataset"]) == {"sk_iris", "synth_many_classes"}
    # a code longer than a dataset's classes allow is the paper's blank cell, not a failure; Weka's
    # WAODE refuses missing values (synth_many_classes has some), which is "not applicable" too
    na = df[df["status"] == "not_applicable"]
    assert (na["algo"].str.startswith("ecoc") | (na["algo"] == "waode")).all(), sorted(set(na["algo"]))
    assert (na.loc[na["algo"] == "waode", "dataset"] == "synth_many_classes").all()
    from bench.experiment_plan import algo_names

    # the BCH configs of 15+ bits (named ..._b<bits>) need 5+ classes: both folds of sk_iris (3 classes)
    bch15 = {a for a in algo_names() if a.startswith("ecoc") and int((re.findall(r"_b(\d+)", a) or ["0"])[-1]) >= 15}
    assert set(na.loc[na["dataset"] == "sk_iris", "algo"]) == bch15
    assert (na["dataset"] == "sk_iris").sum() == 2 * len(bch15)
    assert (df.loc[df["status"] != "not_applicable", "status"] == "ok").all()
    # every conf/algo config has an ok split (the 12 classes of synth_many_classes fit every ECOC code)

    ok = set(df.loc[df["status"] == "ok", "algo"])
    assert ok == set(algo_names()), sorted(set(algo_names()) - ok)
    assert (tmp_path / "smoke" / "_plan.json").exists()


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
def test_killing_only_the_sweep_parent_leaves_no_workers_behind(tmp_path):
    res = tmp_path / "res"
    marker = f"BENCH_TEST_MARKER={tmp_path.name}"
    args = ["-m", "algo=gnb", "algo.estimator._target_=tests.helpers.SlowGaussianNB", "+algo.estimator.delay=0.4",
            "data=sk_iris,sk_wine", "protocol=cv10", "progress=false", "hydra.launcher.n_jobs=2"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(res),
           "BENCH_TEST_MARKER": tmp_path.name}
    proc = subprocess.Popen([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and (not res.exists() or len(list(res.rglob("r*-f*.json"))) < 3):
        time.sleep(0.1)
    proc.kill()  # SIGKILL to the main process only, not its group
    proc.wait()
    time.sleep(3)
    assert _processes_with_env(marker) == []  # the loky workers died with their parent
    n = len(list(res.rglob("r*-f*.json")))
    time.sleep(2)
    assert len(list(res.rglob("r*-f*.json"))) == n  # nothing computes on in the background


def test_no_config_sets_hydra_mode():
    """``python -m bench`` answers Hydra's ``get_mode`` without composing (bench.__main__._mode_from_flags),
    which is right only while no config of conf/ sets ``hydra.mode``."""
    from omegaconf import OmegaConf

    conf = ROOT / "conf"
    for path in conf.rglob("*.yaml"):
        cfg = OmegaConf.to_container(OmegaConf.load(path)) or {}
        in_hydra_group = path.relative_to(conf).parts[0] == "hydra"
        hydra_node = cfg if in_hydra_group else (cfg.get("hydra") or {})
        assert "mode" not in hydra_node, f"{path} sets hydra.mode"
