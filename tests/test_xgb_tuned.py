"""XGBoost_tuned (algorithms/xgb_tuned.py): inner-CV grid search over rounds x depth."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.estimator_checks import check_estimator

from algorithms.baselines import XGBoost
from algorithms.xgb_tuned import XGBoostTuned, _fold_loss


def parity_data(n=600, seed=0, noise=0.0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 4)).astype(float)
    y = (X[:, 0].astype(int) ^ X[:, 1].astype(int) ^ X[:, 2].astype(int))
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    return X, y


def test_picks_the_depth_a_three_way_interaction_needs():
    """3-bit parity: trees of depth 1 add up to a model that cannot represent it, depth 3 can."""
    X, y = parity_data()
    m = XGBoostTuned(n_estimators_grid=(1, 30), max_depth_grid=(1, 3), cv=5, random_state=0).fit(X, y)
    assert m.best_params_ == {"n_estimators": 30, "max_depth": 3}
    assert m.cv_results_["depth1_rounds30"] > 0.6 > 0.1 > m.cv_results_["depth3_rounds30"]
    assert (m.predict(X) == y).mean() == 1.0


def test_picks_few_rounds_on_pure_noise():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 5))
    y = rng.integers(0, 3, 400)
    m = XGBoostTuned(n_estimators_grid=(1, 10, 100), max_depth_grid=(2, 6), cv=5, random_state=0).fit(X, y)
    assert m.best_params_["n_estimators"] == 1


@pytest.mark.parametrize("scoring", ["log_loss", "error", "rmse"])
def test_inner_cv_equals_separate_fits_per_grid_point(scoring):
    """Scoring r rounds on the first r trees of a longer booster (iteration_range) equals
    fitting a model with r rounds: compare with a brute-force grid search on the same folds."""
    X, y = parity_data(n=300, seed=2, noise=0.15)
    X = np.column_stack([X, np.random.default_rng(2).normal(size=300)])
    rounds, depths = (3, 8), (1, 2)
    m = XGBoostTuned(n_estimators_grid=rounds, max_depth_grid=depths, cv=4, scoring=scoring,
                     random_state=11).fit(X, y)
    folds = list(StratifiedKFold(4, shuffle=True, random_state=11).split(X, y))
    for d in depths:
        for r in rounds:
            total = 0.0
            for train, test in folds:
                proba = XGBoost(n_estimators=r, max_depth=d, random_state=11).fit(X[train], y[train]).predict_proba(
                    X[test])
                total += _fold_loss(scoring, proba, y[test])
            expected = np.sqrt(total / len(y)) if scoring == "rmse" else total / len(y)
            assert m.cv_results_[f"depth{d}_rounds{r}"] == pytest.approx(expected, rel=1e-6, abs=1e-9)
    best = min(m.cv_results_, key=m.cv_results_.get)
    assert best == f"depth{m.best_params_['max_depth']}_rounds{m.best_params_['n_estimators']}"


def test_deterministic_and_records_its_choice():
    X, y = parity_data(n=200, seed=3, noise=0.1)
    kw = dict(n_estimators_grid=(2, 5), max_depth_grid=(1, 3), cv=3, random_state=4)
    a = XGBoostTuned(**kw).fit(X, y)
    b = XGBoostTuned(**kw).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    assert a.diagnostics_["best_n_estimators"] == a.best_params_["n_estimators"]
    assert a.diagnostics_["best_max_depth"] == a.best_params_["max_depth"]
    assert a.diagnostics_["inner_folds"] == 3 and a.diagnostics_["scoring"] == "log_loss"
    assert set(a.diagnostics_["cv_loss"]) == {f"depth{d}_rounds{r}" for d in (1, 3) for r in (2, 5)}
    # the refit uses the chosen setting on all the training data
    assert a.model_.n_estimators == a.best_params_["n_estimators"]
    assert a.model_.max_depth == a.best_params_["max_depth"]


def test_string_labels_rare_classes_and_nan():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    X[::7, 1] = np.nan
    y = np.array(["a"] * 30 + ["b"] * 27 + ["c"] * 3)
    m = XGBoostTuned(n_estimators_grid=(2, 4), max_depth_grid=(2,), cv=10, random_state=0).fit(X, y)
    proba = m.predict_proba(X)
    assert proba.shape == (60, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
    assert set(m.predict(X)) <= {"a", "b", "c"}
    assert m.n_inner_folds_ == 10  # classes with fewer members than folds are absent from some folds


def test_bad_input():
    X, y = parity_data(n=50)
    with pytest.raises(ValueError, match="scoring"):
        XGBoostTuned(scoring="auc").fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        XGBoostTuned().fit(X, np.zeros(50, int))
    with pytest.raises(ValueError, match="max_depth_grid"):
        XGBoostTuned(max_depth_grid=()).fit(X, y)


def test_sklearn_estimator_checks():
    """scikit-learn's check_estimator, with a small grid to keep it quick."""
    check_estimator(XGBoostTuned(n_estimators_grid=(1, 2), max_depth_grid=(1, 2), cv=2, random_state=0))


def test_any_non_negative_integer_seed_is_taken():
    """The constraint accepts every integer >= 0: seeds past numpy's 32 bits (the inner folds) and
    xgboost's signed 64 bits are folded into them; smaller seeds are used as they are."""
    import numpy as np
    from sklearn.datasets import load_iris

    from algorithms._base import bounded_seed
    from algorithms.xgb_tuned import XGBoostTuned

    X, y = load_iris(return_X_y=True)
    small = XGBoostTuned(random_state=7, n_estimators_grid=(5, 10), max_depth_grid=(2,), cv=3)
    for seed in (2**32, 2**63, 2**64 + 5):
        est = XGBoostTuned(random_state=seed, n_estimators_grid=(5, 10), max_depth_grid=(2,), cv=3).fit(X, y)
        p = est.predict_proba(X)
        assert p.shape == (150, 3) and np.allclose(p.sum(axis=1), 1)
    assert bounded_seed(7, 32) == 7 and bounded_seed(None, 32) == 0 and bounded_seed(2**32 - 1, 32) == 2**32 - 1
    assert 0 <= bounded_seed(2**32, 32) < 2**32 and bounded_seed(2**32, 32) != bounded_seed(2**32 + 1, 32)
    assert 0 <= bounded_seed(2**70, 63) < 2**63
    again = XGBoostTuned(random_state=7, n_estimators_grid=(5, 10), max_depth_grid=(2,), cv=3)
    assert np.array_equal(small.fit(X, y).predict_proba(X), again.fit(X, y).predict_proba(X))
