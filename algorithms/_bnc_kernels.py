"""Numba kernels of :mod:`algorithms.bnc` (TAN, KDB-k, SKDB, KDF), apart from the estimators as
``c45``, ``hdp`` and ``ecoc`` keep theirs.

- pass 1 (MI and CMI): :func:`_information_kernel` reads ``I(X_i; Y)``, ``I(X_i; X_j | Y)`` and
  ``I(Y; X_j | X_i)`` (bits) from the pair x class counts; :func:`_petal_information_kernel` the first
  two in Petal's float arithmetic;
- structures: Weka 3.6's ``Utils.sort`` (:func:`_weka_sort_kernel`) and Weka TAN's entropy edge
  gains (:func:`_weka_tan_scores`);
- counting: row sums over runs of sorted keys (:func:`_sum_runs_kernel`);
- family tables: the walk down a family's tree (:func:`_walk_tree`) and the log-probabilities
  of its cells (:func:`_family_log_prob`);
- SKDB's incremental leave-one-out (:func:`_loo_attribute`, :func:`_loo_attribute_authors`,
  :func:`_loo_attribute_min_count`, :func:`_loo_prior`, with :func:`_normalise_and_score`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._kde_kernels import insertion_point

LOG2 = math.log(2.0)


@njit(cache=True, inline="always")
def _pair_table(pair_sets, set_offsets, pair_start, n_values, p):
    """Pair p's attributes (i, j), their arities and the offset of its (x_i, x_j, y) count table."""
    i = pair_sets[p, 0]
    j = pair_sets[p, 1]
    return i, j, n_values[i], n_values[j], set_offsets[pair_start + p]


@njit(cache=True, inline="always")
def _attribute_information(counts, off, k, C, N, class_tot, petal):
    """``I(X; Y)`` of the attribute whose (value, class) table of ``k`` values starts at ``off``,
    summed in double over (value, class): in nats as ``a / N * log(a N / (n_v n_c))`` or, with
    ``petal``, in bits as Petal's ``getMutualInformation`` writes it, ``(a / N) log2(a / ((n_v / N) n_c))``."""
    s = 0.0
    for v in range(k):
        nv = 0.0
        for c in range(C):
            nv += counts[off + v * C + c]
        for c in range(C):
            a = float(counts[off + v * C + c])
            if a > 0:
                if petal:
                    s += (a / N) * math.log2(a / ((nv / N) * class_tot[c]))
                else:
                    s += a / N * math.log(a * N / (nv * class_tot[c]))
    return s


@njit(cache=True, inline="always")
def _class_totals(set_offsets, single_start, n_values, C, counts):
    """Rows per class, from attribute 0's (value, class) table (zeros without attributes)."""
    class_tot = np.zeros(C)
    if n_values.shape[0] > 0:
        off = set_offsets[single_start]
        for v in range(n_values[0]):
            for c in range(C):
                class_tot[c] += counts[off + v * C + c]
    return class_tot


@njit(cache=True)
def _information_kernel(pair_sets, set_offsets, single_start, pair_start, n_values, n_classes, counts, n_rows,
                        mi, cmi, cmi_class):
    """From the order-1 and order-2 tables (layout of AllSubsetCounts, class innermost):

    ``mi[i] = I(X_i; Y)``, ``cmi[i, j] = I(X_i; X_j | Y)`` (symmetric) and
    ``cmi_class[i, j] = I(Y; X_j | X_i)`` (KDF's ordering measure), all in bits.
    """
    d = n_values.shape[0]
    C = n_classes
    N = float(n_rows)
    class_tot = _class_totals(set_offsets, single_start, n_values, C, counts)
    for i in range(d):
        mi[i] = _attribute_information(counts, set_offsets[single_start + i], n_values[i], C, N, class_tot,
                                       False) / LOG2
    for p in range(pair_sets.shape[0]):
        i, j, ki, kj, off = _pair_table(pair_sets, set_offsets, pair_start, n_values, p)
        oi = set_offsets[single_start + i]
        oj = set_offsets[single_start + j]
        s = 0.0
        s_ij = 0.0   # I(Y; X_j | X_i)
        s_ji = 0.0   # I(Y; X_i | X_j)
        for vi in range(ki):
            n_i = 0.0
            for c in range(C):
                n_i += counts[oi + vi * C + c]
            for vj in range(kj):
                n_ij = 0.0
                base = off + (vi * kj + vj) * C
                for c in range(C):
                    n_ij += counts[base + c]
                if n_ij == 0:
                    continue
                n_j = 0.0
                for c in range(C):
                    n_j += counts[oj + vj * C + c]
                for c in range(C):
                    a = float(counts[base + c])
                    if a > 0:
                        n_ic = float(counts[oi + vi * C + c])
                        n_jc = float(counts[oj + vj * C + c])
                        s += a / N * math.log(a * class_tot[c] / (n_ic * n_jc))
                        s_ij += a / N * math.log(a * n_i / (n_ic * n_ij))
                        s_ji += a / N * math.log(a * n_j / (n_jc * n_ij))
        cmi[i, j] = s / LOG2
        cmi[j, i] = s / LOG2
        cmi_class[i, j] = s_ij / LOG2
        cmi_class[j, i] = s_ji / LOG2


@njit(cache=True)
def _petal_information_kernel(pair_sets, set_offsets, single_start, pair_start, n_values, n_classes, counts, n_rows,
                              mi, cmi):
    """``I(X_i; Y)`` and ``I(X_i; X_j | Y)`` (bits) in Petal's arithmetic (``correlationMeasures.cpp``,
    ``getMutualInformation`` into a ``std::vector<float>`` and ``getCondMutualInf`` into a
    ``crosstab<float>``): MI summed in double over (value, class) and stored as float; CMI of the
    pair (x1 > x2) summed over (v1, v2, class) in a float accumulator (each term added in double and
    rounded to float), both with ``log2``. ``mi`` and ``cmi`` are float32 arrays."""
    d = n_values.shape[0]
    C = n_classes
    N = float(n_rows)
    class_tot = _class_totals(set_offsets, single_start, n_values, C, counts)
    for i in range(d):
        mi[i] = np.float32(_attribute_information(counts, set_offsets[single_start + i], n_values[i], C, N,
                                                  class_tot, True))
    for p in range(pair_sets.shape[0]):
        i, j, ki, kj, off = _pair_table(pair_sets, set_offsets, pair_start, n_values, p)
        # Petal's x1 is the later attribute (j), x2 the earlier (i); cells (vi, vj, y) at off + (vi * kj + vj) * C + y
        oi = set_offsets[single_start + i]
        oj = set_offsets[single_start + j]
        m32 = np.float32(0.0)
        for v1 in range(kj):
            for v2 in range(ki):
                for c in range(C):
                    a = float(counts[off + (v2 * kj + v1) * C + c])
                    if a != 0:
                        n1 = float(counts[oj + v1 * C + c])
                        n2 = float(counts[oi + v2 * C + c])
                        m32 = np.float32(float(m32) + (a / N) * math.log2(class_tot[c] * a / (n1 * n2)))
        cmi[i, j] = m32
        cmi[j, i] = m32


@njit(cache=True, inline="always")
def _cswap(a, index, left, right):
    if a[index[left]] > a[index[right]]:
        h = index[left]
        index[left] = index[right]
        index[right] = h


@njit(cache=True)
def _weka_sort_kernel(values, index):
    """Weka 3.6.14's ``Utils.sort(double[])`` in place on ``index`` (initially 0..n-1): NaN
    counts as ``Double.MAX_VALUE``; quicksort with median-of-three (``sortLeftRightAndCenter``),
    the pivot parked at ``right - 1``, Sedgewick's partition, and ranges of 2 or 3 elements
    sorted by conditional swaps. Not stable. The two halves of a partition are disjoint, so
    an explicit stack sorts them as Weka's recursion does (checked against weka.jar on
    random arrays with many ties)."""
    n = values.shape[0]
    a = values.copy()
    for i in range(n):
        if a[i] != a[i]:
            a[i] = 1.7976931348623157e308
    stack = np.empty((2 * n + 2, 2), np.int64)
    top = 0
    if n > 1:
        stack[0, 0] = 0
        stack[0, 1] = n - 1
        top = 1
    while top > 0:
        top -= 1
        left = stack[top, 0]
        right = stack[top, 1]
        diff = right - left
        if diff <= 0:
            continue
        if diff == 1:
            _cswap(a, index, left, right)
            continue
        if diff == 2:
            _cswap(a, index, left, left + 1)
            _cswap(a, index, left, right)
            _cswap(a, index, left + 1, right)
            continue
        c = (left + right) // 2
        _cswap(a, index, left, c)
        _cswap(a, index, left, right)
        _cswap(a, index, c, right)
        h = index[c]
        index[c] = index[right - 1]
        index[right - 1] = h
        pivot = a[index[right - 1]]
        l = left
        r = right - 1
        while True:
            l += 1
            while a[index[l]] < pivot:
                l += 1
            r -= 1
            while a[index[r]] > pivot:
                r -= 1
            if l >= r:
                break
            h = index[l]
            index[l] = index[r]
            index[r] = h
        center = l
        h = index[center]
        index[center] = index[right - 1]
        index[right - 1] = h
        stack[top, 0] = center + 1
        stack[top, 1] = right
        top += 1
        stack[top, 0] = left
        stack[top, 1] = center - 1
        top += 1


@njit(cache=True, inline="always")
def _weka_log_likelihood(counts, off, C, kh, sh, kp, sp):
    """``sum_cfg sum_v n log(n / n_cfg)`` of one node in Weka's order: configurations class-major,
    then the extra parent's value ``vp < kp``; the node's values ``vh < kh`` innermost. The count
    of (vh, vp, y) is ``counts[off + (vh * sh + vp * sp) * C + y]`` (no extra parent: kp = 1)."""
    s = 0.0
    for y in range(C):
        for vp in range(kp):
            nsum = 0.0
            for vh in range(kh):
                nsum += counts[off + (vh * sh + vp * sp) * C + y]
            for vh in range(kh):
                n = counts[off + (vh * sh + vp * sp) * C + y]
                if n > 0:
                    s += n * math.log(n / nsum)
    return s


@njit(cache=True)
def _weka_tan_scores(pair_sets, set_offsets, single_start, pair_start, n_values, n_classes, counts, delta):
    """Weka 3.6 TAN's edge gains with ``-S ENTROPY``, in Weka's arithmetic:
    ``delta[i, j] = LL(X_i | Y, X_j) - LL(X_i | Y)`` with ``LL = sum_cfg sum_v n log(n / n_cfg)``
    accumulated in Weka's order (parent configurations class-major, then the extra parent's
    value; the node's values innermost), as ``LocalScoreSearchAlgorithm.calcScoreOfCounts``."""
    d = n_values.shape[0]
    C = n_classes
    base = np.zeros(d)
    for i in range(d):
        base[i] = _weka_log_likelihood(counts, set_offsets[single_start + i], C, n_values[i], 1, 1, 0)
    for p in range(pair_sets.shape[0]):
        i, j, ki, kj, off = _pair_table(pair_sets, set_offsets, pair_start, n_values, p)
        # cells (vi, vj, y) at off + (vi * kj + vj) * C + y
        delta[i, j] = _weka_log_likelihood(counts, off, C, ki, kj, kj, 1) - base[i]   # head i, parents [class, j]
        delta[j, i] = _weka_log_likelihood(counts, off, C, kj, 1, ki, kj) - base[j]   # head j, parents [class, i]


@njit(cache=True)
def _sum_runs_kernel(counts, first, out):
    m = counts.shape[0]
    for g in range(first.shape[0]):
        stop = first[g + 1] if g + 1 < first.shape[0] else m
        for r in range(first[g], stop):
            for c in range(counts.shape[1]):
                out[g, c] += counts[r, c]


@njit(cache=True, inline="always")
def _search(keys, lo, hi, key):
    """Index of ``key`` in the sorted ``keys[lo:hi]`` (absolute), -1 when absent."""
    a = insertion_point(keys, lo, hi, key)
    return a if a < hi and keys[a] == key else -1


@njit(cache=True)
def _walk_tree(codes, attribute, parents, arities, n_child, node_keys, node_offset, cell_keys, cell_offset,
               child, child_offset, cell_map, cell_map_offset, node_idx, cell_idx):
    """For each row, walk down the family's tree: the node at every depth (absent below an
    absent node) and the cell of the row's value there; global rows of the stacked counts."""
    n = codes.shape[0]
    D = parents.shape[0]
    for r in range(n):
        x = codes[r, attribute]
        path = 0
        local = 0 if node_offset[1] > node_offset[0] else -1
        for d in range(D + 1):
            if d > 0:
                v = codes[r, parents[d - 1]]
                path = path * arities[d - 1] + v
                if local >= 0:
                    if child_offset[d] >= 0:
                        local = child[child_offset[d] + local * arities[d - 1] + v]
                    else:
                        g = _search(node_keys, node_offset[d], node_offset[d + 1], path)
                        local = g - node_offset[d] if g >= 0 else -1
            if local < 0:
                node_idx[r, d] = -1
                cell_idx[r, d] = -1
                continue
            node_idx[r, d] = node_offset[d] + local
            if cell_map_offset[d] >= 0:
                c = cell_map[cell_map_offset[d] + local * n_child + x]
                cell_idx[r, d] = cell_offset[d] + c if c >= 0 else -1
            else:
                cell_idx[r, d] = _search(cell_keys, cell_offset[d], cell_offset[d + 1], path * n_child + x)


#: ``backoff`` codes of the kernels: the leaf / per class / to the deepest seen parent values
BACKOFF_NONE = 0
BACKOFF_CLASS = 1
BACKOFF_SEEN_PARENTS = 2


@njit(cache=True)
def _family_log_prob(node_idx, cell_idx, node_counts, cell_counts, x, root_x, root_total, a, b, backoff, out):
    """``out[r, y] += log P(x_r | y, pa_r)`` with ``P = (#(x, node) + a) / (#(node) + b)``.

    ``backoff``: :data:`BACKOFF_CLASS` = the deepest node on the row's path with training
    data for class y (the root, all classes, when the class has none);
    :data:`BACKOFF_SEEN_PARENTS` = the deepest node on the row's path seen in training
    (with any class and value), the same node for every class (a class without rows there:
    ``a / b``), as Petal's ``distributionCatTree::updateClassDistribution``;
    :data:`BACKOFF_NONE` = the leaf (empty: ``a / b``)."""
    n, D1 = node_idx.shape
    C = out.shape[1]
    for r in range(n):
        for y in range(C):
            d = D1 - 1
            if backoff == BACKOFF_CLASS:
                while d >= 0 and (node_idx[r, d] < 0 or node_counts[node_idx[r, d], y] == 0):
                    d -= 1
            elif backoff == BACKOFF_SEEN_PARENTS:
                while d >= 0 and node_idx[r, d] < 0:
                    d -= 1
            if d >= 0:
                ni = node_idx[r, d]
                ci = cell_idx[r, d]
                nt = node_counts[ni, y] if ni >= 0 else 0
                nx = cell_counts[ci, y] if ci >= 0 else 0
            else:
                nt = root_total
                nx = root_x[x[r]]
            out[r, y] += math.log((nx + a) / (nt + b))


@njit(cache=True)
def _normalise_and_score(post, r, yr, all_classes, loss):
    """Normalise row r's leave-one-out posteriors of every k and add its squared error to ``loss[k]``
    (all classes, or the true class only); an all-zero posterior is left as it is."""
    K1, C = post.shape[1], post.shape[2]
    for k in range(K1):
        s = 0.0
        for c in range(C):
            s += post[r, k, c]
        if s > 0:
            inv = 1.0 / s
            for c in range(C):
                post[r, k, c] *= inv
        if all_classes:
            e = 0.0
            for c in range(C):
                t = (1.0 if c == yr else 0.0) - post[r, k, c]
                e += t * t
            loss[k] += e
        else:
            t = 1.0 - post[r, k, yr]
            loss[k] += t * t


@njit(cache=True)
def _loo_attribute(node_idx, cell_idx, node_counts, cell_counts, x, y, root_x, root_total, a, b, backoff,
                   all_classes, post, loss):
    """SKDB pass 3 for one attribute over a block of training rows (Zhang et al. 2020 Sect. 2.1;
    Martinez et al. 2016): multiply each model's LOO posterior by this attribute's
    estimate with the row's own counts subtracted, normalise, and add the squared error.

    ``post[r, k, :]`` is the posterior of the model with up to k parents per attribute.
    Model k uses, for class c, the deepest node at depth <= k on the row's path that still
    has data for c once the row is left out (node counts are monotone along a path, so
    that is ``min(k, D_c)`` with ``D_c`` the deepest non-empty depth); with
    ``BACKOFF_SEEN_PARENTS`` the deepest node that still holds a row (any class) once the row is
    left out, for every class; without back-off it uses depth ``min(k, depth of the family)``."""
    n, D1 = node_idx.shape
    K1 = post.shape[1]
    C = post.shape[2]
    for r in range(n):
        yr = y[r]
        seen = D1 - 1   # BACKOFF_SEEN_PARENTS: the deepest node holding another row, the same for every class
        if backoff == BACKOFF_SEEN_PARENTS:
            while seen >= 0:
                tot = 0
                for cc in range(C):
                    tot += node_counts[node_idx[r, seen], cc]
                if tot - 1 > 0:
                    break
                seen -= 1
        for c in range(C):
            sub = 1 if c == yr else 0
            deepest = seen
            if backoff == BACKOFF_CLASS:
                while deepest >= 0 and node_counts[node_idx[r, deepest], c] - sub <= 0:
                    deepest -= 1
            last_d = -2
            factor = 1.0
            for k in range(K1):
                d = k if k < deepest else deepest
                if d != last_d:            # models k >= deepest share one factor
                    if d >= 0:
                        nt = node_counts[node_idx[r, d], c] - sub
                        ci = cell_idx[r, d]
                        nx = (cell_counts[ci, c] if ci >= 0 else 0) - sub
                    else:
                        nt = root_total - 1
                        nx = root_x[x[r]] - 1
                    factor = (nx + a) / (nt + b)
                    last_d = d
                post[r, k, c] *= factor
        _normalise_and_score(post, r, yr, all_classes, loss)


@njit(cache=True, inline="always")
def _times_loo_estimate(post, r, k, node_counts, cell_counts, ni, ci, yr, a, b):
    """``post[r, k, c] *= (n_x,c - [c = y_r] + a) / (n_c - [c = y_r] + b)`` for every class c: the
    leave-one-out M-estimate of node ``ni`` / cell ``ci`` (``ci < 0``: no cell, n_x,c = 0)."""
    for c in range(post.shape[2]):
        sub = 1 if c == yr else 0
        nt = node_counts[ni, c] - sub
        nx = (cell_counts[ci, c] if ci >= 0 else 0) - sub
        post[r, k, c] *= (nx + a) / (nt + b)


@njit(cache=True, inline="always")
def _walk_depth(cell_idx, cell_counts, r, D):
    """How deep row r's leave-one-out walk goes (0..D): it stops before the first node on the
    path that holds fewer than 2 rows with the row's value (all classes, the row included)."""
    d = 0
    while d < D:
        ci = cell_idx[r, d + 1]
        cnt = 0
        if ci >= 0:
            for c in range(cell_counts.shape[1]):
                cnt += cell_counts[ci, c]
        if cnt < 2:
            return d
        d += 1
    return d


@njit(cache=True)
def _loo_attribute_authors(node_idx, cell_idx, node_counts, cell_counts, y, a, b, all_classes, post, loss):
    """SKDB pass 3 for one attribute with the ESKDB code's rule
    (``wdBayesParametersTree.updateClassDistributionloocv``), for ``loo_rule="authors"``.

    Walking down the row's path from depth 0, model d's posterior is multiplied by the
    LOO M-estimate at depth d (the row's own counts subtracted for its class; no per-class
    back-off: a node without data for class c gives ``a / b``). Before stepping to depth
    d + 1 the walk checks the next node: when it holds fewer than 2 rows with the row's
    value of this attribute (all classes, the row included), the walk stops, model d + 1
    takes the estimate of depth d, and every deeper model's posterior is overwritten by
    model d + 1's (losing the factors of the earlier attributes). Reaching the leaf (depth
    D, the family's parents), models deeper than D are overwritten by model D's posterior
    (they are equal anyway unless an earlier attribute stopped early)."""
    n, D1 = node_idx.shape
    K1 = post.shape[1]
    C = post.shape[2]
    D = D1 - 1
    for r in range(n):
        yr = y[r]
        d = _walk_depth(cell_idx, cell_counts, r, D)
        early = d < D
        for k in range(d + 1):
            _times_loo_estimate(post, r, k, node_counts, cell_counts, node_idx[r, k], cell_idx[r, k], yr, a, b)
        src = d
        if early and d + 1 < K1:   # model d + 1 takes depth d's estimate
            _times_loo_estimate(post, r, d + 1, node_counts, cell_counts, node_idx[r, d], cell_idx[r, d], yr, a, b)
            src = d + 1
        for k in range(src + 1, K1):
            for c in range(C):
                post[r, k, c] = post[r, src, c]
        _normalise_and_score(post, r, yr, all_classes, loss)


@njit(cache=True)
def _loo_attribute_min_count(node_idx, cell_idx, node_counts, cell_counts, y, a, b, all_classes, post, loss):
    """SKDB pass 3 for one attribute with Petal's rule (``kdbSelectiveClean``, the learner
    ``selective-kdb``: ``distributionCatTree::updateClassDistributionloocv`` and, for every k at
    once, ``updateClassDistributionloocvWithNB``), for ``loo_rule="min_count"``.

    Walking down the row's path from depth 0, the walk stops before a node holding fewer
    than 2 rows with the row's value of this attribute (all classes, the row included);
    with ``s`` the depth reached, model k's posterior is multiplied by the LOO M-estimate
    of depth ``min(k, s)`` for every class (the row's own counts subtracted for its class;
    no per-class back-off: a node without other data for class c gives ``a / b``). Unlike
    :func:`_loo_attribute_authors`, no model's posterior is overwritten by another's."""
    n, D1 = node_idx.shape
    K1 = post.shape[1]
    D = D1 - 1
    for r in range(n):
        yr = y[r]
        s = _walk_depth(cell_idx, cell_counts, r, D)
        for k in range(K1):
            dk = k if k < s else s
            _times_loo_estimate(post, r, k, node_counts, cell_counts, node_idx[r, dk], cell_idx[r, dk], yr, a, b)
        _normalise_and_score(post, r, yr, all_classes, loss)


@njit(cache=True)
def _loo_prior(y, class_counts, n_rows, a0, b0, all_classes, post):
    """LOO class prior ``(#c - [c = y_r] + a0) / (N - 1 + b0)``, normalised, for every model;
    returns the summed squared error of the prior-only model."""
    n = y.shape[0]
    K1 = post.shape[1]
    C = post.shape[2]
    loss = 0.0
    p = np.empty(C)
    for r in range(n):
        s = 0.0
        for c in range(C):
            p[c] = (class_counts[c] - (1 if c == y[r] else 0) + a0) / (n_rows - 1 + b0)
            s += p[c]
        for c in range(C):
            p[c] /= s
            for k in range(K1):
                post[r, k, c] = p[c]
        if all_classes:
            for c in range(C):
                t = (1.0 if c == y[r] else 0.0) - p[c]
                loss += t * t
        else:
            t = 1.0 - p[y[r]]
            loss += t * t
    return loss
