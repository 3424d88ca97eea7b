"""BayesNet with K2 search (algorithms.bayesnet): a pure-Python K2 with the Bayesian Dirichlet score,
hand-computed estimates and estimator properties. Weka agreement is in tests/test_bnc_weka.py."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.special import gammaln

from algorithms.bayesnet import BayesNetK2


def data(n=300, d=5, k=3, C=2, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, C, n)
    X = np.empty((n, d))
    X[:, 0] = (y + (rng.random(n) < 0.2)) % k
    for j in range(1, d):
        X[:, j] = (X[:, j - 1] * (j % 2) + y + (rng.random(n) < 0.3) * rng.integers(0, k, n)) % k
    return X, y


def bd_score(Z, node, parents, arity, a=0.5):
    """Bayesian Dirichlet score with prior count a per cell, over observed configurations."""
    cfg = {}
    for row in Z:
        key = tuple(row[p] for p in parents)
        cfg.setdefault(key, np.zeros(arity[node]))[row[node]] += 1
    V = arity[node]
    return sum(np.sum(gammaln(a + c)) - gammaln(V * a + c.sum()) - V * gammaln(a) + gammaln(V * a)
               for c in cfg.values())


def reference_k2(X, y, max_parents, init_nb=False):
    d = X.shape[1]
    Z = np.column_stack([X.astype(int), y])
    arity = [int(X[:, j].max()) + 1 for j in range(d)] + [int(y.max()) + 1]
    order = [d] + list(range(d))
    parents = {q: ([d] if init_nb and q != d else []) for q in order}
    for pos in range(1, len(order)):
        node = order[pos]
        best = bd_score(Z, node, parents[node], arity)
        while len(parents[node]) < max_parents:
            cand = [(bd_score(Z, node, parents[node] + [q], arity), -i, q)
                    for i, q in enumerate(order[:pos]) if q not in parents[node]]
            if not cand:
                break
            sc, _, q = max(cand)
            if sc <= best + 1e-9 * abs(best):
                break
            best = sc
            parents[node].append(q)
    return [parents[q] for q in range(d + 1)]


@pytest.mark.parametrize("max_parents,init_nb", [(1, False), (2, False), (100, False), (2, True)])
def test_k2_equals_reference_search(max_parents, init_nb):
    X, y = data(seed=max_parents)
    est = BayesNetK2(max_parents=max_parents, init_as_naive_bayes=init_nb, missing="mode").fit(X, y)
    assert est.parent_sets_ == reference_k2(X, y, max_parents, init_nb)
    if init_nb:
        assert all(5 in est.parent_sets_[a] for a in range(5))


def test_simple_estimator_by_hand():
    """One attribute: K2 gives it the class as parent when that scores higher; then
    P(y | x) from (n + 0.5) / (N + 0.5 |X|) estimates."""
    X = np.array([[0], [0], [0], [1], [1], [1], [1], [0]], float)
    y = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    est = BayesNetK2().fit(X, y)
    assert est.parent_sets_ == [[1], []]
    py = np.array([3.5, 5.5]) / 9.0
    px0 = np.array([(3 + .5) / (3 + 1), (1 + .5) / (5 + 1)])
    p = py * px0
    np.testing.assert_allclose(est.predict_proba(np.array([[0.0]]))[0], p / p.sum(), rtol=1e-12)


def test_probabilities_determinism_and_missing():
    X, y = data(n=200, d=6, seed=3)
    X[::9, 2] = np.nan
    a = BayesNetK2().fit(X, y).predict_proba(X)
    b = BayesNetK2().fit(X, y).predict_proba(X)
    np.testing.assert_allclose(a.sum(1), 1, rtol=1e-12)
    assert np.array_equal(a, b)
    # missing="mode": a missing value acts as the column's most frequent training value
    est = BayesNetK2().fit(X, y)
    Xm = X.copy()
    Xm[::9, 2] = est.modes_[2]
    np.testing.assert_array_equal(est.predict_proba(X), est.predict_proba(Xm))


@pytest.mark.parametrize("score", ["entropy", "mdl", "aic"])
def test_other_scores_run(score):
    X, y = data(n=150, d=4, seed=4)
    est = BayesNetK2(structure_score=score, max_parents=2).fit(X, y)
    assert all(len(p) <= 2 for p in est.parent_sets_)
    if score == "entropy":   # the log-likelihood never decreases with a parent: as many as allowed
        assert [len(p) for p in est.parent_sets_] == [1, 2, 2, 2, 0]


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(BayesNetK2())
