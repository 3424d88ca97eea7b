"""What the estimators of ``algorithms/`` share: ``predict`` from their probabilities, the row-wise
log-sum-exp that normalises log joints, the scikit-learn tags they declare alike, and the error that
says a model does not apply to a dataset.

The mixins come first in an estimator's bases (before scikit-learn's ``ClassifierMixin`` and
``BaseEstimator``).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import Integral, Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._counts import class_codes


class PredictFromProbaMixin:
    """``predict``: the class of highest ``predict_proba`` (ties: the first class in ``classes_``)."""

    def predict(self, X):
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class PredictFromLogJointMixin:
    """``predict``: the class of highest ``predict_log_joint`` (the unnormalised log posterior,
    so that no normalisation is paid for a hard prediction; ties: the first class)."""

    def predict(self, X):
        joint = self.predict_log_joint(X)
        return self.classes_[np.argmax(joint, axis=1)]


class ProbaFromLogJointMixin:
    """``predict_log_proba`` and ``predict_proba`` from ``predict_log_joint``, each row normalised
    by :func:`logsumexp_rows`."""

    def predict_log_proba(self, X):
        lj = self.predict_log_joint(X)
        return lj - logsumexp_rows(lj)

    def predict_proba(self, X):
        return np.exp(self.predict_log_proba(X))


def logsumexp_rows(a: np.ndarray) -> np.ndarray:
    """``log(sum(exp(a), axis=1))`` as a column (keepdims), shifted by each row's finite maximum.

    Not ``scipy.special.logsumexp``: scipy (>= 1.15) takes the maximum term out of the sum and
    adds ``log1p`` of the rest, which differs from this in the last bits (measured on 100,000
    random rows of 7 log-joints: 195 rows differ, by up to 5.7e-14), and the normalised
    posteriors of every stored result were computed with this form. A row of ``-inf`` gives
    ``-inf``; an empty row (no columns) gives ``-inf``."""
    hi = np.max(a, axis=1, keepdims=True) if a.shape[1] else np.zeros((a.shape[0], 1))
    hi = np.where(np.isfinite(hi), hi, 0.0)
    return hi + np.log(np.sum(np.exp(a - hi), axis=1, keepdims=True))


def _fewer_than_two_classes(estimator, labels: np.ndarray) -> ValueError:
    """The error of a fit given fewer than 2 class labels, naming the estimator."""
    return ValueError(f"{type(estimator).__name__} needs at least 2 classes to learn from; got "
                      + (f"1 class ({labels[0].tolist()!r})" if labels.size else "no training rows"))


def fit_class_codes(estimator, X, y):
    """The preamble of a (whole-data) ``fit``: ``X`` validated as float (NaN allowed, which sets
    ``n_features_in_``), ``y`` checked as class labels and coded by ``np.unique``; sets
    ``classes_`` (sorted labels) and returns ``(X, codes)`` with int64 codes. Fewer than 2
    classes is an error."""
    X, y = validate_data(estimator, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise _fewer_than_two_classes(estimator, classes)
    estimator.classes_ = classes
    return X, codes.astype(np.int64)


def first_batch_classes(estimator, y, classes=None) -> np.ndarray:
    """The class labels of a first ``partial_fit`` (or a ``fit``) of an incremental learner:
    ``classes`` when given, else those in ``y`` (:func:`algorithms._counts.class_codes`), sorted;
    sets ``classes_`` and returns them. Fewer than 2 classes is an error."""
    labels = class_codes(y)[0] if classes is None else np.unique(np.asarray(classes))
    if labels.size < 2:
        raise _fewer_than_two_classes(estimator, labels)
    estimator.classes_ = labels
    return labels


class AllowNanTagsMixin:
    """scikit-learn tags: NaN is accepted as a missing value (``input_tags.allow_nan``), as every
    estimator and transformer of ``algorithms/`` does. Estimator-specific tags stay with the
    estimator (its ``__sklearn_tags__`` calls ``super()``)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


class SparseAllowNanTagsMixin(AllowNanTagsMixin):
    """:class:`AllowNanTagsMixin` plus SciPy sparse input (``input_tags.sparse``)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


#: scikit-learn parameter constraint of ``random_state`` in ``algorithms/``: None, a non-negative int
#: of any size (ensembles draw 64-bit member seeds for ``numpy.random.default_rng``; scikit-learn's
#: ``"random_state"`` stops at 2**32 - 1), a ``RandomState`` or a ``Generator``
def bounded_seed(random_state, bits: int):
    """``random_state`` as a library with ``bits``-bit seeds takes it: None -> 0, an int below
    ``2**bits`` unchanged, a larger int (which :data:`RANDOM_STATE_CONSTRAINT` accepts) folded into
    ``bits`` bits through ``numpy.random.SeedSequence`` (distinct large seeds stay distinct with
    overwhelming probability), a ``Generator`` drawn from once; a ``RandomState`` is passed on."""
    if random_state is None:
        return 0
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**bits))
    if isinstance(random_state, np.random.RandomState):
        return random_state
    seed = int(random_state)
    if seed < 2**bits:
        return seed
    state = np.random.SeedSequence(seed).generate_state(2, dtype=np.uint64)
    return int(state[0] >> np.uint64(64 - bits))


RANDOM_STATE_CONSTRAINT = [Interval(Integral, 0, None, closed="left"), np.random.RandomState, np.random.Generator,
                           None]


#: scikit-learn parameter constraints of ``categorical_features`` (nominal columns) and ``n_categories``
#: (declared values per column), which the runner injects into every estimator that declares them
NOMINAL_COLUMNS_CONSTRAINTS = {"categorical_features": ["array-like", None], "n_categories": ["array-like", None]}


class NotApplicableError(ValueError):
    """The model does not apply to this data (e.g. a 1023-bit code for 6 classes, or missing values
    given to a model that refuses them, as Weka's WAODE does).

    Not a failure of the run: a benchmark stores such a split as not applicable (a paper's blank
    cell). Subclasses say which condition it was.
    """
