"""TAN, KDB, SKDB and KDF (algorithms.bnc): hand-checked cases, brute-force references and properties.

Weka agreement (TAN with -S ENTROPY) is in tests/test_bnc_weka.py.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from algorithms import hdp as H
from algorithms.bnc import KDB, KDF, SKDB, TAN, kdb_parents, mi_order, pairwise_information, prim_tree_parents


# --------------------------------------------------------------------------- data
def nominal_data(n=300, d=5, k=3, C=3, seed=0, noise=0.25):
    """Nominal data with dependencies between attributes and the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, C, n)
    X = np.empty((n, d))
    X[:, 0] = (y + (rng.random(n) < noise) * rng.integers(0, k, n)) % k
    for j in range(1, d):
        X[:, j] = (X[:, j - 1] + y * (j % 2) + (rng.random(n) < noise) * rng.integers(0, k, n)) % k
    return X, y


# --------------------------------------------------------------------------- information measures
def brute_mi_cmi(X, y):
    n, d = X.shape
    def p(*cols):
        keys = list(zip(*cols))
        out = {}
        for kk in keys:
            out[kk] = out.get(kk, 0) + 1
        return out
    mi = np.zeros(d)
    cmi = np.zeros((d, d))
    pc = p(y)
    for i in range(d):
        pic = p(X[:, i], y)
        pi = p(X[:, i])
        mi[i] = sum(c / n * math.log2(c * n / (pi[(a,)] * pc[(b,)])) for (a, b), c in pic.items())
        for j in range(d):
            if i == j:
                continue
            pijc = p(X[:, i], X[:, j], y)
            pjc = p(X[:, j], y)
            cmi[i, j] = sum(c / n * math.log2(c * pc[(cc,)] / (pic[(a, cc)] * pjc[(b, cc)]))
                            for (a, b, cc), c in pijc.items())
    return mi, cmi


def test_pairwise_information_matches_brute_force():
    X, y = nominal_data(n=200, d=4)
    info = pairwise_information(X.astype(np.int8), y, [3] * 4, 3)
    mi, cmi = brute_mi_cmi(X, y)
    np.testing.assert_allclose(info.mi, mi, atol=1e-12)
    np.testing.assert_allclose(info.cmi, cmi, atol=1e-12)


# --------------------------------------------------------------------------- KDB, hand-checked
def test_kdb_hand_checked_tiny_case():
    """4 rows, 3 binary attributes; structure and one posterior worked out by hand.

    y = (0, 0, 1, 1); X0 = y (MI 1 bit), X1 = (0, 1, 0, 1) (MI 0), X2 = (0, 0, 0, 1)
    (MI 0.311 bits). Order: X0, X2, X1. (missing="mode": no missing-value slot, |X| = 2.) k = 1: X2's only candidate is X0; X1 takes the
    earlier attribute with larger I(X1; . | Y): I(X1; X2 | Y) = 0.5 bit > I(X1; X0 | Y) = 0.
    """
    X = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]], float)
    y = np.array([0, 0, 1, 1])
    est = KDB(k=1, smoothing="m_estimate", m=1.0, missing="mode").fit(X, y)
    assert est.order_.tolist() == [0, 2, 1]
    assert est.parents_ == [(), (2,), (0,)]
    # P(y, x) for x = (1, 1, 1) with M-estimates (m = 1, base 1/|X| = 1/2, prior base 1/2):
    # y=0: P(y)=2.5/5; P(x0=1|y=0)=(0+.5)/(2+1); P(x2=1|y=0,x0=1): node (y=0,x0=1) empty
    #      -> back off to (y=0): (0+.5)/(2+1); P(x1=1|y=0,x2=1): node (y=0,x2=1) empty -> (y=0): (1+.5)/(2+1)
    # y=1: P(y)=2.5/5; P(x0=1|y=1)=(2+.5)/3; P(x2=1|y=1,x0=1)=(1+.5)/(2+1); P(x1=1|y=1,x2=1)=(1+.5)/(1+1)
    j0 = 0.5 * (0.5 / 3) * (0.5 / 3) * (1.5 / 3)
    j1 = 0.5 * (2.5 / 3) * (1.5 / 3) * (1.5 / 2)
    p = est.predict_proba(np.array([[1.0, 1.0, 1.0]]))
    np.testing.assert_allclose(p[0], [j0 / (j0 + j1), j1 / (j0 + j1)], rtol=1e-12)


def test_kdb_parents_top_k_by_cmi():
    cmi = np.array([[0, 1, 5, 2], [1, 0, 3, 4], [5, 3, 0, 6], [2, 4, 6, 0]], float)
    par = kdb_parents([0, 1, 2, 3], cmi, 2)
    assert par == {0: (), 1: (0,), 2: (0, 1), 3: (2, 1)}
    assert mi_order([0.1, 0.5, 0.5, 0.2]).tolist() == [1, 2, 3, 0]


# --------------------------------------------------------------------------- M-estimates against hdp.m_estimate_family
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_kdb_m_estimates_equal_hdp_tree_m_estimates(k):
    """Our back-off kernel against algorithms.hdp's independent tree (m_estimate_family + query)."""
    X, y = nominal_data(n=150, d=5, k=4, seed=3)
    Xte, _ = nominal_data(n=80, d=5, k=4, seed=9)
    est = KDB(k=k, m=1.0).fit(X, y)
    codes_tr = X.astype(np.int64)
    codes_te = Xte.astype(np.int64)
    ests = []
    for a, pa in enumerate(est.parents_):
        fam = H.FamilyCounts.from_data(codes_tr[:, a], y, codes_tr[:, list(pa)] if pa else None,
                                       n_values=est.n_values_[a], arities=(3,) + tuple(est.n_values_[list(pa)]),
                                       attribute=a, parents=pa)
        ests.append(H.m_estimate_family(fam, 1.0))
    prior = H.class_prior(np.bincount(y, minlength=3), 1.0)
    ref = H.joint_log_likelihood(codes_te, prior, ests)
    ours = est.predict_log_joint(Xte)
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------- SKDB: LOO against brute-force refits
def _refit_posteriors(X, y, hold, order, parents, C, V, m, k, n_att, backoff=True):
    """Pure Python: counts from every row but ``hold``; the M-estimate back-off model
    (k, first n_att attributes of ``order``) applied to row ``hold`` (``backoff="seen_parents"``:
    the deepest node with rows of any class, for every class)."""
    keep = [r for r in range(len(y)) if r != hold]
    N = len(keep)
    x = X[hold]
    post = []
    for c in range(C):
        nc = sum(1 for r in keep if y[r] == c)
        p = (nc + m / C) / (N + m)
        for a in order[:n_att]:
            pa = parents[a][:k]
            # deepest depth with data for class c after removing `hold`
            chosen = None
            for dep in range(len(pa), -1, -1):
                rows = [r for r in keep if all(X[r, q] == x[q] for q in pa[:dep])]
                if backoff == "seen_parents":
                    if rows:
                        chosen = [r for r in rows if y[r] == c]
                        break
                    continue
                rows = [r for r in rows if y[r] == c]
                if rows:
                    chosen = rows
                    break
            if chosen is None:                 # root: all classes
                nt = N
                nx = sum(1 for r in keep if X[r, a] == x[a])
            else:
                nt = len(chosen)
                nx = sum(1 for r in chosen if X[r, a] == x[a])
            p *= (nx + m / V[a]) / (nt + m)
        post.append(p)
    post = np.array(post)
    return post / post.sum()


@pytest.mark.parametrize("loss_kind,backoff", [("true_class", True), ("all_classes", True),
                                               ("true_class", "seen_parents")])
def test_skdb_loo_equals_brute_force_refits(loss_kind, backoff):
    X, y = nominal_data(n=70, d=4, k=3, C=3, seed=5, noise=0.4)
    K = 2
    est = SKDB(max_k=K, loo_loss=loss_kind, m=1.0, backoff=backoff).fit(X, y)
    order = est.order_.tolist()
    parents = {a: est.max_parents_[a] for a in order}
    V = est.n_values_
    n, C = len(y), 3
    sq = np.zeros((K + 1, len(order)))
    sq_prior = 0.0
    for i in range(n):
        onehot = np.eye(C)[y[i]]
        prior = np.array([(np.sum(np.delete(y, i) == c) + 1 / C) / (n - 1 + 1) for c in range(C)])
        prior /= prior.sum()
        sq_prior += np.sum((onehot - prior) ** 2) if loss_kind == "all_classes" else (1 - prior[y[i]]) ** 2
        for u in range(len(order)):
            for k in range(K + 1):
                p = _refit_posteriors(X, y, i, order, parents, C, V, 1.0, k, u + 1, backoff)
                sq[k, u] += np.sum((onehot - p) ** 2) if loss_kind == "all_classes" else (1 - p[y[i]]) ** 2
    denom = n * (C if loss_kind == "all_classes" else 1)
    rmse = np.sqrt(sq / denom)
    np.testing.assert_allclose(est.loo_rmse_, rmse, rtol=1e-10)
    assert est.loo_rmse_prior_ == pytest.approx(math.sqrt(sq_prior / denom), rel=1e-12)
    best, n_sel, k_sel = math.sqrt(sq_prior / denom), 0, 0
    for u in range(len(order)):
        for k in range(K + 1):
            if rmse[k, u] < best - 1e-12:
                best, n_sel, k_sel = rmse[k, u], u + 1, k
    assert (est.n_selected_, est.k_) == (n_sel, k_sel)
    assert est.n_selected_ > 0


def test_skdb_final_model_is_the_selected_kdb():
    X, y = nominal_data(n=400, d=6, k=3, C=3, seed=2)
    Xte, _ = nominal_data(n=100, d=6, k=3, C=3, seed=4)
    s = SKDB(max_k=3).fit(X, y)
    kdb = KDB(k=s.k_, order=s.order_[:s.n_selected_]).fit(X, y)
    assert [p for p in s.parents_] == [p for p in kdb.parents_]
    np.testing.assert_allclose(s.predict_proba(Xte), kdb.predict_proba(Xte), rtol=1e-12)
    assert s.diagnostics_["k"] == s.k_ and s.diagnostics_["n_selected"] == s.n_selected_


def test_skdb_prior_only_when_nothing_helps():
    """Pure-noise attributes (seed 2): no model beats the class prior in LOO, so n* = 0 and the
    prediction is the M-estimated prior."""
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, (60, 3)).astype(float)
    y = rng.integers(0, 2, 60)
    s = SKDB(max_k=2).fit(X, y)
    assert (s.n_selected_, s.k_) == (0, 0)
    assert s.loo_rmse_.min() > s.loo_rmse_prior_
    assert s.parents_ == [None, None, None]
    prior = (np.bincount(y) + 0.5) / (60 + 1)
    np.testing.assert_allclose(s.predict_proba(X), np.tile(prior, (60, 1)))


def test_skdb_given_order_and_encoded_fast_path():
    X, y = nominal_data(n=300, d=5, seed=8)
    order = [4, 2, 0, 1, 3]
    a = SKDB(max_k=2, order=order).fit(X, y)
    assert a.order_.tolist() == order
    b = SKDB(max_k=2).fit_encoded(X.astype(np.int8), y, a.n_values_, order=order)  # 3 values + missing slot
    assert (a.k_, a.n_selected_) == (b.k_, b.n_selected_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba_encoded(X.astype(np.int8)))
    with pytest.raises(ValueError, match="predict_proba_encoded"):
        b.predict_proba(X)
    with pytest.raises(ValueError, match="outside"):
        b.predict_proba_encoded(X.astype(np.int8) + 4)
    # a partial order uses only the listed attributes
    c = SKDB(max_k=1, order=[3, 1]).fit(X, y)
    assert set(c.selected_.tolist()) <= {1, 3}
    assert c.parents_[0] is None


# --------------------------------------------------------------------------- TAN
def test_prim_tree_is_a_maximum_spanning_tree():
    rng = np.random.default_rng(1)
    for d in (2, 4, 6):
        w = rng.random((d, d))
        w = w + w.T
        parent = prim_tree_parents(w, 0)
        assert parent[0] == -1 and (parent[1:] >= 0).all()
        total = sum(w[i, parent[i]] for i in range(1, d))
        # brute force over all trees (Pruefer-free: all parent vectors forming a tree rooted at 0)
        best = -1
        for par in itertools.product(range(d), repeat=d - 1):
            par = (-1,) + par
            ok = True
            for i in range(1, d):
                seen, j = set(), i
                while j != 0 and j not in seen:
                    seen.add(j)
                    j = par[j]
                ok &= j == 0 and par[i] != i
            if ok:
                best = max(best, sum(w[i, par[i]] for i in range(1, d)))
        assert total == pytest.approx(best)


def test_tan_structure_and_root():
    X, y = nominal_data(n=300, d=5, seed=11)
    t0 = TAN(root=0).fit(X, y)
    t3 = TAN(root=3).fit(X, y)
    tw = TAN(root="weka").fit(X, y)
    edges = lambda t: {frozenset((i, int(p))) for i, p in enumerate(t.tree_parent_) if p >= 0}
    assert edges(t0) == edges(t3) == edges(tw)
    assert t0.tree_parent_[0] == -1 and t3.tree_parent_[3] == -1
    assert sum(p is not None and len(p) == 0 for p in tw.parents_) == 1


# --------------------------------------------------------------------------- KDF
def test_kdf_members_and_average():
    X, y = nominal_data(n=300, d=4, seed=12)
    f = KDF(k=2).fit(X, y)
    assert [o[0] for o in f.orders_] == [0, 1, 2, 3]
    assert all(sorted(o.tolist()) == [0, 1, 2, 3] for o in f.orders_)
    # the average of the members' posteriors, each member's estimates from algorithms.hdp's trees
    codes = X.astype(np.int64)
    prior = H.class_prior(np.bincount(y, minlength=3), 1.0)
    ref = np.zeros((len(y), 3))
    for order, parents in zip(f.orders_, f.member_parents_):
        ests = []
        for a in order:
            pa = parents[a]
            fam = H.FamilyCounts.from_data(codes[:, a], y, codes[:, list(pa)] if pa else None, n_values=int(f.n_values_[a]),
                                           arities=(3,) + tuple(f.n_values_[list(pa)]), attribute=int(a), parents=pa)
            ests.append(H.m_estimate_family(fam, 1.0))
        lj = H.joint_log_likelihood(codes, prior, ests)
        post = np.exp(lj - lj.max(1, keepdims=True))
        ref += post / post.sum(1, keepdims=True)
    np.testing.assert_allclose(f.predict_proba(X), ref / 4, rtol=1e-10)
    # direct check: each member's first parent is its max-CMI earlier attribute
    cmi = f.information_.cmi
    for order, parents in zip(f.orders_, f.member_parents_):
        for u in range(1, 4):
            a = order[u]
            assert parents[a][0] == order[:u][np.argmax(cmi[a, order[:u]])]
            assert len(parents[a]) <= 2
    p = f.predict_proba(X)
    np.testing.assert_allclose(p.sum(1), 1)


# --------------------------------------------------------------------------- properties
ALL = [lambda: TAN(), lambda: TAN(root="weka"), lambda: KDB(k=2), lambda: SKDB(max_k=3), lambda: KDF(k=2),
       lambda: KDB(k=2, smoothing="laplace", backoff=False), lambda: SKDB(max_k=2, m="1/C"),
       lambda: KDB(k=1, smoothing="hdp", hdp_settings={"n_iterations": 30, "burn_in": 5}, random_state=0)]


@pytest.mark.parametrize("make", ALL)
def test_probabilities_sum_to_one_and_determinism(make):
    X, y = nominal_data(n=250, d=5, seed=13)
    Xte, _ = nominal_data(n=60, d=5, seed=14)
    Xte[::7, 2] = np.nan
    X[::11, 1] = np.nan
    p1 = make().fit(X, y).predict_proba(Xte)
    p2 = make().fit(X, y).predict_proba(Xte)
    np.testing.assert_allclose(p1.sum(1), 1, rtol=1e-12)
    assert np.array_equal(p1, p2)


@pytest.mark.parametrize("make", [lambda: KDB(k=2), lambda: SKDB(max_k=2), lambda: TAN(), lambda: KDF(k=1)])
def test_partial_fit_chunks_after_structure(make):
    """The structure comes from the first chunk; later chunks only add counts, so any split
    of the later rows gives the same model, and with the first chunk = all rows, fit."""
    X, y = nominal_data(n=400, d=5, seed=15)
    a = make().partial_fit(X[:150], y[:150], classes=[0, 1, 2])
    a.partial_fit(X[150:300], y[150:300]).partial_fit(X[300:], y[300:])
    b = make().partial_fit(X[:150], y[:150], classes=[0, 1, 2]).partial_fit(X[150:], y[150:])
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    fam_a = {k: (t.keys, t.counts) for k, t in a.families_.items()}
    for k, t in b.families_.items():
        np.testing.assert_array_equal(fam_a[k][0], t.keys)
        np.testing.assert_array_equal(fam_a[k][1], t.counts)
    np.testing.assert_array_equal(make().partial_fit(X, y).predict_proba(X), make().fit(X, y).predict_proba(X))


def test_errors_name_the_problem():
    X, y = nominal_data(n=50, d=3)
    with pytest.raises(ValueError, match="numeric"):
        KDB(categorical_features=np.array([True, False, True])).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        KDB().fit(X, np.zeros(50, int))
    with pytest.raises(ValueError, match="order"):
        SKDB(order=[0, 0, 1]).fit(X, y)
    with pytest.raises(ValueError, match="smoothing"):
        KDB(smoothing="bogus").fit(X, y)
    with pytest.raises(ValueError, match="unseen category|nominal code"):
        KDB(n_categories=[3, 3, 3], categorical_features=[True] * 3).fit(X, y).predict(X + 3)


@pytest.mark.parametrize("make", [lambda: TAN(), lambda: KDB(k=2), lambda: SKDB(max_k=2), lambda: KDF(k=1)])
def test_check_estimator(make):
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(make())


def test_skdb_loo_blocks_do_not_change_the_result(monkeypatch):
    import algorithms.bnc as B

    X, y = nominal_data(n=3000, d=4, seed=21)
    one = SKDB(max_k=2).fit(X, y)
    monkeypatch.setattr(B, "CHUNK_ROWS", 1024)       # three blocks of rows
    three = SKDB(max_k=2).fit(X, y)
    np.testing.assert_allclose(one.loo_rmse_, three.loo_rmse_, rtol=1e-12)
    assert (one.k_, one.n_selected_) == (three.k_, three.n_selected_)


# --------------------------------------------------------------------------- missing slot, ties, LOO rule
def test_missing_slot_only_where_values_are_missing():
    """Complete data keep |X| values (the ESKDB code's base rate 1/|X|); a column with a missing
    value gets one more; ``missing_slot="always"`` is bench's earlier rule (every column + 1)."""
    X, y = nominal_data(n=120, d=4, k=3, C=2, seed=2)
    assert KDB(k=1).fit(X, y).n_values_.tolist() == [3, 3, 3, 3]
    assert KDB(k=1, missing_slot="always").fit(X, y).n_values_.tolist() == [4, 4, 4, 4]
    assert KDB(k=1, missing_slot=[3]).fit(X, y).n_values_.tolist() == [3, 3, 3, 4]
    Xm = X.copy()
    Xm[7, 1] = np.nan
    est = KDB(k=1).fit(Xm, y)
    assert est.n_values_.tolist() == [3, 4, 3, 3]
    # a test value missing where the column has no slot is coded 0, as the ESKDB code's (int) NaN
    row = X[:1].copy()
    row_nan, row_zero = row.copy(), row.copy()
    row_nan[0, 2], row_zero[0, 2] = np.nan, 0.0
    np.testing.assert_array_equal(est.predict_proba(row_nan), est.predict_proba(row_zero))
    # where the column has a slot, a missing value is its own value (code 3 of column 1)
    assert est._encode(np.array([[0.0, np.nan, 0.0, 0.0]]))[0, 1] == 3


def test_nb_as_kdb0_is_the_eskdb_code_m_estimate_on_complete_data():
    """KDB k = 0 = the ESKDB code's NB: P(y) = (n_y + 1/C) / (N + 1), P(x | y) = (n_xy + 1/|X|) / (n_y + 1)
    with |X| the column's values (no missing slot on complete data), hand-computed from counts."""
    X, y = nominal_data(n=90, d=3, k=4, C=3, seed=11)
    Xte, _ = nominal_data(n=20, d=3, k=4, C=3, seed=12)
    p = KDB(k=0).fit(X, y).predict_proba(Xte)
    C, N = 3, len(y)
    want = np.zeros((len(Xte), C))
    for r, x in enumerate(Xte):
        for c in range(C):
            ny = np.sum(y == c)
            v = (ny + 1 / C) / (N + 1)
            for a in range(3):
                v *= (np.sum((X[:, a] == x[a]) & (y == c)) + 1 / 4) / (ny + 1)
            want[r, c] = v
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(p, want, rtol=1e-12)
    # bench's earlier rule gives base rate 1/(|X| + 1) and other probabilities
    old = KDB(k=0, missing_slot="always").fit(X, y).predict_proba(Xte)
    assert np.max(np.abs(old - want)) > 1e-4


def test_weka_sort_hand_cases_and_reversed_tie_order():
    from algorithms.bnc import descending_order, weka_sort
    # 3 equal values: Weka sorts a range of 3 by three conditional swaps, none fires -> 0, 1, 2
    assert weka_sort([0.5, 0.5, 0.5]).tolist() == [0, 1, 2]
    assert descending_order([0.5, 0.5, 0.5], "weka").tolist() == [2, 1, 0]
    assert descending_order([0.5, 0.5, 0.5], "stable").tolist() == [0, 1, 2]
    # 5 equal values, traced by hand through median-of-three, the pivot parked at index 3 and
    # one swap of the partition: index (0, 3, 2, 1, 4) -- the sort is not stable
    assert weka_sort([0.0] * 5).tolist() == [0, 3, 2, 1, 4]
    assert descending_order([0.0] * 5, "weka").tolist() == [4, 1, 2, 3, 0]
    assert descending_order([0.1, 0.3, 0.2], "weka").tolist() == [1, 2, 0]   # no ties: plain descending


def test_weka_sort_equals_weka_jar():
    """Against weka.core.Utils.sort of the installed Weka 3.6 on random arrays with many ties."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from algorithms.bnc import weka_sort
    jar = Path("/usr/share/java/weka.jar")
    if not (jar.exists() and shutil.which("javac") and shutil.which("java")):
        pytest.skip("needs Weka 3.6 (/usr/share/java/weka.jar) and a JDK")
    src = ("import weka.core.Utils; import java.io.*; public class WS { public static void main(String[] a) "
           "throws Exception { BufferedReader br = new BufferedReader(new InputStreamReader(System.in)); String l; "
           "while ((l = br.readLine()) != null) { String[] t = l.trim().split(\",\"); double[] v = new double[t.length];"
           " for (int i = 0; i < t.length; i++) v[i] = Double.parseDouble(t[i]); int[] s = Utils.sort(v); "
           "StringBuilder b = new StringBuilder(); for (int i = 0; i < s.length; i++) { if (i > 0) b.append(\",\"); "
           "b.append(s[i]); } System.out.println(b); } } }")
    rng = np.random.default_rng(4)
    arrs = [rng.integers(0, 3, size=rng.integers(1, 40)).astype(float) for _ in range(200)]
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "WS.java").write_text(src)
        subprocess.run(["javac", "-cp", str(jar), "WS.java"], cwd=tmp, check=True, capture_output=True)
        out = subprocess.run(["java", "-cp", f"{jar}:{tmp}", "WS"], input="\n".join(
            ",".join(repr(float(x)) for x in a) for a in arrs) + "\n", capture_output=True, text=True,
            check=True).stdout.split("\n")
    for a, line in zip(arrs, out):
        assert [int(t) for t in line.split(",")] == weka_sort(a).tolist()


def test_kdb_tie_order_changes_order_and_parents():
    """Three identical columns have exactly equal MI and pairwise CMI: the stable rule keeps index
    order, the ESKDB code's reversed Weka sort puts the higher index first (hand-traced above)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    x = (y + (rng.random(200) < 0.3)) % 2
    X = np.column_stack([x, x, x]).astype(float)
    stable = KDB(k=2, tie_order="stable").fit(X, y)
    weka = KDB(k=2, tie_order="weka").fit(X, y)
    assert stable.order_.tolist() == [0, 1, 2]
    assert stable.parents_ == [(), (0,), (0, 1)]
    assert weka.order_.tolist() == [2, 1, 0]
    # attribute 0 (third): candidates (2, 1) with equal CMI, Weka's 2-element sort keeps (0, 1),
    # reversed -> position 1 first, i.e. attribute 1, then attribute 2
    assert weka.parents_ == [(1, 2), (2,), ()]
    sk = SKDB(max_k=2, tie_order="weka").fit(X, y)
    assert sk.order_.tolist() == [2, 1, 0] and sk.max_parents_ == [(1, 2), (2,), ()]


def _loo_prior_start(cc, xc, n, K, mest):
    """Row r's leave-one-out class prior ``mest(#c - [c = y_r], n - 1, C)``, normalised: the
    starting posterior of every model k = 0..K (class counts ``cc``, true class ``xc``)."""
    C = len(cc)
    prior = np.array([mest(cc[c] - (c == xc), n - 1, C) for c in range(C)], dtype=float)
    return np.tile(prior / prior.sum(), (K + 1, 1))


def _authors_loo(X, y, order, parents, K, C, V, m=1.0):
    """Direct transcription of the ESKDB code's SKDB third pass (learnStructureSKDB with
    ploocv and wdBayesParametersTree.updateClassDistributionloocv) on dictionaries of counts."""
    from collections import Counter
    n = len(y)
    cnt = {}
    for a in order:
        for d in range(len(parents[a]) + 1):
            c_ = Counter()
            for r in range(n):
                c_[(tuple(X[r, list(parents[a][:d])]), X[r, a], y[r])] += 1
            cnt[(a, d)] = c_

    def mest(f1, f2, nv):
        return (f1 + m / nv) / (f2 + m)

    cc = np.bincount(y, minlength=C)
    loss = np.zeros((K + 1, len(order)))
    prior_loss = 0.0
    for r in range(n):
        xc = y[r]
        dist = _loo_prior_start(cc, xc, n, K, mest)
        prior_loss += (1 - dist[0, xc]) ** 2
        for u, a in enumerate(order):
            pa, uval = parents[a], X[r, a]
            D = len(pa)

            def est(d, c):
                path = tuple(X[r, list(pa[:d])])
                tot = sum(cnt[(a, d)][(path, xx, c)] for xx in range(V[a]))
                sub = int(c == xc)
                return mest(cnt[(a, d)][(path, uval, c)] - sub, tot - sub, V[a])

            depth, stopped = 0, False
            while depth < D:
                for c in range(C):
                    dist[depth, c] *= est(depth, c)
                nxt = tuple(X[r, list(pa[:depth + 1])])
                if sum(cnt[(a, depth + 1)][(nxt, uval, c)] for c in range(C)) < 2:
                    depth += 1
                    for c in range(C):
                        dist[depth, c] *= est(depth - 1, c)
                    stopped = True
                    break
                depth += 1
            if not stopped:
                for c in range(C):
                    dist[depth, c] *= est(depth, c)
            for k in range(depth + 1, K + 1):
                dist[k] = dist[depth]
            for k in range(K + 1):
                dist[k] /= dist[k].sum()
                loss[k, u] += (1 - dist[k, xc]) ** 2
    return np.sqrt(loss / n), math.sqrt(prior_loss / n)


def test_skdb_authors_loo_rule_equals_transcription_of_eskdb_code():
    X, y = nominal_data(n=80, d=5, k=5, C=3, seed=7, noise=0.5)
    K = 3
    est = SKDB(max_k=K, loo_rule="authors", missing="mode").fit(X, y)
    order = est.order_.tolist()
    parents = {a: est.max_parents_[a] for a in order}
    rmse, prior = _authors_loo(X, y, order, parents, K, 3, est.n_values_.tolist())
    np.testing.assert_allclose(est.loo_rmse_, rmse, rtol=1e-10)
    assert est.loo_rmse_prior_ == pytest.approx(prior, rel=1e-12)
    best, n_sel, k_sel = prior, 0, 0
    for u in range(len(order)):
        for k in range(K + 1):
            if rmse[k, u] < best:
                best, n_sel, k_sel = rmse[k, u], u + 1, k
    assert (est.n_selected_, est.k_) == (n_sel, k_sel)
    # the rule matters on these data (rare values stop the walk early): not bench's exact LOO
    exact = SKDB(max_k=K, loo_rule="exact", missing="mode").fit(X, y)
    assert np.max(np.abs(exact.loo_rmse_ - est.loo_rmse_)) > 1e-3


def test_new_options_are_validated():
    X, y = nominal_data(n=40, d=3)
    for bad in (dict(tie_order="random"), dict(missing_slot="sometimes")):
        with pytest.raises(ValueError, match=list(bad)[0]):
            KDB(**bad).fit(X, y)
    with pytest.raises(ValueError, match="loo_rule"):
        SKDB(loo_rule="petal").fit(X, y)
    with pytest.raises(ValueError, match="selection"):
        SKDB(selection="k").fit(X, y)
    with pytest.raises(ValueError, match="backoff"):
        KDB(backoff="parents").fit(X, y)


# --------------------------------------------------------------------------- Petal's rules (kdb.cpp, selective-kdb)
# Agreement with the Petal binary itself: tests/test_petal_agreement.py (skipped without it).
def test_std_sort_equals_libstdcxx():
    """``std_sort`` against permutations printed by g++ 12's ``std::sort(idx, idx + n, [&](a, b) {
    return v[a] > v[b]; })``: a tie-heavy array of 40 (introsort, not stable) and McIlroy's
    adversary against that sort (n = 40, which exhausts the depth limit: the heapsort path)."""
    from algorithms.bnc import descending_order, std_sort

    ties = [3, 2, 2, 3, 2, 3, 3, 0, 0, 1, 1, 3, 3, 0, 1, 3, 0, 3, 0, 1, 3, 1, 1, 1, 2, 1, 3, 1, 1, 2, 2, 2, 2, 3, 3,
            3, 2, 2, 1, 3]
    assert std_sort(ties).tolist() == [20, 39, 35, 34, 33, 26, 0, 17, 15, 12, 11, 3, 6, 5, 1, 37, 36, 2, 4, 32, 31,
                                       30, 29, 24, 25, 38, 28, 27, 10, 23, 22, 21, 19, 14, 9, 18, 7, 16, 8, 13]
    killer = [-38, -1, -36, -3, -34, -5, -32, -7, -37, -9, -33, -11, -40, -13, -31, -15, -35, -17, -20, -19, 0, -2,
              -4, -6, -8, -10, -12, -14, -16, -18, -30, -27, -28, -25, -26, -23, -24, -21, -22, -29]
    assert std_sort(killer).tolist() == [20, 1, 21, 3, 22, 5, 23, 7, 24, 9, 25, 11, 26, 13, 27, 15, 28, 17, 29, 19,
                                         18, 37, 38, 35, 36, 33, 34, 31, 32, 39, 30, 14, 6, 10, 4, 16, 2, 8, 0, 12]
    # up to 16 elements std::sort is one insertion sort: stable
    rng = np.random.default_rng(0)
    for n in range(17):
        v = rng.integers(0, 3, n)
        assert std_sort(v).tolist() == np.argsort(-v, kind="stable").tolist()
    # float_std_sort compares in float: values equal in float32 are ties
    assert descending_order([0.1, 0.1 + 1e-12, 0.2], "float_std_sort").tolist() == [2, 0, 1]
    assert descending_order([0.1, 0.1 + 1e-12, 0.2], "stable").tolist() == [2, 1, 0]


def test_petal_information_is_mi_and_cmi_in_float():
    from algorithms.bnc import petal_information

    X, y = nominal_data(n=200, d=4)
    X = np.column_stack([X, X[:, 1]])           # a duplicate: equal MI and equal CMI with the others
    info = pairwise_information(X.astype(np.int8), y, [3] * 5, 3)
    mi, cmi = petal_information(info)
    assert mi.dtype == np.float32 and cmi.dtype == np.float32
    np.testing.assert_allclose(mi, info.mi, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(cmi, info.cmi, rtol=1e-5, atol=1e-6)
    assert mi[1] == mi[4] and cmi[0, 1] == cmi[0, 4] and cmi[1, 4] > 0


def _petal_kdb_posteriors(X, y, Xte, parents, C, V):
    """Transcription of Petal's ``kdb::classify`` (``distributionCatTree::updateClassDistribution``):
    for each attribute, walk down its parents while the training data hold the row's parent values
    (any class), then ``mEstimate(#(x, y, node), #(y, node), |X|)`` with M = 1 for every class."""
    post = np.zeros((len(Xte), C))
    for r, x in enumerate(Xte):
        p = np.array([(np.sum(y == c) + 1 / C) / (len(y) + 1) for c in range(C)])
        for a, pa in enumerate(parents):
            node = np.ones(len(y), bool)
            for q in pa:
                nxt = node & (X[:, q] == x[q])
                if not nxt.any():
                    break
                node = nxt
            for c in range(C):
                p[c] *= (np.sum(node & (y == c) & (X[:, a] == x[a])) + 1 / V[a]) / (np.sum(node & (y == c)) + 1)
        post[r] = p / p.sum()
    return post


@pytest.mark.parametrize("k", [1, 3])
def test_kdb_seen_parents_backoff_equals_petal_transcription(k):
    X, y = nominal_data(n=60, d=5, k=6, C=3, seed=11, noise=0.6)       # sparse paths: back-off matters
    Xte, _ = nominal_data(n=80, d=5, k=6, C=3, seed=12, noise=0.9)
    est = KDB(k=k, backoff="seen_parents", tie_order="float_std_sort", missing="mode").fit(X, y)
    ref = _petal_kdb_posteriors(X, y, Xte, est.parents_, 3, est.n_values_)
    np.testing.assert_allclose(est.predict_proba(Xte), ref, rtol=1e-10, atol=1e-14)
    per_class = KDB(k=k, tie_order="float_std_sort", missing="mode").fit(X, y)
    assert np.max(np.abs(per_class.predict_proba(Xte) - ref)) > 1e-3


def _petal_selective_loo(X, y, order, parents, K, C, V):
    """Transcription of Petal's ``kdbSelectiveClean::trainPass3`` with ``+selectiveK``
    (``yDist::ploocv`` and ``distributionCatTree::updateClassDistributionloocvWithNB``): summed
    squared errors of the true class's LOO posterior, per k and attribute."""
    n = len(y)

    def mest(x, t, v):
        return (x + 1 / v) / (t + 1)

    loss = np.zeros((K + 1, len(order)))
    prior_loss = 0.0
    cc = np.bincount(y, minlength=C)
    for r, xc in enumerate(y):
        dist = _loo_prior_start(cc, xc, n, K, mest)
        prior_loss += (1 - dist[0, xc]) ** 2
        for u, a in enumerate(order):
            pa, v = parents[a], X[r, a]

            def est(node, c):
                sub = int(c == xc)
                return mest(np.sum(node & (y == c) & (X[:, a] == v)) - sub, np.sum(node & (y == c)) - sub, V[a])

            node, depth = np.ones(n, bool), 0
            while True:
                for c in range(C):
                    dist[depth, c] *= est(node, c)
                if depth == len(pa):
                    rest = range(depth + 1, K + 1)
                    break
                nxt = node & (X[:, pa[depth]] == X[r, pa[depth]])
                if np.sum(nxt & (X[:, a] == v)) < 2:
                    rest = range(depth + 1, K + 1)
                    break
                node, depth = nxt, depth + 1
            for k in rest:
                for c in range(C):
                    dist[k, c] *= est(node, c)
            for k in range(K + 1):
                dist[k] /= dist[k].sum()
                loss[k, u] += (1 - dist[k, xc]) ** 2
    return loss, prior_loss


def test_skdb_min_count_loo_and_attribute_selection_equal_petal_transcription():
    X, y = nominal_data(n=80, d=5, k=5, C=3, seed=7, noise=0.5)
    K = 3
    both = SKDB(max_k=K, loo_rule="min_count", backoff="seen_parents", missing="mode").fit(X, y)
    order = both.order_.tolist()
    parents = {a: both.max_parents_[a] for a in order}
    loss, prior_loss = _petal_selective_loo(X, y, order, parents, K, 3, both.n_values_.tolist())
    np.testing.assert_allclose(both.loo_rmse_, np.sqrt(loss / len(y)), rtol=1e-10)
    assert both.loo_rmse_prior_ == pytest.approx(math.sqrt(prior_loss / len(y)), rel=1e-12)
    # Petal's selective-kdb without +selectiveK: k = K, the attributes alone
    attrs = SKDB(max_k=K, loo_rule="min_count", backoff="seen_parents", missing="mode", selection="attributes").fit(X, y)
    best, n_sel = prior_loss, 0
    for u in range(len(order)):
        if loss[K, u] < best:
            best, n_sel = loss[K, u], u + 1
    assert n_sel > 0 and (attrs.n_selected_, attrs.k_) == (n_sel, K)
    assert attrs.parents_ == [both.max_parents_[a] if a in order[:n_sel] else None for a in range(5)]
    # the rule differs from the ESKDB code's (overwriting) and from the exact LOO on these data
    for rule in ("authors", "exact"):
        other = SKDB(max_k=K, loo_rule=rule, backoff="seen_parents", missing="mode").fit(X, y)
        assert np.max(np.abs(other.loo_rmse_ - both.loo_rmse_)) > 1e-4, rule
