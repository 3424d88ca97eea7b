"""`make smoke` (conf/experiment/smoke.yaml) runs every conf/algo config with at least one ok split.

The cheap check: the smoke plan lists every config, and every ECOC config's code applies to one of
its datasets by ECOC's own rule (a BCH code of n bits needs n <= 2^(k-1) - 1 valid columns and
at most 2^m classes, algorithms.ecoc.bch_code_matrix; the other codes are built here), which is
what left 33 of 35 ECOC configs `not_applicable` on two 3-class datasets. The slow test
(tests/test_cli.py::test_smoke_experiment_driver) runs the experiment and checks the statuses."""

import numpy as np

from algorithms.ecoc import BCH_CODES, make_code_matrix, max_distinct_columns
from bench.data import load
from bench.experiment_plan import algo_config, algo_names, plan


def _applies(est: dict, k: int) -> bool:
    code = est.get("code", "bch")
    if code == "bch":
        n = int(est.get("code_length", 15))
        return n <= max_distinct_columns(k) and k <= 2 ** BCH_CODES[n][0]
    make_code_matrix(code, k, est.get("code_length"), np.random.default_rng(0))  # ova/ovo/random: cheap
    return True


def test_smoke_plan_runs_every_algorithm_and_every_ecoc_code_applies():
    p = plan("smoke", "smoke")
    assert p["algos"] == algo_names() and not p["missing_algos"] and not p["missing_datasets"]
    classes = {ds: load(ds).n_classes for ds in p["datasets"]}
    assert max(classes.values()) == 12, classes
    ecoc = [a for a in p["algos"] if str(algo_config(a)["estimator"]["_target_"]).startswith("algorithms.ecoc.")
            and "code" in algo_config(a)["estimator"]]             # OnePassNaiveBayes (plain NB) has no code
    assert len(ecoc) == 37, ecoc     # 35 + the two shared-pass timing configs (ecocnb_*_b31_shared)
    never = [a for a in ecoc if not any(_applies(algo_config(a)["estimator"], k) for k in classes.values())]
    assert not never, f"ECOC configs with no applicable smoke dataset: {never}"


def test_the_many_classes_set_has_what_the_smoke_run_needs():
    ds = load("synth_many_classes")
    assert (ds.n_instances, ds.n_features, ds.n_classes) == (360, 8, 12)
    assert ds.categorical.sum() == 4 and 0 < ds.missing_fraction() < 0.05
    assert (ds.class_counts() == 30).all()      # balanced: every class in both folds of cv2
    again = load("synth_many_classes", use_memo=False)          # deterministic
    np.testing.assert_array_equal(np.nan_to_num(ds.X, nan=-1), np.nan_to_num(again.X, nan=-1))
