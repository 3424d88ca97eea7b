"""Weka run by Weka on the harness's folds: every split of a dataset in one JVM (bench.weka.batch) and the
experiment driver that stores its records (bench.weka.experiment, ``driver: weka``).

The one-JVM batch is checked against the one-split bridge (``bench.weka.run``, ``run_bayesnet``): the same
probabilities bit for bit and the same parents; the records against the runner's keys for the same data and
protocol and against the metrics recomputed from the stored probabilities."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bench import metrics as M
from bench import weka
from bench.data import load
from bench.experiment_plan import experiment_config, plan
from bench.protocols import resolve, splits
from bench.weka.batch import SplitResult
from bench.weka.folds import _protocol

needs_weka = pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
RF = ("weka.classifiers.trees.RandomForest", ["-I", "10", "-K", "0", "-S", "{seed}"])
K2 = ["-D", "-Q", "weka.classifiers.bayes.net.search.local.K2", "--", "-P", "100", "-N", "-S", "BAYES",
      "-E", "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"]
MDL = ("weka.filters.supervised.attribute.Discretize", [])


def _splits(name: str, protocol: str, n: int):
    ds = load(name)
    return ds, list(splits(ds.y, resolve(_protocol(protocol), ds.name), 0))[:n]


def test_table_cells_hand_computed():
    # node 0: 3 values, parent 2 (4 values); node 1: 2 values, parents 0 and 2; node 2: 4 values, no parent
    r = SplitResult(0, 0, np.empty((0, 0)), {}, [(0, 3, [2]), (1, 2, [0, 2]), (2, 4, [])])
    assert r.table_cells() == [12, 24, 4]


def test_weka_experiments_plan_their_declared_learners():
    for name, algo in (("ande_sr_weka_rf", "rf10_wekajar"), ("massbayes_bayesnet_weka", "bayesnet_k2_wekajar")):
        p = plan(name, "medium")
        assert p["algos"] == [algo] and not p["missing_algos"]


def test_a_weka_learner_without_a_classifier_is_refused():
    from bench.weka.experiment import weka_algos

    with pytest.raises(SystemExit, match="needs a `classifier`"):
        weka_algos({"name": "x", "weka": {"broken": {"options": ["-I", "10"]}}})


@needs_weka
def test_one_jvm_equals_one_split_at_a_time_random_forest():
    from bench.weka.batch import run_splits

    ds, sp = _splits("labor", "cv20x2", 4)
    seeds = [11, 12, 13, 14]
    got = run_splits(ds, sp, seeds, RF[0], RF[1])
    for s, r, seed in zip(sp, got, seeds):
        one = weka.run(ds, s.train, s.test, RF[0], [o.replace("{seed}", str(seed)) for o in RF[1]])
        assert (r.repeat, r.fold) == (s.repeat, s.fold)
        np.testing.assert_array_equal(r.proba, one.proba)
        assert r.times["train_cpu_s"] >= 0 and r.times["test_wall_s"] >= 0
        assert not r.structure


@needs_weka
def test_one_jvm_bayesnet_structure_equals_the_one_split_driver():
    from bench.weka.batch import run_splits
    from bench.weka.bayesnet import run_bayesnet

    ds, sp = _splits("hepatitis", "cv2", 2)
    got = run_splits(ds, sp, [0, 0], "weka.classifiers.bayes.BayesNet", K2, filter=MDL)
    for s, r in zip(sp, got):
        one = run_bayesnet(ds, s.train, s.test, K2, filter=MDL)
        assert [p for _, _, p in r.structure] == one.parents
        np.testing.assert_array_equal(r.proba, one.proba)
        assert len(r.table_cells()) == ds.n_features + 1


@needs_weka
def test_records_are_keyed_as_the_runners_and_reused(tmp_path):
    from bench.runner import run_job
    from bench.store import load as load_records, load_predictions
    from bench.weka.experiment import run_dataset, weka_algos
    from bench.experiment_plan import algo_config
    from bench.data.registry import dataset_config

    cfg = weka_algos(experiment_config("ande_sr_weka_rf"))["rf10_wekajar"]
    computed, reused, _ = run_dataset("t_weka", "labor", cfg, "cv2", 0, tmp_path)
    assert (computed, reused) == (2, 0)
    assert run_dataset("t_weka", "labor", cfg, "cv2", 0, tmp_path)[:2] == (0, 2)
    run_job(algo_config("nb"), dataset_config("labor"), _protocol("cv2"), 0, "t_nb", str(tmp_path), progress=False,
            warmup=False, mem_limit_gb=None)
    w = load_records(tmp_path, experiment="t_weka").sort_values("fold")
    n = load_records(tmp_path, experiment="t_nb").sort_values("fold")
    for k in ("data_key", "protocol_key", "dataset_sha256", "n_train", "n_test"):
        assert list(w[k]) == list(n[k]), k
    for rw, rn in zip(w.to_dict("records"), n.to_dict("records")):
        pw, pn = load_predictions(rw), load_predictions(rn)
        np.testing.assert_array_equal(pw["test_index"], pn["test_index"])
        assert rw["metrics.error"] == M.all_metrics(pw["y_true"], pw["proba"])["error"]
        assert rw["status"] == "ok" and rw["algo"] == "rf10_wekajar" and rw["code_files"]["weka.jar"]


def _bn_records():
    """Two folds of Weka's BayesNet on one data set: 2 attributes whose only parent is the class (node 2)."""
    rows = []
    for f, (tr, te) in enumerate(((2.0, 0.5), (4.0, 0.5))):
        rows.append({"dataset": "onebig", "algo": "bayesnet_k2_wekajar", "fold": f, "status": "ok",
                     "times.train_cpu_s": tr, "times.test_cpu_s": te, "metrics.error": 0.01 * f,
                     "extra.n_arcs": 2, "extra.max_parents": 1, "extra.family_cells": 3 * 10 + 4 * 10 + 10,
                     "extra.parents": [[2], [2], []]})
    return pd.DataFrame(rows)


def _table5_facts():
    from bench.report.facts import Facts

    f = Facts("massbayes")
    t5 = pd.DataFrame([["OneBig", "onebig", a, 10, ours, 0.0, pub, np.nan] for a, ours, pub in
                       (("BayesNet", 1.0, 400.0), ("MassBayes", 2.0, 10.0), ("MassBayes'", 30.0, 100.0))],
                      columns=["dataset", "ours_dataset", "algorithm", "folds", "ours_s", "discretisation_s",
                               "published_s", "published/ours"])
    f.add_table("table5_runtime_long", t5, "massbayes/table5_runtime_long.csv")
    return f


def test_bayesnet_weka_table_hand_computed(tmp_path):
    from bench.papers.massbayes.bayesnet_weka import FACT, report

    facts = _table5_facts()
    files = report(_bn_records(), {"protocol": "cv10"}, tmp_path, facts)
    assert files and (tmp_path / f"{FACT}.csv").exists()
    r = facts.table(FACT).iloc[0]
    assert r["dataset"] == "OneBig" and r["folds"] == 2
    assert r["weka_s"] == 3.5                      # (2 + 0.5 + 4 + 0.5) / 2 per fold
    assert r["paper_s"] == 40.0 and r["bench_s"] == 0.1 and r["massbayes_s"] == 0.2   # Table 5 totals / 10
    assert r["paper/weka"] == 40.0 / 3.5
    assert r["bn/mb_weka"] == 3.5 / 0.2 and r["bn/mb_paper"] == 40.0
    assert r["mbp/bn_weka"] == 3.0 / 3.5
    assert r["class_only_parent"] == 1.0 and r["arcs"] == 2 and r["max_parents"] == 1 and r["table_cells"] == 80
    assert abs(r["weka_accuracy"] - 99.5) < 1e-9


def test_bayesnet_cause_names_the_data_set_that_differs():
    from types import SimpleNamespace

    from bench.papers.massbayes.verdicts import bayesnet_cause, weka_bayesnet_row

    row = dict(dataset="OneBig", ours_dataset="onebig", weka_s=3.0, paper_s=43.25, bench_s=0.09,
               **{"paper/weka": 43.25 / 3.0}, arcs=20.0, max_parents=1, table_cells=500.0, class_only_parent=1.0,
               **{"bn/mb_weka": 15.0, "bn/mb_bench": 0.42, "bn/mb_paper": 41.2})
    near = {**row, "dataset": "Shuttle", "ours_dataset": "shuttle_notime", "weka_s": 5.0, "paper_s": 0.68,
            "paper/weka": 0.68 / 5.0 * 10, "class_only_parent": 0.0}
    ev = SimpleNamespace(bn_weka=pd.DataFrame([row, near]))
    assert weka_bayesnet_row(ev, "OneBig")["weka_s"] == 3.0 and weka_bayesnet_row(ev, "Letters") is None
    text = bayesnet_cause(ev)
    assert "OneBig: Weka 3.6's BayesNet" in text and "x14.42" in text and "naive Bayes" in text
    assert "within an order of the paper's times on Shuttle" in text and "more than ten times faster on OneBig" in text
    assert bayesnet_cause(SimpleNamespace(bn_weka=None)) == ""


def test_ande_rf10_claims_state_wekas_own_forest(tmp_path):
    from bench.papers.ande_sr import verdicts as ande_sr
    from bench.report.facts import Facts
    from tests.test_verdicts_papers import _ande_dir, _claims, _wdl_fact

    root = _ande_dir(tmp_path, "30/5/5", "5/0/30")
    f = Facts.of_paper(root, "ande_sr")
    f.add_table("wdl_rf10_wekajar_long", _wdl_fact([("RF10-Weka", "A2DE-SW", "large", "0-1 loss", "9/0/3", "5/1/6")]),
                "ande_sr/wdl_rf10_wekajar_long.csv")
    f.write(root / "ande_sr")
    got = {v.claim_id: v for v in ande_sr.evaluate(root, _claims("ande_sr", "AN15", "AN03"))}
    assert got["AN15"].verdict == "reproduced"                          # bench's RF10: 4/1/7
    assert got["AN15"].extra["rf10_wekajar"].startswith("not reproduced")   # Weka's own forest wins 9/0/3
    assert "Weka 3.6's own RandomForest -I 10 -K 0 run on the same folds in RF10's place: not reproduced" \
        in got["AN15"].reason
    assert "rf10_wekajar" not in got["AN03"].extra                      # no RF10 in AN03
