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

Numerics: the per-class sums are kept relative to a per-query log reference, with Neumaier's
compensated summation, so that subtracting a refined entry's term (which can exceed the
remaining total by many orders of magnitude) loses no accuracy. When the total falls far
below its peak (or a new term would overflow), the sums are re-added from the stored log
terms of the current frontier under a new reference. No Gaussian is re-evaluated, so the
budget count is unaffected; the result equals Def. 6 up to rounding.

Speed: the query loop (:func:`_run_queries`) is compiled without Numba's reference counting and
receives every buffer from its caller; its helpers are inlined. A step costs the Gaussians of
the new entries plus O(log) heap and tournament updates (the tournament over classes finds the
best candidate in O(1)); nothing per step is proportional to the frontier size, and the
number of classes enters once per round of k steps (k-class, qbk). With alpha > 0 the
normaliser of Def. 7 (the frontier maximum) changes from step to step, so the candidates are
scanned instead (O(frontier) per step).

Budgets: each query records, for every budget b, the posterior of the last complete frontier
whose cost (Gaussians/kernels evaluated, ``use_clock=False``) does not exceed b, or, with
``use_clock=True``, the frontier complete when b seconds (since the query started) had passed,
checked between steps. Before the root entries are evaluated the posterior is the class prior.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._kernels import monotonic_ns, row_logpdf

#: refinement strategies (Sec. 3.4 meta strategies; Seidl et al. 2009 qbk)
K_BEST = 0  # k-best (k = 1: first-best)
K_CLASS = 1  # k-class
QBK = 2  # Bayes tree: the k most probable classes refined in turn, global best entry per class

STRATEGIES = {"first-best": K_BEST, "k-best": K_BEST, "k-class": K_CLASS, "qbk": QBK}

_RESUM_FRACTION = 1e-12  # re-add the frontier terms when the total falls below this share of its peak
_OVERFLOW_MARGIN = 600.0  # log-units above the reference that trigger a re-reference


@njit(cache=True, inline="always")
def _add(S, Sc, c, x):
    """S[c] += x with Neumaier's compensation term kept in Sc[c]."""
    s = S[c]
    t = s + x
    if abs(s) >= abs(x):
        Sc[c] += (s - t) + x
    else:
        Sc[c] += (x - t) + s
    S[c] = t


@njit(cache=True, inline="always")
def _better(qa, ea, qb, eb):
    """Higher quality first; ties go to the lower entry id (deterministic)."""
    return qa > qb or (qa == qb and ea < eb)


@njit(cache=True, inline="always")
def _heap_push(ents, keys, off, size, e, key):
    """Push (key, e) onto the heap ``[off, off+size)``; returns True when it became the top."""
    i = size
    while i > 0:
        parent = (i - 1) // 2
        if _better(key, e, keys[off + parent], ents[off + parent]):
            ents[off + i], keys[off + i] = ents[off + parent], keys[off + parent]
            i = parent
        else:
            break
    ents[off + i] = e
    keys[off + i] = key
    return i == 0


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _quality(e, logdens, ent_ig, alpha, logM):
    """Def. 7: alpha IG(e)/log|C| + (1 - alpha) n_e g(x; e) / max_{w in F} n_w g(x; w).
    With alpha = 0 the log density itself orders the entries identically."""
    if alpha == 0.0:
        return logdens[e]
    return alpha * ent_ig[e] + (1.0 - alpha) * math.exp(logdens[e] - logM)


@njit(cache=True, inline="always")
def _add_class(S, Sc, c, x):
    """Add x to class c and to the total (kept at index C), both compensated."""
    _add(S, Sc, c, x)
    _add(S, Sc, S.shape[0] - 1, x)


@njit(cache=True, inline="always")
def _record(post, units_at, secs_at, bi, q, S, Sc, prior, spent, secs):
    C = prior.shape[0]
    total = 0.0
    for c in range(C):
        total += max(S[c] + Sc[c], 0.0)
    if total > 0.0 and np.isfinite(total):
        for c in range(C):
            post[bi, q, c] = max(S[c] + Sc[c], 0.0) / total
    else:
        for c in range(C):
            post[bi, q, c] = prior[c]
    units_at[bi, q] = spent
    secs_at[bi, q] = secs


@njit(cache=True, inline="always")
def _record_prior(post, units_at, secs_at, bi, q, prior, secs):
    for c in range(prior.shape[0]):
        post[bi, q, c] = prior[c]
    units_at[bi, q] = 0.0
    secs_at[bi, q] = secs


@njit(cache=True, inline="always")
def _tt_update(c, tt, P, cand_off, cand_ent, cand_key, cand_size, disabled):
    """Refresh class c in the tournament tree whose root tt[1] is the class holding the best
    candidate (heap mode): O(log C) per change instead of a scan over all classes."""
    i = P + c
    tt[i] = c if (cand_size[c] > 0 and not disabled[c]) else -1
    i //= 2
    while i >= 1:
        a = tt[2 * i]
        b = tt[2 * i + 1]
        if a < 0:
            w = b
        elif b < 0:
            w = a
        else:
            oa, ob = cand_off[a], cand_off[b]
            w = a if _better(cand_key[oa], cand_ent[oa], cand_key[ob], cand_ent[ob]) else b
        tt[i] = w
        i //= 2


@njit(cache=True)
def anytime_posteriors(Xq, budgets, use_clock, prior, n_roots, root_cost,
                       ent_child_lo, ent_child_hi, ent_comp_lo, comp_class, comp_logw, comp_mean, comp_ivar,
                       comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single, ent_ig, ent_strong,
                       ent_refine_cost, cand_off, strategy, k, alpha):
    """Anytime posteriors of a batch of queries at ascending ``budgets``.

    Returns ``(posteriors (B, n, C), units (B, n), seconds (B, n))``: the class posteriors at
    each budget and the Gaussians evaluated / seconds elapsed when that state was reached.

    Count budgets are exact: a step is done only if its Gaussians fit the budget. Time budgets
    are checked between steps, so a state may be reported up to one refinement step (about a
    microsecond) after its deadline."""
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
    P = 1
    while P < C:
        P *= 2
    tt = np.full(2 * P, -1, dtype=np.int64)
    disabled = np.zeros(C, dtype=np.bool_)
    kk = max(1, k)
    marked = np.empty(max(C, kk), dtype=np.int64)
    S = np.zeros(C + 1)  # per-class sums; index C holds their total
    Sc = np.zeros(C + 1)  # compensation terms
    order_c = np.empty(C, dtype=np.int64)
    pos_c = np.empty(C, dtype=np.int64)
    ent_c = np.empty(C, dtype=np.int64)
    q_c = np.empty(C)
    x = np.empty(Xq.shape[1])
    _run_queries(Xq, budgets, use_clock, prior, n_roots, root_cost, ent_child_lo, ent_child_hi, ent_comp_lo,
                 comp_class, comp_logw, comp_mean, comp_ivar, comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm,
                 ent_single, ent_ig, ent_strong, ent_refine_cost, cand_off, strategy, k, alpha,
                 post, units_at, secs_at, active, logdens, comp_logt, touched, cand_ent, cand_key, cand_size, tt,
                 disabled, marked, S, Sc, order_c, pos_c, ent_c, q_c, x)
    return post, units_at, secs_at


@njit(cache=True, _nrt=False)
def _run_queries(Xq, budgets, use_clock, prior, n_roots, root_cost, ent_child_lo, ent_child_hi, ent_comp_lo,
                 comp_class, comp_logw, comp_mean, comp_ivar, comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm,
                 ent_single, ent_ig, ent_strong, ent_refine_cost, cand_off, strategy, k, alpha,
                 post, units_at, secs_at, active, logdens, comp_logt, touched, cand_ent, cand_key, cand_size, tt,
                 disabled, marked, S, Sc, order_c, pos_c, ent_c, q_c, x):
    """The query loop, compiled without reference counting (every buffer comes from the caller),
    so the many small helpers it inlines cost no atomic operations."""
    nq = Xq.shape[0]
    B = budgets.shape[0]
    C = prior.shape[0]
    heap_mode = alpha == 0.0
    P = tt.shape[0] // 2
    kk = max(1, k)

    for q in range(nq):
        for j in range(Xq.shape[1]):
            x[j] = Xq[q, j]
        t0 = monotonic_ns()
        n_touched = 0
        spent = 0.0
        for c in range(C):
            cand_size[c] = 0
            disabled[c] = False
        for i in range(2 * P):
            tt[i] = -1
        n_marked = 0
        head = 0
        bi = 0
        # ---- before the root entries are read, only the prior is known
        if use_clock:
            now_s = (monotonic_ns() - t0) * 1e-9
            while bi < B and budgets[bi] < now_s:
                _record_prior(post, units_at, secs_at, bi, q, prior, now_s)
                bi += 1
        else:
            while bi < B and budgets[bi] < root_cost:
                _record_prior(post, units_at, secs_at, bi, q, prior, 0.0)
                bi += 1
        if bi >= B:
            continue
        # ---- initial frontier F_1 = root entries (Sec. 3.4)
        for e in range(n_roots):
            n_touched, spent = _activate(e, x, active, logdens, comp_logt, touched, n_touched, spent,
                                         ent_child_lo, ent_comp_lo, comp_logw, comp_mean, comp_ivar, comp_lognorm,
                                         ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single, ent_strong,
                                         cand_off, cand_ent, cand_key, cand_size, heap_mode, tt, P, disabled)
        spent = root_cost  # the model's unit count (class Gaussians or entries, see _model.build_model)
        ref, peak = _resum(S, Sc, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt)

        while bi < B:
            # ---- choose the entry to refine (Sec. 3.4 meta strategies / qbk)
            if n_marked == 0:
                logM = 0.0 if heap_mode else _max_logdens(active, logdens, touched, n_touched)
                head = 0
                if strategy == QBK:
                    n_marked = _mark_qbk(S, Sc, min(kk, C), order_c, marked, cand_off, cand_ent, cand_key,
                                         cand_size, heap_mode, logdens, ent_ig, alpha, logM, tt, P, disabled)
                elif strategy == K_CLASS:
                    n_marked = _mark_k_class(min(kk, C), marked, cand_off, cand_ent, cand_key, cand_size,
                                             heap_mode, logdens, ent_ig, alpha, logM, tt, P, disabled, pos_c, ent_c,
                                             q_c)
                else:
                    n_marked = _mark_k_best(kk, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode,
                                            logdens, ent_ig, alpha, logM, tt, P, disabled)
                if n_marked == 0:
                    break  # nothing left to refine: the finest model (all kernels) is reached
            if heap_mode or strategy == QBK:
                # static keys: the marked entries are already in refinement order
                e = marked[head]
                head += 1
            else:
                # "select the best out of these" (k-best, k-class) with the current normaliser
                logM = _max_logdens(active, logdens, touched, n_touched)
                best = head
                for i in range(head + 1, head + n_marked):
                    if _better(_quality(marked[i], logdens, ent_ig, alpha, logM), marked[i],
                               _quality(marked[best], logdens, ent_ig, alpha, logM), marked[best]):
                        best = i
                e = marked[best]
                marked[best] = marked[head]
                head += 1
            n_marked -= 1
            # ---- budgets this step would exceed get the current frontier's posterior
            if use_clock:
                now_s = (monotonic_ns() - t0) * 1e-9
                while bi < B and budgets[bi] < now_s:
                    _record(post, units_at, secs_at, bi, q, S, Sc, prior, spent, now_s)
                    bi += 1
            else:
                nxt = spent + ent_refine_cost[e]
                if bi < B and budgets[bi] < nxt:
                    now_s = (monotonic_ns() - t0) * 1e-9
                    while bi < B and budgets[bi] < nxt:
                        _record(post, units_at, secs_at, bi, q, S, Sc, prior, spent, now_s)
                        bi += 1
            if bi >= B:
                break
            # ---- Def. 6: remove e, insert its child entries, update the densities incrementally
            active[e] = False
            for kc in range(ent_comp_lo[e], ent_comp_lo[e + 1]):
                _add_class(S, Sc, comp_class[kc], -math.exp(comp_logt[kc] - ref))
            top = -np.inf
            first = n_touched
            spent_before = spent
            for ch in range(ent_child_lo[e], ent_child_hi[e]):
                n_touched, spent = _activate(ch, x, active, logdens, comp_logt, touched, n_touched, spent,
                                             ent_child_lo, ent_comp_lo, comp_logw, comp_mean, comp_ivar,
                                             comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single,
                                             ent_strong, cand_off, cand_ent, cand_key, cand_size, heap_mode,
                                             tt, P, disabled)
                for kc in range(ent_comp_lo[ch], ent_comp_lo[ch + 1]):
                    if comp_logt[kc] > top:
                        top = comp_logt[kc]
            spent = spent_before + ent_refine_cost[e]
            if top - ref > _OVERFLOW_MARGIN:
                ref, peak = _resum(S, Sc, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt)
            else:
                for t in range(first, n_touched):
                    ch = touched[t]
                    for kc in range(ent_comp_lo[ch], ent_comp_lo[ch + 1]):
                        _add_class(S, Sc, comp_class[kc], math.exp(comp_logt[kc] - ref))
                total = S[C] + Sc[C]
                if not (total > peak * _RESUM_FRACTION):
                    ref, peak = _resum(S, Sc, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt)
                elif total > peak:
                    peak = total
        # the budgets beyond the finest model get the final posterior
        if bi < B:
            now_s = (monotonic_ns() - t0) * 1e-9
            while bi < B:
                _record(post, units_at, secs_at, bi, q, S, Sc, prior, spent, now_s)
                bi += 1
        for t in range(n_touched):
            active[touched[t]] = False


@njit(cache=True, inline="always")
def _activate(e, x, active, logdens, comp_logt, touched, n_touched, spent, ent_child_lo, ent_comp_lo, comp_logw,
              comp_mean, comp_ivar, comp_lognorm, ent_logw, ent_mean, ent_ivar, ent_lognorm, ent_single, ent_strong,
              cand_off, cand_ent, cand_key, cand_size, heap_mode, tt, P, disabled):
    """Put entry e into the frontier: evaluate its per-class Gaussians (Def. 5 terms) and,
    unless it has a single class, its overall Gaussian (Def. 7 density); refinable entries
    join the candidates of their strongest class."""
    active[e] = True
    touched[n_touched] = e
    n_touched += 1
    k0, k1 = ent_comp_lo[e], ent_comp_lo[e + 1]
    for kc in range(k0, k1):
        comp_logt[kc] = comp_logw[kc] + row_logpdf(x, comp_mean, comp_ivar, kc, comp_lognorm[kc])
    if ent_single[e]:
        logdens[e] = comp_logt[k0]
        spent += 1.0
    else:
        logdens[e] = ent_logw[e] + row_logpdf(x, ent_mean, ent_ivar, e, ent_lognorm[e])
        spent += (k1 - k0) + 1.0
    if ent_child_lo[e] >= 0:
        c = ent_strong[e]
        if heap_mode:
            new_top = _heap_push(cand_ent, cand_key, cand_off[c], cand_size[c], e, logdens[e])
            cand_size[c] += 1
            if new_top:
                _tt_update(c, tt, P, cand_off, cand_ent, cand_key, cand_size, disabled)
        else:
            cand_ent[cand_off[c] + cand_size[c]] = e
            cand_size[c] += 1
    return n_touched, spent


@njit(cache=True, inline="always")
def _resum(S, Sc, active, touched, n_touched, ent_comp_lo, comp_class, comp_logt):
    """Re-add the frontier's stored log terms relative to their maximum. Returns (ref, total)."""
    new_ref = -np.inf
    for t in range(n_touched):
        e = touched[t]
        if active[e]:
            for kc in range(ent_comp_lo[e], ent_comp_lo[e + 1]):
                if comp_logt[kc] > new_ref:
                    new_ref = comp_logt[kc]
    S[:] = 0.0
    Sc[:] = 0.0
    for t in range(n_touched):
        e = touched[t]
        if active[e]:
            for kc in range(ent_comp_lo[e], ent_comp_lo[e + 1]):
                _add_class(S, Sc, comp_class[kc], math.exp(comp_logt[kc] - new_ref))
    C = S.shape[0] - 1
    return new_ref, S[C] + Sc[C]


@njit(cache=True, inline="always")
def _max_logdens(active, logdens, touched, n_touched):
    m = -np.inf
    for t in range(n_touched):
        e = touched[t]
        if active[e] and logdens[e] > m:
            m = logdens[e]
    return m


@njit(cache=True, inline="always")
def _scan_best(c, cand_off, cand_ent, cand_size, logdens, ent_ig, alpha, logM):
    """(position, entry, quality) of the best candidate of class c (list mode, alpha > 0)."""
    off = cand_off[c]
    best = off
    bq = _quality(cand_ent[off], logdens, ent_ig, alpha, logM)
    for p in range(off + 1, off + cand_size[c]):
        qv = _quality(cand_ent[p], logdens, ent_ig, alpha, logM)
        if _better(qv, cand_ent[p], bq, cand_ent[best]):
            best, bq = p, qv
    return best, cand_ent[best], bq


@njit(cache=True, inline="always")
def _take_top(c, cand_off, cand_ent, cand_key, cand_size, tt, P, disabled):
    """Pop the best candidate of class c (heap mode) and refresh the tournament tree."""
    e = cand_ent[cand_off[c]]
    _heap_pop_top(cand_ent, cand_key, cand_off[c], cand_size[c])
    cand_size[c] -= 1
    _tt_update(c, tt, P, cand_off, cand_ent, cand_key, cand_size, disabled)
    return e


@njit(cache=True, inline="always")
def _take_at(c, pos, cand_off, cand_ent, cand_size):
    """Remove the candidate at ``pos`` of class c (list mode)."""
    last = cand_off[c] + cand_size[c] - 1
    e = cand_ent[pos]
    cand_ent[pos] = cand_ent[last]
    cand_size[c] -= 1
    return e


@njit(cache=True, inline="always")
def _mark_k_best(k, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM,
                 tt, P, disabled):
    """k-best (Sec. 3.4): mark the k best entries of the frontier (k = 1: first-best)."""
    n = 0
    C = cand_size.shape[0]
    for r in range(min(k, marked.shape[0])):
        if heap_mode:
            c = tt[1]
            if c < 0:
                break
            marked[n] = _take_top(c, cand_off, cand_ent, cand_key, cand_size, tt, P, disabled)
        else:
            bc, bpos, be, bq = -1, -1, -1, -np.inf
            for c in range(C):
                if cand_size[c] == 0:
                    continue
                pos, e, qv = _scan_best(c, cand_off, cand_ent, cand_size, logdens, ent_ig, alpha, logM)
                if bc < 0 or _better(qv, e, bq, be):
                    bc, bpos, be, bq = c, pos, e, qv
            if bc < 0:
                break
            marked[n] = _take_at(bc, bpos, cand_off, cand_ent, cand_size)
        n += 1
    return n


@njit(cache=True, inline="always")
def _mark_k_class(k, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha, logM,
                  tt, P, disabled, pos_c, ent_c, q_c):
    """k-class (Sec. 3.4): e*_c = the best entry whose strongest class is c; mark the k best
    of {e*_c} (so the k marked entries have k different strongest classes)."""
    C = cand_size.shape[0]
    n = 0
    if heap_mode:
        for r in range(k):
            c = tt[1]
            if c < 0:
                break
            disabled[c] = True  # one entry per class and round
            marked[n] = _take_top(c, cand_off, cand_ent, cand_key, cand_size, tt, P, disabled)
            n += 1
        for c in range(C):
            if disabled[c]:
                disabled[c] = False
                _tt_update(c, tt, P, cand_off, cand_ent, cand_key, cand_size, disabled)
        return n
    for c in range(C):
        pos_c[c], ent_c[c], q_c[c] = -1, -1, -np.inf
        if cand_size[c] > 0:
            pos_c[c], ent_c[c], q_c[c] = _scan_best(c, cand_off, cand_ent, cand_size, logdens, ent_ig, alpha, logM)
    for r in range(k):
        bc = -1
        for c in range(C):
            if ent_c[c] < 0:
                continue
            if bc < 0 or _better(q_c[c], ent_c[c], q_c[bc], ent_c[bc]):
                bc = c
        if bc < 0:
            break
        marked[n] = _take_at(bc, pos_c[bc], cand_off, cand_ent, cand_size)
        n += 1
        ent_c[bc] = -1
    return n


@njit(cache=True, inline="always")
def _mark_qbk(S, Sc, k, order_c, marked, cand_off, cand_ent, cand_key, cand_size, heap_mode, logdens, ent_ig, alpha,
              logM, tt, P, disabled):
    """qbk (Seidl et al. 2009): the k classes with the highest current posterior (among those
    with refinable entries) are refined in turn, each at its best entry (global best descent:
    the highest density n_e g(x; e) in that class's frontier)."""
    C = cand_size.shape[0]
    n_ok = 0
    for c in range(C):
        if cand_size[c] > 0:
            order_c[n_ok] = c
            n_ok += 1
    m = min(k, n_ok)
    for r in range(m):  # partial selection sort by posterior, ties to the lower class code
        best = r
        for i in range(r + 1, n_ok):
            ci, cb = order_c[i], order_c[best]
            si, sb = S[ci] + Sc[ci], S[cb] + Sc[cb]
            if si > sb or (si == sb and ci < cb):
                best = i
        tmp = order_c[r]
        order_c[r] = order_c[best]
        order_c[best] = tmp
    for r in range(m):
        c = order_c[r]
        if heap_mode:
            marked[r] = _take_top(c, cand_off, cand_ent, cand_key, cand_size, tt, P, disabled)
        else:
            pos, e, qv = _scan_best(c, cand_off, cand_ent, cand_size, logdens, ent_ig, alpha, logM)
            marked[r] = _take_at(c, pos, cand_off, cand_ent, cand_size)
    return m
