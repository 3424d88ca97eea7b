"""Friedman, Nemenyi and the critical difference: Demsar's (2006) worked example and scipy."""

import numpy as np
import pytest
from scipy.stats import friedmanchisquare, rankdata

from bench.stats.ranks import (critical_difference, friedman, nemenyi_cliques, nemenyi_q, pairwise_nemenyi,
                               ranks)

# Demsar 2006, Table 6: ranks of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf (AUC) on 14 datasets
DEMSAR_RANKS = np.array([
    [4, 3, 2, 1], [1, 2, 3, 4], [4, 1, 2, 3], [4, 1, 3, 2], [4, 2, 3, 1], [1, 2.5, 4, 2.5], [3, 2, 4, 1],
    [2.5, 2.5, 4, 1], [4, 3, 2, 1], [2.5, 2.5, 2.5, 2.5], [4, 2.5, 1, 2.5], [3, 2, 4, 1], [4, 1, 2, 3],
    [3, 1, 4, 2]])


def test_demsar_worked_example():
    res = friedman(DEMSAR_RANKS, lower_is_better=True)      # ranks as scores: lower = better
    np.testing.assert_allclose(res.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    assert res.chi2 == pytest.approx(9.28, abs=0.01)           # Demsar: chi2_F = 9.28
    assert res.f == pytest.approx(3.69, abs=0.01)              # Demsar: F_F = 3.69
    assert res.df == (3, 39) and res.rejects(0.05)             # F(3, 39) critical value 2.85
    assert critical_difference(4, 14, 0.05) == pytest.approx(1.25, abs=0.005)   # Demsar: CD = 1.25
    assert critical_difference(4, 14, 0.10) == pytest.approx(1.12, abs=0.005)   # Demsar: CD = 1.12
    # at 0.05 no pair differs (Demsar: the post-hoc test is not powerful enough); all in one clique
    assert not pairwise_nemenyi(res.average_ranks, 14, 0.05).any()
    assert nemenyi_cliques(res.average_ranks, critical_difference(4, 14, 0.05)) == [(3, 1, 2, 0)]
    # at 0.10 C4.5 differs from C4.5+m and from C4.5+m+cf
    sig = pairwise_nemenyi(res.average_ranks, 14, 0.10)
    assert {(i, j) for i, j in zip(*np.nonzero(np.triu(sig)))} == {(0, 1), (0, 3)}


def test_nemenyi_q_matches_demsar_table_5a():
    q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
    for k, (a, b) in enumerate(zip(q05, q10), start=2):
        assert nemenyi_q(k, 0.05) == pytest.approx(a, abs=0.0015)
        assert nemenyi_q(k, 0.10) == pytest.approx(b, abs=0.0015)


def test_friedman_with_tie_correction_equals_scipy():
    rng = np.random.default_rng(0)
    for trial in range(20):
        n, k = rng.integers(3, 30), rng.integers(3, 8)
        v = rng.integers(0, 5, size=(n, k)).astype(float)     # many ties
        ours = friedman(v, tie_correction=True)
        ref = friedmanchisquare(*v.T)
        assert ours.chi2 == pytest.approx(ref.statistic, rel=1e-10)
        assert ours.p_chi2 == pytest.approx(ref.pvalue, rel=1e-8)


def test_ranks_direction_and_ties():
    v = np.array([[0.1, 0.2, 0.2], [0.3, 0.1, 0.2]])
    np.testing.assert_array_equal(ranks(v), [[1, 2.5, 2.5], [3, 1, 2]])
    np.testing.assert_array_equal(ranks(v, lower_is_better=False), [[3, 1.5, 1.5], [1, 3, 2]])
    np.testing.assert_array_equal(ranks(v)[1], rankdata(v[1]))
    with pytest.raises(ValueError, match="NaN"):
        ranks(np.array([[1.0, np.nan]]))


def test_cliques_of_separated_groups():
    # ranks 1, 1.2, 3, 3.1 with CD 0.5: two cliques
    assert nemenyi_cliques([1.0, 1.2, 3.0, 3.1], 0.5) == [(0, 1), (2, 3)]
    assert nemenyi_cliques([1.0, 2.0, 3.0], 0.5) == []
