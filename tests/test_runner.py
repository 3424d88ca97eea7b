import numpy as np
import pytest

from algorithms.baselines import RandomForest, XGBoost, weka_num_features
from bench.data.dataset import Dataset
from bench.protocols import Split
from bench.runner import SplitError, algo_identity, run_job, run_split
from bench.store import load_predictions

REC = {"name": "rec", "estimator": {"_target_": "tests.helpers.RecordingClassifier"}}
CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}


def _toy(y):
    X = np.arange(len(y) * 2, dtype=float).reshape(len(y), 2)
    return Dataset("toy", X, np.asarray(y), ["a", "b", "c"], ["x0", "x1"], np.array([False, True]),
                   [None, ["u", "v"]])


def test_single_class_training_fold_is_a_clear_error():
    ds = _toy([0, 0, 0, 1])
    with pytest.raises(SplitError, match="single class \\('a'\\)"):
        run_split(REC, ds, Split(0, 0, np.array([0, 1, 2]), np.array([3])), seed=0)


def test_injection_and_full_probability_columns():
    ds = _toy([0, 1, 0, 1, 2, 2])
    rec, preds = run_split(REC, ds, Split(0, 0, np.array([0, 1, 2, 3]), np.array([4, 5])), seed=7)
    assert rec["extra"]["categorical_seen"] == [False, True]
    assert rec["extra"]["random_state"] == rec["estimator_random_state"]
    # class 2 is absent from training: its column is zero, the others sum to one
    assert preds["proba"].shape == (2, 3)
    assert np.allclose(preds["proba"][:, 2], 0) and np.allclose(preds["proba"].sum(1), 1)
    assert rec["metrics"]["error"] == 1.0


def test_failed_split_is_recorded_and_job_continues(tmp_path):
    algo = {"name": "flaky", "estimator": {"_target_": "tests.helpers.RecordingClassifier",
                                           "fail_on_fold": 75 % 7}}
    res = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False)
    assert len(res.records) == 2
    assert len(res.failed) == 2  # both folds have 75 training instances
    assert "deliberate failure" in res.failed[0]["error"] and "Traceback" in res.failed[0]["traceback"]
    # failures are retried on the next run by default, kept with retry_failed=False
    again = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, retry_failed=False)
    assert again.reused == 2


def test_same_seed_gives_bit_identical_records(tmp_path):
    algo = {"name": "rf", "estimator": {"_target_": "algorithms.baselines.RandomForest", "n_estimators": 5}}
    a = run_job(algo, "sk_wine", CV2, 3, "e", str(tmp_path / "a"), progress=False)
    b = run_job(algo, "sk_wine", CV2, 3, "e", str(tmp_path / "b"), progress=False)
    c = run_job(algo, "sk_wine", CV2, 4, "e", str(tmp_path / "c"), progress=False)
    for ra, rb, rc in zip(a.records, b.records, c.records):
        pa, pb, pc = load_predictions(ra), load_predictions(rb), load_predictions(rc)
        assert pa["proba"].tobytes() == pb["proba"].tobytes()
        assert ra["metrics"] == rb["metrics"]
        assert not np.array_equal(pa["test_index"], pc["test_index"])


def test_algo_hash_ignores_description_only():
    a = {"name": "x", "description": "one", "estimator": {"_target_": "t", "k": 1}}
    b = {"name": "x", "description": "two", "estimator": {"_target_": "t", "k": 1}}
    c = {"name": "x", "description": "one", "estimator": {"_target_": "t", "k": 2}}
    assert algo_identity(a) == algo_identity(b) != algo_identity(c)


def test_weka_features_per_split():
    assert weka_num_features(16) == 5  # letter: int(log2 16) + 1
    assert weka_num_features(10) == 4
    X = np.random.default_rng(0).normal(size=(60, 16))
    y = (X[:, 0] > 0).astype(int)
    assert RandomForest(n_estimators=3, random_state=0).fit(X, y).max_features_ == 5


@pytest.mark.parametrize("est", [RandomForest(n_estimators=5), XGBoost(n_estimators=5)])
def test_baselines_pass_sklearn_checks(est):
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(est)


def test_xgboost_handles_a_missing_class_in_training():
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.array([0, 2] * 15)  # class 1 absent
    m = XGBoost(n_estimators=3).fit(X, y)
    assert list(m.classes_) == [0, 2] and m.predict_proba(X).shape == (30, 2)


def test_discretiser_metadata_reaches_the_next_step():
    ds = _toy([0, 1, 0, 1, 2, 2])
    algo = {"name": "x", "preprocess": [{"_target_": "tests.helpers.BinAll"}],
            "estimator": {"_target_": "tests.helpers.RecordingClassifier"}}
    rec, _ = run_split(algo, ds, Split(0, 0, np.array([0, 1, 2, 3]), np.array([4, 5])), seed=0)
    assert rec["extra"]["categorical_seen"] == [True, True]  # not the dataset's [False, True]


def test_warm_up_runs_once_before_computing_and_not_when_all_is_stored(tmp_path):
    algo = {"name": "nb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    first = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False)
    assert first.warmed_up is True and first.computed == 2
    assert all(r["warmup"] is True for r in first.records)
    again = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False)
    assert again.warmed_up is None and again.reused == 2
    off = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, rerun=True, warmup=False)
    assert off.warmed_up is None and off.computed == 2
