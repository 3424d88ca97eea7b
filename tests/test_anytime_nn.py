"""Anytime nearest neighbour (Ueno et al. 2006): SimpleRank against a brute-force
computation, the anytime scan, the estimator contract."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from algorithms.anytime import AnytimeNN
from algorithms.anytime.anytime_nn import RERANK, simple_rank_order
from tests.helpers import noise_classes


def brute_simple_rank(Z, y, m, mode):
    """SimpleRank written out: leave-one-out 1-NN over the living objects (distance ties to the
    lower index); x scores +1 for every living object whose nearest neighbour it is and that
    shares its class, -2/(m-1) for one of another class; ties in score to the lower index."""
    n = len(y)
    alive = list(range(n))

    def scores():
        s = {i: 0.0 for i in alive}
        for j in alive:
            others = [i for i in alive if i != j]
            if not others:
                continue
            dist = [float(np.sum((Z[j] - Z[i]) ** 2)) for i in others]
            nn = others[int(np.argmin(dist))]
            s[nn] += 1.0 if y[nn] == y[j] else -2.0 / (m - 1)
        return s

    if mode == "none":
        s = scores()
        return sorted(range(n), key=lambda i: (-s[i], i)), s
    order = []
    first = scores()
    while alive:
        s = scores()
        if mode == "forward":
            pick = min(alive, key=lambda i: (-s[i], i))
            order.append(pick)
        else:
            pick = min(alive, key=lambda i: (s[i], -i))
            order.insert(0, pick)
        alive.remove(pick)
    return order, first


@pytest.mark.parametrize("mode", ["none", "forward", "backward"])
@pytest.mark.parametrize("seed,m", [(0, 2), (1, 3), (2, 5)])
def test_simple_rank_matches_bruteforce(mode, seed, m):
    rng = np.random.default_rng(seed)
    n = 36
    y = rng.integers(0, m, size=n)
    Z = rng.normal(size=(n, 2)) + y[:, None] * 0.7
    Z[:4] = np.round(Z[:4])  # some exact ties
    Z[5] = Z[6]
    order, score = simple_rank_order(Z, y.astype(np.int64), m, np.arange(n, dtype=np.float64), RERANK[mode])
    ref_order, ref_score = brute_simple_rank(Z, y, m, mode)
    np.testing.assert_allclose(score, [ref_score[i] for i in range(n)])
    np.testing.assert_array_equal(order, ref_order)


def test_hand_computed_scores():
    # 1-d: objects at 0, 1, 3, 10 with classes a, a, b, b (m = 2, penalty -2)
    Z = np.array([[0.0], [1.0], [3.0], [10.0]])
    y = np.array([0, 0, 1, 1])
    _, score = simple_rank_order(Z, y, 2, np.arange(4.0), 0)
    # nn(0)=1 (same class: +1 to object 1), nn(1)=0 (+1 to 0), nn(3)=1 (other class: -2 to 1),
    # nn(10)=3 (+1 to 3)
    np.testing.assert_allclose(score, [1.0, -1.0, 1.0, 0.0])


def test_anytime_scan_is_1nn_over_the_ranked_prefix():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=120) > 0).astype(int)
    est = AnytimeNN(random_state=0).fit(X[:80], y[:80])
    budgets = [0, 1, 3, 10, 40, 80, None]
    P, cmp_at, _ = est.predict_proba_anytime(X[80:], budgets, return_cost=True)
    Z = (X[80:] - est.center_) / est.scale_
    ranked = (X[:80][est.order_] - est.center_) / est.scale_
    for i, b in enumerate(budgets):
        if b == 0:
            np.testing.assert_allclose(P[i], np.tile(est.class_prior_, (40, 1)))
            continue
        nb = 80 if b is None else b
        d = ((Z[:, None, :] - ranked[None, :nb, :]) ** 2).sum(-1)
        expect = y[:80][est.order_][np.argmin(d, axis=1)]
        np.testing.assert_array_equal(P[i].argmax(1), expect)
        np.testing.assert_array_equal(cmp_at[i], nb)
    np.testing.assert_allclose(P.sum(axis=2), 1.0)
    full = KNeighborsClassifier(1, algorithm="brute").fit((X[:80] - est.center_) / est.scale_, y[:80]).predict(Z)
    np.testing.assert_array_equal(est.predict(X[80:]), full)


def test_determinism_and_time_budgets():
    X, y = noise_classes(4, 100, 2)
    a = AnytimeNN(random_state=5).fit(X, y)
    b = AnytimeNN(random_state=5).fit(X, y)
    np.testing.assert_array_equal(a.order_, b.order_)
    P = a.predict_proba_anytime(X[:10], [0.0, 1e6], unit="seconds")
    np.testing.assert_allclose(P[0], np.tile(a.class_prior_, (10, 1)))
    np.testing.assert_array_equal(P[1].argmax(1), a.predict(X[:10]))


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(AnytimeNN(random_state=0))
