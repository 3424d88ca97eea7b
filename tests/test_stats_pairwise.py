"""Win/draw/loss counts and their tests, against scipy and hand cases."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from bench import published
from bench.stats.pairwise import (WDL, in_subset, outcomes, sign_test, size_category, two_se_outcome, wdl,
                                  wdl_from_outcomes, wdl_matrix, wdl_two_se)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_sign_test_equals_scipy_binomtest(alternative):
    for n in range(1, 41):
        for w in range(0, n + 1):
            ours = sign_test(w, n - w, alternative)
            ref = binomtest(w, n, 0.5, alternative=alternative).pvalue
            assert ours == pytest.approx(ref, rel=1e-9, abs=1e-15), (w, n, alternative)


def _exact_tail(k: int, n: int, upper: bool) -> float:
    """P(X >= k) (``upper``) or P(X <= k), X ~ Binomial(n, 1/2), summed in rational arithmetic
    (bench's own sign test before it used scipy: the independent reference)."""
    from fractions import Fraction
    from math import comb

    ks = range(k, n + 1) if upper else range(0, k + 1)
    return float(Fraction(sum(comb(n, i) for i in ks), 2 ** n))


def test_sign_test_equals_the_exact_tail_sums_and_keeps_every_decision():
    """scipy's binomtest against exact rational tails: equal to 1e-13 (relative) up to n = 200, and
    at the precision and thresholds the reports use (4 decimals, 3 significant digits, alpha =
    0.01 / 0.05 / 0.1) exactly the same, so no committed p-value or significance changes."""
    for n in range(1, 201):
        for w in range(0, n + 1):
            up, lo = _exact_tail(w, n, True), _exact_tail(w, n, False)
            for alt, ref in (("greater", up), ("less", lo), ("two-sided", min(1.0, 2 * min(up, lo)))):
                p = sign_test(w, n - w, alt)
                assert p == pytest.approx(ref, rel=1e-13, abs=0), (w, n, alt)
                assert f"{p:.4f}" == f"{ref:.4f}" and f"{p:.3g}" == f"{ref:.3g}", (w, n, alt)
                assert all((p < a) == (ref < a) and (p <= a) == (ref <= a) for a in (0.01, 0.05, 0.1))


def test_sign_test_hand_values():
    # 9 wins, 1 loss: P(X >= 9 | 10) = 11/1024
    assert sign_test(9, 1, "greater") == pytest.approx(11 / 1024)
    assert sign_test(9, 1) == pytest.approx(22 / 1024)
    assert sign_test(0, 0) == 1.0


def test_outcomes_and_draws():
    a = np.array([0.1, 0.2, 0.3, 0.3, np.nan])
    b = np.array([0.2, 0.1, 0.3, 0.3 + 1e-17, 0.1])
    np.testing.assert_array_equal(outcomes(a, b)[:4], [1, -1, 0, 0])
    assert np.isnan(outcomes(a, b)[4])
    np.testing.assert_array_equal(outcomes(a, b, lower_is_better=False)[:4], [-1, 1, 0, 0])


def test_two_tailed_and_one_tailed_significance_at_the_boundaries():
    # 15 wins / 5 losses: two-sided p = 0.0414 < 0.05; 14/6: p = 0.115
    w = wdl_from_outcomes([1] * 15 + [-1] * 5 + [0] * 3, "sign2")
    assert (w.wins, w.draws, w.losses) == (15, 3, 5) and w.significant
    assert w.p == pytest.approx(binomtest(15, 20).pvalue)
    assert not wdl_from_outcomes([1] * 14 + [-1] * 6, "sign2").significant
    # one-tailed: 14/6 gives P(X >= 14 | 20) = 0.0577 > 0.05, 15/5 gives 0.0207
    assert not wdl_from_outcomes([1] * 14 + [-1] * 6, "sign1").significant
    one = wdl_from_outcomes([1] * 5 + [-1] * 15, "sign1")
    assert one.significant and one.p == pytest.approx(binomtest(5, 20, alternative="less").pvalue)
    assert wdl_from_outcomes([1] * 14 + [-1] * 6, "raw").significant is False
    assert str(w) == "15/3/5" and w.markdown() == "**15/3/5**"


def test_two_standard_error_test_hand_case():
    a = np.array([0.10, 0.12, 0.11, 0.13])
    b = np.array([0.20, 0.21, 0.22, 0.19])      # differences -0.10,-0.09,-0.11,-0.06
    d = a - b
    se = d.std(ddof=1) / 2.0
    assert abs(d.mean()) > 2 * se
    assert two_se_outcome(a, b) == 1              # a has the lower error: a wins
    assert two_se_outcome(b, a) == -1
    assert two_se_outcome(a, b, lower_is_better=False) == -1
    close = np.array([0.20, 0.19, 0.22, 0.20])   # differences 0, .02, 0, -.01: within 2 SE
    assert two_se_outcome(close, b) == 0
    # pooled: se = sqrt(var_a/4 + var_b/4)
    assert two_se_outcome(a, b, se="pooled") == 1
    rec = wdl_two_se([a, close, b], [b, b, a])
    assert (rec.wins, rec.draws, rec.losses) == (1, 1, 1) and rec.test == "two_se"


def test_wdl_matrix_lower_triangle():
    vals = pd.DataFrame({"A": [0.1, 0.2, 0.3], "B": [0.2, 0.2, 0.1], "C": [0.0, 0.1, 0.2]}, index=["d1", "d2", "d3"])
    m = wdl_matrix(vals, ["A", "B", "C"])
    assert list(m.index) == ["B", "C"] and list(m.columns) == ["A", "B"]
    assert str(m.loc["B", "A"]) == "1/1/1"          # B vs A: d3 win, d2 draw, d1 loss
    assert str(m.loc["C", "A"]) == "3/0/0" and str(m.loc["C", "B"]) == "2/0/1"
    assert pd.isna(m.loc["B", "B"])
    m2 = wdl_matrix(vals, ["A", "B", "Z"])
    assert m2.loc["Z", "A"] is None


def test_wdl_of_published_counts_reproduces_the_papers_text():
    # Zaidi and Webb 2013: "RF10 has lower bias ... significantly more often than the reverse relative to all
    # AnDE variants"
    t2 = published.wdl("ande_sr", 2)
    rf = t2[t2["row_algorithm"] == "RF10"]
    assert len(rf) == 9
    for r in rf.itertuples():
        assert sign_test(r.wins, r.losses) < 0.05
    # Zhang, Petitjean and Buntine 2020, Table 3: "ESKDB is significant better than all of the existing BNCs"
    # (one-tailed)
    t3 = published.wdl("eskdb", 3)
    assert all(sign_test(r.wins, r.losses, "greater") <= 0.05 for r in t3.itertuples())


def test_size_categories_follow_the_papers_counts():
    assert size_category(1000) == "small" and size_category(1001) == "medium"
    assert size_category(10000) == "medium" and size_category(10001) == "large"
    ds = published.datasets("ande_sr")
    ours = ds["rows"].map(size_category)
    assert (ours == ds["size_category"]).all()
    assert ours.value_counts().to_dict() == {"small": 40, "medium": 19, "large": 12}
    np.testing.assert_array_equal(in_subset([500, 5000, 50000], "medium"), [False, True, False])
    assert in_subset([1, 2], "all").all()
    with pytest.raises(ValueError):
        in_subset([1], "huge")


def test_wdl_refuses_two_se_without_splits():
    with pytest.raises(ValueError, match="split values"):
        wdl([1.0], [2.0], test="two_se")
    assert isinstance(wdl([1.0, 2.0], [2.0, 1.0]), WDL)
