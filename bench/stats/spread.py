"""The standard error of a mean: one helper for every table, figure and console summary.

``standard_error(values)`` is the sample standard deviation (``ddof=1``, NumPy's two-pass
formula) over the square root of the number of values. The rule for one value: **NaN** by
default, since one value has no spread to estimate (as :func:`scipy.stats.sem` gives); no
values also give NaN. A caller that shows a single value with a zero-width error bar (the
per-job console summary, the ANDE/SR and MC-Tree tables, the normalised-bar figures, the
generic summary tables) says so with ``single=0.0``; which rule each caller uses is written
at the call, so the two conventions no longer hide in eight inline copies.

Values are taken as they are: a NaN among them gives NaN (filter first, as :func:`mean_se`
does for the console summary).

The standard error of a difference of two learners' means: ``standard_error(a - b)`` when the
values are paired (same folds), :func:`pooled_standard_error` when each learner's spread counts
on its own (sqrt(se_a^2 + se_b^2), computed as sqrt(var_a/n_a + var_b/n_b)).
"""

from __future__ import annotations

import math

import numpy as np


def standard_error(values, *, single: float = math.nan) -> float:
    """sd(values, ddof=1) / sqrt(n); ``single`` for n = 1 (NaN unless given), NaN for n = 0."""
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size == 0:
        return math.nan
    if v.size == 1:
        return float(single)
    return float(v.std(ddof=1) / np.sqrt(v.size))


def pooled_standard_error(a, b) -> float:
    """sqrt(var(a)/n_a + var(b)/n_b) (``ddof=1``): the standard error of mean(a) - mean(b) for
    unpaired values, i.e. sqrt(se_a^2 + se_b^2) without squaring a square root."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    return float(np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size))


def mean_se(values) -> tuple[float, float]:
    """Mean and standard error of the finite values among ``values`` (None and non-finite ones
    left out); (NaN, NaN) without any, and a standard error of 0 for one value (the console
    summary of a job prints 0 rather than nan for a single split)."""
    v = np.asarray([x for x in values if x is not None and np.isfinite(x)], dtype=np.float64)
    if v.size == 0:
        return math.nan, math.nan
    return float(v.mean()), standard_error(v, single=0.0)
