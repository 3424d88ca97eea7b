"""Weka 3.6's normal estimator (algorithms._weka_normal) and NaiveBayes(numeric="gaussian_weka").

Hand-computed precision grid, rounding, NormalEstimator parameters and cell probabilities (against
scipy's normal CDF), Weka's running product with its 1e-75 floor, and agreement with Weka 3.6
``weka.classifiers.bayes.NaiveBayes`` itself on identical folds of the data in datasets/ (skipped without
Weka or the data). ``python -m tests.test_weka_normal [datasets...]`` prints the 10-fold table.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from scipy.special import ndtr
from scipy.stats import norm

from algorithms import _weka_normal as wn
from algorithms.naive_bayes import NaiveBayes


# --------------------------------------------------------------------------- hand-computed cases
def test_precision_is_the_mean_gap_between_distinct_values():
    X = np.array([[1.0, 7.0, np.nan, 0.0],
                  [1.0, 7.0, np.nan, 1.0],
                  [1.5, np.nan, np.nan, 2.0],
                  [3.0, 7.0, np.nan, 0.0],
                  [np.nan, 7.0, np.nan, 1.0]])
    p = wn.weka_precision(X, nominal_mask=[False, False, False, True])
    # column 0: distinct 1, 1.5, 3 -> gaps 0.5 and 1.5 -> 2.0 / 2; column 1: one value -> 0.01;
    # column 2: all missing -> 0.01; column 3 nominal -> NaN
    assert p[0] == 1.0 and p[1] == 0.01 and p[2] == 0.01 and np.isnan(p[3])
    # no lower floor (Weka's NormalEstimator has none): distinct values 1e-9 apart
    assert wn.weka_precision(np.array([0.0, 1e-9, 2e-9]))[0] == pytest.approx(1e-9, rel=1e-12)
    with pytest.raises(ValueError, match="nominal_mask has 1 entries for 4 columns"):
        wn.weka_precision(X, nominal_mask=[True])


def test_rounding_is_rint_to_the_grid_with_ties_to_even():
    X = np.array([[1.25, 3.0], [1.75, np.nan], [-0.25, 5.0]])
    r = wn.weka_round(X, np.array([0.5, np.nan]))
    # 1.25 / 0.5 = 2.5 -> 2; 1.75 / 0.5 = 3.5 -> 4; -0.25 / 0.5 = -0.5 -> -0; NaN precision: unchanged
    assert r[:, 0].tolist() == [1.0, 2.0, -0.0]
    assert r[0, 1] == 3.0 and np.isnan(r[1, 1]) and r[2, 1] == 5.0


def test_normal_params_by_hand():
    # class 0: rounded values 1, 2, 2 -> mean 5/3, sd = sqrt(|9 - 25/3| / 3) = sqrt(2/9);
    # class 1: 2, 2 -> sd 0 -> precision / 6; class 2: no value -> mean 0, std precision / 6
    n = np.array([3.0, 2.0, 0.0])
    s1 = np.array([5.0, 4.0, 0.0])
    s2 = np.array([9.0, 8.0, 0.0])
    mean, std = wn.weka_normal_params(n, s1, s2, 0.5)
    assert mean == pytest.approx([5 / 3, 2.0, 0.0], rel=1e-15)
    assert std == pytest.approx([math.sqrt(2 / 9), 0.5 / 6, 0.5 / 6], rel=1e-15)
    # the floor precision / 6 wins over a smaller positive sd
    _, std = wn.weka_normal_params(2.0, 2.02, 2.0402, 0.6)   # values 1.0 and 1.02: sd = 0.01 < 0.1
    assert std == pytest.approx(0.1, rel=1e-15)


def test_sums_skip_missing_values_per_class():
    Xr = np.array([[1.0, np.nan], [2.0, 3.0], [2.0, 4.0], [np.nan, 5.0]])
    n, s1, s2 = wn.weka_normal_sums(Xr, np.array([0, 0, 1, 1]), 2)
    assert n.tolist() == [[2, 1], [1, 2]]
    assert s1.tolist() == [[3, 2], [3, 9]]
    assert s2.tolist() == [[5, 4], [9, 41]]


def test_cell_probability_by_hand():
    mean, std, p = 5 / 3, math.sqrt(2 / 9), 0.5
    x = np.array([2.0, 1.0, 0.0, -1.5])
    ref = norm.cdf((x - mean + p / 2) / std) - norm.cdf((x - mean - p / 2) / std)
    for mode in ("weka", "stable"):
        got = wn.weka_normal_logprob(x, mean, std, p, mode=mode)
        assert np.allclose(got, np.log(ref), rtol=1e-12, atol=0)
    # a cell straddling the mean of N(0, 1) with precision 1: Phi(0.5) - Phi(-0.5)
    assert math.exp(wn.weka_normal_logprob(0.0, 0.0, 1.0, 1.0)) == pytest.approx(0.3829249225480262, rel=1e-14)
    assert np.isnan(wn.weka_normal_logprob(np.nan, 0.0, 1.0, 1.0))


def test_weka_phi_is_cephes_ndtr():
    z = np.linspace(-40, 40, 4001)
    ours = np.array([wn.weka_ndtr(v) for v in z])
    assert np.array_equal(ours, ndtr(z))   # scipy's ndtr is the same Cephes algorithm


def test_upper_tail_cancellation_and_the_stable_mode():
    # 12 sd above the mean: the true cell mass is ~1e-33, but Weka's Phi(hi) and Phi(lo) are both 1.0
    x, mean, std, p = 12.0, 0.0, 1.0, 0.5
    true = norm.sf(x - p / 2) - norm.sf(x + p / 2)
    assert wn.weka_normal_logprob(x, mean, std, p, mode="weka") == -np.inf
    assert wn.weka_normal_logprob(x, mean, std, p, mode="weka", floor=wn.WEKA_NB_FLOOR) == math.log(1e-75)
    assert wn.weka_normal_logprob(x, mean, std, p, mode="stable") == pytest.approx(math.log(true), rel=1e-12)
    # the lower tail is accurate in both modes
    low = norm.cdf(-x + p / 2) - norm.cdf(-x - p / 2)
    assert wn.weka_normal_logprob(-x, mean, std, p, mode="weka") == pytest.approx(math.log(low), rel=1e-12)
    with pytest.raises(ValueError, match="mode must be"):
        wn.weka_normal_logprob(x, mean, std, p, mode="exact")


def _hand_weka_nb(X, y, x, cat, k):
    """Weka's NaiveBayes with normal estimators written out with scipy, for one test row."""
    C = int(y.max()) + 1
    probs = np.array([(np.sum(y == c) + 1) / (len(y) + C) for c in range(C)])
    for j in range(X.shape[1]):
        if np.isnan(x[j]):
            continue
        col = X[:, j]
        if cat[j]:
            f = [(np.sum((y == c) & (col == x[j])) + 1) / (np.sum((y == c) & ~np.isnan(col)) + k[j])
                 for c in range(C)]
        else:
            u = np.unique(col[~np.isnan(col)])
            p = (u[-1] - u[0]) / (u.size - 1) if u.size > 1 else 0.01
            f = []
            for c in range(C):
                r = np.rint(col[(y == c) & ~np.isnan(col)] / p) * p
                m = r.mean() if r.size else 0.0
                sd = r.std() if r.size else 0.0
                s = max(p / 6, sd) if sd > 1e-10 else p / 6
                xr = np.rint(x[j] / p) * p
                f.append(norm.cdf((xr - m + p / 2) / s) - norm.cdf((xr - m - p / 2) / s))
        probs = probs * np.maximum(np.array(f), 1e-75)
    return probs / probs.sum()


def mixed(n=200, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    a = (rng.normal(y * 1.5, 1.0) * 4).round() / 4           # heavily tied numeric values
    b = rng.normal(-y, 2.0).round(3)
    nom = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n)).astype(float)
    X = np.column_stack([a, nom, b])
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y, np.array([False, True, False])


def test_naive_bayes_gaussian_weka_by_hand():
    X, y, cat = mixed()
    est = NaiveBayes(numeric="gaussian_weka", categorical_features=cat, n_categories=[0, 3, 0]).fit(X, y)
    tests = np.array([[0.3, 1, -0.2], [2.6, np.nan, -4.0], [np.nan, 0, np.nan], [40.0, 2, 1.0]])
    got = est.predict_proba(tests)
    for r in range(len(tests)):
        ref = _hand_weka_nb(X, y, tests[r], cat, [0, 3, 0])
        assert np.allclose(got[r], ref, rtol=1e-10, atol=1e-14), (r, got[r], ref)
    assert np.array_equal(est.predict(tests), got.argmax(1))


def test_floor_makes_far_values_neutral():
    # a test value far outside every class: each factor is Weka's floor 1e-75, so the posterior is
    # that of the other attribute alone
    X, y, cat = mixed()
    est = NaiveBayes(numeric="gaussian_weka", categorical_features=cat, n_categories=[0, 3, 0]).fit(X, y)
    far = est.predict_proba([[1e6, 1, np.nan]])[0]
    none = est.predict_proba([[np.nan, 1, np.nan]])[0]
    assert np.allclose(far, none, rtol=1e-13)


def test_running_product_rescales_like_weka():
    # 60 attributes with tiny cell probabilities: the product needs Weka's 1e75 rescaling; the result
    # equals the log-space computation of the same factors
    rng = np.random.default_rng(3)
    n, d = 400, 60
    y = rng.integers(0, 2, n)
    X = rng.normal(y[:, None] * 0.3, 1.0, (n, d)).round(6)
    est = NaiveBayes(numeric="gaussian_weka").fit(X, y)
    T = rng.normal(0.0, 1.0, (5, d)).round(6)
    got = est.predict_log_proba(T)
    m = est._model
    lj = np.log(m["weka_prior"])[None, :].repeat(5, 0)
    for j in range(d):
        r = wn.weka_round(T[:, j], m["weka_precision"][j])
        lj += wn.weka_normal_logprob(r[:, None], m["weka_mean"][j], m["weka_std"][j], m["weka_precision"][j],
                                     floor=wn.WEKA_NB_FLOOR)
    lj -= np.logaddexp.reduce(lj, axis=1, keepdims=True)
    assert est.predict_log_joint(T).max() < math.log(1e-75)   # the product was rescaled at least once
    assert np.allclose(got, lj, rtol=1e-10, atol=1e-10)


def test_partial_fit_keeps_the_first_chunks_precision():
    """As Weka's NaiveBayesUpdateable: the precision comes from the first batch, later ones only add."""
    X, y, cat = mixed(n=300)
    meta = dict(numeric="gaussian_weka", categorical_features=cat, n_categories=[0, 3, 0])
    part = NaiveBayes(**meta)
    for lo in range(0, 300, 70):
        part.partial_fit(X[lo:lo + 70], y[lo:lo + 70], classes=[0, 1, 2])
    num = X[:, ~cat]
    p0 = wn.weka_precision(num[:70])
    assert np.array_equal(part.weka_precision_, p0) and not np.allclose(p0, wn.weka_precision(num))
    n, s1, s2 = wn.weka_normal_sums(wn.weka_round(num, p0), y, 3)
    assert np.allclose(part.weka_sums_, np.stack([n, s1, s2]), rtol=1e-13, atol=0)
    # one chunk is fit exactly
    T = mixed(n=50, seed=9)[0]
    one = NaiveBayes(**meta).partial_fit(X, y)
    assert np.array_equal(one.predict_proba(T), NaiveBayes(**meta).fit(X, y).predict_proba(T))


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(NaiveBayes(numeric="gaussian_weka"))


def test_unknown_numeric_estimator_is_named():
    with pytest.raises(ValueError, match="gaussian_weka"):
        NaiveBayes(numeric="normal").fit(np.zeros((4, 1)), [0, 1, 0, 1])


# --------------------------------------------------------------------------- Weka itself
def _weka_or_skip():
    from bench import weka
    from bench.data import load

    if not weka.available():
        pytest.skip("Weka 3.6 not installed (apt-get install weka)")
    return weka, load


def agreement_row(name: str, n_folds: int = 10, max_folds: int | None = None) -> dict:
    """NaiveBayes(numeric='gaussian_weka') against Weka 3.6 NaiveBayes on the raw data, identical folds."""
    from bench import weka
    from bench.data import load
    from bench.protocols import splits

    ds = load(name)
    P, W, truth = [], [], []
    for i, s in enumerate(splits(ds.y, {"kind": "kfold", "n_splits": n_folds}, 0)):
        if max_folds is not None and i >= max_folds:
            break
        est = NaiveBayes(numeric="gaussian_weka", categorical_features=ds.categorical,
                         n_categories=ds.n_categories).fit(ds.X[s.train], ds.y[s.train])
        P.append(est.predict_proba(ds.X[s.test]))
        W.append(weka.run(ds, s.train, s.test, "weka.classifiers.bayes.NaiveBayes", []).proba)
        truth.append(ds.y[s.test])
    P, W, y = np.vstack(P), np.vstack(W), np.concatenate(truth)
    return {"dataset": name, "n_test": len(y), "max_abs_diff": float(np.abs(P - W).max()),
            "pred_agree_pct": 100.0 * float(np.mean(P.argmax(1) == W.argmax(1))),
            "error_ours": float(np.mean(P.argmax(1) != y)), "error_weka": float(np.mean(W.argmax(1) != y))}


def _load_or_skip(name):
    weka, load = _weka_or_skip()
    try:
        load(name)
    except Exception as exc:  # datasets/ removed from this checkout
        pytest.skip(f"dataset {name} not available (it ships in datasets/): {exc}")


@pytest.mark.weka
@pytest.mark.parametrize("name", ["car", "segment"])
def test_one_fold_agrees_with_weka_naive_bayes(name):
    _load_or_skip(name)
    row = agreement_row(name, max_folds=1)
    assert row["max_abs_diff"] < 1e-9, row
    assert row["pred_agree_pct"] == 100.0, row


@pytest.mark.weka
@pytest.mark.slow
@pytest.mark.parametrize("name", ["car", "segment", "letter", "magic", "pendigits", "shuttle"])
def test_ten_folds_agree_with_weka_naive_bayes(name):
    _load_or_skip(name)
    row = agreement_row(name)
    print(row)
    assert row["max_abs_diff"] < 1e-9, row
    assert row["pred_agree_pct"] == 100.0, row


if __name__ == "__main__":
    print("| dataset | test rows | max abs proba diff | prediction agreement % | error ours | error Weka |\n"
          "|---|---|---|---|---|---|")
    for nm in sys.argv[1:] or ["car", "segment", "letter", "magic", "pendigits", "shuttle"]:
        r = agreement_row(nm)
        print(f"| {r['dataset']} | {r['n_test']} | {r['max_abs_diff']:.1e} | {r['pred_agree_pct']:.2f} | "
              f"{r['error_ours']:.4f} | {r['error_weka']:.4f} |", flush=True)
