"""Nominal attributes as integer codes in a float matrix: the metadata the estimators share.

Estimators take ``X`` as float64 with NaN for missing values, nominal columns holding codes
0..k-1, and two parameters that the caller (e.g. a benchmark runner) sets:
``categorical_features`` (a boolean mask or column indices) and ``n_categories`` (each column's
declared number of values, 0 or less for numeric columns).

- :class:`NominalCodesMixin`: J48 (:mod:`algorithms.c45`) and Weka's RandomForest
  (:mod:`algorithms.random_tree`);
- :func:`nominal_mask` and :func:`nominal_value_counts`: the discretisers
  (:mod:`algorithms.discretize`) and ESKDB;
- :func:`declared_values`: the learners that need every attribute nominal (AnDE, the KDB family);
- :func:`nominal_columns_values`: naive Bayes and ECOC-NB.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted, validate_data

from ._base import AllowNanTagsMixin
from ._counts import infer_n_values


def nominal_mask(categorical_features, n_features: int) -> np.ndarray:
    """``categorical_features`` (None, a boolean mask or integer column indices) as a boolean mask."""
    cf = categorical_features
    if cf is None:
        return np.zeros(n_features, dtype=bool)
    cf = np.asarray(cf)
    if cf.dtype == bool:
        if cf.shape != (n_features,):
            raise ValueError(f"categorical_features has {cf.size} entries but X has {n_features} columns")
        return cf.copy()
    if cf.size and not np.issubdtype(cf.dtype, np.integer):
        raise ValueError("categorical_features must be a boolean mask or integer column indices")
    mask = np.zeros(n_features, dtype=bool)
    if cf.size:
        if cf.min() < -n_features or cf.max() >= n_features:
            raise ValueError(f"categorical_features index out of range for {n_features} columns")
        mask[cf] = True
    return mask


def nominal_value_counts(X: np.ndarray, nominal: np.ndarray, n_categories) -> np.ndarray:
    """Number of values per nominal column (0 for the others): the declared ``n_categories`` where
    it is > 0, otherwise the largest training code + 1 (1 for a column with no known value).
    Nominal columns must hold codes 0, 1, 2, ... (or NaN); in sparse ``X`` an unstored entry is
    code 0."""
    d = X.shape[1]
    sparse = sp.issparse(X)
    declared = None
    if n_categories is not None:
        declared = np.asarray(n_categories, dtype=np.int64)
        if declared.shape != (d,):
            raise ValueError(f"n_categories has {declared.size} entries but X has {d} columns")
    out = np.zeros(d, dtype=np.int64)
    for j in np.flatnonzero(nominal):
        col = X[:, [j]].toarray().ravel() if sparse else X[:, j]
        seen = col[~np.isnan(col)]
        if seen.size and (np.any(seen < 0) or np.any(seen != np.floor(seen))):
            raise ValueError(f"nominal column {j} holds values that are not category codes 0, 1, 2, ...")
        from_data = int(seen.max()) + 1 if seen.size else 1
        out[j] = declared[j] if declared is not None and declared[j] > 0 else from_data
    return out


def nominal_columns_values(categorical_features, n_categories, X) -> tuple[np.ndarray, np.ndarray]:
    """(boolean mask of the nominal columns, number of values of each nominal column) for naive
    Bayes and ECOC-NB: the declared ``n_categories``, where every nominal column must declare > 0
    values, else the largest code + 1 (at least 1). ``X`` dense or sparse (an unstored entry is
    code 0)."""
    d = X.shape[1]
    cat = np.zeros(d, dtype=bool) if categorical_features is None else np.asarray(categorical_features, dtype=bool)
    if cat.shape != (d,):
        raise ValueError(f"categorical_features has {cat.size} entries for {d} columns")
    nom = np.flatnonzero(cat)
    if n_categories is not None:
        nc = np.asarray(n_categories, dtype=np.int64)
        if nc.shape != (d,):
            raise ValueError(f"n_categories has {nc.size} entries for {d} columns")
        n_values = nc[nom]
        bad = nom[n_values <= 0]
        if bad.size:
            raise ValueError(f"nominal columns {bad.tolist()} declare no values in n_categories")
    elif nom.size:
        part = X if nom.size == d else X[:, nom]
        n_values = np.maximum(infer_n_values(part.toarray() if sp.issparse(part) else part), 1)
    else:
        n_values = np.zeros(0, np.int64)
    return cat, n_values


def declared_values(est, X) -> np.ndarray:
    """Values per column for an estimator ``est`` that needs every attribute nominal (AnDE, the
    KDB family): ``est.n_categories`` when given, else the largest code + 1 (at least 1). A numeric
    column (not in ``est.categorical_features``, or declared with 0 values) is refused with the fix."""
    d = X.shape[1]
    cat = None if est.categorical_features is None else np.asarray(est.categorical_features, dtype=bool)
    if cat is not None and cat.shape != (d,):
        raise ValueError(f"categorical_features has {cat.size} entries for {d} columns")
    if est.n_categories is not None:
        nc = np.asarray(est.n_categories, dtype=np.int64)
        if nc.shape != (d,):
            raise ValueError(f"n_categories has {nc.size} entries for {d} columns")
        numeric = (nc <= 0) if cat is None else (~cat | (nc <= 0))
    else:
        nc = None
        numeric = np.zeros(d, dtype=bool) if cat is None else ~cat
    if numeric.any():
        cols = np.flatnonzero(numeric)
        raise ValueError(
            f"{type(est).__name__} needs nominal attributes, but columns {cols[:10].tolist()}"
            f"{' ...' if cols.size > 10 else ''} are numeric; discretise them first (e.g. the MDL "
            f"discretiser as a preprocess step: algorithms.discretize.MDLDiscretizer)")
    if nc is None:
        nc = np.maximum(infer_n_values(X), 1)
    return nc


def normalised_rows(total: np.ndarray) -> np.ndarray:
    """Each row divided by its sum; a row with no mass (no training weight reached) is uniform."""
    s = total.sum(axis=1, keepdims=True)
    return np.divide(total, s, out=np.full_like(total, 1.0 / total.shape[1]), where=s > 0)


class NominalCodesMixin(AllowNanTagsMixin):
    """``nominal_`` and ``n_values_`` from ``categorical_features`` / ``n_categories``, the check
    that nominal columns hold valid codes, and NaN accepted as missing (scikit-learn's
    ``allow_nan`` tag). The estimator defines both parameters."""

    def _predict_input(self, X) -> np.ndarray:
        """``X`` at prediction: validated against the fit, codes checked, C-contiguous float64."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        self._check_codes(X, "predict")
        return np.ascontiguousarray(X)

    def _nominal_mask(self, d: int) -> np.ndarray:
        cat = self.categorical_features
        if cat is None:
            return np.zeros(d, dtype=bool)
        cat = np.asarray(cat)
        if cat.dtype == bool:
            if cat.shape != (d,):
                raise ValueError(f"categorical_features has {cat.shape[0]} entries but X has {d} columns; "
                                 "give one boolean per column")
            return cat.copy()
        mask = np.zeros(d, dtype=bool)
        if cat.size and (cat.min() < 0 or cat.max() >= d):
            raise ValueError(f"categorical_features indices must be in [0, {d}); got {cat.tolist()}")
        mask[cat.astype(np.int64)] = True
        return mask

    def _set_nominal(self, X: np.ndarray) -> None:
        """Set ``nominal_`` and ``n_values_`` (declared counts, else the largest code seen + 1)."""
        d = X.shape[1]
        self.nominal_ = self._nominal_mask(d)
        n_values = np.zeros(d, dtype=np.int64)
        if self.n_categories is not None:
            declared = np.asarray(self.n_categories, dtype=np.int64)
            if declared.shape != (d,):
                raise ValueError(f"n_categories has {declared.shape} entries but X has {d} columns")
            n_values = np.where(self.nominal_, declared, 0)
        for j in np.flatnonzero(self.nominal_ & (n_values <= 0)):
            col = X[:, j]
            n_values[j] = int(np.nanmax(col)) + 1 if np.any(~np.isnan(col)) else 1
        self.n_values_ = n_values

    def _check_codes(self, X: np.ndarray, when: str) -> None:
        """Nominal columns must hold integer codes 0..k-1 (or NaN for missing)."""
        for j in np.flatnonzero(self.nominal_):
            col = X[:, j]
            known = col[~np.isnan(col)]
            if known.size == 0:
                continue
            bad = (known < 0) | (known != np.floor(known))
            if np.any(bad):
                raise ValueError(f"nominal column {j} must hold integer codes >= 0 (or NaN for missing); "
                                 f"got {known[bad][0]!r}")
            top = int(known.max())
            if top >= self.n_values_[j]:
                what = "an unseen category" if when == "predict" else "a code beyond its declared values"
                raise ValueError(f"nominal column {j} has {what}: code {top}, but the column has "
                                 f"{self.n_values_[j]} values (0..{self.n_values_[j] - 1}); declare them "
                                 "all in n_categories")
