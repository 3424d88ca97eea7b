"""AnDE (Zaidi and Webb 2013): hand-computed cases, a brute-force pure-Python AnDE, the A(n-1)DE fall-back,
subsumption resolution on a female/pregnant example, MI weights, partial_fit, underflow, sklearn."""

import math
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from algorithms._counts import CountTableTooLarge
from algorithms.ande import AnDE


# --------------------------------------------------------------------------- brute force reference
class BruteAnDE:
    """Zaidi and Webb 2013's equations evaluated literally with Python dicts and loops (no shared code)."""

    def __init__(self, X, y, k, C, n, smoothing="m_estimate", m=1.0, sr=None, weighting=False, min_count=1):
        self.k, self.C, self.n = list(k), C, n
        self.smoothing, self.m, self.sr, self.weighting, self.min_count = smoothing, m, sr, weighting, min_count
        self.N = len(y)
        self.class_count = Counter(int(v) for v in y)
        d = X.shape[1]
        self.joint = Counter()   # (attrs, values, y) -> count, over rows with attrs observed
        for row, cls in zip(X, y):
            obs = [j for j in range(d) if not math.isnan(row[j])]
            for t in range(1, max(n + 1, 2) + 1):
                for s in combinations(obs, t):
                    self.joint[(s, tuple(int(row[j]) for j in s), int(cls))] += 1

    def est(self, count, total, K):
        if self.smoothing == "laplace":
            return (count + 1) / (total + K)
        return (count + self.m / K) / (total + self.m)

    def cnt(self, attrs, vals, y=None):
        order = sorted(range(len(attrs)), key=lambda i: attrs[i])
        s, v = tuple(attrs[i] for i in order), tuple(vals[i] for i in order)
        if y is not None:
            return self.joint[(s, v, y)]
        return sum(self.joint[(s, v, c)] for c in range(self.C))

    def observed(self, attrs, y=None):
        """Rows with every attribute of ``attrs`` observed (and class y)."""
        s = tuple(sorted(attrs))
        return sum(c for (a, _, cls), c in self.joint.items() if a == s and (y is None or cls == y))

    def mi(self, s):
        N = self.observed(s)
        out = 0.0
        for (a, v, cls), c in self.joint.items():
            if a == tuple(s) and c > 0:
                out += c / N * math.log2(c * N / (self.cnt(s, v) * self.observed(s, cls)))
        return out

    def kept(self, x):
        active = [j for j in range(len(x)) if not math.isnan(x[j])]
        if self.sr is None:
            return active
        keep = []
        for i in active:
            drop = False
            for j in active:
                if j == i:
                    continue
                fi, fj = self.cnt((i,), (int(x[i]),)), self.cnt((j,), (int(x[j]),))
                fij = self.cnt((i, j), (int(x[i]), int(x[j])))
                # text of section 2: x_j specialises x_i; ties: delete the higher index
                if fj == fij and fj > self.sr and (fi > fj or j < i):
                    drop = True
            if not drop:
                keep.append(i)
        return keep

    def joint_proba(self, x):
        kept = self.kept(x)
        for L in range(self.n, -1, -1):
            if L == 0:
                p = []
                for y in range(self.C):
                    v = self.est(self.class_count[y], self.N, self.C)
                    for c in kept:
                        v *= self.est(self.cnt((c,), (int(x[c]),), y), self.observed((c,), y), self.k[c])
                    p.append(v)
                return np.array(p)
            parents = [s for s in combinations(kept, L)
                       if self.cnt(s, tuple(int(x[j]) for j in s)) >= self.min_count]
            if not parents:
                continue
            p = np.zeros(self.C)
            wsum = 0.0
            for s in parents:
                xs = tuple(int(x[j]) for j in s)
                w = max(self.mi(s), 1e-100) if self.weighting else 1.0
                wsum += w
                K = self.C * math.prod(self.k[j] for j in s)
                for y in range(self.C):
                    v = self.est(self.cnt(s, xs, y), self.observed(s), K)
                    for c in kept:
                        if c in s:
                            continue  # P(x_i | y, x_s) = 1 for i in s: left out
                        num = self.cnt(s + (c,), xs + (int(x[c]),), y)
                        den = sum(self.cnt(s + (c,), xs + (u,), y) for u in range(self.k[c]))
                        v *= self.est(num, den, self.k[c])
                    p[y] += w * v
            return p / wsum

    def predict_proba(self, X):
        P = np.array([self.joint_proba(x) for x in X])
        return P / P.sum(1, keepdims=True)


def random_data(n=150, d=5, C=3, seed=0, missing=0.08, n_test=40):
    """Random nominal data with class signal, plus two columns that make subsumption happen:
    a specialisation of column 0 (its value 0 implies x_0 = 0) and a copy of column 2 (a tie)."""
    rng = np.random.default_rng(seed)
    k = rng.integers(2, 4, d)
    y = rng.integers(0, C, n + n_test)
    X = np.where(rng.random((n + n_test, d)) < 0.5, y[:, None] % k, rng.integers(0, k, (n + n_test, d))).astype(float)
    special = np.where((X[:, 0] == 0) & (rng.random(n + n_test) < 0.7), 0, 1 + (rng.random(n + n_test) < 0.5))
    X = np.column_stack([X, special, X[:, 2]])
    k = np.concatenate([k, [3, k[2]]])
    X[rng.random(X.shape) < missing] = np.nan
    X[np.isnan(X[:, 0]), d] = np.nan          # keep the implications exact under missing values
    X[np.isnan(X[:, d + 1]), 2] = np.nan
    X[np.isnan(X[:, 2]), d + 1] = np.nan
    return X[:n], y[:n], X[n:], y[n:], k, C


# --------------------------------------------------------------------------- agreement with brute force
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("sr, weighting", [(None, False), (5, False), (None, True), (5, True)])
def test_matches_brute_force_ande(n, sr, weighting):
    Xtr, ytr, Xte, _, k, C = random_data(seed=n)
    est = AnDE(n=n, subsumption=sr is not None, sr_threshold=sr or 100, weighting="mi" if weighting else "none",
               n_categories=k).fit(Xtr, ytr)
    ref = BruteAnDE(Xtr, ytr, k, C, n, sr=sr, weighting=weighting).predict_proba(Xte)
    assert np.allclose(est.predict_proba(Xte), ref, rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("smoothing, min_count", [("laplace", 1), ("m_estimate", 0), ("laplace", 3)])
def test_matches_brute_force_other_estimates(smoothing, min_count):
    Xtr, ytr, Xte, _, k, C = random_data(seed=7, n=60)
    est = AnDE(n=2, smoothing=smoothing, min_parent_count=min_count, n_categories=k).fit(Xtr, ytr)
    ref = BruteAnDE(Xtr, ytr, k, C, 2, smoothing=smoothing, min_count=min_count).predict_proba(Xte)
    assert np.allclose(est.predict_proba(Xte), ref, rtol=1e-10, atol=1e-13)


def test_subsumption_actually_deletes_in_the_brute_force_cases():
    Xtr, ytr, Xte, _, k, C = random_data(seed=1)
    est = AnDE(n=1, subsumption=True, sr_threshold=5, n_categories=k).fit(Xtr, ytr)
    deleted = (~np.isnan(Xte)).sum(1) - est.explain(Xte)["n_kept"]
    assert (deleted >= 1).mean() > 0.5 and (deleted >= 2).any()


# --------------------------------------------------------------------------- hand-computed cases
def test_a1de_by_hand_laplace():
    # x0, x1 binary; 4 training rows:  (0,0,y0) (0,1,y0) (1,1,y1) (0,1,y1)
    X = np.array([[0, 0], [0, 1], [1, 1], [0, 1]], dtype=float)
    y = np.array([0, 0, 1, 1])
    est = AnDE(n=1, smoothing="laplace").fit(X, y)
    # test x = (0, 1). Parent x0=0: P(y0,x0=0) = (2+1)/(4+4), P(x1=1|y0,x0=0) = (1+1)/(2+2)
    #                               P(y1,x0=0) = (1+1)/(4+4), P(x1=1|y1,x0=0) = (1+1)/(1+2)
    #                  parent x1=1: P(y0,x1=1) = (1+1)/(4+4), P(x0=0|y0,x1=1) = (1+1)/(1+2)
    #                               P(y1,x1=1) = (2+1)/(4+4), P(x0=0|y1,x1=1) = (1+1)/(2+2)
    p0 = 3 / 8 * 2 / 4 + 2 / 8 * 2 / 3
    p1 = 2 / 8 * 2 / 3 + 3 / 8 * 2 / 4
    assert np.allclose(est.predict_proba([[0, 1]]), [[p0 / (p0 + p1), p1 / (p0 + p1)]])
    # m-estimate, m = 1: P(y0, x0=0) = (2 + 1/4)/(4 + 1), P(x1=1 | y0, x0=0) = (1 + 1/2)/(2 + 1), ...
    est = AnDE(n=1, smoothing="m_estimate", m=1.0).fit(X, y)
    q0 = 2.25 / 5 * 1.5 / 3 + 1.25 / 5 * 1.5 / 2
    q1 = 1.25 / 5 * 1.5 / 2 + 2.25 / 5 * 1.5 / 3
    assert np.allclose(est.predict_proba([[0, 1]])[0], [q0 / (q0 + q1), q1 / (q0 + q1)])


def test_nb_by_hand_and_a0de_equals_naive_bayes():
    X = np.array([[0, 0], [0, 1], [1, 1], [0, 1], [1, np.nan]], dtype=float)
    y = np.array([0, 0, 1, 1, 1])
    est = AnDE(n=0, smoothing="laplace").fit(X, y)
    # P(y0) = 3/7, P(y1) = 4/7; P(x0=1|y0) = 1/4, P(x0=1|y1) = 3/5; P(x1=0|y0) = 2/4, P(x1=0|y1) = 1/4
    p0, p1 = 3 / 7 * 1 / 4 * 2 / 4, 4 / 7 * 3 / 5 * 1 / 4
    assert np.allclose(est.predict_proba([[1, 0]])[0], [p0 / (p0 + p1), p1 / (p0 + p1)])
    # a missing test value is left out of the product
    q0, q1 = 3 / 7 * 1 / 4, 4 / 7 * 3 / 5
    assert np.allclose(est.predict_proba([[1, np.nan]])[0], [q0 / (q0 + q1), q1 / (q0 + q1)])


def test_mi_weights_equal_eq2():
    Xtr, ytr, _, _, k, C = random_data(seed=3, missing=0.0)
    est = AnDE(n=2, weighting="mi", n_categories=k).fit(Xtr, ytr)
    from sklearn.metrics import mutual_info_score

    cnt = est.counts_
    for j in range(Xtr.shape[1]):
        assert est.weights_[cnt.set_index([j])] == pytest.approx(mutual_info_score(Xtr[:, j], ytr) / math.log(2))
    pair = Xtr[:, 1] * 10 + Xtr[:, 3]
    assert est.weights_[cnt.set_index([1, 3])] == pytest.approx(mutual_info_score(pair, ytr) / math.log(2))


# --------------------------------------------------------------------------- fall-back (Eq. 1, second case)
def test_a1de_falls_back_to_nb_when_no_parent_value_was_seen():
    X = np.array([[0, 0], [0, 1], [1, 1], [1, 0], [0, 1]], dtype=float)
    y = np.array([0, 1, 0, 1, 1])
    a1 = AnDE(n=1, n_categories=[3, 3]).fit(X, y)
    nb = AnDE(n=0, n_categories=[3, 3]).fit(X, y)
    unseen = np.array([[2, 2]], dtype=float)   # value 2 declared but never seen: delta = 0 for both parents
    assert a1.explain(unseen)["level"].tolist() == [0]
    assert np.allclose(a1.predict_proba(unseen), nb.predict_proba(unseen))
    half = np.array([[2, 1]], dtype=float)     # x1 = 1 was seen: A1DE with the single parent x1
    assert a1.explain(half)["level"].tolist() == [1]
    assert not np.allclose(a1.predict_proba(half), nb.predict_proba(half))


def test_a2de_falls_back_to_a1de_when_no_parent_pair_was_seen():
    X = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=float)
    y = np.array([0, 1, 0, 1, 1])
    a2 = AnDE(n=2).fit(X, y)
    a1 = AnDE(n=1).fit(X, y)
    x = np.array([[1, 1, 1]], dtype=float)   # each value 1 occurs, but no two of them together
    assert a2.explain(x)["level"].tolist() == [1]
    assert np.allclose(a2.predict_proba(x), a1.predict_proba(x))
    seen = np.array([[0, 1, 1]], dtype=float)   # the pair (x0=0, x1=1) occurs
    assert a2.explain(seen)["level"].tolist() == [2]


# --------------------------------------------------------------------------- subsumption resolution
def female_pregnant_data(n=600, seed=0):
    """sex (0 male, 1 female), pregnant (0 no, 1 yes), two noisy attributes; pregnant implies female."""
    rng = np.random.default_rng(seed)
    sex = rng.integers(0, 2, n)
    pregnant = np.where(sex == 1, rng.random(n) < 0.4, 0).astype(int)
    y = np.where(rng.random(n) < 0.8, pregnant, rng.integers(0, 2, n))
    other = rng.integers(0, 3, (n, 2))
    return np.column_stack([sex, pregnant, other]).astype(float), y


def test_subsumption_female_pregnant():
    X, y = female_pregnant_data()
    assert (X[:, 1] == 1).sum() > 100
    sr = AnDE(n=1, subsumption=True, sr_threshold=100).fit(X, y)
    # female + pregnant: female is the generalisation (#(pregnant) = #(female, pregnant) > 100) -> dropped
    x = np.array([[1, 1, 0, 2]], dtype=float)
    assert sr.explain(x)["n_kept"].tolist() == [3]
    no_sex = AnDE(n=1).fit(X[:, 1:], y)
    assert np.allclose(sr.predict_proba(x), no_sex.predict_proba(x[:, 1:]), rtol=1e-12)
    # male + not-pregnant: male implies not-pregnant -> not-pregnant dropped, male kept
    x = np.array([[0, 0, 1, 1]], dtype=float)
    no_preg = AnDE(n=1).fit(X[:, [0, 2, 3]], y)
    assert sr.explain(x)["n_kept"].tolist() == [3]
    assert np.allclose(sr.predict_proba(x), no_preg.predict_proba(x[:, [0, 2, 3]]), rtol=1e-12)
    # female + not-pregnant: neither subsumes the other -> both kept
    x = np.array([[1, 0, 1, 1]], dtype=float)
    assert sr.explain(x)["n_kept"].tolist() == [4]
    # below the threshold nothing is deleted
    assert AnDE(n=1, subsumption=True, sr_threshold=10**6).fit(X, y).explain(x)["n_kept"].tolist() == [4]


def test_subsumption_tie_deletes_the_higher_index():
    X, y = female_pregnant_data()
    X = np.column_stack([X, X[:, 1]])   # attribute 4 duplicates attribute 1: #(x_1) = #(x_4) = #(x_1, x_4)
    sr = AnDE(n=1, subsumption=True, sr_threshold=100).fit(X, y)
    x = np.array([[1, 1, 0, 2, 1]], dtype=float)
    # sex deleted (generalisation of pregnant), attribute 4 deleted (tie, higher index than 1)
    assert sr.explain(x)["n_kept"].tolist() == [3]
    ref = AnDE(n=1).fit(X[:, [1, 2, 3]], y)
    assert np.allclose(sr.predict_proba(x), ref.predict_proba(x[:, [1, 2, 3]]), rtol=1e-12)


# --------------------------------------------------------------------------- properties
@pytest.mark.parametrize("params", [dict(n=1), dict(n=2, subsumption=True, weighting="mi"),
                                    dict(n=3, smoothing="laplace", missing="value")])
def test_partial_fit_equals_fit(params):
    Xtr, ytr, Xte, _, k, C = random_data(n=300, seed=11)
    full = AnDE(**params, n_categories=k).fit(Xtr, ytr)
    part = AnDE(**params, n_categories=k)
    for lo, hi in [(0, 7), (7, 150), (150, 300)]:
        part.partial_fit(Xtr[lo:hi], ytr[lo:hi], classes=np.arange(C))
    assert np.array_equal(full.counts_.counts, part.counts_.counts)
    assert np.array_equal(full.predict_proba(Xte), part.predict_proba(Xte))


def test_probabilities_sum_to_one_and_predict_is_argmax():
    Xtr, ytr, Xte, _, k, C = random_data(n=300, seed=5)
    for n in (0, 1, 2, 3):
        est = AnDE(n=n, subsumption=n > 0, sr_threshold=10, weighting="mi" if n else "none").fit(Xtr, ytr)
        P = est.predict_proba(Xte)
        assert P.shape == (len(Xte), C) and np.all(P >= 0)
        assert np.allclose(P.sum(1), 1.0)
        assert np.array_equal(est.predict(Xte), est.classes_[P.argmax(1)])


def test_many_attributes_do_not_underflow():
    rng = np.random.default_rng(0)
    n, d = 400, 300
    y = rng.integers(0, 3, n)
    X = np.where(rng.random((n, d)) < 0.3, y[:, None], rng.integers(0, 4, (n, d))).astype(float)
    est = AnDE(n=1).fit(X[:300], y[:300])
    lj = est.predict_log_joint(X[300:])
    assert np.all(np.isfinite(lj)) and lj.max() < -300 * math.log(2)   # far below double range in linear space
    P = est.predict_proba(X[300:])
    assert np.allclose(P.sum(1), 1) and np.mean(P.argmax(1) == y[300:]) > 0.9
    # the same model in plain log space (sum of logs per sub-model, then log-sum-exp over parents)
    ref = BruteLogA1DE(X[:300], y[:300], 4, 3).log_joint(X[300:310])
    assert np.allclose(lj[:10], ref, rtol=1e-11)


class BruteLogA1DE:
    """A1DE (m-estimate m=1, no missing values) entirely in log space with NumPy, for the underflow test."""

    def __init__(self, X, y, k, C):
        self.X, self.y, self.k, self.C = X.astype(int), y, k, C

    def log_joint(self, Xt):
        X, y, k, C = self.X, self.y, self.k, self.C
        N, d = X.shape
        out = []
        for x in Xt.astype(int):
            terms = []
            for p in range(d):
                mp = X[:, p] == x[p]
                if not mp.any():
                    continue
                lp = np.zeros(C)
                for c in range(C):
                    sel = mp & (y == c)
                    lp[c] = math.log((sel.sum() + 1 / (C * k)) / (N + 1))
                    child = np.log(((X[sel] == x[None, :]).sum(0) + 1 / k) / (sel.sum() + 1))
                    lp[c] += child.sum() - child[p]          # every attribute but the parent
                terms.append(lp)
            T = np.array(terms)
            hi = T.max(0)
            out.append(hi + np.log(np.exp(T - hi).sum(0)) - math.log(len(terms)))
        return np.array(out)


# --------------------------------------------------------------------------- errors
def test_errors_name_the_problem():
    X = np.array([[0, 1.5], [1, 0.2], [0, 2.0]])
    y = np.array([0, 1, 0])
    with pytest.raises(ValueError, match="columns \\[1\\] are numeric; discretise"):
        AnDE(categorical_features=[True, False]).fit(X, y)
    with pytest.raises(ValueError, match="not a nominal code"):
        AnDE().fit(X, y)
    Xn = np.array([[0, 1], [1, 0], [0, 1]], dtype=float)
    with pytest.raises(ValueError, match="at least 2 classes"):
        AnDE().fit(Xn, [1, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        AnDE().fit(Xn, [0, np.nan, 1])
    est = AnDE(n_categories=[2, 2]).fit(Xn, y)
    with pytest.raises(ValueError, match="unseen category"):
        est.predict(np.array([[0, 5.0]]))
    with pytest.raises(ValueError, match=r"'n' parameter of AnDE must be an int in the range \[0, 3\]"):
        AnDE(n=4).fit(Xn, y)
    with pytest.raises(CountTableTooLarge, match=r"A3DE count tables .* need 3.1 KB"):
        AnDE(n=3, max_table_bytes=1000).fit(np.zeros((5, 12)), [0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="class label 7"):
        AnDE().partial_fit(Xn, y, classes=[0, 1]).partial_fit(Xn, [0, 7, 1])


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    for est in (AnDE(n=1), AnDE(n=2, subsumption=True, weighting="mi", missing="value")):
        check_estimator(est)
