"""reports/perf: the newest stored run of each speed benchmark; benchmarks with no stored run here
keep their earlier rows (another machine's runs are not in this results directory)."""

from __future__ import annotations

import json

import pandas as pd

from bench.report import page as P
from bench.report.perf import perf_report, perf_runs


def _run(root, name, rows):
    (root / "perf").mkdir(parents=True, exist_ok=True)
    (root / "perf" / name).write_text(json.dumps({"rows": rows, "threads": 1,
                                                  "provenance": {"host": "h", "git_commit": "abc"}}))


def _row(bench, case, ours, peer):
    return {"benchmark": bench, "case": case, "ours": "o", "ours_s": ours, "peer": "p", "peer_s": peer,
            "ratio": peer / ours, "note": ""}


def test_newest_run_wins_and_other_benchmarks_are_kept(tmp_path):
    res, out = tmp_path / "results", tmp_path / "reports"
    _run(res, "perf-20260101-000000.json", [_row("a", "x", 1.0, 2.0), _row("b", "y", 1.0, 3.0)])
    perf_report(perf_runs(res), out)
    first = pd.read_csv(out / "perf.csv")
    assert sorted(first.benchmark) == ["a", "b"]
    # another machine: only benchmark "a" is stored, newer; "b" must stay with its old figures
    res2 = tmp_path / "results2"
    _run(res2, "perf-20260202-000000.json", [_row("a", "x", 1.0, 5.0)])
    files, items = perf_report(perf_runs(res2), out)
    table = pd.read_csv(out / "perf.csv")
    assert list(table.benchmark) == ["a", "b"]
    assert table.set_index("benchmark").loc["a", "peer/ours"] == "5.00x"
    assert table.set_index("benchmark").loc["b", "peer/ours"] == "3.00x"
    assert "20260101" in table.set_index("benchmark").loc["b", "measured"]
    assert any("kept from the earlier table" in P.plain(it.content) for it in items)
