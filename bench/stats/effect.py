"""Effect sizes: how large a difference is, not only whether it is consistent.

* :func:`cliffs_delta` - Cliff's (1993) delta of two samples, P(x > y) - P(x < y) over all pairs
  (equal to 2 U / (n m) - 1 with Mann and Whitney's U), with the magnitude labels of Romano et al.
  (2006), as autorank (Herbold 2020) labels it: |delta| < 0.147 negligible, < 0.33 small,
  < 0.474 medium, else large;
* :func:`effect_size` - Cliff's delta of a learner's per-dataset values against another's,
  oriented so that a positive delta means the first learner is better, with a bootstrap confidence
  interval (BCa, resampling the datasets with their pairs, :func:`scipy.stats.bootstrap`, fixed seed).

Cliff's delta, like autorank's, compares the two learners' per-dataset values as two samples: it
measures how much the distributions overlap, and the spread between datasets (some easy, some hard)
keeps it small even when one learner wins on most datasets. Read it with the paired tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: (upper bound of |delta|, label), Romano et al. (2006), as autorank
MAGNITUDES = ((0.147, "negligible"), (0.33, "small"), (0.474, "medium"), (np.inf, "large"))
CONFIDENCE = 0.95
N_RESAMPLES = 9999


def magnitude(delta: float) -> str:
    """The label of |``delta``| (Romano et al. 2006)."""
    if not np.isfinite(delta):
        return ""
    for bound, label in MAGNITUDES:
        if abs(delta) < bound:
            return label
    return MAGNITUDES[-1][1]


def cliffs_delta(x, y) -> float:
    """Cliff's delta = (#{x_i > y_j} - #{x_i < y_j}) / (n m) over all n m pairs; vectorised over a
    leading batch axis (``x``: ... x n, ``y``: ... x m)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    diff = x[..., :, None] - y[..., None, :]
    return (np.sign(diff).sum(axis=(-2, -1)) / (x.shape[-1] * y.shape[-1]))


@dataclass(frozen=True)
class EffectSize:
    delta: float            #: Cliff's delta, > 0: the first learner better
    low: float              #: confidence interval
    high: float
    magnitude: str
    confidence: float
    n: int
    method: str


def effect_size(a, b, lower_is_better: bool = True, confidence: float = CONFIDENCE,
                n_resamples: int = N_RESAMPLES, seed: int = 0) -> EffectSize:
    """Cliff's delta of ``a`` against ``b`` (per-dataset values, paired), > 0 when ``a`` is better,
    with its BCa bootstrap interval over the datasets (pairs resampled together)."""
    import warnings

    from scipy import stats

    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"need two paired 1-D arrays, got shapes {x.shape} and {y.shape}")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("an effect size needs a value of both learners on every dataset (found NaN)")
    sign = -1.0 if lower_is_better else 1.0     # a better = a's values lower (error)
    n = x.size

    def stat(u, v, axis=-1):
        return sign * cliffs_delta(np.moveaxis(u, axis, -1), np.moveaxis(v, axis, -1))

    delta = float(stat(x, y))
    how = "BCa"
    if n < 3 or (np.all(x == x[0]) and np.all(y == y[0])):
        lo = hi = np.nan
        how = "no"
    else:
        with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
            # a degenerate BCa (its NaN bounds) is replaced by the percentile interval below
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            res = stats.bootstrap((x, y), stat, paired=True, vectorized=True, confidence_level=confidence,
                                  n_resamples=n_resamples, method="BCa", rng=np.random.default_rng(seed),
                                  batch=200)
        lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if not (np.isfinite(lo) and np.isfinite(hi)):    # BCa undefined (degenerate resamples): percentile
            how = "percentile"
            res = stats.bootstrap((x, y), stat, paired=True, vectorized=True, confidence_level=confidence,
                                  n_resamples=n_resamples, method="percentile", rng=np.random.default_rng(seed),
                                  batch=200)
            lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return EffectSize(delta, lo, hi, magnitude(delta), confidence, n,
                      f"Cliff's delta, {confidence:.0%} {how} bootstrap interval ({n_resamples} resamples, seed {seed})")
