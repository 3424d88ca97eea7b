import numpy as np
import pytest

from bench.protocols import ProtocolError, n_splits, resolve, splits

Y = np.repeat([0, 1, 2], [50, 30, 23])


def _all(protocol, seed=0, y=Y):
    return list(splits(y, protocol, seed))


def test_kfold_partitions_and_stratifies():
    sp = _all({"kind": "kfold", "n_splits": 10})
    assert len(sp) == 10
    tests = np.concatenate([s.test for s in sp])
    assert np.array_equal(np.sort(tests), np.arange(len(Y)))  # every instance tested exactly once
    for s in sp:
        assert np.intersect1d(s.train, s.test).size == 0
        assert s.train.size + s.test.size == len(Y)
        counts = np.bincount(Y[s.test], minlength=3)
        assert np.all(np.abs(counts - np.bincount(Y) / 10) < 1.0 + 1e-9)
    sizes = [s.test.size for s in sp]
    assert max(sizes) - min(sizes) <= 1


def test_determinism_and_seed_dependence():
    a = _all({"kind": "kfold", "n_splits": 5}, seed=3)
    b = _all({"kind": "kfold", "n_splits": 5}, seed=3)
    c = _all({"kind": "kfold", "n_splits": 5}, seed=4)
    assert all(np.array_equal(x.test, y.test) for x, y in zip(a, b))
    assert not all(np.array_equal(x.test, y.test) for x, y in zip(a, c))


def test_repeats_differ_and_are_counted():
    p = {"kind": "kfold", "n_splits": 2, "n_repeats": 5}
    sp = _all(p)
    assert len(sp) == n_splits(p) == 10
    assert [(s.repeat, s.fold) for s in sp][:3] == [(0, 0), (0, 1), (1, 0)]
    assert not np.array_equal(sp[0].test, sp[2].test)


def test_holdout_fraction_per_class():
    s = _all({"kind": "holdout", "test_size": 0.2})[0]
    assert np.array_equal(np.bincount(Y[s.test]), np.round(np.bincount(Y) * 0.2).astype(int))


def test_train_sizes_nested_and_fixed_test():
    p = {"kind": "train_sizes", "train_sizes": [10, 30, 60], "test_size": 0.25}
    sp = _all(p)
    assert [s.train_size for s in sp] == [10, 30, 60]
    assert all(np.array_equal(sp[0].test, s.test) for s in sp)
    assert set(sp[0].train) <= set(sp[1].train) <= set(sp[2].train)
    assert all(np.intersect1d(s.train, s.test).size == 0 for s in sp)
    counts = np.bincount(Y[sp[2].train], minlength=3)
    assert np.all(np.abs(counts / 60 - np.bincount(Y) / len(Y)) < 0.05)


def test_train_size_too_large():
    with pytest.raises(ProtocolError, match="exceeds"):
        _all({"kind": "train_sizes", "train_sizes": [1000]})


def test_per_dataset_override():
    p = {"name": "x", "kind": "kfold", "n_splits": 2, "n_repeats": 5, "per_dataset": {"big": {"n_repeats": 1}}}
    assert resolve(p, "big")["n_repeats"] == 1
    assert resolve(p, "small")["n_repeats"] == 5
    assert "per_dataset" not in resolve(p, "small")


def test_unknown_kind():
    with pytest.raises(ProtocolError, match="unknown protocol kind"):
        _all({"kind": "bootstrap"})
