"""Wilcoxon against scipy; corrected resampled t-test and the 5x2cv tests on hand cases."""

import numpy as np
import pytest
from scipy import stats

from bench.stats.ttests import (combined_5x2cv_ftest, corrected_resampled_ttest, paired_5x2cv_ttest,
                                wilcoxon_signed_rank)


@pytest.mark.parametrize("method", ["exact", "approx"])
def test_wilcoxon_equals_scipy_without_ties(method):
    rng = np.random.default_rng(1)
    for n in (5, 12, 30, 45):
        a = rng.normal(size=n)
        b = a + rng.normal(0.3, 1.0, size=n)
        ours = wilcoxon_signed_rank(a, b, method=method)
        ref = stats.wilcoxon(a, b, method=method)
        assert ours.statistic == pytest.approx(ref.statistic)
        assert ours.p == pytest.approx(ref.pvalue, rel=1e-9)


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit"])
def test_wilcoxon_with_ties_and_zeros_equals_scipy_normal_approximation(zero_method):
    rng = np.random.default_rng(2)
    for n in (10, 25, 71):
        a = np.round(rng.uniform(0, 0.3, size=n), 2)
        b = np.round(a + rng.normal(0.01, 0.03, size=n), 2)     # rounding makes ties and zeros
        ours = wilcoxon_signed_rank(a, b, zero_method=zero_method, method="approx")
        ref = stats.wilcoxon(a, b, zero_method=zero_method, method="approx")
        assert ours.statistic == pytest.approx(ref.statistic)
        assert ours.p == pytest.approx(ref.pvalue, rel=1e-9)


def _reference_wilcoxon(d: np.ndarray, zero_method: str) -> tuple[float, float]:
    """Rank sums and p-value written out (bench's own test before it used scipy): exact null
    distribution of R+ by subset counting when there are no ties or zeros and n <= 50, else the
    normal approximation with the tie correction and no continuity correction."""
    d = d[~np.isnan(d)]
    if zero_method == "wilcox":
        d = d[d != 0]
    n = d.size
    r = stats.rankdata(np.abs(d))
    t = float(min(r[d > 0].sum() + 0.5 * r[d == 0].sum(), r[d < 0].sum() + 0.5 * r[d == 0].sum()))
    if n <= 50 and np.unique(np.abs(d)).size == n and not np.any(d == 0):
        counts = np.zeros(n * (n + 1) // 2 + 1)
        counts[0] = 1.0
        for k in range(1, n + 1):  # add rank k to every subset so far
            counts[k:] = counts[k:] + counts[:-k].copy()
        return t, min(1.0, 2.0 * (np.cumsum(counts) / 2.0 ** n)[int(round(t))])
    _, ties = np.unique(r, return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24.0 - np.sum(ties ** 3 - ties) / 48.0
    z = (t - n * (n + 1) / 4.0) / np.sqrt(var) if var > 0 else 0.0
    return t, float(min(1.0, 2.0 * stats.norm.cdf(-abs(z))))


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit"])
def test_wilcoxon_equals_the_written_out_reference(zero_method):
    rng = np.random.default_rng(4)
    for it in range(300):
        n = int(rng.integers(1, 70))
        d = rng.normal(size=n) if it % 2 else np.round(rng.normal(size=n), 1)  # ties and zeros
        if d[d != 0].size == 0 and zero_method == "wilcox":
            continue
        res = wilcoxon_signed_rank(d, np.zeros(n), zero_method=zero_method)
        t, p = _reference_wilcoxon(d, zero_method)
        assert res.statistic == t
        assert res.p == pytest.approx(p, rel=1e-12, abs=1e-300), (it, n)
        assert f"{res.p:.4f}" == f"{p:.4f}" and (res.p < 0.05) == (p < 0.05)


def test_wilcoxon_hand_case():
    # differences 1, 2, -3, 4, 5 -> ranks 1..5, R+ = 12, R- = 3, T = 3; exact P(R+ <= 3) = 5/32
    a = np.array([1.0, 2.0, -3.0, 4.0, 5.0])
    res = wilcoxon_signed_rank(a, np.zeros(5), method="exact")
    assert res.statistic == 3 and res.p == pytest.approx(2 * 5 / 32)
    with pytest.raises(ValueError, match="ties"):
        wilcoxon_signed_rank(np.array([1.0, 1.0, 2.0]), np.zeros(3), method="exact")


def test_corrected_resampled_ttest_hand_case():
    # d = .1, .2, 0, .1 over J = 4 splits, n_test/n_train = 1 (2-fold CV):
    # mean .1, s^2 = .02/3, t = .1 / sqrt((1/4 + 1) * .02/3) = 1.0954451, 3 df
    a = np.array([0.3, 0.4, 0.2, 0.3])
    b = np.array([0.2, 0.2, 0.2, 0.2])
    res = corrected_resampled_ttest(a, b, 1.0)
    assert res.statistic == pytest.approx(0.1 / np.sqrt(1.25 * 0.02 / 3))
    assert res.statistic == pytest.approx(1.0954451150103321)
    assert res.df == 3 and res.p == pytest.approx(2 * stats.t.sf(1.0954451150103321, 3))
    # without the correction term it is the ordinary paired t-test
    plain = corrected_resampled_ttest(a, b, 0.0)
    ref = stats.ttest_rel(a, b)
    assert plain.statistic == pytest.approx(ref.statistic) and plain.p == pytest.approx(ref.pvalue)
    assert corrected_resampled_ttest(a, a, 1.0).p == 1.0


def test_dietterich_5x2cv_hand_case():
    diffs = np.array([[0.10, 0.00], [0.05, 0.05], [0.00, 0.10], [0.20, 0.10], [0.10, 0.10]])
    # pbar = .05,.05,.05,.15,.10; s_i^2 = .005, 0, .005, .005, 0 -> sum .015
    # t = p_1^(1) / sqrt(.015 / 5) = .1 / .0547723 = 1.8257419
    res = paired_5x2cv_ttest(diffs)
    assert res.statistic == pytest.approx(0.1 / np.sqrt(0.003)) and res.df == 5
    assert res.p == pytest.approx(2 * stats.t.sf(1.8257418583505538, 5))
    f = combined_5x2cv_ftest(diffs)                   # sum p^2 = .095; F = .095 / (2 * .015)
    assert f.statistic == pytest.approx(0.095 / 0.03) and f.p == pytest.approx(stats.f.sf(0.095 / 0.03, 10, 5))
    with pytest.raises(ValueError, match="5 repetitions x 2 folds"):
        paired_5x2cv_ttest(np.zeros((4, 2)))
