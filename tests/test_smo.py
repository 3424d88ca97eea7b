"""Weka 3.6's SMO (algorithms/smo.py): java.util.Random as specified, a hand-computed machine,
Weka's data filters by hand, the exact solution of the linear SVM dual, and Weka 3.6 itself on
identical folds (the pairwise machines bit for bit).

Agreement measured on this machine over the same calls as ``_weka_agreement`` (stratified CV,
seed 0, every fold): identical predictions (and vote shares) on all rows of iris (10-fold, 150
rows), vowel (10-fold, 990 rows, 3 nominal attributes), credit-a (10-fold, 690 rows, 9 nominal
attributes, 67 missing values), hepatitis (10-fold, 155 rows, 13 nominal attributes, 167 missing
values), segment (10-fold, 2,310 rows), pendigits (10-fold, 10,992 rows) and letter (4-fold, the
MC-Tree protocol, 20,000 rows); accuracy identical on each (letter 82.085 %, pendigits 97.962 %).
Weights and bias of the pairwise machines bit-identical to Weka's on every fold of all seven
(``python -m tests.test_smo sk_iris:10 vowel:10 credit_a:10 hepatitis:10 segment:10 pendigits:10
letter:4``: 30, 550, 10, 10, 210, 450 and 1300 machines).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from algorithms import _smo_kernels as K
from algorithms._base import NotApplicableError
from algorithms.smo import WekaSMO
from bench import weka
from bench.data import load
from bench.protocols import splits

needs_weka = pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")


# --------------------------------------------------------------------------- java.util.Random
def test_java_random_follows_the_documented_generator():
    """``new Random(0).nextInt()`` is -1155484576 and ``new Random(42).nextInt()`` is -1170105035
    (the 48-bit LCG of the Java API); ``nextInt(bound)`` takes ``next(31)``, the same state's top
    31 bits: ``% bound``, or ``bound * r >> 31`` for a power of two."""
    for seed, next32 in ((0, -1155484576), (42, -1170105035)):
        r31 = (next32 & 0xFFFFFFFF) >> 1
        assert K.java_next_int(K.java_random_state(seed), 10) == r31 % 10
        assert K.java_next_int(K.java_random_state(seed), 16) == (16 * r31) >> 31
        assert K.java_next_int(K.java_random_state(seed), 1000) == r31 % 1000


def _java_random_reference(seed: int, bounds: list[int]) -> list[int]:
    """The Java API's specification of Random.nextInt(bound), in Python integers."""
    s = (seed ^ 0x5DEECE66D) & ((1 << 48) - 1)
    out = []
    for bound in bounds:
        while True:
            s = (s * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
            r = s >> 17
            if bound & (bound - 1) == 0:
                out.append((bound * r) >> 31)
                break
            v = r % bound
            if r - v + bound - 1 < 2 ** 31:
                out.append(v)
                break
    return out


def test_java_randomize_is_instances_randomize():
    """``Instances.randomize``: j from n-1 down to 1 swaps j with nextInt(j + 1); bounds near
    2^31 exercise the rejection of the biased range."""
    n = 50
    idx = np.arange(n, dtype=np.int64)
    st = K.java_random_state(1)
    K.java_randomize(idx, st)
    draws = _java_random_reference(1, list(range(n, 1, -1)))
    ref = list(range(n))
    for j, k in zip(range(n - 1, 0, -1), draws):
        ref[j], ref[k] = ref[k], ref[j]
    assert idx.tolist() == ref
    big = [2 ** 31 - 1, 1_500_000_000, 2 ** 30 + 1, 3] * 50
    st = K.java_random_state(7)
    assert [K.java_next_int(st, b) for b in big] == _java_random_reference(7, big)


# --------------------------------------------------------------------------- by hand
def test_two_points_by_hand():
    """x = 3 (class 0) and x = 7 (class 1): normalised to 0 and 1, the hard-margin machine would
    need alpha = 2 > C = 1, so both multipliers stop at C: w = 1 * 1 - 1 * 0 = 1. Both rows are at
    the bound (class 1 in I3, class 0 in I2), F = w.x - y gives b_low = 0 and b_up = 1, and Weka's
    b = (b_low + b_up) / 2 = 0.5: f(x) = (x - 3) / 4 - 0.5. f = 0 at x = 5 votes for class 0."""
    m = WekaSMO().fit(np.array([[3.0], [7.0]]), np.array([0, 1]))
    assert m.coef_.tolist() == [[1.0]] and m.intercept_.tolist() == [-0.5]
    assert m.predict(np.array([[4.9], [5.0], [5.1], [100.0]])).tolist() == [0, 0, 1, 1]
    assert m.predict_proba(np.array([[5.1]])).tolist() == [[0.0, 1.0]]


def test_filters_by_hand():
    """ReplaceMissingValues (mean of the known values, first mode), NominalToBinary (one column
    for a 2-valued attribute, indicators for 3 values, a declared but unseen value included) and
    Normalize ((x - min) / (max - min), 0 for a constant column), fitted on the training rows."""
    X = np.array([[1.0, 0, 2], [3.0, 1, 0], [np.nan, np.nan, np.nan], [5.0, 1, 0]])
    m = WekaSMO(categorical_features=[False, True, True], n_categories=[0, 2, 4]).fit(X, [0, 1, 0, 1])
    assert m.fill_.tolist() == [3.0, 1.0, 0.0]
    Z = m._transform(np.vstack([X, [[7.0, 0, 3]]]))
    expected = np.array([
        # x0: (x - 1) / 4; x1: code (0/1); x2: indicators of 0..3 (1 and 3 unseen: constant -> 0)
        [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
        [0.5, 1.0, 1.0, 0.0, 0.0, 0.0],
        [0.5, 1.0, 1.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        [1.5, 0.0, 0.0, 0.0, 0.0, 0.0]])
    assert np.array_equal(Z, expected)


def test_votes_and_proba():
    """Pairwise votes (K(K-1)/2 per row, the class with most wins predicted) and proba = shares."""
    rng = np.random.default_rng(0)
    centres = np.array([[0, 0], [4, 0], [0, 4], [4, 4]], dtype=float)
    y = np.repeat(np.arange(4), 30)
    X = centres[y] + rng.normal(scale=0.4, size=(120, 2))
    m = WekaSMO().fit(X, y)
    votes = m.predict_votes(X)
    assert np.all(votes.sum(axis=1) == 6) and m.pairs_.shape == (6, 2)
    assert np.array_equal(m.predict_proba(X), votes / 6)
    assert np.array_equal(m.predict(X), np.argmax(votes, axis=1))
    assert np.mean(m.predict(X) == y) > 0.98


# --------------------------------------------------------------------------- the exact dual
def _dual_qp(Z, y, C):
    """max sum a - 1/2 a'Qa, 0 <= a <= C, y'a = 0, by SLSQP to 1e-12 (independent of SMO)."""
    Q = (y[:, None] * Z) @ (y[:, None] * Z).T
    a0 = np.zeros(len(y))
    for _ in range(3):  # SLSQP can stop on a line search it cannot improve (the BLAS's rounding): resume from there
        res = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), a0, jac=lambda a: Q @ a - 1,
                       bounds=[(0, C)] * len(y), constraints=[{"type": "eq", "fun": lambda a: a @ y, "jac": lambda a: y}],
                       method="SLSQP", options={"ftol": 1e-12, "maxiter": 1000})
        if res.success:
            break
        a0 = res.x
    assert res.success, res.message
    a = res.x
    w = (a * y) @ Z
    free = (a > 1e-6) & (a < C - 1e-6)
    b = np.median(Z[free] @ w - y[free])
    return w, b


@pytest.mark.parametrize("gap, C", [(1.0, 1.0), (0.0, 1.0), (0.3, 10.0)])
def test_machine_solves_the_linear_svm_dual(gap, C):
    """On the normalised data, SMO's weight vector and bias are those of the exact solution of the
    dual (separable with a gap, overlapping classes where C binds), to SMO's tolerance."""
    rng = np.random.default_rng(3)
    n = 40
    y01 = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, 3))
    X[:, 0] += np.where(y01 == 1, 1.5 + gap, -1.5 - gap)
    m = WekaSMO(C=C).fit(X, y01)
    Z = m._transform(X)
    w, b = _dual_qp(Z, np.where(y01 == 1, 1.0, -1.0), C)
    assert np.allclose(m.coef_[0], w, atol=5e-3 * max(1.0, np.abs(w).max()))
    assert abs(m.bias_[0] - b) < 5e-3 * max(1.0, abs(b))
    f_exact = Z @ w - b
    clear = np.abs(f_exact) > 0.05
    assert np.array_equal(m.predict(X)[clear], (f_exact[clear] > 0).astype(int))


# --------------------------------------------------------------------------- estimator contract
def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(WekaSMO())


def test_deterministic_and_seed_changes_only_the_order():
    ds = load("sk_iris")
    a = WekaSMO().fit(ds.X, ds.y)
    b = WekaSMO().fit(ds.X, ds.y)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.bias_, b.bias_)
    c = WekaSMO(seed=5).fit(ds.X, ds.y)
    assert np.allclose(a.coef_, c.coef_, atol=0.05 * np.abs(a.coef_).max())
    assert a.diagnostics_["n_machines"] == 3 and a.diagnostics_["smo_steps"] > 0


def test_nominal_drop_uses_the_numeric_columns_only():
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.normal(size=60), rng.integers(0, 3, 60), rng.normal(size=60)])
    y = (X[:, 0] + X[:, 2] > 0).astype(int)
    cat = np.array([False, True, False])
    a = WekaSMO(nominal="drop", categorical_features=cat, n_categories=[0, 3, 0]).fit(X, y)
    b = WekaSMO().fit(X[:, [0, 2]], y)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.predict_proba(X), b.predict_proba(X[:, [0, 2]]))
    with pytest.raises(NotApplicableError, match="numeric attribute"):
        WekaSMO(nominal="drop", categorical_features=[True], n_categories=[3]).fit(X[:, [1]], y)


def test_bad_input_is_named():
    X = np.array([[0.0, 1.5], [1.0, 0.0]])
    with pytest.raises(ValueError, match="nominal column 1"):
        WekaSMO(categorical_features=[False, True]).fit(X, [0, 1])
    with pytest.raises(ValueError, match="filter_type"):
        WekaSMO(filter_type="standardize").fit(X, [0, 1])
    with pytest.raises(ValueError, match="at least 2 classes"):
        WekaSMO().fit(X, [1, 1])


def test_runs_through_the_runner(tmp_path):
    from bench.experiment_plan import algo_config
    from bench.runner import run_job

    for name in ("smo", "smo_numeric"):
        job = run_job(algo_config(name), "synth_mixed", {"name": "cv2", "kind": "kfold", "n_splits": 2}, 0, "t",
                      str(tmp_path), progress=False)
        assert len(job.records) == 2 and all(r["status"] == "ok" for r in job.records)
        assert all(r["extra"]["n_machines"] >= 1 for r in job.records)


# --------------------------------------------------------------------------- Weka 3.6
def _weka_agreement(name, n_folds, folds=None, strict=True):
    """(rows, identical predictions, our correct, Weka's correct, machines, bit-identical machines)
    over the given folds (None: all); ``strict`` asserts identical vote shares on each fold."""
    from bench.weka.smo import machines

    ds = load(name)
    rows = same = ours_ok = weka_ok = n_mach = n_bits = 0
    for s in splits(ds.y, {"kind": "kfold", "n_splits": n_folds}, 0):
        if folds is not None and s.fold not in folds:
            continue
        m = WekaSMO(categorical_features=ds.categorical, n_categories=ds.n_categories).fit(ds.X[s.train], ds.y[s.train])
        ours = np.zeros((len(s.test), ds.n_classes))
        ours[:, m.classes_] = m.predict_proba(ds.X[s.test])
        wk = weka.run(ds, s.train, s.test, "weka.classifiers.functions.SMO", []).proba
        if strict:
            assert np.array_equal(ours, wk)       # the vote shares themselves
        po, pw, yt = ours.argmax(1), wk.argmax(1), ds.y[s.test]
        rows += len(yt)
        same += int(np.sum(po == pw))
        ours_ok += int(np.sum(po == yt))
        weka_ok += int(np.sum(pw == yt))
        ref = machines(ds, s.train, m.coef_.shape[1])
        for p, (i, j) in enumerate(m.pairs_):
            b, w = ref[(int(m.classes_[i]), int(m.classes_[j]))]
            n_mach += 1
            n_bits += int(np.array_equal(w, m.coef_[p]) and b == m.bias_[p])
    return rows, same, ours_ok, weka_ok, n_mach, n_bits


@pytest.mark.weka
@needs_weka
@pytest.mark.parametrize("name, n_folds, folds", [("sk_iris", 10, [0, 1, 2]), ("vowel", 10, [0]),
                                                  ("credit_a", 10, [0]), ("hepatitis", 10, [0])])
def test_same_machines_as_weka_smo(name, n_folds, folds):
    """Weka 3.6 SMO (defaults) on the same training rows: every pairwise machine's weights and
    bias bit-identical, the same vote shares on the test rows. vowel has nominal attributes,
    credit_a and hepatitis nominal attributes and missing values."""
    rows, same, ours_ok, weka_ok, n_mach, n_bits = _weka_agreement(name, n_folds, folds)
    assert same == rows and ours_ok == weka_ok
    assert n_bits == n_mach


if __name__ == "__main__":   # python -m tests.test_smo letter:4 pendigits:10 ...  prints the agreement with Weka
    import sys

    for arg in sys.argv[1:] or ["sk_iris:10", "vowel:10", "credit_a:10", "hepatitis:10"]:
        name, k = arg.split(":")
        rows, same, ours_ok, weka_ok, n_mach, n_bits = _weka_agreement(name, int(k), strict=False)
        print(f"{name} ({k}-fold CV, seed 0): {rows} rows, identical predictions {same}/{rows} "
              f"({100 * same / rows:.3f} %), accuracy ours {100 * ours_ok / rows:.3f} % Weka "
              f"{100 * weka_ok / rows:.3f} %, machines bit-identical {n_bits}/{n_mach}", flush=True)
