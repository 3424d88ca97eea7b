"""The two report checks that explain open failures, on hand-made inputs:

* ``bench.papers.ande_sr.sr_check`` (AN04): per-dataset sums of the subsumption probe's records, the
  same-deletions and same-error checks, and the counts its note words;
* ``bench.papers.mctree.yardstick`` (MC05a/b, MC08): accuracies at equal time read as step functions of
  each curve, and the side the note names for each combination of the two trees' behaviour."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from bench.papers.ande_sr import sr_check
from bench.papers.mctree import yardstick


# --------------------------------------------------------------------------- sr_check
def _probe_rec(ds, algo, fold, dele, single, changed, err, zero=None):
    return {"dataset": ds, "algo": algo, "repeat": 0, "fold": fold, "metrics.error": err, "status": "ok",
            "extra.sr_test_rows": 10, "extra.sr_rows_with_deletion": min(dele, 10), "extra.sr_deletions": dele,
            "extra.sr_deletions_single_valued": single, "extra.sr_deletions_zero_mi": single if zero is None else zero,
            "extra.sr_argmax_changed": changed, "extra.sr_max_abs_change": 0.1 * changed}


def _records():
    rows, models = [], []
    # "flat": only single-valued deletions, inert under weighting; "rich": multi-valued ones that act;
    # "none": nothing deleted
    for fold in (0, 1):
        for algo, model in (("a1de_s_probe", "a1de_s"), ("a1de_sw_probe", "a1de_sw")):
            sw = algo == "a1de_sw_probe"
            rows += [_probe_rec("flat", algo, fold, 6, 6, 0 if sw else 2, 0.2 + fold),
                     _probe_rec("rich", algo, fold, 5, 1, 3, 0.3),
                     _probe_rec("none", algo, fold, 0, 0, 0, 0.1)]
            models += [{"dataset": d, "algo": model, "repeat": 0, "fold": fold, "metrics.error": e}
                       for d, e in (("flat", 0.2 + fold), ("rich", 0.3), ("none", 0.1))]
    bias = pd.DataFrame({"a1de": [0.30, 0.20, 0.10], "a1de_s": [0.28, 0.19, 0.10],
                         "a1de_w": [0.25, 0.18, 0.10], "a1de_sw": [0.25, 0.185, 0.10]},
                        index=["flat", "rich", "none"])
    return pd.DataFrame(rows), pd.DataFrame(models), bias


def test_sr_check_sums_checks_and_counts():
    recs, models, bias = _records()
    t = sr_check.per_dataset(recs, models, bias).set_index("dataset")
    assert t.at["flat", "sr_deletions_sw"] == 12 and t.at["flat", "sr_argmax_changed_s"] == 4
    assert t.at["flat", "sr_argmax_changed_sw"] == 0 and t.at["rich", "sr_deletions_single_valued_sw"] == 2
    assert t["same_deletions"].all() and t.filter(like="same_error_as_").all().all()
    assert t.at["flat", "bias_change_s"] == pytest.approx(-0.02) and t.at["flat", "bias_change_sw"] == 0
    s = sr_check.summary(t.reset_index())
    assert (s["with_deletion"], s["all_single"], s["quiet_sw"], s["quiet_sw_all_single"]) == (2, 1, 1, 1)
    assert (s["multi"], s["multi_moved_sw"]) == (1, 1)
    assert s["bias_moved_s_draw_sw"] == ["flat"]
    assert (s["bias_wins_sw"], s["bias_draw_sw"], s["bias_losses_sw"]) == (0, 2, 1)
    assert "flat" in sr_check.note_from(s) and "differ" not in sr_check.note_from(s)


def test_sr_check_flags_a_probe_that_is_not_the_model():
    recs, models, bias = _records()
    models.loc[(models["dataset"] == "rich") & (models["algo"] == "a1de_sw"), "metrics.error"] = 0.31
    t = sr_check.per_dataset(recs, models, bias)
    assert not t.set_index("dataset").at["rich", "same_error_as_a1de_sw"]
    assert "runs not comparable" in sr_check.note_from(sr_check.summary(t))
    recs.loc[(recs["dataset"] == "rich") & (recs["algo"] == "a1de_sw_probe"), "extra.sr_deletions"] = 4
    assert not sr_check.per_dataset(recs, models, bias).set_index("dataset").at["rich", "same_deletions"]


# --------------------------------------------------------------------------- yardstick
def _curve_rec(ds, algo, fold, points):
    """points: [(budget, accuracy, seconds)]; units 0 (the prior) where seconds is None."""
    mbb = [{"budget": float(b), "accuracy": a, "mean_units": 0.0 if t is None else b,
            "mean_seconds": 0.0 if t is None else t} for b, a, t in points]
    return {"dataset": ds, "algo": algo, "repeat": 0, "fold": fold, "status": "ok",
            "metrics_by_budget": json.dumps(mbb)}


def _yard(bt_late, mc_late):
    """The Bayes tree answers from 30 Gaussians; NN at 0.9 from 1e-6 s on; the trees' later accuracies given."""
    rows = []
    for fold in (0, 1):
        rows.append(_curve_rec("d", "anytime_nn", fold, [(1, 0.5, 1e-7), (10, 0.9, 1e-6)]))
        bt = [(20, 0.1, None), (30, 0.95, 2e-6)] + [(b, bt_late, b * 1e-7) for b in (50, 75, 100, 200, 500, 1000,
                                                                                   2000, 5000)]
        rows.append(_curve_rec("d", "bayestree", fold, bt))
        rows.append(_curve_rec("d", "mctree_inf", fold, [(1, mc_late, 1e-8)]))
    return pd.DataFrame(rows)


def test_yardstick_reads_each_curve_at_the_bayes_trees_times():
    t = yardstick.at_equal_time(yardstick.curves(_yard(0.85, 0.88)))
    first = t.iloc[0]
    assert first["bt_budget"] == 30 and first["seconds"] == pytest.approx(2e-6)
    assert (first["nn"], first["bt"], first["mc"]) == pytest.approx((90.0, 95.0, 88.0))
    assert list(t["bt_budget"]) == [30, 50, 75, 100, 200, 500, 1000, 2000, 5000]
    assert np.allclose(t["bt_minus_nn"].iloc[1:], -5.0)


@pytest.mark.parametrize("bt_late, mc_late, side", [
    (0.85, 0.80, "side of MC-Tree"),          # Bayes tree behind NN as in the paper, MC-Tree 10 points behind NN
    (0.92, 0.89, "side of the Bayes tree"),   # Bayes tree ahead of NN, MC-Tree similar to NN
    (0.92, 0.80, "side of both trees"),
    (0.85, 0.95, "neither tree")])
def test_yardstick_names_the_side_that_departs_from_the_paper(bt_late, mc_late, side):
    t = yardstick.at_equal_time(yardstick.curves(_yard(bt_late, mc_late)))
    assert side in yardstick.note_for(t, "d")
    assert yardstick.note_for(t, "other") == ""
    assert yardstick.at_equal_time(yardstick.curves(pd.DataFrame(columns=["dataset", "algo"]))).empty
