"""The Bayesian answer beside a W/D/L claim's own test, as information (it decides nothing).

For each comparison of a :class:`~bench.report.verdicts.kinds.WDL` claim whose evidence gives our
per-dataset paired values (``WdlCell.values``: the row learner's and the column learner's measure on
the same datasets, those the counts are over), the Bayesian signed-rank test
(:func:`bench.stats.bayes.signed_rank`, Benavoli et al. 2014, 2017) with the default ROPE
:data:`bench.stats.bayes.DEFAULT_ROPE` in the measure's units (0.01: one point of error; the same
0.01 for bias, variance and RMSE, as ``bench compare`` uses for every measure), its fixed seed and
number of draws, so a rebuild gives the same probabilities. The claim's verdict still comes from the
paper's own test; the note goes to the verdict's ``extra["bayes"]`` and the verdict tables show it
after the test (:func:`shown`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

#: the key of a verdict's ``extra`` the note goes to
KEY = "bayes"


def rope() -> float:
    """The ROPE of the note: the documented default of :mod:`bench.stats.bayes`."""
    from ...stats.bayes import DEFAULT_ROPE

    return DEFAULT_ROPE


def lower_is_better(measure: str) -> bool:
    """The measure's direction, as the W/D/L counts read it (:data:`bench.stats.pairwise.LOWER_IS_BETTER`)."""
    from ...stats.pairwise import LOWER_IS_BETTER

    return LOWER_IS_BETTER.get(measure, True)


@lru_cache(maxsize=4096)
def _probs(a: tuple, b: tuple, rope_: float, lower: bool) -> tuple[float, float, float]:
    from ...stats.bayes import signed_rank

    r = signed_rank(np.array(a), np.array(b), rope_, lower_is_better=lower)
    return r.p_a, r.p_rope, r.p_b


def probabilities(values, measure: str, rope_: float | None = None) -> tuple[float, float, float] | None:
    """(P(row better), P(practically equivalent), P(column better)) of the paired per-dataset ``values``
    ((row's, column's)), None with fewer than two datasets or a missing value."""
    if values is None:
        return None
    a, b = (np.asarray(v, dtype=np.float64) for v in values)
    if a.shape != b.shape or a.ndim != 1 or a.size < 2 or np.isnan(a).any() or np.isnan(b).any():
        return None
    return _probs(tuple(a.tolist()), tuple(b.tolist()), float(rope() if rope_ is None else rope_),
                  lower_is_better(measure))


def note(paired: list[tuple[str, str, str, object, str]]) -> str:
    """The note of one claim: ``paired`` is [(label, row, column, values, measure), ...], one per comparison
    with paired values; "" when none has two datasets. One comparison: "Bayesian signed-rank (ROPE 0.01):
    P(A better) 0.12, P(equivalent) 0.85, P(B better) 0.03"; several: the three per comparison after its
    label, in the order P(row better)/P(equivalent)/P(column better)."""
    rows = [(label, r, c, p) for label, r, c, values, m in paired
            if (p := probabilities(values, m)) is not None]
    if not rows:
        return ""
    head = f"Bayesian signed-rank (ROPE {rope():g}, information only"
    if len(rows) == 1:
        label, r, c, (pa, pe, pb) = rows[0]
        return f"{head}): {label}: P({r} better) {pa:.2f}, P(equivalent) {pe:.2f}, P({c} better) {pb:.2f}"
    return (f"{head}; P(row better)/P(equivalent)/P(column better)): "
            + "; ".join(f"{label} {pa:.2f}/{pe:.2f}/{pb:.2f}" for label, _, _, (pa, pe, pb) in rows))


def shown(test: str, extra: dict | None) -> str:
    """A verdict's test as the verdict tables show it: the claim's own test, then the note where it has one."""
    n = (extra or {}).get(KEY, "")
    return f"{test}; {n}" if test and n else (test or n)
