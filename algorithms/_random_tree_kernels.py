"""Numba kernels of Weka 3.6's RandomTree and of the forest's prediction (see
:mod:`algorithms.random_tree` for the algorithm and where it comes from).

A tree is grown depth first with an explicit stack. The rows of a node are a segment of two
work buffers (row index, weight); a split without missing values partitions the segment in
place, a split where some rows have a missing value writes the children's rows (the missing
ones once per branch, with fractional weights) to the end of the buffers, which grow as needed.
Nodes are rows of flat arrays; the stored branches of a node have consecutive ids;
empty branches get no node (see :func:`build_tree`), and a node reaches its children through
a slot array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Weka's ``Utils.SMALL``: the tolerance of ``Utils.eq`` / ``Utils.gr``
SMALL = 1e-6
LN2 = np.log(2.0)
_MASK53 = np.uint64((1 << 53) - 1)


# --------------------------------------------------------------------------- random numbers
@njit(cache=True, inline="always")
def _next_u64(state):
    """splitmix64 (Steele, Lea & Flood 2014): a small, fast, well-mixed 64-bit generator."""
    z = state[0] + np.uint64(0x9E3779B97F4A7C15)
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _rand_below(state, bound):
    """Uniform integer in [0, bound) (53 random bits scaled; bias < bound / 2**53)."""
    u = np.float64(_next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    r = np.int64(u * bound)
    return r if r < bound else bound - 1


# --------------------------------------------------------------------------- entropies
@njit(cache=True, inline="always")
def _xlogx(v):
    """Weka's ``ContingencyTables.lnFunc``: v ln v, 0 for v <= 0."""
    return v * np.log(v) if v > 0.0 else 0.0


@njit(cache=True)
def _gain(dist, n_rows, n_classes):
    """Weka's RandomTree gain of a (branch x class) table: ``entropyOverColumns(dist) -
    entropyConditionedOnRows(dist)`` in bits (both 0 when the table's total is within 1e-6 of 0)."""
    total = 0.0
    cond = 0.0
    for i in range(n_rows):
        row = 0.0
        for c in range(n_classes):
            cond += _xlogx(dist[i, c])
            row += dist[i, c]
        cond -= _xlogx(row)
        total += row
    if abs(total) < SMALL:
        return 0.0
    prior = 0.0
    for c in range(n_classes):
        col = 0.0
        for i in range(n_rows):
            col += dist[i, c]
        prior -= _xlogx(col)
    prior = (prior + _xlogx(total)) / (total * LN2)
    return prior - (-cond / (total * LN2))


# --------------------------------------------------------------------------- split evaluation
@njit(cache=True)
def _eval_nominal(Xc, y, rows, wts, start, end, att, n_val, n_classes, dist, props):
    """Weka ``distribution`` for a nominal attribute: class weights per value on the known rows;
    the branch proportions are the known weight shares (uniform when the known weight is within
    1e-6 of 0); each row with a missing value adds its weight times each proportion."""
    for v in range(n_val):
        for c in range(n_classes):
            dist[v, c] = 0.0
    n_missing = 0
    for i in range(start, end):
        x = Xc[att, rows[i]]
        if np.isnan(x):
            n_missing += 1
        else:
            dist[np.int64(x), y[rows[i]]] += wts[i]
    _props_and_missing(Xc, y, rows, wts, start, end, att, n_val, n_classes, dist, props, n_missing)


@njit(cache=True)
def _props_and_missing(Xc, y, rows, wts, start, end, att, n_br, n_classes, dist, props, n_missing):
    s = 0.0
    for b in range(n_br):
        t = 0.0
        for c in range(n_classes):
            t += dist[b, c]
        props[b] = t
        s += t
    if abs(s) < SMALL:
        for b in range(n_br):
            props[b] = 1.0 / n_br
    else:
        for b in range(n_br):
            props[b] /= s
    if n_missing > 0:
        for i in range(start, end):
            if np.isnan(Xc[att, rows[i]]):
                c = y[rows[i]]
                for b in range(n_br):
                    dist[b, c] += props[b] * wts[i]


@njit(cache=True)
def _sort_pairs(keys, idx, n, stack):
    """Sort ``keys[:n]`` ascending in place, applying the same swaps to ``idx[:n]``: iterative
    quicksort (median of three, three-way partition so that ties cost nothing), insertion sort
    below 16 elements; the smaller side is sorted first, so ``stack`` needs 2 * log2(n) rows."""
    sp = 0
    lo = 0
    hi = n - 1
    while True:
        while hi - lo >= 16:
            mid = (lo + hi) >> 1
            a = keys[lo]
            b = keys[mid]
            c = keys[hi]
            if a < b:
                pivot = b if b < c else (c if a < c else a)
            else:
                pivot = a if a < c else (c if b < c else b)
            lt = lo
            i = lo
            gt = hi
            while i <= gt:
                v = keys[i]
                if v < pivot:
                    keys[i] = keys[lt]
                    keys[lt] = v
                    t = idx[i]
                    idx[i] = idx[lt]
                    idx[lt] = t
                    lt += 1
                    i += 1
                elif v > pivot:
                    keys[i] = keys[gt]
                    keys[gt] = v
                    t = idx[i]
                    idx[i] = idx[gt]
                    idx[gt] = t
                    gt -= 1
                else:
                    i += 1
            # [lo, lt) < pivot, [lt, gt] == pivot, (gt, hi] > pivot
            if lt - lo < hi - gt:
                stack[sp, 0] = gt + 1
                stack[sp, 1] = hi
                sp += 1
                hi = lt - 1
            else:
                stack[sp, 0] = lo
                stack[sp, 1] = lt - 1
                sp += 1
                lo = gt + 1
        for i in range(lo + 1, hi + 1):
            v = keys[i]
            t = idx[i]
            j = i - 1
            while j >= lo and keys[j] > v:
                keys[j + 1] = keys[j]
                idx[j + 1] = idx[j]
                j -= 1
            keys[j + 1] = v
            idx[j + 1] = t
        if sp == 0:
            break
        sp -= 1
        lo = stack[sp, 0]
        hi = stack[sp, 1]


@njit(cache=True)
def _eval_numeric(Xc, Xr, n_distinct, dstart, distinct, y, rows, wts, start, end, att, n_classes, dist, props,
                  cur, vals, pos, ycls, wv, lx, stack, dirty, dirty_list, cnt, rk):
    """Weka ``distribution`` for a numeric attribute: the known rows sorted by value, every cut
    between two adjacent distinct values evaluated by its information gain on the known rows;
    the first best cut wins (gains within 1e-12 count as ties here, so that a different
    summation order cannot reorder exact ties); the split point is the midpoint (or the upper
    value when the midpoint rounds down onto the lower one). Rows with a missing value are then
    added to both branches in proportion to the known weights. Returns the split point (NaN when
    the known rows hold fewer than two distinct values)."""
    m = 0
    n_missing = 0
    for c in range(n_classes):
        cur[0, c] = 0.0
        cur[1, c] = 0.0
    # large nodes: counting sort by the value's rank among the training values, O(rows + values);
    # small nodes: quicksort of the values, O(rows log rows)
    use_count = n_distinct[att] <= 16 * (end - start)
    for i in range(start, end):
        r = rows[i]
        if use_count:
            q = Xr[att, r]
            if q < 0:
                n_missing += 1
                continue
            rk[m] = q
        else:
            x = Xc[att, r]
            if np.isnan(x):
                n_missing += 1
                continue
            vals[m] = x
            pos[m] = m
        c = y[r]
        ycls[m] = c
        wv[m] = wts[i]
        m += 1
        cur[1, c] += wts[i]
    for c in range(n_classes):
        dist[0, c] = 0.0
        dist[1, c] = cur[1, c]
    split = np.nan
    if m > 1:
        if use_count:
            D = n_distinct[att]
            off = dstart[att]
            for q in range(D + 1):
                cnt[q] = 0
            for q in range(m):
                cnt[rk[q] + 1] += 1
            for q in range(D):
                cnt[q + 1] += cnt[q]
            for q in range(m):
                p = cnt[rk[q]]
                pos[p] = q
                cnt[rk[q]] = p + 1
            for j in range(m):
                vals[j] = distinct[off + rk[pos[j]]]
        else:
            _sort_pairs(vals, pos, m, stack)
        # sum of x ln x over the 2 x C table (lx caches the cell terms); between two cuts the rows
        # only move weights, the terms of the classes they touched are refreshed at the next cut
        total = 0.0
        cells = 0.0
        for c in range(n_classes):
            total += cur[1, c]
            lx[0, c] = 0.0
            lx[1, c] = _xlogx(cur[1, c])
            cells += lx[1, c]
            dirty[c] = False
        n_dirty = 0
        left = 0.0
        best = -np.inf
        tol = 1e-12 * total
        prev = vals[0]
        for j in range(m):
            v = vals[j]
            if v > prev:
                for q in range(n_dirty):
                    c = dirty_list[q]
                    dirty[c] = False
                    a = _xlogx(cur[0, c])
                    b = _xlogx(cur[1, c])
                    cells += a + b - lx[0, c] - lx[1, c]
                    lx[0, c] = a
                    lx[1, c] = b
                n_dirty = 0
                # the prior is the same for every cut: maximise -(conditional entropy) * total * ln 2
                g = cells - _xlogx(left) - _xlogx(total - left)
                if g > best + tol:
                    best = g
                    split = (v + prev) / 2.0
                    if split <= prev:
                        split = v
                    for c in range(n_classes):
                        dist[0, c] = cur[0, c]
                        dist[1, c] = cur[1, c]
                prev = v
            k = pos[j]
            c = ycls[k]
            w = wv[k]
            cur[0, c] += w
            cur[1, c] -= w
            left += w
            if not dirty[c]:
                dirty[c] = True
                dirty_list[n_dirty] = c
                n_dirty += 1
    _props_and_missing(Xc, y, rows, wts, start, end, att, 2, n_classes, dist, props, n_missing)
    return split


# --------------------------------------------------------------------------- growing
def ranks(Xc, nominal):
    """Dense ranks of every numeric attribute's values among its distinct training values (shared
    by all trees of a forest): (ranks int32 (d, n), -1 for NaN; n_distinct; dstart; distinct)."""
    d, n = Xc.shape
    Xr = np.full((d, n), -1, dtype=np.int32)
    n_distinct = np.zeros(d, dtype=np.int64)
    parts = []
    for a in range(d):
        if nominal[a]:
            parts.append(np.zeros(0))
            continue
        col = Xc[a]
        known = ~np.isnan(col)
        u, inv = np.unique(col[known], return_inverse=True)
        Xr[a, known] = inv
        n_distinct[a] = u.size
        parts.append(u)
    dstart = np.zeros(d, dtype=np.int64)
    if d:
        dstart[1:] = np.cumsum(n_distinct)[:-1]
    distinct = np.concatenate(parts) if parts else np.zeros(0)
    return Xr, n_distinct, dstart, distinct


@njit(cache=True)
def _grow_rows(rows, wts, need):
    cap = rows.shape[0]
    while cap < need:
        cap *= 2
    new_rows = np.empty(cap, dtype=np.int64)
    new_wts = np.empty(cap, dtype=np.float64)
    new_rows[: rows.shape[0]] = rows
    new_wts[: wts.shape[0]] = wts
    return new_rows, new_wts


@njit(cache=True, nogil=True)
def build_tree(Xc, Xr, n_distinct, dstart, distinct, y, w0, nominal, n_values, n_classes, k_value, min_num,
               max_depth, seed):
    """Grow one Weka 3.6 RandomTree on the rows with positive weight ``w0`` (bag counts).

    ``Xc`` is (n_features, n_rows), one attribute per row; nominal attributes hold codes
    0..n_values-1 or NaN. For numeric attributes, ``Xr`` holds each value's rank among the
    attribute's ``n_distinct`` distinct training values (-1 for NaN), which are
    ``distinct[dstart[a]:dstart[a] + n_distinct[a]]`` in ascending order (see :func:`ranks`). Returns per node: ``feature`` (-1 at leaves), ``threshold`` (numeric
    split point), ``first_child``, ``n_children``, ``prop`` (the node's share of its parent's
    known training weight: the weight of a missing value sent down this branch), ``value``
    (the class distribution returned at a leaf, normalised; an empty branch returns its
    parent's distribution, as Weka's ``distributionForInstance``) and ``weight`` (the node's
    training weight), ``child`` (int32 branch slots: branch b of node k is node
    ``child[first_child[k] + b]``) and the number of nodes Weka's tree has (``n_grown``).

    Empty branches are not stored. A multiway split has a branch per declared value, and on
    attributes with hundreds of values (diagnosis codes) almost all branches are empty: on a
    diabetes130 training half 97 % of a tree's 2.06 million nodes were empty leaves, at 104
    bytes each. An empty branch is a leaf with zero training weight whose answer is its
    parent's distribution; when its share ``prop`` is also 0, prediction never reaches it
    through a missing value and it holds no row while growing, so it needs no node: its slot
    holds -1 and a row taking it gets the parent's distribution (the same numbers the empty
    leaf held, added in the same order). The stored nodes keep the order they had among all
    nodes (a parent before its children, the branches of a node in order).
    """
    d = Xc.shape[0]
    n = Xc.shape[1]
    C = n_classes
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)

    # ---- rows of the root
    cnt = 0
    for i in range(n):
        if w0[i] > 0.0:
            cnt += 1
    cap = max(2 * cnt, 16)
    rows = np.empty(cap, dtype=np.int64)
    wts = np.empty(cap, dtype=np.float64)
    j = 0
    for i in range(n):
        if w0[i] > 0.0:
            rows[j] = i
            wts[j] = w0[i]
            j += 1
    top = cnt

    # ---- nodes
    ncap = 64
    feature = np.full(ncap, -1, dtype=np.int64)
    threshold = np.full(ncap, np.nan)
    first_child = np.zeros(ncap, dtype=np.int64)
    n_children = np.zeros(ncap, dtype=np.int64)
    prop = np.ones(ncap)
    parent = np.full(ncap, -1, dtype=np.int64)
    value = np.zeros((ncap, C))
    for i in range(cnt):
        value[0, y[rows[i]]] += wts[i]
    n_nodes = 1
    n_grown = 1
    child = np.empty(64, dtype=np.int32)
    n_slots = 0

    # ---- stack of (node, start, end, depth)
    scap = 64
    st = np.empty((scap, 4), dtype=np.int64)
    st[0, 0] = 0
    st[0, 1] = 0
    st[0, 2] = cnt
    st[0, 3] = 0
    sp = 1

    window = np.arange(d)
    max_br = 2
    for a in range(d):
        if nominal[a] and n_values[a] > max_br:
            max_br = n_values[a]
    cur = np.zeros((max_br, C))
    cur2 = np.zeros((2, C))
    best = np.zeros((max_br, C))
    props = np.zeros(max_br)
    best_props = np.zeros(max_br)
    vals = np.empty(max(n, 1))
    pos = np.empty(max(n, 1), dtype=np.int64)
    ycls = np.empty(max(n, 1), dtype=np.int64)
    wv = np.empty(max(n, 1))
    lx = np.zeros((2, C))
    sort_stack = np.empty((130, 2), dtype=np.int64)
    dirty = np.zeros(C, dtype=np.bool_)
    dirty_list = np.empty(C, dtype=np.int64)
    max_d = 0
    for a in range(d):
        if n_distinct[a] > max_d:
            max_d = n_distinct[a]
    cnt_scratch = np.empty(max_d + 1, dtype=np.int64)
    rk = np.empty(max(n, 1), dtype=np.int32)
    branch = np.empty(max(n, 1), dtype=np.int64)
    tmp_rows = np.empty(max(n, 1), dtype=np.int64)
    tmp_wts = np.empty(max(n, 1))
    counts = np.zeros(max_br + 1, dtype=np.int64)

    while sp > 0:
        sp -= 1
        node = st[sp, 0]
        start = st[sp, 1]
        end = st[sp, 2]
        depth = st[sp, 3]
        if end <= start:
            continue  # empty branch: a leaf with its parent's distribution (filled in at the end)
        W = 0.0
        top_c = 0.0
        for c in range(C):
            W += value[node, c]
            if value[node, c] > top_c:
                top_c = value[node, c]
        if W < 2.0 * min_num or abs(top_c - W) < SMALL or (max_depth > 0 and depth >= max_depth):
            continue  # leaf
        # ---- try attributes: K at random, more while none has a positive gain
        val = -np.inf
        best_att = 0
        best_split = np.nan
        best_nb = 0
        ws = d
        k = k_value
        gain_found = False
        while ws > 0 and (k > 0 or not gain_found):
            k -= 1
            ci = _rand_below(state, ws)
            att = window[ci]
            window[ci] = window[ws - 1]
            window[ws - 1] = att
            ws -= 1
            if nominal[att]:
                nb = n_values[att]
                split = np.nan
                _eval_nominal(Xc, y, rows, wts, start, end, att, nb, C, cur, props)
            else:
                nb = 2
                split = _eval_numeric(Xc, Xr, n_distinct, dstart, distinct, y, rows, wts, start, end, att, C, cur,
                                      props, cur2, vals, pos, ycls, wv, lx, sort_stack, dirty, dirty_list,
                                      cnt_scratch, rk)
            g = _gain(cur, nb, C)
            if g > SMALL:
                gain_found = True
            if g > val or (g == val and att < best_att):
                val = g
                best_att = att
                best_split = split
                best_nb = nb
                for b in range(nb):
                    best_props[b] = props[b]
                    for c in range(C):
                        best[b, c] = cur[b, c]
        if not (val > SMALL):
            continue  # no attribute with a positive gain: leaf
        # ---- make the split
        if n_nodes + best_nb > ncap:
            new_cap = ncap
            while new_cap < n_nodes + best_nb:
                new_cap *= 2
            f2 = np.full(new_cap, -1, dtype=np.int64)
            f2[:ncap] = feature
            feature = f2
            t2 = np.full(new_cap, np.nan)
            t2[:ncap] = threshold
            threshold = t2
            fc2 = np.zeros(new_cap, dtype=np.int64)
            fc2[:ncap] = first_child
            first_child = fc2
            nc2 = np.zeros(new_cap, dtype=np.int64)
            nc2[:ncap] = n_children
            n_children = nc2
            p2 = np.ones(new_cap)
            p2[:ncap] = prop
            prop = p2
            pa2 = np.full(new_cap, -1, dtype=np.int64)
            pa2[:ncap] = parent
            parent = pa2
            v2 = np.zeros((new_cap, C))
            v2[:ncap] = value
            value = v2
            ncap = new_cap
        if n_slots + best_nb > child.shape[0]:
            ccap = child.shape[0]
            while ccap < n_slots + best_nb:
                ccap *= 2
            ch2 = np.empty(ccap, dtype=np.int32)
            ch2[:n_slots] = child[:n_slots]
            child = ch2
        feature[node] = best_att
        threshold[node] = best_split
        first_child[node] = n_slots
        n_children[node] = best_nb
        n_grown += best_nb
        for b in range(best_nb):
            # an empty branch (no weight, zero share) gets no node: its slot holds -1 (see above)
            wb = 0.0
            for c in range(C):
                wb += best[b, c]
            if wb == 0.0 and best_props[b] == 0.0:
                child[n_slots + b] = -1
                continue
            child[n_slots + b] = n_nodes
            prop[n_nodes] = best_props[b]
            parent[n_nodes] = node
            for c in range(C):
                value[n_nodes, c] = best[b, c]
            n_nodes += 1
        fs = n_slots
        n_slots += best_nb
        # ---- send the rows down: branch of every row (-1 = missing)
        is_nom = nominal[best_att]
        n_missing = 0
        for b in range(best_nb + 1):
            counts[b] = 0
        for i in range(start, end):
            x = Xc[best_att, rows[i]]
            if np.isnan(x):
                b = -1
                n_missing += 1
            elif is_nom:
                b = np.int64(x)
            else:
                b = 0 if x < best_split else 1
            branch[i - start] = b
            if b >= 0:
                counts[b + 1] += 1
        if n_missing == 0:
            # in place: a stable counting sort of the segment by branch
            for b in range(best_nb):
                counts[b + 1] += counts[b]
            for i in range(start, end):
                b = branch[i - start]
                q = counts[b]
                tmp_rows[q] = rows[i]
                tmp_wts[q] = wts[i]
                counts[b] = q + 1
            for q in range(end - start):
                rows[start + q] = tmp_rows[q]
                wts[start + q] = tmp_wts[q]
            base = start
            # counts[b] is now the end offset of branch b
            child_start = np.empty(best_nb, dtype=np.int64)
            child_end = np.empty(best_nb, dtype=np.int64)
            lo = 0
            for b in range(best_nb):
                child_start[b] = base + lo
                child_end[b] = base + counts[b]
                lo = counts[b]
        else:
            need = 0
            for b in range(best_nb):
                need += counts[b + 1]
                if best_props[b] > 0.0:
                    need += n_missing
            if top + need > rows.shape[0]:
                rows, wts = _grow_rows(rows, wts, top + need)
            child_start = np.empty(best_nb, dtype=np.int64)
            child_end = np.empty(best_nb, dtype=np.int64)
            q = top
            for b in range(best_nb):
                child_start[b] = q
                pb = best_props[b]
                for i in range(start, end):
                    bi = branch[i - start]
                    if bi == b:
                        rows[q] = rows[i]
                        wts[q] = wts[i]
                        q += 1
                    elif bi < 0 and pb > 0.0:
                        rows[q] = rows[i]
                        wts[q] = wts[i] * pb
                        q += 1
                child_end[b] = q
            top = q
        # ---- push the branches, the first on top (Weka grows them in order)
        if sp + best_nb > scap:
            while scap < sp + best_nb:
                scap *= 2
            st2 = np.empty((scap, 4), dtype=np.int64)
            st2[:sp] = st[:sp]
            st = st2
        for b in range(best_nb - 1, -1, -1):
            if child[fs + b] < 0:
                continue  # holds no row: a row with a missing value goes only where the share is > 0
            st[sp, 0] = child[fs + b]
            st[sp, 1] = child_start[b]
            st[sp, 2] = child_end[b]
            st[sp, 3] = depth + 1
            sp += 1

    # ---- leaf distributions: normalised; an empty node answers with its parent's (in preorder
    # ids a parent precedes its children, so the parent's row is final when the child is read)
    weight = np.zeros(n_nodes)
    for node in range(n_nodes):
        s = 0.0
        for c in range(C):
            s += value[node, c]
        weight[node] = s
        if s > 0.0:
            for c in range(C):
                value[node, c] /= s
        elif parent[node] >= 0:
            for c in range(C):
                value[node, c] = value[parent[node], c]
    return (feature[:n_nodes].copy(), threshold[:n_nodes].copy(), first_child[:n_nodes].copy(),
            n_children[:n_nodes].copy(), prop[:n_nodes].copy(), value[:n_nodes].copy(), weight,
            child[:n_slots].copy(), n_grown)


# --------------------------------------------------------------------------- prediction
@njit(cache=True)
def pack_nodes(feature, first_slot, threshold, nominal):
    """One 32-byte record per node for prediction (feature, first branch slot, split point, 1.0
    when the split is nominal), so that a step down a tree touches one cache line."""
    m = feature.shape[0]
    out = np.empty((m, 4))
    for k in range(m):
        a = feature[k]
        out[k, 0] = a
        out[k, 1] = first_slot[k]
        out[k, 2] = threshold[k]
        out[k, 3] = 1.0 if a >= 0 and nominal[a] else 0.0
    return out


@njit(cache=True)
def predict_forest(X, roots, nodes, n_children, prop, value, child):
    """Sum over the trees (roots ``roots`` in the concatenated node arrays; ``nodes`` from
    :func:`pack_nodes`; branch b of node k is node ``child[nodes[k, 1] + b]``, -1 for an empty
    branch, see :func:`build_tree`) of each tree's class distribution for every row of ``X``;
    Weka's ``distributionForInstance``: an empty branch answers its parent's distribution; a
    missing split value follows every branch with the branch's share of the training weight and
    the distributions reached are added with those weights.
    Trees are the outer loop, so one tree stays in cache while all rows go down it."""
    n = X.shape[0]
    C = value.shape[1]
    out = np.zeros((n, C))
    cap = 64
    st_node = np.empty(cap, dtype=np.int64)
    st_w = np.empty(cap)
    for t in range(roots.shape[0]):
        root = roots[t]
        for r in range(n):
            st_node[0] = root
            st_w[0] = 1.0
            sp = 1
            while sp > 0:
                sp -= 1
                node = st_node[sp]
                w = st_w[sp]
                while True:
                    a = np.int64(nodes[node, 0])
                    if a < 0:
                        for c in range(C):
                            out[r, c] += w * value[node, c]
                        break
                    x = X[r, a]
                    fs = np.int64(nodes[node, 1])
                    if np.isnan(x):
                        nb = n_children[node]
                        if sp + nb > cap:
                            while cap < sp + nb:
                                cap *= 2
                            s2 = np.empty(cap, dtype=np.int64)
                            s2[:sp] = st_node[:sp]
                            st_node = s2
                            w2 = np.empty(cap)
                            w2[:sp] = st_w[:sp]
                            st_w = w2
                        for b in range(nb):
                            ch = np.int64(child[fs + b])
                            if ch >= 0:
                                pb = prop[ch]
                                if pb > 0.0:
                                    st_node[sp] = ch
                                    st_w[sp] = w * pb
                                    sp += 1
                        break
                    if nodes[node, 3] != 0.0:
                        ch = np.int64(child[fs + np.int64(x)])
                    elif x < nodes[node, 2]:
                        ch = np.int64(child[fs])
                    else:
                        ch = np.int64(child[fs + 1])
                    if ch < 0:  # empty branch: the parent's distribution
                        for c in range(C):
                            out[r, c] += w * value[node, c]
                        break
                    node = ch
    return out
