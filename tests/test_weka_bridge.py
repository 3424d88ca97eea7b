"""The Weka bridge, and agreement of the baselines with Weka 3.6 on identical folds."""

import numpy as np
import pytest

from bench import weka
from bench.data import load
from bench.protocols import splits

pytestmark = [pytest.mark.weka, pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")]


def test_bridge_returns_full_precision_distributions():
    ds = load("sk_iris")
    idx = np.arange(ds.n_instances)
    r = weka.run(ds, idx[::2], idx[1::2], "weka.classifiers.bayes.NaiveBayes")
    assert r.proba.shape == (75, 3)
    assert np.allclose(r.proba.sum(1), 1.0, atol=1e-12)
    assert np.mean(np.argmax(r.proba, 1) != ds.y[1::2]) < 0.1
    assert r.train_s >= 0 and r.test_s >= 0


@pytest.mark.slow
def test_rf100_matches_weka_random_forest_on_letter(tmp_path):
    """bench rf100 vs Weka RandomForest -I 100 on the same 10 folds: error within 1 point."""
    ds = load("letter")
    from bench.runner import run_job

    algo = {"name": "rf100", "estimator": {"_target_": "algorithms.baselines.RandomForest", "n_estimators": 100}}
    ours = run_job(algo, "letter", {"name": "cv10", "kind": "kfold", "n_splits": 10}, 0, "t", str(tmp_path),
                   progress=False)
    our_err = np.mean([r["metrics"]["error"] for r in ours.records])
    errs = []
    for s in splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0):
        r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.RandomForest", ["-I", "100", "-S", str(s.fold + 1)])
        errs.append(np.mean(np.argmax(r.proba, 1) != ds.y[s.test]))
    assert abs(our_err - np.mean(errs)) < 0.01


def test_weka_on_folds_sets_weka_beside_a_stored_run(tmp_path, monkeypatch, capsys):
    """`python -m bench.weka.folds` runs Weka on the protocol's own splits and matches the stored
    run of an algorithm split by split (same test rows, agreement share, error difference)."""
    from bench.runner import run_job
    from bench.weka import folds

    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path))
    algo = {"name": "nbw", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    run_job(algo, "sk_iris", {"name": "cv4", "kind": "kfold", "n_splits": 4}, 0, "t", str(tmp_path), progress=False)
    rows = folds.weka_on_folds("sk_iris", "weka.classifiers.bayes.NaiveBayes", [], protocol="cv4", progress=False)
    ds = load("sk_iris")
    assert [(r["repeat"], r["fold"]) for r in rows] == [(0, f) for f in range(4)]
    assert np.array_equal(np.sort(np.concatenate([r["test"] for r in rows])), np.arange(ds.n_instances))
    assert folds.main(["sk_iris", "--protocol", "cv4", "--algo", "nbw", "--",
                       "weka.classifiers.bayes.NaiveBayes"]) == 0
    out = capsys.readouterr().out
    assert "nbw error" in out and "same class" in out
    last = out.strip().splitlines()[-1].split()
    assert last[0] == "mean" and 0.9 <= float(last[-1]) <= 1.0  # Gaussian NB in both: nearly the same classes
