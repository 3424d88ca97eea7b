"""MC-Tree's facts (reports/mctree/facts.json, ) against the committed report files they are shown in."""

from __future__ import annotations

from tests.helpers import table_cells
import math
from pathlib import Path

import pandas as pd
import pytest

from bench.report import keyfig
from bench.report import verdicts as V
from bench.report.facts import Facts

REPORTS = Path(__file__).resolve().parents[1] / "reports"


@pytest.fixture(scope="module")
def facts():
    f = Facts.of_paper(REPORTS, "mctree")
    if not f:
        pytest.skip("no committed reports/mctree/facts.json in this checkout")
    return f


def _same(a, b) -> bool:
    """Equal cell values, NaN and None alike."""
    na = lambda v: v is None or (isinstance(v, float) and math.isnan(v))  # noqa: E731
    return (na(a) and na(b)) or a == b


def test_key_cells_are_what_the_key_figure_reads(facts):
    cells, key = table_cells(REPORTS, "mctree"), facts.table("key_cells")
    assert list(key.columns) == ["kind", "table", "published", "ours"] == list(cells.columns)
    assert len(key) == len(cells) > 0
    for a, b in zip(cells.itertuples(index=False), key.itertuples(index=False)):
        assert all(_same(x, y) for x, y in zip(a, b)), (a, b)
    for src in facts.source("key_cells").split(";"):
        assert (REPORTS / src).is_file()


def test_every_fact_is_shown_in_its_source(facts):
    for name in list(facts.tables) + list(facts.values):
        assert all((REPORTS / src).is_file() for src in facts.source(name).split(";")), name
    for exp in ("mctree_fig5", "mctree_fig6", "mctree_vowel"):
        shown = pd.read_csv(REPORTS / facts.source(f"{exp}_static"))
        t = facts.table(f"{exp}_static")
        for col in ("dataset", "classifier", "ours_accuracy", "ours_se", "paper_accuracy"):
            assert all(_same(a, b) for a, b in zip(shown[col], t[col])), (exp, col)


def test_accuracy_facts_are_the_table_cells(facts):
    for exp in ("mctree_fig4_alpha", "mctree_fig5"):
        shown = pd.read_csv(REPORTS / facts.source(f"{exp}_accuracy_at_budgets"))
        t = facts.table(f"{exp}_accuracy_at_budgets")
        variants = [c for c in shown.columns if c not in ("dataset", "budget")]
        assert len(t) == len(shown) * len(variants)
        for (_, row), i in zip(shown.iterrows(), range(0, len(t), len(variants))):
            part = t.iloc[i:i + len(variants)]
            assert list(part["variant"]) == variants and (part["dataset"] == row["dataset"]).all()
            budget = None if row["budget"] == "full model" else float(row["budget"])
            assert all(_same(b, budget) for b in part["budget"])
            assert all(_same(a, float(row[v])) for a, v in zip(part["accuracy"], variants))


def test_lead_facts_are_the_lead_summary_cells(facts):
    for exp in ("mctree_fig5", "mctree_fig6", "mctree_vowel"):
        shown = pd.read_csv(REPORTS / facts.source(f"{exp}_lead"), dtype=str, keep_default_na=False)
        lead, top = facts.table(f"{exp}_lead"), facts.table(f"{exp}_lead_max")
        for r in shown.itertuples(index=False):
            row = dict(zip(shown.columns, r))
            mine = lead[(lead["dataset"] == row["dataset"]) & (lead["mctree"] == row["mctree"])]
            for m in mine.itertuples(index=False):
                cell = row[f"lead@{'t' if m.axis == 'time' else ''}{m.ref_budget}"]
                want = "-" if _same(m.lead_points, None) else f"{m.lead_points:+.2f}" + (
                    f" ({m.microseconds:.3g}us)" if m.axis == "time" else "")
                assert cell == want, (exp, row["dataset"], m)
            mx = top[(top["dataset"] == row["dataset"]) & (top["mctree"] == row["mctree"])].iloc[0]
            assert row["max_lead_both_answer"] == f"{mx['max_lead_points']:+.2f} @ {int(mx['max_lead_budget'])}"


def test_committed_verdicts_come_from_the_facts(facts):
    """The verdict stage on the committed reports gives the committed MC-Tree verdicts, evidence and all."""
    got = {v.claim_id: v for v in V.scale_gate(V.evaluate_paper("mctree", REPORTS), REPORTS)}
    committed = pd.read_csv(REPORTS / "verdicts.csv", dtype=str, keep_default_na=False)
    for r in committed[committed["paper"] == "mctree"].itertuples(index=False):
        v = got[r.claim_id]
        assert (v.verdict, v.ours, v.evidence, v.reason, v.scale) == (r.verdict, r.ours, r.evidence, r.reason,
                                                                      r.scale), r.claim_id
        assert all(e.startswith("mctree/") for e in v.evidence.split(";") if e)
