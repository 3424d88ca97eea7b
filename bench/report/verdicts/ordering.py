"""Orderings of means ("lowest", "best", "a clear winner") decided by a paired test, not by a strict
comparison of means.

A claim that one candidate is the best of several is decided over paired units: for each other
candidate, a paired test on the paired values. Over data sets the test is the two-sided Wilcoxon
signed-rank test (:func:`bench.stats.ttests.wilcoxon_signed_rank`, zero differences dropped, p <
:data:`ALPHA`); over the few folds of one data set (4 folds, where no Wilcoxon test can reach p < 0.05)
it is the two-standard-error test on the fold-paired differences (the paired difference's mean beyond
two of its standard errors), the MassBayes paper's own test. The claimed candidate loses to another only
when the other's mean is better *and* the test finds the difference; a difference the test does not
find is a tie, never a loss (with ``clear=True`` a tie fails too: the claimed one must be found better).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import ORDER_ALPHA, ORDER_SE
from ._common import NOT_AT_SCALE, Check

#: the Wilcoxon test's level (two-sided); the fold-paired test: a mean difference beyond this many of its
#: standard errors (stated once, in the rules: bench.report.verdicts)
ALPHA, SE_FACTOR = ORDER_ALPHA, ORDER_SE


def test_text(test: str = "wilcoxon") -> str:
    """The paired test's words (``test``: "wilcoxon" over data sets, "2se" over folds)."""
    if test == "2se":
        return (f"fold-paired two-standard-error test (mean paired difference beyond {SE_FACTOR:g} standard errors); "
                "a difference it does not find is a tie, not a loss")
    return (f"two-sided Wilcoxon signed-rank test over the paired data sets, p < {ALPHA}; a difference it does not "
            "find is a tie, not a loss")


def paired_se(a, b) -> tuple[float, float, int]:
    """(mean of a - b, its standard error, number of pairs) over the pairs where both are finite."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    keep = np.isfinite(a) & np.isfinite(b)
    d = a[keep] - b[keep]
    if d.size == 0:
        return float("nan"), float("nan"), 0
    se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("nan")
    return float(d.mean()), se, int(d.size)


def paired(a, b) -> tuple[float, float, int]:
    """(mean of a - b, two-sided Wilcoxon p, number of pairs) over the pairs where both are finite."""
    from bench.stats.ttests import wilcoxon_signed_rank

    a, b = np.asarray(a, float), np.asarray(b, float)
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if a.size == 0:
        return float("nan"), float("nan"), 0
    return float((a - b).mean()), float(wilcoxon_signed_rank(a, b).p), int(a.size)


def best(values: pd.DataFrame, claimed: str, label: str, lower_is_better: bool = True, clear: bool = False,
         alpha: float = ALPHA, digits: int = 4, test: str = "wilcoxon") -> list[Check]:
    """``claimed`` (a column of ``values``: paired units x candidates) the best: one check per other
    candidate, failing when that one is found better by the paired ``test`` ("wilcoxon": p < ``alpha``;
    "2se": the mean paired difference beyond :data:`SE_FACTOR` standard errors); with ``clear`` it also
    fails when ``claimed`` is not found better than it (a tie)."""
    if values is None or claimed not in getattr(values, "columns", ()):
        return [Check(None, f"{NOT_AT_SCALE}: {label}: {claimed} has no values")]
    out = []
    sign = 1.0 if lower_is_better else -1.0
    for other in [c for c in values.columns if c != claimed]:
        if test == "2se":
            d, se, n = paired_se(values[claimed], values[other])
            sig = bool(np.isfinite(se) and abs(d) > SE_FACTOR * se)
            how = f"± {se:.{digits}f} se over {n} folds"
        else:
            d, p, n = paired(values[claimed], values[other])
            sig = bool(p < alpha)
            how = f"Wilcoxon p = {p:.3f} over {n}"
        if n == 0:
            out.append(Check(None, f"{NOT_AT_SCALE}: {label}: no pairs of {claimed} and {other}"))
            continue
        other_better, claimed_better = sig and sign * d > 0, sig and sign * d < 0
        word = "tie" if not sig else ("better" if claimed_better else "worse")
        text = (f"{label}: {claimed} {float(values[claimed].mean()):.{digits}f} vs {other} "
                f"{float(values[other].mean()):.{digits}f} (paired difference {d:+.{digits}f}, {how}: {word})")
        out.append(Check(claimed_better if clear else not other_better, text))
    return out


def tally(checks: list[Check]) -> str:
    """How the claimed candidate fared in the checks of :func:`best`: 'found better than k, tied with m,
    found worse than j'."""
    n = {w: sum(c.text.endswith(f": {w})") for c in checks) for w in ("better", "tie", "worse")}
    return f"found better than {n['better']}, tied with {n['tie']}, found worse than {n['worse']}"


__all__ = ["ALPHA", "SE_FACTOR", "best", "paired", "paired_se", "tally", "test_text"]
