"""The Bayesian answer beside a W/D/L claim's own test, as information (it decides nothing).

For each comparison of a :class:`~bench.report.verdicts.kinds.WDL` claim whose evidence gives our
per-dataset paired values (``WdlCell.values``: the row learner's and the column learner's measure on
the same datasets, those the counts are over), the Bayesian signed-rank test
(:func:`bench.stats.bayes.signed_rank`, Benavoli et al. 2014, 2017) with the measure's default ROPE
(:func:`bench.stats.bayes.default_rope`, in the measure's units: 0.01, one point of error, of
probability for RMSE; bias and variance take the 0-1 loss's, and the note says what "equivalent"
then means: :data:`bench.stats.bayes.ROPE_READING`), as ``bench compare`` uses, its fixed seed and
number of draws, so a rebuild gives the same probabilities. A measure with no default ROPE gets no
note. The claim's verdict still comes from the
paper's own test; the note goes to the verdict's ``extra["bayes"]`` and the verdict tables show it
after the test (:func:`shown`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

#: the key of a verdict's ``extra`` the note goes to
KEY = "bayes"


def rope(measure: str = "error") -> float | None:
    """The ROPE of the note on ``measure``: its documented default (:func:`bench.stats.bayes.default_rope`),
    None for a measure without one."""
    from ...stats.bayes import default_rope

    try:
        return default_rope(measure)
    except ValueError:
        return None


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
    r = rope(measure) if rope_ is None else rope_
    if r is None:
        return None
    return _probs(tuple(a.tolist()), tuple(b.tolist()), float(r), lower_is_better(measure))


def note(paired: list[tuple[str, str, str, object, str]]) -> str:
    """The note of one claim: ``paired`` is [(label, row, column, values, measure), ...], one per comparison
    with paired values; "" when none has two datasets. One comparison: "Bayesian signed-rank (ROPE 0.01):
    P(A better) 0.12, P(equivalent) 0.85, P(B better) 0.03"; several: the three per comparison after its
    label, in the order P(row better)/P(equivalent)/P(column better). On bias or variance the head says
    what "equivalent" means there (:data:`bench.stats.bayes.ROPE_READING`); when the comparisons' measures
    have different default ROPEs, each comparison's label names its own."""
    from ...stats.bayes import ROPE_READING, rope_measure

    rows = [(label, r, c, p, m) for label, r, c, values, m in paired
            if (p := probabilities(values, m)) is not None]
    if not rows:
        return ""
    ropes = list(dict.fromkeys(rope(m) for *_, m in rows))
    if len(ropes) > 1:      # the measures' defaults differ: each comparison says its own
        rows = [(f"{label} (ROPE {rope(m):g})", r, c, p, m) for label, r, c, p, m in rows]
    said = dict.fromkeys(ROPE_READING[k] for *_, m in rows if (k := rope_measure(m)) in ROPE_READING)
    head = (f"Bayesian signed-rank (ROPE {ropes[0]:g}" if len(ropes) == 1 else "Bayesian signed-rank (ROPE per "
            "comparison") + ", information only" + "".join(f"; {t}" for t in said)
    rows = [row[:4] for row in rows]
    if len(rows) == 1:
        label, r, c, (pa, pe, pb) = rows[0]
        return f"{head}): {label}: P({r} better) {pa:.2f}, P(equivalent) {pe:.2f}, P({c} better) {pb:.2f}"
    return (f"{head}; P(row better)/P(equivalent)/P(column better)): "
            + "; ".join(f"{label} {pa:.2f}/{pe:.2f}/{pb:.2f}" for label, _, _, (pa, pe, pb) in rows))


def shown(test: str, extra: dict | None) -> str:
    """A verdict's test as the verdict tables show it: the claim's own test, then the note where it has one."""
    n = (extra or {}).get(KEY, "")
    return f"{test}; {n}" if test and n else (test or n)
