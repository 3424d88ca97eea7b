"""The default region of practical equivalence (ROPE) of each measure (bench.stats.bayes.default_rope):
the names the papers and bench give a measure find its default, a measure without one is refused with
the names that have one, ``bench compare`` uses each measure's default unless ``--rope`` sets one for
every measure, the report says which, and the verdict pages' note says what "equivalent" means on bias
and variance (parts of the 0-1 loss, whose ROPE they take) and names each comparison's ROPE when they
differ. The probabilities themselves are baycomp's (tests/test_compare_beyond.py,
tests/test_verdicts_bayes_note.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.stats import bayes
from bench.stats.biasvar import decompose
from tests.test_compare_beyond import _records

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name,key", [("error", "error"), ("0-1 loss", "error"), ("error rate", "error"),
                                      ("RMSE", "rmse"), ("rmse", "rmse"), ("log-loss", "log_loss"),
                                      ("log_loss", "log_loss"), ("bias", "bias"), ("variance", "variance"),
                                      ("accuracy", "accuracy")])
def test_every_name_of_a_measure_finds_its_default(name, key):
    assert bayes.rope_measure(name) == key
    assert bayes.default_rope(name) == bayes.DEFAULT_ROPES[key] > 0


def test_a_measure_without_a_default_is_refused_by_name():
    for m in ("train_s", "training time", "peak_rss_mb"):
        assert bayes.rope_measure(m) is None
        with pytest.raises(ValueError, match=f"no default ROPE for the measure '{m}'.*error.*bias"):
            bayes.default_rope(m)


def test_bias_and_variance_take_the_loss_rope_because_they_add_up_to_it():
    """The reason of the default, checked: Kohavi-Wolpert bias + variance is the 0-1 loss, value for value,
    so a difference of bias with equal variance is the same difference of loss; their ROPE is the loss's."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 40)
    preds = np.where(rng.random((7, 40)) < 0.7, y, rng.integers(0, 3, (7, 40)))  # 7 rounds of predictions
    r = decompose([(np.arange(40), p) for p in preds], y, 3)
    assert r.bias + r.variance == pytest.approx(r.loss, abs=1e-12)
    assert r.loss == pytest.approx(np.mean(preds != y), abs=1e-12)
    shipped = ROOT / "reports" / "evidence" / "ande_sr.biasvar.parquet"
    if shipped.exists():        # and on the A2DE paper's evidence, whose W/D/L claims on bias and variance get the note
        bv = pd.read_parquet(shipped)
        assert len(bv) > 500 and np.allclose(bv["bias"] + bv["variance"], bv["loss"], rtol=0, atol=1e-12)
    assert bayes.default_rope("bias") == bayes.default_rope("variance") == bayes.default_rope("0-1 loss")
    assert set(bayes.ROPE_READING) == {"bias", "variance"}


def _analyse(ropes=None):
    from bench.compare.analysis import analyse

    rng = np.random.default_rng(4)
    base = rng.uniform(0.1, 0.3, (8, 1)) + rng.normal(0, 0.01, (8, 4))
    vals = {"base": base, "other": base + rng.normal(0.003, 0.004, (8, 4))}
    return vals, analyse(_records(vals, 40, 60), list(vals), "base", [0], ropes=ropes)


def test_compare_takes_each_measure_default_and_rope_overrides_it_for_all(monkeypatch):
    monkeypatch.setitem(bayes.DEFAULT_ROPES, "rmse", 0.02)
    monkeypatch.setitem(bayes.DEFAULT_ROPES, "log_loss", 0.05)
    vals, c = _analyse()
    got = c.bayes.groupby("measure")["rope"].agg(lambda r: sorted(set(r))).to_dict()
    assert got == {"error": [bayes.DEFAULT_ROPES["error"]], "rmse": [0.02], "log_loss": [0.05]}
    assert c.ropes == [bayes.DEFAULT_ROPES["error"]]
    assert set(c.bayes_datasets["rope"]) == {bayes.DEFAULT_ROPES["error"]}    # the per-dataset test is on error
    # the probabilities on RMSE are the test's at RMSE's own ROPE (the records' RMSE is twice the error)
    r = c.bayes.query("measure == 'rmse'").iloc[0]
    means = {k: 2 * v.mean(axis=1) for k, v in vals.items()}
    ref = bayes.signed_rank(means["other"], means["base"], 0.02)
    assert (r.p_algorithm, r.p_rope, r.p_baseline) == pytest.approx((ref.p_a, ref.p_rope, ref.p_b))
    from bench.compare.report import rope_text

    assert rope_text(c) == "error 0.01, RMSE 0.02, log-loss 0.05"
    _, c2 = _analyse([0.004, 0.03])
    assert c2.bayes.groupby("measure")["rope"].agg(lambda r: sorted(set(r))).to_dict() == {
        m: [0.004, 0.03] for m in ("error", "rmse", "log_loss")}
    assert rope_text(c2) == "error 0.004/0.03, RMSE 0.004/0.03, log-loss 0.004/0.03"


def _pair(seed, n=30, shift=0.002):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.05, 0.3, n)
    return a, a + rng.normal(shift, 0.003, n)


def test_the_note_says_what_equivalent_means_on_bias_and_variance_only():
    from bench.report.verdicts import bayes_note

    on_bias = bayes_note.note([("A vs B bias", "A", "B", _pair(1), "bias"),
                               ("A vs B variance", "A", "B", _pair(2), "variance")])
    reading = bayes.ROPE_READING["bias"]
    assert on_bias.startswith(f"Bayesian signed-rank (ROPE 0.01, information only; {reading}; P(row better)")
    assert on_bias.count(reading) == 1
    on_error = bayes_note.note([("A vs B 0-1 loss", "A", "B", _pair(1), "0-1 loss")])
    assert on_error.startswith("Bayesian signed-rank (ROPE 0.01, information only): A vs B 0-1 loss: P(A better)")
    assert "part of the 0-1 loss" not in on_error
    # a measure without a default ROPE gets no note (a time: no ROPE chosen for it)
    assert bayes_note.probabilities(_pair(3), "training time") is None
    assert bayes_note.note([("A vs B time", "A", "B", _pair(3), "training time")]) == ""


def test_the_note_names_each_comparison_rope_when_the_defaults_differ(monkeypatch):
    from bench.report.verdicts import bayes_note

    monkeypatch.setitem(bayes.DEFAULT_ROPES, "rmse", 0.02)
    bayes_note._probs.cache_clear()
    n = bayes_note.note([("A vs B 0-1 loss", "A", "B", _pair(4), "0-1 loss"),
                         ("A vs B RMSE", "A", "B", _pair(4), "RMSE")])
    e = bayes.signed_rank(*_pair(4), 0.01)
    r = bayes.signed_rank(*_pair(4), 0.02)
    assert n == ("Bayesian signed-rank (ROPE per comparison, information only; P(row better)/P(equivalent)/"
                 f"P(column better)): A vs B 0-1 loss (ROPE 0.01) {e.p_a:.2f}/{e.p_rope:.2f}/{e.p_b:.2f}; "
                 f"A vs B RMSE (ROPE 0.02) {r.p_a:.2f}/{r.p_rope:.2f}/{r.p_b:.2f}")
