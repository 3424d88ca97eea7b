"""R-tree construction by standard inserts (Guttman 1984: ChooseLeaf by least volume
enlargement, quadratic split), in Numba, for the Bayes tree of Seidl et al. (2009).

Nodes live in flat arrays; the boxes of leaf entries are their points. Volumes are products of
box sides each padded by ``eps`` (a small fraction of a standard deviation), so that point
entries and flat boxes do not all have volume 0 and Guttman's criteria stay informative on
data with ties (e.g. integer-valued attributes)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _volume(lo, hi, eps):
    v = 1.0
    for j in range(lo.shape[0]):
        v *= hi[j] - lo[j] + eps
    return v


@njit(cache=True)
def _union_volume(lo_a, hi_a, lo_b, hi_b, eps):
    v = 1.0
    for j in range(lo_a.shape[0]):
        v *= max(hi_a[j], hi_b[j]) - min(lo_a[j], lo_b[j]) + eps
    return v


@njit(cache=True)
def _entry_box(Z, is_leaf, child, lo, hi, v, i, out_lo, out_hi):
    """Box of the i-th entry of node v (a point in a leaf, a child node's box otherwise)."""
    e = child[v, i]
    if is_leaf[v]:
        out_lo[:] = Z[e]
        out_hi[:] = Z[e]
    else:
        out_lo[:] = lo[e]
        out_hi[:] = hi[e]


@njit(cache=True)
def _recompute_box(Z, is_leaf, count, child, lo, hi, v):
    d = Z.shape[1]
    for j in range(d):
        lo[v, j] = np.inf
        hi[v, j] = -np.inf
    for i in range(count[v]):
        e = child[v, i]
        for j in range(d):
            a = Z[e, j] if is_leaf[v] else lo[e, j]
            b = Z[e, j] if is_leaf[v] else hi[e, j]
            if a < lo[v, j]:
                lo[v, j] = a
            if b > hi[v, j]:
                hi[v, j] = b


@njit(cache=True)
def _quadratic_split(Z, is_leaf, count, child, lo, hi, parent, v, new, min_fill, eps):
    """Guttman's quadratic split of the overfull node v into v and the empty node ``new``."""
    d = Z.shape[1]
    n = count[v]
    elo = np.empty((n, d))
    ehi = np.empty((n, d))
    ids = child[v, :n].copy()
    for i in range(n):
        _entry_box(Z, is_leaf, child, lo, hi, v, i, elo[i], ehi[i])
    vol = np.empty(n)
    for i in range(n):
        vol[i] = _volume(elo[i], ehi[i], eps)
    # PickSeeds: the pair wasting the most volume
    s1, s2, worst = 0, 1, -np.inf
    for a in range(n):
        for b in range(a + 1, n):
            waste = _union_volume(elo[a], ehi[a], elo[b], ehi[b], eps) - vol[a] - vol[b]
            if waste > worst:
                worst, s1, s2 = waste, a, b
    group = np.full(n, -1, dtype=np.int64)
    group[s1], group[s2] = 0, 1
    glo = np.empty((2, d))
    ghi = np.empty((2, d))
    glo[0], ghi[0] = elo[s1], ehi[s1]
    glo[1], ghi[1] = elo[s2], ehi[s2]
    gcount = np.array([1, 1])
    left = n - 2
    while left > 0:
        # a group that needs every remaining entry to reach the minimum fill takes them all
        forced = -1
        for g in range(2):
            if gcount[g] + left == min_fill:
                forced = g
        if forced >= 0:
            for i in range(n):
                if group[i] < 0:
                    group[i] = forced
                    gcount[forced] += 1
                    for j in range(d):
                        glo[forced, j] = min(glo[forced, j], elo[i, j])
                        ghi[forced, j] = max(ghi[forced, j], ehi[i, j])
            break
        # PickNext: the entry with the strongest preference for one group
        gvol0 = _volume(glo[0], ghi[0], eps)
        gvol1 = _volume(glo[1], ghi[1], eps)
        pick, pref, d0p, d1p = -1, -1.0, 0.0, 0.0
        for i in range(n):
            if group[i] >= 0:
                continue
            d0 = _union_volume(glo[0], ghi[0], elo[i], ehi[i], eps) - gvol0
            d1 = _union_volume(glo[1], ghi[1], elo[i], ehi[i], eps) - gvol1
            if abs(d0 - d1) > pref:
                pick, pref, d0p, d1p = i, abs(d0 - d1), d0, d1
        if d0p < d1p:
            g = 0
        elif d1p < d0p:
            g = 1
        elif gvol0 < gvol1:
            g = 0
        elif gvol1 < gvol0:
            g = 1
        elif gcount[0] <= gcount[1]:
            g = 0
        else:
            g = 1
        group[pick] = g
        gcount[g] += 1
        for j in range(d):
            glo[g, j] = min(glo[g, j], elo[pick, j])
            ghi[g, j] = max(ghi[g, j], ehi[pick, j])
        left -= 1
    c0, c1 = 0, 0
    for i in range(n):
        if group[i] == 0:
            child[v, c0] = ids[i]
            c0 += 1
        else:
            child[new, c1] = ids[i]
            c1 += 1
            if not is_leaf[v]:
                parent[ids[i]] = new
    count[v], count[new] = c0, c1
    is_leaf[new] = is_leaf[v]
    lo[v], hi[v] = glo[0], ghi[0]
    lo[new], hi[new] = glo[1], ghi[1]


@njit(cache=True)
def rtree_insert_all(Z, points, leaf_cap, dir_cap, leaf_min, dir_min, eps):
    """Insert ``points`` (row ids of Z, in insertion order) into an empty R-tree.

    Returns (is_leaf, count, child, parent, lo, hi, n_nodes, root)."""
    d = Z.shape[1]
    n = points.shape[0]
    max_nodes = 2 * n + 16
    width = max(leaf_cap, dir_cap) + 1
    is_leaf = np.zeros(max_nodes, dtype=np.bool_)
    count = np.zeros(max_nodes, dtype=np.int64)
    child = np.full((max_nodes, width), -1, dtype=np.int64)
    parent = np.full(max_nodes, -1, dtype=np.int64)
    lo = np.full((max_nodes, d), np.inf)
    hi = np.full((max_nodes, d), -np.inf)
    root = 0
    is_leaf[0] = True
    n_nodes = 1
    for t in range(n):
        p = points[t]
        x = Z[p]
        # ChooseLeaf: least volume enlargement, then least volume, then the first entry
        v = root
        while not is_leaf[v]:
            best, best_enl, best_vol = -1, np.inf, np.inf
            for i in range(count[v]):
                ch = child[v, i]
                vol = _volume(lo[ch], hi[ch], eps)
                enl = _union_volume(lo[ch], hi[ch], x, x, eps) - vol
                if enl < best_enl or (enl == best_enl and vol < best_vol):
                    best, best_enl, best_vol = ch, enl, vol
            v = best
        child[v, count[v]] = p
        count[v] += 1
        # AdjustTree: the boxes on the path grow to cover x
        u = v
        while u >= 0:
            for j in range(d):
                if x[j] < lo[u, j]:
                    lo[u, j] = x[j]
                if x[j] > hi[u, j]:
                    hi[u, j] = x[j]
            u = parent[u]
        # overflow: split and propagate upwards
        while count[v] > (leaf_cap if is_leaf[v] else dir_cap):
            new = n_nodes
            n_nodes += 1
            _quadratic_split(Z, is_leaf, count, child, lo, hi, parent, v, new,
                             leaf_min if is_leaf[v] else dir_min, eps)
            if v == root:
                r = n_nodes
                n_nodes += 1
                is_leaf[r] = False
                child[r, 0], child[r, 1] = v, new
                count[r] = 2
                parent[v], parent[new] = r, r
                _recompute_box(Z, is_leaf, count, child, lo, hi, r)
                root = r
                break
            par = parent[v]
            child[par, count[par]] = new
            count[par] += 1
            parent[new] = par
            v = par
    return is_leaf, count, child, parent, lo, hi, n_nodes, root
