"""Naive Bayes with discrete, Gaussian and kernel density estimates, on the count engine.

:class:`NaiveBayes` is the naive Bayes contender of the seed papers:

* **NB-Disc** (Aryal and Ting 2013's NB-Disc, Zaidi and Webb 2013's "NB"): every attribute nominal, after
  the MDL discretiser (a preprocess step); ``P(x_j | y)`` from the attribute-value x
  class counts of :mod:`algorithms._counts`, smoothed by Laplace (Weka's NaiveBayes)
  or m-estimation (Zaidi and Webb 2013: m = 1).
* **NB-Gaussian** (``numeric="gaussian"``): a numeric attribute gets a normal density
  per class from the count, mean and sum of squared deviations (Park and Fuernkranz 2014, Sect.
  4.3.2, "Normal density estimation": ``sigma = sqrt((sum x^2 - (sum x)^2 / t) / t)``,
  i.e. ``ddof=0``), merged across chunks with Chan et al.'s update so that
  ``partial_fit`` needs no second pass. A variance floor of ``var_smoothing`` times
  the largest attribute variance (scikit-learn's rule) keeps constant attributes
  finite. Weka's NaiveBayes instead rounds values to a precision grid and returns
  the probability of a grid cell: that is ``numeric="gaussian_weka"``.
* NB with **Weka's normal estimators** (``numeric="gaussian_weka"``, Weka 3.6's
  ``NaiveBayes`` without options, the "normal estimator" NB that Park and Fuernkranz 2014 ran in Weka):
  per numeric attribute a precision (mean gap between distinct training values), values
  rounded to that grid, per class the mean and standard deviation of the rounded values
  (floored at precision / 6) and the probability of the test value's grid cell,
  ``Phi(upper) - Phi(lower)``; every factor floored at 1e-75 and the product rescaled as
  Weka does (:mod:`algorithms._weka_normal`). ``partial_fit`` keeps the first chunk's
  precision (Weka's NaiveBayesUpdateable); ``fit`` is Weka's batch model.
* **NB-KDE** (``numeric="kde"``, Aryal and Ting 2013's NB-KDE = Weka's ``NaiveBayes -K``): a
  Gaussian kernel density per class, ``f(x) = 1 / (W h) sum_m w_m K((x - v_m) / h)``
  (Park and Fuernkranz 2014, Sect. 4.3.2) over the *unique values with their counts* ``(v_m, w_m)``
  ("maintain a list of all unique values of an attribute together with its number
  of occurrences", as Weka does). Bandwidth ``h``:

  - ``"weka"`` (Weka 3.6's KernelEstimator, read from its bytecode): the attribute's
    precision ``p`` = mean gap between its distinct training values (all classes;
    0.01 when it has one value; at least 1e-6); values rounded to multiples of ``p``
    (``precision_rounding=True``, Java's ``Math.rint``); per class
    ``h = max(range / sqrt(W), p / 6)`` with ``range`` = max - min of the class's
    rounded values and ``W`` their number (``h = p / 6`` when the range is 0);
  - ``"silverman"``: ``h = 0.9 min(s, IQR / 1.34) W^(-1/5)`` per class (weighted
    sample standard deviation ``s`` and interquartile range; ``s`` alone when the IQR
    is 0), floored at ``p / 6``.

  We evaluate the density itself (Weka returns the kernel mass of the grid cell
  ``[x - p/2, x + p/2]`` and stops summing kernels when the rest adds less than 1%,
  so its probabilities differ slightly). Sums run in log space outward from the
  nearest unique value and stop once the remaining kernels cannot add more than
  ``e^-40`` of the sum, so far-away test values never underflow to log 0.

Nominal attributes always use counts (``P = (#(x_j, y) + a) / (#(y, j observed) + b)``;
Laplace ``a = 1, b = k_j``; m-estimate ``a = m / k_j, b = m``); the class prior is
``(#y + a) / (N + b)`` with ``K = C`` outcomes. Missing values: ``missing="skip"``
(Weka) leaves them out of training counts and the test product; ``missing="value"``
makes a missing nominal value a value of its own (numeric missing values are always
skipped). Which columns are nominal comes from ``categorical_features`` (injected by
the runner); without it every column is numeric.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, Real, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _weka_normal as wn
from ._kde_kernels import insertion_point, kde_add, weka_cell_add
from ._counts import (CountTable, Smoothing, class_codes, encode, encode_classes, grow_table, grown_values,
                      validation_dtype, value_maps)
from ._nominal import nominal_columns_values
from ._base import (NOMINAL_COLUMNS_CONSTRAINTS, AllowNanTagsMixin, PredictFromLogJointMixin, ProbaFromLogJointMixin,
                    first_batch_classes)

LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
WEKA_DEFAULT_PRECISION = 0.01
WEKA_SMALL = 1e-6
NUMERIC_ESTIMATORS = ("gaussian", "gaussian_weka", "kde")


# --------------------------------------------------------------------------- kernels
@njit(cache=True)
def _nominal_log_joint(codes, offsets, log_prob, n_classes, out):
    """out[r, y] += sum_j log P(x_rj | y) over nominal columns (missing codes < 0 skipped)."""
    n, d = codes.shape
    for r in range(n):
        for j in range(d):
            v = codes[r, j]
            if v >= 0:
                base = offsets[j] + v * n_classes
                for y in range(n_classes):
                    out[r, y] += log_prob[base + y]


@njit(cache=True)
def _moments(X, y, n_classes, count, mean, m2):
    """Per (column, class): count, mean and sum of squared deviations of the non-NaN values (two passes)."""
    n, d = X.shape
    for j in range(d):
        for r in range(n):
            v = X[r, j]
            if v == v:
                count[j, y[r]] += 1.0
                mean[j, y[r]] += v
        for c in range(n_classes):
            if count[j, c] > 0:
                mean[j, c] /= count[j, c]
        for r in range(n):
            v = X[r, j]
            if v == v:
                dlt = v - mean[j, y[r]]
                m2[j, y[r]] += dlt * dlt


@njit(cache=True)
def _gaussian_log_joint(X, mean, var, out):
    n, d = X.shape
    C = mean.shape[1]
    for r in range(n):
        for j in range(d):
            v = X[r, j]
            if v == v:
                for y in range(C):
                    dlt = v - mean[j, y]
                    out[r, y] += -0.5 * dlt * dlt / var[j, y] - 0.5 * math.log(var[j, y]) - LOG_SQRT_2PI


@njit(cache=True)
def _kde_log_density(x, values, weights, lo, hi, h, total, log_wmax, out_col):
    """log f(x) for one (attribute, class): kernels at ``values[lo:hi]`` (sorted) with weights.

    Adds to ``out_col``; NaN test values are skipped. Sums in log space outward from the
    insertion point; a side stops when ``-z^2/2 + log(w_max)`` drops KDE_CUTOFF below the sum.
    """
    inv_h = 1.0 / h
    norm = math.log(total) + math.log(h) + LOG_SQRT_2PI
    for r in range(x.shape[0]):
        xv = x[r]
        if xv != xv:
            continue
        a = insertion_point(values, lo, hi, xv)
        top = -np.inf
        acc = 0.0
        i = a
        while i < hi:
            stop, top, acc = kde_add((values[i] - xv) * inv_h, weights[i], log_wmax, top, acc)
            if stop:
                break
            i += 1
        i = a - 1
        while i >= lo:
            stop, top, acc = kde_add((xv - values[i]) * inv_h, weights[i], log_wmax, top, acc)
            if stop:
                break
            i -= 1
        out_col[r] += top + math.log(acc) - norm


@njit(cache=True)
def _kde_weka_cell(x, values, weights, h, total, precision, out_col):
    """Weka 3.6 KernelEstimator.getProbability, added to ``out_col`` as a log.

    The kernel mass of the cell ``[x - p/2, x + p/2]``: from the insertion point upward,
    then downward, adding ``w_i (Phi((v_i - x + p/2) / h) - Phi((v_i - x - p/2) / h))``
    and stopping a side once ``current * (W - weight seen) < 0.01 * sum``; then
    ``max(1e-75, sum / W)`` as Weka's NaiveBayes floors each factor.
    """
    half = precision / 2.0
    for r in range(x.shape[0]):
        xv = x[r]
        if xv != xv:
            continue
        a = insertion_point(values, 0, values.shape[0], xv)
        acc = 0.0
        seen = 0.0
        for i in range(a, values.shape[0]):
            stop, acc, seen = weka_cell_add(values[i] - xv, weights[i], half, h, total, acc, seen)
            if stop:
                break
        for i in range(a - 1, -1, -1):
            stop, acc, seen = weka_cell_add(values[i] - xv, weights[i], half, h, total, acc, seen)
            if stop:
                break
        out_col[r] += math.log(max(1e-75, acc / total))


# --------------------------------------------------------------------------- helpers
def _chan_merge(n_a, mean_a, m2_a, n_b, mean_b, m2_b):
    """Combine (count, mean, M2) of two samples (Chan, Golub and LeVeque)."""
    n = n_a + n_b
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = mean_b - mean_a
        mean = np.where(n > 0, mean_a + delta * np.where(n > 0, n_b / np.where(n > 0, n, 1), 0), 0.0)
        m2 = m2_a + m2_b + delta * delta * np.where(n > 0, n_a * n_b / np.where(n > 0, n, 1), 0)
    return n, mean, m2


def _unique_value_counts(values, classes, weights=None):
    """Sorted unique (class, value) pairs with summed weights."""
    w = np.ones(values.size) if weights is None else weights
    order = np.lexsort((values, classes))
    v, c, w = values[order], classes[order], w[order]
    if v.size == 0:
        return v, c, w
    new = np.ones(v.size, dtype=bool)
    new[1:] = (v[1:] != v[:-1]) | (c[1:] != c[:-1])
    starts = np.flatnonzero(new)
    return v[starts], c[starts], np.add.reduceat(w, starts)


def weka_precision(unique_values: np.ndarray) -> float:
    """Weka NaiveBayes' numeric precision: the mean gap between distinct sorted values."""
    u = np.unique(unique_values)
    if u.size < 2:
        p = WEKA_DEFAULT_PRECISION
    else:
        p = float(np.cumsum(np.diff(u))[-1] / (u.size - 1))  # Weka's sequential deltaSum
    return max(p, WEKA_SMALL)


def _merge_classes(values, weights):
    """Unique values over all classes with summed counts (sorted)."""
    u, inv = np.unique(values, return_inverse=True)
    return u, np.bincount(inv, weights=weights, minlength=u.size)


def _weighted_quantile(v, w, q):
    cw = np.cumsum(w)
    return v[min(np.searchsorted(cw, q * cw[-1]), v.size - 1)]


# --------------------------------------------------------------------------- estimator
class NaiveBayes(PredictFromLogJointMixin, ProbaFromLogJointMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Naive Bayes over nominal (counts) and numeric (Gaussian or kernel density) attributes.

    Parameters
    ----------
    numeric : {"gaussian", "gaussian_weka", "kde"}, default="gaussian"
        Estimator for numeric columns (NB-Gaussian, Weka's NormalEstimator, or NB-KDE).
        Unused when every column is nominal (NB-Disc, after the MDL discretiser), except that
        "gaussian_weka" always combines the factors as Weka's NaiveBayes does (1e-75 floor).
    smoothing : {"laplace", "m_estimate"}, default="laplace"
        For the class prior and nominal attributes. Weka's NaiveBayes uses Laplace;
        Zaidi and Webb 2013's NB uses m-estimation with m = 1.
    m : float, default=1.0
    bandwidth : {"weka", "silverman"}, default="weka"
        KDE bandwidth rule (see the module docstring).
    precision_rounding : bool, default=True
        KDE: round training values to Weka's precision grid before building the
        unique-value list (as Weka's KernelEstimator does).
    kde_evaluation : {"density", "weka_cell"}, default="density"
        "density": the kernel density itself (Park and Fuernkranz 2014's f_K). "weka_cell": Weka 3.6's
        KernelEstimator.getProbability, the kernel mass of the precision cell around x
        with Weka's early stop (1% rule) and 1e-75 floor; with ``bandwidth="weka"`` and
        rounding this is Weka's ``NaiveBayes -K`` (Aryal and Ting 2013 and Park and Fuernkranz 2014 ran that).
    var_smoothing : float, default=1e-9
        Gaussian: added to every variance, times the largest attribute variance.
    missing : {"skip", "value"}, default="skip"
    categorical_features : bool array or None
        Nominal columns (injected by the runner); None = every column numeric.
    n_categories : int array or None
        Declared values per nominal column (injected); None = ``max code + 1`` of the first batch.

    Attributes
    ----------
    classes_, class_counts_ : labels and their training counts
    nominal_ : (d,) bool, columns handled by counts
    nominal_counts_ : CountTable of the nominal columns (order-1 attribute-value x class)
    n_values_ : values per nominal column as counted
    gauss_count_, gauss_mean_, gauss_m2_ : (d_num, C) Gaussian sufficient statistics
    kde_values_, kde_classes_, kde_weights_ : per numeric column, the raw unique (value, class, count) lists
    weka_precision_, weka_sums_ : "gaussian_weka": precision per numeric column and the (3, d_num, C)
        count, sum and sum of squares of the rounded values

    Notes
    -----
    A class with no observed value of a numeric attribute (all missing) gets the
    all-class estimate of that attribute (Gaussian: pooled mean and variance; KDE:
    the pooled unique-value list), so every class keeps the same set of factors.
    ``"gaussian_weka"`` keeps Weka's untouched NormalEstimator there instead: mean 0,
    standard deviation precision / 6.
    """

    def __init__(self, *, numeric="gaussian", smoothing="laplace", m=1.0, bandwidth="weka", precision_rounding=True,
                 kde_evaluation="density", var_smoothing=1e-9, missing="skip", categorical_features=None,
                 n_categories=None):
        self.numeric = numeric
        self.kde_evaluation = kde_evaluation
        self.smoothing = smoothing
        self.m = m
        self.bandwidth = bandwidth
        self.precision_rounding = precision_rounding
        self.var_smoothing = var_smoothing
        self.missing = missing
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    _parameter_constraints: dict = {
        "numeric": [StrOptions(set(NUMERIC_ESTIMATORS))],
        "smoothing": [StrOptions({"laplace", "m_estimate"})],
        "m": [Real],  # > 0 with smoothing="m_estimate" (checked in fit)
        "bandwidth": [StrOptions({"weka", "silverman"})],
        "precision_rounding": ["boolean"],
        "kde_evaluation": [StrOptions({"density", "weka_cell"})],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "missing": [StrOptions({"skip", "value"})],
        **NOMINAL_COLUMNS_CONSTRAINTS,
    }

    # ------------------------------------------------------------------ training
    def fit(self, X, y):
        """One pass over the training data."""
        for attr in ("classes_", "_model"):
            if hasattr(self, attr):
                delattr(self, attr)
        self._partial_fit(X, y, None, first=True)
        self._finalise()
        return self

    def partial_fit(self, X, y, classes=None):
        """Add a chunk; counts (and unique-value lists) equal those of one ``fit`` on all chunks;
        Gaussian moments agree to rounding."""
        self._partial_fit(X, y, classes, first=not hasattr(self, "classes_"))
        self._model = None
        return self

    def _partial_fit(self, X, y, classes, first):
        self._validate_params()
        Smoothing(self.smoothing, self.m)  # the m of the m-estimate must be > 0
        X, y = validate_data(self, X, y, reset=first, ensure_all_finite="allow-nan", dtype=validation_dtype(X))
        if y.dtype.kind not in "iub":   # integer labels are class labels; others may be continuous
            check_classification_targets(y)
        d = X.shape[1]
        if first:
            labels = first_batch_classes(self, y, classes)
            C = labels.size
            cat, declared = nominal_columns_values(self.categorical_features, self.n_categories, X)
            self.nominal_ = cat
            nom = np.flatnonzero(cat)
            self._declared_ = declared
            self.n_values_ = declared + (1 if self.missing == "value" else 0)
            self.nominal_counts_ = CountTable(np.arange(nom.size).reshape(-1, 1), self.n_values_, C,
                                              dtype=np.int64)
            self.class_counts_ = np.zeros(C, dtype=np.int64)
            dn = d - nom.size
            self.gauss_count_ = np.zeros((dn, C))
            self.gauss_mean_ = np.zeros((dn, C))
            self.gauss_m2_ = np.zeros((dn, C))
            self.kde_values_ = [np.empty(0) for _ in range(dn)]
            self.kde_classes_ = [np.empty(0, dtype=np.int64) for _ in range(dn)]
            self.kde_weights_ = [np.empty(0) for _ in range(dn)]
            self.weka_precision_ = np.full(dn, wn.WEKA_DEFAULT_PRECISION)
            self.weka_sums_ = np.zeros((3, dn, C))
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes {np.unique(classes)!r} differ from the first call's {self.classes_!r}")
        elif self.n_categories is None and self.nominal_.any():
            self._grow(X)
        C = self.classes_.size
        yc = class_codes(y, self.classes_)[1]
        self.class_counts_ += np.bincount(yc, minlength=C)
        nom = np.flatnonzero(self.nominal_)
        if nom.size:
            self.nominal_counts_.add_values(X, encode_classes(yc, C), self._declared_, self.missing,
                                            what="X (nominal columns)", columns=nom)
        num = np.flatnonzero(~self.nominal_)
        if num.size:
            if self.numeric == "gaussian_weka":
                self._weka_add(np.asarray(X[:, num], dtype=np.float64), yc, first)
                return
            Xn = np.asfortranarray(X[:, num], dtype=np.float64)
            if self.numeric == "gaussian":
                cnt = np.zeros((num.size, C))
                mean = np.zeros((num.size, C))
                m2 = np.zeros((num.size, C))
                _moments(Xn, yc.astype(np.int64), C, cnt, mean, m2)
                self.gauss_count_, self.gauss_mean_, self.gauss_m2_ = _chan_merge(
                    self.gauss_count_, self.gauss_mean_, self.gauss_m2_, cnt, mean, m2)
            else:
                for q in range(num.size):
                    col = Xn[:, q]
                    ok = ~np.isnan(col)
                    v = np.concatenate([self.kde_values_[q], col[ok]])
                    c = np.concatenate([self.kde_classes_[q], yc[ok].astype(np.int64)])
                    w = np.concatenate([self.kde_weights_[q], np.ones(int(ok.sum()))])
                    self.kde_values_[q], self.kde_classes_[q], self.kde_weights_[q] = _unique_value_counts(v, c, w)

    def _grow(self, X):
        """A later chunk with a nominal code above those seen so far (no ``n_categories``
        declared): the tables grow to it, as one ``fit`` on all the chunks would have sized them."""
        nom = np.flatnonzero(self.nominal_)
        grown = grown_values(self._declared_, X, nom)
        if grown is None:
            return
        slot = 1 if self.missing == "value" else 0
        maps = value_maps(self._declared_, grown, bool(slot))
        self._declared_ = grown
        self.n_values_ = grown + slot
        self.nominal_counts_ = grow_table(self.nominal_counts_, self.n_values_, maps)

    def _finalise(self):
        C = self.classes_.size
        sm = Smoothing(self.smoothing, self.m)
        a0, b0 = sm.terms(C)
        n = self.class_counts_.sum()
        log_prior = np.log(self.class_counts_ + a0) - np.log(n + b0)
        tb = self.nominal_counts_
        log_prob = np.zeros(tb.counts.size)
        for j in range(tb.attribute_sets.shape[0]):
            a, b = sm.terms(tb.n_values[j])
            blk = tb.block(j).astype(np.float64)              # (k_j, C)
            observed = blk.sum(axis=0, keepdims=True)         # #(y, j observed)
            log_prob[tb.offsets[j]:tb.offsets[j + 1]] = (np.log(blk + a) - np.log(observed + b)).ravel()
        model = {"log_prior": log_prior, "log_prob": log_prob}
        if self.numeric == "gaussian_weka":
            model.update(self._weka_model(sm))
        elif (~self.nominal_).any():
            if self.numeric == "gaussian":
                model.update(self._gaussian_model())
            else:
                model.update(self._kde_model())
        self._model = model

    def _gaussian_model(self):
        cnt, mean, m2 = self.gauss_count_, self.gauss_mean_, self.gauss_m2_
        with np.errstate(invalid="ignore", divide="ignore"):
            var = np.where(cnt > 0, m2 / np.where(cnt > 0, cnt, 1), 0.0)   # ddof=0 (Park and Fuernkranz 2014 Sect. 4.3.2)
        # pooled statistics: the variance floor, and the estimate of a class with no observed value
        pn = cnt.sum(axis=1)
        pmean = np.zeros(cnt.shape[0])
        pm2 = np.zeros(cnt.shape[0])
        pcnt = np.zeros(cnt.shape[0])
        for c in range(cnt.shape[1]):
            pcnt, pmean, pm2 = _chan_merge(pcnt, pmean, pm2, cnt[:, c], mean[:, c], m2[:, c])
        pvar = np.where(pn > 0, pm2 / np.maximum(pn, 1), 0.0)
        eps = self.var_smoothing * (pvar.max() if pvar.size else 0.0)
        empty = cnt <= 0
        mean = np.where(empty, pmean[:, None], mean)
        var = np.where(empty, pvar[:, None], var) + eps
        var = np.where(var > 0, var, np.finfo(float).tiny ** 0.5)  # a constant column in every class
        return {"mean": mean, "var": var}

    def _weka_add(self, Xn, yc, first):
        """Weka's NormalEstimator sums of a chunk of numeric columns.

        The precision of each column comes from the first chunk (``fit``: the whole training
        set), as in Weka, where it is fixed by the data given to ``buildClassifier`` and
        ``updateClassifier`` (NaiveBayesUpdateable) only adds values; the values are rounded to
        it and their count, sum and sum of squares added per class.
        """
        if first:
            self.weka_precision_ = wn.weka_precision(Xn)
        self.weka_sums_ += np.stack(wn.weka_normal_sums(wn.weka_round(Xn, self.weka_precision_), yc,
                                                        self.classes_.size))

    def _weka_model(self, sm):
        """Weka 3.6 NaiveBayes with normal estimators (see :mod:`algorithms._weka_normal`).

        The NormalEstimator's mean and std per (numeric column, class) from the sums; the
        nominal probabilities ``(#(v, y) + a) / (#(y, observed) + b)`` and the prior as plain
        probabilities, for Weka's running product.
        """
        C = self.classes_.size
        a0, b0 = sm.terms(C)
        prior = (self.class_counts_ + a0) / (self.class_counts_.sum() + b0)
        tb = self.nominal_counts_
        nom_prob = np.zeros(tb.counts.size)
        for j in range(tb.attribute_sets.shape[0]):
            a, b = sm.terms(tb.n_values[j])
            blk = tb.block(j).astype(np.float64)
            nom_prob[tb.offsets[j]:tb.offsets[j + 1]] = ((blk + a) / (blk.sum(axis=0, keepdims=True) + b)).ravel()
        n, s1, s2 = self.weka_sums_
        mean, std = wn.weka_normal_params(n, s1, s2, self.weka_precision_[:, None])
        return {"weka_prior": prior, "weka_nom_prob": nom_prob, "weka_precision": self.weka_precision_,
                "weka_mean": mean, "weka_std": std}

    def _weka_log_joint(self, X):
        """Weka's running product with its 1e-75 floor and rescaling, as log joint probabilities."""
        mdl = self._model
        d = X.shape[1]
        kind = np.where(self.nominal_, 1, 0).astype(np.int64)
        slot = np.zeros(d, dtype=np.int64)
        nom = np.flatnonzero(self.nominal_)
        num = np.flatnonzero(~self.nominal_)
        slot[nom] = np.arange(nom.size)
        slot[num] = np.arange(num.size)
        Xk = np.array(X, dtype=np.float64, order="C")
        if nom.size:
            codes = encode(X[:, nom], self._declared_, self.missing, what="X (nominal columns)")
            Xk[:, nom] = np.where(codes < 0, np.nan, codes)
        out = np.empty((X.shape[0], self.classes_.size))
        wn.weka_nb_product(Xk, kind, slot, self.nominal_counts_.offsets.astype(np.int64), mdl["weka_nom_prob"],
                           mdl["weka_mean"], mdl["weka_std"], mdl["weka_precision"], mdl["weka_prior"],
                           wn.WEKA_NB_FLOOR, out)
        return out

    def _kde_model(self):
        """Round to the precision grid (Weka), then per class: sorted unique values, counts, bandwidth."""
        C = self.classes_.size
        cols = []
        for v, c, w in zip(self.kde_values_, self.kde_classes_, self.kde_weights_):
            p = weka_precision(v)
            if self.precision_rounding and v.size:
                v = np.rint(v / p) * p
                v, c, w = _unique_value_counts(v, c, w)
            per_class = [self._kde_estimate(v[c == k], w[c == k], p) for k in range(C)]
            pooled = self._kde_estimate(*_merge_classes(v, w), p)
            # a class without any observed value of this attribute uses the all-class estimate
            cols.append((p, [pc if pc is not None else pooled for pc in per_class]))
        return {"kde": cols}

    def _kde_estimate(self, vk, wk, p):
        """(sorted values, counts, bandwidth, total count) of one class, or None without values."""
        if vk.size == 0:
            return None
        W = float(wk.sum())
        if self.bandwidth == "weka":
            rng = vk[-1] - vk[0]
            h = max(rng / math.sqrt(W), p / 6.0) if rng > 0 else p / 6.0
        else:
            mu = np.sum(wk * vk) / W
            sd = math.sqrt(max(np.sum(wk * (vk - mu) ** 2) / max(W - 1, 1), 0.0))
            iqr = _weighted_quantile(vk, wk, 0.75) - _weighted_quantile(vk, wk, 0.25)
            spread = min(sd, iqr / 1.34) if iqr > 0 else sd
            h = max(0.9 * spread * W ** -0.2, p / 6.0)
        return vk, wk, h, W

    # ------------------------------------------------------------------ prediction
    def predict_log_joint(self, X):
        """``log P(y) + sum_j log P(x_j | y)`` (densities for numeric columns), shape (n, C)."""
        check_is_fitted(self, "classes_")
        X = validate_data(self, X, reset=False, ensure_all_finite="allow-nan", dtype=validation_dtype(X))
        if getattr(self, "_model", None) is None:
            self._finalise()
        mdl = self._model
        if self.numeric == "gaussian_weka":
            return self._weka_log_joint(X)
        out = np.tile(mdl["log_prior"], (X.shape[0], 1))
        nom = np.flatnonzero(self.nominal_)
        if nom.size:
            codes = encode(X, self._declared_, self.missing, what="X (nominal columns)", columns=nom)
            _nominal_log_joint(codes, self.nominal_counts_.offsets, mdl["log_prob"], self.classes_.size, out)
        num = np.flatnonzero(~self.nominal_)
        if num.size:
            Xn = np.asfortranarray(X[:, num], dtype=np.float64)
            if self.numeric == "gaussian":
                _gaussian_log_joint(Xn, mdl["mean"], mdl["var"], out)
            else:
                for q, (p, per_class) in enumerate(mdl["kde"]):
                    col = np.ascontiguousarray(Xn[:, q])
                    for k, est in enumerate(per_class):
                        if est is None:  # no training value of this attribute at all
                            continue
                        vk, wk, h, W = est
                        res = np.zeros(col.size)
                        if self.kde_evaluation == "weka_cell":
                            _kde_weka_cell(col, vk, wk, h, W, p, res)
                        else:
                            _kde_log_density(col, vk, wk, 0, vk.size, h, W, math.log(wk.max()), res)
                        out[:, k] += res
        return out
