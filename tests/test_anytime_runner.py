"""The runner's anytime evaluation (bench/runner.py: ``anytime`` block of an algorithm config)."""

import json

import numpy as np
import pytest

from bench import metrics as M
from bench.data.dataset import Dataset
from bench.protocols import Split
from bench.runner import run_job, run_split
from bench.store import load, load_predictions

BUDGETS = [1, 5, 20, None]
MCTREE = {"name": "mctree_t", "estimator": {"_target_": "algorithms.anytime.MCTree", "fanout": 3},
          "anytime": {"unit": "gaussians", "budgets": BUDGETS}}


def _ds(n=90, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    X = rng.normal(size=(n, 3)) + y[:, None]
    return Dataset("toy3", X, y, ["a", "b", "c"], ["x0", "x1", "x2"], np.zeros(3, bool))


def test_per_budget_metrics_and_arrays():
    ds = _ds()
    split = Split(0, 0, np.arange(0, 90, 2), np.arange(1, 90, 2))
    rec, preds = run_split(MCTREE, ds, split, seed=0)
    rows = rec["metrics_by_budget"]
    assert [r["budget"] for r in rows] == [1.0, 5.0, 20.0, None]
    assert rec["anytime"]["unit"] == "gaussians" and rec["anytime"]["predict_cpu_s"] >= 0
    assert preds["anytime_pred"].shape == (4, 45) and preds["anytime_proba_true"].shape == (4, 45)
    assert "anytime_proba" not in preds  # only with store_proba
    for i, r in enumerate(rows):
        assert r["error"] == pytest.approx(M.error_rate(preds["y_true"], preds["anytime_pred"][i]))
        assert r["mean_units"] <= (BUDGETS[i] if BUDGETS[i] is not None else np.inf)
    # the unlimited budget is the classifier's own predict_proba (the full kernel density)
    assert rows[-1]["error"] == pytest.approx(rec["metrics"]["error"])
    np.testing.assert_allclose(preds["anytime_proba_true"][-1], preds["proba"][np.arange(45), preds["y_true"]],
                               atol=1e-6)


def test_store_proba_keeps_every_budget():
    algo = {**MCTREE, "anytime": {**MCTREE["anytime"], "store_proba": True}}
    rec, preds = run_split(algo, _ds(), Split(0, 0, np.arange(0, 90, 2), np.arange(1, 90, 2)), seed=0)
    assert preds["anytime_proba"].shape == (4, 45, 3)
    np.testing.assert_allclose(preds["anytime_proba"].sum(axis=2), 1.0, atol=1e-5)


def test_without_anytime_block_records_are_unchanged():
    algo = {"name": "mctree_t", "estimator": {"_target_": "algorithms.anytime.MCTree", "fanout": 3}}
    rec, preds = run_split(algo, _ds(), Split(0, 0, np.arange(0, 90, 2), np.arange(1, 90, 2)), seed=0)
    assert "metrics_by_budget" not in rec and "anytime" not in rec
    assert set(preds) == {"test_index", "y_true", "proba"}


def test_static_estimator_ignores_the_anytime_block():
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"},
            "anytime": {"budgets": [1, 2]}}
    rec, preds = run_split(algo, _ds(), Split(0, 0, np.arange(0, 90, 2), np.arange(1, 90, 2)), seed=0)
    assert "metrics_by_budget" not in rec


def test_empty_budget_list_is_an_error():
    algo = {**MCTREE, "anytime": {"budgets": []}}
    with pytest.raises(ValueError, match="budgets"):
        run_split(algo, _ds(), Split(0, 0, np.arange(0, 90, 2), np.arange(1, 90, 2)), seed=0)


def test_job_stores_and_reloads_anytime_records(tmp_path):
    cv2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}
    for algo in (MCTREE, {"name": "nn", "estimator": {"_target_": "algorithms.anytime.AnytimeNN"},
                          "anytime": {"unit": "instances", "budgets": [1, 10, 1000]}}):
        res = run_job(algo, "sk_iris", cv2, 0, "e", str(tmp_path), progress=False)
        assert not res.failed
    df = load(tmp_path, experiment="e")
    assert len(df) == 4 and all(isinstance(v, list) for v in df["metrics_by_budget"])
    rec = json.loads(open(df["path"].iloc[0]).read())
    rec["path"] = df["path"].iloc[0]
    arrays = load_predictions(rec)
    assert arrays["anytime_pred"].shape[0] == len(rec["metrics_by_budget"])
