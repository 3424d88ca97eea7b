"""ESKDB: an ensemble of selective KDBs (seed 002: Zhang, Petitjean and Buntine 2020).

Algorithm 1 (learnESKDB). Each of the ``n_estimators`` members

1. draws its own cut points for every numeric attribute by the randomised MDL
   discretisation of Algorithm 2 (:func:`random_mdl_boundaries`), Sect. 3.1;
2. discretises the training data with them (nominal attributes pass through);
3. draws an attribute order by Algorithm 3 (:func:`sample_attribute_order`): the
   mutual information of each attribute with the class, computed on the member's
   discretised data, is normalised into a distribution, an attribute is drawn,
   removed, and the rest renormalised, Sect. 3.2;
4. learns SKDB (Martinez et al. 2016) on its discretised data with that order:
   the KDB-maxK structure, then k* <= maxK and the number of attributes n* by
   incremental leave-one-out cross-validation (:class:`algorithms.bnc.SKDB`);
5. estimates its parameters by M-estimation with back-off or by HDP smoothing
   (:mod:`algorithms.hdp`, Sect. 3.3).

Prediction is the mean of the members' posteriors P(y | x) (Alg. 1; the
reference code averages the members' normalised distributions).

Variants (all parameters of :class:`ESKDB`)
--------------------------------------------
* ESKDB_M (``estimation="m_estimate"``) and ESKDB_HDP (``estimation="hdp"``).
* ESKDB_randomO (``random_cut_points=False``): Weka's deterministic MDL cut points
  (:class:`algorithms.discretize.MDLDiscretizer`), shared by every member; only the
  orders are sampled (seed 002 Sect. 4.3: "no random discretization, but just
  straight MDLP discretization").
* ESKDB_randomCP (``random_order=False``): random cut points, and each member uses
  SKDB's own order (attributes sorted on MI with the class on its discretised data).
* ``n_estimators`` in {1, 10, 20, 30} (Sect. 4.4); ``tying`` and ``prior`` go to
  the HDP sampler (Sect. 4.5).
* ``n_estimators=1, random_cut_points=False, random_order=False`` is SKDB on
  Weka-MDL-discretised data, probability for probability.

Choices where the paper is silent (each a parameter, defaults from the reference
code icesky0125/ESKDB-on-numerical-data where it decides)
--------------------------------------------------------------------------------
* ``cut_point_count="boundaries"``: the number K of potential cut points in the MDL
  cost log2(K) of Algorithm 2. The reference code runs its randomised MDL with
  Weka's ``setUseBetterEncoding(true)``, so K is the number of candidate
  boundaries (distinct-value gaps) of the subset. ``"instances"`` is Weka's
  default (instances - 1); ``"instances_plus_boundaries"`` is what the reference
  MDLR class computes without better encoding.
* Alg. 2 lines 10-12: a candidate is given weight IG - threshold when IG exceeds the
  threshold, else 0 (the reference zeroes ``difference <= 0``). Lines 16-25: when
  no candidate passes and this is the first call, one cut is drawn with probability
  proportional to the raw information gain and the recursion stops there (line 22
  returns); when no gain is positive either, the attribute gets no cut (one bin).
  Recursion visits the left subset before the right one (lines 34-35), so the
  draws of a seed are fixed.
* Each draw takes one ``Generator.random()`` uniform u and picks the first
  candidate whose cumulative weight reaches u times the total weight.
* Alg. 3 on ties and zeros: an attribute with zero MI can never be drawn while
  another has positive MI; once only zero-MI attributes remain (e.g. constant
  columns), the reference code stops and drops them. ``zero_mi="append"``
  (default) appends them in a uniformly random order instead, so every attribute
  stays available to SKDB's n* selection, which discards them when they do not
  help; ``zero_mi="drop"`` follows the reference code.
* Missing values: seed 002 Sect. 4.1, "a missing value is treated as a separate
  attribute value": a missing numeric value is left out when cut points are
  learned and becomes its own value after discretisation, as a missing nominal
  value does (``missing="value"``); ``missing="skip"`` passes NaN on to SKDB.
* The MI of Algorithm 3 is computed on the member's discretised training data,
  with missing as a value when ``missing="value"`` (the reference computes it on
  the discretised data it counts).
* Randomness: member e draws from ``numpy.random.default_rng(seed_e)`` where
  ``seed_e`` is the e-th of ``n_estimators`` integers drawn from
  ``default_rng(random_state)``; the member's cut points, order and HDP sampler
  all draw from that one generator in this order. Results are therefore
  bit-identical per seed and independent of ``n_jobs``.

Nominal attributes pass through unchanged (their codes 0..k-1 are the values).
Unseen nominal codes at prediction raise a ValueError naming the column (from
the count engine); numeric test values outside the training range fall into the
outer bins.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .discretize import (LN2, _bin_codes_kernel, _candidate_kernel, _mdl_boundaries_kernel, class_counts_by_value,
                         midpoints, xlogx_table)

CUT_POINT_COUNTS = ("boundaries", "instances", "instances_plus_boundaries")
_CUT_COUNT_CODE = {name: i for i, name in enumerate(CUT_POINT_COUNTS)}


# ====================================================================== Algorithm 2 (Numba)
@njit(cache=True)
def _draw_index(weights, u):
    """First index whose cumulative weight reaches ``u * sum(weights)`` (a multinomial draw
    from the normalised weights, Alg. 2 lines 20 and 29); -1 when every weight is 0."""
    total = 0.0
    last = -1
    for i in range(weights.shape[0]):
        if weights[i] > 0.0:
            total += weights[i]
            last = i
    if last < 0:
        return -1
    target = u * total
    cum = 0.0
    for i in range(weights.shape[0]):
        if weights[i] > 0.0:
            cum += weights[i]
            if target <= cum:
                return i
    return last  # rounding: u * total above the accumulated sum


@njit(cache=True, error_model="numpy")
def _random_mdl_kernel(counts, xlogx, cut_count, force_first, rng):
    """Algorithm 2 over a class-count matrix of sorted distinct values.

    Returns the chosen boundaries ``j`` (cut between distinct values j and j + 1),
    sorted. The recursion is run with an explicit stack in the paper's visiting
    order (the subset, then its left part, then its right part)."""
    n_values = counts.shape[0]
    stack = np.empty((n_values + 2, 3), np.int64)  # lo, hi, first-call flag
    chosen = np.empty(max(n_values - 1, 0), np.int64)
    n_chosen = 0
    stack[0, 0] = 0
    stack[0, 1] = n_values
    stack[0, 2] = 1
    top = 1
    while top > 0:
        top -= 1
        lo = stack[top, 0]
        hi = stack[top, 1]
        first = stack[top, 2] == 1
        m = hi - lo - 1  # candidate boundaries of the subset (Alg. 2 input P)
        if m < 1:
            continue
        n = 0
        for j in range(lo, hi):
            for c in range(counts.shape[1]):
                n += counts[j, c]
        if n < 2:
            continue
        if cut_count == 0:
            k = m
        elif cut_count == 1:
            k = n - 1
        else:
            k = n - 1 + m
        boundary, entropy, gain, delta, threshold, prior_entropy, n_inst = _candidate_kernel(
            counts, lo, hi, k, xlogx)
        # Alg. 2 lines 5-14: IG' = IG - threshold where IG passes MDL, else 0
        excess = np.zeros(m)
        for i in range(m):
            d = gain[i] - threshold[i]
            if d > 0.0:
                excess[i] = d
        u = rng.random()
        pick = _draw_index(excess, u)
        if pick < 0:
            # Alg. 2 line 16: no cut passes MDL -> on the first call, sample one by raw IG
            if first and force_first:
                raw = np.zeros(m)
                for i in range(m):
                    if gain[i] > 0.0:
                        raw[i] = gain[i]
                pick = _draw_index(raw, u)
                if pick >= 0:
                    chosen[n_chosen] = boundary[pick]
                    n_chosen += 1
            continue  # line 22 / line 25: return without recursing
        j = boundary[pick]
        chosen[n_chosen] = j
        n_chosen += 1
        # lines 32-35: recurse on the left part, then the right part (pushed right first)
        stack[top, 0] = j + 1
        stack[top, 1] = hi
        stack[top, 2] = 0
        stack[top + 1, 0] = lo
        stack[top + 1, 1] = j + 1
        stack[top + 1, 2] = 0
        top += 2
    return np.sort(chosen[:n_chosen])


def random_mdl_boundaries(counts, rng: np.random.Generator, cut_point_count: str = "boundaries",
                          force_first: bool = True, xlogx: np.ndarray | None = None) -> np.ndarray:
    """Randomised MDL discretisation of one attribute (seed 002 Algorithm 2).

    Parameters
    ----------
    counts : int array of shape (n_values, n_classes)
        Class counts of the attribute's sorted distinct values
        (:func:`algorithms.discretize.class_counts_by_value`).
    rng : numpy.random.Generator
        Advanced in place: one uniform per visited subset that has a candidate.
    cut_point_count : {"boundaries", "instances", "instances_plus_boundaries"}
        The K of the MDL cost log2(K) (module docstring).
    force_first : bool, default=True
        Alg. 2 lines 16-24 (at least one cut on the first call, drawn by raw IG).
    xlogx : array, optional
        A :func:`algorithms.discretize.xlogx_table` at least as long as the number of
        instances (saves rebuilding it per attribute).

    Returns
    -------
    Sorted boundaries ``j`` (cut between distinct values ``j`` and ``j + 1``); turn them
    into cut values with :func:`algorithms.discretize.midpoints`.
    """
    if cut_point_count not in _CUT_COUNT_CODE:
        raise ValueError(f"cut_point_count must be one of {CUT_POINT_COUNTS}; got {cut_point_count!r}")
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    if counts.ndim != 2:
        raise ValueError(f"counts must be a (values x classes) matrix; got shape {counts.shape}")
    n_total = int(counts.sum())
    if xlogx is None or xlogx.shape[0] <= n_total:
        xlogx = xlogx_table(max(n_total, 1))
    return _random_mdl_kernel(counts, xlogx, _CUT_COUNT_CODE[cut_point_count], bool(force_first), rng)


# ====================================================================== Algorithm 3
def mutual_information(codes: np.ndarray, y: np.ndarray, n_values, n_classes: int) -> np.ndarray:
    """MI(X_j; Y) in nats of every column of int ``codes`` (n, d); negative codes (missing,
    skipped) are left out of that column's table."""
    codes = np.asarray(codes)
    n, d = codes.shape
    y = np.asarray(y, dtype=np.int64)
    mi = np.zeros(d)
    for j in range(d):
        col = codes[:, j].astype(np.int64)
        ok = col >= 0
        k = int(n_values[j])
        joint = np.bincount(col[ok] * n_classes + y[ok], minlength=k * n_classes).reshape(k, n_classes)
        mi[j] = _mi_from_joint(joint)
    return mi


def _mi_from_joint(joint: np.ndarray) -> float:
    total = joint.sum()
    if total <= 0:
        return 0.0
    p = joint / total
    px = p.sum(axis=1, keepdims=True)
    py = p.sum(axis=0, keepdims=True)
    nz = p > 0
    val = float(np.sum(p[nz] * np.log(p[nz] / (px @ py)[nz])))
    return max(val, 0.0)


def sample_attribute_order(mi, rng: np.random.Generator, zero_mi: str = "append") -> np.ndarray:
    """Attribute order drawn by seed 002 Algorithm 3.

    ``mi[j]`` is MI(X_j; Y). Each step normalises the remaining MI into a distribution
    (line 8), draws an attribute (line 9, one ``rng.random()`` uniform, first index
    whose cumulative probability reaches it), appends it (line 10) and zeroes its MI
    (line 11). Attributes with zero MI are never drawn while another remains; they
    are then appended in a uniformly random order (``zero_mi="append"``) or dropped
    (``"drop"``, the reference code).
    """
    if zero_mi not in ("append", "drop"):
        raise ValueError(f"zero_mi must be 'append' or 'drop'; got {zero_mi!r}")
    w = np.asarray(mi, dtype=np.float64).copy()
    if w.ndim != 1 or not np.all(np.isfinite(w)) or (w < 0).any():
        raise ValueError("mi must be a 1-d array of finite non-negative values")
    w[w <= 0] = 0.0
    order = []
    for _ in range(int(np.count_nonzero(w))):
        z = int(_draw_index(w, rng.random()))  # lines 8-9
        order.append(z)                        # line 10
        w[z] = 0.0                             # line 11
    rest = np.setdiff1d(np.arange(w.size), np.asarray(order, dtype=np.int64))
    if zero_mi == "append" and rest.size:
        order.extend(rng.permutation(rest).tolist())
    return np.asarray(order, dtype=np.int64)


# ====================================================================== the ensemble (Algorithm 1)
from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402
from sklearn.utils.multiclass import check_classification_targets  # noqa: E402
from sklearn.utils.validation import check_is_fitted, validate_data  # noqa: E402

ESTIMATIONS = ("m_estimate", "hdp")


def _column_counts(X, numeric, y_codes, n_classes):
    """Per numeric column: sorted distinct values and their class counts (one sort per column,
    shared by every member)."""
    return [class_counts_by_value(X[:, j], y_codes, n_classes) for j in numeric]


def _bin_codes(X, numeric, cut_points):
    """X with every numeric column replaced by its bin code (NaN stays NaN)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    out = X.copy()
    if numeric.size:
        offsets = np.zeros(numeric.size + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([c.size for c in cut_points])
        flat = np.concatenate(cut_points).astype(np.float64) if offsets[-1] else np.empty(0)
        _bin_codes_kernel(X, numeric.astype(np.int64), flat, offsets, out)
    return out


class _Member:
    """One ESKDB member: its cut points, its order and its fitted SKDB."""

    __slots__ = ("cut_points", "order", "model")

    def __init__(self, cut_points, order, model):
        self.cut_points = cut_points
        self.order = order
        self.model = model
