"""Averaged n-Dependence Estimators (AnDE, n = 0..3) with subsumption resolution
and MI weighting, after Zaidi and Webb, "Fast and Effective Single Pass Bayesian
Learning" (Zaidi and Webb 2013), on the count engine of :mod:`algorithms._counts`.

One estimator, :class:`AnDE`, covers the paper's NB (n=0), A1DE, A1DE-S, A1DE-W,
A1DE-SW, A2DE, A2DE-S, A2DE-W, A2DE-SW, and A3DE (Aryal and Ting 2013's contender), and with
matched settings reproduces Weka 3.6's AODE (Laplace, ``-F 1``), AODE ``-M``
(m-estimate), AODEsr (``sr_threshold=50``) and WAODE (``min_parent_count=0``,
``mi_min_prob=1e-6``, ``missing="error"``).

Training is one pass counting ``#(y, x_s, x_c)`` for every n-set ``s`` of parents
and child ``c`` (tables of all attribute subsets of size <= n+1). Prediction is
Numba kernels over the test rows (no Python loop over rows):

* Eq. 1: ``P(y, x) = sum_s delta(x_s) w_s P(y, x_s) prod_{i not in s} P(x_i | y, x_s)
  / sum_s delta(x_s)``; ``delta(x_s) = 1`` when ``x_s`` occurs at least
  ``min_parent_count`` times in training (the paper's "training data contains an
  object with the value x_s" is ``min_parent_count=1``, Weka's ``-F 1``); when no
  parent set of the instance qualifies, A(n-1)DE on the same instance, down to NB.
* "P(x_i | y, x_s) = 1 when i in s ... these values are not included": children
  run over the attributes not in ``s``.
* Estimates: m-estimation (the paper: m = 1) or Laplace (Weka's default):
  ``P(y, x_s) = (#(y, x_s) + a) / (N_s + b)`` with ``K = C * prod_{j in s} k_j``
  outcomes, ``P(x_i | y, x_s) = (#(y, x_s, x_i) + a) / (#(y, x_s, i observed) + b)``
  with ``K = k_i``; Laplace ``a = 1, b = K``; m-estimate ``a = m / K, b = m``.
  ``N_s`` counts the training rows with ``x_s`` observed (Weka's
  ``m_SumInstances - missing4ParentAtt``).
* Subsumption resolution (section 2): ``x_i`` is dropped when some other value
  ``x_j`` of the instance has ``#(x_j) = #(x_i, x_j) > sr_threshold`` (then
  ``P(x_i | x_j) = 1``: x_j is the specialisation, e.g. pregnant, x_i the
  generalisation, e.g. female) and ``#(x_i) > #(x_j)`` or, for a tie, ``j < i``
  ("we delete the one with the higher index"). The paper's displayed formula
  reads ``#(x_i) = #(x_i, x_j)``, which would drop the specialisation and
  contradicts its own text and Weka's AODEsr; the code follows the text and
  AODEsr. Counts are over the whole training data (class summed). The paper uses
  100, AODEsr 50.
* MI weighting (Eq. 2): ``w_s = MI(X_s; Y)`` (base 2, as WAODE) from the
  unsmoothed counts of the rows where ``x_s`` is observed (with ``mi_min_prob > 0``
  in WAODE's own operation order). Weka 3.6 WAODE drops a cell whose ``p(x, y)`` or ``p(x) p(y)`` is below 1e-6
  (its ``log2`` helper returns 0 there; ``mi_min_prob=1e-6``); Zaidi and Webb 2013's Eq. 2 and
  the authors' Petal code keep every non-empty cell (``mi_min_prob=0``, the
  ``-W`` configs). The two differ only when such rare cells exist. Weka's rule can
  drop a rare class's positive cells and keep its negative ones, making a "MI"
  negative; WAODE then mixes with that negative weight and can return values
  outside [0, 1]. This implementation floors every weight at 1e-100 (that sub-model drops out),
  so it equals Weka only while Weka's weights are positive. If every qualifying
  parent set of an instance has weight 0, the weights are floored at 1e-100,
  so the instance gets the unweighted average (Weka's WAODE returns NaN there).
* Arithmetic: each sub-model's product runs in linear space in Weka's order
  (joint first, then children by attribute index) with exponent tracking (a
  class's product is rescaled by 1e150 whenever it is below 1e-150, checked every
  8 factors), and sub-models are summed in linear space unless rescaled (then in
  log space), so any number of attributes is safe from underflow;
  ``predict_log_joint`` returns ``log P(y, x)`` (up to a class-independent
  constant). Children share the reciprocal of ``#(y, x_s) + b``, so a factor costs
  one multiplication (results differ from Weka's divisions by rounding only).
* Prediction loops over parent sets outermost and test rows inside, so the count
  blocks of one parent set and its children stay in cache across rows; rows where
  no parent set qualifies go on to the next lower level. For the A1DE level, ``fit``
  also precomputes Weka's layout, ``P(x_c | y, x_p)`` for every parent value x child
  value x class (when it takes at most ``A1DE_TABLE_BYTES``), so one parent's
  children are one contiguous row; these factors are computed with Weka's own
  division, so A1DE matches Weka's products bit for bit.

Nominal attributes only: numeric columns must be discretised first (the configs
use the MDL discretiser as a preprocessing step); a numeric column gives an
error saying so. Missing values: ``missing="skip"`` (default, Weka's AODE and
the AnDE papers) leaves them out of every count and, at test time, leaves the
attribute out as parent and child; ``missing="value"`` treats missing as one
more value.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._base import (NOMINAL_COLUMNS_CONSTRAINTS, AllowNanTagsMixin, NotApplicableError, PredictFromLogJointMixin,
                    ProbaFromLogJointMixin, first_batch_classes)
from ._counts import (BLOCK_ROWS, MAX_TABLE_BYTES_CONSTRAINT, AllSubsetCounts, Smoothing, class_codes, encode,
                      encode_classes, grow_all_subsets, grown_values, validation_dtype, value_maps)
from ._nominal import declared_values

TINY = 1e-150
BIG = 1e150
LOG_BIG = math.log(BIG)
WEIGHT_FLOOR = 1e-100
#: largest A1DE conditional table (parent value x child value x class, float64) precomputed for prediction
A1DE_TABLE_BYTES = 256 << 20


# --------------------------------------------------------------------------- kernels
@njit(cache=True, inline="always")
def _smooth(laplace, m, n_outcomes):
    if laplace:
        return 1.0, float(n_outcomes)
    return m / n_outcomes, m


@njit(cache=True)
def _kept_attributes(codes, use_sr, n_values, n_classes, set_start, set_offsets, binom, free_counts, threshold,
                     kept, n_kept):
    """``kept[r, i]``: x_i observed and, with subsumption resolution, not subsumed (section 2).

    x_i is dropped when some x_j of the row has ``#(x_j) = #(x_i, x_j) > threshold`` and
    ``#(x_i) > #(x_j)`` or, on a tie, ``j < i`` (class-summed training counts)."""
    n, d = codes.shape
    C = n_classes
    o1 = set_start[1]
    for r in range(n):
        k = 0
        for i in range(d):
            vi = codes[r, i]
            keep = vi >= 0
            if keep and use_sr:
                fi = free_counts[(set_offsets[o1 + i] + vi * C) // C]
                for j in range(d):
                    vj = codes[r, j]
                    if j == i or vj < 0:
                        continue
                    fj = free_counts[(set_offsets[o1 + j] + vj * C) // C]
                    if fj <= threshold:
                        continue
                    if i < j:
                        cell = set_offsets[set_start[2] + binom[i, 1] + binom[j, 2]] + (vi * n_values[j] + vj) * C
                    else:
                        cell = set_offsets[set_start[2] + binom[j, 1] + binom[i, 2]] + (vj * n_values[i] + vi) * C
                    if free_counts[cell // C] == fj and (fi > fj or j < i):
                        keep = False
                        break
            kept[r, i] = keep
            if keep:
                k += 1
        n_kept[r] = k


@njit(cache=True)
def _nb_log_joint(codes, rows, kept, n_classes, counts, set_start, set_offsets, class_counts, n_rows,
                  order1_class_totals, laplace, m, child_a, child_b, out):
    """Eq. 1 with n = 0 (naive Bayes) for ``rows``: ``log P(y) + sum_i log P(x_i | y)``."""
    d = codes.shape[1]
    C = n_classes
    p = np.empty(C)
    expo = np.zeros(C, dtype=np.int64)
    a0, b0 = _smooth(laplace, m, C)
    for rr in range(rows.shape[0]):
        r = rows[rr]
        for y in range(C):
            p[y] = (class_counts[y] + a0) / (n_rows + b0)
            expo[y] = 0
        n_done = 0
        for c in range(d):
            if not kept[r, c]:
                continue
            cell = set_offsets[set_start[1] + c] + codes[r, c] * C
            for y in range(C):
                p[y] *= (counts[cell + y] + child_a[c]) / (order1_class_totals[c, y] + child_b[c])
            n_done += 1
            if n_done % 8 == 0:
                _rescale(p, expo)
        _rescale(p, expo)
        for y in range(C):
            out[r, y] = math.log(p[y]) + expo[y] * LOG_BIG


@njit(cache=True, inline="always")
def _rescale(p, expo):
    for y in range(p.shape[0]):
        while p[y] < TINY and p[y] > 0.0:
            p[y] *= BIG
            expo[y] -= 1


@njit(cache=True, inline="always")
def _add_member(p, expo, w, r, lin, lg, wsum, used):
    """Add one parent set's joint ``w * p * BIG**expo`` (rescaled first) to row ``r``'s sum over the
    parent sets: in ``lin`` while no factor of it underflowed, else log-added into ``lg``."""
    _rescale(p, expo)
    used[r] += 1
    wsum[r] += w
    for y in range(p.shape[0]):
        if expo[y] == 0:
            lin[r, y] += w * p[y]
        else:
            t = math.log(w * p[y]) + expo[y] * LOG_BIG
            hi = max(lg[r, y], t)
            lg[r, y] = hi + math.log(math.exp(lg[r, y] - hi) + math.exp(t - hi))


@njit(cache=True)
def _ande_level(codes, rows, kept, L, n_values, n_classes, missing_counts, counts, set_start, set_offsets, binom,
                set_totals, free_counts, weights, laplace, m, child_a, child_b, child_group, group_b, min_count,
                lin, lg, wsum, used):
    """One level of Eq. 1: for every L-set s of parents (outer loop, so the tables of s and its
    children stay in cache across rows) and every row in ``rows`` whose parents are all kept and
    ``#(x_s) >= min_count`` (delta), add ``w_s P(y, x_s) prod_c P(x_c | y, x_s)`` to the row's
    accumulators: ``lin`` (linear sums of unscaled products), ``lg`` (log sums of rescaled ones),
    ``wsum`` (sum of weights) and ``used`` (number of parent sets).

    The cell of s + {c} is found without sorting: with ``pos`` = number of parents below c, the
    colex rank is ``base_rank[pos] + C(c, pos + 1)`` and the cell is
    ``((low[pos] * k_c + x_c) * above[pos] + high[pos]) * C`` (mixed-radix codes of the parents
    below and above c). Children share denominators ``#(y, x_s) + b``: ``b`` takes one value per
    ``group_b`` entry (one for the m-estimate, one per distinct k for Laplace), so the reciprocals
    are computed once per parent set and row and each child costs a multiplication.
    """
    d = codes.shape[1]
    G = group_b.shape[0]
    inv = np.empty((G, n_classes))
    C = n_classes
    attrs = np.empty(max(L, 1), dtype=np.int64)
    vals = np.empty(max(L, 1), dtype=np.int64)
    base_rank = np.empty(L + 1, dtype=np.int64)
    above = np.empty(L + 1, dtype=np.int64)
    low = np.empty(L + 1, dtype=np.int64)
    high = np.empty(L + 1, dtype=np.int64)
    p = np.empty(C)
    expo = np.zeros(C, dtype=np.int64)
    parent_counts = np.empty(C)
    child_sets = set_start[L + 1]
    for q in range(L):
        attrs[q] = q
    while True:
        # constants of the parent set s = attrs
        rank = 0
        K = C
        for u in range(L):
            rank += binom[attrs[u], u + 1]
            K *= n_values[attrs[u]]
        sidx = set_start[L] + rank
        aj, bj = _smooth(laplace, m, K)
        w = weights[sidx]
        if w < WEIGHT_FLOOR:
            w = WEIGHT_FLOOR
        total = set_totals[sidx]
        for pos in range(L + 1):
            br = 0
            ab = 1
            for u in range(pos):
                br += binom[attrs[u], u + 1]
            for u in range(pos, L):
                br += binom[attrs[u], u + 2]
                ab *= n_values[attrs[u]]
            base_rank[pos] = br
            above[pos] = ab
        for rr in range(rows.shape[0]):
            r = rows[rr]
            ok = True
            for u in range(L):
                if not kept[r, attrs[u]]:
                    ok = False
                    break
            if not ok:
                continue
            idx = 0
            for u in range(L):
                vals[u] = codes[r, attrs[u]]
                idx = idx * n_values[attrs[u]] + vals[u]
            pcell = set_offsets[sidx] + idx * C
            if free_counts[pcell // C] < min_count:  # delta(x_s) = 0
                continue
            for pos in range(L + 1):
                lo = 0
                for u in range(pos):
                    lo = lo * n_values[attrs[u]] + vals[u]
                hv = 0
                for u in range(pos, L):
                    hv = hv * n_values[attrs[u]] + vals[u]
                low[pos] = lo
                high[pos] = hv
            for y in range(C):
                parent_counts[y] = counts[pcell + y]
                p[y] = (parent_counts[y] + aj) / (total + bj)
                expo[y] = 0
            for g in range(G):
                for y in range(C):
                    inv[g, y] = 1.0 / (parent_counts[y] + group_b[g])
            # children: kept attributes not in s, in attribute order
            nxt = 0
            n_done = 0
            for c in range(d):
                if nxt < L and attrs[nxt] == c:
                    nxt += 1
                    continue
                if not kept[r, c]:
                    continue
                kc = n_values[c]
                xc = codes[r, c]
                ccell = set_offsets[child_sets + base_rank[nxt] + binom[c, nxt + 1]] + \
                    ((low[nxt] * kc + xc) * above[nxt] + high[nxt]) * C
                ac = child_a[c]
                bc = child_b[c]
                if missing_counts[c] == 0:
                    g = child_group[c]
                    for y in range(C):
                        p[y] *= (counts[ccell + y] + ac) * inv[g, y]
                else:
                    # denominator: #(y, x_s, child observed) = sum over the child's values
                    stride = above[nxt] * C
                    base = ccell - xc * stride
                    for y in range(C):
                        den = 0.0
                        for v in range(kc):
                            den += counts[base + v * stride + y]
                        p[y] *= (counts[ccell + y] + ac) / (den + bc)
                n_done += 1
                if n_done % 8 == 0:
                    _rescale(p, expo)
            _add_member(p, expo, w, r, lin, lg, wsum, used)
        # next parent set (lexicographic)
        q = L - 1
        while q >= 0 and attrs[q] == d - L + q:
            q -= 1
        if q < 0:
            break
        attrs[q] += 1
        for u in range(q + 1, L):
            attrs[u] = attrs[u - 1] + 1


@njit(cache=True)
def _a1de_tables(n_values, n_classes, missing_counts, counts, set_start, set_offsets, set_totals, laplace, m,
                 child_a, child_b, value_offset, Q, J):
    """Weka-style tables for the A1DE level: ``J[pv, y] = P(y, x_p)`` and
    ``Q[pv, cv, y] = P(x_c | y, x_p)`` for every parent value ``pv`` and child value ``cv``
    (values numbered attribute by attribute), so that one parent's children are one
    contiguous, cache-resident row during prediction."""
    d = n_values.shape[0]
    C = n_classes
    V = Q.shape[1]
    den = np.empty(C)
    for p in range(d):
        kp = n_values[p]
        K = C * kp
        aj, bj = _smooth(laplace, m, K)
        tot = set_totals[set_start[1] + p]
        for xp in range(kp):
            cell = set_offsets[set_start[1] + p] + xp * C
            for y in range(C):
                J[value_offset[p] + xp, y] = (counts[cell + y] + aj) / (tot + bj)
    for s in range(set_start[2], set_start[3]):
        # the pair block of (i < j): cells ((x_i * k_j) + x_j) * C + y
        base = set_offsets[s]
        i = -1
        j = -1
        # recover (i, j) from the colex rank: j is the largest with C(j, 2) <= rank
        rank = s - set_start[2]
        j = 1
        while (j + 1) * j // 2 <= rank:
            j += 1
        i = rank - j * (j - 1) // 2
        ki = n_values[i]
        kj = n_values[j]
        for orient in range(2):
            # parent p, child c
            if orient == 0:
                p, c, kp, kc = i, j, ki, kj
            else:
                p, c, kp, kc = j, i, kj, ki
            ac = child_a[c]
            bc = child_b[c]
            for xp in range(kp):
                for y in range(C):
                    den[y] = 0.0
                for xc in range(kc):
                    if orient == 0:
                        cell = base + (xp * kj + xc) * C
                    else:
                        cell = base + (xc * kj + xp) * C
                    for y in range(C):
                        den[y] += counts[cell + y]
                # #(y, x_p, child observed): the sum over the child's values (exact with missing values)
                for xc in range(kc):
                    if orient == 0:
                        cell = base + (xp * kj + xc) * C
                    else:
                        cell = base + (xc * kj + xp) * C
                    row_ = value_offset[p] + xp
                    col_ = value_offset[c] + xc
                    for y in range(C):
                        Q[row_, col_, y] = (counts[cell + y] + ac) / (den[y] + bc)


@njit(cache=True)
def _a1de_level(codes, rows, kept, value_offset, Q, J, value_freq, weights, min_count, lin, lg, wsum, used):
    """The A1DE level of Eq. 1 from the tables of :func:`_a1de_tables`: parents outermost, then
    rows; ``P(y, x_p) prod_c P(x_c | y, x_p)`` multiplied in Weka's order (children by index)."""
    d = codes.shape[1]
    C = J.shape[1]
    p_ = np.empty(C)
    expo = np.zeros(C, dtype=np.int64)
    for par in range(d):
        w = weights[par]
        if w < WEIGHT_FLOOR:
            w = WEIGHT_FLOOR
        for rr in range(rows.shape[0]):
            r = rows[rr]
            if not kept[r, par]:
                continue
            pv = value_offset[par] + codes[r, par]
            if value_freq[pv] < min_count:  # delta(x_p) = 0
                continue
            for y in range(C):
                p_[y] = J[pv, y]
                expo[y] = 0
            n_done = 0
            for c in range(d):
                if c == par or not kept[r, c]:
                    continue
                cv = value_offset[c] + codes[r, c]
                for y in range(C):
                    p_[y] *= Q[pv, cv, y]
                n_done += 1
                if n_done % 8 == 0:
                    _rescale(p_, expo)
            _add_member(p_, expo, w, r, lin, lg, wsum, used)


@njit(cache=True)
def _mutual_information(set_offsets, first, last, n_classes, counts, min_prob, out):
    """Eq. 2: MI(X_s; Y) in bits from the unsmoothed counts of each set s in [first, last).

    ``min_prob > 0`` (Weka WAODE's ``log2`` helper, ``Utils.SMALL = 1e-6``), in WAODE's arithmetic:
    ``p(x, y) = #(x, y) / N``, ``p(y) = #(y) / N``, ``p(x) = #(x) / N`` (N = rows with x_s
    observed), a term ``p(x, y) * (log(p(x, y) / (p(y) p(x))) / log 2)`` for every cell with
    ``#(x, y) > 0``, ``p(x, y) >= min_prob`` and ``p(y) p(x) >= min_prob``, summed class by class
    with values inside (Weka's order). ``min_prob = 0``: every non-empty cell (Eq. 2 as printed),
    ``#(x, y) / N * log2(#(x, y) N / (#(x) #(y)))``.
    """
    C = n_classes
    ny = np.empty(C)
    ln2 = math.log(2.0)
    for s in range(first, last):
        lo, hi = set_offsets[s], set_offsets[s + 1]
        nv = (hi - lo) // C
        tx = np.zeros(nv)
        total = 0.0
        for y in range(C):
            ny[y] = 0.0
        for v in range(nv):
            for y in range(C):
                c = counts[lo + v * C + y]
                ny[y] += c
                tx[v] += c
        for y in range(C):
            total += ny[y]
        mi = 0.0
        if total > 0 and min_prob > 0:
            for y in range(C):
                py = ny[y] / total
                for v in range(nv):
                    c = counts[lo + v * C + y]
                    if c > 0:
                        pxy = c / total
                        q = py * (tx[v] / total)
                        if pxy >= min_prob and q >= min_prob:
                            mi += pxy * (math.log(pxy / q) / ln2)
        elif total > 0:
            for v in range(nv):
                for y in range(C):
                    c = counts[lo + v * C + y]
                    if c > 0:
                        mi += c / total * math.log2(c * total / (tx[v] * ny[y]))
        out[s] = mi


# --------------------------------------------------------------------------- estimator

class MissingValuesRefused(NotApplicableError):
    """``missing="error"`` met a missing value, as Weka 3.6 WAODE does ("Cannot handle missing values")."""


class AnDE(PredictFromLogJointMixin, ProbaFromLogJointMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Averaged n-Dependence Estimators with optional subsumption resolution and MI weighting.

    Parameters
    ----------
    n : int in 0..3, default=1
        Number of super-parents (0 = naive Bayes, 1 = AODE/A1DE, 2 = A2DE, 3 = A3DE).
    smoothing : {"m_estimate", "laplace"}, default="m_estimate"
        Zaidi and Webb 2013: "Probability estimates were smoothed using m-estimation with m = 1".
        Weka's AODE default is Laplace.
    m : float, default=1.0
        The m of the m-estimate (Weka's ``-W``).
    subsumption : bool, default=False
        Subsumption resolution (the "-S" variants).
    sr_threshold : int, default=100
        Minimum count (exclusive) of the specialisation value: 100 in Zaidi and Webb 2013, 50 in
        Weka's AODEsr (``-C``).
    weighting : {"none", "mi"}, default="none"
        "mi": weight each parent set by its mutual information with the class (Eq. 2,
        the "-W" variants).
    mi_min_prob : float, default=0.0
        MI weighting: a cell (x_s, y) adds to MI(X_s; Y) only when ``p(x_s, y) >= mi_min_prob``
        and ``p(x_s) p(y) >= mi_min_prob``. 0: every non-empty cell (Eq. 2 of Zaidi and Webb 2013 as printed,
        and the AnDE authors' Petal code). 1e-6: Weka 3.6 WAODE, whose ``log2(a, b)`` helper
        returns 0 when ``a < Utils.SMALL`` or ``b < Utils.SMALL`` (matters with rare classes).
    min_parent_count : int, default=1
        ``delta(x_s) = 1`` when ``#(x_s) >= min_parent_count`` (Weka's ``-F``; 1 is Eq. 1).
        0 uses every parent set (Weka's WAODE).
    missing : {"skip", "value", "error"}, default="skip"
        Missing values left out of counts and of test-time products (Weka's AODE), or
        treated as a value of their own, or refused with an error (Weka's WAODE, whose
        capabilities exclude missing values).
    categorical_features : array of bool or None
        Injected by the runner; every column must be nominal (discretise numeric ones).
    n_categories : array of int or None
        Declared number of values per column (injected by the runner: Weka's value lists
        from the whole file, or the bins of the discretiser). None: ``max code + 1`` of the
        first batch.
    max_table_bytes : int or "auto", default="auto"
        Memory guard for the count tables ("auto": half the physical memory).
    block_rows : int, default=4096
        Rows per block of the counting kernel.

    Attributes
    ----------
    classes_ : array of class labels
    n_values_ : (d,) values per attribute as counted (plus one for ``missing="value"``)
    counts_ : :class:`algorithms._counts.AllSubsetCounts`
    weights_ : (n_sets,) MI weight per parent set (flat set index), ones when unweighted
    diagnostics_ : dict with the table size

    Notes
    -----
    ``C`` (in the smoothing of the class and of joints with the class) is the number of
    classes in the training data (or in ``classes`` of the first ``partial_fit``); Weka uses
    the classes its header declares, so the two differ on a fold that lacks a class unless
    ``classes`` is passed. After ``partial_fit`` the derived arrays (totals, MI weights,
    the A1DE table) are rebuilt on the next prediction; ``fit`` builds them at once.
    """

    def __init__(self, *, n=1, smoothing="m_estimate", m=1.0, subsumption=False, sr_threshold=100,
                 weighting="none", mi_min_prob=0.0, min_parent_count=1, missing="skip", categorical_features=None,
                 n_categories=None, max_table_bytes="auto", block_rows=BLOCK_ROWS):
        self.n = n
        self.smoothing = smoothing
        self.m = m
        self.subsumption = subsumption
        self.sr_threshold = sr_threshold
        self.weighting = weighting
        self.mi_min_prob = mi_min_prob
        self.min_parent_count = min_parent_count
        self.missing = missing
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.max_table_bytes = max_table_bytes
        self.block_rows = block_rows

    _parameter_constraints: dict = {
        "n": [Interval(Integral, 0, 3, closed="both")],
        "smoothing": [StrOptions({"m_estimate", "laplace"})],
        "m": [Real],  # > 0 with smoothing="m_estimate" (_check_params)
        "subsumption": ["boolean"],
        "sr_threshold": [Interval(Real, 0, None, closed="left")],
        "weighting": [StrOptions({"none", "mi"})],
        "mi_min_prob": [Interval(Real, 0, 1, closed="left")],
        "min_parent_count": [Interval(Integral, 0, None, closed="left")],
        "missing": [StrOptions({"skip", "value", "error"})],
        **NOMINAL_COLUMNS_CONSTRAINTS,
        "max_table_bytes": MAX_TABLE_BYTES_CONSTRAINT,
        "block_rows": [Interval(Integral, 1, None, closed="left")],
    }

    # ------------------------------------------------------------------ checks
    def _check_params(self):
        """The declared constraints, then the rule that ties two parameters."""
        self._validate_params()
        if self.smoothing == "m_estimate" and not self.m > 0:
            raise ValueError(f"m must be a positive number with smoothing='m_estimate', got {self.m!r}")

    def _encode(self, X, what: str = "X"):
        """Integer codes of ``X``; ``missing="error"`` refuses missing values as Weka's WAODE does."""
        if self.missing == "error":
            bad = np.isnan(X)
            if bad.any():
                r, c = np.argwhere(bad)[0]
                raise MissingValuesRefused(
                    f"{what} has {int(bad.sum())} missing values (first at row {r}, column {c}) and missing='error' "
                    "refuses them, as Weka 3.6 WAODE does ('Cannot handle missing values'); impute them, or set "
                    "missing='value' (a value of its own) or 'skip' (left out of counts and products)")
            return encode(X, self._declared_, "skip", what=what)
        return encode(X, self._declared_, self.missing, what=what)

    def _validate(self, X, reset: bool):
        X = validate_data(self, X, reset=reset, ensure_all_finite="allow-nan", dtype=validation_dtype(X))
        return X

    # ------------------------------------------------------------------ training
    def fit(self, X, y):
        """Count the training data in one pass (Eq. 1 needs counts of all subsets of size <= n+1)."""
        for attr in ("counts_", "classes_", "_model"):
            if hasattr(self, attr):
                delattr(self, attr)
        self._partial_fit(X, y, classes=None, first=True)
        self._finalise()
        return self

    def partial_fit(self, X, y, classes=None):
        """Add a chunk to the counts; the counts equal those of one ``fit`` on all chunks.

        ``classes`` (all class labels) is needed on the first call unless that chunk holds them all.
        """
        first = not hasattr(self, "counts_")
        self._partial_fit(X, y, classes=classes, first=first)
        self._model = None
        return self

    def _partial_fit(self, X, y, classes, first: bool):
        self._check_params()
        X, y = validate_data(self, X, y, reset=first, ensure_all_finite="allow-nan", dtype=validation_dtype(X))
        if y.dtype.kind not in "iub":   # integer labels are class labels; others may be continuous
            check_classification_targets(y)
        if first:
            first_batch_classes(self, y, classes)
            declared = declared_values(self, X)
            self.n_values_ = declared + (1 if self.missing == "value" else 0)
            self._declared_ = declared
            max_order = min(self.n + 1, X.shape[1])
            if self.subsumption:
                max_order = max(max_order, min(2, X.shape[1]))
            self.counts_ = AllSubsetCounts.allocate(self.n_values_, self.classes_.size, max_order,
                                                    self.max_table_bytes, what=f"A{self.n}DE count tables",
                                                    expected_rows=X.shape[0])
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes {np.unique(classes)!r} differ from the first call's {self.classes_!r}")
        elif self.n_categories is None:
            grown = grown_values(self._declared_, X)
            if grown is not None:  # a code above those seen so far: grow as one fit would have sized the tables
                slot = 1 if self.missing == "value" else 0
                self.counts_ = grow_all_subsets(self.counts_, grown + slot, value_maps(self._declared_, grown, bool(slot)))
                self._declared_, self.n_values_ = grown, grown + slot
        yc = class_codes(y, self.classes_)[1]
        codes = self._encode(X)
        self.counts_.add(codes, encode_classes(yc, self.classes_.size), int(self.block_rows))

    def _finalise(self):
        """Derived arrays read by prediction: set totals, class-free counts, MI weights."""
        cnt = self.counts_
        n = self.n
        tot, cls = cnt.set_totals()
        free = cnt.class_free(max(n, 2 if self.subsumption else 1))
        weights = np.ones(tot.size)
        if self.weighting == "mi":
            for t in range(1, min(n, cnt.max_order) + 1):
                _mutual_information(cnt.set_offsets, int(cnt.set_start[t]), int(cnt.set_start[t + 1]),
                                    cnt.n_classes, cnt.counts, float(self.mi_min_prob), weights)
        o1 = cnt.set_start[1]
        child_a, child_b = Smoothing(self.smoothing, self.m).terms(cnt.n_values)
        group_b, child_group = np.unique(child_b, return_inverse=True)
        self._model = {
            "child_a": child_a, "child_b": child_b, "group_b": group_b, "child_group": child_group.astype(np.int64),
            "set_totals": tot.astype(np.float64),
            "order1_class_totals": cls[o1:o1 + cnt.n_values.size].astype(np.float64),
            "free_counts": free,
            "binom": cnt.binomials(),
        }
        if n >= 1 and cnt.max_order >= 2:
            V = int(cnt.n_values.sum())
            if V * V * cnt.n_classes * 8 <= A1DE_TABLE_BYTES:
                value_offset = np.concatenate([[0], np.cumsum(cnt.n_values)[:-1]]).astype(np.int64)
                Q = np.zeros((V, V, cnt.n_classes))
                J = np.zeros((V, cnt.n_classes))
                _a1de_tables(cnt.n_values, cnt.n_classes, cnt.missing_counts, cnt.counts, cnt.set_start,
                             cnt.set_offsets, self._model["set_totals"], self.smoothing == "laplace", float(self.m),
                             child_a, child_b, value_offset, Q, J)
                o1 = cnt.set_start[1]
                freq = free[cnt.set_offsets[o1] // cnt.n_classes:cnt.set_offsets[o1 + cnt.n_values.size] // cnt.n_classes]
                self._model.update(a1de_Q=Q, a1de_J=J, value_offset=value_offset, value_freq=freq.copy(),
                                   weights1=weights[o1:o1 + cnt.n_values.size].copy())
        self.weights_ = weights
        self.diagnostics_ = {"table_bytes": int(cnt.nbytes), "table_cells": int(cnt.counts.size),
                             "max_order": int(cnt.max_order)}

    # ------------------------------------------------------------------ prediction
    def _run(self, X, chunk_rows: int = 32768):
        check_is_fitted(self, "counts_")
        X = self._validate(X, reset=False)
        if getattr(self, "_model", None) is None:
            self._finalise()
        cnt, mdl = self.counts_, self._model
        # row-major codes: prediction reads one row's values together
        codes_all = np.ascontiguousarray(self._encode(X))
        n_test, d = codes_all.shape
        C = cnt.n_classes
        out = np.empty((n_test, C))
        level = np.zeros(n_test, dtype=np.int64)
        n_kept = np.empty(n_test, dtype=np.int64)
        laplace, m = self.smoothing == "laplace", float(self.m)
        n_top = int(min(self.n, d))
        for lo in range(0, n_test, chunk_rows):
            codes = codes_all[lo:lo + chunk_rows]
            nr = codes.shape[0]
            kept = np.empty((nr, d), dtype=np.bool_)
            _kept_attributes(codes, bool(self.subsumption), cnt.n_values, C, cnt.set_start, cnt.set_offsets,
                             mdl["binom"], mdl["free_counts"], int(self.sr_threshold), kept, n_kept[lo:lo + nr])
            pending = np.arange(nr)
            res = out[lo:lo + nr]
            for L in range(n_top, 0, -1):  # Eq. 1, falling back to A(L-1)DE where no parent set qualifies
                if pending.size == 0:
                    break
                lin = np.zeros((nr, C))
                lg = np.full((nr, C), -np.inf)
                wsum = np.zeros(nr)
                used = np.zeros(nr, dtype=np.int64)
                if L == 1 and "a1de_Q" in mdl:
                    _a1de_level(codes, pending, kept, mdl["value_offset"], mdl["a1de_Q"], mdl["a1de_J"],
                                mdl["value_freq"], mdl["weights1"], int(self.min_parent_count), lin, lg, wsum, used)
                else:
                    _ande_level(codes, pending, kept, L, cnt.n_values, C, cnt.missing_counts, cnt.counts,
                                cnt.set_start, cnt.set_offsets, mdl["binom"], mdl["set_totals"], mdl["free_counts"],
                                self.weights_, laplace, m, mdl["child_a"], mdl["child_b"], mdl["child_group"],
                                mdl["group_b"], int(self.min_parent_count), lin, lg, wsum, used)
                done = pending[used[pending] > 0]
                with np.errstate(divide="ignore"):
                    a = np.log(lin[done])
                b = lg[done]
                hi = np.maximum(a, b)
                hi_safe = np.where(np.isfinite(hi), hi, 0.0)
                res[done] = hi_safe + np.log(np.exp(a - hi_safe) + np.exp(b - hi_safe)) - np.log(wsum[done])[:, None]
                level[lo + done] = L
                pending = pending[used[pending] == 0]
            if pending.size:
                _nb_log_joint(codes, pending, kept, C, cnt.counts, cnt.set_start, cnt.set_offsets,
                              cnt.class_counts.astype(np.float64), float(cnt.n_rows), mdl["order1_class_totals"],
                              laplace, m, mdl["child_a"], mdl["child_b"], res)
        return out, level, n_kept

    def predict_log_joint(self, X):
        """``log P(y, x)`` per row and class (Eq. 1), up to a constant per row."""
        return self._run(X)[0]

    def explain(self, X) -> dict:
        """Per row: ``level`` = n of the AnDE level that classified it (lower = fall-back)
        and ``n_kept`` = attributes left after missing values and subsumption resolution."""
        _, level, kept = self._run(X)
        return {"level": level, "n_kept": kept}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True  # nominal codes 0..k-1
        return tags
