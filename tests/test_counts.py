"""The count engine: tables equal brute-force counts, chunking, missing values, layout, memory guard."""

import math
from itertools import combinations

import numpy as np
import pytest

from algorithms._counts import (MISSING, AllSubsetCounts, CountTable, CountTableTooLarge, Smoothing,
                                binomial_table, check_table_memory, colex_rank, colex_sets, count_dtype,
                                elementary_symmetric, encode, encode_classes, infer_n_values, log_conditional,
                                log_joint, table_cells)


def random_nominal(n=500, d=6, C=3, missing=0.1, seed=0):
    rng = np.random.default_rng(seed)
    k = rng.integers(2, 5, d)
    X = rng.integers(0, k, (n, d)).astype(float)
    X[rng.random((n, d)) < missing] = np.nan
    y = rng.integers(0, C, n)
    return X, y, k, C


def brute_block(X, y, attrs, k, C):
    """#(x_attrs, y) by np.add.at over the rows with every attribute of the set observed."""
    out = np.zeros(tuple(k[list(attrs)]) + (C,), dtype=np.int64)
    ok = np.all(~np.isnan(X[:, list(attrs)]), axis=1)
    np.add.at(out, tuple(X[ok][:, list(attrs)].astype(int).T) + (y[ok],), 1)
    return out


def test_encode_codes_missing_and_dtype():
    X = np.array([[0, 2.0], [1, np.nan], [np.nan, 1]])
    codes = encode(X, [2, 3])
    assert codes.dtype == np.int8 and codes.flags.f_contiguous
    assert codes.tolist() == [[0, 2], [1, MISSING], [MISSING, 1]]
    as_value = encode(X, [2, 3], missing="value")
    assert as_value.tolist() == [[0, 2], [1, 3], [2, 1]]
    assert encode(np.zeros((2, 1)), [300]).dtype == np.int16


@pytest.mark.parametrize("bad, word", [(2.0, "unseen category"), (0.5, "not a nominal code"),
                                       (-1.0, "Negative values"), (np.inf, "not a nominal code")])
def test_encode_names_the_bad_cell(bad, word):
    X = np.array([[0.0, 1.0], [1.0, bad]])
    with pytest.raises(ValueError, match=word) as e:
        encode(X, [2, 2])
    assert "X[1, 1]" in str(e.value) and "column 1" in str(e.value)


def test_infer_n_values_ignores_nan():
    X = np.array([[0, np.nan], [3, np.nan], [1, 2.0]])
    assert infer_n_values(X).tolist() == [4, 3]


def test_colex_order_rank_and_binomials():
    B = binomial_table(7, 4)
    assert B[7, 3] == 35 and B[2, 3] == 0
    for t in (1, 2, 3, 4):
        sets = colex_sets(7, t)
        assert len(sets) == math.comb(7, t)
        assert sorted(map(tuple, sets)) == list(combinations(range(7), t))
        assert all(colex_rank(s, B) == i for i, s in enumerate(sets))


def test_elementary_symmetric_and_table_cells():
    k = [2, 3, 4, 5]
    assert elementary_symmetric(k, 2) == sum(a * b for a, b in combinations(k, 2))
    assert elementary_symmetric(k, 4) == 120
    assert table_cells(k, 3, 3) == 3 * sum(a * b * c for a, b, c in combinations(k, 3))
    assert table_cells(k, 3, 2, [(0, 1), (2, 3)]) == 3 * (6 + 20)


@pytest.mark.parametrize("max_order", [1, 2, 3, 4])
def test_all_subset_tables_equal_brute_force_counts(max_order):
    X, y, k, C = random_nominal()
    cnt = AllSubsetCounts.allocate(k, C, max_order)
    cnt.add(encode(X, k), encode_classes(y, C), block_rows=64)  # several row blocks
    assert cnt.class_counts.tolist() == np.bincount(y, minlength=C).tolist()
    assert cnt.missing_counts.tolist() == np.isnan(X).sum(0).tolist()
    for t, tb in cnt.tables.items():
        for s, attrs in enumerate(tb.attribute_sets):
            assert np.array_equal(tb.block(s), brute_block(X, y, attrs, k, C)), (t, attrs)
            # the flat index of the set finds the same block in the shared buffer
            fi = cnt.set_index(attrs)
            blk = cnt.counts[cnt.set_offsets[fi]:cnt.set_offsets[fi + 1]]
            assert np.array_equal(blk, tb.block(s).ravel())


@pytest.mark.parametrize("max_order", [1, 2, 3, 4])
def test_grouped_counting_equals_direct_counting(max_order):
    """Packing attributes into groups, counting group subsets and marginalising gives exactly the
    direct counts, with missing values (a missing member gets its own slot in the group code)."""
    rng = np.random.default_rng(max_order)
    n, d, C = 2000, 9, 3
    k = rng.integers(1, 5, d)
    X = rng.integers(0, k, (n, d)).astype(float)
    X[rng.random((n, d)) < 0.05] = np.nan
    X[:, 3] = np.nan_to_num(X[:, 3])           # one column without missing values
    y = rng.integers(0, C, n)
    codes, yc = encode(X, k), encode_classes(y, C)
    direct = AllSubsetCounts.allocate(k, C, max_order)
    direct.add(codes, yc, strategy="direct")
    grouped = AllSubsetCounts.allocate(k, C, max_order)
    grouped.add(codes[:700], yc[:700], strategy="grouped")
    grouped.add(codes[700:], yc[700:], strategy="grouped")
    assert np.array_equal(direct.counts, grouped.counts)
    assert np.array_equal(direct.missing_counts, grouped.missing_counts)


def test_auto_strategy_groups_many_low_cardinality_attributes():
    k = np.array([2] * 40 + [12] * 4)
    cnt = AllSubsetCounts.allocate(k, 7, 2)
    plan = cnt._grouping_plan(500_000, np.zeros(k.size, dtype=bool))
    assert plan is not None and len(plan) < 20
    assert sorted(np.concatenate(plan).tolist()) == list(range(k.size))
    assert all(np.prod(k[g]) <= 256 for g in plan)
    assert cnt._grouping_plan(50, np.zeros(k.size, dtype=bool)) is None   # tiny chunk: direct is cheaper


def test_chunked_adds_give_identical_counts():
    X, y, k, C = random_nominal(n=997)
    one = AllSubsetCounts.allocate(k, C, 3)
    one.add(encode(X, k), encode_classes(y, C))
    chunked = AllSubsetCounts.allocate(k, C, 3)
    for lo, hi in [(0, 1), (1, 300), (300, 301), (301, 997)]:
        chunked.add(encode(X[lo:hi], k), encode_classes(y[lo:hi], C), block_rows=37)
    assert np.array_equal(one.counts, chunked.counts)
    assert np.array_equal(one.class_counts, chunked.class_counts)
    assert chunked.n_rows == one.n_rows == 997


def test_missing_as_a_value_gets_its_own_slot():
    X, y, k, C = random_nominal()
    cnt = AllSubsetCounts.allocate(k + 1, C, 2)
    cnt.add(encode(X, k, missing="value"), encode_classes(y, C))
    Xv = np.where(np.isnan(X), k[None, :], X)
    assert cnt.missing_counts.sum() == 0
    for s, attrs in enumerate(cnt.tables[2].attribute_sets):
        assert np.array_equal(cnt.tables[2].block(s), brute_block(Xv, y, attrs, k + 1, C))


def test_custom_attribute_sets_as_kdb_uses_them():
    X, y, k, C = random_nominal(d=7)
    sets = [(0, 2, 5), (1, 3, 4), (2, 5, 6), (0, 1, 6)]
    tb = CountTable(sets, k, C)
    tb.add(encode(X, k), encode_classes(y, C), block_rows=50)
    for s, attrs in enumerate(sets):
        assert np.array_equal(tb.block(s), brute_block(X, y, attrs, k, C))
    with pytest.raises(ValueError, match="strictly increasing"):
        CountTable([(2, 1)], k, C)


def test_set_totals_and_class_free_counts():
    X, y, k, C = random_nominal()
    cnt = AllSubsetCounts.allocate(k, C, 2)
    cnt.add(encode(X, k), encode_classes(y, C))
    tot, cls = cnt.set_totals()
    i = cnt.set_index((1, 4))
    ok = ~np.isnan(X[:, 1]) & ~np.isnan(X[:, 4])
    assert tot[i] == ok.sum()
    assert cls[i].tolist() == np.bincount(y[ok], minlength=C).tolist()
    free = cnt.class_free(2)
    blk = cnt.tables[2].block(cnt.tables[2].attribute_sets.tolist().index([1, 4]))
    start = cnt.set_offsets[i] // C
    assert np.array_equal(free[start:start + blk[..., 0].size], blk.sum(-1).ravel())


def test_counts_widen_before_they_overflow():
    X, y, k, C = random_nominal(n=400)
    tb = CountTable([(0,), (1,)], k, C, dtype=np.int16)
    tb.n_rows = 32767 - 100        # pretend many rows were counted already
    tb.add(encode(X, k), encode_classes(y, C))
    assert tb.counts.dtype == np.int32
    assert count_dtype(40000) == np.int32 and count_dtype(3e9) == np.int64 and count_dtype(5) == np.int16


def test_memory_guard_names_the_required_size():
    k = np.full(60, 10)
    need = AllSubsetCounts.required_bytes(k, 5, 4)
    with pytest.raises(CountTableTooLarge, match=r"need .*GB.*max_table_bytes") as e:
        AllSubsetCounts.allocate(k, 5, 4, max_table_bytes=10**9, what="A3DE count tables")
    assert f"{need:,} bytes" in str(e.value) and "A3DE" in str(e.value)
    check_table_memory(100, 1000)  # fits: no error
    with pytest.raises(CountTableTooLarge, match="a count table of 1 attribute sets of size 6"):
        CountTable([tuple(range(6))], np.full(6, 100), 10, max_table_bytes=10**9)


def test_smoothing_terms():
    a, b = Smoothing("laplace").terms(4)
    assert (a, b) == (1.0, 4.0)
    a, b = Smoothing("m_estimate", 2.0).terms(4)
    assert (a, b) == (0.5, 2.0)
    with pytest.raises(ValueError):
        Smoothing("additive")


def test_log_conditional_and_log_joint_by_hand():
    # rows (x0, x1, y): by hand #(y=0, x0=0) = 2, #(y=0, x0=0, x1=1) = 1, #(y=0, x0=0, x1 observed) = 2
    X = np.array([[0, 1], [0, 0], [1, 1], [0, np.nan], [1, 0]], dtype=float)
    y = np.array([0, 0, 1, 0, 1])
    k, C = np.array([2, 2]), 2
    cnt = AllSubsetCounts.allocate(k, C, 2)
    cnt.add(encode(X, k), encode_classes(y, C))
    test = encode(np.array([[0, 1]], dtype=float), k)
    lap = Smoothing("laplace")
    lc = log_conditional(cnt.tables[2], 0, 1, test, lap)
    # P(x1=1 | y=0, x0=0) = (1 + 1) / (2 + 2); P(x1=1 | y=1, x0=0) = (0 + 1) / (0 + 2)
    assert np.allclose(np.exp(lc[0]), [2 / 4, 1 / 2])
    lj = log_joint(cnt.tables[1], 0, test, Smoothing("m_estimate", 1.0))
    # P(y, x0=0): #(y=0, x0=0) = 3 of N_s = 5 rows; m-estimate K = C * k0 = 4: (3 + 1/4) / (5 + 1)
    assert np.allclose(np.exp(lj[0]), [(3 + 0.25) / 6, (0 + 0.25) / 6])
