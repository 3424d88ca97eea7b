"""Numba kernels of ECOC-NB (:mod:`algorithms.ecoc`): the one pass of naive Bayes statistics over
CSR rows, and the kernel density estimates of the precalculated (merged) distributions.

Every kernel reads CSR arrays (``indptr``, ``indices``, ``data``): the stored entries of a row; an
entry that is not stored is a 0. NaN entries are missing values. Class codes ``y`` are 0..C-1.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._kde_kernels import insertion_point, kde_add, weka_cell_add
from ._weka_normal import weka_cell_prob

LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


# --------------------------------------------------------------------------- the one pass
@njit(cache=True)
def stored_and_missing(indptr, indices, data, y, stored, missing):
    """``stored[j, c]`` += stored entries of column j in class c; ``missing[j, c]`` += NaN ones."""
    for r in range(indptr.shape[0] - 1):
        c = y[r]
        for p in range(indptr[r], indptr[r + 1]):
            j = indices[p]
            stored[j, c] += 1
            if data[p] != data[p]:
                missing[j, c] += 1


@njit(cache=True)
def nominal_counts(indptr, indices, data, y, offsets, n_values, n_classes, counts):
    """Attribute-value x class counts of the stored non-missing entries (value codes 0..k_j-1).

    Returns (number of bad cells, first bad row, its column): a value that is not a code of
    its column (an unseen category, a fraction, a negative number)."""
    n_bad = 0
    bad_r = -1
    bad_j = -1
    for r in range(indptr.shape[0] - 1):
        c = y[r]
        for p in range(indptr[r], indptr[r + 1]):
            x = data[p]
            if x != x:
                continue
            j = indices[p]
            if x >= 0.0 and x < n_values[j] and x == int(x):
                counts[offsets[j] + int(x) * n_classes + c] += 1
            else:
                if n_bad == 0:
                    bad_r = r
                    bad_j = j
                n_bad += 1
    return n_bad, bad_r, bad_j


@njit(cache=True)
def value_sums(indptr, indices, data, y, sums):
    """``sums[j, c]`` += the stored non-missing values (their sum; zeros add nothing)."""
    for r in range(indptr.shape[0] - 1):
        c = y[r]
        for p in range(indptr[r], indptr[r + 1]):
            x = data[p]
            if x == x:
                sums[indices[p], c] += x


@njit(cache=True)
def centred_squares(indptr, indices, data, y, mean, m2):
    """``m2[j, c]`` += sum of (x - mean[j, c])^2 over the stored non-missing values."""
    for r in range(indptr.shape[0] - 1):
        c = y[r]
        for p in range(indptr[r], indptr[r + 1]):
            x = data[p]
            if x == x:
                dlt = x - mean[indices[p], c]
                m2[indices[p], c] += dlt * dlt


@njit(cache=True)
def positive_counts(indptr, indices, data, y, counts):
    """``counts[j, c]`` += stored values > 0 (Bernoulli: documents containing word j)."""
    for r in range(indptr.shape[0] - 1):
        c = y[r]
        for p in range(indptr[r], indptr[r + 1]):
            if data[p] > 0.0:
                counts[indices[p], c] += 1


@njit(cache=True)
def merge_sorted_grid(cols, vals, counts, out_cols, out_vals, out_counts):
    """Collapse (column, value) entries sorted by column then value into unique ones with summed
    class counts; returns the number of unique entries written."""
    m = -1
    for i in range(cols.shape[0]):
        if m >= 0 and cols[i] == out_cols[m] and vals[i] == out_vals[m]:
            for c in range(counts.shape[1]):
                out_counts[m, c] += counts[i, c]
        else:
            m += 1
            out_cols[m] = cols[i]
            out_vals[m] = vals[i]
            for c in range(counts.shape[1]):
                out_counts[m, c] = counts[i, c]
    return m + 1


@njit(cache=True)
def weka_precisions(grid_offsets, grid_values, out):
    """Weka NaiveBayes' precision per column: the mean gap between the sorted distinct values
    (summed gap by gap, as Weka's deltaSum), 0.01 with fewer than 2 values, at least 1e-6."""
    for j in range(grid_offsets.shape[0] - 1):
        lo = grid_offsets[j]
        hi = grid_offsets[j + 1]
        if hi - lo < 2:
            p = 0.01
        else:
            s = 0.0
            for i in range(lo + 1, hi):
                s += grid_values[i] - grid_values[i - 1]
            p = s / (hi - lo - 1)
        out[j] = max(p, 1e-6)


@njit(cache=True)
def kde_bandwidths(grid_offsets, grid_values, weights, precision, total, bandwidth):
    """Weka's bandwidth of every (column, group) merged estimator: over the values with positive
    weight, ``h = max(range / sqrt(W), p / 6)`` (``p / 6`` when the range is 0); ``W`` = total weight.
    ``weights`` is (grid entries, weight columns); writes ``total`` and ``bandwidth`` (columns, weight
    columns)."""
    m = weights.shape[1]
    for j in range(grid_offsets.shape[0] - 1):
        lo = grid_offsets[j]
        hi = grid_offsets[j + 1]
        p = precision[j]
        for g in range(m):
            w_sum = 0.0
            vmin = np.inf
            vmax = -np.inf
            for i in range(lo, hi):
                w = np.float64(weights[i, g])   # float32 storage: compute in double
                if w > 0:
                    w_sum += w
                    v = grid_values[i]
                    if v < vmin:
                        vmin = v
                    if v > vmax:
                        vmax = v
            total[j, g] = w_sum
            rng = vmax - vmin if w_sum > 0 else 0.0
            h = p / 6.0
            if rng > 0:
                h = max(rng / math.sqrt(w_sum), h)
            bandwidth[j, g] = h


@njit(cache=True)
def class_extrema(grid_offsets, grid_values, counts, vmin, vmax, total):
    """Per (column j, class c): the smallest and largest grid value with a positive count (+inf /
    -inf when none) and the total count, from the (grid entries x classes) counts."""
    C = counts.shape[1]
    for j in range(grid_offsets.shape[0] - 1):
        for c in range(C):
            vmin[j, c] = np.inf
            vmax[j, c] = -np.inf
            total[j, c] = 0.0
        for i in range(grid_offsets[j], grid_offsets[j + 1]):
            v = grid_values[i]
            for c in range(C):
                w = counts[i, c]
                if w > 0:
                    total[j, c] += w
                    if v < vmin[j, c]:
                        vmin[j, c] = v
                    if v > vmax[j, c]:
                        vmax[j, c] = v


@njit(cache=True)
def group_bandwidths(cmin, cmax, order_min, order_max, member, total, precision, bandwidth):
    """Weka's bandwidth ``max(range / sqrt(W), p / 6)`` of every (column j, group g) merged estimator
    (as :func:`kde_bandwidths`) from its classes' extremes: the group's smallest value is that of the
    first member class in ``order_min[j]`` (classes by ascending ``cmin[j]``), its largest that of
    the first member in ``order_max[j]`` (descending ``cmax[j]``), so a group costs a few steps, not
    a pass over the column's grid. ``member`` (classes x groups) is the membership, ``total`` the
    groups' weights."""
    d, C = cmin.shape
    m = member.shape[1]
    for j in range(d):
        h0 = precision[j] / 6.0
        for g in range(m):
            w = total[j, g]
            h = h0
            if w > 0:
                lo = np.inf
                for t in range(C):
                    c = order_min[j, t]
                    if member[c, g]:
                        lo = cmin[j, c]
                        break
                hi = -np.inf
                for t in range(C):
                    c = order_max[j, t]
                    if member[c, g]:
                        hi = cmax[j, c]
                        break
                rng = hi - lo
                if rng > 0:
                    h = max(rng / math.sqrt(w), h0)
            bandwidth[j, g] = h


# --------------------------------------------------------------------------- kernel density values
@njit(cache=True)
def _log_density(values, weights, g, lo, hi, a, x, h, total, log_wmax):
    """log f(x) of one merged estimator: Gaussian kernels at the grid values with positive weight
    (column ``g`` of ``weights``), summed in log space outward from the insertion point ``a``;
    a side stops once no remaining kernel can add e^-40 of the sum (as NaiveBayes' density)."""
    inv_h = 1.0 / h
    top = -np.inf
    acc = 0.0
    i = a
    while i < hi:
        w = np.float64(weights[i, g])   # float32 storage: compute in double
        if w > 0:
            stop, top, acc = kde_add((values[i] - x) * inv_h, w, log_wmax, top, acc)
            if stop:
                break
        i += 1
    i = a - 1
    while i >= lo:
        w = np.float64(weights[i, g])   # float32 storage: compute in double
        if w > 0:
            stop, top, acc = kde_add((x - values[i]) * inv_h, w, log_wmax, top, acc)
            if stop:
                break
        i -= 1
    return top + math.log(acc) - (math.log(total) + math.log(h) + LOG_SQRT_2PI)


@njit(cache=True)
def _log_weka_cell(values, weights, g, lo, hi, a, x, h, total, precision):
    """Weka 3.6 KernelEstimator.getProbability of one merged estimator, as a log: the kernel mass of
    the cell [x - p/2, x + p/2], upward from the insertion point then downward, each side stopping
    once ``current * (W - weight seen) < 0.01 * sum``; floored at 1e-75 (Weka's NaiveBayes).
    Grid values of zero weight are not part of this estimator and are skipped."""
    half = precision / 2.0
    acc = 0.0
    seen = 0.0
    for i in range(a, hi):
        w = np.float64(weights[i, g])   # float32 storage: compute in double
        if w > 0:
            stop, acc, seen = weka_cell_add(values[i] - x, w, half, h, total, acc, seen)
            if stop:
                break
    for i in range(a - 1, lo - 1, -1):
        w = np.float64(weights[i, g])
        if w > 0:
            stop, acc, seen = weka_cell_add(values[i] - x, w, half, h, total, acc, seen)
            if stop:
                break
    return math.log(max(1e-75, acc / total))


@njit(cache=True)
def _kde_log_value(values, weights, source, lo, hi, a, x, j, g, bandwidth, total, log_wmax, precision,
                   weka_cell):
    s = source[j, g]   # group g's own weights, or its problem's pooled ones (no value of j in g)
    if total[j, s] <= 0:   # no training value of column j in the whole problem: no factor
        return 0.0
    if weka_cell:
        return _log_weka_cell(values, weights, s, lo, hi, a, x, bandwidth[j, s], total[j, s], precision[j])
    return _log_density(values, weights, s, lo, hi, a, x, bandwidth[j, s], total[j, s], log_wmax[j, s])


@njit(cache=True)
def kde_log_at(grid_offsets, grid_values, weights, source, bandwidth, total, log_wmax, precision, x, weka_cell,
               out):
    """``out[j, g]`` = log f_{j,g}(x[j]) for every column j and group g (the values at 0 that
    sparse prediction starts from). ``source[j, g]`` is the column of ``weights`` (and of
    ``bandwidth``, ``total``, ``log_wmax``) that group g uses for column j."""
    m = out.shape[1]
    for j in range(grid_offsets.shape[0] - 1):
        lo = grid_offsets[j]
        hi = grid_offsets[j + 1]
        a = insertion_point(grid_values, lo, hi, x[j])
        for g in range(m):
            out[j, g] = _kde_log_value(grid_values, weights, source, lo, hi, a, x[j], j, g, bandwidth, total,
                                       log_wmax, precision, weka_cell)


@njit(cache=True, inline="always")
def _drop_column(out, r, log_at_zero, j):
    """A missing (NaN) entry of column j removes its factor from row r's log joint: sparse
    prediction starts every row from the values at 0 of all columns (``log_at_zero``), so the
    column's value at 0 comes off again, for every group."""
    for g in range(out.shape[1]):
        out[r, g] -= log_at_zero[j, g]


@njit(cache=True)
def kde_log_joint(indptr, indices, data, grid_offsets, grid_values, weights, source, bandwidth, total, log_wmax,
                  precision, log_at_zero, weka_cell, out):
    """``out[r, g]`` += sum over the stored entries (j, x) of row r of log f_{j,g}(x) - log f_{j,g}(0)
    (the value at 0 of every column is already in the row's starting point); a missing (NaN)
    entry removes its column's factor: -log f_{j,g}(0)."""
    m = out.shape[1]
    for r in range(indptr.shape[0] - 1):
        for p in range(indptr[r], indptr[r + 1]):
            j = indices[p]
            x = data[p]
            if x != x:
                _drop_column(out, r, log_at_zero, j)
                continue
            if x == 0.0:
                continue
            lo = grid_offsets[j]
            hi = grid_offsets[j + 1]
            a = insertion_point(grid_values, lo, hi, x)
            for g in range(m):
                out[r, g] += _kde_log_value(grid_values, weights, source, lo, hi, a, x, j, g, bandwidth, total,
                                            log_wmax, precision, weka_cell) - log_at_zero[j, g]


@njit(cache=True)
def column_max_weights(grid_offsets, weights, out):
    """``out[j, s]`` = log of the largest weight of column j in weight column s (density cutoff)."""
    for j in range(grid_offsets.shape[0] - 1):
        for s in range(out.shape[1]):
            wmax = 0.0
            for i in range(grid_offsets[j], grid_offsets[j + 1]):
                if weights[i, s] > wmax:
                    wmax = np.float64(weights[i, s])
            out[j, s] = math.log(wmax) if wmax > 0 else -np.inf


# --------------------------------------------------------------------------- code matrices
@njit(cache=True)
def first_valid_draw(codebook, picks, full_mask, seen):
    """Index of the first draw (row of ``picks``: k codeword indices) whose k x n matrix is a valid
    ECOC matrix, or -1. Valid: distinct codewords; every column holds both symbols; no two columns
    equal or complementary. A column is read as the k-bit integer of its bits (class i = bit i) and
    complemented when bit 0 is set, so a constant column becomes 0 and a complementary pair becomes
    one value; ``seen`` is a scratch bitset over those values (k <= 24) that is cleared after use."""
    n_draws, k = picks.shape
    n = codebook.shape[1]
    vals = np.empty(n, dtype=np.uint64)
    for t in range(n_draws):
        ok = True
        for a in range(k):
            for b in range(a):
                if picks[t, a] == picks[t, b]:
                    ok = False
        if not ok:
            continue
        used = 0
        for col in range(n):
            v = np.uint64(0)
            for i in range(k):
                if codebook[picks[t, i], col]:
                    v |= np.uint64(1) << np.uint64(i)
            if v & np.uint64(1):
                v ^= full_mask
            if v == 0:
                ok = False
                break
            h = v >> np.uint64(1)
            if seen[h]:
                ok = False
                break
            seen[h] = True
            vals[used] = h
            used += 1
        for i in range(used):
            seen[vals[i]] = False
        if ok:
            return t
    return -1


# --------------------------------------------------------------------------- sparse discretisation
@njit(cache=True)
def bin_codes_csr(indices, data, cut_values, cut_offsets, zero_bin, out):
    """Bin code of every stored entry (number of cuts below the value, Weka's ``value <= cut``),
    with the codes 0 and ``zero_bin[j]`` swapped so that the bin holding 0 is code 0 (an entry that
    is not stored stays 0). NaN stays NaN; a column without cuts (``cut_offsets`` empty) gives 0."""
    for p in range(indices.shape[0]):
        x = data[p]
        if x != x:
            out[p] = x
            continue
        j = indices[p]
        lo = cut_offsets[j]
        code = insertion_point(cut_values, lo, cut_offsets[j + 1], x) - lo
        z = zero_bin[j]
        if code == z:
            code = 0
        elif code == 0:
            code = z
        out[p] = code


# --------------------------------------------------------------------------- normal precalculation
@njit(cache=True)
def normal_groups(mu, n_g, shift_sum_g, sq_g, problem, mean_p, var_p, eps_p, lin, quad, log0):
    """Every (column j, group g) normal distribution from its pooled statistics (Eq. 2 for the
    sufficient statistics): count ``n_g``, sum of (x - mu_j) ``shift_sum_g`` and sum of
    (x - mu_j)^2 ``sq_g`` (all three sums over the group's classes), so that
    ``mean = mu_j + s / n`` and ``var = (sq - s^2 / n) / n`` (ddof 0). A group without observed values
    takes its problem's pooled ``mean_p`` / ``var_p``; ``eps_p`` is the problem's variance floor.
    Writes ``lin = mean / var``, ``quad = 1 / (2 var)`` and ``log0 = log f(0)``."""
    d, m = n_g.shape
    tiny = 1.4916681462400413e-154   # sqrt of the smallest normal double (NaiveBayes' constant-column guard)
    for j in range(d):
        for g in range(m):
            p = problem[g]
            n = n_g[j, g]
            if n > 0:
                dlt = shift_sum_g[j, g] / n
                mean = mu[j] + dlt
                var = max(sq_g[j, g] - n * dlt * dlt, 0.0) / n
            else:
                mean = mean_p[j, p]
                var = var_p[j, p]
            var += eps_p[p]
            if not var > 0:
                var = tiny
            lin[j, g] = mean / var
            quad[j, g] = 0.5 / var
            log0[j, g] = -0.5 * mean * mean / var - 0.5 * math.log(var) - LOG_SQRT_2PI


# --------------------------------------------------------------------------- discrete precalculation
@njit(cache=True)
def nominal_groups(counts_g, block_start, n_values, log_table, log0, delta):
    """Laplace-corrected ``log Pr(a_j = v | group)`` of every (column, value, group) from the pooled
    counts ``counts_g`` (Sect. 4.3.1: ``(sum_i |a_j and c_i| + 1) / (sum_i |c_i| + |A_j|)``, the
    denominator counting the group's observed values of column j). Writes ``log0[j, g]`` (value 0)
    and ``delta[row, g] = log Pr(v) - log Pr(0)``. ``log_table[i] = log(i)`` for integer counts."""
    m = counts_g.shape[1]
    obs = np.empty(m)
    for j in range(block_start.shape[0] - 1):
        lo = block_start[j]
        hi = block_start[j + 1]
        k = n_values[j]
        for g in range(m):
            obs[g] = 0.0
        for v in range(lo, hi):
            for g in range(m):
                obs[g] += counts_g[v, g]
        for g in range(m):
            obs[g] = math.log(obs[g] + k)
            log0[j, g] = log_table[int(counts_g[lo, g]) + 1] - obs[g]
        for v in range(lo, hi):
            for g in range(m):
                delta[v, g] = log_table[int(counts_g[v, g]) + 1] - obs[g] - log0[j, g]


# --------------------------------------------------------------------------- binary columns: log-odds tables
@njit(cache=True)
def _normal_moments(n, s, q, mu, mean_p, var_p, eps):
    if n > 0:
        inv = 1.0 / n
        dlt = s * inv
        mean = mu + dlt
        var = max(q - s * dlt, 0.0) * inv
    else:
        mean = mean_p
        var = var_p
    var += eps
    if not var > 0:
        var = 1.4916681462400413e-154
    return mean, var


@njit(cache=True)
def normal_pairs(mu, pos, tot, mean_p, var_p, eps, lin, quad, log0, base):
    """Binary columns (groups C_b^+ and C_b^- = all classes minus C_b^+): the log-odds tables of
    every (attribute j, column b) normal pair. ``pos`` (3 bj x n): count, sum of (x - mu_j), sum of
    (x - mu_j)^2 of C_b^+ (attribute blocks of the group-sum product); ``tot`` (3 bj): the same
    over all classes, so C_b^- = tot - pos. As :func:`normal_groups` per group, then
    ``lin = mean+/var+ - mean-/var-``, ``quad = 1/(2 var+) - 1/(2 var-)``,
    ``log0 = log f+(0) - log f-(0)`` (one log of the variance ratio); ``base[b] += sum_j log0``."""
    bj, n = lin.shape
    for j in range(bj):
        for b in range(n):
            mp, vp = _normal_moments(pos[j, b], pos[bj + j, b], pos[2 * bj + j, b], mu[j], mean_p[j, b],
                                     var_p[j, b], eps[b])
            mn, vn = _normal_moments(tot[j] - pos[j, b], tot[bj + j] - pos[bj + j, b],
                                     tot[2 * bj + j] - pos[2 * bj + j, b], mu[j], mean_p[j, b], var_p[j, b], eps[b])
            ip = 1.0 / vp
            iv = 1.0 / vn
            lin[j, b] = mp * ip - mn * iv
            quad[j, b] = 0.5 * (ip - iv)
            v = -0.5 * (mp * mp * ip - mn * mn * iv) + 0.5 * math.log(ip * vn)
            log0[j, b] = v
            base[b] += v


@njit(cache=True)
def nominal_pairs(pos, tot, block_start, n_values, log_table, log0, delta, base):
    """Binary columns: the log-odds tables of every (attribute, column b) pair of Laplace-corrected
    distributions (as :func:`nominal_groups`), from the positive counts ``pos`` (value rows x n) and
    the per-value totals over all classes ``tot`` (C_b^- = tot - pos; integer counts, exact).
    Writes ``log0[j, b] = log P+(0) - log P-(0)``, ``delta[row, b] = (log P+(v) - log P+(0)) -
    (log P-(v) - log P-(0))`` and adds ``log0`` to ``base``."""
    n = pos.shape[1]
    obs_p = np.empty(n)
    obs_n = np.empty(n)
    lp0 = np.empty(n)
    ln0 = np.empty(n)
    for j in range(block_start.shape[0] - 1):
        lo = block_start[j]
        hi = block_start[j + 1]
        k = n_values[j]
        for b in range(n):
            obs_p[b] = 0.0
            obs_n[b] = 0.0
        for v in range(lo, hi):
            for b in range(n):
                c = pos[v, b]
                obs_p[b] += c
                obs_n[b] += tot[v] - c
        for b in range(n):
            c0p = pos[lo, b]
            c0n = tot[lo] - c0p
            lp0[b] = log_table[int(c0p) + 1]
            ln0[b] = log_table[int(c0n) + 1]
            v0 = (lp0[b] - math.log(obs_p[b] + k)) - (ln0[b] - math.log(obs_n[b] + k))
            log0[j, b] = v0
            base[b] += v0
            delta[lo, b] = 0.0
        for v in range(lo + 1, hi):
            for b in range(n):
                c = pos[v, b]
                delta[v, b] = (log_table[int(c) + 1] - lp0[b]) - (log_table[int(tot[v] - c) + 1] - ln0[b])


# --------------------------------------------------------------------------- Weka's normal estimator
@njit(cache=True)
def weka_normal_log_at(mean, std, precision, x, floor, out):
    """``out[j, g] = log max(floor, P_jg(cell of x[j]))`` (x already rounded; Weka's cell mass)."""
    for j in range(out.shape[0]):
        for g in range(out.shape[1]):
            out[j, g] = math.log(max(floor, weka_cell_prob(x[j], mean[j, g], std[j, g], precision[j])))


@njit(cache=True)
def weka_normal_log_joint(indptr, indices, data, mean, std, precision, log_at_zero, floor, out):
    """``out[r, g]`` += sum over the stored entries (j, x) of row r of ``log max(floor, P_jg(cell of
    rint(x / p_j) p_j)) - log_at_zero[j, g]`` (the cell of 0 is in the row's starting point); a NaN
    entry removes its column's factor."""
    m = out.shape[1]
    for r in range(indptr.shape[0] - 1):
        for p in range(indptr[r], indptr[r + 1]):
            j = indices[p]
            x = data[p]
            if x != x:
                _drop_column(out, r, log_at_zero, j)
                continue
            pj = precision[j]
            v = np.rint(x / pj) * pj
            if v == 0.0:
                continue
            for g in range(m):
                out[r, g] += math.log(max(floor, weka_cell_prob(v, mean[j, g], std[j, g], pj))) - log_at_zero[j, g]
