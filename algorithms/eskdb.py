"""ESKDB: an ensemble of selective KDBs (Zhang, Petitjean and Buntine 2020).

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
  orders are sampled (Zhang et al. 2020 Sect. 4.3: "no random discretization, but just
  straight MDLP discretization").
* ESKDB_randomCP (``random_order=False``): random cut points, and each member uses
  SKDB's own order (attributes sorted on MI with the class on its discretised data).
* ``n_estimators`` in {1, 10, 20, 30} (Sect. 4.4); ``tying`` and ``prior`` go to
  the HDP sampler (Sect. 4.5).
* ``n_estimators=1, random_cut_points=False, random_order=False`` is SKDB on
  Weka-MDL-discretised data (``-E``), probability for probability: the
  ``conf/algo/skdb.yaml`` pipeline.
* ``m=1.0``: the M of the M-estimates, ``(n_x + M/|X|) / (N + M)`` (Sect. 2.4 and the
  reference code's ``SUtils.m_MEsti = 1.0``; Table 2's "M = 1/C" is the pseudo-count
  this gives a class; see :mod:`algorithms.bnc`).

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
* Missing values: Zhang et al. 2020 Sect. 4.1, "a missing value is treated as a separate
  attribute value": a missing numeric value is left out when cut points are
  learned (as Weka's MDL does) and becomes a value of its own after
  discretisation, as a missing nominal value does. Only attributes with a missing
  value in the training data get that extra value (``missing_slot="observed"``), so
  complete attributes keep the base rate ``1/|X|`` of the reference code (which codes
  a missing value as 0, and so does this class for a test value missing in a column
  without a slot); ``missing_slot="always"`` gives every attribute the extra value
  (this implementation's earlier rule), as :class:`algorithms.bnc.SKDB` with ``missing="value"``.
* The MI of Algorithm 3 is ``I(X; Y)`` on the member's discretised training data,
  missing as a value: SKDB's own pass 1 (:func:`algorithms.bnc.pairwise_information`),
  computed once per member and handed to SKDB, which therefore learns its
  structure from the same MI and CMI.
* ESKDB_randomO's fixed cut points are Weka's MDL cut points with ``-E`` (the
  better encoding), as the ESKDB code and ``conf/algo/skdb.yaml`` discretise.
* Randomness: member e draws from ``numpy.random.default_rng(seed_e)`` where
  ``seed_e`` is the e-th of ``n_estimators`` integers drawn from
  ``default_rng(random_state)``; the member's cut points, order and HDP sampler
  all draw from that one generator in this order. Results are therefore
  bit-identical per seed and independent of ``n_jobs``.

The reference code's draws (``cut_point_rng="authors"``, ``order_rng="authors"``)
---------------------------------------------------------------------------------
The reference code (icesky0125/ESKDB-on-numerical-data; its driver ``MDL_R/TwoFoldCV.java``,
the one ``eskdb.sh`` runs) seeds every draw with ``java.util.Random``
(:mod:`algorithms._java_random`). These options reproduce its draws; the default stays the
NumPy generator above.

* Member seeds. ``TwoFoldCV.main`` sets ``long randomSeed = 1990093`` once, gives member k of a
  training fold ``discretizer.setSeed(randomSeed)`` (an ``MDLR``) and
  ``classifiers[k].setSeed(randomSeed)`` (a ``wdBayesOnlinePYP_MDLR``, which passes it to
  ``BNStructure_MDLR.setSeed``), then ``randomSeed++``. The counter is never reset, so the
  second training fold of the first 5x2 round starts at ``1990093 + E`` and training fold f
  (0..9) at ``1990093 + f * E``. Here member e uses ``java_seed + e`` (``java_seed`` defaults
  to 1990093, the first fold's); with ``java_fold_seeds=True`` it uses ``java_seed + f * E + e``,
  f the split's position in the protocol (``split_index``, set by bench's runner: repeat * 2 +
  fold under 5x2 CV), as the driver counts.
* Cut points (``MDL_R/MDLR.java``). ``calculateCutPoints`` visits the numeric attributes from
  the last column to the first; ``cutPointsForSubset`` keeps the seed in a field, so it carries
  over from one attribute to the next. A subset whose MDL-passing weights are not all 0 draws
  ``p = new Random(seed).nextDouble()`` and then ``seed++``; the first-call fallback (no cut
  passes MDL, one cut drawn by raw IG) draws ``new Random(seed).nextDouble()`` without
  ``seed++``; a subset without a draw leaves the seed alone. The index is
  ``SUtils.cumulativeProbability`` of the ``SUtils.normalize``-d weights: the first non-zero
  weight whose running sum reaches ``p``. Because the first ``nextDouble()`` of consecutive
  seeds barely moves (0.974-0.977 for seeds 1990093-1990104), and member e + 1's seeds are
  member e's shifted by one, the members get nearly the same cut points
  (``scripts/eskdb_cut_diversity.py`` counts them).
* Orders (``MDL_R/BNStructure_MDLR.java``). ``learnStructureSKDB_R`` makes one
  ``Random rg = new Random(seed)`` with the member's seed and ``sampleReNormalizing`` draws
  ``rg.nextDouble()`` once per attribute: ``Utils.normalize`` the remaining MI, take
  ``cumulativeProbability``, zero the drawn attribute, stop when the rest sums to 0 (zero-MI
  attributes are dropped, ``zero_mi="drop"``; ``"append"`` still appends them in a NumPy
  random order).
* What stays NumPy: the HDP sampler's seed and the ``zero_mi="append"`` permutation come
  from the member's NumPy generator (``random_state``), as before. Non-positive IG / MI values
  count as 0 (the Java code keeps rounding-level negative values in its sums); where rounding
  leaves ``p`` above the last running sum the last candidate is taken (the Java code fails).

Nominal attributes pass through unchanged (their codes 0..k-1 are the values).
Unseen nominal codes at prediction raise a ValueError naming the column (from
the count engine); numeric test values outside the training range fall into the
outer bins. There is no ``partial_fit``: every member needs the sorted values of
each numeric column (Alg. 2) and SKDB's three passes over the whole training set.

Cost: the values of each numeric column are sorted once per ``fit`` and shared by
the members; a member's discretisation is one Numba scan per visited subset
(Alg. 2) and one binning pass; its SKDB is three count passes on the count engine;
HDP smoothing (1000 Gibbs sweeps over each selected family's tree) dominates
ESKDB_HDP. ``n_jobs`` fits members in parallel processes.
"""

from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ._base import (NOMINAL_COLUMNS_CONSTRAINTS, RANDOM_STATE_CONSTRAINT, AllowNanTagsMixin, PredictFromProbaMixin,
                    fit_class_codes)
from ._counts import MAX_TABLE_BYTES_CONSTRAINT, encode
from ._java_random import first_double, next_double_state, scramble
from .hdp import PRIORS, TYINGS, HDPSettings
from ._nominal import nominal_mask, nominal_value_counts
from .discretize import (_bin_codes_kernel, _candidate_kernel, _mdl_boundaries_kernel, class_counts_by_value,
                         midpoints, xlogx_table)

CUT_POINT_COUNTS = ("boundaries", "instances", "instances_plus_boundaries")
RNGS = ("numpy", "authors")
AUTHORS_SEED = 1990093  # the reference code's first member seed (MDL_R/TwoFoldCV.java, ``randomSeed``)
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
def _subset_weights(counts, lo, hi, cut_count, xlogx):
    """Alg. 2 lines 1-14 for the subset of distinct values ``lo..hi-1``: its candidate
    boundaries, their weights ``IG - threshold`` where IG passes MDL (else 0) and their raw
    IG. Empty arrays when the subset has no candidate or fewer than 2 instances."""
    m = hi - lo - 1  # candidate boundaries of the subset (Alg. 2 input P)
    if m < 1:
        return np.empty(0, np.int64), np.empty(0), np.empty(0)
    n = 0
    for j in range(lo, hi):
        for c in range(counts.shape[1]):
            n += counts[j, c]
    if n < 2:
        return np.empty(0, np.int64), np.empty(0), np.empty(0)
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
    return boundary, excess, gain


@njit(cache=True)
def _positive_part(gain):
    """The raw information gains with non-positive values set to 0 (Alg. 2 line 18)."""
    raw = np.zeros(gain.shape[0])
    for i in range(gain.shape[0]):
        if gain[i] > 0.0:
            raw[i] = gain[i]
    return raw


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
        boundary, excess, gain = _subset_weights(counts, lo, hi, cut_count, xlogx)
        if boundary.shape[0] == 0:
            continue
        u = rng.random()
        pick = _draw_index(excess, u)
        if pick < 0:
            # Alg. 2 line 16: no cut passes MDL -> on the first call, sample one by raw IG
            if first and force_first:
                pick = _draw_index(_positive_part(gain), u)
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


@njit(cache=True)
def _draw_index_normalised(weights, p):
    """The reference code's multinomial draw (``SUtils.normalize`` then
    ``SUtils.cumulativeProbability``): the weights divided by their sum, then the first index
    with a non-zero weight whose running sum of the normalised weights reaches ``p``. -1 when
    the sum is not positive. Where rounding leaves ``p`` above the last running sum (the Java
    code then fails with an index error) the last non-zero weight is returned."""
    total = 0.0
    for i in range(weights.shape[0]):
        total += weights[i]
    if not total > 0.0:
        return -1
    cum = 0.0
    last = -1
    for i in range(weights.shape[0]):
        w = weights[i] / total
        cum += w
        if w != 0.0:
            if p <= cum:
                return i
            last = i
    return last


@njit(cache=True, error_model="numpy")
def _random_mdl_kernel_authors(counts, xlogx, cut_count, force_first, seed):
    """Algorithm 2 drawing as the reference code's ``MDLR.cutPointsForSubset`` does
    (module docstring): a subset whose weights are not all 0 draws
    ``p = new Random(seed).nextDouble()`` and then increments ``seed``; the first-call draw by
    raw IG uses ``new Random(seed).nextDouble()`` without incrementing it. Same visiting order
    as :func:`_random_mdl_kernel`. Returns ``(sorted boundaries, the seed after the last draw)``."""
    n_values = counts.shape[0]
    stack = np.empty((n_values + 2, 3), np.int64)
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
        boundary, excess, gain = _subset_weights(counts, lo, hi, cut_count, xlogx)
        if boundary.shape[0] == 0:
            continue
        any_excess = False
        for i in range(excess.shape[0]):
            if excess[i] != 0.0:
                any_excess = True
                break
        if not any_excess:
            if first and force_first:
                pick = _draw_index_normalised(_positive_part(gain), first_double(seed))  # no seed++
                if pick >= 0:
                    chosen[n_chosen] = boundary[pick]
                    n_chosen += 1
            continue
        pick = _draw_index_normalised(excess, first_double(seed))
        seed += 1
        j = boundary[pick]
        chosen[n_chosen] = j
        n_chosen += 1
        stack[top, 0] = j + 1
        stack[top, 1] = hi
        stack[top, 2] = 0
        stack[top + 1, 0] = lo
        stack[top + 1, 1] = j + 1
        stack[top + 1, 2] = 0
        top += 2
    return np.sort(chosen[:n_chosen]), seed


def random_mdl_boundaries(counts, rng: np.random.Generator, cut_point_count: str = "boundaries",
                          force_first: bool = True, xlogx: np.ndarray | None = None) -> np.ndarray:
    """Randomised MDL discretisation of one attribute (Zhang et al. 2020 Algorithm 2).

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


def random_mdl_boundaries_authors(counts, seed: int, cut_point_count: str = "boundaries",
                                  force_first: bool = True, xlogx: np.ndarray | None = None) -> tuple:
    """Algorithm 2 with the reference code's draws (``MDLR.cutPointsForSubset``, module docstring).

    Same candidates, weights and visiting order as :func:`random_mdl_boundaries`; each draw is
    ``new java.util.Random(seed).nextDouble()`` followed by ``seed++`` (the first-call draw by
    raw IG does not increment ``seed``), and the drawn index follows the reference code's
    normalise-then-cumulate arithmetic.

    Returns
    -------
    (boundaries, next_seed) : the sorted boundaries and the seed the next attribute starts from.
    """
    if cut_point_count not in _CUT_COUNT_CODE:
        raise ValueError(f"cut_point_count must be one of {CUT_POINT_COUNTS}; got {cut_point_count!r}")
    seed = _java_long(seed, "seed")
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    if counts.ndim != 2:
        raise ValueError(f"counts must be a (values x classes) matrix; got shape {counts.shape}")
    n_total = int(counts.sum())
    if xlogx is None or xlogx.shape[0] <= n_total:
        xlogx = xlogx_table(max(n_total, 1))
    cuts, next_seed = _random_mdl_kernel_authors(counts, xlogx, _CUT_COUNT_CODE[cut_point_count], bool(force_first),
                                                 np.int64(seed))
    return cuts, int(next_seed)


def _java_long(value, what: str) -> int:
    """``value`` as an int in Java's ``long`` range (ValueError naming ``what`` otherwise)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{what} must be an integer (a Java long); got {value!r}")
    value = int(value)
    if not -(2 ** 63) <= value < 2 ** 63:
        raise ValueError(f"{what} must fit a Java long (64-bit signed); got {value}")
    return value


def _wrap_long(value: int) -> int:
    """Java ``long`` overflow: ``value`` modulo 2**64 in two's complement."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= (1 << 63) else value


# ====================================================================== Algorithm 3
def sample_attribute_order(mi, rng: np.random.Generator, zero_mi: str = "append") -> np.ndarray:
    """Attribute order drawn by Zhang et al. 2020 Algorithm 3.

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


@njit(cache=True)
def _authors_order_kernel(w, state):
    """The reference code's ``sampleReNormalizing`` (module docstring) on non-negative weights
    ``w`` (changed in place) with a ``java.util.Random`` state: normalise, draw ``nextDouble()``,
    take the first non-zero index whose running sum reaches it, zero it; stop when the rest sums
    to 0. Returns the drawn indices."""
    n = w.shape[0]
    order = np.empty(n, np.int64)
    k = 0
    total = 0.0
    for j in range(n):
        total += w[j]
    while total > 0.0 and k < n:
        for j in range(n):                          # Utils.normalize
            w[j] /= total
        p, state = next_double_state(state)         # generator.nextDouble()
        idx = _draw_index_normalised(w, p)          # cumulativeProbability (w sums to 1 already)
        order[k] = idx
        k += 1
        w[idx] = 0.0
        total = 0.0
        for j in range(n):                          # Utils.sum(tempCMI) == 0 -> break
            total += w[j]
    return order[:k]


def sample_attribute_order_authors(mi, seed: int, zero_mi: str = "append",
                                   rng: np.random.Generator | None = None) -> np.ndarray:
    """Attribute order drawn as the reference code's ``BNStructure_MDLR.learnStructureSKDB_R``
    does (module docstring): one ``new java.util.Random(seed)``, one ``nextDouble()`` per drawn
    attribute, the remaining MI renormalised before every draw.

    Non-positive MI values count as 0 (as in :func:`sample_attribute_order`). Once only
    zero-MI attributes remain they are dropped (``zero_mi="drop"``, the reference code) or
    appended in a uniformly random order drawn from ``rng`` (``"append"``; ``rng`` is then
    required when such attributes exist). When every MI is 0 the reference code fails
    (Weka's ``Utils.normalize`` of a zero sum); here no attribute is drawn and the zero-MI
    rule applies to all of them.
    """
    if zero_mi not in ("append", "drop"):
        raise ValueError(f"zero_mi must be 'append' or 'drop'; got {zero_mi!r}")
    seed = _java_long(seed, "seed")
    w = np.asarray(mi, dtype=np.float64).copy()
    if w.ndim != 1 or not np.all(np.isfinite(w)) or (w < 0).any():
        raise ValueError("mi must be a 1-d array of finite non-negative values")
    w[w <= 0] = 0.0
    order = _authors_order_kernel(np.ascontiguousarray(w), scramble(np.int64(seed)))
    rest = np.setdiff1d(np.arange(w.size), order)
    if zero_mi == "append" and rest.size:
        if rng is None:
            raise ValueError("zero_mi='append' needs rng to order the zero-MI attributes")
        order = np.concatenate([order, rng.permutation(rest)])
    return np.asarray(order, dtype=np.int64)


# ====================================================================== the ensemble (Algorithm 1)
ESTIMATIONS = ("m_estimate", "hdp")


def _bin_codes(X: np.ndarray, numeric: np.ndarray, cut_points: list) -> np.ndarray:
    """``X`` with every numeric column replaced by its bin code (Weka's rule: the number of
    cut points strictly below the value); NaN stays NaN, nominal columns are unchanged."""
    out = X.copy()
    if numeric.size:
        offsets = np.zeros(numeric.size + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([c.size for c in cut_points])
        flat = np.concatenate(cut_points).astype(np.float64) if offsets[-1] else np.empty(0)
        _bin_codes_kernel(X, numeric.astype(np.int64), flat, offsets, out)
    return out


def _member_codes(Xd: np.ndarray, n_values: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """Int codes of discretised data: a missing value is code ``n_values[j]`` (its own value)
    in a column with a missing-value slot, else code 0 (the ESKDB code's ``(int)`` of a
    missing value; only possible for test rows)."""
    codes = encode(Xd, n_values, "skip", what="X (discretised)")
    miss = codes < 0
    if miss.any():
        fill = np.where(slot > 0, n_values, 0).astype(codes.dtype)
        codes = np.asfortranarray(np.where(miss, fill[None, :], codes))
    return codes


class _Member:
    """One fitted member: cut points of the numeric columns, attribute order, fitted SKDB."""

    __slots__ = ("cut_points", "order", "model")

    def __init__(self, cut_points, order, model):
        self.cut_points = cut_points
        self.order = order
        self.model = model


def _member_cut_points(spec: dict, rng: np.random.Generator, java_seed: int) -> list:
    """Alg. 1 line 3: the member's cut points (Alg. 2 per numeric column, or the shared fixed ones).
    With the reference code's draws (``cut_point_rng="authors"``) the columns are visited from
    the last to the first, the Java seed carried from one column to the next, as in
    ``MDLR.calculateCutPoints``."""
    if spec["fixed_cut_points"] is not None:
        return spec["fixed_cut_points"]
    xlogx = spec["xlogx"]
    if spec["cut_point_rng"] == "authors":
        out = [None] * len(spec["value_counts"])
        seed = java_seed
        for i in range(len(out) - 1, -1, -1):
            values, counts = spec["value_counts"][i]
            cuts, seed = _random_mdl_kernel_authors(counts, xlogx, _CUT_COUNT_CODE[spec["cut_point_count"]], True,
                                                    np.int64(seed))
            out[i] = midpoints(values, cuts)
        return out
    return [midpoints(values, random_mdl_boundaries(counts, rng, spec["cut_point_count"], True, xlogx))
            for values, counts in spec["value_counts"]]


def _fit_member(X: np.ndarray, y_codes: np.ndarray, spec: dict, seed: int, java_seed: int) -> _Member:
    """Alg. 1 lines 3-8 for one member, every draw from ``default_rng(seed)``: the cut points
    (Alg. 2), then the order (Alg. 3), then the HDP sampler's seed. With the reference code's
    draws, the cut points and / or the order come from ``java.util.Random`` seeded with
    ``java_seed`` instead (module docstring)."""
    from .bnc import pairwise_information

    rng = np.random.default_rng(seed)
    numeric = spec["numeric"]
    cut_points = _member_cut_points(spec, rng, java_seed)                    # line 3
    Xd = _bin_codes(X, numeric, cut_points)                                   # line 4
    n_values = spec["nominal_values"].copy()
    n_values[numeric] = [c.size + 1 for c in cut_points]
    slot = spec["missing_slot"]
    codes = _member_codes(Xd, n_values, slot)                                 # missing = a value (Sect. 4.1)
    width = n_values + slot
    n_classes = spec["n_classes"]
    # pass 1 of SKDB (MI, CMI), shared with the order sampling
    info = pairwise_information(codes, y_codes, width, n_classes, spec["max_table_bytes"])
    order = None
    if spec["random_order"]:                                                  # line 5
        if spec["order_rng"] == "authors":
            order = sample_attribute_order_authors(info.mi, java_seed, spec["zero_mi"], rng)
        else:
            order = sample_attribute_order(info.mi, rng, spec["zero_mi"])
    model = spec["make_skdb"](int(rng.integers(0, 2 ** 63 - 1)))
    model.fit_encoded(codes, y_codes, width, classes=np.arange(n_classes), order=order,   # lines 6-7
                      information=info)
    return _Member(cut_points, order, model)


class ESKDB(PredictFromProbaMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Ensemble of selective KDBs with randomised discretisation and orders (Zhang et al. 2020, Alg. 1).

    See the module docstring for the algorithm, its variants and every choice made where
    the paper is silent.

    Parameters
    ----------
    n_estimators : int, default=10
        Ensemble size E (Table 2; Fig. 6 sweeps 1, 10, 20, 30).
    max_k : int, default=5
        SKDB's maxK (Table 2); each member selects k* <= max_k and n* by leave-one-out CV.
    estimation : {"m_estimate", "hdp"}, default="m_estimate"
        ESKDB_M (M-estimates with back-off, Sect. 4.1) or ESKDB_HDP (Sect. 3.3).
    m : float, default=1.0
        The M of the M-estimate (base rate 1/|X|). Sect. 2.4 and the reference code use
        1; Table 2 prints "M = 1/C" (see :mod:`algorithms.hdp`).
    n_iterations, burn_in : int, default=1000, 100
        HDP Gibbs iterations and burn-in (Table 2).
    tying : {"none", "parent", "level", "single"}, default="level"
    prior : {"gamma", "uniform"}, default="gamma"
        HDP concentration prior (Sect. 3.3: Gamma(2, 1); the uniform prior for Fig. 7).
    random_cut_points : bool, default=True
        Alg. 2 per member; False = Weka's MDL cut points for every member (ESKDB_randomO).
    random_order : bool, default=True
        Alg. 3 per member; False = SKDB's MI order (ESKDB_randomCP).
    cut_point_count : {"boundaries", "instances", "instances_plus_boundaries"}, default="boundaries"
        K in the MDL cost of Alg. 2 (module docstring).
    zero_mi : {"append", "drop"}, default="append"
        Alg. 3's handling of attributes with zero MI (module docstring).
    missing_slot : {"observed", "always"}, default="observed"
        Which columns get a missing-value slot (module docstring): those with a missing
        value in the training data, or every column (this implementation's earlier rule, base rate
        ``1/(|X| + 1)`` on complete data).
    tie_order : {"stable", "weka"}, default="stable"
        Order of equal MI / CMI in each member's SKDB structure (:class:`algorithms.bnc.KDB`);
        ``"weka"`` (the ESKDB code's reversed Weka sort) in the paper's configs.
    loo_rule : {"exact", "authors"}, default="exact"
        Each member's SKDB leave-one-out rule (:class:`algorithms.bnc.SKDB`); ``"authors"``
        (the ESKDB code's ``updateClassDistributionloocv``) in the paper's configs.
    cut_point_rng : {"numpy", "authors"}, default="numpy"
        Generator of Alg. 2's draws: the member's NumPy generator, or the reference code's
        ``new java.util.Random(seed).nextDouble()`` then ``seed++`` per draw (module docstring,
        "The reference code's draws"). Unused when ``random_cut_points=False``.
    order_rng : {"numpy", "authors"}, default="numpy"
        Generator of Alg. 3's draws: the member's NumPy generator, or one
        ``new java.util.Random(java_seed + e)`` per member e, as the reference code. Unused when
        ``random_order=False``.
    java_seed : int, default=1990093
        Java seed of member 0 under ``"authors"`` draws; member e uses ``java_seed + e`` (Java
        ``long`` arithmetic). 1990093 is the reference code's first value; its 5x2 CV driver keeps
        counting over the folds, so training fold f (0..9) starts at ``1990093 + f * n_estimators``.
        ``random_state`` does not move these draws.
    java_fold_seeds : bool, default=False
        Follow the reference driver's count over the folds: member e of split f uses
        ``java_seed + f * n_estimators + e``, f = ``split_index``. False: every split starts at
        ``java_seed``. Unused without ``"authors"`` draws.
    split_index : int or None, default=None
        The split's position in the protocol's run order (injected by the runner); None = 0.
    n_jobs : int, default=1
        Members fitted in parallel by joblib (results do not depend on it).
    random_state : int, numpy Generator or None
        Seeds the members (module docstring); the runner injects the run's seed.
    categorical_features : bool array of shape (n_features,) or None
        Nominal columns (injected by the runner); None = every column numeric.
    n_categories : int array of shape (n_features,) or None
        Declared values per nominal column (injected); otherwise max code + 1.
    max_table_bytes : int or "auto"
        Memory guard for each member's pair tables (SKDB's pass 1).

    Attributes
    ----------
    classes_ : array of class labels
    members_ : list of fitted members (``cut_points``, ``order``, ``model`` = the SKDB)
    nominal_ : bool array, the nominal columns
    diagnostics_ : dict
        Per member: chosen k*, n* and bins per numeric column; ``distinct_cut_sets``: distinct cut-point
        sets among the members per numeric attribute, averaged (stored by the runner).
    """

    def __init__(self, *, n_estimators=10, max_k=5, estimation="m_estimate", m=1.0, n_iterations=1000, burn_in=100,
                 tying="level", prior="gamma", random_cut_points=True, random_order=True,
                 cut_point_count="boundaries", zero_mi="append", missing_slot="observed", tie_order="stable",
                 loo_rule="exact", cut_point_rng="numpy", order_rng="numpy", java_seed=AUTHORS_SEED,
                 java_fold_seeds=False, split_index=None, n_jobs=1,
                 random_state=None, categorical_features=None, n_categories=None, max_table_bytes="auto"):
        self.missing_slot = missing_slot
        self.tie_order = tie_order
        self.loo_rule = loo_rule
        self.cut_point_rng = cut_point_rng
        self.order_rng = order_rng
        self.java_seed = java_seed
        self.java_fold_seeds = java_fold_seeds
        self.split_index = split_index
        self.n_estimators = n_estimators
        self.max_k = max_k
        self.estimation = estimation
        self.m = m
        self.n_iterations = n_iterations
        self.burn_in = burn_in
        self.tying = tying
        self.prior = prior
        self.random_cut_points = random_cut_points
        self.random_order = random_order
        self.cut_point_count = cut_point_count
        self.zero_mi = zero_mi
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.max_table_bytes = max_table_bytes

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_k": [Interval(Integral, 0, None, closed="left")],
        "estimation": [StrOptions(set(ESTIMATIONS))],
        "m": [Interval(Real, 0, None, closed="neither")],
        "n_iterations": [Interval(Integral, 1, None, closed="left")],
        "burn_in": [Interval(Integral, 0, None, closed="left")],  # < n_iterations (_check_params)
        "tying": [StrOptions(set(TYINGS))],
        "prior": [StrOptions(set(PRIORS))],
        "random_cut_points": ["boolean"],
        "random_order": ["boolean"],
        "cut_point_count": [StrOptions(set(CUT_POINT_COUNTS))],
        "zero_mi": [StrOptions({"append", "drop"})],
        "missing_slot": [StrOptions({"observed", "always"})],
        "tie_order": [StrOptions({"stable", "weka"})],
        "loo_rule": [StrOptions({"exact", "authors"})],
        "cut_point_rng": [StrOptions(set(RNGS))],
        "order_rng": [StrOptions(set(RNGS))],
        "java_seed": [Interval(Integral, -(2 ** 63), 2 ** 63 - 1, closed="both")],
        "java_fold_seeds": ["boolean"],
        "split_index": [Interval(Integral, 0, None, closed="left"), None],
        "n_jobs": [Integral, None],
        "random_state": RANDOM_STATE_CONSTRAINT,
        **NOMINAL_COLUMNS_CONSTRAINTS,
        "max_table_bytes": MAX_TABLE_BYTES_CONSTRAINT,
    }

    # ------------------------------------------------------------------ checks
    def _check_params(self):
        """The declared constraints, then the HDP sampler's own rules (``burn_in < n_iterations``)."""
        self._validate_params()
        if self.estimation == "hdp":
            HDPSettings(n_iterations=self.n_iterations, burn_in=self.burn_in, tying=self.tying, prior=self.prior)

    # ------------------------------------------------------------------ SKDB members
    def _skdb_factory(self):
        """A function building one member's SKDB from the seed of its HDP sampler (Zhang et al. 2020
        Alg. 1 line 6: SKDB on the member's discretised data and sampled order, line 7: its
        parameters by M-estimation with back-off or HDP)."""
        from .bnc import SKDB

        hdp = None
        if self.estimation == "hdp":
            hdp = {"n_iterations": int(self.n_iterations), "burn_in": int(self.burn_in), "tying": self.tying,
                   "prior": self.prior}
        common = dict(max_k=int(self.max_k), smoothing=self.estimation, m=float(self.m), backoff=True,
                      hdp_settings=hdp, missing="value", tie_order=self.tie_order, loo_rule=self.loo_rule,
                      max_table_bytes=self.max_table_bytes)

        def make(random_state):
            return SKDB(random_state=random_state, **common)

        return make

    # ------------------------------------------------------------------ training
    def fit(self, X, y):
        """Algorithm 1: learn ``n_estimators`` members, each on its own discretisation and order."""
        self._check_params()
        X, y_codes = fit_class_codes(self, X, y)
        n_classes = self.classes_.size
        X = np.ascontiguousarray(X)
        d = X.shape[1]
        nominal = nominal_mask(self.categorical_features, d)
        numeric = np.flatnonzero(~nominal)
        self.nominal_ = nominal
        # missing-value slot where the training data have missing values (the same columns for
        # every member: a missing numeric value stays missing after any discretisation)
        self.missing_slot_ = np.ones(d, dtype=bool) if self.missing_slot == "always" else np.isnan(X).any(axis=0)
        spec = {"missing_slot": self.missing_slot_.astype(np.int64), "numeric": numeric, "nominal_values": nominal_value_counts(X, nominal, self.n_categories), "n_classes": n_classes,
                "random_order": bool(self.random_order), "zero_mi": self.zero_mi,
                "cut_point_rng": self.cut_point_rng, "order_rng": self.order_rng,
                "max_table_bytes": self.max_table_bytes,
                "cut_point_count": self.cut_point_count, "make_skdb": self._skdb_factory(),
                "fixed_cut_points": None, "value_counts": None, "xlogx": None}
        # one sort per numeric column, shared by every member (the scans of Alg. 2 read these)
        value_counts = [class_counts_by_value(X[:, j], y_codes, n_classes) for j in numeric]
        xlogx = xlogx_table(max(X.shape[0], 1))
        if self.random_cut_points:
            spec["value_counts"], spec["xlogx"] = value_counts, xlogx
        else:  # ESKDB_randomO: Weka's MDL cut points, the same for every member
            spec["fixed_cut_points"] = [midpoints(v, _mdl_boundaries_kernel(c, xlogx, True))
                                        for v, c in value_counts]
        seeds = np.random.default_rng(self.random_state).integers(0, 2 ** 63 - 1, size=int(self.n_estimators))
        first = int(self.java_seed)
        if self.java_fold_seeds:  # the reference driver's count over the folds (module docstring)
            first += int(self.split_index or 0) * int(self.n_estimators)
        java_seeds = [_wrap_long(first + e) for e in range(int(self.n_estimators))]
        if self.n_jobs in (None, 1) or self.n_estimators == 1:
            members = [_fit_member(X, y_codes, spec, int(s), js) for s, js in zip(seeds, java_seeds)]
        else:
            members = Parallel(n_jobs=self.n_jobs)(delayed(_fit_member)(X, y_codes, spec, int(s), js)
                                                   for s, js in zip(seeds, java_seeds))
        self.members_ = members
        self.diagnostics_ = {
            "k_star": [int(mb.model.k_) for mb in members],
            "n_star": [int(mb.model.n_selected_) for mb in members],
            "mean_bins": [float(np.mean([c.size + 1 for c in mb.cut_points])) if numeric.size else 0.0
                          for mb in members],
            # how random the members' discretisations are (the reference code's java.util.Random
            # draws give nearly the same cut points to every member): per numeric attribute, the number
            # of distinct cut-point sets among the members, averaged over the numeric attributes
            "distinct_cut_sets": float(np.mean([len({mb.cut_points[a].tobytes() for mb in members})
                                                for a in range(len(members[0].cut_points))]))
            if numeric.size and members and len(members[0].cut_points) else 0.0,
        }
        return self

    # ------------------------------------------------------------------ prediction
    def predict_proba(self, X):
        """Mean of the members' posteriors P(y | x) (Alg. 1; each member on its own bins)."""
        check_is_fitted(self, "members_")
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        X = np.ascontiguousarray(X)
        numeric = np.flatnonzero(~self.nominal_)
        out = np.zeros((X.shape[0], self.classes_.size))
        slot = self.missing_slot_.astype(np.int64)
        for mb in self.members_:
            Xd = _bin_codes(X, numeric, mb.cut_points)
            codes = _member_codes(Xd, mb.model.n_values_ - slot, slot)
            out += mb.model.predict_proba_encoded(codes)
        out /= len(self.members_)
        return out

