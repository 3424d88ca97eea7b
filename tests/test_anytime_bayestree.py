"""The Bayes tree (Seidl et al. 2009): R-tree invariants of the per-class trees, qbk, and the
estimator contract. (The engine and the full-budget equality are tested with MC-Tree.)"""

import numpy as np
import pytest

from algorithms.anytime import BayesTree, MCTree
from algorithms.anytime._rtree import rtree_insert_all
from tests.helpers import noise_classes


def _walk(is_leaf, count, child, root):
    """Depth of every leaf and the set of points below each node."""
    depths, below = {}, {}

    def rec(v, depth):
        kids = child[v, :count[v]]
        if is_leaf[v]:
            depths[v] = depth
            below[v] = set(int(p) for p in kids)
        else:
            s = set()
            for ch in kids:
                rec(ch, depth + 1)
                s |= below[ch]
            below[v] = s
        return below[v]

    rec(root, 0)
    return depths, below


@pytest.mark.parametrize("n,d,cap_leaf,cap_dir", [(1, 2, 4, 3), (7, 2, 4, 3), (300, 3, 6, 4), (500, 16, 16, 3)])
def test_rtree_invariants(n, d, cap_leaf, cap_dir):
    rng = np.random.default_rng(n)
    Z = rng.normal(size=(n, d))
    Z[: n // 3] = np.round(Z[: n // 3])  # ties and duplicates, as in integer-valued data
    pts = rng.permutation(n).astype(np.int64)
    lmin, dmin = max(1, int(0.4 * cap_leaf)), max(1, int(0.4 * cap_dir))
    is_leaf, count, child, parent, lo, hi, n_nodes, root = rtree_insert_all(Z, pts, cap_leaf, cap_dir, lmin, dmin,
                                                                             1e-3)
    depths, below = _walk(is_leaf, count, child, root)
    assert len(set(depths.values())) == 1, "an R-tree is balanced"
    leaf_points = sorted(p for v in depths for p in below[v])
    assert leaf_points == list(range(n)), "every object is in exactly one leaf"
    for v in below:
        c = count[v]
        assert c <= (cap_leaf if is_leaf[v] else cap_dir)
        if v != root:
            assert c >= (lmin if is_leaf[v] else dmin)
            assert parent[v] >= 0 and v in child[parent[v], :count[parent[v]]]
        members = Z[sorted(below[v])]
        np.testing.assert_array_equal(lo[v], members.min(axis=0))  # the MBR is tight
        np.testing.assert_array_equal(hi[v], members.max(axis=0))


def test_one_tree_per_class_and_page_capacities():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 16))
    y = rng.integers(0, 4, size=400)
    est = BayesTree(random_state=0).fit(X, y)
    assert est.dir_capacity_ == 3 and est.leaf_capacity_ == 16  # 2 KB pages, doubles
    m = est.model_
    assert np.all((m["ent_counts"] > 0).sum(axis=1) == 1), "every entry holds one class"
    inner = m["ent_child_lo"] >= 0
    sizes = (m["ent_child_hi"] - m["ent_child_lo"])[inner]
    kid_is_kernel = m["ent_child_lo"][m["ent_child_lo"][inner]] < 0
    assert np.all(sizes[kid_is_kernel] <= 16) and np.all(sizes[~kid_is_kernel] <= 3)
    # the root entries of the class trees together cover each class once
    np.testing.assert_array_equal(m["ent_counts"][: m["n_roots"]].sum(axis=0), np.bincount(y))


def test_qbk_refines_the_most_probable_classes():
    """With k = 1 every step refines the currently most probable class: the Gaussians spent
    on a clearly separated query go to its own class's tree first."""
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], 200)
    X = rng.normal(size=(600, 2)) * 0.3 + np.array([[0, 0], [5, 0], [0, 5]])[y]
    est = BayesTree(k=1, random_state=0).fit(X, y)
    P = est.predict_proba_anytime(np.array([[5.0, 0.0]]), [est.model_["root_cost"] + 40, None])
    assert P[0, 0].argmax() == 1 and P[1, 0].argmax() == 1


def test_determinism_and_insert_order():
    X, y = noise_classes(2, 300, 3)
    a = BayesTree(random_state=3).fit(X, y)
    b = BayesTree(random_state=3).fit(X, y)
    c = BayesTree(random_state=4).fit(X, y)
    budgets = [10, 40, None]
    assert a.predict_proba_anytime(X, budgets).tobytes() == b.predict_proba_anytime(X, budgets).tobytes()
    assert not np.array_equal(a.model_["order"], c.model_["order"])
    g1 = BayesTree(insert_order="given", random_state=1).fit(X, y)
    g2 = BayesTree(insert_order="given", random_state=2).fit(X, y)
    assert np.array_equal(g1.model_["order"], g2.model_["order"])


def test_same_full_model_as_mctree():
    """MC-Tree Sec. 4.2: once the whole leaf level is read both classifiers decide on the same model."""
    X, y = noise_classes(3, 200, 5)
    bt = BayesTree(random_state=0).fit(X[:150], y[:150])
    mc = MCTree(random_state=0).fit(X[:150], y[:150])
    np.testing.assert_allclose(bt.predict_proba_anytime(X[150:], [None]), mc.predict_proba_anytime(X[150:], [None]),
                               rtol=1e-9, atol=1e-12)


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(BayesTree(random_state=0))
