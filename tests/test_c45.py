"""J48 (C4.5 with Weka 3.6 J48 defaults): hand-computed split and pruning quantities, missing
values, properties, scikit-learn conformance, and agreement with Weka's J48 on identical folds."""

import math
import pickle

import numpy as np
import pytest
from scipy.stats import norm

from algorithms import _c45_kernels as K
from algorithms.c45 import J48
from bench import weka
from bench.data import load
from bench.protocols import splits

needs_weka = [pytest.mark.weka, pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")]


def entropy_bits(counts):
    counts = np.asarray(counts, dtype=float)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


# --------------------------------------------------------------------------- hand-computed gain ratio
def test_nominal_gain_ratio_by_hand():
    """One nominal attribute with 3 values over 8 rows plus one row with a missing value.
    C4.5: gain = (known share) * (H(Y) - sum_v |D_v|/|D| H(Y|v)) on the known rows; split info
    counts the missing weight as a fourth branch."""
    a = np.array([0, 0, 0, 1, 1, 1, 2, 2, np.nan])
    y = np.array([0, 0, 1, 1, 1, 1, 0, 0, 1])
    rows, w = np.arange(9), np.ones(9)
    valid, gain, ratio = K._nominal_split(a[None, :], y, rows, w, 0, 3, 2, 2, 9.0)
    # known rows: class counts (4, 4); branches (2,1), (0,3), (2,0)
    h = 1.0
    h_cond = 3 / 8 * entropy_bits([2, 1]) + 3 / 8 * 0 + 2 / 8 * 0
    expected_gain = 8 / 9 * (h - h_cond)
    split_info = -(3 / 9 * math.log2(3 / 9) * 2 + 2 / 9 * math.log2(2 / 9) + 1 / 9 * math.log2(1 / 9))
    assert valid
    assert gain == pytest.approx(expected_gain, rel=1e-12)
    assert ratio == pytest.approx(expected_gain / split_info, rel=1e-12)


def test_numeric_gain_ratio_with_mdl_correction_by_hand():
    """Numeric cut: the best of the cuts between distinct values, its gain reduced by
    log2(#cuts)/N, then divided by the split information; the threshold is the midpoint."""
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    y = np.array([0, 0, 0, 0, 1, 0, 1, 1, 1, 1])
    valid, gain, ratio, threshold = K._numeric_split(x, y, np.ones(10), 2, 2, 10.0, True)
    # min split = max(2, 0.1 * 10 / 2) = 2 -> candidate cuts after the 2nd..8th value: 7 cuts
    best = max(1.0 - (k / 10 * entropy_bits(np.bincount(y[:k], minlength=2))
                      + (10 - k) / 10 * entropy_bits(np.bincount(y[k:], minlength=2))) for k in range(2, 9))
    assert best == pytest.approx(1.0 - (4 / 10 * 0 + 6 / 10 * entropy_bits([1, 5])))  # cut after x = 4
    expected_gain = best - math.log2(7) / 10
    assert valid
    assert gain == pytest.approx(expected_gain, rel=1e-12)
    assert ratio == pytest.approx(expected_gain / entropy_bits([4, 6]), rel=1e-12)
    assert threshold == 4.5


def gain_and_ratio_by_hand(a, y, k):
    n = len(y)
    gain, split_info = entropy_bits(np.bincount(y)), 0.0
    for v in range(k):
        m = a == v
        if m.any():
            gain -= m.sum() / n * entropy_bits(np.bincount(y[m]))
            split_info -= m.sum() / n * math.log2(m.sum() / n)
    return gain, gain / split_info


def test_best_split_takes_the_best_gain_ratio_among_attributes_of_at_least_average_gain():
    """Three nominal attributes: a0 has the highest gain, a1 the highest gain ratio but a gain
    below the average, so C4.5 picks a2 (best gain ratio among those of at least average gain)."""
    y = np.array([0] * 6 + [1] * 6)
    a = [np.array([3, 1, 1, 0, 0, 1, 2, 3, 0, 1, 1, 2]), np.array([1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1]),
         np.array([0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1])]
    k = [4, 2, 2]
    by_hand = [gain_and_ratio_by_hand(a[j], y, k[j]) for j in range(3)]
    average = np.mean([g for g, _ in by_hand])
    assert np.argmax([g for g, _ in by_hand]) == 0 and np.argmax([r for _, r in by_hand]) == 1
    assert by_hand[1][0] < average - 1e-3 <= by_hand[2][0]
    columns = np.vstack(a).astype(float)
    rows, w = np.arange(12), np.ones(12)
    for j in range(3):
        valid, gain, ratio = K._nominal_split(columns, y, rows, w, j, k[j], 2, 2, 12.0)
        assert valid and gain == pytest.approx(by_hand[j][0], rel=1e-12) and ratio == pytest.approx(by_hand[j][1])
    no_order = np.zeros((0, 12), np.int32)
    attr, _, class_total, _ = K.best_split(columns, y, rows, w, no_order, np.zeros(0, np.int64), np.full(3, -1),
                                        np.ones(3, bool), np.array(k), 2, 2, 12, True)
    assert attr == 2
    assert class_total.tolist() == [6.0, 6.0]


# --------------------------------------------------------------------------- hand-computed pessimistic errors
def wilson_upper_with_continuity(n, e, cf):
    """Upper limit of the binomial error rate, normal approximation with continuity correction
    (the formula of C4.5 / Weka's Stats.addErrs for 1 <= e < n - 0.5), written independently."""
    z = norm.ppf(1 - cf)
    f = (e + 0.5) / n
    centre = f + z * z / (2 * n)
    half = z * math.sqrt(f * (1 - f) / n + z * z / (4 * n * n))
    return (centre + half) / (1 + z * z / n)


def test_add_errs_by_hand():
    z = norm.ppf(0.75)
    # e = 0: N (1 - CF^(1/N)); Quinlan's C4.5 book gives U_25%(0, 6) = 0.206 per case
    assert K.add_errs(6.0, 0.0, 0.25, z) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)), rel=1e-14)
    assert K.add_errs(6.0, 0.0, 0.25, z) / 6 == pytest.approx(0.206, abs=5e-4)
    # 1 <= e: normal approximation; N = 16, e = 1 -> 16 * 0.15473 - 1 = 1.4757
    expected = 16 * wilson_upper_with_continuity(16, 1, 0.25) - 1
    assert expected == pytest.approx(1.4757, abs=1e-4)
    assert K.add_errs(16.0, 1.0, 0.25, z) == pytest.approx(expected, rel=1e-12)
    # 0 < e < 1: linear between e = 0 and e = 1
    base = 10 * (1 - 0.25 ** 0.1)
    at_one = 10 * wilson_upper_with_continuity(10, 1, 0.25) - 1
    assert K.add_errs(10.0, 0.4, 0.25, z) == pytest.approx(base + 0.4 * (at_one - base), rel=1e-12)
    # e + 0.5 >= N: the rest of the cases
    assert K.add_errs(3.0, 2.7, 0.25, z) == pytest.approx(0.3, rel=1e-12)
    # leaf errors = training errors + addErrs
    assert K.leaf_errors(np.array([14.0, 2.0]), 0.25, z) == pytest.approx(
        2 + 16 * wilson_upper_with_continuity(16, 2, 0.25) - 2, rel=1e-12)


# --------------------------------------------------------------------------- pruning
def test_pruning_removes_a_useless_subtree():
    """The class is 25% noise independent of four 3-valued nominal attributes. The grown tree
    splits on them (each split lowers the training error, so collapsing keeps it), but the
    pessimistic errors of its small leaves exceed those of one leaf: pruning keeps the root only."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (60, 4)).astype(float)
    y = (rng.random(60) < 0.3).astype(int)
    cat = np.ones(4, dtype=bool)
    grown = J48(unpruned=True, categorical_features=cat).fit(X, y)
    pruned = J48(categorical_features=cat).fit(X, y)
    assert grown.n_leaves_ > 5
    assert pruned.n_leaves_ == 1 and pruned.tree_size_ == 1
    assert np.allclose(pruned.predict_proba(X[:3]), np.bincount(y) / 60)


def test_pruning_keeps_a_useful_split_and_prunes_below_it():
    """x0 decides the class up to 25% label noise; three nominal noise attributes grow subtrees
    below it. Pruning keeps the x0 split and removes the noise subtrees."""
    rng = np.random.default_rng(2)
    X = np.column_stack([np.repeat([0.0, 1.0], 60), rng.integers(0, 3, (120, 3))])
    y = X[:, 0].astype(int)
    flip = rng.random(120) < 0.25
    y[flip] = 1 - y[flip]
    cat = np.array([False, True, True, True])
    assert J48(unpruned=True, categorical_features=cat).fit(X, y).n_leaves_ > 10
    m = J48(categorical_features=cat).fit(X, y)
    assert m.tree_size_ == 3 and m.n_leaves_ == 2
    assert m.feature_[0] == 0 and m.threshold_[0] == 0.0  # cut relocated to the training value 0


# --------------------------------------------------------------------------- missing values and nominal branches
def test_missing_values_are_fractional_in_training_and_prediction():
    """The row with a missing value (class 0) goes half to each branch (4 known rows each):
    left leaf (4.5, 0), right leaf (0.5, 4). A test row with a missing value gets half of each."""
    X = np.array([1, 1, 1, 1, 5, 5, 5, 5, np.nan])[:, None]
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0])
    m = J48().fit(X, y)
    assert m.tree_size_ == 3
    proba = m.predict_proba(np.array([[1.0], [5.0], [np.nan]]))
    assert np.allclose(proba[0], [1, 0])
    assert np.allclose(proba[1], [0.5 / 4.5, 4 / 4.5])
    assert np.allclose(proba[2], 0.5 * np.array([1, 0]) + 0.5 * np.array([0.5 / 4.5, 4 / 4.5]))
    assert np.allclose(m.branch_share_[1:3], [0.5, 0.5])


def test_nominal_split_is_multiway_with_empty_branches():
    """A 3-valued nominal column whose value 2 never occurs in training: 3 branches, the empty
    one answers with the parent's class distribution, as J48."""
    X = np.array([[0.0]] * 6 + [[1.0]] * 6)
    y = np.array([0] * 5 + [1] + [1] * 6)
    m = J48(categorical_features=[True], n_categories=[3]).fit(X, y)
    assert m.n_children_[0] == 3 and m.n_leaves_ == 3 and m.tree_size_ == 4
    assert m.empty_.sum() == 1
    assert np.allclose(m.predict_proba([[2.0]]), [[5 / 12, 7 / 12]])
    # indices instead of a mask, and n_categories inferred (2 values -> 2 branches)
    m2 = J48(categorical_features=[0]).fit(X, y)
    assert m2.n_children_[0] == 2
    with pytest.raises(ValueError, match="unseen category"):
        m2.predict([[2.0]])


def test_bad_input_is_named():
    X = np.random.default_rng(0).random((10, 2))
    with pytest.raises(ValueError, match="at least 2 classes"):
        J48().fit(X, np.zeros(10))
    with pytest.raises(ValueError, match="NaN"):
        J48().fit(X, np.r_[np.zeros(5), np.ones(4), np.nan])
    with pytest.raises(ValueError, match="categorical_features has 3 entries"):
        J48(categorical_features=[True, False, False]).fit(X, np.r_[np.zeros(5), np.ones(5)])
    with pytest.raises(ValueError, match="integer codes"):
        J48(categorical_features=[True, False]).fit(X, np.r_[np.zeros(5), np.ones(5)])
    with pytest.raises(ValueError, match="features"):
        J48().fit(X, np.r_[np.zeros(5), np.ones(5)]).predict(np.zeros((2, 3)))


# --------------------------------------------------------------------------- properties
def test_probabilities_sum_to_one_and_fit_is_deterministic():
    ds = load("synth_mixed")  # nominal and numeric columns with NaN
    kw = dict(categorical_features=ds.categorical, n_categories=ds.n_categories)
    a = J48(**kw).fit(ds.X[:400], ds.y[:400])
    b = J48(**kw).fit(ds.X[:400], ds.y[:400])
    p = a.predict_proba(ds.X[400:])
    assert np.all(p >= 0) and np.allclose(p.sum(1), 1.0, atol=1e-12)
    for name in ("feature_", "threshold_", "first_child_", "branch_share_", "value_"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    c = pickle.loads(pickle.dumps(a))
    assert np.array_equal(c.predict_proba(ds.X[400:]), p)
    assert a.diagnostics_ == {"n_leaves": a.n_leaves_, "tree_size": a.tree_size_}


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(J48())


def test_runs_through_the_runner_with_injected_nominal_columns(tmp_path):
    from bench.runner import run_job

    algo = {"name": "j48", "estimator": {"_target_": "algorithms.c45.J48"}}
    job = run_job(algo, "synth_mixed", {"name": "cv2", "kind": "kfold", "n_splits": 2}, 0, "t", str(tmp_path),
                  progress=False)
    assert len(job.records) == 2
    assert all(r["extra"]["n_leaves"] >= 1 for r in job.records)


# --------------------------------------------------------------------------- Weka 3.6 J48
def _agreement(name, n_folds, folds=None, options=("-C", "0.25", "-M", "2"), **params):
    ds = load(name)
    rows = []
    for s in splits(ds.y, {"kind": "kfold", "n_splits": n_folds}, 0):
        if folds is not None and s.fold not in folds:
            continue
        m = J48(categorical_features=ds.categorical, n_categories=ds.n_categories, **params)
        m.fit(ds.X[s.train], ds.y[s.train])
        ours = np.zeros((len(s.test), ds.n_classes))
        ours[:, m.classes_] = m.predict_proba(ds.X[s.test])
        r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.J48", list(options),
                     measures=["measureNumLeaves", "measureTreeSize"])
        rows.append({"ours": ours, "weka": r.proba, "y": ds.y[s.test], "leaves": (m.n_leaves_,
                     r.measures["measureNumLeaves"]), "size": (m.tree_size_, r.measures["measureTreeSize"])})
    return rows


@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
def test_same_trees_as_weka_j48_on_car_and_with_missing_values():
    """Nominal data (car, 10 folds) and mixed data with NaN (synth_mixed): the same trees as
    Weka 3.6 J48 -C 0.25 -M 2 (leaf and node counts) and the same distributions."""
    for name, n_folds in (("car", 10), ("synth_mixed", 3)):
        for r in _agreement(name, n_folds):
            assert r["leaves"][0] == r["leaves"][1] and r["size"][0] == r["size"][1]
            assert np.allclose(r["ours"], r["weka"], atol=1e-9)


@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
def test_weka_bridge_returns_measures_and_model_text():
    ds = load("sk_iris")
    idx = np.arange(ds.n_instances)
    r = weka.run(ds, idx[::2], idx[1::2], "weka.classifiers.trees.J48", ["-C", "0.25", "-M", "2"],
                 measures=["measureNumLeaves", "measureTreeSize"], model_text=True)
    assert "J48 pruned tree" in r.model_text
    leaves = int(r.model_text.split("Number of Leaves")[1].split()[1])
    size = int(r.model_text.split("Size of the tree")[1].split()[1])
    assert r.measures == {"measureNumLeaves": leaves, "measureTreeSize": size}
    m = J48().fit(ds.X[idx[::2]], ds.y[idx[::2]])
    assert (m.n_leaves_, m.tree_size_) == (leaves, size)
    plain = weka.run(ds, idx[::2], idx[1::2], "weka.classifiers.trees.J48")
    assert plain.measures == {} and plain.model_text is None


@pytest.mark.slow
@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
@pytest.mark.parametrize("name", ["letter", "segment", "car", "magic"])
def test_weka_j48_agreement_10_fold(name):
    """The issue's bar: error within 1 point of Weka J48 on identical 10 folds, leaf counts of
    the same order. What we get is stronger; assert >= 99.9% identical predictions."""
    rows = _agreement(name, 10)
    err_ours = np.mean([np.mean(np.argmax(r["ours"], 1) != r["y"]) for r in rows])
    err_weka = np.mean([np.mean(np.argmax(r["weka"], 1) != r["y"]) for r in rows])
    agree = np.mean(np.concatenate([np.argmax(r["ours"], 1) == np.argmax(r["weka"], 1) for r in rows]))
    assert abs(err_ours - err_weka) < 0.01
    assert agree >= 0.999
    for r in rows:
        assert 0.5 <= r["leaves"][0] / r["leaves"][1] <= 2
