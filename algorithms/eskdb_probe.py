"""ESKDB_M and SKDB that record where their training time goes, stage by stage.

:class:`StageTimedESKDB` and :class:`StageTimedSKDB` are :class:`algorithms.eskdb.ESKDB` and
:class:`algorithms.bnc.SKDB` (same parameters, same fitted models and probabilities) whose ``fit`` also
times, in CPU seconds (``time.process_time``), the functions that do each stage of the learning, and
puts the sums in ``diagnostics_`` (the runner stores them in the record's ``extra``) as ``cpu_<stage>``:

``cpu_discretise``  ESKDB: the shared per-column sort (``class_counts_by_value``), each member's
                    randomised MDL cut points (Alg. 2) and its binning and coding of the training data
                    (SKDB's discretisation is the runner's preprocessing step: ``times.preprocess_fit_cpu_s``);
``cpu_mi_cmi``      pass 1 of SKDB: the MI and CMI tables (``pairwise_information``);
``cpu_order``       ESKDB: each member's sampled attribute order (Alg. 3);
``cpu_structure``   the KDB-maxK parents (``kdb_parents``);
``cpu_counting``    pass 2: the family count tables (``FamilyTable.add``);
``cpu_loo``         pass 3: the incremental leave-one-out pass (``SKDB._loo``);
``cpu_finalise``    the prediction model (count tables to estimates);
``cpu_fit``         the whole ``fit``; ``cpu_fit`` minus the stages is the rest (validation, bookkeeping).

``n_members`` is the number of SKDBs fitted (``n_estimators``; 1 for SKDB). The timers wrap the module
functions only while ``fit`` runs (restored afterwards, also on error); a timed call inside another
timed call counts once, in the outer stage. Fitting in parallel (``n_jobs`` > 1) is refused: the worker
processes would not see the timers.
"""

from __future__ import annotations

import contextlib
import functools
import time

from . import bnc, eskdb
from ._base import NotApplicableError

STAGES = ("discretise", "mi_cmi", "order", "structure", "counting", "loo", "finalise")
#: (module or class, attribute, stage)
_TIMED = ((bnc, "pairwise_information", "mi_cmi"), (bnc, "kdb_parents", "structure"),
          (eskdb, "class_counts_by_value", "discretise"), (eskdb, "_member_cut_points", "discretise"),
          (eskdb, "_bin_codes", "discretise"), (eskdb, "_member_codes", "discretise"),
          (eskdb, "sample_attribute_order", "order"), (eskdb, "sample_attribute_order_authors", "order"),
          (bnc.FamilyTable, "add", "counting"), (bnc.SKDB, "_loo", "loo"), (bnc._BNCBase, "_finalise", "finalise"))


@contextlib.contextmanager
def stage_timer():
    """Time the stages while the block runs; yields the dict ``stage -> CPU seconds`` it fills."""
    acc = dict.fromkeys(STAGES, 0.0)
    depth = [0]
    saved = []

    def timed(stage, fn):
        @functools.wraps(fn)
        def wrapper(*a, **kw):
            if depth[0]:
                return fn(*a, **kw)
            depth[0] += 1
            t0 = time.process_time()
            try:
                return fn(*a, **kw)
            finally:
                acc[stage] += time.process_time() - t0
                depth[0] -= 1
        return wrapper

    try:
        for owner, name, stage in _TIMED:
            fn = owner.__dict__[name]
            saved.append((owner, name, fn))
            setattr(owner, name, timed(stage, fn))
        yield acc
    finally:
        for owner, name, fn in reversed(saved):
            setattr(owner, name, fn)


def _record(est, acc: dict, total: float, members: int) -> None:
    est.diagnostics_ = {**getattr(est, "diagnostics_", {}), **{f"cpu_{s}": float(v) for s, v in acc.items()},
                        "cpu_fit": float(total), "n_members": int(members)}


class StageTimedESKDB(eskdb.ESKDB):
    """:class:`algorithms.eskdb.ESKDB` whose ``fit`` records its CPU seconds per stage (module docstring)."""

    def fit(self, X, y):
        if self.n_jobs not in (None, 1):
            raise NotApplicableError(f"StageTimedESKDB times the stages in this process: n_jobs must be 1 "
                                     f"(got {self.n_jobs!r})")
        with stage_timer() as acc:
            t0 = time.process_time()
            super().fit(X, y)
            total = time.process_time() - t0
        _record(self, acc, total, int(self.n_estimators))
        return self


class StageTimedSKDB(bnc.SKDB):
    """:class:`algorithms.bnc.SKDB` whose ``fit`` records its CPU seconds per stage (module docstring)."""

    def fit(self, X, y):
        with stage_timer() as acc:
            t0 = time.process_time()
            super().fit(X, y)
            total = time.process_time() - t0
        _record(self, acc, total, 1)
        return self
