"""What subsumption resolution deletes, and whether the model's predictions use the deletion.

:class:`SubsumptionProbe` is :class:`algorithms.ande.AnDE` (same parameters, same fit, the same
probabilities from ``predict_proba``) that also measures, on every ``predict_proba`` call of a model
with ``subsumption=True``, per test instance, the attribute values subsumption resolution deletes
(section 2 of Zaidi and Webb 2013) and the same model's probabilities without the deletion, and
puts the counts in ``diagnostics_`` (the runner stores them in the record's ``extra``):

``sr_test_rows``
    test instances.
``sr_rows_with_deletion``
    instances where subsumption resolution deletes at least one attribute value.
``sr_deletions``
    (instance, attribute) pairs deleted.
``sr_deletions_single_valued``
    of those, pairs whose attribute has one value in the fitted model (a numeric attribute the
    discretiser left without a cut point, or a constant nominal one): its value is in every training
    row where the attribute is observed, so it specialises nothing, and with the m-estimate its
    child factor ``(#(y, x_p, x_c) + m / 1) / (#(y, x_p, c observed) + m)`` is exactly 1.
``sr_deletions_zero_mi``
    of those, pairs whose attribute has zero mutual information with the class on the training data
    (Eq. 2, every non-empty cell): a parent of MI weight 0, floored to drop out of Eq. 1 under MI
    weighting.
``sr_argmax_changed``
    instances whose predicted class (the first of the largest probabilities) differs from that of
    the same fitted model with subsumption resolution switched off.
``sr_max_abs_change``
    the largest absolute change of a class probability that the deletion makes.
``n_single_valued``
    attributes with one value in the fitted model.

A model without subsumption resolution records nothing extra. Measuring costs one more prediction
(without the deletion) per call.
"""

from __future__ import annotations

import numpy as np

from .ande import AnDE, _kept_attributes, _mutual_information


class SubsumptionProbe(AnDE):
    """:class:`algorithms.ande.AnDE` that records what subsumption resolution deletes at prediction
    and what the deletion changes (module docstring); its probabilities are AnDE's."""

    def predict_proba(self, X):
        proba = super().predict_proba(X)
        if not self.subsumption:
            return proba
        cnt, mdl = self.counts_, self._model
        codes = np.ascontiguousarray(self._encode(self._validate(X, reset=False)))
        n, d = codes.shape
        kept = {}
        for use_sr in (True, False):
            k = np.empty((n, d), dtype=np.bool_)
            _kept_attributes(codes, use_sr, cnt.n_values, cnt.n_classes, cnt.set_start, cnt.set_offsets,
                             mdl["binom"], mdl["free_counts"], int(self.sr_threshold), k, np.empty(n, dtype=np.int64))
            kept[use_sr] = k
        deleted = kept[False] & ~kept[True]
        mi = np.zeros(self.weights_.size)
        o1 = int(cnt.set_start[1])
        _mutual_information(cnt.set_offsets, o1, int(cnt.set_start[2]), cnt.n_classes, cnt.counts, 0.0, mi)
        mi1 = mi[o1:o1 + d]
        single = np.asarray(cnt.n_values) == 1
        self.subsumption = False
        try:
            without = super().predict_proba(X)
        finally:
            self.subsumption = True
        self.diagnostics_ = {
            **self.diagnostics_,
            "sr_test_rows": int(n),
            "sr_rows_with_deletion": int(deleted.any(axis=1).sum()),
            "sr_deletions": int(deleted.sum()),
            "sr_deletions_single_valued": int(deleted[:, single].sum()),
            "sr_deletions_zero_mi": int(deleted[:, mi1 <= 0.0].sum()),
            "sr_argmax_changed": int((proba.argmax(1) != without.argmax(1)).sum()),
            "sr_max_abs_change": float(np.abs(proba - without).max()) if n else 0.0,
            "n_single_valued": int(single.sum()),
        }
        return proba
