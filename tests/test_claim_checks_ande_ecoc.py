"""The A2DE paper's and ECOC-NB's claims on the one claim checker (bench.report.verdicts.kinds): each
paper's CHECKS declares exactly its claim ids, with the generic kind where the claim is one; and the
kinds' generic options these papers use (judge, the finish hook, the expected hook, NotHere's published)."""

import pandas as pd
import pytest

from bench import published
from bench.report.verdicts import kinds
from bench.papers.ande_sr import verdicts as ande_sr
from bench.papers.ecocnb import verdicts as ecocnb
from bench.report.verdicts._common import NOT_MEASURABLE, Check


def _ids(paper):
    return set(published.claims(paper)["claim_id"])


@pytest.mark.parametrize("mod, paper", [(ande_sr, "ande_sr"), (ecocnb, "ecocnb")])
def test_checks_cover_exactly_the_papers_claims(mod, paper):
    assert set(mod.CHECKS) == _ids(paper)
    assert all(type(c) in kinds.KINDS.values() for c in mod.CHECKS.values())
    for cid, kind in kinds.describe(mod.CHECKS).items():   # a bespoke check is a named, documented function
        if kind.startswith("bespoke:"):
            fn = mod.CHECKS[cid].fn
            assert not fn.__name__.startswith(("_", "<")) and (fn.__doc__ or "").strip(), cid


def test_ande_wdl_claims_are_wdl_checks():
    kind = kinds.describe(ande_sr.CHECKS)
    # the claims on the W/D/L tables (Tables 2-5) with a sign-test reading
    assert {c for c, k in kind.items() if k == "wdl"} == {"AN03", "AN04", "AN05", "AN06", "AN07", "AN09", "AN10",
                                                          "AN15"}
    assert {c for c, k in kind.items() if k.startswith("bespoke:")} == {"AN01", "AN02"} | ande_sr.FIG_CLAIMS
    # every W/D/L comparison names a cell of the paper's tables: a measure of Tables 2-5 and a subset
    for c in (c for cid, k in kind.items() if k == "wdl" for _, cs in ande_sr.CHECKS[cid].parts for c in cs):
        assert c.measure in ande_sr.TABLE_FACTS and c.where[0] in ("all", "large", "medium", "small")


def test_ecocnb_kinds():
    kind = kinds.describe(ecocnb.CHECKS)
    assert kind["EC02"] == "not_here"
    assert all(k.startswith("bespoke:") for c, k in kind.items() if c != "EC02")


# ------------------------------------------------------------------ the generic options
class _Ev(kinds.Evidence):
    paper, test, alpha = "p", "sign2", 0.05

    def __init__(self, counts):
        self.counts = counts

    def wdl(self, c):
        return kinds.WdlCell(self.counts.get(c.row), fact="t")

    def sources(self, *facts):
        return ";".join(facts)


def _claims(*ids):
    return pd.DataFrame({"claim_id": list(ids), "quote": ["q"] * len(ids), "value": [""] * len(ids)})


def test_run_finish_hook_judge_and_expected_wording():
    checks = {"X1": kinds.WDL((("", (kinds.Cmp("A", "B", "m", "win_sig"),)),)),
              "X2": kinds.NotHere(NOT_MEASURABLE, "no clock here", published="< 1 s")}
    ev = _Ev({"A": (20, 0, 2)})
    other = _Ev({"A": (2, 0, 20)})

    def finish(check, row, o):
        o.scale = "s"
        o.extra["other"] = kinds.judge(check, other, row)[0]
        return o

    ev.finish = finish
    v1, v2 = kinds.run("p", checks, ev, _claims("X1", "X2"))
    assert (v1.verdict, v1.scale, v1.extra["other"]) == ("reproduced", "s", "not reproduced")
    assert v2.verdict == "not checkable" and v2.published == "< 1 s" and v2.scale == "s"
    # without the hook nothing is added; an adapter may word a failed expectation its own way
    (plain,) = kinds.run("p", checks, other, _claims("X1"))
    assert plain.scale == "" and plain.extra == {} and "expected: significantly more wins" in plain.reason
    other.expected = lambda c: "A wins significantly more often"
    (worded,) = kinds.run("p", checks, other, _claims("X1"))
    assert worded.reason.endswith("expected: A wins significantly more often")
    assert kinds.judge(checks["X1"], other, {"claim_id": "X1"})[:2] == (worded.verdict, worded.reason)
    assert isinstance(kinds.judge(checks["X1"], ev, {})[2].parts[0][1][0], Check)


def test_ande_count_claim_without_the_papers_cell_is_not_checkable():
    """AN01/AN02 compare a count over the paper's datasets: with our counts but not the paper's cell, the
    coverage cannot be judged (not checkable, no crash); with both, the count decides; the paper's own
    verdict is the same check on its cell."""
    from bench.report.facts import Facts

    def facts(published_cell):
        p = [int(x) for x in published_cell.split("/")] if published_cell else [None] * 3
        f = Facts("ande_sr")
        f.add_table("table5_wdl_rmse_long", pd.DataFrame([{
            "row": "RF10", "col": "A2DE-SW", "subset": "large", "measure": "RMSE", "published_wins": p[0],
            "published_draws": p[1], "published_losses": p[2], "ours_wins": 5, "ours_draws": 0, "ours_losses": 7,
            "ours_n": 12, "note": ""}], dtype=object), "ande_sr/table5_wdl_rmse_long.csv")
        return f

    claims = published.claims("ande_sr")
    claims = claims[claims["claim_id"].isin(["AN01", "AN02"])].reset_index(drop=True)
    got = ande_sr.evaluate_facts(facts(""), claims)
    assert [v.verdict for v in got] == ["not checkable"] * 2
    assert all(v.reason.startswith("dataset absent: the paper's own cell") for v in got)
    got = ande_sr.evaluate_facts(facts("5/0/7"), claims)
    assert [(v.verdict, v.extra["paper_own"]) for v in got] == [("reproduced", "reproduced")] * 2
    got = ande_sr.evaluate_facts(facts("4/0/8"), claims)      # the paper's cell disagrees with its own text
    assert [v.extra["paper_own"] for v in got] == ["not reproduced"] * 2
    assert [v.verdict for v in got] == ["reproduced"] * 2


def test_a_cost_table_failing_here_but_not_in_the_paper_states_the_nb_speed_as_cause():
    import numpy as np

    rows = []
    for i in range(8):
        for bits in (15, 31, 63):
            rows.append({"dataset": f"d{i}", "code_length": bits, "algorithm": "ECOC-NB", "nb_s_paper": 10.0,
                         "ratio_paper": 1.1, "nb_s_ours": 0.05 if i % 2 else 0.02, "ratio_ours": 3.0 + 0.1 * i})

    class Facts:
        def table(self, name):
            return None

    class Ev:
        paper, facts = "ecocnb", Facts()

        def ratio_table(self, n):
            return pd.DataFrame(rows) if n == 3 else None

        def sources(self, *facts):
            return ";".join(facts)

    row = {"claim_id": "EC05", "quote": "q", "value": ""}
    o = ecocnb._cost(Ev(), row, ecocnb._almost_as_fast_rule)
    ok = [c.ok for _, cs in o.parts for c in cs]
    assert False in ok
    speed = float(np.median([10.0 / 0.05, 10.0 / 0.02]))      # per dataset 200x or 500x: median 350x
    assert f"cause: Table 3: our NB is a median {speed:.0f}x faster than the paper's on its 8 datasets" in o.note
