"""The anytime probability density query over a hierarchy of mixture densities.

One Numba engine serves MC-Tree and the Bayes tree. Both are flattened to the same arrays
(see :mod:`algorithms.anytime._model`): entries with per-class Gaussian components, an
overall Gaussian, the range of their child entries (none for kernels), the information gain
of refining them and their strongest class. The initial frontier is the set of root entries
(Kranen et al. Sec. 3.4, F_1); a refinement step replaces one frontier entry by the entries
of its subnode (Def. 6) and updates the per-class densities incrementally:

    pdq(x|c, F_{i+1}) = pdq(x|c, F_i) - n_{e,c}/|DB| g(x; e, c) + sum_i n_{e_i,c}/|DB| g(x; e_i, c)

so a step costs the Gaussians of the new entries only (O(fanout) per query). The engine runs a
batch of queries in one compiled loop.

Numerics: the per-class sums are kept relative to a per-query log reference; when a
subtraction cancels most of the running total (or a new term would overflow), the sums are
re-added from the stored log terms of the current frontier. No Gaussian is re-evaluated, so
the budget count is unaffected; the result equals Def. 6 up to rounding.

Budgets: each query records, for every budget b, the posterior of the last complete frontier
whose cost (Gaussians/kernels evaluated, ``use_clock=False``) or elapsed wall time
(``use_clock=True``, seconds since the query started) does not exceed b. Before the root
entries are evaluated the posterior is the class prior.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._kernels import diag_logpdf, monotonic_ns

#: refinement strategies (Sec. 3.4 meta strategies; Seidl et al. 2009 qbk)
K_BEST = 0  # k-best (k = 1: first-best)
K_CLASS = 1  # k-class
QBK = 2  # Bayes tree: the k most probable classes refined in turn, global best entry per class

STRATEGIES = {"first-best": K_BEST, "k-best": K_BEST, "k-class": K_CLASS, "qbk": QBK}

_RESUM_FRACTION = 1e-6  # re-add the frontier terms when the total falls below this share of its peak
_OVERFLOW_MARGIN = 600.0  # log-units above the reference that trigger a re-reference


@njit(cache=True)
def _better(qa, ea, qb, eb):
    """Higher quality first; ties go to the lower entry id (deterministic)."""
    return qa > qb or (qa == qb and ea < eb)


@njit(cache=True)
def _heap_push(ents, keys, off, size, e, key):
    i = size
    ents[off + i] = e
    keys[off + i] = key
    while i > 0:
        parent = (i - 1) // 2
        if _better(keys[off + i], ents[off + i], keys[off + parent], ents[off + parent]):
            te, tk = ents[off + i], keys[off + i]
            ents[off + i], keys[off + i] = ents[off + parent], keys[off + parent]
            ents[off + parent], keys[off + parent] = te, tk
            i = parent
        else:
            break


@njit(cache=True)
def _heap_pop_top(ents, keys, off, size):
    last = size - 1
    ents[off] = ents[off + last]
    keys[off] = keys[off + last]
    n = last
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        best = left
        right = left + 1
        if right < n and _better(keys[off + right], ents[off + right], keys[off + left], ents[off + left]):
            best = right
        if _better(keys[off + best], ents[off + best], keys[off + i], ents[off + i]):
            te, tk = ents[off + i], keys[off + i]
            ents[off + i], keys[off + i] = ents[off + best], keys[off + best]
            ents[off + best], keys[off + best] = te, tk
            i = best
        else:
            break


@njit(cache=True)
def _quality(e, logdens, ent_ig, alpha, logM):
    """Def. 7: alpha IG(e)/log|C| + (1 - alpha) n_e g(x; e) / max_{w in F} n_w g(x; w).
    With alpha = 0 the log density itself orders the entries identically."""
    if alpha == 0.0:
        return logdens[e]
    return alpha * ent_ig[e] + (1.0 - alpha) * math.exp(logdens[e] - logM)


@njit(cache=True)
def anytime_posteriors(Xq, budgets, use_clock, prior, n_roots,
                       ent_child_lo, ent_child_hi, ent_comp_lo, comp_class, comp_logw, comp_mean, comp_ivar,
                       comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single, ent_ig, ent_strong,
                       cand_off, strategy, k, alpha):
    """Anytime posteriors of a batch of queries at ascending ``budgets``.

    Returns ``(posteriors (B, n, C), units (B, n), seconds (B, n))``: the class posteriors at
    each budget and the Gaussians evaluated / seconds elapsed when that state was reached."""
    nq = Xq.shape[0]
    B = budgets.shape[0]
    C = prior.shape[0]
    E = ent_child_lo.shape[0]
    K = comp_class.shape[0]
    post = np.zeros((B, nq, C))
    units_at = np.zeros((B, nq))
    secs_at = np.zeros((B, nq))

    active = np.zeros(E, dtype=np.bool_)
    logdens = np.full(E, -np.inf)
    comp_logt = np.full(K, -np.inf)
    touched = np.empty(E, dtype=np.int64)
    cap = cand_off[C]
    cand_ent = np.empty(max(cap, 1), dtype=np.int64)
    cand_key = np.empty(max(cap, 1))
    cand_size = np.zeros(C, dtype=np.int64)
    heap_mode = alpha == 0.0
    kk = max(1, min(k, C))
    marked = np.empty(max(C, k), dtype=np.int64)
    S = np.zeros(C)
    post_last = np.empty(C)
    order_c = np.empty(C, dtype=np.int64)

    for q in range(nq):
        x = Xq[q]
        t0 = monotonic_ns()
        n_touched = 0
        spent = 0.0
        for c in range(C):
            cand_size[c] = 0
        n_marked = 0
        head = 0
        for c in range(C):
            post_last[c] = prior[c]
        units_last = 0.0
        secs_last = 0.0
        bi = 0

        # ---- initial frontier F_1 = root entries (Sec. 3.4)
        ref = -np.inf
        for e in range(n_roots):
            n_touched, spent = _activate(e, x, active, logdens, comp_logt, touched, n_touched, spent,
                                         ent_child_lo, ent_comp_lo, comp_logw, comp_mean, comp_ivar, comp_lognorm,
                                         ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single, ent_strong,
                                         cand_off, cand_ent, cand_key, cand_size, heap_mode)
        ref, peak = _resum(S, ref, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt)

        while True:
            # ---- a complete frontier: record the budgets it cannot serve, then make it the latest
            now_s = (monotonic_ns() - t0) * 1e-9
            clock = now_s if use_clock else spent
            while bi < B and budgets[bi] < clock:
                for c in range(C):
                    post[bi, q, c] = post_last[c]
                units_at[bi, q] = units_last
                secs_at[bi, q] = secs_last
                bi += 1
            _normalise(S, prior, post_last)
            units_last = spent
            secs_last = now_s
            if bi >= B:
                break
            # ---- choose the entry to refine (Sec. 3.4 meta strategies / qbk)
            e = -1
            if n_marked == 0:
                logM = _max_logdens(active, logdens, touched, n_touched) if not heap_mode else 0.0
                if strategy == QBK:
                    n_marked = _mark_qbk(S, kk, order_c, marked, cand_off, cand_ent, cand_key, cand_size,
                                         heap_mode, logdens, ent_ig, alpha, logM)
                    head = 0
                elif strategy == K_CLASS:
                    n_marked = _mark_k_class(kk if k > 0 else 1, marked, cand_off, cand_ent, cand_key, cand_size,
                                             heap_mode, logdens, ent_ig, alpha, logM)
                else:
                    n_marked = _mark_k_best(max(k, 1), marked, cand_off, cand_ent, cand_key, cand_size,
                                            heap_mode, logdens, ent_ig, alpha, logM)
                if n_marked == 0:
                    break  # nothing left to refine: the finest model (all kernels) is reached
            if strategy == QBK:
                e = marked[head]
                head += 1
                n_marked -= 1
            else:
                logM = _max_logdens(active, logdens, touched, n_touched) if not heap_mode else 0.0
                best = 0
                for i in range(1, n_marked):
                    if _better(_quality(marked[i], logdens, ent_ig, alpha, logM), marked[i],
                               _quality(marked[best], logdens, ent_ig, alpha, logM), marked[best]):
                        best = i
                e = marked[best]
                marked[best] = marked[n_marked - 1]
                n_marked -= 1
            # ---- Def. 6: remove e, insert its child entries, update the densities incrementally
            active[e] = False
            for kc in range(ent_comp_lo[e], ent_comp_lo[e + 1]):
                S[comp_class[kc]] -= math.exp(comp_logt[kc] - ref)
            top = -np.inf
            first = n_touched
            for ch in range(ent_child_lo[e], ent_child_hi[e]):
                n_touched, spent = _activate(ch, x, active, logdens, comp_logt, touched, n_touched, spent,
                                             ent_child_lo, ent_comp_lo, comp_logw, comp_mean, comp_ivar,
                                             comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single,
                                             ent_strong, cand_off, cand_ent, cand_key, cand_size, heap_mode)
                for kc in range(ent_comp_lo[ch], ent_comp_lo[ch + 1]):
                    if comp_logt[kc] > top:
                        top = comp_logt[kc]
            if top - ref > _OVERFLOW_MARGIN:
                ref, peak = _resum(S, ref, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt)
            else:
                for t in range(first, n_touched):
                    ch = touched[t]
                    for kc in range(ent_comp_lo[ch], ent_comp_lo[ch + 1]):
                        S[comp_class[kc]] += math.exp(comp_logt[kc] - ref)
                total = 0.0
                for c in range(C):
                    total += S[c]
                if not (total > peak * _RESUM_FRACTION):
                    ref, peak = _resum(S, ref, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt)
                elif total > peak:
                    peak = total
        # the budgets beyond the finest model (or beyond the last step) get the latest state
        while bi < B:
            for c in range(C):
                post[bi, q, c] = post_last[c]
            units_at[bi, q] = units_last
            secs_at[bi, q] = secs_last
            bi += 1
        for t in range(n_touched):
            active[touched[t]] = False
    return post, units_at, secs_at


@njit(cache=True)
def _activate(e, x, active, logdens, comp_logt, touched, n_touched, spent, ent_child_lo, ent_comp_lo, comp_logw,
              comp_mean, comp_ivar, comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single, ent_strong,
              cand_off, cand_ent, cand_key, cand_size, heap_mode):
    """Put entry e into the frontier: evaluate its per-class Gaussians (Def. 5 terms) and,
    unless it has a single class, its overall Gaussian (Def. 7 density); refinable entries
    join the candidates of their strongest class."""
    active[e] = True
    touched[n_touched] = e
    n_touched += 1
    k0, k1 = ent_comp_lo[e], ent_comp_lo[e + 1]
    for kc in range(k0, k1):
        comp_logt[kc] = comp_logw[kc] + diag_logpdf(x, comp_mean[kc], comp_ivar[kc], comp_lognorm[kc])
    if ent_single[e]:
        logdens[e] = comp_logt[k0]
        spent += 1.0
    else:
        logdens[e] = ent_logw[e] + diag_logpdf(x, ent_mean[e], ent_ivar[e], ent_lognorm[e])
        spent += (k1 - k0) + 1.0
    if ent_child_lo[e] >= 0:
        c = ent_strong[e]
        if heap_mode:
            _heap_push(cand_ent, cand_key, cand_off[c], cand_size[c], e, logdens[e])
        else:
            cand_ent[cand_off[c] + cand_size[c]] = e
        cand_size[c] += 1
    return n_touched, spent


@njit(cache=True)
def _resum(S, ref, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt):
    """Re-add the frontier's stored log terms relative to their maximum. Returns (ref, total)."""
    new_ref = -np.inf
    for t in range(n_touched):
        e = touched[t]
        if active[e]:
            for kc in range(ent_comp_lo[e], ent_comp_lo[e + 1]):
                if comp_logt[kc] > new_ref:
                    new_ref = comp_logt[kc]
    S[:] = 0.0
    for t in range(n_touched):
        e = touched[t]
        if active[e]:
            for kc in range(ent_comp_lo[e], ent_comp_lo[e + 1]):
                S[comp_class[kc]] += math.exp(comp_logt[kc] - new_ref)
    total = 0.0
    for c in range(S.shape[0]):
        total += S[c]
    return new_ref, total


@njit(cache=True)
def _normalise(S, prior, out):
    total = 0.0
    for c in range(S.shape[0]):
        total += max(S[c], 0.0)
    if not (total > 0.0) or not np.isfinite(total):
        out[:] = prior
        return
    for c in range(S.shape[0]):
        out[c] = max(S[c], 0.0) / total


@njit(cache=True)
def _max_logdens(active, logdens, touched, n_touched):
    m = -np.inf
    for t in range(n_touched):
        e = touched[t]
        if active[e] and logdens[e] > m:
            m = logdens[e]
    return m


@njit(cache=True)
def _peek(c, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM):
    """(position, entry, quality) of the best candidate of class c."""
    off = cand_off[c]
    if heap_mode:
        return off, cand_ent[off], cand_key[off]
    best = off
    bq = _quality(cand_ent[off], logdens, ent_ig, alpha, logM)
    for p in range(off + 1, off + cand_size[c]):
        qv = _quality(cand_ent[p], logdens, ent_ig, alpha, logM)
        if _better(qv, cand_ent[p], bq, cand_ent[best]):
            best, bq = p, qv
    return best, cand_ent[best], bq


@njit(cache=True)
def _take(c, pos, cand_off, cand_ent, cand_key, cand_size, heap_mode):
    """Remove the candidate at ``pos`` (the top, in heap mode) from class c."""
    if heap_mode:
        _heap_pop_top(cand_ent, cand_key, cand_off[c], cand_size[c])
    else:
        last = cand_off[c] + cand_size[c] - 1
        cand_ent[pos] = cand_ent[last]
    cand_size[c] -= 1


@njit(cache=True)
def _mark_k_best(k, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM):
    """k-best (Sec. 3.4): mark the k best entries of the frontier."""
    n = 0
    C = cand_size.shape[0]
    for r in range(min(k, marked.shape[0])):
        bc, bpos, be, bq = -1, -1, -1, -np.inf
        for c in range(C):
            if cand_size[c] == 0:
                continue
            pos, e, qv = _peek(c, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM)
            if bc < 0 or _better(qv, e, bq, be):
                bc, bpos, be, bq = c, pos, e, qv
        if bc < 0:
            break
        _take(bc, bpos, cand_off, cand_ent, cand_key, cand_size, heap_mode)
        marked[n] = be
        n += 1
    return n


@njit(cache=True)
def _mark_k_class(k, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM):
    """k-class (Sec. 3.4): e*_c = the best entry whose strongest class is c; mark the k best
    of {e*_c}."""
    C = cand_size.shape[0]
    pos_c = np.full(C, -1, dtype=np.int64)
    ent_c = np.full(C, -1, dtype=np.int64)
    q_c = np.full(C, -np.inf)
    for c in range(C):
        if cand_size[c] > 0:
            pos_c[c], ent_c[c], q_c[c] = _peek(c, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens,
                                               ent_ig, alpha, logM)
    n = 0
    for r in range(k):
        bc = -1
        for c in range(C):
            if ent_c[c] < 0:
                continue
            if bc < 0 or _better(q_c[c], ent_c[c], q_c[bc], ent_c[bc]):
                bc = c
        if bc < 0:
            break
        _take(bc, pos_c[bc], cand_off, cand_ent, cand_key, cand_size, heap_mode)
        marked[n] = ent_c[bc]
        n += 1
        ent_c[bc] = -1
    return n


@njit(cache=True)
def _mark_qbk(S, k, order_c, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha,
              logM):
    """qbk (Seidl et al. 2009): the k classes with the highest current posterior (among those
    with refinable entries) are refined in turn, each at its best entry (global best descent:
    the highest density n_e g(x; e) in that class's frontier)."""
    C = S.shape[0]
    n_ok = 0
    for c in range(C):
        if cand_size[c] > 0:
            order_c[n_ok] = c
            n_ok += 1
    # partial selection sort by posterior, ties to the lower class code
    m = min(k, n_ok)
    for r in range(m):
        best = r
        for i in range(r + 1, n_ok):
            ci, cb = order_c[i], order_c[best]
            if S[ci] > S[cb] or (S[ci] == S[cb] and ci < cb):
                best = i
        tmp = order_c[r]
        order_c[r] = order_c[best]
        order_c[best] = tmp
    for r in range(m):
        c = order_c[r]
        pos, e, qv = _peek(c, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM)
        _take(c, pos, cand_off, cand_ent, cand_key, cand_size, heap_mode)
        marked[r] = e
    return m
