"""What the anytime classifiers share: the numeric view of the data, input checks, the
per-class Gaussian kernels and their bandwidths, budgets, and the kernel-density base class
that MC-Tree and the Bayes tree extend."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ._frontier import STRATEGIES, anytime_posteriors
from ._kernels import LOG_2PI, kde_class_log_scores
from ._model import ENGINE_KEYS
from .._base import RANDOM_STATE_CONSTRAINT, AllowNanTagsMixin, PredictFromProbaMixin, fit_class_codes

#: unit names accepted by ``predict_proba_anytime``
COUNT_UNITS = ("units", "gaussians", "kernels", "instances")
TIME_UNITS = ("seconds", "wall")


class NumericView(AllowNanTagsMixin, TransformerMixin, BaseEstimator):
    """The numeric attributes of a dataset, with missing values filled by the training mean.

    The anytime classifiers model continuous densities (Gaussians, Euclidean distances), as
    in every dataset of the MC-Tree paper (Table 1 lists numeric attributes only; the
    10-attribute Vowel is the Weka Vowel without its nominal ``Train or Test``, ``Speaker
    Number`` and ``Sex`` columns). This step is used inside those classifiers and as the first
    preprocessing step of the static baselines that are compared with them, so that all see
    the same attributes.

    Parameters
    ----------
    categorical_features : bool array or None
        Nominal columns (injected by the runner).
    nominal : {"drop", "code"}, default="drop"
        "drop" removes nominal columns; "code" keeps their integer codes as numbers. When every
        column is nominal, "drop" keeps the codes (a model needs at least one attribute).

    Attributes
    ----------
    columns_ : int array, the kept columns.
    fill_ : float array, the training mean of each kept column (0 when a column is all NaN).
    """

    _parameter_constraints: dict = {
        "categorical_features": ["array-like", None],
        "nominal": [StrOptions({"drop", "code"})],
    }

    def __init__(self, *, categorical_features=None, nominal="drop"):
        self.categorical_features = categorical_features
        self.nominal = nominal

    def fit(self, X, y=None):
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        d = X.shape[1]
        cat = np.zeros(d, dtype=bool) if self.categorical_features is None else \
            np.asarray(self.categorical_features, dtype=bool)
        if cat.shape != (d,):
            raise ValueError(f"categorical_features has {cat.size} entries but X has {d} columns")
        keep = np.flatnonzero(~cat) if self.nominal == "drop" else np.arange(d)
        if keep.size == 0:
            keep = np.arange(d)
        self.columns_ = keep
        with np.errstate(invalid="ignore"):
            col = X[:, keep]
            counts = np.sum(~np.isnan(col), axis=0)
            sums = np.nansum(col, axis=0)
        self.fill_ = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
        return self

    def transform(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        out = np.array(X[:, self.columns_], dtype=np.float64, copy=True)
        miss = np.isnan(out)
        if miss.any():
            out[miss] = np.take(self.fill_, np.nonzero(miss)[1])
        return out


def fit_standardised_view(estimator, X) -> np.ndarray:
    """Fit ``estimator.view_`` (the :class:`NumericView` of its ``categorical_features`` and
    ``nominal``) on ``X`` and standardise the view: sets ``center_`` (column means) and ``scale_``
    (standard deviations, 1 for a constant column); returns the standardised training data."""
    estimator.view_ = NumericView(categorical_features=estimator.categorical_features,
                                  nominal=estimator.nominal).fit(X)
    V = estimator.view_.transform(X)
    estimator.center_ = V.mean(axis=0)
    sd = V.std(axis=0)
    estimator.scale_ = np.where(sd > 0, sd, 1.0)
    return (V - estimator.center_) / estimator.scale_


def silverman_variances(Z: np.ndarray, y: np.ndarray, n_classes: int, scope: str, scale: float,
                        min_std: float) -> np.ndarray:
    """Kernel variances h^2 per class and attribute by Silverman's normal-reference rule for a
    d-variate Gaussian kernel (Silverman 1986 [20], eq. 4.14):
    h_j = (4 / ((d + 2) n))^(1/(d+4)) sigma_j, a data-independent rule as Sec. 3.1 asks.

    ``scope="class"``: sigma and n of each class (one KDE per class-conditional density);
    ``"global"``: of the whole training set. A class with fewer than two instances uses the
    global sigma; sigma is floored at ``min_std`` (in standardised units)."""
    n, d = Z.shape
    factor = (4.0 / ((d + 2.0) * 1.0)) ** (1.0 / (d + 4.0)) if d > 0 else 1.0
    g_std = Z.std(axis=0, ddof=1) if n > 1 else np.ones(d)
    g_std = np.where(g_std > 0, g_std, 1.0)
    out = np.empty((n_classes, d))
    for c in range(n_classes):  # loop over classes, not instances
        if scope == "global":
            std, m = g_std, n
        else:
            zc = Z[y == c]
            m = zc.shape[0]
            std = zc.std(axis=0, ddof=1) if m > 1 else g_std
        std = np.maximum(std, min_std)
        h = scale * factor * m ** (-1.0 / (d + 4.0)) * std
        out[c] = h * h
    return out


def check_budgets(budgets) -> np.ndarray:
    """Budgets as a float array (None or inf = unlimited); they must be non-negative."""
    arr = np.array([np.inf if b is None else b for b in np.atleast_1d(np.asarray(budgets, dtype=object))],
                   dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("budgets must be a non-empty list of numbers")
    if np.any(np.isnan(arr)) or np.any(arr < 0):
        raise ValueError(f"budgets must be non-negative numbers (or None/inf for unlimited), got {budgets!r}")
    return arr


def check_unit(unit: str) -> bool:
    """True for a wall-clock unit, False for a count unit; anything else is an error."""
    if unit in COUNT_UNITS:
        return False
    if unit in TIME_UNITS:
        return True
    raise ValueError(f"unknown budget unit {unit!r}; use one of {COUNT_UNITS + TIME_UNITS}")


class KernelDensityTreeBase(PredictFromProbaMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Shared machinery of MC-Tree and the Bayes tree: standardised numeric attributes,
    per-class Gaussian kernels with Silverman bandwidths, a flattened tree of entries, and
    the anytime query (:mod:`._frontier`).

    Subclasses set the parameters listed in ``_common_params`` and implement
    ``_build_tree(Z, y, rng) -> (tree dict, extra stats)``.
    """

    _strategy_name = "k-class"

    #: the parameters MC-Tree and the Bayes tree share (each adds its own)
    _parameter_constraints: dict = {
        "strategy": [StrOptions(set(STRATEGIES))],
        "k": [Interval(Integral, 1, None, closed="left")],
        "budget": [Interval(Real, 0, None, closed="left"), None],
        "entry_variance": [StrOptions({"kde", "cf"})],
        "bandwidth_scope": [StrOptions({"class", "global"})],
        "bandwidth_scale": [Interval(Real, 0, None, closed="neither")],
        "page_bytes": [Interval(Integral, 1, None, closed="left")],
        "value_bytes": [Interval(Integral, 1, None, closed="left")],
        "nominal": [StrOptions({"drop", "code"})],
        "categorical_features": ["array-like", None],
        "random_state": RANDOM_STATE_CONSTRAINT,
    }

    # ---------------------------------------------------------------- fit
    def _fit_common(self, X, y):
        X, codes = fit_class_codes(self, X, y)
        Z = fit_standardised_view(self, X)
        self.n_features_used_ = Z.shape[1]
        C = self.classes_.size
        self.class_count_ = np.bincount(codes, minlength=C)
        self.class_prior_ = self.class_count_ / codes.size
        self.kernel_var_ = silverman_variances(Z, codes, C, self.bandwidth_scope, float(self.bandwidth_scale),
                                               1e-3)
        self.kernel_log_norm_ = -0.5 * (Z.shape[1] * LOG_2PI + np.log(self.kernel_var_).sum(axis=1))
        return Z, codes

    def _check_query_params(self):
        """At query time: the query parameters may have been set after ``fit``."""
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r}; use one of {sorted(STRATEGIES)}")
        if not (isinstance(self.k, Integral) and self.k >= 1):
            raise ValueError(f"k must be a positive integer, got {self.k!r}")
        if not (isinstance(self.alpha, Real) and 0.0 <= self.alpha <= 1.0):
            raise ValueError(f"alpha must lie in [0, 1], got {self.alpha!r}")

    def _transform(self, X) -> np.ndarray:
        check_is_fitted(self, "model_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        V = self.view_.transform(X)
        return np.ascontiguousarray((V - self.center_) / self.scale_)

    # ---------------------------------------------------------------- prediction
    def predict_proba_anytime(self, X, budgets, unit="gaussians", return_cost=False):
        """Class probabilities after each budget of an anytime classification.

        Parameters
        ----------
        X : array (n, d)
        budgets : list of numbers (None or inf = unlimited, i.e. refine down to the kernels)
        unit : "gaussians" (Gaussians and kernels evaluated, the paper's implementation-invariant
            measure; aliases "units", "kernels") or "seconds" (wall-clock time per query)
        return_cost : also return the Gaussians evaluated and seconds elapsed per budget

        Returns
        -------
        proba : array (len(budgets), n, n_classes)
        (units, seconds) : arrays (len(budgets), n), with ``return_cost``
        """
        Z = self._transform(X)
        arr = check_budgets(budgets)
        use_clock = check_unit(unit)
        self._check_query_params()
        srt = np.argsort(arr, kind="stable")
        m = self.model_
        post, units, secs = anytime_posteriors(
            Z, arr[srt], use_clock, self.class_prior_.astype(np.float64), m["n_roots"], m["root_cost"],
            *[m[k] for k in ENGINE_KEYS], STRATEGIES[self.strategy],
            1 if self.strategy == "first-best" else int(self.k), float(self.alpha))
        inv = np.empty_like(srt)
        inv[srt] = np.arange(srt.size)
        post, units, secs = post[inv], units[inv], secs[inv]
        return (post, units, secs) if return_cost else post

    def predict_proba(self, X):
        """Posteriors of the full kernel-density Bayes classifier (every kernel; the end of
        every anytime run) when ``budget`` is None, else the anytime posteriors at ``budget``
        Gaussians."""
        if self.budget is not None:
            return self.predict_proba_anytime(X, [self.budget])[0]
        Z = self._transform(X)
        scores = self.kde_log_scores(Z)
        mx = scores.max(axis=1, keepdims=True)
        p = np.exp(scores - mx)
        return p / p.sum(axis=1, keepdims=True)

    def kde_log_scores(self, Z) -> np.ndarray:
        """log P(c) p(x|c) of the full kernel density (brute force over every kernel)."""
        return kde_class_log_scores(Z, self.kernels_, self.kernel_class_, 1.0 / self.kernel_var_,
                                    self.kernel_log_norm_, self.classes_.size, float(self.kernels_.shape[0]))
