"""The MassBayes and MC-Tree claims on the one claim checker: each paper's CHECKS declares a
check for exactly its claim ids, generic kinds where the claim is one, bespoke checks as documented
functions; and the generic options of bench.report.verdicts.kinds those declarations use."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pandas as pd
import pytest

from bench import published
from bench.report.verdicts import NOT_CHECKABLE, PARTLY, REPRODUCED, kinds
from bench.papers.massbayes import verdicts as massbayes
from bench.papers.mctree import verdicts as mctree
from bench.report.verdicts.kinds import (WDL, Bespoke, Cmp, NotHere, Parts, Printed, PrintedCell, SeriesCell, Slope,
                                         WdlCell)


@pytest.mark.parametrize("paper,mod", [("massbayes", massbayes), ("mctree", mctree)])
def test_checks_cover_exactly_the_claim_ids(paper, mod):
    assert sorted(mod.CHECKS) == sorted(published.claims(paper)["claim_id"])


@pytest.mark.parametrize("mod", [massbayes, mctree])
def test_bespoke_checks_are_documented_functions_and_no_dispatch_on_claim_ids(mod):
    for cid, c in mod.CHECKS.items():
        assert isinstance(c, kinds.KINDS[c.kind]), cid
        if isinstance(c, Bespoke):
            assert c.fn.__doc__ and c.fn.__name__.isidentifier() and not c.fn.__name__.startswith("<"), cid
    src = inspect.getsource(mod)
    assert not re.search(r"\bcid\s*(==|in\b)|\bcid\.startswith", src)   # no if/elif on claim ids
    assert "def evaluate(" in src and "kinds.run(" in src


def test_generic_kinds_where_the_claim_is_one():
    mb = kinds.describe(massbayes.CHECKS)
    assert mb["MB09"] == "wdl"                                   # Table 4's W/L/D counts
    assert mb["MB10"] == mb["MB13"] == "parts(slope, slope)"     # constant time and space; linear in t, sub-linear in psi
    assert mb["MB11"] == "parts(slope)"                          # discretisation of all N rows linear in N
    assert mb["MB03"] == "not_here"                              # an absolute time on the paper's machine
    assert {mb[c] for c in ("MB06a", "MB06b", "MB06c", "MB06d")} == {"bespoke:an_order_faster"}
    mc = kinds.describe(mctree.CHECKS)
    assert {mc[c] for c in ("MC03", "MC04", "MC06", "MC07")} == {"printed"}   # the printed SVM / C4.5 accuracies
    assert {mc[c] for c in ("MC01", "MC02", "MC09", "MC10", "MC11", "MC12", "MC18")} == {"not_here"}   # Gender


# ---------------------------------------------------------------- the generic options, on a fake adapter
class _Ev(kinds.Evidence):
    paper, test, alpha, test_text = "x", "two_se", 0.05, "the paper's own test per data set"

    def __init__(self, counts=None, series=None, printed=None):
        self.counts, self.ser, self.pr = counts or {}, series or {}, printed or {}

    def sources(self, *facts):
        return ";".join(f"x/{f}.csv" for f in dict.fromkeys(facts) if f)

    def wdl(self, c):
        w = self.counts.get(c.col)
        return None if w is None else WdlCell(w[0], w[1], fact="t4")

    def series(self, key):
        return self.ser.get(key)

    def printed(self, key):
        return self.pr.get(key)

    def finish(self, check, row, o):
        o.scale = o.scale or "scale s"
        return o


def _claims(*ids, value=""):
    return pd.DataFrame([{"claim_id": i, "quote": "q", "value": value} for i in ids])


def test_wdl_tally_without_a_sign_test():
    ev = _Ev({"A": ((3, 1, 1), (5, 0, 4)), "B": ((1, 0, 2), (4, 1, 2))})
    check = WDL((("", (Cmp("M", "A", "acc", "win"), Cmp("M", "B", "acc", "win"))),), tally=True)
    v = kinds.run("x", {"X1": check}, ev, _claims("X1"))[0]
    assert v.verdict == "not reproduced" and v.test == ev.test_text and "p = " not in v.ours + v.reason
    assert v.ours.startswith("more wins than losses in 1/2 comparisons (M vs A acc 3/1/1")
    assert v.published == "more wins than losses in 2/2 comparisons" and v.scale == "scale s"


def test_parts_of_slopes_combine_as_stated_parts():
    ev = _Ev(series={"t": SeriesCell([1, 10, 100], [1, 10, 100], "runtime in t", "f4t"),
                     "psi": SeriesCell([1, 10, 100], [1, 3, 9], "runtime in psi", "f4p"),
                     "size": SeriesCell([1, 10], [5, 5], "size", "f3")})
    checks = {"X1": Parts((("linear in t", Slope("t", "linear")), ("sub-linear in psi", Slope("psi", "sub-linear"))),
                          published="linear, sub-linear"),
              "X2": Parts((("linear in psi", Slope("psi", "linear")), ("constant size", Slope("size", "constant")))),
              "X3": Parts((("a", Slope("none", "linear")), ("b", NotHere("dataset absent", "not here"))))}
    v = {x.claim_id: x for x in kinds.run("x", checks, ev, _claims("X1", "X2", "X3"))}
    assert v["X1"].verdict == REPRODUCED and v["X1"].published == "linear, sub-linear"
    assert v["X1"].evidence == "x/f4t.csv;x/f4p.csv"
    assert v["X2"].verdict == PARTLY and v["X2"].reason.startswith("fails: linear in psi: runtime in psi: log-log")
    assert v["X3"].verdict == NOT_CHECKABLE
    assert kinds.describe(checks)["X3"] == "parts(slope, not_here)"


def test_printed_against_the_claims_value_and_bespoke_arguments():
    ev = _Ev(printed={"k": PrintedCell(97.0, None, se=0.1, tol=1.0, label="SVM", fact="st", shown="97.00 %")})
    v = kinds.run("x", {"X1": Printed("k")}, ev, _claims("X1", value="97.9"))[0]
    assert v.verdict == REPRODUCED and v.ours == "97.00 %" and v.published == "" and v.evidence == "x/st.csv"
    v = kinds.run("x", {"X1": Printed("k")}, ev, _claims("X1", value="95.5"))[0]
    assert v.verdict == "not reproduced" and "ours 97 vs paper 95.5" in v.reason

    def echo(ev, row, a, b):
        return kinds.Outcome([("", [kinds.Check(a == b, f"{a} vs {b}")])])

    v = kinds.run("x", {"X1": Bespoke(echo, (1, 1)), "X2": Bespoke(echo, (1, 2))}, ev, _claims("X1", "X2"))
    assert [x.verdict for x in v] == [REPRODUCED, "not reproduced"]
    assert NotHere("dataset absent", "d", facts=("f",)).run(ev, None).evidence == "x/f.csv"


def test_slope_interval_is_the_bootstrap_of_the_summed_splits():
    from bench.report.verdicts import timing

    x = [1.0, 10.0, 100.0]
    exact = [[2.0, 20.0, 200.0], [3.0, 30.0, 300.0], [5.0, 50.0, 500.0]]
    lo, hi = timing.slope_interval(x, exact)     # every resample of exactly linear splits has slope 1
    assert abs(lo - 1) < 1e-12 and abs(hi - 1) < 1e-12
    rng = np.random.default_rng(3)
    noisy = np.exp(np.log(np.array(x)) * 0.9 + rng.normal(0, 0.3, size=(8, 3)))
    lo, hi = timing.slope_interval(x, noisy, resamples=2000)
    # brute force: the same resamples, one np.polyfit each
    idx = np.random.default_rng(timing.SEED).integers(0, 8, size=(2000, 8))
    ref = [np.polyfit(np.log(x), np.log(noisy[i].sum(axis=0)), 1)[0] for i in idx]
    assert np.allclose([lo, hi], np.percentile(ref, [2.5, 97.5]), atol=1e-12)
    assert timing.slope_interval(x, noisy[:1]) is None and timing.slope_interval(x, noisy[:, :2]) is None


def test_a_timed_slope_is_decided_on_its_interval():
    x = [1.0, 10.0, 100.0, 1000.0]
    tight = np.array([[1.0, 7.0, 50.0, 350.0]] * 3) * np.array([[1.0], [1.01], [0.99]])   # slope ~0.85
    wide = np.array([[1.0, 7.0, 50.0, 350.0], [1.0, 3.0, 9.0, 60.0], [1.0, 9.0, 80.0, 700.0]])
    ev = _Ev(series={"tight": SeriesCell(x, list(tight.sum(axis=0)), "tight", "f", tight, "times.x_cpu_s"),
                     "wide": SeriesCell(x, list(wide.sum(axis=0)), "wide", "f", wide, "times.x_cpu_s")})
    checks = {"X1": Slope("tight", "sub-linear"), "X2": Slope("tight", "linear"), "X3": Slope("wide", "sub-linear")}
    v = {x.claim_id: x for x in kinds.run("x", checks, ev, _claims("X1", "X2", "X3"))}
    assert v["X1"].verdict == "not reproduced" and "(the whole interval outside it)" in v["X1"].reason
    assert v["X2"].verdict == REPRODUCED and "times.x_cpu_s" in v["X2"].reason
    assert v["X3"].verdict == NOT_CHECKABLE and v["X3"].reason.startswith("within timing noise")
    assert "bootstrap interval of its slope" in v["X1"].test


def test_a_failure_the_papers_own_numbers_share_says_so():
    from bench.report.verdicts import Verdict, paper_fails_too

    vs = [Verdict("A1", "p", "not reproduced", reason="fails: x", extra={"paper_own": "not reproduced"}),
          Verdict("A2", "p", "not reproduced", reason="fails: y", extra={"paper_own": "reproduced"}),
          Verdict("A3", "p", "reproduced", reason="", extra={"paper_own": "not reproduced"})]
    out = {v.claim_id: v.reason for v in paper_fails_too(vs)}
    assert out["A1"] == "fails: x; the paper's own numbers fail the same rule: read as ours, they are 'not reproduced'"
    assert out["A2"] == "fails: y" and out["A3"] == ""


def test_mb13_states_table_1_as_the_cause_of_a_failed_psi_part():
    x = [500.0, 1000.0, 2000.0, 5000.0, 10000.0]
    y = [0.01 + 1e-4 * v for v in x]                              # a + b psi: slope below 1, not below 0.8
    splits = np.array([y, [1.01 * v for v in y], [0.99 * v for v in y]])
    ev = _Ev(series={"runtime in psi": SeriesCell(x, list(splits.sum(axis=0)), "runtime in psi", "f", splits, "t")})
    o = massbayes.LinearInPsiCause(Slope("runtime in psi", "sub-linear")).run(ev, {"claim_id": "X1"})
    assert o.parts[0][1][0].ok is False
    assert "cause: the paper's own Table 1 gives MassBayes' training time as O(thdpsi)" in o.note
