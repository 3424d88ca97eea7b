"""``bench compare``'s console printout of the Bayesian signed-rank results: one row per (algorithm,
ROPE) whose columns line up whatever the lengths of the ROPEs and of the algorithms' names, checked
on the real printout of a comparison read from the shipped evidence and on hand-made rows."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from bench.compare.__main__ import bayes_lines, main

ROOT = Path(__file__).resolve().parents[1]
EVIDENCE = ROOT / "reports" / "evidence"
ROW = re.compile(r"^  (ROPE \S+)\s+(\S+)\s+(\d\.\d{3}) / (\d\.\d{3}) / (\d\.\d{3})(  -> \S+)?$")


def _columns(lines: list[str]) -> set[tuple[int, ...]]:
    """The start of every field of every row (algorithm, three probabilities, decision arrow)."""
    out = set()
    for line in lines:
        m = ROW.match(line)
        assert m, f"not a row of the printout: {line!r}"
        out.add(tuple(m.start(i) for i in range(2, 6)))
    return out


def test_rows_line_up_for_any_ropes_and_names():
    rows = pd.DataFrame([
        {"algorithm": a, "rope": r, "p_algorithm": 0.5, "p_rope": 0.25, "p_baseline": 0.25, "decision": d}
        for a in ("nb", "a2de_sw", "a_very_long_algorithm_name") for r, d in ((0.001, ""), (0.0125, "nb"), (1.0, ""))])
    lines = bayes_lines(rows)
    assert len(lines) == len(rows)
    assert len(_columns(lines)) == 1
    assert [ROW.match(x).group(1) for x in lines[:3]] == ["ROPE 0.001", "ROPE 0.0125", "ROPE 1"]
    assert lines[1].endswith("0.500 / 0.250 / 0.250  -> nb") and bayes_lines(rows.iloc[:0]) == []


@pytest.mark.skipif(not (EVIDENCE / "ande_sr.records.parquet").exists(), reason="no shipped evidence of ande_sr")
def test_the_printout_lines_up_with_ropes_of_different_lengths(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path / "results"))
    out = tmp_path / "report"
    rc = main(["--algos", "nb", "--against", "ande_sr", "--baselines", "nb,a1de,a2de_sw", "--baseline", "nb",
               "--datasets", "iris,zoo,wine", "--rope", "0.001,0.01,0.0125", "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    lines = text.splitlines()
    for title, csv in (("Bayesian signed-rank on error", "bayes_signed_rank.csv"),
                       ("Bayesian hierarchical model on error", "bayes_hierarchical.csv")):
        head = next(i for i, x in enumerate(lines) if x.startswith(title))
        rows = []
        for x in lines[head + 1:]:
            if not x.startswith("  ROPE"):
                break
            rows.append(x)
        assert len(rows) == 2 * 3                       # a1de and a2de_sw against nb, at three ROPEs
        assert len(_columns(rows)) == 1, "\n".join(rows)
        _same_as_table(rows, out / "tables" / csv)


def _same_as_table(rows: list[str], csv: Path):
    """The printed numbers are the report's table's, row for row (the CSV keeps 5 significant digits)."""
    e = pd.read_csv(csv)
    e = e[e["measure"] == "error"] if "measure" in e else e
    got = [m.groups() for m in map(ROW.match, rows)]
    assert [(g[1], g[0]) for g in got] == [(r.algorithm, f"ROPE {r.rope:g}") for r in e.itertuples()]
    printed = [[float(v) for v in g[2:5]] for g in got]
    assert printed == [pytest.approx([r.p_algorithm, r.p_rope, r.p_baseline], abs=5e-4 + 1e-9) for r in e.itertuples()]
