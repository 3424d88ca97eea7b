"""The copy-free paths of against the plain ones they replace (same counts, same errors)."""

import numpy as np
import pytest

from algorithms._counts import CountTable, encode, encode_classes, infer_n_values
from algorithms.massbayes import _local_index, _sampled_rows


def _data(seed=0, n=500):
    rng = np.random.default_rng(seed)
    k = np.array([3, 5, 2, 4])
    X = (rng.integers(0, 1 << 20, size=(n, 6)) % np.array([3, 7, 5, 2, 9, 4])).astype(float)
    X[rng.random(X.shape) < 0.05] = np.nan
    cols = np.array([0, 2, 3, 5])
    y = rng.integers(0, 3, n)
    return X, y, k, cols


@pytest.mark.parametrize("missing", ["skip", "value"])
def test_encode_columns_and_integer_codes_equal_the_copying_path(missing):
    X, _, k, cols = _data()
    ref = encode(X[:, cols], k, missing)
    assert np.array_equal(encode(X, k, missing, columns=cols), ref)
    Xi = np.nan_to_num(X[:, cols], nan=0).astype(np.int16)
    assert np.array_equal(encode(Xi, k, missing), encode(Xi.astype(float), k, missing))
    assert infer_n_values(Xi).tolist() == infer_n_values(Xi.astype(float)).tolist()


@pytest.mark.parametrize("missing", ["skip", "value"])
def test_add_values_equals_encode_then_add(missing):
    X, y, k, cols = _data()
    nv = k + (1 if missing == "value" else 0)
    sets = np.arange(k.size).reshape(-1, 1)
    ref = CountTable(sets, nv, 3, dtype=np.int64)
    ref.add(encode(X, k, missing, columns=cols), encode_classes(y, 3))
    fused = CountTable(sets, nv, 3, dtype=np.int64)
    fused.add_values(X, encode_classes(y, 3), k, missing, columns=cols)
    assert np.array_equal(ref.counts, fused.counts) and ref.n_rows == fused.n_rows


def test_add_values_rejects_a_non_code_like_encode_and_leaves_the_table():
    X, y, k, cols = _data()
    X[7, 2] = 2.5
    tb = CountTable(np.arange(k.size).reshape(-1, 1), k, 3, dtype=np.int64)
    with pytest.raises(ValueError) as fused:
        tb.add_values(X, encode_classes(y, 3), k, columns=cols)
    with pytest.raises(ValueError) as plain:
        encode(X, k, columns=cols)
    assert str(fused.value) == str(plain.value) and "X[7, 1] = " in str(plain.value) and "2.5" in str(plain.value)
    assert tb.counts.sum() == 0 and tb.n_rows == 0


def test_massbayes_sampled_rows_equal_unique_and_searchsorted():
    rng = np.random.default_rng(3)
    n = 10_000
    plan = rng.permutation(n)[:3000].reshape(30, 100)
    rows = _sampled_rows(plan, n)
    assert np.array_equal(rows, np.unique(plan))
    assert np.array_equal(_local_index(rows, plan, n), np.searchsorted(rows, plan))
