"""ECOC with naive Bayes in a single pass (Park and Fuernkranz 2014): code matrices, ECOC-NB against the
straightforward ECOC and an independent NB, hand-computed Eqs. 1-2, sparse text, the runner's
"not applicable" status."""

import math
import time

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import check_estimator

from algorithms import ecoc
from algorithms._base import NotApplicableError
from algorithms.discretize import EqualFrequencyDiscretizer
from algorithms.ecoc import (BCH_CODES, CodeMatrixInfeasible, ECOCNaiveBayes, OnePassNaiveBayes,
                             SparseEqualFrequencyDiscretizer, StraightforwardECOC, bch_code_matrix, column_problems)
from algorithms.naive_bayes import NaiveBayes


# ------------------------------------------------------------------ data
def gaussian_data(n=600, d=5, k=12, seed=0, nan=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    centres = rng.normal(0, 2, (k, d))
    X = centres[y] + rng.normal(0, 1, (n, d))
    X = np.round(X, 2)        # repeated values, as real data (KDE unique-value lists)
    if nan:
        X[rng.random(X.shape) < nan] = np.nan
    return X, y


def nominal_data(n=500, d=6, k=12, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    n_values = rng.integers(2, 5, d)
    X = np.column_stack([(y * (j + 1) + rng.integers(0, 2, n)) % n_values[j] for j in range(d)]).astype(float)
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y, n_values


def text_data(n=300, d=400, k=12, seed=2):
    """Sparse word counts: class-specific word rates, most cells 0."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    rates = rng.gamma(0.3, 0.3, (k, d))
    X = rng.poisson(rates[y]).astype(float)
    return sp.csr_matrix(X), y


def assert_same_ecoc(a, b, X, tol=1e-9):
    pa, pb = a.predict_binary_proba(X), b.predict_binary_proba(X)
    assert np.abs(pa - pb).max() < tol
    assert np.abs(a.decoding_scores(X) - b.decoding_scores(X)).max() < tol
    assert np.array_equal(a.predict(X), b.predict(X))


# ------------------------------------------------------------------ code matrices
@pytest.mark.parametrize("length", [15, 31, 63])
def test_bch_codebook_minimum_distance_and_drawn_matrix(length):
    m, dist = BCH_CODES[length]
    book = ecoc.bch_codebook(length)
    assert book.shape == (2 ** m, length)
    assert ecoc._min_weight(book) == dist                      # linear code: min distance = min weight
    M = bch_code_matrix(12, length, np.random.default_rng(3))
    assert M.shape == (12, length) and set(np.unique(M)) <= {-1, 1}
    # the class codewords are codewords of the code: pairwise distance >= d
    bits = (M > 0).astype(int)
    dists = (bits[:, None, :] != bits[None, :, :]).sum(axis=2)
    assert dists[np.triu_indices(12, 1)].min() >= dist
    assert {tuple(r) for r in bits} <= {tuple(r) for r in book}
    # the validity rules, checked directly
    assert ((M == 1).any(axis=0) & (M == -1).any(axis=0)).all()
    canon = M * np.where(M[0] < 0, -1, 1)
    assert len({tuple(c) for c in canon.T}) == length          # no equal or complementary columns
    assert column_problems(M) == []


@pytest.mark.slow
@pytest.mark.parametrize("length", [127, 255, 511, 1023])
def test_long_bch_codes(length):
    m, dist = BCH_CODES[length]
    book = ecoc.bch_codebook(length)
    assert book.shape == (2 ** m, length) and ecoc._min_weight(book) == dist
    k = {127: 8, 255: 9, 511: 10, 1023: 11}[length]             # the fewest classes that allow the length
    M = bch_code_matrix(k, length, np.random.default_rng(0))
    assert column_problems(M) == []


def test_column_problems_names_each_rule():
    ok = np.array([[1, 1, -1], [-1, 1, 1], [-1, -1, -1]])
    assert column_problems(ok) == []
    assert "lack a +1 or a -1" in column_problems(np.array([[1, 1], [1, -1], [1, 1]]))[0]
    assert "equal or complementary" in column_problems(np.array([[1, -1, 1], [-1, 1, 1], [1, -1, -1]]))[0]
    assert "equal or complementary" in column_problems(np.array([[1, 1, 1], [-1, -1, 1], [1, 1, -1]]))[0]
    assert any("share a codeword" in p for p in column_problems(np.array([[1, -1], [1, -1], [-1, 1]])))


def test_infeasible_lengths_fail_at_once():
    # with k classes at most 2^(k-1) - 1 valid columns: the paper's blank cells
    assert ecoc.max_distinct_columns(6) == 31 and ecoc.max_distinct_columns(10) == 511
    t0 = time.perf_counter()
    with pytest.raises(CodeMatrixInfeasible, match="at most 31 distinct binary columns"):
        bch_code_matrix(6, 63, np.random.default_rng(0))
    with pytest.raises(CodeMatrixInfeasible, match="at most 511"):
        bch_code_matrix(10, 1023, np.random.default_rng(0))
    with pytest.raises(CodeMatrixInfeasible, match="at most 3"):
        ecoc.random_code_matrix(3, 4, np.random.default_rng(0))
    assert time.perf_counter() - t0 < 1.0
    assert issubclass(CodeMatrixInfeasible, NotApplicableError)
    # the estimator refuses before its pass over the data
    X, y = gaussian_data(k=6)
    with pytest.raises(CodeMatrixInfeasible):
        ECOCNaiveBayes(code_length=63).fit(X, y)


def test_give_up_after_max_tries():
    # 63 bits for 7 classes (all 2^6 - 1 columns) is feasible but rare: one draw fails
    with pytest.raises(CodeMatrixInfeasible, match="in 1 random draws"):
        bch_code_matrix(7, 63, np.random.default_rng(0), max_tries=1)
    M = bch_code_matrix(7, 63, np.random.default_rng(0))
    assert column_problems(M) == []


def test_one_vs_all_one_vs_one_and_random_codes():
    assert np.array_equal(ecoc.one_vs_all(3), [[1, -1, -1], [-1, 1, -1], [-1, -1, 1]])
    assert ecoc.one_vs_all(2).shape == (2, 1)
    ovo = ecoc.one_vs_one(4)
    assert ovo.shape == (4, 6) and (np.abs(ovo).sum(axis=0) == 2).all() and column_problems(ovo) == []
    rng = np.random.default_rng(0)
    dense = ecoc.random_code_matrix(8, 30, rng)
    sparse_ = ecoc.random_code_matrix(8, 40, rng, sparse=True)
    assert column_problems(dense) == [] and column_problems(sparse_) == [] and (sparse_ == 0).any()
    assert ecoc.make_code_matrix("random_dense", 8).shape[1] == 30      # 10 log2 8


# ------------------------------------------------------------------ ECOC-NB = straightforward ECOC
@pytest.mark.parametrize("numeric,evaluation", [("normal", "weka_cell"), ("kernel", "weka_cell"), ("kernel", "density")])
def test_ecocnb_equals_independent_nb_per_column(numeric, evaluation):
    """Reference: one algorithms.naive_bayes.NaiveBayes (shares no code) per column, relabelled data."""
    X, y = gaussian_data(nan=0.03)
    kw = dict(code="bch", code_length=31, numeric=numeric, kde_evaluation=evaluation, random_state=5)
    a = ECOCNaiveBayes(**kw).fit(X, y)
    b = StraightforwardECOC(base="naive_bayes", **kw).fit(X, y)
    assert np.array_equal(a.code_matrix_, b.code_matrix_)
    assert_same_ecoc(a, b, X)
    assert_same_ecoc(a, b, gaussian_data(n=100, seed=9)[0])


def test_ecocnb_discrete_equals_independent_nb():
    X, y, n_values = nominal_data()
    kw = dict(code_length=15, random_state=1, categorical_features=np.ones(X.shape[1], bool), n_categories=n_values)
    a = ECOCNaiveBayes(**kw).fit(X, y)
    b = StraightforwardECOC(base="naive_bayes", **kw).fit(X, y)
    assert_same_ecoc(a, b, X)


@pytest.mark.parametrize("numeric", ["normal", "kernel"])
def test_ecocnb_mixed_attributes_hamming_and_ternary(numeric):
    X, y = gaussian_data(d=3, k=5, nan=0.05)
    Xn, _, n_values = nominal_data(n=X.shape[0], d=2, k=5)
    X = np.column_stack([X, Xn])
    cat = np.array([False] * 3 + [True] * 2)
    ncat = np.r_[np.zeros(3, int), n_values]
    for code, decoding in (("ova", "hamming"), ("ovo", "weighted"), ("random_dense", "weighted")):
        length = None if code == "random_dense" else 15
        if numeric == "kernel" and code == "ovo":
            continue  # ternary + KDE: ECOC-NB keeps the attribute's precision of all data (docstring)
        kw = dict(code=code, code_length=length, decoding=decoding, numeric=numeric, random_state=2,
                  categorical_features=cat,
                  n_categories=ncat)
        assert_same_ecoc(ECOCNaiveBayes(**kw).fit(X, y), StraightforwardECOC(base="naive_bayes", **kw).fit(X, y), X)


@pytest.mark.parametrize("numeric", ["normal", "kernel", "multinomial", "bernoulli"])
def test_ecocnb_on_sparse_text_equals_straightforward(numeric):
    X, y = text_data()
    kw = dict(code_length=63, numeric=numeric, random_state=4)
    a = ECOCNaiveBayes(**kw).fit(X, y)
    b = StraightforwardECOC(**kw).fit(X, y)            # 63 one-pass NBs on relabelled sparse data
    # normal: a word absent from a group has variance = the floor (1e-9 x the largest variance), so
    # log-joints reach ~1e9 and the summation order alone moves the binary posteriors by ~1e-8
    tol = 1e-7 if numeric == "normal" else 1e-9
    assert_same_ecoc(a, b, X, tol)
    if numeric in ("normal", "kernel"):                 # and the NaiveBayes of the project, densified
        kw15 = {**kw, "code_length": 15}
        c = StraightforwardECOC(base="naive_bayes", **kw15).fit(X.toarray(), y)
        assert_same_ecoc(ECOCNaiveBayes(**kw15).fit(X, y), c, X.toarray(), tol)
    assert np.array_equal(a.predict(X), a.predict(X.toarray()))


def test_ecocnb_discretised_text_equals_straightforward():
    X, y = text_data()
    disc = SparseEqualFrequencyDiscretizer().fit(X)
    Xd = disc.transform(X)
    assert sp.issparse(Xd) and Xd.nnz <= X.nnz
    kw = dict(code_length=31, random_state=0, categorical_features=np.ones(X.shape[1], bool),
              n_categories=disc.n_categories_out_)
    assert_same_ecoc(ECOCNaiveBayes(**kw).fit(Xd, y), StraightforwardECOC(**kw).fit(Xd, y), Xd)
    c = StraightforwardECOC(base="naive_bayes", **kw).fit(Xd.toarray(), y)
    assert_same_ecoc(ECOCNaiveBayes(**kw).fit(Xd, y), c, Xd.toarray())


# ------------------------------------------------------------------ the fused precalculation
def _fused_vs_reference(X, y, tol, **kw):
    a = ECOCNaiveBayes(precalculation="fused", **kw).fit(X, y)
    b = ECOCNaiveBayes(precalculation="reference", **kw).fit(X, y)
    assert np.array_equal(a.code_matrix_, b.code_matrix_)
    pa, pb = a.predict_binary_proba(X), b.predict_binary_proba(X)
    assert np.abs(pa - pb).max() <= tol
    assert np.abs(a.decoding_scores(X) - b.decoding_scores(X)).max() <= 2 * a.n_bits_ * tol
    assert np.array_equal(a.predict(X), b.predict(X))
    return a, b


@pytest.mark.parametrize("block_bytes", [64, ecoc.BLOCK_BYTES])
def test_fused_precalculation_equals_reference(monkeypatch, block_bytes):
    """The blocked product, the complement of the negative groups and the log-odds tables give the
    unblocked reference's binary posteriors to 1e-12 (tiny blocks: every block boundary is crossed)."""
    monkeypatch.setattr(ecoc, "BLOCK_BYTES", block_bytes)
    X, y = gaussian_data(nan=0.03)
    for numeric, evaluation in (("normal", "weka_cell"), ("kernel", "weka_cell"), ("kernel", "density")):
        a, _ = _fused_vs_reference(X, y, 1e-12, code_length=63, numeric=numeric, kde_evaluation=evaluation,
                                   random_state=3)
        assert a.model_.pairs == (numeric == "normal")
    Xn, yn, n_values = nominal_data()
    a, _ = _fused_vs_reference(Xn, yn, 1e-12, code_length=31, random_state=1,
                               categorical_features=np.ones(Xn.shape[1], bool), n_categories=n_values)
    assert a.model_.pairs and a.model_.nominal_delta.shape[1] == 31
    # mixed nominal + numeric, binary (one-vs-all) and ternary (one-vs-one, random sparse) codes
    Xg, yg = gaussian_data(n=Xn.shape[0], d=3, k=12, nan=0.05)
    Xm = np.column_stack([Xg, Xn])
    cat = np.r_[np.zeros(3, bool), np.ones(Xn.shape[1], bool)]
    ncat = np.r_[np.zeros(3, int), n_values]
    for code in ("ova", "ovo", "random_sparse"):
        a, _ = _fused_vs_reference(Xm, yn, 1e-12, code=code, code_length=None, random_state=2,
                                   categorical_features=cat, n_categories=ncat)
        assert a.model_.pairs == (code == "ova")


@pytest.mark.parametrize("numeric", ["normal", "kernel", "discrete"])
def test_fused_precalculation_on_sparse_text(numeric):
    X, y = text_data()
    kw = dict(code_length=127, random_state=4)
    if numeric == "discrete":
        disc = SparseEqualFrequencyDiscretizer().fit(X)
        X = disc.transform(X)
        kw.update(categorical_features=np.ones(X.shape[1], bool), n_categories=disc.n_categories_out_)
    else:
        kw.update(numeric=numeric)
    # normal: a word absent from a group sits on the variance floor (1e-9 x the largest variance),
    # so log-joints reach ~1e9 and any change of summation order moves the posteriors by ~1e-8
    # (the reference and the straightforward ECOC differ by as much, test above); the others: 1e-12
    # (1.1e-7 at 127 bits here, and the reference itself is as far from the straightforward ECOC)
    _fused_vs_reference(X, y, 1e-6 if numeric == "normal" else 1e-12, **kw)


def test_kernel_bandwidths_from_class_extremes_equal_the_grid_pass():
    X, y = text_data(d=120)
    X = X.toarray()
    X[np.random.default_rng(0).random(X.shape) < 0.02] = np.nan
    a = ECOCNaiveBayes(code_length=63, numeric="kernel", random_state=1).fit(X, y)
    b = ECOCNaiveBayes(code_length=63, numeric="kernel", random_state=1, precalculation="reference").fit(X, y)
    assert a.model_._pending and not b.model_._pending      # values at 0: on the first prediction
    for key in ("total", "bandwidth"):
        assert np.array_equal(a.model_.kde[key], b.model_.kde[key])
    a.predict(X[:3])
    assert not a.model_._pending and np.array_equal(a.model_.numeric_log0, b.model_.numeric_log0)


def test_two_class_models_keep_their_groups():
    """Plain NB with 2 classes is one problem of 2 groups, not a binary ECOC column."""
    X, y = gaussian_data(k=2)
    nb = OnePassNaiveBayes().fit(X, y)
    assert not nb.model_.pairs and nb.predict_proba(X).shape == (X.shape[0], 2)
    ref = NaiveBayes(numeric="gaussian").fit(X, y)
    assert np.abs(nb.predict_proba(X) - ref.predict_proba(X)).max() < 1e-9
    with pytest.raises(ValueError, match="'precalculation' parameter of ECOCNaiveBayes must be"):
        ECOCNaiveBayes(precalculation="fast").fit(X, y)


# ------------------------------------------------------------------ Weka's normal estimator
def _weka_nb_reference(X, y, Xt):
    """Weka 3.6 NaiveBayes (normal estimator) composed from algorithms._weka_normal's public
    functions on dense arrays: precision, rounding, sums, parameters, floored cell masses, Laplace prior."""
    from algorithms._weka_normal import (weka_normal_logprob, weka_normal_params, weka_normal_sums, weka_precision,
                                         weka_round)

    C = np.unique(y).size
    p = weka_precision(X)
    n, s1, s2 = weka_normal_sums(weka_round(X, p), y, C)
    mean, std = weka_normal_params(n, s1, s2, p[:, None])
    lp = weka_normal_logprob(weka_round(Xt, p)[:, :, None], mean[None], std[None], p[None, :, None], mode="weka",
                             floor=1e-75)
    lj = np.where(np.isnan(lp), 0.0, lp).sum(axis=1) + np.log((np.bincount(y, minlength=C) + 1) / (y.size + C))
    P = np.exp(lj - lj.max(axis=1, keepdims=True))
    return P / P.sum(axis=1, keepdims=True)


def test_weka_normal_estimator_nb_dense_and_sparse():
    X, y = gaussian_data(nan=0.03)
    nb = OnePassNaiveBayes(numeric="normal_weka").fit(X, y)
    assert np.abs(nb.predict_proba(X) - _weka_nb_reference(X, y, X)).max() < 1e-12
    Xs, ys = text_data()
    nb = OnePassNaiveBayes(numeric="normal_weka").fit(Xs, ys)    # CSR: precision without densifying
    assert np.abs(nb.predict_proba(Xs) - _weka_nb_reference(Xs.toarray(), ys, Xs.toarray())).max() < 1e-12


@pytest.mark.parametrize("sparse_input", [False, True])
def test_ecocnb_weka_normal_equals_straightforward(sparse_input):
    """ECOC-NB on Weka's normal estimator: the group sums of (count, sum, sum of squares) of the
    rounded values give each column's Weka NB, as n NBs trained on relabelled data (and the fused
    and reference precalculations agree)."""
    X, y = text_data() if sparse_input else gaussian_data(nan=0.03)
    kw = dict(code_length=63, numeric="normal_weka", random_state=4)
    a, _ = _fused_vs_reference(X, y, 1e-12, **kw)
    assert_same_ecoc(a, StraightforwardECOC(**kw).fit(X, y), X, 1e-12)


# ------------------------------------------------------------------ NB on the same statistics
@pytest.mark.parametrize("numeric", ["normal", "kernel"])
def test_one_pass_nb_equals_naive_bayes(numeric):
    X, y = gaussian_data(k=4, nan=0.05)
    a = OnePassNaiveBayes(numeric=numeric).fit(X, y)
    b = NaiveBayes(numeric={"normal": "gaussian", "kernel": "kde"}[numeric], kde_evaluation="weka_cell").fit(X, y)
    assert np.abs(a.predict_log_joint(X) - b.predict_log_joint(X)).max() < 1e-9
    assert np.abs(a.predict_proba(X) - b.predict_proba(X)).max() < 1e-9


def test_text_event_models_equal_scikit_learn():
    from sklearn.naive_bayes import BernoulliNB, MultinomialNB

    X, y = text_data(k=5)
    for numeric, ref in (("multinomial", MultinomialNB(alpha=1.0)), ("bernoulli", BernoulliNB(alpha=1.0))):
        a = OnePassNaiveBayes(numeric=numeric).fit(X, y)
        ref.fit(X, y)
        ours = a.predict_log_joint(X) - a.model_.log_prior          # the class prior differs (Laplace)
        theirs = ref.predict_joint_log_proba(X) - ref.class_log_prior_
        assert np.abs(ours - theirs).max() < 1e-9


def test_partial_fit_equals_fit():
    X, y = text_data()
    for numeric in ("normal", "kernel", "bernoulli"):
        a = ECOCNaiveBayes(code_length=15, numeric=numeric, random_state=0).fit(X, y)
        b = ECOCNaiveBayes(code_length=15, numeric=numeric, random_state=0)
        for part in np.array_split(np.arange(X.shape[0]), 3):
            b.partial_fit(X[part], y[part], classes=np.unique(y))
        # normal on text: words absent from a group sit on the variance floor (log-joints ~1e9), so
        # the chunks' merge order alone moves the posteriors by ~1e-8 (as in the sparse-text test)
        tol = 1e-7 if numeric == "normal" else 1e-9
        assert np.abs(a.predict_binary_proba(X) - b.predict_binary_proba(X)).max() < tol


# ------------------------------------------------------------------ hand-computed Eqs. 1-2
def test_equations_1_and_2_by_hand():
    # 3 classes; column 0 nominal (2 values), column 1 numeric; code column b = (+1, +1, -1)
    X = np.array([[0, 1.0], [1, 3.0], [0, 2.0], [0, 6.0], [1, 4.0], [1, 10.0]])
    y = np.array([0, 0, 1, 1, 2, 2])
    M = np.array([[1], [1], [-1]])
    est = ECOCNaiveBayes(code=M, var_smoothing=0.0, categorical_features=[True, False], n_categories=[2, 0])
    est.fit(X, y)
    # the groups' own distributions: the unfused reference model (the fitted one keeps log-odds tables)
    mdl = ecoc.GroupModel(est.statistics_, [[1, 0], [1, 0], [0, 1]], [0, 0], var_smoothing=0.0, fused=False)
    assert est.model_.pairs and not mdl.pairs
    # Eq. 1 (Laplace within the binary problem): Pr(C+) = (4 + 1) / (6 + 2), Pr(C-) = (2 + 1) / 8
    assert np.allclose(np.exp(mdl.log_prior), [5 / 8, 3 / 8])
    # Eq. 2 with Laplace (Sect. 4.3.1): Pr(a=1 | C+) = (1 + 1) / (4 + 2); Pr(a=1 | C-) = (2 + 1) / (2 + 2)
    p0 = np.exp(mdl.nominal_log0[0])
    p1 = np.exp(mdl.nominal_log0[0] + mdl.nominal_delta[1])
    assert np.allclose(p0, [(3 + 1) / 6, (0 + 1) / 4]) and np.allclose(p1, [2 / 6, 3 / 4])
    # normal (Sect. 4.3.2): C+ = {1, 3, 2, 6}: mean 3, sigma^2 = (sum x^2 - (sum x)^2 / t) / t = 3.5
    mean, var = mdl.normal_parameters()
    assert np.allclose(mean[0], [3.0, 7.0]) and np.allclose(var[0], [3.5, 9.0])
    # the binary NB's posterior for x = (1, 5), and makeTernary / weighted decoding
    x = np.array([[1, 5.0]])

    def normal(v, mu, s2):
        return math.exp(-(v - mu) ** 2 / (2 * s2)) / math.sqrt(2 * math.pi * s2)

    pos = 5 / 8 * (2 / 6) * normal(5, 3, 3.5)
    neg = 3 / 8 * (3 / 4) * normal(5, 7, 9.0)
    p = pos / (pos + neg)
    assert est.predict_binary_proba(x)[0, 0] == pytest.approx(p, rel=1e-12)
    f = 2 * (p - 0.5)
    assert np.allclose(est.decoding_scores(x)[0], [(1 + f) / 2, (1 + f) / 2, (1 - f) / 2])


def test_decoding_weighted_and_hamming_by_hand():
    M = np.array([[1, 1, 0], [-1, 1, 1], [-1, -1, -1]])
    p = np.array([[0.9, 0.6, 0.2]])
    f = 2 * (p - 0.5)                                  # 0.8, 0.2, -0.6
    w = ecoc._decode(p, M, "weighted")[0]
    assert np.allclose(w, 3 - np.array([(0.2 + 0.8 + 1) / 2, (1.8 + 0.8 + 1.6) / 2, (1.8 + 1.2 + 0.4) / 2]))
    h = ecoc._decode(p, M, "hamming")[0]
    assert np.allclose(h, [2.5, 1.0, 1.0])             # zero entry costs 1/2
    assert np.allclose(f, [[0.8, 0.2, -0.6]])


# ------------------------------------------------------------------ determinism, errors, sklearn
def test_same_seed_same_code_and_probabilities():
    X, y = gaussian_data()
    a = ECOCNaiveBayes(code_length=63, random_state=7).fit(X, y)
    b = ECOCNaiveBayes(code_length=63, random_state=7).fit(X, y)
    c = ECOCNaiveBayes(code_length=63, random_state=8).fit(X, y)
    assert np.array_equal(a.code_matrix_, b.code_matrix_) and not np.array_equal(a.code_matrix_, c.code_matrix_)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert np.allclose(a.predict_proba(X).sum(axis=1), 1.0)


def test_clear_errors():
    X, y, n_values = nominal_data(k=4)
    est = OnePassNaiveBayes(categorical_features=np.ones(X.shape[1], bool), n_categories=n_values).fit(X, y)
    bad = X[:2].copy()
    bad[0, 0] = n_values[0]
    with pytest.raises(ValueError, match="unseen category"):
        est.predict(bad)
    with pytest.raises(ValueError, match="at least 2 classes"):
        OnePassNaiveBayes().fit(np.ones((3, 2)), [1, 1, 1])
    with pytest.raises(ValueError, match="non-negative"):
        OnePassNaiveBayes(numeric="multinomial").fit(-np.ones((4, 2)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="'code' parameter of ECOCNaiveBayes must be"):
        ECOCNaiveBayes(code="nope").fit(X, y)


def test_sparse_discretiser_matches_weka_equal_frequency():
    X, _ = text_data(d=50)
    dense = X.toarray()
    ours = SparseEqualFrequencyDiscretizer().fit(X)
    weka = EqualFrequencyDiscretizer().fit(dense)
    for a, b in zip(ours.cut_points_, weka.cut_points_):
        assert np.array_equal(a, b)
    assert np.array_equal(ours.transform(X).toarray(), weka.transform(dense))   # non-negative: 0 is bin 0
    assert np.array_equal(ours.n_categories_out_, weka.n_categories_out_)


@pytest.mark.parametrize("est", [OnePassNaiveBayes(), ECOCNaiveBayes(code="ova"), StraightforwardECOC(code="ova"),
                                 ECOCNaiveBayes(code="random_dense", code_length=None, numeric="kernel"),
                                 SparseEqualFrequencyDiscretizer()],
                         ids=["nb", "ecocnb_ova", "sf_ova", "ecocnb_random_kde", "discretiser"])
def test_sklearn_checks(est):
    check_estimator(est)


# ------------------------------------------------------------------ the codebook folder: a parameter
def test_cache_dir_is_an_estimator_parameter(tmp_path, monkeypatch):
    from algorithms import _code_cache

    X, y = gaussian_data(k=12)
    folder = tmp_path / "books"
    monkeypatch.setattr(_code_cache, "_BOOKS", {})      # the per-process memo: build (and keep) it again
    a = ECOCNaiveBayes(code_length=15, random_state=0, cache_dir=str(folder)).fit(X, y)
    assert (folder / "bch_15_5.npy").exists()
    monkeypatch.setattr(_code_cache, "_BOOKS", {})
    b = ECOCNaiveBayes(code_length=15, random_state=0, cache_dir=folder).fit(X, y)   # read back from the file
    assert np.array_equal(a.code_matrix_, b.code_matrix_) and np.array_equal(a.predict_proba(X), b.predict_proba(X))
    monkeypatch.setattr(_code_cache, "_BOOKS", {})
    StraightforwardECOC(code_length=31, random_state=0, cache_dir=tmp_path / "sf").fit(X, y)
    assert (tmp_path / "sf" / "bch_31_6.npy").exists()
    with pytest.raises(ValueError, match="cache_dir"):
        ECOCNaiveBayes(cache_dir=3).fit(X, y)


def test_runner_passes_bench_cache_folder(tmp_path):
    from bench.data import load
    from bench.experiment_plan import algo_config
    from bench.runner import build_estimator

    ds = load("sk_iris")
    _, est = build_estimator(algo_config("ecocnb_normal_b15"), ds, 0)
    assert est.cache_dir == str(tmp_path / "cache" / "bch")          # BENCH_CACHE_DIR (tests/conftest.py)
    cfg = algo_config("ecoc_sf_normal_b15")
    cfg["estimator"]["cache_dir"] = str(tmp_path / "mine")
    assert build_estimator(cfg, ds, 0)[1].cache_dir == str(tmp_path / "mine")   # a configured folder is kept
    assert build_estimator(algo_config("nb"), ds, 0)[1].get_params().get("cache_dir") is None


# ------------------------------------------------------------------ the runner: "not applicable"
def test_runner_stores_infeasible_code_as_not_applicable(tmp_path):
    from bench.experiments import failed_records
    from bench.report.context import ReportContext
    from bench.runner import run_job
    from bench.stats.collect import run_status
    from bench.store import load

    cv2 = {"name": "cv2", "kind": "kfold", "n_splits": 2, "n_repeats": 1}
    algo = {"name": "ecocnb_normal_b15", "estimator": {"_target_": "algorithms.ecoc.ECOCNaiveBayes",
                                                       "code": "bch", "code_length": 15}}
    res = run_job(algo, "sk_iris", cv2, 0, "e", str(tmp_path), progress=False)
    df = load(tmp_path, experiment="e")
    assert (df["status"] == "not_applicable").all() and "at most 3 distinct" in df["error"].iloc[0]
    assert len(res.records) == 2
    plan = {"experiment": "e", "datasets": ["sk_iris"], "algos": ["ecocnb_normal_b15"]}
    assert failed_records(tmp_path, plan) == []
    st = run_status(df)
    assert st["error"].iloc[0].startswith("not applicable: CodeMatrixInfeasible")
    view = ReportContext(tmp_path).experiment("e")
    assert view.reason("sk_iris", "ecocnb_normal_b15").startswith("not applicable: ")
    # reported apart from failures, and reused on the next run (a property of the data, not a crash)
    from bench.summary import job_summary_dict, job_table

    assert not res.failed and len(res.not_applicable) == 2
    assert "0 failed, 2 not applicable" in job_table(res)
    assert job_summary_dict(res)["n_not_applicable"] == 2 and job_summary_dict(res)["n_failed"] == 0
    again = run_job(algo, "sk_iris", cv2, 0, "e", str(tmp_path), progress=False)
    assert again.reused == 2 and again.computed == 0
