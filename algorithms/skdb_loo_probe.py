"""SKDB and ESKDB_M that record the leave-one-out score of every k their selection weighed.

SKDB's pass 3 scores every model (k parents, the first u attributes of the order) by the RMSE of the true
class's leave-one-out posterior on the training fold (``loo_rmse_``) and keeps the lowest (:class:`algorithms.bnc.SKDB`).
:class:`LooScoredSKDB` and :class:`LooScoredESKDB` are :class:`algorithms.bnc.SKDB` and
:class:`algorithms.eskdb.ESKDB` (same parameters, same fitted models and probabilities) whose ``fit`` also puts
into ``diagnostics_`` (the runner stores it in the record's ``extra``):

``loo_by_k``       SKDB: for k = 0 .. max_k, the lowest LOO RMSE of a model with k parents (over the attribute
                   counts u = 1 .. d'); ESKDB_M: one such list per member;
``loo_prior``      the LOO RMSE of the class prior alone (the selection's starting best; one per member for
                   ESKDB_M).

The selected k (``k``, ``k_star``) is the k of the lowest entry of ``loo_by_k`` (the prior's when that is
lower: k = 0 with no attribute), so the gap between two entries is how far the selection was from choosing
the other k.
"""

from __future__ import annotations

import numpy as np

from . import bnc, eskdb


def _by_k(model: bnc.SKDB) -> tuple[list[float], float]:
    """(lowest LOO RMSE per k over the attribute counts, the prior's LOO RMSE) of a fitted SKDB."""
    t = np.asarray(model.loo_rmse_, dtype=float)
    by_k = [float(np.min(t[k])) if t.shape[1] else float("nan") for k in range(t.shape[0])]
    return by_k, float(model.loo_rmse_prior_)


class LooScoredSKDB(bnc.SKDB):
    """:class:`algorithms.bnc.SKDB` whose ``fit`` records the LOO RMSE of each k (module docstring)."""

    def fit(self, X, y):
        super().fit(X, y)
        by_k, prior = _by_k(self)
        self.diagnostics_ = {**getattr(self, "diagnostics_", {}), "loo_by_k": by_k, "loo_prior": prior}
        return self


class LooScoredESKDB(eskdb.ESKDB):
    """:class:`algorithms.eskdb.ESKDB` whose ``fit`` records each member's LOO RMSE of each k (module docstring)."""

    def fit(self, X, y):
        super().fit(X, y)
        scored = [_by_k(mb.model) for mb in self.members_]
        self.diagnostics_ = {**getattr(self, "diagnostics_", {}), "loo_by_k": [s[0] for s in scored],
                             "loo_prior": [s[1] for s in scored]}
        return self
