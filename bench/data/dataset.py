"""The Dataset contract shared by every part of bench (see docs/DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp


class DataError(Exception):
    """A dataset cannot be loaded or is not valid; the message says what to do."""


@dataclass
class Dataset:
    """A labelled classification dataset.

    Attributes
    ----------
    name : str
        Registry name (``conf/data/<name>.yaml``).
    X : ndarray of shape (n, d), float64, or scipy.sparse CSR matrix
        Feature values. Missing values are NaN. Nominal attributes hold their
        category codes ``0 .. len(categories[j]) - 1`` as floats. Sparse sources
        (text data in sparse ARFF) give a CSR matrix whose absent entries are 0.
    y : ndarray of shape (n,), int64
        Class codes ``0 .. len(classes) - 1``.
    classes : list of str
        Class label of each code, as declared by the source.
    feature_names : list of str
    categorical : ndarray of shape (d,), bool
        True where the attribute is nominal.
    categories : list
        For nominal attribute j the list of its category labels (the value list
        declared by the file, or the sorted distinct values for CSV); None for
        numeric attributes.
    meta : dict
        Provenance: ``source`` (file path, ``openml:<id>``, ``sklearn:<name>`` or
        ``synthetic:<generator>``), ``sha256`` of the loaded bytes (or of the
        generated arrays), ``openml_id``, and ``notes``.
    """

    name: str
    X: Any
    y: np.ndarray
    classes: list
    feature_names: list
    categorical: np.ndarray
    categories: list = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.y = np.asarray(self.y)
        self.categorical = np.asarray(self.categorical, dtype=bool)
        if not self.categories:
            self.categories = [None] * self.n_features
        self.validate()

    # ------------------------------------------------------------------ shape
    @property
    def n_instances(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def is_sparse(self) -> bool:
        return sp.issparse(self.X)

    @property
    def n_categories(self) -> np.ndarray:
        """Declared number of values per attribute (0 for numeric ones)."""
        return np.array([len(c) if c is not None else 0 for c in self.categories], dtype=np.int64)

    def class_counts(self) -> np.ndarray:
        return np.bincount(self.y, minlength=self.n_classes)

    def missing_fraction(self) -> float:
        if self.is_sparse:
            data = self.X.data
            return float(np.isnan(data).sum()) / max(1, self.n_instances * self.n_features)
        return float(np.isnan(self.X).mean()) if self.X.size else 0.0

    # ------------------------------------------------------------- contract
    def validate(self) -> None:
        """Check the contract; raise DataError naming the problem."""
        n = self.X.shape[0]
        if self.X.ndim != 2:
            raise DataError(f"dataset {self.name!r}: X must be 2-D, got shape {self.X.shape}")
        if self.y.shape != (n,):
            raise DataError(
                f"dataset {self.name!r}: y has shape {self.y.shape}, expected ({n},) to match X"
            )
        if self.y.dtype.kind == "f":
            bad = np.flatnonzero(np.isnan(self.y))
            if bad.size:
                raise DataError(
                    f"dataset {self.name!r}: the class label is missing (NaN) in {bad.size} rows "
                    f"(first rows: {bad[:5].tolist()}); set drop_missing_target: true in its "
                    f"conf/data yaml to drop them"
                )
            self.y = self.y.astype(np.int64)
        if self.y.dtype.kind not in "iu":
            raise DataError(f"dataset {self.name!r}: y must hold integer class codes, got {self.y.dtype}")
        self.y = self.y.astype(np.int64, copy=False)
        if n and (self.y.min() < 0 or self.y.max() >= len(self.classes)):
            raise DataError(
                f"dataset {self.name!r}: class codes must lie in 0..{len(self.classes) - 1}"
            )
        if self.categorical.shape != (self.X.shape[1],):
            raise DataError(
                f"dataset {self.name!r}: categorical mask has shape {self.categorical.shape}, "
                f"expected ({self.X.shape[1]},)"
            )
        if len(self.feature_names) != self.X.shape[1]:
            raise DataError(
                f"dataset {self.name!r}: {len(self.feature_names)} feature names for "
                f"{self.X.shape[1]} columns"
            )
        if len(self.categories) != self.X.shape[1]:
            raise DataError(f"dataset {self.name!r}: categories list does not match the columns")
        if not self.is_sparse and self.X.dtype != np.float64:
            self.X = self.X.astype(np.float64)

    def summary(self) -> dict:
        return {
            "name": self.name,
            "rows": self.n_instances,
            "features": self.n_features,
            "nominal": int(self.categorical.sum()),
            "classes": self.n_classes,
            "sparse": self.is_sparse,
            "source": self.meta.get("source"),
            "sha256": self.meta.get("sha256"),
        }

    def subset(self, rows=None, columns=None) -> "Dataset":
        """A new Dataset with the given rows and/or columns (indices or names)."""
        X, cat, names, cats = self.X, self.categorical, list(self.feature_names), list(self.categories)
        y = self.y
        if columns is not None:
            idx = [self.feature_names.index(c) if isinstance(c, str) else int(c) for c in columns]
            X = X[:, idx]
            cat = cat[idx]
            names = [names[i] for i in idx]
            cats = [cats[i] for i in idx]
        if rows is not None:
            X = X[rows]
            y = y[rows]
        return Dataset(self.name, X, y, list(self.classes), names, cat, cats, dict(self.meta))
