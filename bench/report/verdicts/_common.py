"""Shared pieces of the ECOC-NB, ESKDB and A2DE-paper evaluators.

A claim is checked as a list of *stated parts*; each part is a list of :class:`Check` (one
comparison each, ``ok`` True / False / None = no data). The verdict (:func:`combine`):

* every part holds -> reproduced;
* some part fails -> "partly reproduced" when the claim states more than one part and another
  part holds, else "not reproduced" (a part holds only when *every* comparison in it holds: one
  comparison of many holding never makes a claim partly reproduced);
* parts that cannot be checked here (no data) are named in the reason and the checkable parts decide;
  with no checkable part the claim is "not checkable", its reason starting with the category
  (dataset absent / quantity not measurable / protocol not run at this scale).

Rules used by these evaluators (thresholds are written here, once):

* WDL claims: the paper's own test and level, recomputed from the win/loss counts with
  :func:`bench.stats.pairwise.significance` (the A2DE paper: two-tailed sign test,
  p < 0.05; ESKDB: one-tailed sign test, p <= 0.05). A claim that says "significantly" needs the
  test to reject; a claim that only says "more often" / "outperforms" needs wins > losses.
* Averages against a published average: reproduced when within :data:`AVG_RTOL` (relative), and only
  compared when our runs cover at least :data:`MIN_COVERAGE` of the paper's datasets (else not
  checkable: protocol not run at this scale).
* Ratios of times (the only time comparison made across machines): reproduced when ours is within a
  factor :data:`RATIO_FACTOR` of the published ratio. Absolute seconds on the paper's machine are
  never compared (not checkable: quantity not measurable here).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...stats.pairwise import significance
from . import (ABSENT, CHECKABLE_REASONS, DIFFERENT_IMPL, EVALUATOR, NOT_AT_SCALE, NOT_CHECKABLE,  # noqa: F401
               NOT_MEASURABLE, NOT_REPRODUCED, PARTLY, RATIO_FACTOR, REPRODUCED, TIMING_NOISE, Verdict)

AVG_RTOL = 0.02          #: relative tolerance of an average (RMSE, error) against the published one
MIN_COVERAGE = 0.8       #: share of the paper's datasets our average must cover to be compared

#: the test column of the claims checked with :func:`ratio_check` and :func:`average_check`
RATIO_TEST = f"time ratio within x{RATIO_FACTOR:g} of the paper's (ours / paper's in [1/{RATIO_FACTOR:g}, {RATIO_FACTOR:g}])"
AVG_TEST = (f"mean within {AVG_RTOL:.0%} of the paper's (relative), over >= {MIN_COVERAGE:.0%} of its datasets")

MAX_LISTED = 3           #: failing comparisons listed in a reason (the rest counted)

TEST_TEXT = {"sign2": "two-tailed binomial sign test, p < {a}", "sign1": "one-tailed binomial sign test, p <= {a}"}


def test_text(test: str, alpha: float) -> str:
    return TEST_TEXT[test].format(a=alpha)


def num(s) -> float | None:
    """The leading number of a cell like "0.2269 ± 0.0162" (None when empty / not a number)."""
    if s is None:
        return None
    if isinstance(s, (int, float, np.floating, np.integer)):
        return None if np.isnan(s) else float(s)
    t = str(s).strip().split(" ")[0]
    try:
        return float(t)
    except ValueError:
        return None


#: the categories a finding of not checkable starts with (bench.report.verdicts' reasons, but the evaluator's own)
CATEGORIES = tuple(r for r in CHECKABLE_REASONS if r != EVALUATOR)


@dataclass
class Check:
    """One comparison of a claim: ``ok`` True (holds), False (fails), None (not checkable here: then
    ``text`` starts with the reason's category, one of :data:`CATEGORIES`)."""

    ok: bool | None
    text: str

    def __post_init__(self):
        if self.ok is None and not self.text.startswith(CATEGORIES):
            raise ValueError(f"an unchecked comparison needs its category first: {self.text!r}")


#: a WDL expectation of the row algorithm against the column one
def wdl_expect(wdl: tuple[int, int, int] | None, kind: str, test: str, alpha: float) -> bool | None:
    if wdl is None:
        return None
    w, _, l = wdl
    sig = significance(w, l, test, alpha)[1]
    # "exempt": a comparison the claim itself names as its exception (shown, never decided)
    return {"exempt": True, "win": w > l, "loss": w < l, "not_loss": w >= l,
            "win_sig": w > l and sig, "loss_sig": w < l and sig,
            "win_nonsig": w > l and not sig, "loss_nonsig": w < l and not sig, "nonsig": not sig}[kind]


def wdl_p(wdl, test: str) -> float | None:
    if wdl is None:
        return None
    return significance(wdl[0], wdl[2], test)[0]


def part_status(checks: list[Check]) -> bool | None:
    if any(c.ok is False for c in checks):
        return False
    if any(c.ok is None for c in checks):
        return None
    return True


def combine(parts: list[tuple[str, list[Check]]]) -> tuple[str, str]:
    """(verdict, reason) of a claim from its stated parts (see the module docstring)."""
    status = [(name, part_status(cs), cs) for name, cs in parts]
    failed = [(n, cs) for n, s, cs in status if s is False]
    held = [n or "the claim" for n, s, _ in status if s is True]
    open_ = [(n, cs) for n, s, cs in status if s is None]

    def why(items, flag):
        out = []
        for n, cs in items:
            bad = [c.text for c in cs if c.ok is flag]
            more = f"; and {len(bad) - MAX_LISTED} more" if len(bad) > MAX_LISTED else ""
            text = "; ".join(bad[:MAX_LISTED]) + more
            out.append(text + (f" [{n}]" if n and flag is None and len(parts) > 1 else "")
                       if flag is None else (f"{n}: " if n and len(parts) > 1 else "") + text)
        return " | ".join(out)

    if not failed and not held:
        # nothing checkable: the reason starts with the category of the first unchecked comparison
        return NOT_CHECKABLE, why(open_, None)
    pieces = []
    if failed:
        verdict = PARTLY if (held and len(parts) > 1) else NOT_REPRODUCED
        pieces.append("fails: " + why(failed, False))
        if held and len(parts) > 1:
            pieces.append("holds: " + ", ".join(held))
    else:
        verdict = REPRODUCED
    if open_:   # the checkable parts decide; the others are named
        pieces.append("not checked: " + why(open_, None))
    return verdict, " | ".join(pieces)


def unknown(row, paper: str) -> Verdict:
    """A claim id the evaluator has no rule for (claims.csv grew): not checkable, said so."""
    return Verdict(claim_id=row["claim_id"], paper=paper, verdict=NOT_CHECKABLE, claim=str(row["quote"]),
                   reason="evaluator: no rule for this claim id yet (bench/report/verdicts)")


def ratio_check(ours: float | None, published: float | None, label: str) -> Check:
    if ours is None or published is None or not np.isfinite(ours) or published <= 0:
        return Check(None, f"protocol not run at this scale: {label}: no value")
    ok = 1 / RATIO_FACTOR <= ours / published <= RATIO_FACTOR
    return Check(ok, f"{label}: ours {ours:.2f}x vs paper {published:.2f}x"
                     + ("" if ok else f" (outside a factor {RATIO_FACTOR} of the paper's)"))


def average_check(ours: float | None, published: float | None, label: str, n_ours: int | None,
                  n_paper: int | None) -> Check:
    if ours is None or published is None:
        return Check(None, f"protocol not run at this scale: {label}: no value")
    if n_ours is not None and n_paper and n_ours < MIN_COVERAGE * n_paper:
        return Check(None, f"protocol not run at this scale: {label} (ours over {n_ours} of the paper's "
                           f"{n_paper} datasets)")
    ok = abs(ours - published) <= AVG_RTOL * abs(published)
    return Check(ok, f"{label}: ours {ours:.4f} vs paper {published:.4f}"
                     + ("" if ok else f" (differs by more than {AVG_RTOL:.0%})"))

