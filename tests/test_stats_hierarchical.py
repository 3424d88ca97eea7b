"""The Bayesian hierarchical model of Corani et al. (2017) (bench.stats.hierarchical), against what is
known independently: on data simulated from the model with a known delta0 its posterior recovers it;
with many splits and datasets far apart (no shrinkage left) each dataset's posterior is the Bayesian
correlated t-test's (bench.stats.bayes.correlated_ttest, itself checked equal to baycomp's); swapping
the two learners mirrors the answer; the same seed gives the same draws; bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest

from bench.stats import bayes
from bench.stats.hierarchical import hierarchical, posterior


def _simulate(seed: int, q: int, n: int, rho: float, delta0: float, sigma0: float, nu: float = 8.0,
              within=(0.01, 0.04)):
    """Per-split values of two learners on q datasets: learner a's error is b's minus d, with d_i = delta_i
    + correlated noise (sigma_i^2 ((1 - rho) I + rho 1 1^T)), delta_i ~ t(nu, delta0, sigma0): a better
    when delta0 > 0 (lower error)."""
    rng = np.random.default_rng(seed)
    deltas = delta0 + sigma0 * rng.standard_t(nu, q)
    sig = rng.uniform(*within, q)
    L = np.linalg.cholesky((1 - rho) * np.eye(n) + rho * np.ones((n, n)))
    d = deltas[:, None] + sig[:, None] * (rng.standard_normal((q, n)) @ L.T)
    b = rng.uniform(0.1, 0.3, (q, 1)) + rng.normal(0, 0.005, (q, n))
    return b - d, b, deltas


@pytest.mark.parametrize("seed,delta0", [(1, 0.02), (2, 0.0), (3, -0.03)])
def test_recovers_a_known_delta0(seed, delta0):
    a, b, deltas = _simulate(seed, q=60, n=20, rho=0.1, delta0=delta0, sigma0=0.01)
    p = posterior(a, b, 0.1, seed=seed)
    # within 4 posterior standard deviations (a miss by chance: about 1 in 16000), and informative
    assert abs(p.delta0.mean() - delta0) < 4 * p.delta0.std() and p.delta0.std() < 0.003
    assert 0.005 < np.median(p.sigma0) < 0.02                                    # the spread of the delta_i: 0.01
    r = p.result(0.01)
    assert r.p_a + r.p_rope + r.p_b == pytest.approx(1.0) and sum(r.predictive) == pytest.approx(1.0)
    if delta0 >= 0.02:      # the next dataset: a better by more than the ROPE is the most probable outcome
        assert r.predictive[0] > max(r.predictive[1:]) and r.decision() in ("a", "")
    if delta0 <= -0.03:
        assert r.predictive[2] > max(r.predictive[:2]) and r.p_b > 0.9


def test_each_dataset_posterior_is_the_correlated_t_test_when_nothing_is_shrunk():
    """20 x 10-fold CV (rho = 0.1, 200 splits) on datasets whose means lie 0.036 apart, far beyond each
    dataset's uncertainty (about 0.001, so the pull towards delta0 is about 1% of it): the hierarchical prior is flat where the likelihood is, and every
    dataset's posterior of delta_i is the correlated t-test's Student t (checked at its own 10/50/90% quantiles)."""
    q, n, rho = 12, 200, 0.1
    a, b, _ = _simulate(7, q=q, n=n, rho=rho, delta0=0.0, sigma0=0.0, within=(0.002, 0.004))
    a = a - np.linspace(-0.2, 0.2, q)[:, None]
    p = posterior(a, b, rho, seed=3)
    for i in range(q):
        draws = p.delta[:, i]
        for level in (10, 50, 90):
            v = np.percentile(draws, level)
            # P(delta_i > v) by the correlated t-test: shift the difference by v (d = b - a > 0: a better)
            ref = bayes.correlated_ttest(a[i], b[i] - v, rho, rope=0.0).p_a
            assert ref == pytest.approx(1 - level / 100, abs=0.02), (i, level)


def test_swapping_the_learners_mirrors_the_answer():
    a, b, _ = _simulate(11, q=30, n=20, rho=0.1, delta0=0.008, sigma0=0.01)
    for rope in (0.005, 0.01):
        ab = hierarchical(a, b, 0.1, rope, seed=0)
        ba = hierarchical(b, a, 0.1, rope, seed=0)
        assert (ba.p_a, ba.p_rope, ba.p_b) == pytest.approx((ab.p_b, ab.p_rope, ab.p_a), abs=0.02)
        assert ba.predictive == pytest.approx(ab.predictive[::-1], abs=0.01)
    pa, pb = posterior(a, b, 0.1, seed=0), posterior(b, a, 0.1, seed=0)
    assert pb.delta0.mean() == pytest.approx(-pa.delta0.mean(), abs=0.2 * pa.delta0.std())
    # higher is better on negated values is the same comparison: the same draws
    hi = posterior(-a, -b, 0.1, lower_is_better=False, seed=0)
    assert np.array_equal(hi.delta0, pa.delta0) and np.array_equal(hi.delta, pa.delta)


def test_same_seed_same_draws_and_ragged_datasets():
    a, b, _ = _simulate(5, q=8, n=10, rho=0.2, delta0=0.01, sigma0=0.01)
    one, two = posterior(a, b, 0.2, seed=4), posterior(a, b, 0.2, seed=4)
    assert np.array_equal(one.delta0, two.delta0) and np.array_equal(one.nu, two.nu)
    assert not np.array_equal(one.delta0, posterior(a, b, 0.2, seed=5).delta0)
    # datasets with different numbers of splits and their own rho
    ra, rb = [a[0], a[1][:6], a[2]], [b[0], b[1][:6], b[2]]
    r = hierarchical(ra, rb, [0.2, 0.5, 0.2], 0.01)
    assert r.n_datasets == 3 and r.delta.shape[1] == 3 and np.isfinite(r.delta).all()


def test_a_dataset_without_spread_keeps_the_posterior_proper():
    a, b, _ = _simulate(6, q=10, n=10, rho=0.1, delta0=0.01, sigma0=0.01)
    a[3] = b[3]                                   # identical learners on dataset 3: every difference 0
    p = posterior(a, b, 0.1, seed=0)
    assert np.isfinite(p.delta).all() and np.isfinite(p.delta0).all()
    assert abs(np.median(p.delta[:, 3])) < 1e-3      # pinned near its observed difference, 0


@pytest.mark.parametrize("args,match", [
    (([[0.1, 0.2]], [[0.2, 0.1]], 0.1), "at least 2 datasets"),
    (([[0.1, 0.2], [0.1, 0.3]], [[0.2, 0.1]], 0.1), "same datasets"),
    (([[0.1, 0.2], [0.1, 0.3]], [[0.2, 0.1], [0.2]], 0.1), "dataset 1"),
    (([[0.1, 0.2], [0.1, np.nan]], [[0.2, 0.1], [0.2, 0.1]], 0.1), "every split"),
    (([[0.1, 0.2], [0.1, 0.3]], [[0.2, 0.1], [0.2, 0.1]], 1.0), r"rho = n_test / n_total must lie in \[0, 1\)"),
    (([[0.1, 0.1], [0.2, 0.2]], [[0.2, 0.2], [0.1, 0.1]], 0.1), "vary on no dataset"),
    (([[0.1, 0.2], [0.1, 0.3]], [[0.2, 0.1], [0.2, 0.1]], [0.1, 0.1, 0.1]), "one value for every dataset"),
])
def test_bad_input_is_refused_with_the_problem_named(args, match):
    with pytest.raises(ValueError, match=match):
        posterior(*args)
    with pytest.raises(ValueError, match="ROPE"):
        hierarchical([[0.1, 0.2], [0.1, 0.3]], [[0.2, 0.1], [0.2, 0.15]], 0.1, rope=-1)


def test_bench_compare_rows_are_the_model_on_the_paired_splits():
    """``bench compare``'s hierarchical rows: the model on each dataset's paired splits, rho = n_test / n_total
    from the records, one posterior read at every ROPE."""
    from bench.compare.analysis import analyse
    from tests.test_compare_beyond import _records

    a, b, _ = _simulate(9, q=10, n=10, rho=0.4, delta0=0.01, sigma0=0.01)
    c = analyse(_records({"base": b, "other": a}, 40, 60), ["base", "other"], "base", [0], ropes=[0.005, 0.02])
    h = c.hierarchical.set_index("rope")
    assert list(h.index) == [0.005, 0.02] and set(h["algorithm"]) == {"other"} and set(h["n"]) == {10}
    p = posterior(list(a), list(b), 0.4)
    for rope in (0.005, 0.02):
        r = p.result(rope)
        assert (h.loc[rope, "p_algorithm"], h.loc[rope, "p_rope"], h.loc[rope, "p_baseline"]) == (r.p_a, r.p_rope, r.p_b)
        assert h.loc[rope, "predictive_algorithm"] == r.predictive[0]
    assert h.loc[0.005, "delta0 (algorithm - baseline)"] == pytest.approx(-p.delta0.mean())
    assert h.loc[0.005, "delta0 (algorithm - baseline)"] < 0          # a's error is lower: simulated delta0 > 0
