"""Kohavi-Wolpert bias-variance by repeated cross-validation: a hand-computed case, the
sum-equals-loss identity, and the path from stored records."""

import numpy as np
import pytest

from bench.stats.biasvar import (bias_variance_table, decompose, decompose_records, kohavi_wolpert_terms,
                                 prediction_counts)
from bench.report.synthetic import write_fake_run
from bench.store import load

CV3X2 = {"name": "cv3x2", "kind": "kfold", "n_splits": 2, "n_repeats": 3}
CV1X2 = {"name": "cv1x2", "kind": "kfold", "n_splits": 2, "n_repeats": 1}


def test_hand_computed_three_instances_four_rounds():
    # instance 0 (y=0): predicted 0,0,0,0 -> p_H = (1, 0, 0): bias 0, variance 0
    # instance 1 (y=1): predicted 1,1,0,2 -> p_H = (.25,.5,.25): bias .5*(.0625+.25+.0625) = .1875,
    #                                        variance .5*(1-.375) = .3125, loss .5
    # instance 2 (y=2): predicted 0,0,0,1 -> p_H = (.75,.25,0): bias .5*(.5625+.0625+1) = .8125,
    #                                        variance .5*(1-.625) = .1875, loss 1
    y = np.array([0, 1, 2])
    rounds = [[0, 1, 0], [0, 1, 0], [0, 0, 0], [0, 2, 1]]
    preds = [(np.arange(3), np.array(r)) for r in rounds]
    bias, var, loss, L = kohavi_wolpert_terms(prediction_counts(preds, 3, 3), y)
    np.testing.assert_allclose(bias, [0.0, 0.1875, 0.8125])
    np.testing.assert_allclose(var, [0.0, 0.3125, 0.1875])
    np.testing.assert_allclose(loss, [0.0, 0.5, 1.0])
    assert L.tolist() == [4, 4, 4]
    bv = decompose(preds, y, 3)
    assert bv.bias == pytest.approx(1 / 3) and bv.variance == pytest.approx(1 / 6)
    assert bv.loss == pytest.approx(0.5) and bv.noise == 0.0
    assert bv.bias + bv.variance + bv.noise == pytest.approx(bv.loss)


def test_unbiased_correction_matches_weka_bias_and_keeps_the_sum():
    # Weka's BVDecompose: bias = 1/2 sum_c [(a_c - p_c)^2 - p_c (1 - p_c) / (L - 1)]
    y = np.array([0, 1, 2])
    rounds = [[0, 1, 0], [0, 1, 0], [0, 0, 0], [0, 2, 1]]
    preds = [(np.arange(3), np.array(r)) for r in rounds]
    bias, var, loss, _ = kohavi_wolpert_terms(prediction_counts(preds, 3, 3), y, "unbiased")
    p1 = np.array([0.25, 0.5, 0.25])
    weka1 = 0.5 * (np.sum((np.array([0, 1, 0]) - p1) ** 2) - np.sum(p1 * (1 - p1)) / 3)
    assert bias[1] == pytest.approx(weka1) == pytest.approx(1 / 12)
    assert var[1] == pytest.approx(0.3125 * 4 / 3)
    np.testing.assert_allclose(bias + var, loss)


def test_sum_equals_mean_zero_one_loss_on_random_predictions():
    rng = np.random.default_rng(3)
    n, c, rounds = 200, 4, 7
    y = rng.integers(0, c, n)
    preds = []
    for _ in range(rounds):
        perm = rng.permutation(n)
        for fold in np.array_split(perm, 2):   # 2-fold: every instance once per round
            pred = np.where(rng.random(fold.size) < 0.6, y[fold], rng.integers(0, c, fold.size))
            preds.append((fold, pred))
    bv = decompose(preds, y, c)
    wrong = sum(int(np.sum(p != y[i])) for i, p in preds)
    assert bv.loss == pytest.approx(wrong / (n * rounds))
    assert bv.bias + bv.variance == pytest.approx(bv.loss, abs=1e-12)
    assert bv.rounds_min == bv.rounds_max == rounds
    assert 0 < bv.variance < bv.loss


def test_from_stored_records(tmp_path):
    # 3 rounds of 2-fold CV of two learners on a 10-instance dataset, written through bench.store.Store
    write_fake_run(tmp_path, "exp", "toy", "good", n=10, n_classes=2, protocol=CV3X2, quality=1.0, rng_seed=1)
    write_fake_run(tmp_path, "exp", "toy", "noisy", n=10, n_classes=2, protocol=CV3X2, quality=0.6, rng_seed=2)
    df = load(tmp_path, experiment="exp")
    good = decompose_records(df[df["algo"] == "good"])
    assert good.loss == 0.0 and good.bias == 0.0 and good.variance == 0.0 and good.rounds_min == 3
    noisy = decompose_records(df[df["algo"] == "noisy"])
    errs = df[df["algo"] == "noisy"]
    pooled = (errs["metrics.error"] * errs["n_test"]).sum() / errs["n_test"].sum()
    assert noisy.loss == pytest.approx(pooled)        # every instance tested once per round
    assert noisy.bias + noisy.variance == pytest.approx(noisy.loss)
    table = bias_variance_table(df)
    assert sorted(table["algo"]) == ["good", "noisy"] and (table["rounds_min"] == 3).all()


def test_a_single_round_is_refused(tmp_path):
    write_fake_run(tmp_path, "exp", "toy", "one", n=10, n_classes=2, protocol=CV1X2, quality=0.7, rng_seed=0)
    df = load(tmp_path, experiment="exp")
    with pytest.raises(ValueError, match="at least 2 rounds"):
        decompose_records(df)
    assert bias_variance_table(df).empty


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="test indices"):
        prediction_counts([(np.arange(3), np.arange(2))], 3, 3)
    with pytest.raises(ValueError, match="correction"):
        kohavi_wolpert_terms(np.ones((2, 2)), np.array([0, 1]), "weird")
