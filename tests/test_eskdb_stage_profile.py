"""ESKDB_M's and SKDB's stage timing (``algorithms.eskdb_probe``, claim ES16): the timed learners are the models
themselves, every stage is timed once (no nesting counted twice, every timer removed afterwards), and the report's
stage table (``bench.papers.eskdb.stages``) sums and divides as stated."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from algorithms import eskdb, eskdb_probe
from algorithms.bnc import SKDB
from algorithms.eskdb import ESKDB
from algorithms.eskdb_probe import STAGES, StageTimedESKDB, StageTimedSKDB, stage_timer
from bench.papers.eskdb import stages


def _data(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack([y + rng.normal(0, 0.8, n), rng.normal(0, 1, n), (y + rng.integers(0, 2, n)) % 3,
                         rng.integers(0, 4, n)]).astype(float)
    cat = np.array([False, False, True, True])
    ncat = np.array([0, 0, 3, 4])
    return X, y, cat, ncat


def test_timed_eskdb_is_eskdb_and_its_stages_add_up():
    X, y, cat, ncat = _data()
    kw = dict(n_estimators=3, random_state=1, categorical_features=cat, n_categories=ncat)
    timed = StageTimedESKDB(**kw).fit(X, y)
    plain = ESKDB(**kw).fit(X, y)
    assert np.array_equal(timed.predict_proba(X), plain.predict_proba(X))
    g = timed.diagnostics_
    assert g["n_members"] == 3
    parts = [g[f"cpu_{s}"] for s in STAGES]
    assert all(v >= 0 for v in parts) and sum(parts) <= g["cpu_fit"] + 1e-9
    assert g["cpu_discretise"] > 0 and g["cpu_loo"] > 0 and g["cpu_mi_cmi"] > 0


def test_timed_skdb_is_skdb():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, (200, 5)).astype(float)
    y = (X[:, 0] + rng.integers(0, 2, 200)) % 3
    kw = dict(categorical_features=np.ones(5, bool), n_categories=np.full(5, 3))
    timed = StageTimedSKDB(**kw).fit(X, y)
    assert np.array_equal(timed.predict_proba(X), SKDB(**kw).fit(X, y).predict_proba(X))
    assert timed.diagnostics_["n_members"] == 1 and timed.diagnostics_["cpu_order"] == 0.0


def test_stage_timer_restores_every_function_even_on_error():
    before = {(id(o), n): o.__dict__[n] for o, n, _ in eskdb_probe._TIMED}
    with pytest.raises(RuntimeError):
        with stage_timer():
            assert eskdb.class_counts_by_value is not before[(id(eskdb), "class_counts_by_value")]
            raise RuntimeError("stop")
    assert all(o.__dict__[n] is before[(id(o), n)] for o, n, _ in eskdb_probe._TIMED)


def test_parallel_members_are_refused():
    X, y, cat, ncat = _data(n=60)
    with pytest.raises(ValueError, match="n_jobs must be 1"):
        StageTimedESKDB(n_estimators=2, n_jobs=2, categorical_features=cat, n_categories=ncat).fit(X, y)


def _records():
    rows = []
    for split in range(2):
        rows.append({"dataset": "d", "algo": "skdb_stages", "status": "ok", "times.preprocess_fit_cpu_s": 0.1,
                     "times.train_cpu_s": 1.0, "extra.n_members": 1, "extra.cpu_fit": 0.9,
                     **{f"extra.cpu_{s}": v for s, v in zip(STAGES, (0.0, 0.1, 0.0, 0.05, 0.1, 0.4, 0.05))}})
        rows.append({"dataset": "d", "algo": "eskdb_m_stages", "status": "ok", "times.preprocess_fit_cpu_s": 0.0,
                     "times.train_cpu_s": 15.0, "extra.n_members": 10, "extra.cpu_fit": 15.0,
                     **{f"extra.cpu_{s}": v for s, v in zip(STAGES, (3.0, 1.0, 0.1, 0.5, 1.0, 8.0, 0.5))}})
    return pd.DataFrame(rows)


def test_stage_table_sums_and_ratios():
    t = stages.stage_times(_records()).set_index(["learner", "stage"])
    assert t.at[("SKDB", "discretise"), "cpu_s"] == pytest.approx(0.1)          # the preprocessing step
    assert t.at[("SKDB", "other"), "cpu_s"] == pytest.approx(1.0 - 0.8)
    assert t.at[("ESKDB_M", "other"), "cpu_s"] == pytest.approx(15.0 - 14.1)
    assert t.at[("ESKDB_M", "loo"), "per_member_s"] == pytest.approx(0.8)
    assert t.at[("ESKDB_M", "loo"), "member_over_skdb"] == pytest.approx(2.0)
    assert t.at[("ESKDB_M", "total"), "member_over_skdb"] == pytest.approx(1.5)
    assert np.isnan(t.at[("ESKDB_M", "order"), "member_over_skdb"])             # SKDB samples no order
    note = stages.note_from(stages.stage_times(_records()), 1.8)
    assert "ESKDB_M / SKDB 15.00-15.00x" in note and "about 5.6 ESKDB members" in note
    assert stages.note_from(pd.DataFrame()) == ""
    assert stages.stage_times(pd.DataFrame()).empty                  # an experiment with nothing stored
