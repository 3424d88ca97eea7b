"""Tests beyond the papers' sign tests.

* :func:`wilcoxon_signed_rank` - Wilcoxon's signed-rank test over datasets (Demsar 2006, Sec. 3.1.3),
  with exact permutation p-values where ties or zeros make the normal approximation poor;
* :func:`corrected_resampled_ttest` - Nadeau and Bengio's (2003) corrected resampled t-test on the
  split values of one dataset, as Weka's Experimenter (PairedCorrectedTTester) applies it;
* :func:`paired_5x2cv_ttest` - Dietterich's (1998) 5x2cv paired t-test, and
  :func:`combined_5x2cv_ftest` - Alpaydin's (1999) combined 5x2cv F test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class TestResult:
    statistic: float
    p: float
    df: float = float("nan")
    n: int = 0
    method: str = ""


# ---------------------------------------------------------------- Wilcoxon
#: the largest number of non-dropped differences whose 2^n sign flips are enumerated for the exact
#: permutation p-value (2^20 = 1048576 assignments); above it the normal approximation is used
PERMUTATION_MAX_N = 20


def _zero_filter(d: np.ndarray, zero_method: str) -> tuple[np.ndarray, str]:
    """The differences the test ranks, and the zero method scipy applies to them."""
    if zero_method == "wilcox":
        return d[d != 0], "wilcox"
    if zero_method == "zsplit":
        return d, "zsplit"
    if zero_method == "demsar":
        zeros = np.flatnonzero(d == 0)
        if zeros.size % 2 == 1:         # an odd number of zeros: one is ignored (Demsar 2006, Sec. 3.1.3)
            d = np.delete(d, zeros[0])
        return d, "zsplit"
    raise ValueError(f"zero_method must be 'wilcox', 'zsplit' or 'demsar', got {zero_method!r}")


def _signed_rank_sum(d: np.ndarray):
    """R+ - R- with the mid-ranks of |d|; zeros add their rank to neither side (zsplit)."""
    r = stats.rankdata(np.abs(d))
    return lambda x, axis=-1: np.sum(np.sign(x) * r, axis=axis)


def wilcoxon_signed_rank(a, b, zero_method: str = "wilcox", method: str = "auto") -> TestResult:
    """Two-sided Wilcoxon signed-rank test of paired values ``a`` and ``b`` (e.g. per-dataset means).

    ``zero_method``: ``wilcox`` drops zero differences; ``zsplit`` ranks them and splits their
    ranks evenly between the positive and negative sums; ``demsar`` is Demsar's (2006) rule:
    zeros are split, and when their number is odd one of them is ignored first.

    ``method``:
    * ``exact``: the null distribution of the rank sum (scipy; needs no ties and no zeros);
    * ``approx``: the normal approximation with the tie correction, no continuity correction;
    * ``permutation``: the exact permutation p-value with ties and zeros, enumerating all 2^n
      sign flips of the ranked differences (statistic R+ - R-, mid-ranks, zeros on neither side;
      :func:`scipy.stats.permutation_test`), for n <= :data:`PERMUTATION_MAX_N`;
    * ``auto``: exact for n <= 50 without ties or zeros, else the approximation;
    * ``auto_exact``: as ``auto``, but with ties or zeros and n <= :data:`PERMUTATION_MAX_N` the
      exact permutation p-value instead of the approximation, which is poor there.
    The statistic is min(R+, R-); ``method`` of the result names the method used.

    Computed by :func:`scipy.stats.wilcoxon` (``correction=False``) and
    :func:`scipy.stats.permutation_test`; ``tests/test_stats_ttests.py`` checks them against the rank
    sums and the null distributions written out by hand.
    """
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    d = d[~np.isnan(d)]
    d, zm = _zero_filter(d, zero_method)
    n = d.size
    if n == 0:
        return TestResult(0.0, 1.0, n=0, method="none")
    if np.all(d == 0) and method in ("permutation", "auto_exact"):
        return TestResult(0.0, 1.0, n=n, method="none (every difference is zero)")
    has_ties = np.unique(np.abs(d)).size < n
    has_zeros = bool(np.any(d == 0))
    if method in ("auto", "auto_exact"):  # decided here, not by scipy
        if n <= 50 and not has_ties and not has_zeros:
            method = "exact"
        elif method == "auto_exact" and n <= PERMUTATION_MAX_N:
            method = "permutation"
        else:
            method = "approx"
    if method == "exact":
        if has_ties or has_zeros:
            raise ValueError("the exact Wilcoxon distribution assumes no ties and no zero differences")
    elif method == "permutation":
        if n > PERMUTATION_MAX_N:
            raise ValueError(f"the exact permutation p-value enumerates 2^n sign flips; n = {n} is over "
                             f"{PERMUTATION_MAX_N}: use method='approx'")
        res = stats.wilcoxon(d, zero_method=zm, correction=False, method="approx", alternative="two-sided")
        perm = stats.permutation_test((d,), _signed_rank_sum(d), permutation_type="samples", vectorized=True,
                                      n_resamples=np.inf, alternative="two-sided", batch=1 << 15)
        return TestResult(float(res.statistic), float(min(1.0, perm.pvalue)), n=n,
                          method=f"exact permutation ({2 ** n} sign flips)")
    elif method != "approx":
        raise ValueError(f"method must be auto, auto_exact, exact, permutation or approx, got {method!r}")
    res = stats.wilcoxon(d, zero_method=zm, correction=False, method=method, alternative="two-sided")
    return TestResult(float(res.statistic), float(res.pvalue), n=n, method=method)


# ---------------------------------------------------------------- corrected resampled t
def corrected_resampled_ttest(a_splits, b_splits, test_train_ratio: float) -> TestResult:
    """Nadeau and Bengio's corrected resampled t-test on paired split values of one dataset.

    With d_j = a_j - b_j over the J splits (r repetitions of k folds), mean m and sample
    variance s^2: t = m / sqrt((1/J + n_test/n_train) s^2), J - 1 degrees of freedom, two-sided.
    ``test_train_ratio`` = n_test / n_train (1 for 2-fold CV, 1/9 for 10-fold). Weka's
    Experimenter uses this test with its default 10x10-fold setting. A zero variance gives
    t = 0 and p = 1 when the mean difference is 0, else an infinite t and p = 0.
    """
    a = np.asarray(a_splits, dtype=np.float64)
    b = np.asarray(b_splits, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1 or a.size < 2:
        raise ValueError(f"need two paired 1-D arrays of >= 2 split values, got {a.shape} and {b.shape}")
    d = a - b
    j = d.size
    m = d.mean()
    var = d.var(ddof=1)
    denom = np.sqrt((1.0 / j + float(test_train_ratio)) * var)
    if denom == 0:
        t = 0.0 if m == 0 else np.copysign(np.inf, m)
        return TestResult(float(t), 1.0 if m == 0 else 0.0, j - 1, j, "corrected resampled t")
    t = m / denom
    p = 2.0 * stats.t.sf(abs(t), j - 1)
    return TestResult(float(t), float(p), j - 1, j, "corrected resampled t")


# ---------------------------------------------------------------- 5x2cv
def _five_by_two(diffs) -> np.ndarray:
    p = np.asarray(diffs, dtype=np.float64)
    if p.shape != (5, 2):
        raise ValueError(f"5x2cv tests need the differences of 5 repetitions x 2 folds, got shape {p.shape}")
    return p


def paired_5x2cv_ttest(diffs) -> TestResult:
    """Dietterich's 5x2cv paired t-test. ``diffs[i, j]`` = measure of A minus measure of B on
    fold j of repetition i. t = p_1^(1) / sqrt(sum_i s_i^2 / 5), s_i^2 = sum_j (p_i^(j) - pbar_i)^2,
    5 degrees of freedom, two-sided."""
    p = _five_by_two(diffs)
    pbar = p.mean(axis=1)
    s2 = ((p - pbar[:, None]) ** 2).sum(axis=1)
    denom = np.sqrt(s2.sum() / 5.0)
    if denom == 0:
        return TestResult(0.0 if p[0, 0] == 0 else float(np.copysign(np.inf, p[0, 0])),
                          1.0 if p[0, 0] == 0 else 0.0, 5, 10, "5x2cv t")
    t = p[0, 0] / denom
    return TestResult(float(t), float(2.0 * stats.t.sf(abs(t), 5)), 5, 10, "5x2cv t")


def combined_5x2cv_ftest(diffs) -> TestResult:
    """Alpaydin's combined 5x2cv F test: F = sum_ij (p_i^(j))^2 / (2 sum_i s_i^2) ~ F(10, 5)."""
    p = _five_by_two(diffs)
    pbar = p.mean(axis=1)
    s2 = ((p - pbar[:, None]) ** 2).sum(axis=1)
    if s2.sum() == 0:
        return TestResult(0.0 if np.all(p == 0) else np.inf, 1.0 if np.all(p == 0) else 0.0, 10, 10, "5x2cv F")
    f = np.sum(p ** 2) / (2.0 * s2.sum())
    return TestResult(float(f), float(stats.f.sf(f, 10, 5)), 10, 10, "5x2cv F")
