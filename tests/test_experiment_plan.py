"""bench.experiment_plan: the algorithm config a driver outside the Hydra app runs is the one the
app composes (defaults lists included), and the launchers' shared module imports no launcher."""

from __future__ import annotations

import ast
from pathlib import Path

from omegaconf import OmegaConf

ROOT = Path(__file__).resolve().parents[1]


def test_algo_config_is_the_apps_composition_including_defaults_lists():
    from hydra import compose, initialize_config_dir

    from bench.experiment_plan import algo_config

    for name in ("rf", "gnb"):  # rf inherits rf100 through a defaults list; gnb is a plain file
        with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
            app = OmegaConf.to_container(compose(config_name="config", overrides=[f"algo={name}"]).algo,
                                         resolve=True)
        assert algo_config(name) == app
    plain = OmegaConf.to_container(OmegaConf.load(ROOT / "conf" / "algo" / "rf.yaml"))
    assert "estimator" not in plain and "estimator" in algo_config("rf")  # what plain loading missed
    assert algo_config("gnb", ["algo.preprocess.0.strategy=median"])["preprocess"][0]["strategy"] == "median"


def test_algo_config_inside_a_running_hydra_keeps_it():
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from bench.experiment_plan import algo_config

    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        before = GlobalHydra.instance().hydra
        assert algo_config("gnb")["name"] == "gnb"
        assert GlobalHydra.instance().hydra is before


def test_unknown_algo_names_the_fix():
    import pytest

    from bench.experiment_plan import algo_config

    with pytest.raises(SystemExit, match="no conf/algo/nope.yaml"):
        algo_config("nope")


def test_the_shared_module_imports_no_launcher():
    src = (ROOT / "bench" / "experiment_plan.py").read_text()
    names = {n.module for n in ast.walk(ast.parse(src)) if isinstance(n, ast.ImportFrom) and n.module}
    assert not names & {"experiments", "scaleup", "plan", "runner"}


def test_a_run_of_some_datasets_adds_to_the_stored_plan(tmp_path):
    """``run NAME --datasets a,b`` after a run of the others: the stored plan keeps both (the
    reports must not call the first run's datasets "not run at this scale"); an unrestricted run
    replaces it; a run with other algorithms replaces it too."""
    import json

    from bench.experiment_plan import plan, write_plan

    name, scale = "smoke", "smoke"      # two built-in datasets: no data directory needed
    full = plan(name, scale)
    first, rest = full["datasets"][:1], full["datasets"][1:]
    assert first and rest
    write_plan(tmp_path, plan(name, scale, only=first), 10.0, 0)
    stored = json.loads((tmp_path / name / "_plan.json").read_text())
    assert stored["datasets"] == first and set(stored["skipped_datasets"]) == set(rest)
    write_plan(tmp_path, plan(name, scale, only=rest), 5.0, 1)
    stored = json.loads((tmp_path / name / "_plan.json").read_text())
    assert sorted(stored["datasets"]) == sorted(full["datasets"]) and stored["skipped_datasets"] == {}
    assert stored["seconds"] == 15.0 and stored["exit_status"] == 1
    assert [r["datasets"] for r in stored["runs"]] == [first, rest]
    write_plan(tmp_path, full, 2.0, 0)
    stored = json.loads((tmp_path / name / "_plan.json").read_text())
    assert stored["seconds"] == 2.0 and len(stored["runs"]) == 1
    other = {**plan(name, scale, only=first), "algos": ["nb"]}
    write_plan(tmp_path, other, 1.0, 0)
    stored = json.loads((tmp_path / name / "_plan.json").read_text())
    assert stored["datasets"] == first and stored["algos"] == ["nb"]


def _private_conf(tmp_path):
    """A conf/ with two paper experiments that plan no job: `nodata` (its one dataset has no file
    here) and `noalgo` (its one algorithm has no config yet)."""
    import shutil

    conf = tmp_path / "conf"
    for sub in ("experiment", "data", "algo"):
        (conf / sub).mkdir(parents=True)
    shutil.copy(ROOT / "conf" / "algo" / "gnb.yaml", conf / "algo")
    shutil.copy(ROOT / "conf" / "data" / "sk_iris.yaml", conf / "data")
    (conf / "data" / "gone.yaml").write_text("name: gone\nsources:\n- file: gone.csv.gz\n")
    (conf / "experiment" / "nodata.yaml").write_text("paper: p\nalgos: [gnb]\ndatasets: [gone]\nprotocol: cv2\n")
    (conf / "experiment" / "noalgo.yaml").write_text("paper: p\nalgos: [notyet]\ndatasets: [sk_iris]\n"
                                                     "protocol: cv2\n")
    return conf


def test_an_experiment_that_plans_no_job_is_an_error(tmp_path, monkeypatch, capsys):
    """`run` and `run-all` exit 2 for an experiment with zero jobs, naming the datasets not available
    (and what they need) and the algorithms not implemented; `--allow-empty` makes it 0."""
    import json

    from bench import experiments

    monkeypatch.setenv("BENCH_CONF_DIR", str(_private_conf(tmp_path)))
    res = str(tmp_path / "res")
    assert experiments.main(["run", "nodata", "--scale", "smoke", "--results-dir", res]) == 2
    err = capsys.readouterr().err
    assert "[nodata] scale=smoke: nothing to run, the experiment plans 0 jobs" in err
    assert "dataset gone: not available here (no file gone.csv.gz in BENCH_DATA_DIR" in err and "--allow-empty" in err
    assert json.loads((tmp_path / "res" / "nodata" / "_plan.json").read_text())["exit_status"] == 2

    assert experiments.main(["run", "noalgo", "--scale", "smoke", "--results-dir", res]) == 2
    assert "no algorithm: notyet (not implemented yet" in capsys.readouterr().err

    assert experiments.main(["run-all", "--scale", "smoke", "--results-dir", res]) == 2
    err = capsys.readouterr().err
    assert "[noalgo]" in err and "[nodata]" in err
    assert "0 of 2 experiments ran: not noalgo (exit 2, nothing to run), nodata (exit 2, nothing to run)" in err

    assert experiments.main(["run-all", "--scale", "smoke", "--results-dir", res, "--allow-empty"]) == 0
    out = capsys.readouterr().out
    assert out.count("(--allow-empty: not an error)") == 2
    assert experiments.main(["run", "nodata", "--scale", "smoke", "--results-dir", res, "--allow-empty"]) == 0


def test_no_experiment_plans_zero_jobs_at_smoke_scale_with_the_shipped_data():
    """Every experiment of conf/experiment/ has a job at smoke scale on a fresh clone (datasets/
    ships its data): run-all --scale smoke (make paper-tables SCALE=smoke) runs them all."""
    from bench.experiment_plan import experiment_names, plan
    from bench.experiments import empty_plan_message

    empty = [m for n in experiment_names() if (m := empty_plan_message(plan(n, "smoke")))]
    assert not empty, "\n".join(empty)
