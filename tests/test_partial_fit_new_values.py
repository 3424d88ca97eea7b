"""``partial_fit`` of the count-based classifiers takes a nominal code first seen in a later chunk
(no ``n_categories`` declared), as one ``fit`` on all the chunks would, and as scikit-learn's
``CategoricalNB`` does: its tables grow to the new values."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.naive_bayes import CategoricalNB

from algorithms.ande import AnDE
from algorithms.bnc import KDB, TAN
from algorithms.ecoc import ECOCNaiveBayes, OnePassNaiveBayes
from algorithms.naive_bayes import NaiveBayes

N, D, K = 300, 4, 5
CHUNKS = [(0, 100), (100, 200), (200, 300)]


def data(missing: bool):
    rng = np.random.default_rng(0)
    X = rng.integers(0, K, (N, D)).astype(float)
    y = (X[:, 0] + rng.integers(0, 2, N)) % 3
    X[:100] = np.minimum(X[:100], 2)   # the first chunk sees codes 0..2 only
    X[100:200, 2] = np.minimum(X[100:200, 2], 3)
    if missing:
        X[[5, 150, 250], [1, 3, 2]] = np.nan
    return X, y.astype(int)


def chunked(est, X, y):
    for a, b in CHUNKS:
        est.partial_fit(X[a:b], y[a:b], classes=[0, 1, 2] if a == 0 else None)
    return est


ALL_NOMINAL = np.ones(D, bool)
EQUAL_TO_ONE_FIT = [
    lambda: NaiveBayes(categorical_features=ALL_NOMINAL),
    lambda: NaiveBayes(categorical_features=ALL_NOMINAL, missing="value"),
    lambda: AnDE(n=1, categorical_features=ALL_NOMINAL),
    lambda: AnDE(n=2, categorical_features=ALL_NOMINAL, missing="value"),
    lambda: OnePassNaiveBayes(categorical_features=ALL_NOMINAL),
    lambda: ECOCNaiveBayes(code="ova", random_state=0, categorical_features=ALL_NOMINAL),
]


@pytest.mark.parametrize("make", EQUAL_TO_ONE_FIT)
@pytest.mark.parametrize("missing", [False, True])
def test_chunks_with_new_values_give_the_model_of_one_fit(make, missing):
    X, y = data(missing)
    one = make().fit(X, y)
    ch = chunked(make(), X, y)
    assert np.array_equal(one.predict_proba(X), ch.predict_proba(X))


@pytest.mark.parametrize("make", [lambda **kw: KDB(k=1, **kw), lambda **kw: TAN(**kw),
                                  lambda **kw: KDB(k=2, missing="value", **kw)])
def test_a_fixed_structure_grows_its_families_as_declared_values_would(make):
    """The Bayesian network classifiers learn their structure on the first chunk; the later
    chunks' new values then give the model that declaring every value up front gives."""
    X, y = data(True)
    grown = chunked(make(categorical_features=ALL_NOMINAL), X, y)
    declared = chunked(make(categorical_features=ALL_NOMINAL, n_categories=np.full(D, K)), X, y)
    assert np.allclose(grown.predict_proba(X), declared.predict_proba(X), rtol=0, atol=1e-12)


def test_the_counts_are_those_of_scikit_learns_categorical_nb():
    X, y = data(False)
    ours = chunked(NaiveBayes(categorical_features=ALL_NOMINAL), X, y)
    ref = CategoricalNB()
    for a, b in CHUNKS:
        ref.partial_fit(X[a:b].astype(int), y[a:b], classes=[0, 1, 2])
    tb = ours.nominal_counts_
    for j in range(D):
        assert np.array_equal(tb.block(j).T, ref.category_count_[j])  # (classes, values) in both


def test_a_declared_number_of_values_is_still_enforced():
    X, y = data(False)
    est = NaiveBayes(categorical_features=ALL_NOMINAL, n_categories=np.full(D, 3))
    est.partial_fit(X[:100], y[:100], classes=[0, 1, 2])
    with pytest.raises(ValueError, match="unseen category|not a nominal code|value"):
        est.partial_fit(X[100:200], y[100:200])
