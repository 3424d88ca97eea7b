"""What the estimators of ``algorithms/`` share: ``predict`` from their probabilities, and the error
that says a model does not apply to a dataset.

The mixins come first in an estimator's bases (before scikit-learn's ``ClassifierMixin`` and
``BaseEstimator``).
"""

from __future__ import annotations

import numpy as np


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


class NotApplicableError(ValueError):
    """The model does not apply to this data (e.g. a 1023-bit code for 6 classes, or missing values
    given to a model that refuses them, as Weka's WAODE does).

    Not a failure of the run: a benchmark stores such a split as not applicable (a paper's blank
    cell). Subclasses say which condition it was.
    """
