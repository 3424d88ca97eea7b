"""The MassBayes paper build (bench.papers.massbayes.build): its tables in reports/massbayes/, its missing
cells, and the facts its claim checks and key figure read (facts, not parsed text)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import table_cells
import numpy as np
import pandas as pd
import pytest

from bench.report import keyfig
from bench.papers.massbayes import build as M
from bench.report.facts import Facts

REPORTS = Path(__file__).resolve().parents[1] / "reports"


def _records(rng, datasets=("magic", "letter")) -> pd.DataFrame:
    rows = []
    for ds in datasets:
        for algo, acc in (("massbayes", 85.0), ("j48", 84.0), ("massbayes_prime", 86.0), ("a2de", 85.0)):
            for f in range(10):
                rows.append({"dataset": ds, "algo": algo, "repeat": 0, "fold": f, "status": "ok", "error": "",
                             "metrics.error": 1 - (acc + rng.normal(0, 0.3)) / 100,
                             "times.fit_cpu_s": 0.1 + 0.01 * f, "times.predict_cpu_s": 0.02,
                             "times.preprocess_fit_cpu_s": 0.0, "times.preprocess_predict_cpu_s": 0.0})
    return pd.DataFrame(rows)


def _frame(df: pd.DataFrame) -> pd.DataFrame:
    """A table as a reader of its CSV gets it (plain values; the comparison ignores dtypes)."""
    return df.reset_index(drop=True)


def test_table_facts_are_the_numbers_of_the_csv_files(tmp_path):
    out = tmp_path / "massbayes"
    out.mkdir()
    facts = Facts("massbayes")
    df = _records(np.random.default_rng(1))
    M.table3(df, out, facts)
    M.table4(df, out, facts)
    M.table5(df, out, facts)
    for name in ("table3_accuracy_long", "table5_runtime_long"):
        assert facts.source(name) == f"massbayes/{name}.csv"
        pd.testing.assert_frame_equal(_frame(facts.table(name)), pd.read_csv(out / f"{name}.csv"), check_dtype=False)
    # Table 4: integer counts in the facts, the display "W:L:D" strings in the CSV, the same numbers
    wdl, shown = facts.table("table4_wdl"), pd.read_csv(out / "table4_wdl.csv", keep_default_na=False)
    assert len(wdl) == len(shown) == 14
    for f, s in zip(wdl.to_dict("records"), shown.to_dict("records")):
        assert isinstance(f["wins"], (int, np.integer)) and f["datasets"] == s["datasets"]
        assert (f"{f['wins']}:{f['losses']}:{f['draws']}" if f["datasets"] else "-") == s["ours W:L:D"]
        assert f"{f['published_wins']}:{f['published_losses']}:{f['published_draws']}" == s["published W:L:D"]
    j48 = wdl[(wdl["row"] == "MassBayes") & (wdl["contender"] == "J48")].iloc[0]
    assert (j48["wins"], j48["losses"], j48["draws"]) == (2, 0, 0)
    assert (wdl["datasets"] == 0).sum() == 10   # 5 contenders never run (x 2 rows): no data set, shown as "-"
    # the key figure's cells: the same as keyfig reads from the CSV files
    cells, source = M.key_cells(facts)
    assert source == "massbayes/table3_accuracy_long.csv;massbayes/table5_runtime_long.csv;massbayes/table4_wdl.csv"
    pd.testing.assert_frame_equal(cells, table_cells(tmp_path, "massbayes"), check_dtype=False)
    t35 = cells[cells["table"].isin(["Table 3", "Table 5"])]
    assert t35["ours"].notna().sum() == 2 * 2 * 4   # Tables 3, 5: 2 data sets x 4 algorithms run
    t4 = cells[cells["table"] == "Table 4"]
    assert len(t4) == 14 and t4["ours"].notna().sum() == int(((wdl["wins"] + wdl["losses"]) > 0).sum())


class _View:
    """An experiment as build() sees it: its records (here: all or none) and why a cell is missing."""

    def __init__(self, name, records):
        self.name, self.all_records, self.plan, self.defined = name, records, {}, True

    def reason(self, dataset, algo):
        return f"not run yet: {algo} on {dataset}"


class _Ctx:
    def __init__(self, stored):
        self.stored = stored

    def experiment(self, name):
        return _View(name, self.stored.get(name, pd.DataFrame()))


def test_build_writes_the_paper_folder_and_lists_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(M, "synthetic_plots", lambda out: [])   # the data scatter plots: not under test
    res = M.build(_Ctx({"massbayes_table3": _records(np.random.default_rng(2))}), tmp_path)
    assert res.experiments == sorted(M.EXPERIMENTS)
    assert {p.name for p in res.files} >= {"table3_accuracy_long.csv", "table4_wdl.md", "table5_runtime.md"}
    assert all(Path(p).parent == tmp_path for p in res.files)
    whole = {m.item: m.reason for m in res.missing if not m.dataset}
    assert set(whole) == {"Fig. 3", "Fig. 3 (discretisation of all N rows)", "Fig. 4 (h)",
                          "Fig. 4 (psi) and the psi claims", "Fig. 4 (psi) beyond 18000, synthetic data", "Fig. 4 (t)",
                          "Table 5's BayesNet run by Weka itself"}
    assert whole["Fig. 3"] == "not run yet: no stored records of experiment massbayes_fig3"
    cells = [m for m in res.missing if m.dataset]
    assert {m.item for m in cells} == {"Table 3", "Table 5"}
    # a printed cell is either filled (ours in the key figure's cells) or listed missing, never both
    keys = res.facts.table("key_cells")
    filled = int(keys.loc[keys["table"].isin(["Table 3", "Table 5"]), "ours"].notna().sum())
    assert filled == 2 * 2 * 4 and filled + len(cells) == M.published_cells()
    assert ("Table 3", "Magic04", "MassBayes") not in {(m.item, m.dataset, m.algorithm) for m in cells}
    mini = [m for m in cells if m.dataset == "MiniBooNE" and m.algorithm == "J48"]
    assert len(mini) == 2 and mini[0].reason == "not run yet: j48 on miniboone"
    assert res.facts.value("experiment_of") == {n: "massbayes_table3" for n in
                                                ("table3_accuracy_long", "table4_wdl", "table5_runtime_long")}


def test_built_reports_key_cells_are_the_key_figure_cells():
    """reports/massbayes/facts.json's key_cells hold exactly what keyfig.cells reads from the tables."""
    facts = Facts.of_paper(REPORTS, "massbayes")
    if facts.table("key_cells") is None:
        pytest.skip("no reports/massbayes/facts.json with key_cells in this checkout")
    got = facts.table("key_cells")
    want = table_cells(REPORTS, "massbayes")
    assert len(want) > 100 and list(got.columns) == ["kind", "table", "published", "ours"]
    pd.testing.assert_frame_equal(got, want, check_dtype=False)   # same values, same order, NaN == None
    for name in facts.tables:   # every fact names a report file that exists
        for src in facts.source(name).split(";"):
            assert (REPORTS / src).exists(), (name, src)
