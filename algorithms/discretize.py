"""Discretisers: supervised MDL (Fayyad and Irani 1993), equal-frequency and equal-width.

All three are pipeline steps (scikit-learn transformers) that are fitted on the
training fold only and turn every numeric column into bin codes ``0 .. bins-1``
(floats), leaving missing values (NaN) missing and nominal columns unchanged.
They follow Weka 3.6 exactly, so that learners fed by them can be compared
with Weka's on identical inputs:

* :class:`MDLDiscretizer` = ``weka.filters.supervised.attribute.Discretize``
  with default options (Fayyad and Irani's MDL criterion, ``-E`` optional);
* :class:`EqualFrequencyDiscretizer` = ``weka.filters.unsupervised.attribute.Discretize -F -B 10``;
* :class:`EqualWidthDiscretizer` = ``weka.filters.unsupervised.attribute.Discretize -B 10``;
* :class:`SparseEqualFrequencyDiscretizer` = ``-F -B 10`` on CSR input (the unstored zeros
  count as values), for ECOC-NB on text.

The rules below were read from the bytecode of Weka 3.6.14 (Debian's
``weka.jar``: ``supervised.attribute.Discretize.cutPointsForSubset`` and
``FayyadAndIranisMDL``, ``core.ContingencyTables.entropy`` /
``entropyConditionedOnRows``, ``unsupervised.attribute.Discretize.
calculateCutPointsByEqualFrequencyBinning`` / ``...EqualWidthBinning``).

Supervised MDL, Weka's rules
----------------------------
1. Instances whose value is missing are left out (Weka sorts them last and
   discretises the prefix before the first missing value).
2. Candidate cut points lie between adjacent *distinct* values, at the midpoint
   ``(v_i + v_{i+1}) / 2`` of the two values; ties inside a run of equal values
   never get a cut.
3. In a subset with ``N >= 2`` instances the candidate with the smallest class
   entropy conditioned on the split is chosen; on equal entropies the first
   (smallest) candidate wins (Weka updates on a strict ``<``). Entropies are in
   bits and computed with Weka's arithmetic, term by term in Weka's order
   (``x ln x`` per class and per row, divided by ``N ln 2``), so the same ties
   break the same way.
4. The split is kept when ``gain > (log2(N - 1) + delta) / N`` with
   ``delta = log2(3^k - 2) - (k E - k_R E_R - k_L E_L)``, where ``k``, ``k_L``,
   ``k_R`` are the numbers of classes present in the subset and its two halves
   and ``E``, ``E_L``, ``E_R`` their entropies (Fayyad and Irani 1993, Sect. 3).
   Weka's default counts ``N - 1`` potential cut points (the number of
   instances minus one, not of distinct boundaries); ``better_encoding=True``
   (Weka ``-E``) counts the distinct boundaries instead.
5. Both halves are split again recursively (top-down), each on its own
   instances only.
6. An attribute with no accepted cut gets a single bin (Weka's ``'All'``): every
   non-missing value becomes code 0.
7. A value ``v`` gets the code of the first cut point ``c_j`` with ``v <= c_j``
   (the number of cut points below ``v``); values beyond the training range
   fall into the outer bins.

Reusable core (for randomised MDL, ESKDB Algorithm 2)
-----------------------------------------------------
The search works on the *class-count matrix over sorted distinct values*
(:func:`class_counts_by_value`), which holds everything the criterion needs.
:func:`candidate_cuts` scores every candidate boundary of a value range
(conditional entropy, information gain, Fayyad-Irani ``delta`` and threshold);
:func:`mdl_boundaries` is the deterministic search (a Numba kernel);
:func:`recursive_boundaries` is the same top-down recursion driven by any
``select`` callback (for example one that samples a candidate from a
``numpy.random.Generator``), and :func:`midpoints` turns boundaries into cut
values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp
from numba import njit
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils._param_validation import Integral, Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _ecoc_kernels as EK
from ._base import NOMINAL_COLUMNS_CONSTRAINTS, AllowNanTagsMixin, SparseAllowNanTagsMixin
from ._kde_kernels import insertion_point
from ._nominal import nominal_mask, nominal_value_counts
from ._sparse import _csr_parts, as_csr

LN2 = math.log(2.0)  # Weka's ContingencyTables.log2 / Utils.log2 constant (Math.log(2))


# ====================================================================== Numba kernels
@njit(cache=True)
def xlogx_table(n_max):
    """``t[k] = k ln k`` for integer counts ``k = 0 .. n_max`` (``t[0] = 0``).

    Weka's ``ContingencyTables.lnFunc`` (0 for ``k <= 0``). Counts are integers
    (unit instance weights), so every entropy term is a table look-up."""
    t = np.zeros(n_max + 1)
    for k in range(1, n_max + 1):
        t[k] = k * math.log(k)
    return t


@njit(cache=True)
def _value_class_counts(sorted_values, sorted_classes, n_classes):
    """Distinct values of a sorted column and their (n_values, n_classes) class counts."""
    n = sorted_values.shape[0]
    n_values = 0
    for i in range(n):
        if i == 0 or sorted_values[i] != sorted_values[i - 1]:
            n_values += 1
    values = np.empty(n_values)
    counts = np.zeros((n_values, n_classes), np.int64)
    j = -1
    for i in range(n):
        if i == 0 or sorted_values[i] != sorted_values[i - 1]:
            j += 1
            values[j] = sorted_values[i]
        counts[j, sorted_classes[i]] += 1
    return values, counts


@njit(cache=True, error_model="numpy")
def _entropy_bits(class_counts, xlogx):
    """Class entropy in bits, term by term as Weka's ``ContingencyTables.entropy``."""
    acc = 0.0
    total = 0
    for c in range(class_counts.shape[0]):
        acc -= xlogx[class_counts[c]]
        total += class_counts[c]
    if total == 0:
        return 0.0
    return (acc + xlogx[total]) / (total * LN2)


@njit(cache=True, error_model="numpy")
def _split_entropy_bits(left, right, xlogx):
    """Class entropy conditioned on a binary split, in bits, as Weka's
    ``ContingencyTables.entropyConditionedOnRows`` (rows = left, right)."""
    acc = 0.0
    n_left = 0
    for c in range(left.shape[0]):
        acc += xlogx[left[c]]
        n_left += left[c]
    acc -= xlogx[n_left]
    n_right = 0
    for c in range(right.shape[0]):
        acc += xlogx[right[c]]
        n_right += right[c]
    acc -= xlogx[n_right]
    total = n_left + n_right
    if total == 0:
        return 0.0
    return -acc / (total * LN2)


@njit(cache=True)
def _n_present(class_counts):
    k = 0
    for c in range(class_counts.shape[0]):
        if class_counts[c] > 0:
            k += 1
    return k


@njit(cache=True, error_model="numpy")
def _fayyad_irani_delta(prior, left, right, prior_entropy, xlogx):
    """Fayyad and Irani (1993) Sect. 3: delta = log2(3^k - 2) - [k E - k_R E_R - k_L E_L]
    (evaluated in Weka's order of operations)."""
    k = _n_present(prior)
    k_left = _n_present(left)
    k_right = _n_present(right)
    e_left = _entropy_bits(left, xlogx)
    e_right = _entropy_bits(right, xlogx)
    return math.log(math.pow(3.0, k) - 2.0) / LN2 - ((k * prior_entropy - k_right * e_right) - k_left * e_left)


@njit(cache=True)
def _subset_class_counts(counts, lo, hi, out):
    """Column sums of ``counts[lo:hi]`` into ``out``; returns the number of instances."""
    out[:] = 0
    for j in range(lo, hi):
        for c in range(counts.shape[1]):
            out[c] += counts[j, c]
    n = 0
    for c in range(out.shape[0]):
        n += out[c]
    return n


@njit(cache=True, error_model="numpy")
def _mdl_boundaries_kernel(counts, xlogx, better_encoding):
    """Weka's recursive MDL search over a class-count matrix of sorted distinct values.

    Returns the accepted boundaries ``j`` (cut between value j and j + 1), sorted.
    Weka's cutPointsForSubset recursion, run with an explicit stack (the subsets
    are independent, so the order of visits does not change the result)."""
    n_values, n_classes = counts.shape
    prior = np.zeros(n_classes, np.int64)
    left = np.zeros(n_classes, np.int64)
    right = np.zeros(n_classes, np.int64)
    best_left = np.zeros(n_classes, np.int64)
    best_right = np.zeros(n_classes, np.int64)
    stack = np.empty((n_values + 2, 2), np.int64)
    accepted = np.empty(max(n_values - 1, 0), np.int64)
    n_accepted = 0
    top = 0
    stack[0, 0] = 0
    stack[0, 1] = n_values
    top = 1
    while top > 0:
        top -= 1
        lo = stack[top, 0]
        hi = stack[top, 1]
        n = _subset_class_counts(counts, lo, hi, prior)
        if n < 2:  # Weka: (lastPlusOne - first) < 2 -> no cut
            continue
        prior_entropy = _entropy_bits(prior, xlogx)
        best_entropy = prior_entropy
        best = -1
        left[:] = 0
        right[:] = prior
        for j in range(lo, hi - 1):
            for c in range(n_classes):
                left[c] += counts[j, c]
                right[c] -= counts[j, c]
            e = _split_entropy_bits(left, right, xlogx)
            if e < best_entropy:  # strict: the first of equal candidates wins
                best_entropy = e
                best = j
                best_left[:] = left
                best_right[:] = right
        gain = prior_entropy - best_entropy
        if best < 0 or gain <= 0:
            continue
        n_cut_points = (hi - lo - 1) if better_encoding else (n - 1)
        delta = _fayyad_irani_delta(prior, best_left, best_right, prior_entropy, xlogx)
        # Weka FayyadAndIranisMDL: accept iff gain > (log2(numCutPoints) + delta) / N
        if not (gain > (math.log(n_cut_points) / LN2 + delta) / n):
            continue
        accepted[n_accepted] = best
        n_accepted += 1
        stack[top, 0] = best + 1
        stack[top, 1] = hi
        stack[top + 1, 0] = lo
        stack[top + 1, 1] = best + 1
        top += 2
    return np.sort(accepted[:n_accepted])


@njit(cache=True, error_model="numpy")
def _candidate_kernel(counts, lo, hi, n_cut_points, xlogx):
    """Score every boundary in ``[lo, hi - 1)``: split entropy, gain, FI delta and threshold."""
    n_classes = counts.shape[1]
    prior = np.zeros(n_classes, np.int64)
    n = _subset_class_counts(counts, lo, hi, prior)
    prior_entropy = _entropy_bits(prior, xlogx)
    m = max(hi - lo - 1, 0)
    if n_cut_points < 0:
        n_cut_points = n - 1
    boundary = np.empty(m, np.int64)
    entropy = np.empty(m)
    gain = np.empty(m)
    delta = np.empty(m)
    threshold = np.empty(m)
    left = np.zeros(n_classes, np.int64)
    right = prior.copy()
    log2_cut_points = math.log(n_cut_points) / LN2 if n_cut_points > 0 else 0.0
    for i in range(m):
        j = lo + i
        for c in range(n_classes):
            left[c] += counts[j, c]
            right[c] -= counts[j, c]
        boundary[i] = j
        entropy[i] = _split_entropy_bits(left, right, xlogx)
        gain[i] = prior_entropy - entropy[i]
        delta[i] = _fayyad_irani_delta(prior, left, right, prior_entropy, xlogx)
        threshold[i] = (log2_cut_points + delta[i]) / n
    return boundary, entropy, gain, delta, threshold, prior_entropy, n


@njit(cache=True, error_model="numpy")
def _equal_frequency_kernel(values, value_counts, n_bins):
    """Weka 3.6 unsupervised Discretize -F (calculateCutPointsByEqualFrequencyBinning),
    run over distinct values with their counts instead of over instances (decisions
    are only taken at boundaries between distinct values, so the result is the same)."""
    n_slots = n_bins - 1
    cuts = np.empty(max(n_slots, 0))
    total = 0.0
    for j in range(values.shape[0]):
        total += value_counts[j]
    freq = total / n_bins  # ideal weight per bin
    remaining = total
    counter = 0.0
    last = 0.0
    n_cuts = 0
    last_index = -1
    for j in range(values.shape[0] - 1):  # the boundary after distinct value j
        counter += value_counts[j]
        remaining -= value_counts[j]
        if counter >= freq and n_cuts < n_slots:
            # is the previous boundary closer to the ideal bin size than this one?
            if (freq - last) < (counter - freq) and last_index != -1:
                cuts[n_cuts] = (values[last_index] + values[last_index + 1]) / 2.0
                counter -= last
                last = counter
                last_index = j
            else:
                cuts[n_cuts] = (values[j] + values[j + 1]) / 2.0
                counter = 0.0
                last = 0.0
                last_index = -1
            n_cuts += 1
            freq = (remaining + counter) / ((n_slots + 1) - n_cuts)
        else:
            last_index = j
            last = counter
    if n_cuts < n_slots and last_index != -1:  # one more possible cut point
        cuts[n_cuts] = (values[last_index] + values[last_index + 1]) / 2.0
        n_cuts += 1
    return cuts[:n_cuts]


@njit(cache=True)
def _bin_codes_kernel(X, columns, cut_values, cut_offsets, out):
    """out[i, columns[k]] = number of cut points of column k below X[i, columns[k]] (NaN stays NaN).

    ``cut_values[cut_offsets[k]:cut_offsets[k + 1]]`` are column k's ascending cut points;
    a value equal to a cut point goes to the lower bin (Weka: ``value <= cut``)."""
    for i in range(X.shape[0]):
        for k in range(columns.shape[0]):
            j = columns[k]
            v = X[i, j]
            if v != v:  # NaN: missing stays missing
                out[i, j] = v
                continue
            lo = cut_offsets[k]
            out[i, j] = insertion_point(cut_values, lo, cut_offsets[k + 1], v) - lo   # first cut >= v


# ====================================================================== reusable core (Python API)
def class_counts_by_value(x, y, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct non-missing values of ``x`` and their class counts.

    Parameters
    ----------
    x : array of shape (n,), float
        One numeric column; NaN (missing) entries are left out, as Weka does.
    y : array of shape (n,), int
        Class codes ``0 .. n_classes - 1``.
    n_classes : int

    Returns
    -------
    values : array of shape (m,)
        The distinct values, ascending.
    counts : int64 array of shape (m, n_classes)
        ``counts[j, c]`` = number of instances with value ``values[j]`` and class ``c``.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    keep = ~np.isnan(x)
    x, y = x[keep], y[keep]
    order = np.argsort(x)
    return _value_class_counts(x[order], y[order], int(n_classes))


@dataclass
class CandidateCuts:
    """Every candidate boundary of a value range, scored as MDL scores it.

    ``boundary[i] = j`` is the cut between distinct values ``j`` and ``j + 1``.
    ``entropy`` is the class entropy conditioned on the split (bits), ``gain =
    prior_entropy - entropy`` the information gain, ``delta`` Fayyad and Irani's
    ``log2(3^k - 2) - [k E - k_R E_R - k_L E_L]``, and ``mdl_threshold =
    (log2(n_cut_points) + delta) / n_instances``: a split passes MDL iff ``gain >
    mdl_threshold``. With another count of potential cut points ``K``, the
    threshold is ``(log2(K) + delta) / n_instances``.
    """

    boundary: np.ndarray
    entropy: np.ndarray
    gain: np.ndarray
    delta: np.ndarray
    mdl_threshold: np.ndarray
    prior_entropy: float
    n_instances: int
    n_cut_points: int

    @property
    def passes_mdl(self) -> np.ndarray:
        return self.gain > self.mdl_threshold


def _as_counts(counts) -> np.ndarray:
    counts = np.ascontiguousarray(counts)
    if counts.ndim != 2:
        raise ValueError(f"counts must be a 2-D (values x classes) matrix, got shape {counts.shape}")
    if not np.issubdtype(counts.dtype, np.integer):
        if not np.all(counts == np.round(counts)):
            raise ValueError("counts must be whole numbers (instance counts)")
    counts = counts.astype(np.int64, copy=False)
    if counts.size and counts.min() < 0:
        raise ValueError("counts must be non-negative")
    return counts


def candidate_cuts(counts, lo: int = 0, hi: int | None = None, n_cut_points: int | None = None,
                   xlogx: np.ndarray | None = None) -> CandidateCuts:
    """Score every candidate boundary of the distinct values ``lo .. hi-1``.

    ``counts`` is the matrix from :func:`class_counts_by_value`. ``n_cut_points``
    is the number of potential cut points in the MDL cost ``log2(n_cut_points)``:
    None gives Weka's default, the number of instances in the range minus one.
    ``xlogx`` (optional) is a precomputed :func:`xlogx_table` at least as long
    as the number of instances, to save rebuilding it on every call.
    """
    counts = _as_counts(counts)
    hi = counts.shape[0] if hi is None else int(hi)
    lo = int(lo)
    if not 0 <= lo <= hi <= counts.shape[0]:
        raise ValueError(f"value range [{lo}, {hi}) is outside 0..{counts.shape[0]}")
    n_total = int(counts[lo:hi].sum())
    if xlogx is None or xlogx.shape[0] <= n_total:
        xlogx = xlogx_table(max(n_total, 1))
    b, e, g, d, t, pe, n = _candidate_kernel(counts, lo, hi, -1 if n_cut_points is None else int(n_cut_points),
                                             xlogx)
    ncp = (n - 1) if n_cut_points is None else int(n_cut_points)
    return CandidateCuts(b, e, g, d, t, float(pe), int(n), int(ncp))


def mdl_boundaries(counts, better_encoding: bool = False) -> np.ndarray:
    """Boundaries accepted by Weka's recursive Fayyad-Irani MDL search (sorted)."""
    counts = _as_counts(counts)
    xlogx = xlogx_table(max(int(counts.sum()), 1))
    return _mdl_boundaries_kernel(counts, xlogx, bool(better_encoding))


def recursive_boundaries(counts, select: Callable[[CandidateCuts, bool], int | None],
                         n_cut_points: Callable[[CandidateCuts], int] | None = None) -> np.ndarray:
    """Top-down recursive splitting driven by ``select`` (hook for randomised MDL).

    For the value range of each subset (first the whole column), the candidate
    boundaries are scored by :func:`candidate_cuts` and ``select(candidates,
    first_call)`` returns the position (index into ``candidates.boundary``) of
    the cut to make, or None to stop splitting this subset. After a cut at
    boundary ``j`` both halves ``[lo, j + 1)`` and ``[j + 1, hi)`` are split again
    with ``first_call=False``. Subsets with fewer than two instances or no
    boundary are not offered to ``select``.

    ``n_cut_points(candidates)`` (optional) recomputes the ``K`` in the MDL cost
    per subset; by default Weka's ``N - 1``.

    :func:`weka_mdl_select` reproduces :func:`mdl_boundaries`; ESKDB's Algorithm 2
    samples instead (``IG - threshold`` among passing candidates, raw IG on the
    first call when none passes).
    """
    counts = _as_counts(counts)
    xlogx = xlogx_table(max(int(counts.sum()), 1))
    accepted = []
    stack = [(0, counts.shape[0], True)]
    while stack:
        lo, hi, first = stack.pop()
        cands = candidate_cuts(counts, lo, hi, xlogx=xlogx)
        if cands.n_instances < 2 or cands.boundary.size == 0:
            continue
        if n_cut_points is not None:
            k = int(n_cut_points(cands))
            cands.n_cut_points = k
            cands.mdl_threshold = (math.log(k) / LN2 + cands.delta) / cands.n_instances
        pick = select(cands, first)
        if pick is None:
            continue
        j = int(cands.boundary[int(pick)])
        accepted.append(j)
        stack.append((j + 1, hi, False))
        stack.append((lo, j + 1, False))
    return np.sort(np.asarray(accepted, dtype=np.int64))


def weka_mdl_select(cands: CandidateCuts, first_call: bool) -> int | None:
    """Weka's choice: the first candidate of least split entropy, kept iff it passes MDL."""
    best = int(np.argmin(cands.entropy))  # argmin returns the first of equal minima
    gain = cands.prior_entropy - cands.entropy[best]
    if gain <= 0 or not gain > cands.mdl_threshold[best]:
        return None
    return best


def midpoints(values, boundaries) -> np.ndarray:
    """Cut values ``(values[j] + values[j + 1]) / 2`` for each boundary ``j``."""
    values = np.asarray(values, dtype=np.float64)
    b = np.asarray(boundaries, dtype=np.int64)
    return (values[b] + values[b + 1]) / 2.0


def equal_frequency_cut_points(x, n_bins: int = 10) -> np.ndarray:
    """Weka's unsupervised ``Discretize -F -B n_bins`` cut points of one column."""
    x = np.asarray(x, dtype=np.float64)
    x = np.sort(x[~np.isnan(x)])
    if x.size == 0:
        return np.empty(0)
    starts = np.flatnonzero(np.r_[True, x[1:] != x[:-1]])
    value_counts = np.diff(np.r_[starts, x.size]).astype(np.float64)
    return _equal_frequency_kernel(x[starts], value_counts, int(n_bins))


def equal_width_cut_points(x, n_bins: int = 10) -> np.ndarray:
    """Weka's unsupervised ``Discretize -B n_bins`` cut points: ``min + i (max - min) / n_bins``."""
    x = np.asarray(x, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return np.empty(0)
    lo, hi = float(x.min()), float(x.max())
    width = (hi - lo) / n_bins
    if n_bins <= 1 or not width > 0:
        return np.empty(0)
    return lo + width * np.arange(1, n_bins, dtype=np.float64)


def bin_codes(x, cut_points) -> np.ndarray:
    """Bin code of each value: the number of cut points strictly below it (Weka's
    ``value <= cut`` rule); NaN stays NaN."""
    x = np.asarray(x, dtype=np.float64)
    codes = np.searchsorted(np.asarray(cut_points, dtype=np.float64), x, side="left").astype(np.float64)
    codes[np.isnan(x)] = np.nan
    return codes


# ====================================================================== transformers
#: ``n_bins`` of the unsupervised discretisers
_N_BINS_CONSTRAINT = {"n_bins": [Interval(Integral, 1, None, closed="left")]}


class _Discretizer(AllowNanTagsMixin, OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Shared machinery: column selection, metadata for the next pipeline step, transform."""

    _parameter_constraints: dict = {
        **NOMINAL_COLUMNS_CONSTRAINTS,
    }

    def __init__(self, *, categorical_features=None, n_categories=None):
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    def _fit_columns(self, X, cut_fn):
        n, d = X.shape
        nominal = nominal_mask(self.categorical_features, d)
        self.nominal_features_in_ = nominal
        self.cut_points_ = [None if nominal[j] else np.asarray(cut_fn(X[:, j]), dtype=np.float64)
                            for j in range(d)]
        ncat = nominal_value_counts(X, nominal, self.n_categories)
        for j in range(d):
            if not nominal[j]:
                ncat[j] = self.cut_points_[j].size + 1
        self.n_categories_out_ = ncat
        self.categorical_features_out_ = np.ones(d, dtype=bool)
        return self

    def transform(self, X):
        """Bin codes (floats ``0 .. bins-1``) for numeric columns; NaN stays NaN; nominal
        columns unchanged."""
        check_is_fitted(self, "cut_points_")
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        X = np.ascontiguousarray(X)
        out = X.copy()
        columns = np.array([j for j, c in enumerate(self.cut_points_) if c is not None], dtype=np.int64)
        if columns.size:
            cuts = [self.cut_points_[j] for j in columns]
            offsets = np.zeros(columns.size + 1, dtype=np.int64)
            offsets[1:] = np.cumsum([c.size for c in cuts])
            _bin_codes_kernel(X, columns, np.concatenate(cuts).astype(np.float64), offsets, out)
        return out


class MDLDiscretizer(_Discretizer):
    """Supervised MDL discretisation (Fayyad and Irani 1993), cut for cut as Weka 3.6.

    Reproduces ``weka.filters.supervised.attribute.Discretize`` with default
    options (see the module docstring for Weka's rules: midpoints between
    distinct values, first-best tie rule, the MDL test with ``N - 1`` potential
    cut points, missing values left out, a single bin when nothing passes).
    Fitted on the training data only; its fit time is the pipeline's
    preprocessing time.

    Missing values: left out when cut points are learned; NaN in, NaN out.
    Nominal attributes (``categorical_features``): passed through unchanged.
    Infinite values are rejected with a ValueError (scikit-learn's input validation).

    Parameters
    ----------
    categorical_features : bool mask of shape (n_features,), int indices, or None
        Nominal columns (passed through). The runner injects the dataset's mask.
    n_categories : int array of shape (n_features,) or None
        Declared number of values per column (0 for numeric); reported as
        ``n_categories_out_`` for nominal columns. The runner injects it.
    better_encoding : bool, default=False
        Weka's ``-E``: count the distinct boundaries of a subset, rather than its
        instances minus one, as the potential cut points in the MDL cost.

    Attributes
    ----------
    cut_points_ : list of length n_features
        Ascending cut points (float64 array) of each numeric column, empty for a
        column that gets a single bin; None for a nominal column.
    classes_ : array
        Class labels seen in ``fit``.
    n_categories_out_ : int64 array of shape (n_features,)
        Values per output column: bins (``len(cut_points_[j]) + 1``) of numeric
        columns, the declared ``n_categories`` of nominal columns (largest code
        + 1 when none is declared).
    categorical_features_out_ : bool array of shape (n_features,)
        All True: every output column is nominal.
    nominal_features_in_ : bool array of shape (n_features,)
        The columns passed through.
    """

    def __init__(self, *, categorical_features=None, n_categories=None, better_encoding=False):
        super().__init__(categorical_features=categorical_features, n_categories=n_categories)
        self.better_encoding = better_encoding

    _parameter_constraints: dict = {**_Discretizer._parameter_constraints, "better_encoding": ["boolean"]}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def fit(self, X, y=None):
        """Learn the cut points of every numeric column from ``X`` and the class labels ``y``."""
        self._validate_params()
        if y is None:
            raise ValueError("MDLDiscretizer requires y to be passed, but the target y is None: supervised "
                             "discretisation needs the class labels, fit(X, y)")
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        y_codes = y_codes.astype(np.int64)
        n_known = np.sum(~np.isnan(X), axis=0)
        xlogx = xlogx_table(max(int(n_known.max(initial=0)), 1))
        better = bool(self.better_encoding)

        def cuts(col):
            values, counts = class_counts_by_value(col, y_codes, n_classes)
            return midpoints(values, _mdl_boundaries_kernel(counts, xlogx, better))

        return self._fit_columns(X, cuts)


class _BinningDiscretizer(_Discretizer):
    """Unsupervised binning of every numeric column into at most ``n_bins`` bins, at the cut
    points ``_cut_points(values, n_bins)`` of the subclass."""

    _parameter_constraints: dict = {**_Discretizer._parameter_constraints, **_N_BINS_CONSTRAINT}

    def __init__(self, *, n_bins=10, categorical_features=None, n_categories=None):
        super().__init__(categorical_features=categorical_features, n_categories=n_categories)
        self.n_bins = n_bins

    def fit(self, X, y=None):
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        return self._fit_columns(X, lambda col: self._cut_points(col, int(self.n_bins)))


class EqualFrequencyDiscretizer(_BinningDiscretizer):
    """Unsupervised equal-frequency binning, as Weka 3.6's ``Discretize -F -B n_bins``.

    Weka's algorithm (``calculateCutPointsByEqualFrequencyBinning``): walk the
    sorted values; at each boundary between distinct values, once the running
    bin weight reaches the ideal ``freq`` cut either here or at the previous
    boundary, whichever is closer to ``freq``, then re-aim ``freq`` at the
    remaining weight over the remaining bins. Ties are never split, so a column
    with few distinct values gets fewer than ``n_bins`` bins (ECOC-NB, Sect. 5:
    "a 10-valued discrete attribute using equal-frequency discretization").

    Missing values: left out when fitting; NaN in, NaN out. Nominal columns pass
    through. Parameters and attributes as :class:`MDLDiscretizer` (``y`` is
    ignored), plus ``n_bins`` (default 10).
    """

    _cut_points = staticmethod(equal_frequency_cut_points)


class EqualWidthDiscretizer(_BinningDiscretizer):
    """Unsupervised equal-width binning, as Weka 3.6's ``Discretize -B n_bins``.

    Cut points ``min + i * (max - min) / n_bins`` for ``i = 1 .. n_bins - 1`` over
    the non-missing training values; a constant (or all-missing) column gets a
    single bin. Missing values: NaN in, NaN out. Nominal columns pass through.
    Parameters and attributes as :class:`EqualFrequencyDiscretizer`.
    """

    _cut_points = staticmethod(equal_width_cut_points)


# --------------------------------------------------------------------------- sparse input
class SparseEqualFrequencyDiscretizer(SparseAllowNanTagsMixin, OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Weka 3.6's unsupervised ``Discretize -F -B n_bins`` (as
    :class:`EqualFrequencyDiscretizer`, whose cut-point rule it calls) on CSR
    input: a column's values are its stored entries plus the zeros that are not stored (Park and Fuernkranz 2014
    Table 4: "each numerical attribute into a 10-valued discrete attribute using equal-frequency
    discretization"). The bin codes are relabelled so that the bin holding 0 is code 0, which keeps
    the output as sparse as the input (naive Bayes does not depend on the labels of nominal values).
    Dense input gives dense output (the same codes). NaN stays NaN; nominal columns pass through.

    Attributes: ``cut_points_`` (per column, None for nominal ones), ``zero_bin_`` (the bin of 0
    before relabelling), ``n_categories_out_`` and ``categorical_features_out_`` (all True) for the
    steps after it.
    """

    _parameter_constraints: dict = {**_Discretizer._parameter_constraints, **_N_BINS_CONSTRAINT}

    def __init__(self, *, n_bins=10, categorical_features=None, n_categories=None):
        self.n_bins = n_bins
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    def fit(self, X, y=None):
        self._validate_params()
        X = validate_data(self, X, accept_sparse=("csr", "csc", "coo"), dtype=np.float64,
                          ensure_all_finite="allow-nan")
        Xc = as_csr(X)
        t, d = Xc.shape
        nominal = nominal_mask(self.categorical_features, d)
        ip, ix, dt = _csr_parts(Xc)
        keep = ~np.isnan(dt)
        stored = np.bincount(ix, minlength=d)
        cols = np.concatenate([ix[keep], np.arange(d)])
        vals = np.concatenate([dt[keep], np.zeros(d)])
        cnt = np.concatenate([np.ones(keep.sum()), (t - stored).astype(np.float64)])[:, None]
        order = np.lexsort((vals, cols))
        cols, vals, cnt = cols[order], vals[order], np.ascontiguousarray(cnt[order])
        oc, ov, ocnt = np.empty_like(cols), np.empty_like(vals), np.empty_like(cnt)
        u = EK.merge_sorted_grid(cols, vals, cnt, oc, ov, ocnt)
        pos = ocnt[:u, 0] > 0
        oc, ov, ow = oc[:u][pos], ov[:u][pos], ocnt[:u, 0][pos]
        bounds = np.searchsorted(oc, np.arange(d + 1))
        self.cut_points_, zero_bin = [], np.zeros(d, dtype=np.int64)
        for j in range(d):
            if nominal[j]:
                self.cut_points_.append(None)
                continue
            lo, hi = bounds[j], bounds[j + 1]
            cuts = _equal_frequency_kernel(ov[lo:hi], ow[lo:hi], int(self.n_bins)) if hi > lo else np.empty(0)
            self.cut_points_.append(np.asarray(cuts, dtype=np.float64))
            zero_bin[j] = np.searchsorted(cuts, 0.0, side="left")
        self.zero_bin_ = zero_bin
        ncat = np.zeros(d, dtype=np.int64)
        if nominal.any():
            ncat = nominal_value_counts(Xc, nominal, self.n_categories)
        for j in np.flatnonzero(~nominal):
            ncat[j] = self.cut_points_[j].size + 1
        self.n_categories_out_ = ncat
        self.categorical_features_out_ = np.ones(d, dtype=bool)
        return self

    def transform(self, X):
        check_is_fitted(self, "cut_points_")
        dense = not sp.issparse(X)
        X = validate_data(self, X, reset=False, accept_sparse=("csr", "csc", "coo"), dtype=np.float64,
                          ensure_all_finite="allow-nan")
        Xc = as_csr(X)
        d = Xc.shape[1]
        numeric = np.array([c is not None for c in self.cut_points_])
        sizes = np.array([0 if c is None else c.size for c in self.cut_points_], dtype=np.int64)
        offsets = np.zeros(d + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        cuts = np.concatenate([c for c in self.cut_points_ if c is not None] or [np.empty(0)])
        ix = Xc.indices.astype(np.int64)
        out = np.empty_like(Xc.data)
        EK.bin_codes_csr(ix, Xc.data, cuts, offsets, self.zero_bin_, out)
        data = np.where(numeric[ix], out, Xc.data)                   # nominal columns pass through
        res = sp.csr_matrix((data, Xc.indices.copy(), Xc.indptr.copy()), shape=Xc.shape)   # never alter X
        res.eliminate_zeros()
        if dense:
            return res.toarray()
        return res
