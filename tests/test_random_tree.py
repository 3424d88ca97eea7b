"""Weka 3.6 RandomForest / RandomTree (``algorithms.random_tree``): hand-computed trees, Weka's
rules (multiway nominal splits, midpoint cuts, no split without positive gain, drawing on past K,
fractional missing values), determinism, scikit-learn conformance, exact agreement with Weka's
deterministic ``RandomTree -K M`` and statistical agreement with ``RandomForest -I 10``."""

import math

import numpy as np
import pytest

from algorithms import _random_tree_kernels as K
from algorithms.random_tree import RandomForestWeka, weka_k
from bench import weka

needs_weka = [pytest.mark.weka, pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")]


def entropy_bits(counts):
    counts = np.asarray(counts, dtype=float)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


def info_gain(table):
    """H(class) - H(class | branch) of a (branch x class) weight table, in bits."""
    table = np.asarray(table, dtype=float)
    n = table.sum()
    cond = sum(r.sum() / n * entropy_bits(r) for r in table if r.sum() > 0)
    return entropy_bits(table.sum(axis=0)) - cond


def single_tree(**kw):
    kw.setdefault("random_state", 0)
    return RandomForestWeka(n_estimators=1, bootstrap=False, **kw)


# a0: nominal with 3 values, a1: numeric
A0 = np.array([0, 0, 0, 1, 1, 1, 2, 2], dtype=float)
A1 = np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=float)
Y = np.array([0, 0, 1, 1, 1, 1, 0, 0])
X_SMALL = np.column_stack([A0, A1])


# --------------------------------------------------------------------------- hand-computed cases
def test_gain_kernel_matches_information_gain_by_hand():
    table = np.array([[2.0, 1.0], [0.0, 3.0], [2.0, 0.0]])
    assert K._gain(table, 3, 2) == pytest.approx(info_gain(table), rel=1e-12)
    assert K._gain(np.zeros((2, 3)), 2, 3) == 0.0


def test_hand_computed_tree_with_all_attributes_and_no_bagging():
    """K = M = 2 on 8 rows. Root: a0 (3-way) has gain H(4,4) - 3/8 H(2,1) = 0.656 bits, a1's best
    cut (at 2.5 or 6.5, both 0.311 bits; the first wins) is lower, so the root splits a0 three
    ways. Branch a0=0 holds classes (0,0,1) at a1 = 1,2,3: split a1 at the midpoint 2.5 into two
    pure leaves; branches a0=1 (class 1) and a0=2 (class 0) are pure leaves."""
    g_a0 = info_gain([[2, 1], [0, 3], [2, 0]])
    g_a1 = max(info_gain([np.bincount(Y[:k], minlength=2), np.bincount(Y[k:], minlength=2)]) for k in range(1, 8))
    assert g_a0 > g_a1 > 0
    m = single_tree(max_features=2, categorical_features=[True, False], n_categories=[3, 0]).fit(X_SMALL, Y)
    assert m.n_nodes_[0] == 6
    assert m.feature_[0] == 0 and m.n_children_[0] == 3
    kid = m.child_[m.first_child_[0]:m.first_child_[0] + 3]  # no empty branch: all three stored
    left = kid[0]  # a0 = 0
    assert m.feature_[left] == 1 and m.threshold_[left] == 2.5 and m.n_children_[left] == 2
    assert m.feature_[kid[1]] == -1 and m.feature_[kid[2]] == -1
    np.testing.assert_array_equal(m.value_[kid[1]], [0.0, 1.0])
    np.testing.assert_array_equal(m.value_[kid[2]], [1.0, 0.0])
    np.testing.assert_array_equal(m.prop_[kid], [3 / 8, 3 / 8, 2 / 8])
    np.testing.assert_array_equal(m.node_weight_[:4], [8, 3, 3, 2])
    np.testing.assert_array_equal(m.predict(X_SMALL), Y)
    np.testing.assert_array_equal(m.predict([[0, 2.4], [0, 2.5], [2, 1.0]]), [0, 1, 0])


def test_pure_node_is_a_leaf():
    m = single_tree(categorical_features=[True, False]).fit(X_SMALL, np.ones(8, dtype=int))
    assert m.n_nodes_[0] == 1 and m.feature_[0] == -1
    # nodes reached by one class only are never split further
    m = single_tree(max_features=2, categorical_features=[True, False], n_categories=[3, 0]).fit(X_SMALL, Y)
    leaves = m.feature_ < 0
    assert np.all(np.isclose(m.value_[leaves].max(axis=1), 1.0))


def test_node_below_twice_min_instances_is_a_leaf():
    m = single_tree(max_features=2, min_instances=2.0, categorical_features=[True, False],
                    n_categories=[3, 0]).fit(X_SMALL, Y)
    # the a0=0 branch weighs 3 < 2 * 2: a leaf with distribution (2/3, 1/3)
    fc = m.child_[m.first_child_[0]]
    assert m.feature_[fc] == -1
    np.testing.assert_allclose(m.value_[fc], [2 / 3, 1 / 3])


def test_no_attribute_with_positive_gain_gives_a_leaf():
    """XOR: neither attribute alone carries information, so Weka's RandomTree does not split
    (scikit-learn's trees would)."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3, dtype=float)
    y = (X[:, 0] != X[:, 1]).astype(int)
    for cat in ([True, True], [False, False]):
        m = single_tree(max_features=2, categorical_features=cat).fit(X, y)
        assert m.n_nodes_[0] == 1
        np.testing.assert_array_equal(m.predict_proba(X), np.full((12, 2), 0.5))


def test_drawing_continues_past_k_until_an_attribute_has_gain():
    """K = 1 with one useless (constant) attribute and one useful: when the useless one is drawn
    first, Weka keeps drawing, so the root always splits on the useful one."""
    rng = np.random.default_rng(0)
    X = np.column_stack([np.zeros(40), rng.normal(size=40)])
    y = (X[:, 1] > 0).astype(int)
    for seed in range(20):
        m = single_tree(max_features=1, random_state=seed).fit(X, y)
        assert m.feature_[0] == 1 and m.n_nodes_[0] == 3


def test_multiway_split_has_one_branch_per_declared_value_and_empty_branch_answers_parent():
    X = np.array([[0], [0], [1], [1], [2], [2], [2]], dtype=float)
    y = np.array([0, 0, 1, 1, 0, 1, 1])
    m = single_tree(categorical_features=[True], n_categories=[5]).fit(X, y)
    assert m.feature_[0] == 0 and m.n_children_[0] == 5
    kid = m.child_[m.first_child_[0]:m.first_child_[0] + 5]
    # the two empty branches are counted as grown but not stored (their slots hold -1)
    assert m.n_nodes_[0] == 6 and m.n_stored_nodes_[0] == 4
    assert np.all(kid[:3] >= 0) and np.all(kid[3:] == -1)
    np.testing.assert_array_equal(m.node_weight_[kid[:3]], [2, 2, 3])
    # values 3 and 4 were declared but never seen: the parent's distribution (3/7, 4/7)
    np.testing.assert_allclose(m.predict_proba([[3.0], [4.0]]), [[3 / 7, 4 / 7]] * 2)
    np.testing.assert_allclose(m.predict_proba([[2.0]]), [[1 / 3, 2 / 3]])


def test_numeric_split_point_is_the_midpoint_or_the_upper_value():
    lo, hi = 1.0, np.nextafter(1.0, 2.0)  # (lo + hi) / 2 rounds back onto lo
    m = single_tree().fit(np.array([[lo], [hi]]), np.array([0, 1]))
    assert m.threshold_[0] == hi
    m = single_tree().fit(np.array([[1.0], [1.0], [3.0]]), np.array([0, 0, 1]))
    assert m.threshold_[0] == 2.0
    np.testing.assert_array_equal(m.predict([[1.999], [2.0]]), [0, 1])  # value < split goes left


# --------------------------------------------------------------------------- missing values
def test_missing_value_in_prediction_combines_branches_by_their_shares():
    m = single_tree(max_features=2, categorical_features=[True, False], n_categories=[3, 0]).fit(X_SMALL, Y)
    # a0 missing, a1 = 5: branches answer (0,1), (0,1), (1,0) with shares 3/8, 3/8, 2/8
    p = m.predict_proba([[np.nan, 5.0]])
    np.testing.assert_allclose(p, [[2 / 8, 6 / 8]], rtol=1e-15)
    # both missing: the a0=0 branch itself splits a1 = (2 left of 2.5, 1 right): shares 2/3, 1/3
    p = m.predict_proba([[np.nan, np.nan]])
    expected0 = 3 / 8 * (2 / 3) + 2 / 8
    np.testing.assert_allclose(p, [[expected0, 1 - expected0]], rtol=1e-14)
    assert p.sum() == pytest.approx(1.0, abs=1e-15)


def test_missing_value_in_training_is_sent_down_every_branch_with_fractional_weights():
    X = np.vstack([X_SMALL, [[np.nan, 8.0]]])
    y = np.append(Y, 1)
    m = single_tree(max_features=2, categorical_features=[True, False], n_categories=[3, 0]).fit(X, y)
    assert m.feature_[0] == 0
    kid = m.child_[m.first_child_[0]:m.first_child_[0] + 3]
    shares = np.array([3, 3, 2]) / 8  # of the known weight
    np.testing.assert_array_equal(m.prop_[kid], shares)
    # each branch gets its known rows plus the missing row with weight = its share; the weights sum to 9
    np.testing.assert_allclose(m.node_weight_[kid], [3, 3, 2] + shares, rtol=1e-15)
    assert m.node_weight_[kid].sum() == pytest.approx(9.0, abs=1e-12)
    # the gain that chose a0 counts the missing row in every branch: table (2, 1+3/8), (0, 3+3/8), (2, 2/8)
    table = np.array([[2, 1 + 3 / 8], [0, 3 + 3 / 8], [2, 2 / 8]])
    dist = np.zeros((3, 2))
    props = np.zeros(3)
    K._eval_nominal(np.ascontiguousarray(X.T), y.astype(np.int64), np.arange(9), np.ones(9), 0, 9, 0, 3, 2,
                    dist, props)
    np.testing.assert_allclose(dist, table, rtol=1e-15)
    assert K._gain(dist, 3, 2) == pytest.approx(info_gain(table), rel=1e-12)
    # the a0 = 2 node holds (2 of class 0, 2/8 of class 1)
    np.testing.assert_allclose(m.value_[kid[2]], [2 / 2.25, 0.25 / 2.25], rtol=1e-14)


def test_probabilities_sum_to_one_with_many_missing_values():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 6))
    X[:, :3] = rng.integers(0, 4, size=(300, 3))
    y = (X[:, 3] + X[:, 0] > 1.5).astype(int) + (X[:, 4] > 1)
    X[rng.random(X.shape) < 0.2] = np.nan
    m = RandomForestWeka(n_estimators=5, categorical_features=[True] * 3 + [False] * 3, random_state=3).fit(X, y)
    p = m.predict_proba(np.where(rng.random(X.shape) < 0.5, np.nan, X))
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(m.prop_ >= 0) and np.all(m.prop_ <= 1)


# --------------------------------------------------------------------------- forest, seeds, K
def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 8))
    X[:, :4] = rng.integers(0, 3, size=(n, 4))
    y = ((X[:, 0] == 1) ^ (X[:, 5] > 0)).astype(int) + (X[:, 6] > 1)
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y, [True] * 4 + [False] * 4


def _arrays(m):
    return [m.feature_, m.threshold_, m.first_child_, m.prop_, m.value_]


def test_same_seed_same_forest_other_seed_other_forest_and_threads_do_not_matter():
    X, y, cat = _data()
    a = RandomForestWeka(n_estimators=8, categorical_features=cat, random_state=7).fit(X, y)
    b = RandomForestWeka(n_estimators=8, categorical_features=cat, random_state=7, n_jobs=2).fit(X, y)
    for u, v in zip(_arrays(a), _arrays(b)):
        np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    c = RandomForestWeka(n_estimators=8, categorical_features=cat, random_state=8).fit(X, y)
    assert a.feature_.shape != c.feature_.shape or not np.array_equal(a.feature_, c.feature_)


def test_single_tree_without_bagging_and_all_attributes_does_not_depend_on_the_seed():
    """With K = M every attribute is evaluated at every node and ties go to the lowest index, so
    Weka's RandomTree is deterministic; so is ours."""
    X, y, cat = _data()
    trees = [single_tree(max_features=8, categorical_features=cat, random_state=s).fit(X, y) for s in range(3)]
    for t in trees[1:]:
        for u, v in zip(_arrays(trees[0]), _arrays(t)):
            np.testing.assert_array_equal(u, v)


def test_bagging_forest_is_the_normalised_sum_of_its_trees():
    X, y, cat = _data()
    m = RandomForestWeka(n_estimators=4, categorical_features=cat, random_state=1).fit(X, y)
    per_tree = []
    for t in range(4):
        per_tree.append(K.predict_forest(X, m.roots_[t:t + 1], m.nodes_, m.n_children_, m.prop_, m.value_,
                                          m.child_))
        np.testing.assert_allclose(per_tree[-1].sum(axis=1), 1.0, atol=1e-12)  # each tree answers a distribution
    assert not np.allclose(per_tree[0], per_tree[1])
    total = np.sum(per_tree, axis=0)
    np.testing.assert_allclose(m.predict_proba(X), total / total.sum(axis=1, keepdims=True), rtol=1e-13)
    # every bag holds n draws
    np.testing.assert_array_equal(m.node_weight_[m.roots_], [len(y)] * 4)


@pytest.mark.parametrize("M,k", [(1, 1), (2, 2), (4, 3), (6, 3), (8, 4), (9, 4), (16, 5), (19, 5), (60, 6)])
def test_weka_k_rule(M, k):
    assert weka_k(M) == k == int(math.log2(M)) + 1


def test_max_features_rules():
    X, y, cat = _data()
    assert RandomForestWeka(n_estimators=1).fit(X, y).k_ == 4
    assert RandomForestWeka(n_estimators=1, max_features=99).fit(X, y).k_ == 8  # Weka: K > M means M
    assert RandomForestWeka(n_estimators=1, max_features=0).fit(X, y).k_ == 4  # Weka: K < 1 means default
    assert RandomForestWeka(n_estimators=1, max_features=0.5).fit(X, y).k_ == 4
    with pytest.raises(ValueError, match="max_features"):
        RandomForestWeka(max_features="sqrt").fit(X, y)


def test_bad_nominal_codes_are_rejected_with_a_clear_message():
    X, y, cat = _data()
    m = RandomForestWeka(n_estimators=2, categorical_features=cat, n_categories=[3] * 4 + [0] * 4).fit(X, y)
    bad = X[:5].copy()
    bad[0, 0] = 7
    with pytest.raises(ValueError, match="unseen category"):
        m.predict(bad)
    bad[0, 0] = 0.5
    with pytest.raises(ValueError, match="integer codes"):
        m.predict(bad)


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(RandomForestWeka(n_estimators=3, random_state=0))


# --------------------------------------------------------------------------- against Weka
def _load_or_skip(name):
    from bench.data import load

    try:
        return load(name)
    except Exception as exc:  # datasets/ removed from this checkout
        pytest.skip(f"dataset {name} not available (it ships in datasets/): {exc}")


@pytest.mark.parametrize("name", ["car", "credit_a", "hepatitis", "segment"])
@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
def test_equals_wekas_deterministic_random_tree_with_all_attributes(name):
    """Weka's ``RandomTree -K M -M 1`` is deterministic (all attributes at every node, ties to
    the lowest index), so ours must build the same tree: same size, same distributions (car:
    nominal attributes; credit_a, hepatitis: mixed, with missing values; segment: numeric)."""
    from bench.protocols import splits

    ds = _load_or_skip(name)
    s = next(iter(splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0)))
    M = ds.n_features
    m = single_tree(max_features=M, categorical_features=ds.categorical, n_categories=ds.n_categories).fit(
        ds.X[s.train], ds.y[s.train])
    r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.RandomTree", ["-K", str(M), "-M", "1", "-S", "1"],
                 model_text=True)
    weka_nodes = int(r.model_text.split("Size of the tree :")[-1].split()[0])
    assert m.n_nodes_[0] == weka_nodes
    np.testing.assert_allclose(m.predict_proba(ds.X[s.test]), r.proba[:, m.classes_], atol=1e-12)


@pytest.mark.slow
@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
def test_forest_error_agrees_with_weka_statistically():
    """``RandomForest -I 10`` on tic-tac-toe (nominal), identical 2-fold splits, forest seeds 1..5
    per side: the mean errors differ by less than 3 combined standard errors."""
    from bench.perf.forest import agreement

    _load_or_skip("tic_tac_toe")
    (r,) = agreement(["tic_tac_toe"], n_seeds=5, n_trees=10, protocol="cv2", progress=False)
    assert abs(r["diff"]) < 3 * r["diff_se"] + 1e-3, r


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 100, 5000])
def test_pair_sort_sorts_keys_and_carries_indices(n):
    rng = np.random.default_rng(n)
    for keys in (rng.normal(size=n), rng.integers(0, 4, size=n).astype(float), np.sort(rng.normal(size=n)),
                 np.sort(rng.normal(size=n))[::-1].copy()):
        k, idx = keys.copy(), np.arange(n)
        K._sort_pairs(k, idx, n, np.empty((130, 2), dtype=np.int64))
        np.testing.assert_array_equal(k, np.sort(keys))
        np.testing.assert_array_equal(keys[idx], k)
        assert np.array_equal(np.sort(idx), np.arange(n))
