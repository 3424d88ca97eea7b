"""Nominal attributes as integer codes in a float matrix: the metadata the tree learners share.

J48 (:mod:`algorithms.c45`) and Weka's RandomForest (:mod:`algorithms.random_tree`) take ``X`` as
float64 with NaN for missing values, nominal columns holding codes 0..k-1, and two parameters that
the benchmark runner sets: ``categorical_features`` (a boolean mask or column indices) and
``n_categories`` (each column's declared number of values, 0 or less for numeric columns).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data


def normalised_rows(total: np.ndarray) -> np.ndarray:
    """Each row divided by its sum; a row with no mass (no training weight reached) is uniform."""
    s = total.sum(axis=1, keepdims=True)
    return np.divide(total, s, out=np.full_like(total, 1.0 / total.shape[1]), where=s > 0)


class NominalCodesMixin:
    """``nominal_`` and ``n_values_`` from ``categorical_features`` / ``n_categories``, the check
    that nominal columns hold valid codes, and NaN accepted as missing (scikit-learn's
    ``allow_nan`` tag). The estimator defines both parameters."""

    def _predict_input(self, X) -> np.ndarray:
        """``X`` at prediction: validated against the fit, codes checked, C-contiguous float64."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        self._check_codes(X, "predict")
        return np.ascontiguousarray(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

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
