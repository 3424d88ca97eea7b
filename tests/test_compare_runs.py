"""A comparison runs many jobs in one process (bench.compare.runs.run): no split may leave a file
descriptor open, or select() in bench.resources.run_limited fails once they pass 1024 (it did, after
about 1000 computed splits of a 12-algorithm comparison)."""

from __future__ import annotations

import os

from bench.resources import run_limited


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_run_limited_closes_its_pipes():
    before = _open_fds()
    for i in range(50):
        out = run_limited(lambda: i * 2, mem_limit_bytes=None, time_limit_s=30.0)
        assert out.value == i * 2
    assert _open_fds() == before


def test_experiment_mode_runs_its_plan_and_refuses_a_sweep(tmp_path, monkeypatch, capsys):
    import shutil
    from pathlib import Path

    import pandas as pd

    from bench.compare.__main__ import main

    root = Path(__file__).resolve().parents[1]
    conf = tmp_path / "conf"
    shutil.copytree(root / "conf", conf)
    (conf / "experiment" / "mine.yaml").write_text(
        "name: mine\nalgos: [gnb, rf10]\ndatasets: {smoke: [sk_iris, sk_wine]}\nprotocol: cv2\nseeds: [0, 1]\n")
    (conf / "experiment" / "swept.yaml").write_text(
        "name: swept\nalgos: [rf10]\ndatasets: [sk_iris]\nprotocol: cv2\nsweep: {algo.estimator.n_estimators: [5, 10]}\n")
    monkeypatch.setenv("BENCH_CONF_DIR", str(conf))
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path / "results"))
    out = tmp_path / "report"
    assert main(["--experiment", "mine", "--scale", "smoke", "--no-progress", "--out", str(out)]) == 0
    assert "16 splits computed, 0 reused" in capsys.readouterr().out
    assert (tmp_path / "results" / "mine" / "sk_iris").is_dir()       # the experiment's own records folder
    splits = pd.read_csv(out / "splits.csv")
    assert sorted(splits["seed"].unique()) == [0, 1] and set(splits["algo"]) == {"gnb", "rf10"}
    assert (out / "tables" / "bias_variance.csv").exists()              # two seeds: two rounds
    assert main(["--experiment", "swept", "--no-progress", "--out", str(out)]) == 2
    assert "sweeps" in capsys.readouterr().err
