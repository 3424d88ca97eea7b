"""The count engine shared by the count-based Bayesian learners.

Naive Bayes, AnDE (A1DE/A2DE/A3DE, with subsumption resolution and MI
weighting), KDB/SKDB/ESKDB and ECOC-NB all multiply conditional probabilities
read from tables of joint counts ``#(y, x_a1, ..., x_at)`` filled in one pass
over int-coded data. This module holds those tables, the Numba kernels that
fill them, and the functions that read estimates from them.

Data coding
-----------
:func:`encode` turns a float matrix (nominal codes ``0..k-1`` stored as floats,
NaN for missing) into an int matrix in column-major (Fortran) order with the
smallest signed dtype that fits. A missing value becomes ``MISSING`` (-1) and is
*skipped*: a row contributes nothing to a table whose attribute set holds one of
its missing attributes (what Weka's AODE does). ``missing="value"`` instead maps
NaN to an extra code ``k`` (the attribute then has ``k + 1`` values), for
learners whose paper treats missing as a value of its own.

Layout
------
A :class:`CountTable` holds the counts for a list of *attribute sets* of one
size ``t`` (all pairs for A1DE, all triples for A2DE, ``{i} + parents(i)`` for
KDB). Each set owns one contiguous block of ``k_a1 * ... * k_at * C`` cells, in
row-major order over the set's attribute values (ascending attribute index)
with the class innermost, so the ``C`` class counts of one value combination
are adjacent: prediction reads them as one short vector. This is the
triangular layout of Webb's Petal (a pair ``i < j`` is stored once, not twice).

Counting (:meth:`CountTable.add`) is a single pass over the rows in blocks of
``block_rows``. Per block, each column is turned once into ``x * C + y``; then
for every attribute set the kernel runs one tight column-major pass over the
block, so that set's table (small for pairs) stays in L1/L2 while the block's
columns stay in L2. Prefixes shared by consecutive sets (``x_i * k_j + x_j``
for all triples ``(i, j, .)``) are computed once per block and reused. Counts
are integers, so ``partial_fit`` over any chunking gives exactly the counts of
one ``fit``.

Grouped counting (:meth:`AllSubsetCounts.add`, chosen by a cost model): when
many attributes have few values, they are packed into groups
("super-attributes" whose joint cardinality is at most 4..256), all subsets of
the *groups* are counted in the same single pass, and each small group table is
marginalised into the exact attribute tables. A row then costs one increment
per group subset instead of one per attribute subset (a covtype-shaped table,
54 attributes in 15 groups: 120 instead of 1485 increments for A1DE). The
counts are identical to direct counting (a missing member gets a slot of its
own inside the group code and is summed out).

Memory guard
------------
A table's size is known before it is allocated: the sum over its sets of
``C * prod(k)``; for all ``t``-subsets this is ``C`` times the elementary
symmetric polynomial ``e_t(k_1, ..., k_d)``. :func:`check_table_memory` raises
:class:`CountTableTooLarge` naming the required size (A3DE on many attributes
explodes: it needs all 4-subsets) instead of letting the process die.

Reading estimates
-----------------
:func:`smoothing_terms` gives the pseudo-counts of Laplace and m-estimation
(both are ``(count + a) / (total + b)``); :meth:`CountTable.gather` returns the
class-count vectors of given value combinations; :func:`log_conditional` gives
``log P(x_child | y, x_parents)`` for every row, and :func:`log_joint` gives
``log P(y, x_set)``; these are the building blocks KDB-type learners need.
AnDE's own prediction kernels live in :mod:`algorithms.ande` and read the same
tables directly.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, Real, StrOptions

MISSING = -1
#: default number of rows per block in the counting kernels (columns of one block stay in L2)
BLOCK_ROWS = 4096


class CountTableTooLarge(MemoryError):
    """The count tables a learner needs do not fit in the allowed memory."""


# --------------------------------------------------------------------------- coding
def infer_n_values(X: np.ndarray) -> np.ndarray:
    """Number of values per column, ``max code + 1``, from nominal codes stored as floats (NaN ignored)
    or as integers."""
    X = np.asarray(X)
    if X.dtype.kind in "iu":
        if X.shape[0] == 0:
            return np.zeros(X.shape[1], dtype=np.int64)
        return (np.maximum(X.max(axis=0).astype(np.int64), -1) + 1).astype(np.int64)
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] == 0:
        return np.zeros(X.shape[1], dtype=np.int64)
    with np.errstate(invalid="ignore"):
        mx = np.nanmax(np.where(np.isnan(X), -1.0, X), axis=0)
    return (np.maximum(mx, -1) + 1).astype(np.int64)


def validation_dtype(X):
    """The ``dtype`` for an estimator's input validation: None (keep) for an integer array of
    codes, so that codes are not converted to floats and back; float64 otherwise."""
    return None if getattr(getattr(X, "dtype", None), "kind", "") in ("i", "u") else np.float64


def code_dtype(max_code: int):
    """The smallest signed integer dtype holding codes ``-1 .. max_code``."""
    for dt in (np.int8, np.int16, np.int32):
        if max_code <= np.iinfo(dt).max:
            return dt
    return np.int64


def encode(X, n_values, missing: str = "skip", what: str = "X", columns=None) -> np.ndarray:
    """Int codes of nominal data, column-major, for the counting kernels.

    Parameters
    ----------
    X : array of shape (n, d) or (n, D) with ``columns``
        Nominal codes ``0 .. n_values[j] - 1`` stored as numbers; NaN = missing. float64 and
        integer arrays are read as they are (integer codes are not converted to floats and
        back); other dtypes are converted to float64.
    n_values : array of shape (d,)
        Declared number of values per column (without the missing slot).
    missing : {"skip", "value"}
        ``"skip"``: NaN -> ``MISSING`` (-1), skipped by the kernels.
        ``"value"``: NaN -> code ``n_values[j]`` (a value of its own).
    what : str
        Name used in error messages.
    columns : int array of shape (d,), optional
        Code only these columns of ``X`` (read in place: no ``X[:, columns]`` copy); error
        messages then index the coded columns, as if ``X[:, columns]`` had been passed.

    Raises
    ------
    ValueError
        Naming the column and the offending value when a value is not an
        integer code in ``0 .. n_values[j] - 1`` (an unseen category, a
        negative or fractional value, or an infinity).
    """
    X = np.asarray(X)
    if X.dtype != np.float64 and X.dtype.kind not in "iu":
        X = X.astype(np.float64)
    n_values = np.asarray(n_values, dtype=np.int64)
    if X.ndim != 2:
        raise ValueError(f"{what} must be 2-D, got shape {X.shape}")
    if columns is None:
        cols = np.arange(X.shape[1], dtype=np.int64)
    else:
        cols = np.asarray(columns, dtype=np.int64)
        if cols.ndim != 1 or (cols.size and (cols.min() < 0 or cols.max() >= X.shape[1])):
            raise ValueError(f"columns must list column indices of {what} (0..{X.shape[1] - 1})")
    if cols.size != n_values.size:
        raise ValueError(f"{what} has {cols.size} columns; expected {n_values.size}")
    if missing not in ("skip", "value"):
        raise ValueError(f"missing must be 'skip' or 'value', got {missing!r}")
    top = int(n_values.max(initial=0)) + (1 if missing == "value" else 0)
    codes = np.empty((X.shape[0], cols.size), dtype=code_dtype(top), order="F")
    n_bad, bad_r, bad_j = _encode_kernel(X, cols, n_values, missing == "value", codes)
    if n_bad:
        Xc = X[:, cols]
        neg = "Negative values in data: " if np.nanmin(Xc) < 0 else ""
        raise ValueError(
            f"{neg}{what}[{bad_r}, {bad_j}] = {Xc[bad_r, bad_j]!r} is not a nominal code of column {bad_j}, which "
            f"has {n_values[bad_j]} values (0..{n_values[bad_j] - 1}): an unseen category, or a numeric "
            f"column that needs discretising first ({n_bad} such cells)")
    return codes


def class_codes(y, classes=None):
    """``(classes, codes)``: sorted class labels and each row's index into them.

    Integer labels are coded with a bincount over their range (no sort); other labels with
    ``np.unique``. With ``classes`` given, labels outside it raise a ValueError naming one.
    """
    y = np.asarray(y)
    small_int = y.dtype.kind in "iu" and y.size and int(y.max()) - int(y.min()) <= 4 * y.size + 1024
    if classes is None:
        if small_int:
            lo = int(y.min())
            classes = (np.flatnonzero(np.bincount(y - lo)) + lo).astype(y.dtype)
        else:
            classes = np.unique(y)
    classes = np.asarray(classes)
    if small_int and classes.dtype.kind in "iu" and classes.size:
        lo = min(int(y.min()), int(classes.min()))
        lut = np.full(max(int(y.max()), int(classes.max())) - lo + 1, -1, dtype=np.int64)
        lut[classes.astype(np.int64) - lo] = np.arange(classes.size)
        codes = lut[y - lo]
        bad = codes < 0
    else:
        codes = np.searchsorted(classes, y)
        bad = (codes >= classes.size) | (classes[np.minimum(codes, classes.size - 1)] != y)
    if bad.any():
        raise ValueError(f"class label {y[np.flatnonzero(bad)[0]].tolist()!r} was not among the classes "
                         f"{classes.tolist()} given on the first call")
    return classes, codes


def encode_classes(y, n_classes: int) -> np.ndarray:
    """Class codes as the smallest int dtype (the kernels read them once per row)."""
    return np.ascontiguousarray(np.asarray(y, dtype=code_dtype(max(n_classes, 1))))


@njit(cache=True)
def _encode_kernel(X, cols, n_values, missing_as_value, codes):
    """Nominal codes stored as floats (or ints) in columns ``cols`` of ``X`` -> int codes;
    returns (bad cells, first bad row, index into ``cols``), the first in row-major order.

    Row by row: a row-major ``X`` is read sequentially and each of the column-major
    ``codes``' columns is written sequentially (one write stream per column). This is about
    twice as fast as transposing in blocks of rows on a 523000 x 54 table (float64 and int8 input)."""
    n = X.shape[0]
    d = cols.shape[0]
    n_bad = 0
    bad_r = -1
    bad_j = -1
    for r in range(n):
        for j in range(d):
            k = n_values[j]
            v = X[r, cols[j]]
            if v >= 0 and v < k:             # NaN fails both comparisons
                iv = int(v)
                if iv == v:
                    codes[r, j] = iv
                    continue
            elif v != v:
                codes[r, j] = k if missing_as_value else -1
                continue
            codes[r, j] = 0                    # a fraction, a negative, an infinity or >= k
            if n_bad == 0:
                bad_r = r
                bad_j = j
            n_bad += 1
    return n_bad, bad_r, bad_j


# --------------------------------------------------------------------------- combinatorics
def binomial_table(n: int, k: int) -> np.ndarray:
    """``B[i, r] = C(i, r)`` for ``0 <= i <= n``, ``0 <= r <= k`` (int64)."""
    B = np.zeros((n + 1, k + 1), dtype=np.int64)
    for i in range(n + 1):
        for r in range(min(i, k) + 1):
            B[i, r] = math.comb(i, r)
    return B


def colex_sets(d: int, t: int) -> np.ndarray:
    """All ``t``-subsets of ``0..d-1`` as sorted rows, in colexicographic order.

    In this order the rank of ``a_1 < ... < a_t`` is ``sum_r C(a_r, r)``
    (:func:`colex_rank`), so a learner finds the table block of any attribute
    set in O(t) without a lookup table of size ``d**t``.
    """
    if t == 0:
        return np.zeros((1, 0), dtype=np.int64)
    sets = sorted(combinations(range(d), t), key=lambda c: c[::-1])
    return np.array(sets, dtype=np.int64).reshape(-1, t)


def colex_rank(sorted_attrs, binom: np.ndarray) -> int:
    return int(sum(binom[a, r + 1] for r, a in enumerate(sorted_attrs)))


def elementary_symmetric(values, t: int) -> int:
    """``e_t(values)`` = sum over all t-subsets of the product of their values (exact int)."""
    e = [1] + [0] * t
    for v in (int(x) for x in values):
        for r in range(t, 0, -1):
            e[r] += e[r - 1] * v
    return e[t]


def table_cells(n_values, n_classes: int, t: int, attribute_sets=None) -> int:
    """Number of cells of a table of ``t``-sets (all of them when ``attribute_sets`` is None)."""
    if attribute_sets is None:
        return n_classes * elementary_symmetric(n_values, t)
    nv = np.asarray(n_values, dtype=object)
    return int(n_classes * sum(int(np.prod(nv[list(s)])) if len(s) else 1 for s in attribute_sets))


def count_dtype(n_rows: int):
    """The smallest count dtype (int16, int32 or int64) that holds counts up to ``n_rows``."""
    for dt in (np.int16, np.int32):
        if n_rows <= np.iinfo(dt).max:
            return dt
    return np.int64


#: scikit-learn parameter constraint of an estimator's ``max_table_bytes`` (see :func:`memory_limit_bytes`)
MAX_TABLE_BYTES_CONSTRAINT = [Interval(Real, 0, None, closed="left"), StrOptions({"auto"}), None]


def memory_limit_bytes(limit="auto") -> int:
    """``"auto"``: half the physical memory; otherwise the number given (bytes)."""
    if limit in (None, "auto"):
        try:
            return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2)
        except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
            return 8 << 30
    return int(limit)


def _fmt_bytes(b: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if b < 1024 or unit == "PB":
            return f"{b:.1f} {unit}"
        b /= 1024
    return f"{b:.1f} PB"  # pragma: no cover


def check_table_memory(required: int, limit="auto", what: str = "count tables") -> None:
    """Raise :class:`CountTableTooLarge` when ``required`` bytes exceed the limit."""
    lim = memory_limit_bytes(limit)
    if required > lim:
        raise CountTableTooLarge(
            f"{what} need {_fmt_bytes(required)} ({required:,} bytes), more than the allowed "
            f"{_fmt_bytes(lim)} (max_table_bytes={limit!r}); use fewer attributes, coarser "
            f"discretisation or a smaller n, or raise max_table_bytes")


# --------------------------------------------------------------------------- kernels
@njit(cache=True)
def _add_class_counts(y, class_counts):
    for r in range(y.shape[0]):
        class_counts[y[r]] += 1


@njit(cache=True)
def _add_missing_counts(codes, missing_counts):
    n, d = codes.shape
    for j in range(d):
        c = 0
        for r in range(n):
            if codes[r, j] < 0:
                c += 1
        missing_counts[j] += c


@njit(cache=True)
def _add_order1(codes, y, sets, offsets, n_classes, counts):
    """Attribute-value x class counts: one column-major pass per attribute (its table is tiny)."""
    n = codes.shape[0]
    for s in range(sets.shape[0]):
        a = sets[s, 0]
        base = offsets[s]
        for r in range(n):
            v = codes[r, a]
            if v >= 0:
                counts[base + v * n_classes + y[r]] += 1


@njit(cache=True)
def _code_count_order1(X, src, k, missing_as_value, y, offsets, n_classes, counts):
    """``counts[offsets[s] + v * C + y] += 1`` for ``v = X[r, src[s]]``, reading ``X`` row by row
    (no code matrix); NaN is skipped or counted at ``k[s]``. Returns the number of cells that
    are not codes ``0 .. k[s] - 1`` (their rows still count the other attributes)."""
    n = X.shape[0]
    m = src.shape[0]
    n_bad = 0
    for r in range(n):
        yr = y[r]
        for s in range(m):
            v = X[r, src[s]]
            ks = k[s]
            if v >= 0 and v < ks:              # NaN fails both comparisons
                iv = int(v)
                if iv == v:
                    counts[offsets[s] + iv * n_classes + yr] += 1
                    continue
            elif v != v:
                if missing_as_value:
                    counts[offsets[s] + ks * n_classes + yr] += 1
                continue
            n_bad += 1
    return n_bad


@njit(cache=True)
def _add_sets(codes, y, sets, order, offsets, n_values, n_classes, block_rows, counts):
    """Joint counts of attribute sets of size t >= 2, rows in blocks.

    Per block: ``value_class[a, r] = x_a * C + y`` for every column once, then for each
    set (visited in lexicographic ``order`` so consecutive sets share prefixes) one
    column pass adding 1 at ``offset + prefix * (k_last * C) + value_class[last]``,
    where ``prefix`` = mixed-radix code of the set's first t-1 values, cached per level.
    A row with a missing value (code < 0) in the set is skipped.
    """
    n, d = codes.shape
    t = sets.shape[1]
    value_class = np.empty((d, block_rows), dtype=np.int64)
    prefix = np.empty((t - 1, block_rows), dtype=np.int64)
    last_set = np.full(t - 1, -1, dtype=np.int64)
    for start in range(0, n, block_rows):
        stop = min(n, start + block_rows)
        B = stop - start
        for a in range(d):
            for r in range(B):
                v = codes[start + r, a]
                value_class[a, r] = v * n_classes + y[start + r] if v >= 0 else -1
        for q in range(t - 1):
            last_set[q] = -1
        for oi in range(order.shape[0]):
            s = order[oi]
            # refresh the cached prefixes from the first level that changed
            first = t - 1
            for q in range(t - 1):
                if sets[s, q] != last_set[q]:
                    first = q
                    break
            for q in range(first, t - 1):
                a = sets[s, q]
                last_set[q] = a
                if q == 0:
                    for r in range(B):
                        prefix[0, r] = codes[start + r, a]
                else:
                    k = n_values[a]
                    for r in range(B):
                        p = prefix[q - 1, r]
                        v = codes[start + r, a]
                        prefix[q, r] = p * k + v if (p >= 0 and v >= 0) else -1
            last = sets[s, t - 1]
            stride = n_values[last] * n_classes
            base = offsets[s]
            for r in range(B):
                p = prefix[t - 2, r]
                b = value_class[last, r]
                if p >= 0 and b >= 0:
                    counts[base + p * stride + b] += 1


@njit(cache=True)
def _set_totals(offsets, n_classes, counts, totals, class_totals):
    """Per set: instances with the whole set observed (total and per class)."""
    m = offsets.shape[0] - 1
    for s in range(m):
        tot = 0
        for i in range(offsets[s], offsets[s + 1], n_classes):
            for c in range(n_classes):
                x = counts[i + c]
                class_totals[s, c] += x
                tot += x
        totals[s] = tot


@njit(cache=True)
def _class_sum(offsets, n_classes, counts, out):
    """``out[cell] = sum_y counts[cell, y]`` (class-free joint counts, for SR and delta)."""
    m = offsets.shape[0] - 1
    for s in range(m):
        base_out = offsets[s] // n_classes
        j = 0
        for i in range(offsets[s], offsets[s + 1], n_classes):
            tot = 0
            for c in range(n_classes):
                tot += counts[i + c]
            out[base_out + j] = tot
            j += 1


@njit(cache=True)
def _group_codes(codes, members, member_start, radix, out):
    """Mixed-radix code of each group of attributes per row (column by column); a missing
    member (code < 0) takes the slot ``radix - 1`` of its own (groups only get that slot for
    attributes with missing values in the chunk)."""
    n = codes.shape[0]
    G = member_start.shape[0] - 1
    for g in range(G):
        for r in range(n):
            out[r, g] = 0
        for q in range(member_start[g], member_start[g + 1]):
            a = members[q]
            k = radix[a]
            for r in range(n):
                v = codes[r, a]
                if v < 0:
                    v = k - 1
                out[r, g] = out[r, g] * k + v


@njit(cache=True)
def _marginalise_groups(src, dest, n_classes, blk_off, blk_axes, blk_leaves, axis_radix, leaf_off, leaf_terms,
                        term_axis, term_stride, term_limit):
    """One pass over every group table: each non-zero class-count vector of a value combination
    is added to the cell of each attribute subset (leaf) the table holds, unless a chosen member
    sits in its missing slot. Integer sums, so the result equals summing out axes one by one."""
    n_leaves_max = 0
    for b in range(blk_off.shape[0]):
        n_leaves_max = max(n_leaves_max, blk_leaves[b + 1] - blk_leaves[b])
    cell = np.empty(max(n_leaves_max, 1), dtype=np.int64)
    for b in range(blk_off.shape[0]):
        a0 = blk_axes[b]
        na = blk_axes[b + 1] - a0
        l0 = blk_leaves[b]
        nl = blk_leaves[b + 1] - l0
        combos = 1
        for q in range(na):
            combos *= axis_radix[a0 + q]
        vals = np.zeros(na, dtype=np.int64)
        src_base = blk_off[b]
        for combo in range(combos):
            row = src_base + combo * n_classes
            nonzero = False
            for c in range(n_classes):
                if src[row + c] != 0:
                    nonzero = True
                    break
            if nonzero:
                for li in range(nl):
                    leaf = l0 + li
                    pos = leaf_off[leaf]
                    for q in range(leaf_terms[leaf], leaf_terms[leaf + 1]):
                        v = vals[term_axis[q]]
                        if v >= term_limit[q]:
                            pos = -1
                            break
                        pos += v * term_stride[q]
                    cell[li] = pos
                for c in range(n_classes):
                    x = src[row + c]
                    if x != 0:
                        for li in range(nl):
                            if cell[li] >= 0:
                                dest[cell[li] + c] += x
            # next value combination (last axis fastest, the C order of the group codes)
            q = na - 1
            while q >= 0:
                vals[q] += 1
                if vals[q] < axis_radix[a0 + q]:
                    break
                vals[q] = 0
                q -= 1


def _product(lists):
    """itertools.product of a list of lists (kept local so the plan reads top-down)."""
    from itertools import product

    return product(*lists)


def plan_groups(radix: np.ndarray, max_card: int) -> list:
    """Pack attributes into groups whose joint cardinality (product of ``radix``) is at most
    ``max_card``: greedily, smallest cardinalities first. Returns a list of member arrays."""
    order = np.argsort(radix, kind="stable")
    groups, cur, prod = [], [], 1
    for a in order:
        k = int(radix[a])
        if cur and prod * k > max_card:
            groups.append(np.array(sorted(cur), dtype=np.int64))
            cur, prod = [], 1
        cur.append(int(a))
        prod *= k
    if cur:
        groups.append(np.array(sorted(cur), dtype=np.int64))
    return groups


# --------------------------------------------------------------------------- tables
class CountTable:
    """Joint counts ``#(x_a1, ..., x_at, y)`` for a list of attribute sets of size ``t``.

    Parameters
    ----------
    attribute_sets : array of shape (m, t)
        Each row a strictly increasing list of attribute indices.
    n_values : array of shape (d,)
        Values per attribute (including a missing slot if the coding has one).
    n_classes : int
    dtype : numpy integer dtype, default int32
        Count type. :meth:`add` promotes it (int16 -> int32 -> int64) before a count could overflow.
    allocate : bool, default True
        False leaves ``counts`` empty for the caller to bind (a view into a shared buffer).
    max_table_bytes : int or "auto"
        Memory guard: :class:`CountTableTooLarge` (naming the size) instead of an allocation
        that cannot succeed ("auto": half the physical memory).

    Attributes
    ----------
    offsets : array of shape (m + 1,)
        Block of set ``s`` = ``counts[offsets[s]:offsets[s + 1]]``.
    strides : array of shape (m, t)
        Cell of values ``v`` in set ``s``: ``offsets[s] + sum_r v_r * strides[s, r] + y``.
    counts : array of shape (offsets[-1],)
    n_rows : int
        Rows counted so far.
    """

    def __init__(self, attribute_sets, n_values, n_classes: int, dtype=np.int32, allocate: bool = True,
                 max_table_bytes="auto"):
        sets = np.asarray(attribute_sets, dtype=np.int64)
        if sets.ndim != 2:
            raise ValueError("attribute_sets must be a 2-D array (one set per row)")
        if sets.shape[1] and np.any(np.diff(sets, axis=1) <= 0):
            raise ValueError("each attribute set must list strictly increasing attribute indices")
        self.attribute_sets = sets
        self.n_values = np.asarray(n_values, dtype=np.int64)
        self.n_classes = int(n_classes)
        m, t = sets.shape
        strides = np.zeros((m, t), dtype=np.int64)
        sizes = np.full(m, self.n_classes, dtype=np.int64)
        for r in range(t - 1, -1, -1):
            strides[:, r] = sizes
            sizes = sizes * self.n_values[sets[:, r]]
        self.strides = strides
        self.offsets = np.zeros(m + 1, dtype=np.int64)
        np.cumsum(sizes, out=self.offsets[1:])
        if allocate:
            check_table_memory(int(self.offsets[-1]) * np.dtype(dtype).itemsize, max_table_bytes,
                               what=f"a count table of {m} attribute sets of size {t}")
        self.counts = np.zeros(int(self.offsets[-1]) if allocate else 0, dtype=dtype)
        # lexicographic visiting order for the counting kernel (consecutive sets share prefixes)
        self._order = np.lexsort(sets.T[::-1]) if t else np.arange(m)
        self.n_rows = 0

    @property
    def size(self) -> int:
        return int(self.attribute_sets.shape[1])

    @property
    def nbytes(self) -> int:
        return int(self.counts.nbytes)

    def _room_for(self, n: int) -> bool:
        """Before counting ``n`` more rows: False when there is nothing to count (no rows, or no
        cells), the rows then taken as seen; else True, the counts widened to a dtype that holds
        ``n_rows + n``."""
        if n == 0 or self.counts.size == 0:
            self.n_rows += n
            return False
        if self.n_rows + n > np.iinfo(self.counts.dtype).max:
            self.counts = self.counts.astype(count_dtype(self.n_rows + n))
        return True

    def add(self, codes: np.ndarray, y: np.ndarray, block_rows: int = BLOCK_ROWS) -> None:
        """Count rows ``codes`` (int codes from :func:`encode`, column-major) with classes ``y``."""
        n = codes.shape[0]
        if not self._room_for(n):
            return
        t = self.size
        if t == 1:
            _add_order1(codes, y, self.attribute_sets, self.offsets, self.n_classes, self.counts)
        else:
            _add_sets(codes, y, self.attribute_sets, self._order, self.offsets, self.n_values,
                      self.n_classes, int(block_rows), self.counts)
        self.n_rows += n

    def add_values(self, X, y, n_declared, missing: str = "skip", what: str = "X", columns=None) -> None:
        """Order-1 tables (naive Bayes): code and count in one row-major pass over ``X``.

        Same counts as ``add(encode(X, n_declared, missing, what, columns), y)`` without writing
        the code matrix (for NB on already-discretised data coding was most of the fit). ``X``
        holds nominal codes as float64 (NaN = missing) or integers; set ``s`` counts column
        ``columns[attribute_sets[s, 0]]``. A value that is not a code raises the ValueError of
        :func:`encode`, and the table is left unchanged."""
        if self.size != 1:
            raise ValueError("add_values counts single attributes only (an order-1 table)")
        if missing not in ("skip", "value"):
            raise ValueError(f"missing must be 'skip' or 'value', got {missing!r}")
        X = np.asarray(X)
        if X.dtype != np.float64 and X.dtype.kind not in "iu":
            X = X.astype(np.float64)
        n_declared = np.asarray(n_declared, dtype=np.int64)
        cols = np.arange(X.shape[1], dtype=np.int64) if columns is None else np.asarray(columns, dtype=np.int64)
        if X.ndim != 2 or cols.size != n_declared.size or (cols.size and cols.max() >= X.shape[1]):
            encode(X, n_declared, missing, what, columns)   # raises the shape error
        n = X.shape[0]
        if not self._room_for(n):
            return
        attrs = self.attribute_sets[:, 0]
        part = np.zeros_like(self.counts)
        n_bad = _code_count_order1(X, cols[attrs], n_declared[attrs], missing == "value",
                                   np.ascontiguousarray(y), self.offsets, self.n_classes, part)
        if n_bad:
            encode(X, n_declared, missing, what, columns)   # raises naming the first bad cell
        self.counts += part
        self.n_rows += n

    def block(self, s: int) -> np.ndarray:
        """Counts of set ``s`` as an array of shape ``(k_a1, ..., k_at, C)`` (a view)."""
        shape = tuple(self.n_values[self.attribute_sets[s]]) + (self.n_classes,)
        return self.counts[self.offsets[s]:self.offsets[s + 1]].reshape(shape)

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """``(N_s, N_s_y)``: per set, rows with every attribute of the set observed, overall and per class."""
        m = self.attribute_sets.shape[0]
        tot = np.zeros(m, dtype=np.int64)
        cls = np.zeros((m, self.n_classes), dtype=np.int64)
        _set_totals(self.offsets, self.n_classes, self.counts, tot, cls)
        return tot, cls

    def class_free(self) -> np.ndarray:
        """Counts summed over the class: ``#(x_a1, ..., x_at)``, indexed by ``cell_index // C``."""
        out = np.zeros(self.counts.size // max(self.n_classes, 1), dtype=np.int64)
        _class_sum(self.offsets, self.n_classes, self.counts, out)
        return out

    def cell_index(self, s: int, values: np.ndarray) -> np.ndarray:
        """Index of the class-0 cell of value rows ``values`` (shape (n, t)) in set ``s``."""
        values = np.asarray(values, dtype=np.int64)
        return self.offsets[s] + values @ self.strides[s]

    def gather(self, s: int, values: np.ndarray) -> np.ndarray:
        """Class-count vectors, shape (n, C), of value rows ``values`` (shape (n, t)) in set ``s``."""
        idx = self.cell_index(s, values)
        return self.counts[idx[:, None] + np.arange(self.n_classes)[None, :]]


@dataclass
class Smoothing:
    """Pseudo-counts turning counts into probabilities: ``P = (count + a) / (total + b)``.

    Laplace: ``a = 1``, ``b = K``; m-estimate (Cestnik 1990) with a uniform prior:
    ``a = m / K``, ``b = m``; ``K`` = number of outcomes (values of the estimated
    variable, times ``C`` for a joint with the class).
    """
    kind: str = "m_estimate"
    m: float = 1.0

    def __post_init__(self):
        if self.kind not in ("laplace", "m_estimate"):
            raise ValueError(f"smoothing must be 'laplace' or 'm_estimate', got {self.kind!r}")
        if self.kind == "m_estimate" and not self.m > 0:
            raise ValueError(f"the m of the m-estimate must be > 0, got {self.m!r}")

    def terms(self, n_outcomes):
        """``(a, b)`` for a variable with ``n_outcomes`` outcomes (scalar or array)."""
        k = np.asarray(n_outcomes, dtype=np.float64)
        if self.kind == "laplace":
            return np.ones_like(k), k
        return self.m / k, np.full_like(k, float(self.m))


def smoothing_terms(kind: str, m: float, n_outcomes):
    """Shortcut for ``Smoothing(kind, m).terms(n_outcomes)``."""
    return Smoothing(kind, m).terms(n_outcomes)


# --------------------------------------------------------------------------- reading estimates
def log_joint(table: CountTable, s: int, codes: np.ndarray, smoothing: Smoothing) -> np.ndarray:
    """``log P(y, x_s)`` for every row of ``codes`` (n, d), shape (n, C).

    ``P = (#(y, x_s) + a) / (N_s + b)`` with ``K = C * prod_r k_r`` outcomes and
    ``N_s`` = training rows with the whole set observed. Rows with a missing value in
    the set get 0 (the factor is left out).
    """
    attrs = table.attribute_sets[s]
    vals = codes[:, attrs].astype(np.int64)
    ok = np.all(vals >= 0, axis=1)
    K = table.n_classes * int(np.prod(table.n_values[attrs]))
    a, b = smoothing.terms(K)
    total = table.block(s).sum()
    cnt = table.gather(s, np.where(ok[:, None], vals, 0))
    out = np.log(cnt + a) - np.log(total + b)
    out[~ok] = 0.0
    return out


def log_conditional(table: CountTable, s: int, child: int, codes: np.ndarray, smoothing: Smoothing) -> np.ndarray:
    """``log P(x_child | y, x_parents)`` for every row, shape (n, C), where the set
    ``table.attribute_sets[s]`` = parents + child.

    ``P = (#(y, x_parents, x_child) + a) / (#(y, x_parents, child observed) + b)`` with
    ``K = k_child`` outcomes. The denominator sums the child's values, so rows where the
    child was missing in training are left out (Weka's AODE does the same). Rows whose
    child or a parent is missing get 0 (the factor is left out).
    """
    attrs = table.attribute_sets[s]
    pos = int(np.flatnonzero(attrs == child)[0])
    vals = codes[:, attrs].astype(np.int64)
    ok = np.all(vals >= 0, axis=1)
    vals = np.where(ok[:, None], vals, 0)
    blk = table.block(s)
    denom_tbl = blk.sum(axis=pos)                       # (k_parents..., C)
    parent_vals = np.delete(vals, pos, axis=1)
    num = blk[tuple(vals.T)]                            # (n, C)
    den = denom_tbl[tuple(parent_vals.T)] if parent_vals.shape[1] else np.broadcast_to(denom_tbl, num.shape)
    a, b = smoothing.terms(table.n_values[child])
    out = np.log(num + a) - np.log(den + b)
    out[~ok] = 0.0
    return out


#: grouping and marginalisation plans, shared by all tables of one shape (a cross-validation
#: fits many models on folds of one dataset); bounded, and kept out of the pickled models
_PLANS: dict = {}


def _remember(key, value, limit: int = 256) -> None:
    if len(_PLANS) >= limit:
        _PLANS.clear()
    _PLANS[key] = value


# --------------------------------------------------------------------------- the AnDE family's tables
class AllSubsetCounts:
    """Class counts and the tables of all attribute subsets of sizes ``1 .. max_order``.

    This is what AnDE with ``n = max_order - 1`` needs (A1DE: single attributes and
    pairs; A2DE: up to triples; A3DE: up to 4-sets), and what NB (``max_order = 1``)
    and KDB's structure learning (conditional MI from pairs) need. Table ``t`` lists
    its sets in colexicographic order (:func:`colex_sets`), so set ``a_1 < ... < a_t``
    is number :func:`colex_rank` of its table.

    All tables share one flat buffer ``counts`` (table ``t`` is ``tables[t]``, a view),
    and ``set_offsets[set_start[t] + rank]`` is the start of a set's block in that
    buffer: prediction kernels read any order from one array.

    Build with :meth:`allocate`, which applies the memory guard; fill with :meth:`add`.

    Attributes
    ----------
    n_values, n_classes, max_order
    class_counts : (C,) int64
    missing_counts : (d,) int64, rows with attribute j missing (code < 0)
    counts : flat count buffer (int16, int32 or int64: the smallest that holds the rows
        counted, promoted by :meth:`add` before a count could overflow)
    tables : dict t -> CountTable (views into ``counts``)
    set_start : (max_order + 2,) index of the first set of order t in ``set_offsets``
    set_offsets : (number of sets + 1,) start of each set's block in ``counts``
    n_rows : rows counted
    """

    def __init__(self, n_values, n_classes: int, max_order: int, dtype=np.int32):
        self.n_values = np.asarray(n_values, dtype=np.int64)
        self.n_classes = int(n_classes)
        d = self.n_values.size
        self.max_order = int(min(max_order, d))
        self.class_counts = np.zeros(self.n_classes, dtype=np.int64)
        self.missing_counts = np.zeros(d, dtype=np.int64)
        self.n_rows = 0
        self.max_table_bytes = "auto"
        self._plan_cache: dict = {}
        self.tables: dict[int, CountTable] = {}
        starts, offs, total = [0], [], 0
        for t in range(1, self.max_order + 1):
            tb = CountTable(colex_sets(d, t), self.n_values, self.n_classes, dtype=dtype, allocate=False)
            offs.append(tb.offsets[:-1] + total)
            total += int(tb.offsets[-1])
            starts.append(starts[-1] + tb.offsets.size - 1)
            self.tables[t] = tb
        self.set_start = np.array([0] + starts, dtype=np.int64)  # set_start[t] = first set of order t
        self.set_offsets = np.concatenate(offs + [np.array([total], dtype=np.int64)]) if offs else \
            np.array([0], dtype=np.int64)
        self.counts = np.zeros(total, dtype=dtype)
        self._rebind()

    def _rebind(self) -> None:
        for t, tb in self.tables.items():
            a = self.set_offsets[self.set_start[t]]
            tb.counts = self.counts[a:a + tb.offsets[-1]]

    @staticmethod
    def required_bytes(n_values, n_classes: int, max_order: int, itemsize: int = 4) -> int:
        max_order = min(max_order, len(n_values))
        return int(sum(table_cells(n_values, n_classes, t) for t in range(1, max_order + 1)) * itemsize)

    @classmethod
    def allocate(cls, n_values, n_classes: int, max_order: int, max_table_bytes="auto",
                 what: str = "count tables", expected_rows: int = 2**31 - 1) -> "AllSubsetCounts":
        """Check the memory guard, then allocate zeroed tables with the smallest count
        dtype that holds ``expected_rows`` (later :meth:`add` calls promote it as needed)."""
        n_values = np.asarray(n_values, dtype=np.int64)
        d = n_values.size
        dtype = count_dtype(expected_rows)
        need = cls.required_bytes(n_values, n_classes, max_order, np.dtype(dtype).itemsize)
        check_table_memory(need, max_table_bytes, what=f"{what} (all subsets of size <= "
                                                       f"{min(max_order, d)} of {d} attributes, {n_classes} classes)")
        out = cls(n_values, n_classes, max_order, dtype=dtype)
        out.max_table_bytes = max_table_bytes
        return out

    def add(self, codes: np.ndarray, y: np.ndarray, block_rows: int = BLOCK_ROWS, strategy: str = "auto") -> None:
        """One pass over ``codes`` (from :func:`encode`) and class codes ``y``.

        ``strategy``: ``"direct"`` counts every attribute subset in its own column pass;
        ``"grouped"`` packs low-cardinality attributes into groups (super-attributes of
        joint cardinality <= ``max_card``), counts all subsets of *groups* in one pass and
        marginalises each group table into the exact attribute tables (a missing member
        gets a slot of its own inside the group code and is summed over, so the result
        equals direct counting). With d attributes in G groups, a row costs
        ``sum_t C(G, t)`` instead of ``sum_t C(d, t)`` increments (covtype-shaped data,
        A1DE: about 210 instead of 1485). ``"auto"`` picks the cheaper by a cost model
        (increments per row plus the cells the marginalisation reads).
        """
        n = codes.shape[0]
        if n == 0:
            return
        if self.n_rows + n > np.iinfo(self.counts.dtype).max:
            wider = count_dtype(self.n_rows + n)
            check_table_memory(self.counts.size * np.dtype(wider).itemsize, self.max_table_bytes,
                               what="count tables widened for more rows")
            self.counts = self.counts.astype(wider)
            self._rebind()
        _add_class_counts(y, self.class_counts)
        before = self.missing_counts.copy()
        _add_missing_counts(codes, self.missing_counts)
        has_missing = self.missing_counts > before
        plan = None
        if strategy in ("auto", "grouped"):
            plan = self._grouping_plan(n, has_missing, force=strategy == "grouped")
        if plan is None:
            for t in sorted(self.tables):
                self.tables[t].add(codes, y, block_rows)
        else:
            self._add_grouped(codes, y, block_rows, has_missing, plan)
        self.n_rows += n
        for tb in self.tables.values():
            tb.n_rows = self.n_rows

    # ---------------------------------------------------------------- grouped counting
    #: cost model constants, in nanoseconds of one core: a table increment, one cell read by a
    #: marginalising sum, and the Python/NumPy overhead of one target table
    COST_INCREMENT_NS, COST_READ_NS, COST_TARGET_NS = 1.0, 0.5, 25_000.0

    def _grouping_plan(self, n: int, has_missing: np.ndarray, force: bool = False):
        """Member lists of the cheapest grouping, or None when direct counting is cheaper.

        Estimated cost: direct = ``n`` increments per attribute subset; grouped = ``n``
        increments per group subset (plus the group coding), one read of each group table
        per subset of its first group's members (the marginalising sums; deeper sums run
        on smaller arrays), and a fixed overhead per attribute subset. Grouping is used
        when it is estimated at least 20% cheaper (``force``: always, if any grouping fits).
        """
        T = self.max_order
        radix = self.n_values + has_missing.astype(np.int64)
        d = radix.size
        n_subsets = sum(math.comb(d, t) for t in range(1, T + 1))
        direct = n * n_subsets * self.COST_INCREMENT_NS
        fixed = n_subsets * self.COST_TARGET_NS
        if not force and fixed > 0.8 * direct:
            return None
        key = ("grouping", self._shape_key(), has_missing.tobytes(), int(math.log2(max(n, 1))), force)
        cache = _PLANS
        if key in cache:
            return cache[key]
        best, best_cost = None, float("inf")
        limit = min(memory_limit_bytes(self.max_table_bytes), 1 << 28)
        for max_card in (4, 8, 16, 32, 64, 128, 256):
            groups = plan_groups(radix, max_card)
            G = len(groups)
            if G == d and not force:
                continue
            cards = np.array([int(np.prod(radix[g])) for g in groups], dtype=np.int64)
            TG = min(T, G)
            if sum(table_cells(cards, self.n_classes, t) for t in range(1, TG + 1)) * 8 > limit:
                continue
            first_subsets = [sum(math.comb(len(g), k) for k in range(1, min(T, len(g)) + 1)) for g in groups]
            reads = 0
            for t in range(1, TG + 1):
                for S in combinations(range(G), t):
                    reads += self.n_classes * int(np.prod(cards[list(S)])) * first_subsets[S[0]]
            cost = (n * (sum(math.comb(G, t) for t in range(1, TG + 1)) + d) * self.COST_INCREMENT_NS
                    + reads * self.COST_READ_NS + fixed)
            if cost < best_cost:
                best, best_cost = groups, cost
        if best is not None and not force and best_cost > 0.8 * direct:
            best = None
        _remember(key, best)
        return best

    def _shape_key(self) -> tuple:
        """What the grouping and marginalisation plans depend on besides the chunk."""
        return (self.n_values.tobytes(), self.n_classes, self.max_order, str(self.max_table_bytes))

    def _add_grouped(self, codes, y, block_rows, has_missing, groups):
        """Count all subsets of the groups, then marginalise each group table into every
        attribute subset that takes at least one member from each of its groups."""
        radix = self.n_values + has_missing.astype(np.int64)
        members = np.concatenate(groups)
        member_start = np.zeros(len(groups) + 1, dtype=np.int64)
        np.cumsum([len(g) for g in groups], out=member_start[1:])
        cards = np.array([int(np.prod(radix[g])) for g in groups], dtype=np.int64)
        gcodes = np.empty((codes.shape[0], len(groups)), dtype=code_dtype(int(cards.max())), order="F")
        _group_codes(codes, members, member_start, radix, gcodes)
        T = min(self.max_order, len(groups))
        scratch = AllSubsetCounts(cards, self.n_classes, T, dtype=count_dtype(codes.shape[0]))
        for t in range(1, T + 1):
            scratch.tables[t].add(gcodes, y, block_rows)
        plan = self._marginal_plan(groups, radix, scratch)
        _marginalise_groups(scratch.counts, self.counts, self.n_classes, *plan)

    def _marginal_plan(self, groups, radix, scratch):
        """Flat arrays telling :func:`_marginalise_groups` how to spread every group table over
        the attribute tables it holds (cached per grouping and missing-value pattern).

        Group table ``(g_1 < ... < g_t)`` has one axis per member of each group (members in
        order, the group codes' mixed radix), then the class. Every attribute subset of size
        <= ``max_order`` that takes a non-empty subset of each group's members is one *leaf*:
        its block in ``counts`` and, per chosen member, the member's axis, its stride in that
        block and its value count (the missing slot ``n_values[a]`` is left out)."""
        key = ("marginal", self._shape_key(), tuple(tuple(int(a) for a in g) for g in groups), radix.tobytes())
        cache = _PLANS
        if key in cache:
            return cache[key]
        binom = self.binomials()
        blk_off, blk_axes, blk_leaves = [], [0], [0]
        axis_radix, leaf_off, leaf_terms = [], [], [0]
        term_axis, term_stride, term_limit = [], [], []
        for t, tb in scratch.tables.items():
            base = int(scratch.set_offsets[scratch.set_start[t]])
            for s, gset in enumerate(tb.attribute_sets):
                blk_off.append(base + int(tb.offsets[s]))
                mem = [groups[g] for g in gset]
                axis_radix.extend(int(radix[a]) for g in mem for a in g)
                blk_axes.append(len(axis_radix))
                starts = np.cumsum([0] + [len(g) for g in mem])
                per_group = []
                for gi, g in enumerate(mem):
                    room = self.max_order - (len(mem) - 1)
                    per_group.append([tuple((int(g[j]), int(starts[gi] + j)) for j in pick)
                                      for size in range(1, min(room, len(g)) + 1)
                                      for pick in combinations(range(len(g)), size)])
                for choice in _product(per_group):
                    chosen = [m for part in choice for m in part]
                    if len(chosen) > self.max_order:
                        continue
                    attrs = sorted(a for a, _ in chosen)
                    L = len(attrs)
                    rank = colex_rank(attrs, binom)
                    dest = self.tables[L]
                    leaf_off.append(int(self.set_offsets[self.set_start[L] + rank]))
                    for a, ax in chosen:
                        term_axis.append(ax)
                        term_stride.append(int(dest.strides[rank, attrs.index(a)]))
                        term_limit.append(int(self.n_values[a]))
                    leaf_terms.append(len(term_axis))
                blk_leaves.append(len(leaf_off))
        i64 = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
        plan = (i64(blk_off), i64(blk_axes), i64(blk_leaves), i64(axis_radix), i64(leaf_off), i64(leaf_terms),
                i64(term_axis), i64(term_stride), i64(term_limit))
        _remember(key, plan)
        return plan

    @property
    def nbytes(self) -> int:
        return int(self.counts.nbytes)

    def binomials(self) -> np.ndarray:
        """``B[i, r] = C(i, r)`` for ranks of sets of any order held here."""
        return binomial_table(self.n_values.size, max(self.max_order, 1))

    def set_index(self, attrs) -> int:
        """Position of the set ``attrs`` (any order, sorted or not) in ``set_offsets``."""
        attrs = sorted(int(a) for a in attrs)
        return int(self.set_start[len(attrs)]) + colex_rank(attrs, self.binomials())

    def set_totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Per set (flat index): rows with the set observed, overall ``(S,)`` and per class ``(S, C)``."""
        S = self.set_offsets.size - 1
        tot = np.zeros(S, dtype=np.int64)
        cls = np.zeros((S, self.n_classes), dtype=np.int64)
        _set_totals(self.set_offsets, self.n_classes, self.counts, tot, cls)
        return tot, cls

    def class_free(self, max_order: int) -> np.ndarray:
        """Class-summed counts of the sets of order <= ``max_order``, indexed by ``cell // C``."""
        stop = int(self.set_start[min(max_order, self.max_order) + 1])
        offs = self.set_offsets[:stop + 1]
        out = np.zeros(int(offs[-1]) // max(self.n_classes, 1), dtype=np.int64)
        _class_sum(offs, self.n_classes, self.counts, out)
        return out


# --------------------------------------------------------------------------- growing for partial_fit
def grown_values(declared: np.ndarray, X, columns=None) -> np.ndarray | None:
    """The number of values per column after a later chunk ``X`` (its largest code + 1 where that
    exceeds ``declared``), or None when every code of ``X`` is within ``declared``: what one ``fit``
    on all the chunks would have inferred. Invalid codes (negative, fractional, infinite) are left
    to :func:`encode`, which names them."""
    part = X if columns is None else X[:, columns]
    part = part.toarray() if hasattr(part, "toarray") else np.asarray(part)
    if part.shape[0] == 0:
        return None
    with np.errstate(invalid="ignore"):
        seen = infer_n_values(np.where(np.isfinite(part) & (part >= 0), part, np.nan) if part.dtype.kind == "f"
                              else part)
    declared = np.asarray(declared, dtype=np.int64)
    if not (seen > declared).any():
        return None
    return np.maximum(declared, seen)


def value_maps(old_declared, new_declared, missing_slot) -> list[np.ndarray]:
    """Per column, the new index of each old value index: values keep theirs; a missing-value slot
    (the last index, where ``missing_slot``) moves to the new last index."""
    maps = []
    for k_old, k_new, slot in zip(np.asarray(old_declared), np.asarray(new_declared), np.broadcast_to(missing_slot,
                                                                                                      len(old_declared))):
        m = np.arange(int(k_old) + int(bool(slot)), dtype=np.int64)
        if slot:
            m[-1] = int(k_new)
        maps.append(m)
    return maps


def copy_grown(old: CountTable, new: CountTable, maps: list[np.ndarray]) -> None:
    """Copy every cell of ``old`` into ``new``, the same attribute sets over more values
    (``maps[a][v]``: the new index of value ``v`` of attribute ``a``); new cells stay 0."""
    C = old.n_classes
    cls = np.arange(C)
    for s, attrs in enumerate(old.attribute_sets):
        src = old.counts[old.offsets[s]:old.offsets[s + 1]].reshape([int(old.n_values[a]) for a in attrs] + [C])
        dst = new.counts[new.offsets[s]:new.offsets[s + 1]].reshape([int(new.n_values[a]) for a in attrs] + [C])
        dst[np.ix_(*[maps[a] for a in attrs], cls)] = src


def grow_table(old: CountTable, n_values, maps) -> CountTable:
    """A :class:`CountTable` over ``n_values`` holding ``old``'s counts (:func:`copy_grown`)."""
    new = CountTable(old.attribute_sets, n_values, old.n_classes, dtype=old.counts.dtype)
    copy_grown(old, new, maps)
    new.n_rows = old.n_rows
    return new


def grow_all_subsets(old: "AllSubsetCounts", n_values, maps) -> "AllSubsetCounts":
    """An :class:`AllSubsetCounts` over ``n_values`` holding ``old``'s counts (memory guard applied)."""
    need = AllSubsetCounts.required_bytes(n_values, old.n_classes, old.max_order, old.counts.dtype.itemsize)
    check_table_memory(need, old.max_table_bytes, what="count tables grown for new values")
    new = AllSubsetCounts(n_values, old.n_classes, old.max_order, dtype=old.counts.dtype)
    new.max_table_bytes = old.max_table_bytes
    for t, tb in old.tables.items():
        copy_grown(tb, new.tables[t], maps)
    new.class_counts[:] = old.class_counts
    new.missing_counts[:] = old.missing_counts
    new.n_rows = old.n_rows
    return new
