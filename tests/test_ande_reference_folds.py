"""A1DE-S and A1DE-SW as the ``ande_sr`` experiment runs them (their configs, MDL discretisation fitted on the
training fold, the runner's own fitting path) against the paper's equations evaluated literally
(:class:`tests.ande_reference.ReferenceA1DE`), on the first split of the ``ande_sr`` folds (cv20x2, seed 0) of
five datasets where subsumption resolution deletes attribute values: sonar and hungarian (where, with MI
weighting, it changes nothing), bupa, heart_c, and audiology (where it changes predictions with weighting too).

And :class:`algorithms.ande_probe.SubsumptionProbe`: its probabilities are AnDE's, and what it records equals
what the reference deletes and what switching the deletion off changes."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.ande import AnDE
from algorithms.ande_probe import SubsumptionProbe
from bench.data.registry import load
from bench.experiment_plan import algo_config
from bench.protocols import splits
from bench.runner import build_estimator, estimator_seed, fit_steps

from .ande_reference import ReferenceA1DE

CV20X2 = {"kind": "kfold", "n_splits": 2, "n_repeats": 20}
DATASETS = ["sonar", "hungarian", "bupa", "heart_c", "audiology"]


def _fitted(algo: str, ds, split):
    """``algo`` fitted on ``split``'s training fold as the runner fits it; the transformed fold and test rows."""
    steps, est = build_estimator(algo_config(algo), ds, estimator_seed(0, split.repeat, split.fold), split.index)
    Xtr = fit_steps(steps, est, ds, ds.X[split.train], ds.y[split.train])
    est.fit(Xtr, ds.y[split.train])
    Xte = ds.X[split.test]
    for s in steps:
        Xte = s.transform(Xte)
    return est, Xtr, Xte


@pytest.fixture(scope="module", params=DATASETS)
def fold(request):
    ds = load(request.param)
    split = next(iter(splits(ds.y, CV20X2, 0)))
    return ds, split


def test_a1de_sw_and_a1de_s_follow_the_papers_equations_on_the_ande_sr_folds(fold):
    ds, split = fold
    sw, Xtr, Xte = _fitted("a1de_sw", ds, split)
    ytr = np.searchsorted(sw.classes_, ds.y[split.train])   # codes of the classes in the fold (audiology lacks some)
    s, Xtr_s, Xte_s = _fitted("a1de_s", ds, split)
    assert np.array_equal(Xtr, Xtr_s, equal_nan=True) and np.array_equal(Xte, Xte_s, equal_nan=True)
    ref_sw = ReferenceA1DE(Xtr, ytr, sw.n_values_, sw.classes_.size, subsumption=True, weighting=True)
    ref_s = ReferenceA1DE(Xtr, ytr, s.n_values_, s.classes_.size, subsumption=True, weighting=False)
    assert np.allclose(sw.predict_proba(Xte), ref_sw.predict_proba(Xte), rtol=1e-9, atol=1e-12)
    assert np.allclose(s.predict_proba(Xte), ref_s.predict_proba(Xte), rtol=1e-9, atol=1e-12)
    # the weights are the reference's MI, and the deletions are the same in both models (SR ignores weights)
    d = Xtr.shape[1]
    o1 = sw.counts_.set_start[1]
    assert np.allclose(sw.weights_[o1:o1 + d], ref_sw.weights, rtol=1e-12, atol=1e-15)
    deleted = np.array([len(ref_s.deleted(x)) for x in Xte])
    observed = (~np.isnan(Xte)).sum(1)
    assert np.array_equal(sw.explain(Xte)["n_kept"], observed - deleted)
    assert np.array_equal(s.explain(Xte)["n_kept"], observed - deleted)
    assert deleted.sum() > 0          # these folds exercise the deletion


def test_probe_is_the_model_and_records_what_the_reference_deletes(fold):
    ds, split = fold
    probe, Xtr, Xte = _fitted("a1de_sw_probe", ds, split)
    ytr = np.searchsorted(probe.classes_, ds.y[split.train])
    model, _, _ = _fitted("a1de_sw", ds, split)
    P = probe.predict_proba(Xte)
    assert np.array_equal(P, model.predict_proba(Xte))
    ref = ReferenceA1DE(Xtr, ytr, probe.n_values_, probe.classes_.size, subsumption=True, weighting=True)
    dels = [ref.deleted(x) for x in Xte]
    single = set(np.flatnonzero(probe.n_values_ == 1))
    zero_mi = set(np.flatnonzero(ref.weights <= 0))
    off = AnDE(**{**model.get_params(), "subsumption": False}).fit(Xtr, ytr).predict_proba(Xte)
    g = probe.diagnostics_
    assert g["sr_test_rows"] == len(Xte)
    assert g["sr_rows_with_deletion"] == sum(1 for s in dels if s)
    assert g["sr_deletions"] == sum(len(s) for s in dels)
    assert g["sr_deletions_single_valued"] == sum(len(s & single) for s in dels)
    assert g["sr_deletions_zero_mi"] == sum(len(s & zero_mi) for s in dels)
    assert g["sr_argmax_changed"] == int((P.argmax(1) != off.argmax(1)).sum())
    assert g["sr_max_abs_change"] == pytest.approx(np.abs(P - off).max(), abs=1e-12)
    assert g["n_single_valued"] == len(single)


def test_probe_without_subsumption_records_nothing_extra():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (60, 4)).astype(float)
    y = rng.integers(0, 2, 60)
    probe = SubsumptionProbe(n_categories=np.full(4, 3)).fit(X, y)
    assert np.array_equal(probe.predict_proba(X), AnDE(n_categories=np.full(4, 3)).fit(X, y).predict_proba(X))
    assert not any(k.startswith("sr_") for k in probe.diagnostics_)
