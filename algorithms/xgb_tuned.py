"""XGBoost with its number of rounds and depth tuned by inner cross-validation:
the ESKDB paper's XGBoost_tuned (Zhang et al. 2020 Sect. 4.7 and Table 2)."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .baselines import XGBoost
from ._base import RANDOM_STATE_CONSTRAINT, PredictFromProbaMixin, SparseAllowNanTagsMixin, bounded_seed

SCORINGS = ("log_loss", "error", "rmse")


def _fold_loss(scoring: str, proba: np.ndarray, y_codes: np.ndarray) -> float:
    """Mean loss of class probabilities ``proba`` (n, C) against class indices ``y_codes``."""
    n = y_codes.shape[0]
    if scoring == "log_loss":
        return float(-np.log(np.clip(proba[np.arange(n), y_codes], 1e-15, 1.0)).sum())
    if scoring == "error":
        return float((np.argmax(proba, axis=1) != y_codes).sum())
    onehot = np.zeros_like(proba)
    onehot[np.arange(n), y_codes] = 1.0
    return float(((onehot - proba) ** 2).sum() / proba.shape[1])  # summed; RMSE taken over all folds


class XGBoostTuned(PredictFromProbaMixin, SparseAllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """XGBoost_tuned of the ESKDB paper: ``num_rounds`` in {10, 50, 100} x
    ``max_depth`` in {2, 4, 6, 8} chosen by stratified 10-fold cross-validation
    inside the training data, then refitted on all of it (``multi:softprob``;
    two-class problems use the equivalent ``binary:logistic``).

    The paper does not say what the inner cross-validation minimises. The
    default is the log-loss of the held-out probabilities: the default metric
    of XGBoost's ``multi:softprob`` (``mlogloss``) and a proper score, in line
    with the paper's focus on calibrated probabilities (RMSE). ``scoring="error"``
    and ``"rmse"`` (the paper's RMSE over all classes) are available. Ties go to
    fewer rounds, then to smaller depth.

    Each (fold, depth) trains one booster with the largest number of rounds and
    scores every smaller number of rounds on the same trees with
    ``iteration_range`` (a boosted model with r rounds is exactly the first r
    rounds of a longer one), so the grid costs one fit per depth and fold.

    Label encoding, missing values (NaN: XGBoost's learned default directions)
    and nominal attributes (codes treated as numbers) are those of
    :class:`algorithms.baselines.XGBoost`. A class missing from an inner
    training fold gets probability 0 there.

    Parameters
    ----------
    n_estimators_grid : sequence of int, default=(10, 50, 100)
    max_depth_grid : sequence of int, default=(2, 4, 6, 8)
    cv : int, default=10
        Inner folds (fewer when the largest class has fewer members; when every
        class has a single member no inner CV is possible and the smallest
        setting is used).
    scoring : {"log_loss", "error", "rmse"}, default="log_loss"
    learning_rate : float, default=0.3
        XGBoost's default eta, as XGBoost_default.
    tree_method : str, default="hist"
    n_jobs : int, default=1
    random_state : int or None
        Seeds the inner fold assignment and XGBoost.

    Attributes
    ----------
    classes_ : ndarray
    best_params_ : dict
        ``{"n_estimators": ..., "max_depth": ...}``.
    cv_results_ : dict
        Mean inner-CV loss per ``(max_depth, n_estimators)``.
    model_ : algorithms.baselines.XGBoost
        The refitted model.
    diagnostics_ : dict
        Chosen parameters and inner-CV losses, stored by the runner.
    """

    def __init__(self, *, n_estimators_grid=(10, 50, 100), max_depth_grid=(2, 4, 6, 8), cv=10, scoring="log_loss",
                 learning_rate=0.3, tree_method="hist", n_jobs=1, random_state=None):
        self.n_estimators_grid = n_estimators_grid
        self.max_depth_grid = max_depth_grid
        self.cv = cv
        self.scoring = scoring
        self.learning_rate = learning_rate
        self.tree_method = tree_method
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _base(self, n_estimators, max_depth):
        return XGBoost(n_estimators=n_estimators, max_depth=max_depth, learning_rate=self.learning_rate,
                       tree_method=self.tree_method, n_jobs=self.n_jobs, random_state=self.random_state)

    _parameter_constraints: dict = {
        "n_estimators_grid": ["array-like"],  # of positive ints (_check_params)
        "max_depth_grid": ["array-like"],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "scoring": [StrOptions(set(SCORINGS))],
        "learning_rate": [Interval(Real, 0, None, closed="left")],
        "tree_method": [str],
        "n_jobs": [Integral, None],
        "random_state": RANDOM_STATE_CONSTRAINT,
    }

    def _check_params(self):
        """The declared constraints, then the grids' contents; returns the sorted distinct grids."""
        self._validate_params()
        rounds = sorted({int(r) for r in self.n_estimators_grid})
        depths = sorted({int(d) for d in self.max_depth_grid})
        if not rounds or rounds[0] < 1:
            raise ValueError(f"n_estimators_grid must hold positive ints; got {self.n_estimators_grid!r}")
        if not depths or depths[0] < 1:
            raise ValueError(f"max_depth_grid must hold positive ints; got {self.max_depth_grid!r}")
        return rounds, depths

    def fit(self, X, y):
        rounds, depths = self._check_params()
        X, y = validate_data(self, X, y, accept_sparse="csr", ensure_all_finite="allow-nan")
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"XGBoostTuned needs at least 2 classes in the training data; got 1 class: "
                             f"{self.classes_[0]!r}")
        n_folds = int(min(self.cv, np.bincount(codes).max()))
        losses = {(d, r): 0.0 for d in depths for r in rounds}
        if len(rounds) * len(depths) > 1 and n_folds >= 2:
            folds = StratifiedKFold(n_splits=n_folds, shuffle=True,
                                    random_state=bounded_seed(self.random_state, 32))  # numpy's 32-bit seeds
            n_classes = self.classes_.size
            with warnings.catch_warnings():  # classes rarer than the folds are expected (documented above)
                warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
                fold_list = list(folds.split(np.zeros(codes.shape[0]), codes))
            for train, test in fold_list:
                present = np.unique(codes[train])
                for d in depths:
                    if present.size < 2:  # a one-class inner fold: that class gets probability 1
                        model = None
                    else:
                        model = self._base(rounds[-1], d).fit(X[train], codes[train])
                    for r in rounds:
                        proba = np.zeros((test.shape[0], n_classes))
                        if model is None:
                            proba[:, present[0]] = 1.0
                        else:  # columns of the class indices present in this inner training fold
                            proba[:, model.classes_] = model.booster_.predict_proba(X[test], iteration_range=(0, r))
                        losses[(d, r)] += _fold_loss(self.scoring, proba, codes[test])
            n = codes.shape[0]
            mean = {key: (np.sqrt(v / n) if self.scoring == "rmse" else v / n) for key, v in losses.items()}
        else:
            mean = {key: float("nan") for key in losses}
        # smallest loss; ties to fewer rounds, then smaller depth
        best_d, best_r = min(mean, key=lambda key: (np.nan_to_num(mean[key], nan=0.0), key[1], key[0]))
        self.best_params_ = {"n_estimators": best_r, "max_depth": best_d}
        self.cv_results_ = {f"depth{d}_rounds{r}": float(v) for (d, r), v in sorted(mean.items())}
        self.model_ = self._base(best_r, best_d).fit(X, codes)
        self.n_inner_folds_ = n_folds
        self.diagnostics_ = {"best_n_estimators": int(best_r), "best_max_depth": int(best_d),
                             "scoring": self.scoring, "inner_folds": n_folds, "cv_loss": self.cv_results_}
        return self

    def predict_proba(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", ensure_all_finite="allow-nan", reset=False)
        proba = np.zeros((X.shape[0], self.classes_.size))
        proba[:, self.model_.classes_] = self.model_.predict_proba(X)
        return proba
