"""Anytime behaviour of MC-Tree and the Bayes tree: a first answer from the tree beats
the class prior where the tree separates the classes, and on a constructed case every further
refinement keeps or raises the expected accuracy."""

import numpy as np
import pytest
from sklearn.datasets import load_iris

from algorithms.anytime import BayesTree, MCTree


def _acc(est, X, y, budgets):
    P, U, _ = est.predict_proba_anytime(X, budgets, return_cost=True)
    return (est.classes_[P.argmax(2)] == y).mean(1), P, U


@pytest.mark.parametrize("make", [
    lambda: MCTree(fanout=3, delta="inf", random_state=0),
    lambda: MCTree(fanout="n_classes", delta=1, random_state=0),
    lambda: MCTree(fanout=3, delta=2, random_state=0),
    lambda: BayesTree(random_state=0),
])
def test_first_answer_beats_the_prior_on_iris(make):
    """Iris: the classes are (nearly) separated by one Gaussian each, so the root entries alone
    (the smallest budget that reads them) must classify far above the prior (1/3)."""
    X, y = load_iris(return_X_y=True)
    tr = np.arange(len(y)) % 4 != 0
    est = make().fit(X[tr], y[tr])
    first = est.model_["root_cost"]
    acc, P, units = _acc(est, X[~tr], y[~tr], [first - 0.5, first])
    np.testing.assert_allclose(P[0], np.tile(est.class_prior_, (len(P[0]), 1)))  # before the root: the prior
    assert acc[0] <= 0.4
    assert np.all(units[1] == first)
    assert acc[1] >= 0.85, f"first answer {acc[1]:.3f} is not well above the prior"


def _six_clusters(seed=0, n=40, nq=15):
    """Two classes on six tight clusters along the diagonal, alternating: one Gaussian per class
    cannot separate them, the clusters can."""
    rng = np.random.default_rng(seed)
    centres = np.arange(6) * 10.0
    cls = np.arange(6) % 2
    X = np.concatenate([c + 0.5 * rng.standard_normal((n, 2)) for c in centres])
    Xq = np.concatenate([c + 0.5 * rng.standard_normal((nq, 2)) for c in centres])
    return X, np.repeat(cls, n), Xq, np.repeat(cls, nq)


@pytest.mark.parametrize("make", [
    lambda: MCTree(fanout=3, delta="inf", bandwidth_scale=0.3, random_state=0),
    lambda: MCTree(fanout=3, delta=1, bandwidth_scale=0.3, random_state=0),
    lambda: MCTree(fanout=3, delta=1, cost="class_gaussians", bandwidth_scale=0.3, random_state=0),
    lambda: BayesTree(page_bytes=256, bandwidth_scale=0.3, random_state=0),
])
def test_expected_accuracy_never_drops_on_nested_clusters(make):
    """Constructed case: every refinement replaces a broad Gaussian by tighter ones that fit the
    clusters, so the mean probability of the true class and the accuracy must not decrease from
    one budget to the next, and both must climb from the prior (0.5) to (nearly) 1."""
    X, y, Xq, yq = _six_clusters()
    est = make().fit(X, y)
    budgets = np.arange(0, 400, 1.0)
    acc, P, _ = _acc(est, Xq, yq, budgets)
    p_true = P[:, np.arange(len(yq)), yq].mean(1)
    assert p_true[0] == pytest.approx(0.5) and acc[0] == pytest.approx(0.5)
    # (dips of ~1e-8 occur where a kernel mixture replaces its moment-matched entry)
    assert np.all(np.diff(p_true) >= -1e-6), np.round(p_true[:30], 4)
    assert np.all(np.diff(acc) >= 0), acc[:30]
    assert acc[-1] == 1.0 and p_true[-1] > 0.99
    # and it gets there early: within 20 Gaussians the clusters are read
    assert acc[20] == 1.0
