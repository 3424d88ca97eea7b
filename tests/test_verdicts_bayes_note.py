"""The Bayesian signed-rank note beside a W/D/L claim's own test (bench.report.verdicts.bayes_note):
its probabilities are baycomp's on the same paired values, it is shown after the claim's test in the
verdict tables, and it changes no verdict."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from bench.report import page as P
from bench.report.verdicts import bayes_note, kinds, verdict_table
from bench.report.verdicts.kinds import WDL, Cmp, WdlCell
from bench.stats.bayes import DEFAULT_ROPE
from bench.stats.pairwise import wdl as count_wdl


def _pair(seed: int, n: int, shift: float, noise: float = 0.01):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.05, 0.4, n)
    return a, a + rng.normal(shift, noise, n)


def _baycomp(a, b, rope, lower=True):
    """(P(a better), P(equivalent), P(b better)) by baycomp's own sampling (seed 0, 50000 draws, prior 0.5)."""
    from baycomp import SignedRankTest

    x, y = (a, b) if lower else (-np.asarray(a), -np.asarray(b))
    s = SignedRankTest.sample(x, y, rope, nsamples=50000, random_state=0)   # columns: y - x < -rope, rope, >
    left, eq, right = np.bincount(np.argmax(s, axis=1), minlength=3) / len(s)
    return right, eq, left


@pytest.mark.parametrize("seed,n,shift,measure", [(1, 30, 0.006, "0-1 loss"), (2, 12, -0.02, "RMSE"),
                                                  (3, 65, 0.0, "bias"), (4, 20, 0.015, "accuracy")])
def test_note_probabilities_equal_baycomp(seed, n, shift, measure):
    a, b = _pair(seed, n, shift)
    lower = measure != "accuracy"
    assert bayes_note.lower_is_better(measure) is lower
    got = bayes_note.probabilities((a, b), measure)
    assert got == pytest.approx(_baycomp(a, b, DEFAULT_ROPE, lower), abs=1e-12)
    assert sum(got) == pytest.approx(1.0)
    # a second ROPE, as baycomp computes it
    assert bayes_note.probabilities((a, b), measure, 0.005) == pytest.approx(_baycomp(a, b, 0.005, lower), abs=1e-12)


def test_note_is_deterministic_and_needs_two_complete_datasets():
    a, b = _pair(5, 25, 0.004)
    bayes_note._probs.cache_clear()
    first = bayes_note.note([("A vs B error", "A", "B", (a, b), "error")])
    bayes_note._probs.cache_clear()
    assert bayes_note.note([("A vs B error", "A", "B", (a.copy(), b.copy()), "error")]) == first
    assert bayes_note.probabilities(([0.1], [0.2]), "error") is None
    assert bayes_note.probabilities(([0.1, np.nan], [0.2, 0.3]), "error") is None
    assert bayes_note.probabilities(None, "error") is None
    assert bayes_note.note([("x", "A", "B", ([0.1], [0.2]), "error")]) == ""


class _Ev(kinds.Evidence):
    """A W/D/L adapter over paired per-dataset values: counts by the raw differences, as the papers' tables."""

    paper, test, alpha = "demo", "sign2", 0.05

    def __init__(self, pairs: dict, with_values: bool = True):
        self.pairs, self.with_values = pairs, with_values

    def wdl(self, c: Cmp) -> WdlCell | None:
        a, b = self.pairs[(c.row, c.col)]
        w = count_wdl(a, b, True, "raw")
        return WdlCell((w.wins, w.draws, w.losses), (w.wins, w.draws, w.losses), n=len(a), fact="values",
                       values=(a, b) if self.with_values else None)

    def sources(self, *facts: str) -> str:
        return "demo/values.csv" if facts else ""


def _claims(*ids):
    return pd.DataFrame({"claim_id": list(ids), "quote": [f"claim {i}" for i in ids], "value": "", "unit": ""})


def test_wdl_claim_shows_the_note_beside_its_test_and_keeps_its_verdict():
    pairs = {("A", "B"): _pair(6, 40, 0.02), ("A", "C"): _pair(7, 40, 0.0005), ("C", "B"): _pair(8, 40, -0.03)}
    checks = {"D1": WDL((("", (Cmp("A", "B", "0-1 loss", "win_sig"),)),)),                 # one comparison
              "D2": WDL((("", (Cmp("A", "C", "0-1 loss", "win_sig"), Cmp("C", "B", "RMSE", "win"))),)),
              "D3": WDL((("", (Cmp("A", "C", "0-1 loss", "nonsig"),)),), say="significant")}
    claims = _claims("D1", "D2", "D3")
    with_note = kinds.run("demo", checks, _Ev(pairs), claims)
    without = kinds.run("demo", checks, _Ev(pairs, with_values=False), claims)
    # nothing the verdict says changes: only extra gains the note
    for v, w in zip(with_note, without):
        assert v.row() == w.row()
        assert bayes_note.KEY not in w.extra and v.extra[bayes_note.KEY]
    pa, pe, pb = _baycomp(*pairs[("A", "B")], DEFAULT_ROPE)
    assert with_note[0].extra["bayes"] == (f"Bayesian signed-rank (ROPE {DEFAULT_ROPE:g}, information only): A vs B "
                                           f"0-1 loss: P(A better) {pa:.2f}, P(equivalent) {pe:.2f}, "
                                           f"P(B better) {pb:.2f}")
    two = with_note[1].extra["bayes"]
    for (r, c), m in ((("A", "C"), "0-1 loss"), (("C", "B"), "RMSE")):
        p = _baycomp(*pairs[(r, c)], DEFAULT_ROPE)
        assert f"{r} vs {c} {m} {p[0]:.2f}/{p[1]:.2f}/{p[2]:.2f}" in two
    # the verdict table (every page's): the claim's own test first, the note after it, in the test column
    md = P.to_markdown(P.Page([verdict_table(with_note)]))
    row = next(line for line in md.splitlines() if line.startswith("| D1 "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    test = cells[5]
    assert test.startswith(with_note[0].test + "; Bayesian signed-rank (ROPE 0.01")
    assert re.search(r"P\(A better\) \d\.\d\d, P\(equivalent\) \d\.\d\d, P\(B better\) \d\.\d\d$", test)
    plain = P.to_markdown(P.Page([verdict_table(without)]))
    assert "Bayesian" not in plain


def test_the_paper_side_and_missing_values_give_no_note():
    pairs = {("A", "B"): _pair(9, 30, 0.01)}
    out = kinds.run("demo", {"D1": WDL((("", (Cmp("A", "B", "error", "win"),)),), side="published")},
                    _Ev(pairs), _claims("D1"))
    assert out[0].ours and bayes_note.KEY not in out[0].extra     # the paper's counts were read, no note


def test_massbayes_table4_note_pairs_table3_accuracies_on_the_shipped_facts(monkeypatch):
    """MB09 (Table 4's W/D/L, the paper's two-standard-error test): the note pairs Table 3's accuracies (as
    fractions, so the ROPE is one point) on the data sets Table 4 counts, and changes nothing of the verdict."""
    from pathlib import Path

    from bench import published
    from bench.papers.massbayes import verdicts as V

    reports = Path(__file__).resolve().parents[1] / "reports"
    ev = V.Evidence(reports)
    acc = ev.facts.table(V.ACC).pivot_table(index="dataset", columns="algorithm", values="ours")
    cell = ev.wdl(Cmp("MassBayes", "A1DE", "accuracy", "win"))
    both = acc[["MassBayes", "A1DE"]].dropna()
    assert cell.n == len(both) and np.allclose(cell.values[0], both["MassBayes"] / 100)
    assert np.allclose(cell.values[1], both["A1DE"] / 100)
    pa, pe, pb = _baycomp(both["MassBayes"].to_numpy() / 100, both["A1DE"].to_numpy() / 100, DEFAULT_ROPE, False)
    claims = published.claims("massbayes")
    vs = {v.claim_id: v for v in V.evaluate(reports, claims)}
    assert f"MassBayes vs A1DE {pa:.2f}/{pe:.2f}/{pb:.2f}" in vs["MB09"].extra["bayes"]
    monkeypatch.setattr(V.Evidence, "paired", lambda self, *a: None)
    plain = {v.claim_id: v for v in V.evaluate(reports, claims)}
    assert [v.row() for v in plain.values()] == [v.row() for v in vs.values()]
    assert "bayes" not in plain["MB09"].extra
