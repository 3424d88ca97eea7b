"""WAODE with Weka 3.6's mutual-information rule (``AnDE(mi_min_prob=1e-6)``, conf/algo/waode.yaml).

Weka's WAODE computes each attribute's MI with the class through ``log2(a, b)``, which returns 0
when ``a = p(x, y) < 1e-6`` or ``b = p(x) p(y) < 1e-6``. A hand-computed MI where one cell falls
under the rule; a constructed dataset with two rare classes where the rule changes the weights,
compared with Weka 3.6 WAODE itself (skipped without Weka); the ``missing='error'`` rule.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from omegaconf import OmegaConf

from algorithms._base import NotApplicableError
from algorithms.ande import AnDE

WAODE_CONF = OmegaConf.to_container(OmegaConf.load(Path(__file__).parents[1] / "conf/algo/waode.yaml"), resolve=True)


def waode(**meta):
    params = {k: v for k, v in WAODE_CONF["estimator"].items() if k != "_target_"}
    return AnDE(**params, **meta)


def test_waode_config_is_weka_waode():
    est = waode()
    assert (est.n, est.smoothing, est.m, est.weighting, est.min_parent_count) == (1, "m_estimate", 1.0, "mi", 0)
    assert est.mi_min_prob == 1e-6 and est.missing == "error" and not est.subsumption


def test_mi_by_hand_with_the_1e6_rule():
    # N = 2000; class 1 is one row (p = 5e-4); value 1 of x0 occurs 3 times (p = 1.5e-3), once with class 1:
    # cell (x0=1, y=1) has p(x)p(y) = 7.5e-7 < 1e-6, so Weka leaves it out of MI(x0; Y)
    N = 2000
    x0 = np.zeros(N)
    x0[:3] = 1
    y = np.zeros(N, dtype=int)
    y[0] = 1
    x1 = (np.arange(N) % 2).astype(float)          # independent of y except for row 0
    X = np.column_stack([x0, x1])
    cells = {(0, 0): 1997, (1, 0): 2, (1, 1): 1}     # (x0 value, class): count
    px = {0: 1997 / N, 1: 3 / N}
    py = {0: 1999 / N, 1: 1 / N}

    def mi(rule):
        tot = 0.0
        for (v, c), k in cells.items():
            p, q = k / N, px[v] * py[c]
            if not rule or (p >= 1e-6 and q >= 1e-6):
                tot += p * math.log2(p / q)
        return tot

    assert mi(True) < mi(False) - 1e-4          # the dropped cell carries a real share of the MI
    weka = waode(n_categories=[2, 2]).fit(X, y)
    plain = AnDE(n=1, weighting="mi", min_parent_count=0, n_categories=[2, 2]).fit(X, y)
    s0 = weka.counts_.set_index([0])
    assert weka.weights_[s0] == pytest.approx(mi(True), rel=1e-13)
    assert plain.weights_[s0] == pytest.approx(mi(False), rel=1e-13)
    # x1: every cell passes the rule (p(x) p(y) >= 0.5 * 5e-4), so both rules agree exactly
    s1 = weka.counts_.set_index([1])
    assert weka.weights_[s1] == pytest.approx(plain.weights_[s1], rel=1e-12)


def test_missing_values_are_refused_with_the_fix_named():
    X = np.array([[0, 1], [1, np.nan], [1, 0], [0, 0]], dtype=float)
    with pytest.raises(ValueError, match="missing='error'.*WAODE.*missing='value'") as info:
        waode(n_categories=[2, 2]).fit(X, [0, 1, 1, 0])
    # the runner stores such a split as not_applicable (a paper's blank cell), not as a failure
    assert isinstance(info.value, NotApplicableError)
    est = waode(n_categories=[2, 2]).fit(np.nan_to_num(X), [0, 1, 1, 0])
    with pytest.raises(ValueError, match="row 0, column 1"):
        est.predict_proba([[0, np.nan]])


def rare_class_data(n=20000, seed=0):
    """Two large classes that the attributes separate, and two rare classes (10 and 13 rows) that
    prefer rare attribute values (so their cells fall under WAODE's 1e-6 rule)."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 0, 1).astype(np.int64)
    y[:10], y[10:23] = 2, 3
    d, k = 6, 6
    X = np.where(y[:, None] == 0, rng.choice(4, size=(n, d), p=[0.4, 0.3, 0.2, 0.1]),
                 rng.choice(4, size=(n, d), p=[0.1, 0.2, 0.3, 0.4])).astype(float)
    rare = rng.random((n, d)) < 0.0015
    X[rare] = rng.integers(4, 6, int(rare.sum()))                         # values 4, 5 are rare
    for c, lo, hi in ((2, 0, 10), (3, 10, 23)):
        X[lo:hi] = np.where(rng.random((hi - lo, d)) < 0.5, 2 + c, X[lo:hi])   # class 2 -> 4, class 3 -> 5
    order = rng.permutation(n)
    return X[order], y[order], k


def test_rare_classes_make_the_rule_matter():
    X, y, k = rare_class_data()
    weka = waode(n_categories=[k] * X.shape[1]).fit(X, y)
    plain = AnDE(n=1, weighting="mi", min_parent_count=0, n_categories=[k] * X.shape[1]).fit(X, y)
    assert np.abs(weka.weights_ - plain.weights_).max() > 1e-3
    T = X[np.isin(y, [1, 2])]
    assert np.abs(weka.predict_proba(T) - plain.predict_proba(T)).max() > 1e-3


@pytest.mark.weka
def test_rare_classes_agree_with_weka_waode():
    from bench import weka
    from bench.data.dataset import Dataset

    if not weka.available():
        pytest.skip("Weka 3.6 not installed (apt-get install weka)")
    X, y, k = rare_class_data()
    d = X.shape[1]
    ds = Dataset("rare_classes", X, y, ["a", "b", "rare10", "rare13"], [f"a{j}" for j in range(d)],
                 np.ones(d, dtype=bool), [[f"v{v}" for v in range(k)] for _ in range(d)],
                 {"source": "synthetic:tests.test_waode.rare_class_data"})
    idx = np.random.default_rng(1).permutation(len(y))
    test = np.sort(np.concatenate([idx[:2000], np.flatnonzero(y > 0)[::2]]))   # half of the rare rows
    train = np.setdiff1d(np.arange(len(y)), test)
    ours = waode(n_categories=[k] * d).fit(X[train], y[train]).predict_proba(X[test])
    plain = AnDE(n=1, weighting="mi", min_parent_count=0, n_categories=[k] * d).fit(X[train], y[train])
    theirs = weka.run(ds, train, test, "weka.classifiers.bayes.WAODE", []).proba
    assert np.abs(ours - theirs).max() < 1e-9
    assert np.array_equal(ours.argmax(1), theirs.argmax(1))
    # without the rule the same model is visibly off Weka on these rows
    assert np.abs(plain.predict_proba(X[test]) - theirs).max() > 1e-4


def one_big_class_data(n=20000, seed=0):
    """One large class and two rare ones on rare values: Weka's rule drops the rare classes' positive
    cells and keeps their negative ones, so an attribute's 'MI' comes out negative."""
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=np.int64)
    y[:10], y[10:23] = 1, 2
    X = rng.choice(4, size=(n, 4), p=[0.4, 0.3, 0.2, 0.1]).astype(float)
    rare = rng.random(X.shape) < 0.0015
    X[rare] = rng.integers(4, 6, int(rare.sum()))
    for c, lo, hi in ((1, 0, 10), (2, 10, 23)):
        X[lo:hi] = np.where(rng.random((hi - lo, 4)) < 0.5, 3 + c, X[lo:hi])
    return X, y, 6


def test_negative_weka_mi_is_floored():
    """Weka mixes with the negative weights and can return 'probabilities' outside [0, 1]; bench
    floors a weight below 1e-100 at 1e-100 (that sub-model drops out) and keeps a distribution."""
    X, y, k = one_big_class_data()
    est = waode(n_categories=[k] * 4).fit(X, y)
    assert min(est.weights_[est.counts_.set_index([j])] for j in range(4)) < 0
    P = est.predict_proba(X[:3000])
    assert (P >= 0).all() and np.allclose(P.sum(1), 1.0)


@pytest.mark.weka
@pytest.mark.slow
@pytest.mark.parametrize("name", ["magic", "pendigits", "shuttle"])
def test_ten_folds_agree_with_weka_waode(name):
    """The waode config against Weka 3.6 WAODE on MDL-discretised data from datasets/, identical 10 folds
    (car, segment and letter are in tests/test_weka_bayes.py)."""
    from bench import weka
    from bench.data import load

    from tests.test_weka_bayes import CASES, agreement_row

    if not weka.available():
        pytest.skip("Weka 3.6 not installed (apt-get install weka)")
    try:
        load(name)
    except Exception as exc:  # datasets/ removed from this checkout
        pytest.skip(f"dataset {name} not available (it ships in datasets/): {exc}")
    row = agreement_row(name, next(c for c in CASES if c[3] == "waode"))
    print(row)
    assert row["max_abs_diff"] < 1e-9, row
    assert row["pred_agree_pct"] == 100.0, row
