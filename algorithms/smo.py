"""Support vector classifier trained by sequential minimal optimisation, as Weka 3.6's
``weka.classifiers.functions.SMO`` with its defaults (linear kernel).

The MC-Tree paper (Kranen et al. 2010) compares its anytime classifiers with "the SVM
implementation from Weka", with no parameters stated: Weka's ``SMO`` with its defaults. This module
follows that class step for step, so that the paper's SVM line can be rerun on our folds; the
Numba kernels are in :mod:`algorithms._smo_kernels`.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions

from . import _smo_kernels as K
from ._base import NOMINAL_COLUMNS_CONSTRAINTS, NotApplicableError, PredictFromProbaMixin, fit_class_codes
from ._nominal import NominalCodesMixin


class WekaSMO(PredictFromProbaMixin, NominalCodesMixin, ClassifierMixin, BaseEstimator):
    """Linear support vector classifier as Weka 3.6's ``SMO`` with its defaults (``-C 1.0 -L 0.001
    -P 1.0E-12 -N 0 -V -1 -W 1 -K "PolyKernel -C 250007 -E 1.0"``).

    Data, as ``SMO.buildClassifier`` prepares it, each step fitted on the training rows:

    1. ``ReplaceMissingValues``: a missing numeric value becomes the column's mean over its known
       training values (summed in row order; 0 when none is known), a missing nominal value the
       most frequent declared value (the first on ties);
    2. ``NominalToBinary`` (only when some attribute is nominal): a nominal attribute with at most
       two declared values becomes one numeric column holding its code, one with k > 2 values
       becomes k 0/1 indicator columns, in place;
    3. ``Normalize`` (``filter_type="normalize"``, Weka's default ``-N 0``): each column mapped to
       (x - min) / (max - min) with the training minimum and maximum, 0 for a column constant in
       training; test values outside the training range fall outside [0, 1].
       ``filter_type="none"`` is Weka's ``-N 2`` (Weka's ``-N 1``, standardisation, is not provided).

    Training, pairwise (``SMO.buildClassifier``): for every pair of classes i < j (in the order of
    ``classes_``), the rows of class i then those of class j (each in training order) are shuffled
    by ``Instances.randomize`` with one ``java.util.Random(seed)`` shared by all pairs in turn,
    and a binary machine is trained on them with class i as -1 and j as +1
    (``BinarySMO.buildClassifier``): Platt's SMO with the improvements of Keerthi et al. (2001):
    the thresholds b_up / b_low and their rows i_up / i_low, an error cache over the unbound
    rows, passes over all rows alternating with "modification 1" passes over the unbound rows,
    stopped when b_up > b_low - 2 ``tol``; Platt's ``takeStep`` with ``epsilon`` as the round-off
    margin; the linear kernel's weight vector updated at each step. The bias is
    b = (b_low + b_up) / 2 and a machine's output is w.x - b.

    Prediction (``SMO.distributionForInstance`` without ``-M``): each machine votes for class j
    when its output is > 0, else for class i; ``predict_proba`` is the vote counts divided by
    their sum (Weka's distribution: coarse, not calibrated probabilities), and ``predict`` the
    class with most votes (the first in ``classes_`` on ties, as Weka's ``Utils.maxIndex``).
    Weka's ``-M`` (logistic models on the outputs) is not provided.

    The arithmetic follows Weka's expression by expression (sums in attribute order, no fused
    multiply-add), so on the same rows in the same order the machines are Weka's to the last bit
    in the cases checked (tests/test_smo.py; the agreement figures are in its docstrings).
    Weka's header declares every class of the data set: a class absent from the training rows
    gets no machine here, where Weka's machines for its pairs vote for the other class (the same
    ``predict``, slightly different vote shares) and its empty pairs take no random draws
    (the shuffles of the later pairs then differ from Weka's).

    Parameters
    ----------
    C : float, default=1.0
        Complexity constant (Weka ``-C``).
    tol : float, default=1e-3
        Tolerance of the optimality check (Weka ``-L``).
    epsilon : float, default=1e-12
        Round-off margin (Weka ``-P``).
    filter_type : {"normalize", "none"}, default="normalize"
        Weka ``-N 0`` or ``-N 2``.
    nominal : {"binary", "drop"}, default="binary"
        "binary" is Weka's ``NominalToBinary`` above. "drop" leaves the nominal columns out and
        learns from the numeric ones only, as the anytime classifiers of the MC-Tree paper see a
        data set (its Vowel has 10 numeric attributes; ``algorithms.anytime.NumericView``); a
        data set with no numeric column is then not applicable.
    seed : int, default=1
        Seed of the ``java.util.Random`` that shuffles each pair's rows (Weka ``-W``). Weka fixes
        it at 1 whatever the run; so does this estimator (it is not the run's ``random_state``).
    categorical_features : bool mask or column indices, default=None
        Nominal columns (codes 0..k-1); the rest are numeric.
    n_categories : array of int, default=None
        Declared number of values of each column (0 for numeric); a nominal column without it
        has its largest training code + 1.

    Attributes
    ----------
    classes_ : array of the class labels.
    coef_ : array (n_pairs, n_columns), the weight vector of each pairwise machine over the
        transformed columns.
    bias_ : array (n_pairs,), each machine's threshold b (Weka's ``bias()``); intercept_ = -bias_.
    columns_ : int array, the input columns used (all, or the numeric ones with ``nominal="drop"``).
    pairs_ : int array (n_pairs, 2), the class indices (i, j) of each machine (j votes on > 0).
    diagnostics_ : dict with the number of machines, SMO steps and support vectors summed over
        the machines, and the number of transformed columns.
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "epsilon": [Interval(Real, 0, None, closed="neither")],
        "filter_type": [StrOptions({"normalize", "none"})],
        "nominal": [StrOptions({"binary", "drop"})],
        "seed": [Interval(Integral, None, None, closed="neither")],
        **NOMINAL_COLUMNS_CONSTRAINTS,
    }

    def __init__(self, *, C=1.0, tol=1e-3, epsilon=1e-12, filter_type="normalize", nominal="binary", seed=1,
                 categorical_features=None, n_categories=None):
        self.C = C
        self.tol = tol
        self.epsilon = epsilon
        self.filter_type = filter_type
        self.nominal = nominal
        self.seed = seed
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    # ------------------------------------------------------------------ the data as Weka sees it
    def _fit_filters(self, X: np.ndarray) -> None:
        """Steps 1-3 fitted on the training rows ``X`` (all columns; the kept ones are ``columns_``)."""
        nom = self.nominal_[self.columns_]
        n_values = self.n_values_[self.columns_]
        Z = X[:, self.columns_]
        fill = np.zeros(Z.shape[1])
        numeric = np.flatnonzero(~nom)
        if numeric.size:
            means, _ = K.column_means_sequential(np.ascontiguousarray(Z[:, numeric]))
            fill[numeric] = means
        for j in np.flatnonzero(nom):
            col = Z[:, j]
            known = col[~np.isnan(col)].astype(np.int64)
            counts = np.bincount(known, minlength=int(n_values[j]))
            fill[j] = float(np.argmax(counts))      # the first most frequent value
        self.fill_ = fill
        self.binarise_ = bool(nom.any())
        Z = self._binarised(X)
        if self.filter_type == "normalize":
            self.min_ = Z.min(axis=0) if Z.shape[0] else np.zeros(Z.shape[1])
            self.max_ = Z.max(axis=0) if Z.shape[0] else np.zeros(Z.shape[1])

    def _binarised(self, X: np.ndarray) -> np.ndarray:
        """Missing values replaced, nominal attributes expanded (steps 1 and 2)."""
        X = X[:, self.columns_]
        X = np.where(np.isnan(X), self.fill_, X)
        if not self.binarise_:
            return np.ascontiguousarray(X)
        nom = self.nominal_[self.columns_]
        n_values = self.n_values_[self.columns_]
        cols = []
        for j in range(X.shape[1]):
            k = int(n_values[j])
            if not nom[j] or k <= 2:
                cols.append(X[:, j:j + 1])
            else:
                cols.append((X[:, j:j + 1] == np.arange(k)).astype(np.float64))
        return np.ascontiguousarray(np.hstack(cols))

    def _transform(self, X: np.ndarray) -> np.ndarray:
        Z = self._binarised(X)
        if self.filter_type == "normalize":
            span = self.max_ - self.min_
            flat = span == 0
            with np.errstate(invalid="ignore", divide="ignore"):
                # Normalize.convertInstance: (x - min) / (max - min) * scale + translation
                Z = (Z - self.min_) / np.where(flat, 1.0, span) * 1.0 + 0.0
            Z[:, flat] = 0.0
        return np.ascontiguousarray(Z)

    # ------------------------------------------------------------------ fit / predict
    def fit(self, X, y):
        self._validate_params()
        X, codes = fit_class_codes(self, X, y)
        self._set_nominal(X)
        self._check_codes(X, "fit")
        self.columns_ = np.flatnonzero(~self.nominal_) if self.nominal == "drop" else np.arange(X.shape[1])
        if self.columns_.size == 0:
            raise NotApplicableError(f"{type(self).__name__}(nominal='drop') needs a numeric attribute; "
                                     "every column is nominal")
        self._fit_filters(X)
        Z = self._transform(X)
        n_classes = self.classes_.size
        rows = [np.flatnonzero(codes == c) for c in range(n_classes)]
        pairs, W, B = [], [], []
        n_steps = n_sv = 0
        state = K.java_random_state(np.int64(self.seed))
        for i in range(n_classes):
            for j in range(i + 1, n_classes):
                order = np.concatenate([rows[i], rows[j]]).astype(np.int64)
                K.java_randomize(order, state)
                yy = np.where(codes[order] == j, 1.0, -1.0)
                w, b, alpha, steps, status = K.binary_smo(np.ascontiguousarray(Z[order]), yy, float(self.C),
                                                          float(self.tol), float(self.epsilon), K.WEKA_DEL)
                if status != K.OK:
                    raise RuntimeError(f"SMO found no i_up or i_low after a step on classes "
                                       f"{self.classes_[i]!r} / {self.classes_[j]!r} (Weka throws "
                                       "'This should never happen!' there)")
                pairs.append((i, j))
                W.append(w)
                B.append(b)
                n_steps += int(steps)
                n_sv += int(np.count_nonzero(alpha))
        self.pairs_ = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        self.coef_ = np.asarray(W, dtype=np.float64).reshape(len(pairs), Z.shape[1])
        self.bias_ = np.asarray(B, dtype=np.float64)
        self.intercept_ = -self.bias_
        self.diagnostics_ = {"n_machines": len(pairs), "smo_steps": n_steps, "support_vectors": n_sv,
                             "n_columns": int(Z.shape[1])}
        return self

    def predict_votes(self, X) -> np.ndarray:
        """Votes of the pairwise machines per row, (n_samples, n_classes)."""
        X = self._predict_input(X)
        Z = self._transform(X)
        return K.pairwise_votes(Z, self.coef_, self.bias_, np.ascontiguousarray(self.pairs_[:, 0]),
                                np.ascontiguousarray(self.pairs_[:, 1]), self.classes_.size)

    def predict_proba(self, X):
        """The votes divided by their number (Weka's distribution without logistic models)."""
        votes = self.predict_votes(X)
        return votes / votes.sum(axis=1, keepdims=True)
