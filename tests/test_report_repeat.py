"""``python -m bench.report.repeat``: the comparison of two runs' verdicts, and its refusals."""

import pandas as pd

from bench.report import repeat


def _table(rows):
    return pd.DataFrame(rows, columns=["claim_id", "verdict", "ours"]).set_index("claim_id")


def test_compare_lists_moved_figures_and_flags_changed_verdicts():
    first = _table([("A1", "reproduced", "1.00x [0.9, 1.1]"), ("A2", "reproduced", "x"), ("A3", "not reproduced", "y")])
    second = _table([("A1", "reproduced", "1.02x [0.9, 1.2]"), ("A2", "reproduced", "x"),
                     ("A3", "not checkable", "y")])
    moved = repeat.compare(first, second).set_index("claim_id")
    assert list(moved.index) == ["A1", "A3"]          # A2 did not move
    assert not moved.loc["A1", "changed"] and moved.loc["A3", "changed"] and not moved.loc["A3", "contradicted"]
    assert moved.loc["A1", "ours_2"] == "1.02x [0.9, 1.2]"


def test_a_verdict_decided_both_times_differently_is_a_contradiction():
    moved = repeat.compare(_table([("A1", "reproduced", "1.1x")]), _table([("A1", "not reproduced", "2.1x")]))
    assert moved.loc[0, "changed"] and moved.loc[0, "contradicted"]


def test_a_claim_only_one_run_has_counts_as_changed():
    moved = repeat.compare(_table([("A1", "reproduced", "")]), _table([])).set_index("claim_id")
    assert moved.loc["A1", "changed"]


def test_rerun_experiments_are_the_shipped_ones_found(tmp_path):
    ev = tmp_path / "evidence"
    ev.mkdir()
    for name in ("e1", "e2"):
        (ev / f"{name}.records.parquet").write_bytes(b"")
    res = tmp_path / "results"
    for name in ("e2", "mine"):
        (res / name).mkdir(parents=True)
    assert repeat.rerun_experiments(res, ev) == ["e2"]


def test_refusals_name_the_fix(tmp_path, capsys):
    assert repeat.main(["--results-dir", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "results").mkdir()
    assert repeat.main(["--results-dir", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err
    assert "holds no run of a paper's shipped experiment" in err and "bench.experiments run" in err
    assert repeat.main(["--results-dir", str(tmp_path / "results"), "--reports", str(tmp_path)]) == 2
    assert "no verdicts.csv" in capsys.readouterr().err
