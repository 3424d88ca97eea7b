"""Naive Bayes: hand-computed discrete estimates, Gaussian and KDE densities against direct formulas,
Weka's bandwidth and precision rules, partial_fit, missing values, sklearn conformance."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from algorithms.naive_bayes import NaiveBayes, weka_precision


def mixed_data(n=300, seed=0, missing=0.05):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    num = rng.normal(y[:, None] * np.array([1.0, -0.5]), 1.0, (n, 2)).round(2)
    nom = np.where(rng.random((n, 2)) < 0.6, y[:, None] % 3, rng.integers(0, 3, (n, 2)))
    X = np.column_stack([num[:, 0], nom[:, 0], num[:, 1], nom[:, 1]]).astype(float)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y, np.array([False, True, False, True])


def test_discrete_nb_by_hand():
    X = np.array([[0, 1], [0, 0], [1, 1], [1, np.nan], [2, 1]], dtype=float)
    y = np.array([0, 0, 1, 1, 1])
    cat = [True, True]
    lap = NaiveBayes(categorical_features=cat, n_categories=[3, 2]).fit(X, y)
    # Laplace: P(y0) = 3/7, P(y1) = 4/7; P(x0=1|y0) = 1/5, P(x0=1|y1) = 3/6; P(x1=1|y0) = 2/4, P(x1=1|y1) = 3/4
    p0, p1 = 3 / 7 * 1 / 5 * 2 / 4, 4 / 7 * 3 / 6 * 3 / 4
    assert np.allclose(lap.predict_proba([[1, 1]])[0], [p0 / (p0 + p1), p1 / (p0 + p1)])
    mest = NaiveBayes(smoothing="m_estimate", m=1.0, categorical_features=cat, n_categories=[3, 2]).fit(X, y)
    # m = 1: P(y) = (#y + 1/2) / (5 + 1); P(x0=1|y) = (# + 1/3) / (#y + 1); P(x1=1|y) = (# + 1/2) / (#y obs + 1)
    q0 = 2.5 / 6 * (0 + 1 / 3) / 3 * 1.5 / 3
    q1 = 3.5 / 6 * (2 + 1 / 3) / 4 * 2.5 / 3
    assert np.allclose(mest.predict_proba([[1, 1]])[0], [q0 / (q0 + q1), q1 / (q0 + q1)])
    # missing as a value: every nominal column gets one more value (x0: 4, x1: 3);
    # P(x0=1|y0) = 1/6, P(x0=1|y1) = 3/7, P(x1=missing|y0) = 1/5, P(x1=missing|y1) = (1 + 1) / (3 + 3)
    val = NaiveBayes(missing="value", categorical_features=cat, n_categories=[3, 2]).fit(X, y)
    r0, r1 = 3 / 7 * 1 / 6 * 1 / 5, 4 / 7 * 3 / 7 * 2 / 6
    assert np.allclose(val.predict_proba([[1, np.nan]])[0], [r0 / (r0 + r1), r1 / (r0 + r1)])


def test_gaussian_matches_the_normal_density():
    X, y, cat = mixed_data(missing=0.0)
    est = NaiveBayes(numeric="gaussian", var_smoothing=0.0, categorical_features=cat).fit(X, y)
    x = np.array([[0.3, 1, -0.2, 2]])
    ref = np.zeros(3)
    for c in range(3):
        Xc = X[y == c]
        ref[c] = math.log((np.sum(y == c) + 1) / (len(y) + 3))
        for j in (0, 2):
            ref[c] += norm.logpdf(x[0, j], Xc[:, j].mean(), Xc[:, j].std())   # ddof = 0, Park and Fuernkranz 2014
        for j in (1, 3):
            ref[c] += math.log((np.sum(Xc[:, j] == x[0, j]) + 1) / (len(Xc) + 3))
    assert np.allclose(est.predict_log_joint(x)[0], ref)


def test_gaussian_partial_fit_matches_fit():
    X, y, cat = mixed_data(n=500)
    ncat = [0, 3, 0, 3]   # a first chunk of 3 rows cannot show every value: declare them
    full = NaiveBayes(categorical_features=cat, n_categories=ncat).fit(X, y)
    part = NaiveBayes(categorical_features=cat, n_categories=ncat)
    for lo, hi in [(0, 3), (3, 200), (200, 500)]:
        part.partial_fit(X[lo:hi], y[lo:hi], classes=[0, 1, 2])
    assert np.array_equal(full.nominal_counts_.counts, part.nominal_counts_.counts)
    assert np.allclose(full.gauss_mean_, part.gauss_mean_, rtol=1e-12)
    assert np.allclose(full.gauss_m2_, part.gauss_m2_, rtol=1e-10)
    assert np.allclose(full.predict_proba(X), part.predict_proba(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("bandwidth", ["weka", "silverman"])
def test_kde_density_against_a_direct_sum(bandwidth):
    X, y, cat = mixed_data(missing=0.0)
    est = NaiveBayes(numeric="kde", bandwidth=bandwidth, precision_rounding=False,
                     categorical_features=cat).fit(X, y)
    x = np.array([[0.37, 0, 5.0, 1]])       # 5.0 lies far out for every class
    mdl = est._model["kde"]
    lj = est.predict_log_joint(x)[0]
    for c in range(3):
        Xc = X[y == c]
        ref = math.log((np.sum(y == c) + 1) / (len(y) + 3))
        for q, j in enumerate((0, 2)):
            h = mdl[q][1][c][2]
            v = Xc[:, j]
            if bandwidth == "weka":
                expect_h = max((v.max() - v.min()) / math.sqrt(v.size), weka_precision(X[:, j]) / 6)
            else:
                iqr = np.subtract(*np.quantile(v, [0.75, 0.25], method="inverted_cdf"))
                expect_h = 0.9 * min(v.std(ddof=1), iqr / 1.34) * v.size ** -0.2
            assert h == pytest.approx(expect_h, rel=1e-12)
            ref += np.log(np.mean(norm.pdf(x[0, j], v, h)))     # every kernel, every training value
        for j in (1, 3):
            ref += math.log((np.sum(Xc[:, j] == x[0, j]) + 1) / (len(Xc) + 3))
        assert lj[c] == pytest.approx(ref, rel=1e-10)


def test_kde_far_test_values_stay_finite():
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1]])
    y = np.array([0, 0, 0, 1, 1])
    est = NaiveBayes(numeric="kde").fit(X, y)
    lj = est.predict_log_joint([[1e4]])
    assert np.all(np.isfinite(lj))        # a log density of about -1e10, not log(0)
    assert est.predict([[1e4]])[0] == 1 and est.predict([[-1e4]])[0] == 0


def test_weka_precision_and_rounding_merge_unique_values():
    assert weka_precision(np.array([1.0, 1.0, 2.0, 4.0])) == pytest.approx(1.5)   # (4 - 1) / 2 gaps
    assert weka_precision(np.array([3.0])) == 0.01
    X = np.array([[0.0], [1.0], [1.4], [3.0], [3.0], [9.0]])   # precision 9/4 = 2.25
    y = np.array([0, 0, 0, 1, 1, 1])
    est = NaiveBayes(numeric="kde").fit(X, y)
    vk, wk, h, W = est._model["kde"][0][1][0]
    assert vk.tolist() == pytest.approx([0.0, 2.25]) and wk.tolist() == [2.0, 1.0]   # 1.0 -> 0, 1.4 -> 2.25
    assert h == pytest.approx(max(2.25 / math.sqrt(3), 2.25 / 6))


def test_kde_partial_fit_equals_fit_exactly():
    X, y, cat = mixed_data(n=400)
    for evaluation in ("density", "weka_cell"):
        full = NaiveBayes(numeric="kde", kde_evaluation=evaluation, categorical_features=cat,
                          n_categories=[0, 3, 0, 3]).fit(X, y)
        part = NaiveBayes(numeric="kde", kde_evaluation=evaluation, categorical_features=cat,
                          n_categories=[0, 3, 0, 3])
        for lo, hi in [(0, 100), (100, 101), (101, 400)]:
            part.partial_fit(X[lo:hi], y[lo:hi], classes=[0, 1, 2])
        for a, b in zip(full.kde_values_ + full.kde_weights_, part.kde_values_ + part.kde_weights_):
            assert np.array_equal(a, b)
        assert np.array_equal(full.predict_proba(X), part.predict_proba(X))


def test_weka_cell_mass_by_hand():
    # class 0 holds {0, 1} twice, class 1 {2, 3}: precision 1; Weka's mass of [x - 1/2, x + 1/2] under N(v, h)
    X = np.array([[0.0], [1.0], [0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 0, 0, 1, 1])
    est = NaiveBayes(numeric="kde", kde_evaluation="weka_cell").fit(X, y)
    p = weka_precision(X[:, 0])
    assert p == 1.0
    h = max(1 / math.sqrt(4), p / 6)
    x = 0.2
    mass = sum(2 * (norm.cdf((v - x + p / 2) / h) - norm.cdf((v - x - p / 2) / h)) for v in (0.0, 1.0)) / 4
    # both kernels are summed here (the 1% stop rule does not fire for the second one)
    assert est.predict_log_joint([[x]])[0, 0] == pytest.approx(math.log(5 / 8) + math.log(mass), rel=1e-12)


def test_probabilities_sum_to_one_with_missing_values():
    X, y, cat = mixed_data()
    for numeric in ("gaussian", "kde"):
        P = NaiveBayes(numeric=numeric, categorical_features=cat).fit(X, y).predict_proba(X)
        assert np.allclose(P.sum(1), 1) and np.all(P >= 0)
        assert np.mean(P.argmax(1) == y) > 0.6


def test_a_class_without_values_of_an_attribute_uses_the_pooled_estimate():
    X = np.array([[0.0, 1], [0.5, 2], [np.nan, 3], [np.nan, 4]])
    y = np.array([0, 0, 1, 1])
    for numeric in ("gaussian", "kde"):
        P = NaiveBayes(numeric=numeric).fit(X, y).predict_proba([[0.2, 3.5]])
        assert np.all(np.isfinite(P)) and P[0, 1] > 0.5


def test_errors():
    X, y, cat = mixed_data()
    with pytest.raises(ValueError, match="'numeric' parameter of NaiveBayes must be"):
        NaiveBayes(numeric="histogram").fit(X, y)
    with pytest.raises(ValueError, match="not a nominal code"):
        NaiveBayes(categorical_features=[True] * 4).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        NaiveBayes().fit(X, np.zeros(len(y)))


def test_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    for est in (NaiveBayes(), NaiveBayes(numeric="kde"), NaiveBayes(numeric="kde", kde_evaluation="weka_cell",
                                                                    bandwidth="silverman")):
        check_estimator(est)
