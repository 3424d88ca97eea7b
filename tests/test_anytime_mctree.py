"""MC-Tree (Kranen et al. 2010): cluster features, construction, the full-budget equality with
the brute-force kernel-density Bayes classifier, determinism, MDS, estimator contract."""

import math

import numpy as np
import pytest
from scipy.special import logsumexp

from algorithms.anytime import BayesTree, MCTree, NumericView
from algorithms.anytime._kernels import class_penalised_distances, mds_out_of_sample, smacof
from algorithms.anytime._model import build_model, flatten_tree
from algorithms.anytime.mctree import page_fanout, page_leaf_capacity
from tests.helpers import noise_classes


# ------------------------------------------------------------------ a hand-built tree
def test_hand_built_tree_entries_match_hand_computed_cluster_features():
    # four objects in 1-d: classes 0,0,1,1; tree: root -> {A: leaf(0, 2), B: leaf(1, 3)}
    Z = np.array([[0.0], [1.0], [2.0], [4.0]])
    y = np.array([0, 0, 1, 1])
    h = np.array([[0.5], [0.25]])  # kernel variances of class 0 and 1
    tree = flatten_tree([None, np.array([0, 2]), np.array([1, 3])], [[1, 2], None, None], [0])
    # depth-first order: 0, 2, 1, 3; root entries A = objects {0, 2}, B = {1, 3}
    np.testing.assert_array_equal(tree["order"], [0, 2, 1, 3])
    assert tree["n_roots"] == 2
    m = build_model(Z, y, 2, tree, h, pooled=False, kde_moment=True)
    np.testing.assert_array_equal(m["ent_counts"][:2], [[1, 1], [1, 1]])
    # entry A, class 0: one object at 0 -> mean 0, variance 0 + h_0 (its kernel)
    kA = m["ent_comp_lo"][0]
    assert m["comp_class"][kA] == 0 and m["comp_mean"][kA, 0] == 0.0
    assert m["comp_ivar"][kA, 0] == pytest.approx(1 / 0.5)
    assert m["comp_logw"][kA] == pytest.approx(math.log(1 / 4))  # n_{e,c}/|DB|
    # overall Gaussian of A: objects 0 and 2 -> mean 1, variance 1 + (0.5 + 0.25)/2
    assert m["ent_mean"][0, 0] == pytest.approx(1.0)
    assert m["ent_ivar"][0, 0] == pytest.approx(1 / (1.0 + 0.375))
    # information gain: A and B have entropy log 2 and split into pure kernels -> IG = log 2 / log 2
    assert m["ent_ig"][0] == pytest.approx(1.0) and m["ent_ig"][1] == pytest.approx(1.0)
    # type B (pooled): A's within-class scatter is 0 for both singletons -> variances are h_c
    mb = build_model(Z, y, 2, tree, h, pooled=True, kde_moment=True)
    np.testing.assert_allclose(1 / mb["comp_ivar"][mb["ent_comp_lo"][0]:mb["ent_comp_lo"][1], 0], [0.5, 0.25])
    # literal Def. 1 variance with the kernel variance as a floor
    mc = build_model(Z, y, 2, tree, h, pooled=False, kde_moment=False)
    assert 1 / mc["ent_ivar"][0, 0] == pytest.approx(1.0)  # max(1, 0.375)


def test_cluster_features_combine_additively():
    """n, LS and SS of an entry are the sums over its child entries (Def. 3: O(e) is the union
    of the objects of its subnode), per class."""
    X, y = noise_classes(0, 200, 4)
    est = MCTree(fanout=3, delta=1, entry_variance="kde", random_state=0).fit(X, y)
    m = est.model_
    E = len(m["ent_child_lo"])
    C = 3
    d = X.shape[1]
    n = m["ent_counts"].astype(float)
    LS = np.zeros((E, C, d))
    SS = np.zeros((E, C, d))
    for e in range(E):
        for kc in range(m["ent_comp_lo"][e], m["ent_comp_lo"][e + 1]):
            c = m["comp_class"][kc]
            mu = m["comp_mean"][kc]
            var = 1 / m["comp_ivar"][kc] - est.kernel_var_[c]  # undo the kernel term
            LS[e, c] = n[e, c] * mu
            SS[e, c] = n[e, c] * (var + mu ** 2)
    inner = np.flatnonzero(m["ent_child_lo"] >= 0)
    assert inner.size > 10
    for e in inner:
        kids = slice(m["ent_child_lo"][e], m["ent_child_hi"][e])
        np.testing.assert_array_equal(n[e], n[kids].sum(axis=0))
        np.testing.assert_allclose(LS[e], LS[kids].sum(axis=0), atol=1e-9)
        np.testing.assert_allclose(SS[e], SS[kids].sum(axis=0), atol=1e-8)
    # and the root entries together represent the whole database (Def. 3)
    np.testing.assert_array_equal(n[: m["n_roots"]].sum(axis=0), np.bincount(y))


def test_tree_shape_follows_definition_3():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 3))
    y = rng.integers(0, 4, size=300)
    for delta, fanout in (("inf", 3), (1, 5), (4, 4)):
        est = MCTree(fanout=fanout, delta=delta, random_state=0).fit(X, y)
        m = est.model_
        sizes = m["ent_child_hi"] - m["ent_child_lo"]
        inner = m["ent_child_lo"] >= 0
        assert np.all(sizes[inner] <= fanout) and np.all(sizes[inner] >= 1)
        kernels = ~inner  # kernels and one-object entries (final: refining them would change nothing)
        assert np.all(m["ent_hi"][kernels] - m["ent_lo"][kernels] == 1)
        reach = np.zeros(len(inner), dtype=bool)
        stack = list(range(m["n_roots"]))
        while stack:
            e = stack.pop()
            reach[e] = True
            if inner[e]:
                stack.extend(range(m["ent_child_lo"][e], m["ent_child_hi"][e]))
        assert (reach & kernels).sum() == len(y)  # the finest frontier holds every object once
        assert np.array_equal(np.sort(m["order"]), np.arange(len(y)))
        if delta == "inf":  # one pure root entry per class (Sec. 4.1)
            assert m["n_roots"] == 4
            assert np.all((m["ent_counts"][inner] > 0).sum(axis=1) == 1)
        else:
            assert m["n_roots"] <= fanout
    # Def. 3 strictly with delta = inf: more classes (4) than the fanout (3) -> classes grouped
    m = MCTree(fanout=3, delta="inf", root="fanout", random_state=0).fit(X, y).model_
    assert m["n_roots"] <= 3 and (m["ent_counts"][:m["n_roots"]] > 0).sum() == 4
    inner = m["ent_child_lo"] >= 0
    assert np.all((m["ent_child_hi"] - m["ent_child_lo"])[inner] <= 3)


# ------------------------------------------------------------------ the full-budget equality
def brute_force_kde_posteriors(Xtr, ytr, Xte, scale=1.0):
    """The kernel-density Bayes classifier computed from scratch: z-scores of the training
    data, Silverman's rule h_j = (4/((d+2) n_c))^(1/(d+4)) sigma_cj per class, Gaussian
    kernels, P(c) p(x|c) = (1/N) sum_{i in c} K_i(x)."""
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    Ztr, Zte = (Xtr - mu) / sd, (Xte - mu) / sd
    n, d = Ztr.shape
    classes = np.unique(ytr)
    logp = np.empty((len(Zte), len(classes)))
    for j, c in enumerate(classes):
        zc = Ztr[ytr == c]
        h = scale * (4.0 / ((d + 2.0) * len(zc))) ** (1.0 / (d + 4.0)) * np.maximum(zc.std(axis=0, ddof=1), 1e-3)
        var = h ** 2
        diff = Zte[:, None, :] - zc[None, :, :]
        log_k = -0.5 * np.sum(diff ** 2 / var, axis=2) - 0.5 * np.sum(np.log(2 * np.pi * var))
        logp[:, j] = logsumexp(log_k, axis=1) - np.log(n)
    logp -= logp.max(axis=1, keepdims=True)
    p = np.exp(logp)
    return p / p.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("make", [
    lambda: MCTree(fanout="page", delta="inf", random_state=0),
    lambda: MCTree(fanout="n_classes", delta=1, random_state=0),
    lambda: MCTree(fanout=3, delta=3.0, mds_max_points=40, random_state=0),  # MDS with landmarks
    lambda: MCTree(fanout=4, delta=1, entry_type="B", entry_variance="cf", strategy="k-best", k=3, random_state=0),
    lambda: MCTree(fanout=3, delta=1, alpha=0.5, random_state=0),
    lambda: BayesTree(random_state=0),
])
def test_unlimited_budget_equals_bruteforce_kernel_density_bayes(make):
    rng = np.random.default_rng(7)
    n, d, C = 240, 4, 3
    y = rng.integers(0, C, size=n)
    X = rng.normal(size=(n, d)) * [1.0, 3.0, 0.5, 10.0] + y[:, None] * [0.7, 1.5, 0.2, 4.0]
    tr, te = np.arange(n) % 3 != 0, np.arange(n) % 3 == 0
    est = make().fit(X[tr], y[tr])
    ref = brute_force_kde_posteriors(X[tr], y[tr], X[te])
    anytime = est.predict_proba_anytime(X[te], [None, 1e12])
    np.testing.assert_allclose(anytime[0], ref, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(anytime[1], ref, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(est.predict_proba(X[te]), ref, rtol=1e-7, atol=1e-10)
    np.testing.assert_array_equal(est.predict(X[te]), np.argmax(ref, axis=1))


def test_unlimited_budget_on_real_data_equals_bruteforce():
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True)
    tr = np.arange(len(y)) % 4 != 0
    est = MCTree(random_state=0).fit(X[tr], y[tr])
    ref = brute_force_kde_posteriors(X[tr], y[tr], X[~tr])
    np.testing.assert_allclose(est.predict_proba_anytime(X[~tr], [None])[0], ref, rtol=1e-7, atol=1e-10)


# ------------------------------------------------------------------ determinism
def test_same_seed_gives_identical_trees_and_posteriors():
    X, y = noise_classes(2, 240, 3)
    budgets = [5, 20, 80, None]
    for kw in ({"delta": "inf"}, {"delta": 2.5, "fanout": 3, "mds_max_points": 30}):
        a = MCTree(random_state=11, **kw).fit(X, y)
        b = MCTree(random_state=11, **kw).fit(X, y)
        c = MCTree(random_state=12, **kw).fit(X, y)
        for key in ("order", "ent_child_lo", "comp_mean", "ent_ig"):
            assert a.model_[key].tobytes() == b.model_[key].tobytes()
        assert a.predict_proba_anytime(X, budgets).tobytes() == b.predict_proba_anytime(X, budgets).tobytes()
        assert not np.array_equal(a.model_["order"], c.model_["order"])


# ------------------------------------------------------------------ variants of the paper
def test_entry_types_agree_when_every_entry_is_pure():
    """Sec. 4.1: with delta = inf all classification options of Defs. 1 and 2 give the same results."""
    X, y = noise_classes(3, 200, 3)
    a = MCTree(delta="inf", entry_type="A", fanout=3, random_state=0).fit(X, y)
    b = MCTree(delta="inf", entry_type="B", fanout=3, random_state=0).fit(X, y)
    budgets = [3, 10, 30, 100]
    np.testing.assert_allclose(a.predict_proba_anytime(X, budgets), b.predict_proba_anytime(X, budgets),
                               rtol=1e-10, atol=1e-13)


def test_first_best_is_k_best_with_k_1():
    X, y = noise_classes(4, 150, 3)
    a = MCTree(delta=1, fanout=3, strategy="first-best", random_state=0).fit(X, y)
    b = MCTree(delta=1, fanout=3, strategy="k-best", k=1, random_state=0).fit(X, y)
    budgets = [4, 12, 40]
    assert a.predict_proba_anytime(X, budgets).tobytes() == b.predict_proba_anytime(X, budgets).tobytes()


def test_class_aware_transformation_purifies_clusters():
    """Fig. 2(a): two classes interleaved on a line. EM on the raw data mixes them; after the
    MDS towards d_delta the top-level clusters are (nearly) pure."""
    rng = np.random.default_rng(5)
    n = 120
    t = np.sort(rng.uniform(0, 10, size=n))
    y = (np.arange(n) // 6) % 2  # alternating runs of six objects
    X = np.c_[t, rng.normal(scale=0.01, size=n)]

    def root_purity(delta):
        m = MCTree(fanout=2, delta=delta, random_state=0).fit(X, y).model_
        cnt = m["ent_counts"][: m["n_roots"]]
        return float((cnt.max(axis=1).sum()) / cnt.sum())

    assert root_purity(1) < 0.7
    assert root_purity(50.0) > 0.9


def test_smacof_moves_towards_the_penalised_distances():
    rng = np.random.default_rng(6)
    Z = rng.normal(size=(30, 3))
    y = rng.integers(0, 2, size=30).astype(np.int64)
    plain = class_penalised_distances(Z, y, 1.0)
    X1, stress1, _ = smacof(plain, Z, 50, 1e-9)
    assert stress1 < 1e-12  # delta = 1: the original coordinates are already optimal
    target = class_penalised_distances(Z, y, 3.0)
    diff = Z[:, None] - Z[None]
    stress0 = np.sum(np.triu(np.sqrt((diff ** 2).sum(-1)) - target, 1) ** 2)
    X3, stress3, its = smacof(target, Z, 200, 1e-9)
    assert stress3 < 0.5 * stress0 and its > 1
    # out-of-sample placement of one more object reduces its own stress against the landmarks
    z_new = rng.normal(size=(1, 3))
    placed = mds_out_of_sample(z_new, np.array([1]), Z, y, X3, 3.0, 30)
    goal = np.sqrt(((z_new - Z) ** 2).sum(1)) * np.where(y == 1, 1.0, 3.0)
    before = np.sum((np.sqrt(((z_new - X3) ** 2).sum(1)) - goal) ** 2)
    after = np.sum((np.sqrt(((placed - X3) ** 2).sum(1)) - goal) ** 2)
    assert after < before


def test_page_fanout_from_2kb_pages():
    # directory entry: pointer + MBR (2d) + CF (1 + 2d) doubles = 8 (4d + 2) bytes
    assert page_fanout(16) == 2048 // (8 * 66) == 3
    assert page_fanout(10) == 2048 // (8 * 42) == 6
    assert page_leaf_capacity(16) == 16
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 16)), rng.integers(0, 2, size=60)
    assert MCTree(random_state=0).fit(X, y).fanout_ == 3
    assert MCTree(fanout="n_classes", random_state=0).fit(X, y).fanout_ == 2


# ------------------------------------------------------------------ estimator contract
def test_nominal_attributes_are_dropped_and_missing_values_filled():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(100, 4))
    X[:, 1] = rng.integers(0, 5, size=100)
    X[rng.random(size=(100, 4)) < 0.1] = np.nan
    X[:, 1] = np.nan_to_num(X[:, 1])
    y = (X[:, 0] > 0).astype(int)
    cat = np.array([False, True, False, False])
    est = MCTree(categorical_features=cat, random_state=0).fit(X, y)
    assert est.n_features_used_ == 3
    P = est.predict_proba_anytime(X, [5, None])
    assert np.all(np.isfinite(P))
    view = NumericView(categorical_features=cat).fit(X)
    np.testing.assert_array_equal(view.columns_, [0, 2, 3])
    assert not np.isnan(view.transform(X)).any()


def test_clear_errors():
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(ValueError, match="at least 2 classes"):
        MCTree().fit(X, np.zeros(20))
    with pytest.raises(ValueError, match="delta"):
        MCTree(delta=0.5).fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match="fanout"):
        MCTree(fanout=1).fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match="strategy"):
        MCTree(strategy="qbk").fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match="alpha"):
        MCTree(alpha=2).fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match="Input y contains NaN|Unknown label type"):
        MCTree().fit(X, np.r_[np.zeros(19), np.nan])


@pytest.mark.parametrize("make", [lambda: MCTree(random_state=0), lambda: MCTree(delta=2, fanout=3, random_state=0)])
def test_check_estimator(make):
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(make())
