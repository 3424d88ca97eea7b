"""Discriminative baselines run as the papers ran them: Random Forest (Weka's
RandomForest settings) and XGBoost (default parameters)."""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils._param_validation import Integral, Interval, Real, RealNotInt, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._base import RANDOM_STATE_CONSTRAINT, PredictFromProbaMixin, SparseAllowNanTagsMixin, bounded_seed


def weka_num_features(n_features: int) -> int:
    """Weka 3.6 RandomForest's default features per split: int(log2(d)) + 1, with d the
    number of attributes without the class (RandomForest.buildClassifier; the ESKDB
    paper writes it as log2(|A|) + 1)."""
    return int(math.log2(n_features)) + 1 if n_features > 0 else 1


class RandomForest(PredictFromProbaMixin, SparseAllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Random forest configured as Weka's ``RandomForest -I <n_estimators>``.

    Unpruned trees (grown to pure leaves, one instance per leaf allowed) on
    bootstrap samples, ``int(log2(d)) + 1`` candidate attributes per split,
    information gain (``criterion="entropy"``) as Weka's RandomTree uses. Built on
    scikit-learn's RandomForestClassifier.

    Differences from Weka, by design of the underlying library: nominal
    attributes are split as ordered codes (binary splits) rather than one branch
    per value; missing values go to the child that scikit-learn's splitter learns
    for them rather than being split fractionally across branches.

    Parameters
    ----------
    n_estimators : int, default=100
    max_features : "weka", int, float or str, default="weka"
        "weka" = int(log2(d)) + 1; anything else is passed to scikit-learn.
    criterion : str, default="entropy"
    n_jobs : int, default=1
        Threads for fitting (1 for timings comparable with single-threaded learners).
    random_state : int or None
    """

    def __init__(self, *, n_estimators=100, max_features="weka", criterion="entropy", n_jobs=1,
                 random_state=None):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.criterion = criterion
        self.n_jobs = n_jobs
        self.random_state = random_state

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_features": [StrOptions({"weka", "sqrt", "log2"}), Interval(Integral, 1, None, closed="left"),
                         Interval(RealNotInt, 0, 1, closed="right"), None],
        "criterion": [StrOptions({"gini", "entropy", "log_loss"})],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],  # scikit-learn's forest takes it
    }

    def fit(self, X, y):
        self._validate_params()
        X, y = validate_data(self, X, y, accept_sparse="csr", ensure_all_finite="allow-nan")
        check_classification_targets(y)
        mf = weka_num_features(X.shape[1]) if self.max_features == "weka" else self.max_features
        self.forest_ = RandomForestClassifier(
            n_estimators=self.n_estimators, criterion=self.criterion, max_features=mf,
            min_samples_leaf=1, min_samples_split=2, max_depth=None, bootstrap=True,
            n_jobs=self.n_jobs, random_state=self.random_state,
        ).fit(X, y)
        self.classes_ = self.forest_.classes_
        self.max_features_ = mf
        return self

    def predict_proba(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", ensure_all_finite="allow-nan", reset=False)
        return self.forest_.predict_proba(X)


class XGBoost(PredictFromProbaMixin, SparseAllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """XGBoost with its default parameters, as the ESKDB paper's XGBoost_default:
    100 rounds, maximum depth 6, learning rate 0.3, ``multi:softprob`` (binary
    problems use the equivalent ``binary:logistic``).

    Class labels are re-encoded to 0..k-1 inside ``fit`` (XGBoost requires
    contiguous labels; a training fold may lack a class). Missing values (NaN)
    use XGBoost's learned default directions. Nominal codes are treated as numbers.

    Parameters
    ----------
    n_estimators : int, default=100
    max_depth : int, default=6
    learning_rate : float, default=0.3
    tree_method : str, default="hist"
    n_jobs : int, default=1
    random_state : int or None
    """

    def __init__(self, *, n_estimators=100, max_depth=6, learning_rate=0.3, tree_method="hist", n_jobs=1,
                 random_state=None):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.tree_method = tree_method
        self.n_jobs = n_jobs
        self.random_state = random_state

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_depth": [Interval(Integral, 0, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="left")],
        "tree_method": [str],
        "n_jobs": [Integral, None],
        "random_state": RANDOM_STATE_CONSTRAINT,
    }

    def fit(self, X, y):
        from xgboost import XGBClassifier

        self._validate_params()

        X, y = validate_data(self, X, y, accept_sparse="csr", ensure_all_finite="allow-nan")
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"XGBoost needs at least 2 classes in the training data; got 1 class: {self.classes_[0]!r}")
        objective = "binary:logistic" if self.classes_.size == 2 else "multi:softprob"
        self.booster_ = XGBClassifier(
            n_estimators=self.n_estimators, max_depth=self.max_depth, learning_rate=self.learning_rate,
            tree_method=self.tree_method, n_jobs=self.n_jobs,
            random_state=bounded_seed(self.random_state, 63),  # xgboost's seed is a signed 64-bit int
            objective=objective, verbosity=0,
        ).fit(X, codes)
        return self

    def predict_proba(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", ensure_all_finite="allow-nan", reset=False)
        return self.booster_.predict_proba(X)
