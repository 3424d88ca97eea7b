"""Speed over time: each `python -m bench.perf` run appends its headline figures to the history,
is compared with the last run on the same machine, and the perf page's trend table shows the
figures of one machine across runs."""

import json

import pytest

from bench.perf import history, row
from bench.perf import __main__ as perf_main

PROV = {"host": "box", "cpu": "CPU X", "n_cpus": 2, "git_commit": "a" * 40}


def _rows(ms: float, whole_ratio: float) -> list[dict]:
    return [row("harness", "cost per split", "bench", ms / 1000, "own", 0.005, unit="s/split"),
            row("petal", "a1de whole 10-fold run", "bench", 1.0, "petal", whole_ratio),
            row("counts", "not a headline", "bench", 1.0, "numpy", 2.0)]


def test_headline_takes_the_harness_cost_and_the_ratios_of_headline_benchmarks():
    h = history.headline(_rows(4.0, 0.8))
    assert h == {"harness: ms per split": pytest.approx(4.0), "harness: cost per split": pytest.approx(1.25),
                 "petal: a1de whole 10-fold run": pytest.approx(0.8)}
    assert history.lower_is_better("harness: ms per split") and not history.lower_is_better("petal: x")


def test_history_appends_and_compares_with_the_last_run_of_the_same_machine(tmp_path):
    first = history.entry({"provenance": PROV, "threads": 1, "rows": _rows(4.0, 0.8)}, "perf-1.json")
    other = history.entry({"provenance": {**PROV, "host": "laptop"}, "threads": 1, "rows": _rows(1.0, 2.0)},
                          "perf-2.json")
    for item in (first, other):
        history.append_history(tmp_path, item)
    (tmp_path / history.HISTORY_NAME).open("a").write('{"cut short')  # a run killed while writing
    new = history.entry({"provenance": PROV, "threads": 1, "rows": _rows(6.0, 0.81)}, "perf-3.json")
    kept = history.read_history(tmp_path)
    assert [k["file"] for k in kept] == ["perf-1.json", "perf-2.json"]
    before = history.last_on_machine(kept, new)
    assert before["file"] == "perf-1.json"  # the laptop's run is newer but another machine
    by = {c["figure"]: c for c in history.changes(before, new)}
    assert by["harness: ms per split"]["verdict"] == "worse"  # 4 -> 6 ms: +50 %
    assert by["harness: ms per split"]["change"] == pytest.approx(0.5)
    assert by["petal: a1de whole 10-fold run"]["verdict"] == "same"  # 0.80 -> 0.81: within 10 %
    assert by["harness: cost per split"]["verdict"] == "worse"  # ratio 1.25 -> 0.833
    text = history.changes_text(before, new)
    assert "harness: ms per split: 4 -> 6 (+50%)  WORSE" in text
    assert "first run" in history.changes_text(None, new)
    quick = history.entry({"provenance": PROV, "threads": 1, "quick": True, "rows": _rows(6.0, 0.81)}, "q.json")
    assert history.last_on_machine(kept, quick) is None  # a --quick run is compared with --quick runs only


def test_each_perf_run_is_kept_and_compared(tmp_path, monkeypatch, capsys):
    figures = iter([3.0, 9.0])
    registry = {"harness": lambda quick=False: _rows(next(figures), 0.9)[:1]}
    monkeypatch.setattr(perf_main, "discover", lambda: registry)
    monkeypatch.setattr(perf_main, "provenance", lambda: PROV)
    assert perf_main.main(["harness", "--out", str(tmp_path)]) == 0
    assert "the first run on box" in capsys.readouterr().out
    import time

    time.sleep(1.1)  # the run files are named by the second
    assert perf_main.main(["harness", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "harness: ms per split: 3 -> 9 (+200%)  WORSE" in out
    lines = (tmp_path / history.HISTORY_NAME).read_text().splitlines()
    assert len(lines) == 2 and len(list(tmp_path.glob("perf-*.json"))) == 2
    item = json.loads(lines[1])
    assert item["commit"] == PROV["git_commit"] and item["machine"].startswith("box")
    assert item["headline"]["harness: ms per split"] == pytest.approx(9.0)


def test_trend_table_shows_one_machines_runs_oldest_first(tmp_path):
    from bench.report.perf_trend import trend_frame, write_trend

    runs = [{"file": f"perf-2026010{i}-000000.json", "provenance": {**PROV, "git_commit": f"{i}" * 40},
             "threads": 1, "rows": _rows(ms, 0.8)} for i, ms in ((1, 5.0), (2, 4.0))]
    runs.insert(1, {"file": "perf-20260101-120000.json", "provenance": {**PROV, "host": "laptop"}, "threads": 1,
                    "rows": _rows(1.0, 3.0)})
    runs.append({"file": "perf-20260103-000000.json", "provenance": PROV, "threads": 1,
                 "rows": [row("counts", "no headline", "bench", 1.0, "numpy", 2.0)]})
    df, here, others = trend_frame(runs)
    assert here.startswith("box") and others and others[0].startswith("laptop")
    assert list(df.columns) == ["figure", "20260101-000000 11111111", "20260102-000000 22222222"]
    ms = df[df["figure"] == "harness: ms per split"].iloc[0]
    assert ms.iloc[1] == "5" and ms.iloc[2] == "4"
    files, items = write_trend(runs, tmp_path)
    assert (tmp_path / "trend.md").exists() and (tmp_path / "trend.csv").exists() and items
    assert write_trend([], tmp_path / "none") == ([], [])
