"""Numba kernels of the HDP probability-tree smoother (``algorithms.hdp``).

The tree is flat arrays. Nodes are numbered level by level (root = 0, then the
class level, then each parent attribute in order), so a node's parent always has
a smaller id and a level is a contiguous id range ``level_start[d]:level_start[d+1]``.
Per node and value ``k``:

- ``customers[node, k]``: at a leaf, the data count n_k; at an inner node, the
  sum of its children's table counts t_k (the children's tables are the
  customers of their parent's restaurant);
- ``tables[node, k]``: the table count t_k, the latent variable the collapsed
  Gibbs sampler draws (Petitjean et al. 2018, Sect. 4; Zhang et al. 2020 Sect. 2.5).

Each node has a concentration, ``alpha[group[node]]``; nodes whose
concentrations are tied share a group. Randomness comes from a
``numpy.random.Generator`` passed in (Numba draws from its bit generator, so a
seed gives the same stream as NumPy would).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._libm_exp import LOWER as EXP_LOWER
from ._libm_exp import exp_nonpositive

#: Euler-Mascheroni constant
EULER_GAMMA = 0.5772156649015329
#: rows (n) of the cached log-Stirling table; beyond it, the corrected saddle-point approximation
STIRLING_ROW_LIMIT = 1 << 14
#: largest concentration the sampler keeps (the reference Java's Concentration.setConcentration cap)
ALPHA_MAX = 4000.0


# ----------------------------------------------------------------- special functions
@njit(cache=True)
def digamma(x):
    """psi(x) for x > 0: recurrence up to x >= 6, then the asymptotic series."""
    acc = 0.0
    while x < 6.0:
        acc -= 1.0 / x
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv2 * (1.0 / 12 - inv2 * (1.0 / 120 - inv2 * (1.0 / 252 - inv2 * (1.0 / 240 - inv2 / 132))))
    return acc + math.log(x) - 0.5 * inv - series


@njit(cache=True)
def trigamma(x):
    """psi'(x) for x > 0: recurrence up to x >= 6, then the asymptotic series."""
    acc = 0.0
    while x < 6.0:
        acc += 1.0 / (x * x)
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv + 0.5 * inv2 + inv * inv2 * (1.0 / 6 - inv2 * (1.0 / 30 - inv2 * (1.0 / 42 - inv2 / 30)))
    return acc + series


@njit(cache=True)
def _stirling_series_error(k):
    """log Gamma(k+1) minus Stirling's formula k log k - k + log(2 pi k)/2, for k >= 1."""
    return math.lgamma(k + 1.0) - (k * math.log(k) - k + 0.5 * math.log(2.0 * math.pi * k))


# ----------------------------------------------------------------- log Stirling numbers
@njit(cache=True)
def fill_log_stirling(table, old_rows, old_cols):
    """Fill ``table[n, t] = log S(n, t)`` (unsigned Stirling numbers of the first kind)
    for every cell outside the already-filled block ``[:old_rows, :old_cols]``.

    Closed forms on the edges (S(n, 1) = (n-1)!, S(n, n-1) = C(n, 2), S(n, n) = 1),
    elsewhere the recurrence S(n+1, t) = S(n, t-1) + n S(n, t) in the log domain.
    Each cell is a fixed function of (n, t), whatever the order of growth.
    """
    rows, cols = table.shape
    for n in range(rows):
        first_col = old_cols if n < old_rows else 0
        for t in range(first_col, cols):
            if t > n or (t == 0 and n > 0):
                table[n, t] = -np.inf
            elif t == n:
                table[n, t] = 0.0
            elif t == 1:
                table[n, t] = math.lgamma(n)
            elif t == n - 1:
                table[n, t] = math.log(0.5 * n * (n - 1.0))
            else:
                a = table[n - 1, t - 1]
                b = table[n - 1, t] + math.log(n - 1.0)
                hi = max(a, b)
                table[n, t] = hi + math.log(math.exp(a - hi) + math.exp(b - hi))


@njit(cache=True)
def log_stirling_asymptotic(n, t):
    """Saddle-point (Moser-Wyman) approximation of log S(n, t) for 3 <= t <= n - 2.

    S(n, t) is the coefficient of x^t in Gamma(x + n) / Gamma(x). With x solving
    x (psi(x + n) - psi(x)) = t and V = t - x^2 (psi'(x) - psi'(x + n)),
    log S ~ lgamma(n + x) - lgamma(x) - t log x - log(2 pi V) / 2. Subtracting
    Stirling's error for (t-1)! removes the O(1/t) bias of the small-x regime;
    the remaining error is below 1e-3 in log for n >= 16384 (``tests/test_hdp.py``).
    """
    nf = float(n)
    tf = float(t)
    # Newton on u = log x; f(x) = x (psi(x+n) - psi(x)) is increasing in u.
    u = math.log(max((tf - 1.0) / (digamma(nf) + EULER_GAMMA), 1e-12))
    lo_u, hi_u = -40.0, 40.0
    x = math.exp(u)
    var = 1.0
    for _ in range(100):
        x = math.exp(u)
        f = x * (digamma(x + nf) - digamma(x))
        var = f - x * x * (trigamma(x) - trigamma(x + nf))
        g = f - tf
        if g > 0.0:
            hi_u = u
        else:
            lo_u = u
        step = g / var if var > 0.0 else 0.0
        new_u = u - step
        if not (lo_u < new_u < hi_u) or var <= 0.0:
            new_u = 0.5 * (lo_u + hi_u)
        if abs(new_u - u) < 1e-13:
            u = new_u
            break
        u = new_u
    x = math.exp(u)
    var = tf - x * x * (trigamma(x) - trigamma(x + nf))
    return (math.lgamma(nf + x) - math.lgamma(x) - tf * u - 0.5 * math.log(2.0 * math.pi * var)
            - _stirling_series_error(tf - 1.0))


@njit(cache=True)
def log_stirling(table, n, t, misses):
    """log S(n, t): closed forms for t <= 1 and t >= n - 1, the cached table for
    other n < STIRLING_ROW_LIMIT (the caller sizes it), above it the closed form
    for t = 2 and the corrected saddle-point approximation.

    ``misses[0]`` counts lookups with n < STIRLING_ROW_LIMIT that the table did not
    cover (a sizing bug, reported by the Python side).
    """
    if t > n:
        return -np.inf
    if t == 0:
        return 0.0 if n == 0 else -np.inf
    # the closed forms give exactly the values fill_log_stirling stores for these cells
    if t == n:
        return 0.0
    if t == 1:
        return math.lgamma(n)  # S(n, 1) = (n-1)!
    if t == n - 1:
        return math.log(0.5 * n * (n - 1.0))  # S(n, n-1) = C(n, 2)
    if n < STIRLING_ROW_LIMIT:
        if n < table.shape[0] and t < table.shape[1]:
            return table[n, t]
        misses[0] += 1
    if t == 2:
        return math.lgamma(n) + math.log(digamma(float(n)) + EULER_GAMMA)  # S(n, 2) = (n-1)! H_{n-1}
    return log_stirling_asymptotic(n, t)


# ----------------------------------------------------------------- sampler state
@njit(cache=True)
def expected_tables(alpha, n):
    """Mean number of tables of a CRP with concentration alpha and n customers,
    alpha (psi(alpha + n) - psi(alpha)): the reference initialisation
    (ProbabilityNode.prepareForSamplingTk)."""
    return alpha * (digamma(alpha + n) - digamma(alpha))


@njit(cache=True)
def init_tables(customers, tables, customers_total, tables_total, parent, level_start, group, alpha, max_tables):
    """Bottom-up initial state. Leaves hold their data counts already. Each node
    gets t_k = n_k when n_k <= 1, else max(1, floor(expected tables)); an inner
    node's customers are the sum of its children's tables; the root has one table
    per value it has seen (t_k = min(n_k, 1), the reference's "GEM" root)."""
    n_nodes, n_values = customers.shape
    n_levels = level_start.shape[0] - 1
    for node in range(level_start[1], n_nodes):
        if node >= level_start[n_levels - 1]:
            continue  # leaves: customers are the data
        for k in range(n_values):
            customers[node, k] = 0
    for k in range(n_values):
        customers[0, k] = 0
    for depth in range(n_levels - 1, -1, -1):
        for node in range(level_start[depth], level_start[depth + 1]):
            total_n = 0
            total_t = 0
            a = alpha[group[node]]
            for k in range(n_values):
                n = customers[node, k]
                if node == 0:
                    t = 1 if n > 0 else 0
                elif n <= 1:
                    t = n
                else:
                    t = max(1, int(math.floor(expected_tables(a, float(n)))))
                    t = min(t, n, max_tables)
                tables[node, k] = t
                total_n += n
                total_t += t
                if node > 0:
                    customers[parent[node], k] += t
            customers_total[node] = total_n
            tables_total[node] = total_t


def active_values(level_start, bound):
    """The (node, value) pairs the sampler visits, in its order (levels from the leaves up,
    nodes and values ascending), as ``node * n_values + value``: the non-root pairs whose
    customer count can reach 2 (``bound``: an upper bound of every node's customers). The
    others keep t_k = n_k <= 1 for good, so skipping them changes no draw."""
    n_values = bound.shape[1]
    pairs = [np.flatnonzero(bound[level_start[d]:level_start[d + 1]].ravel() >= 2) + level_start[d] * n_values
             for d in range(level_start.shape[0] - 2, 0, -1)]
    return np.concatenate(pairs).astype(np.int64) if pairs else np.zeros(0, np.int64)


@njit(cache=True)
def fill_log_rising(alpha, rising_offset, log_rising, only_group):
    """``log_rising[rising_offset[g] + j] = log Gamma(alpha_g + j) - log Gamma(alpha_g)``
    for j < the group's length (all groups, or only ``only_group`` when >= 0)."""
    for g in range(alpha.shape[0]):
        if only_group >= 0 and g != only_group:
            continue
        acc = 0.0
        start = rising_offset[g]
        for i in range(rising_offset[g + 1] - start):
            log_rising[start + i] = acc
            acc += math.log(alpha[g] + i)


#: entries a lazy fill of ``log_rising`` adds beyond the one asked for
RISING_SLACK = 32


@njit(cache=True)
def extend_log_rising(g, upto, alpha, rising_offset, log_rising, rising_filled, rising_acc):
    """Make ``log_rising`` of group g valid for j < upto (at least; capped at the group's
    length), continuing the running sum of :func:`fill_log_rising` from entry
    ``rising_filled[g]``: every entry is the same sum of the same logs in the same
    order as the eager fill, so the values are bit-identical. ``rising_acc[g]`` holds
    the running sum at ``rising_filled[g]``."""
    start = rising_offset[g]
    length = rising_offset[g + 1] - start
    upto = min(upto + RISING_SLACK, length)
    f = rising_filled[g]
    if f >= upto:
        return
    acc = rising_acc[g] if f > 0 else 0.0
    a = alpha[g]
    for i in range(f, upto):
        log_rising[start + i] = acc
        acc += math.log(a + i)
    rising_acc[g] = acc
    rising_filled[g] = upto


@njit(cache=True)
def reset_root_tables(customers, tables, tables_total):
    """The root keeps one table per value it has customers for (reference sampleTks, root case)."""
    total = 0
    for k in range(customers.shape[1]):
        t = 1 if customers[0, k] > 0 else 0
        tables[0, k] = t
        total += t
    tables_total[0] = total


@njit(cache=True, inline="always")
def _resample_concentrations(customers_total, tables_total, alpha, log_alpha, group_fixed, group_ptr, group_nodes,
                             prior_shape, prior_rate, rising_offset, log_rising, rng, rising_filled):
    for g in range(alpha.shape[0]):
        if group_fixed[g]:
            continue
        a = alpha[g]
        rate = prior_rate
        sum_t = 0
        for i in range(group_ptr[g], group_ptr[g + 1]):
            node = group_nodes[i]
            n = customers_total[node]
            if n <= 0:
                continue
            q = max(rng.beta(a, float(n)), 1e-75)  # Alg. 4 line 4
            rate -= math.log(q)  # line 5
            sum_t += tables_total[node]  # line 6
        if rate <= 0.0:
            continue  # improper posterior (uniform prior, no data): keep alpha
        a = rng.gamma(sum_t + prior_shape, 1.0 / rate)  # line 8
        a = min(max(a, 1e-10), ALPHA_MAX)
        alpha[g] = a
        log_alpha[g] = math.log(a)
        if rising_filled.shape[0]:
            rising_filled[g] = 0  # refilled on demand (extend_log_rising)
        else:
            fill_log_rising(alpha, rising_offset, log_rising, g)


@njit(cache=True)
def sample_concentrations(customers_total, tables_total, alpha, log_alpha, group_fixed, group_ptr, group_nodes,
                          prior_shape, prior_rate, rising_offset, log_rising, rng):
    """Zhang, Petitjean and Buntine 2020, Algorithm 4 (Buntine and Mishra 2014) for every group of tied nodes:
    rate = priorRate; for each node q ~ Beta(alpha, node.n), rate -= log q,
    sumTk += node.t; alpha ~ Gamma(sumTk + priorShape, rate). Nodes without
    customers carry no information and are skipped (Beta(alpha, 0) is undefined).
    The uniform prior is priorShape = 1, priorRate = 0. A resampled group's
    ``log_rising`` slice is refilled at once (the sampler itself refills lazily)."""
    _resample_concentrations(customers_total, tables_total, alpha, log_alpha, group_fixed, group_ptr, group_nodes,
                             prior_shape, prior_rate, rising_offset, log_rising, rng, np.zeros(0, np.int64))


@njit(cache=True)
def node_probabilities(customers, customers_total, parent, group, alpha, root_alpha, probs):
    """Posterior-mean estimate given the current state, top-down (Zhang et al. 2020 Sect. 2.5):
    p_k = (n_k + alpha p^parent_k) / (N + alpha), with a uniform base under the root."""
    n_nodes, n_values = customers.shape
    denom = customers_total[0] + root_alpha
    for k in range(n_values):
        probs[0, k] = (customers[0, k] + root_alpha / n_values) / denom
    for node in range(1, n_nodes):
        a = alpha[group[node]]
        p = parent[node]
        denom = customers_total[node] + a
        for k in range(n_values):
            probs[node, k] = (customers[node, k] + a * probs[p, k]) / denom


@njit(cache=True)
def run_sampler(first_iteration, n_iterations, burn_in, concentration_every, customers, tables, customers_total,
                tables_total, parent, active, group, alpha, log_alpha, group_fixed, group_ptr, group_nodes,
                prior_shape, prior_rate, rising_offset, log_rising, rising_filled, rising_acc, window, max_tables,
                stirling, cached_only, probs, prob_sum, alpha_sum, largest_table, misses, rng, exp_table):
    """Iterations ``first_iteration .. n_iterations - 1`` of the collapsed Gibbs sampler.

    Each iteration: sample the table counts of the ``active`` (node, value) pairs
    (:func:`active_values`: level by level from the leaves up), reset the root, every
    ``concentration_every`` iterations sample the concentrations (Algorithm 4), and after
    ``burn_in`` add the node estimates to ``prob_sum`` (the reference order,
    ProbabilityTree.smooth).

    One t_k: the conditional of t_k (the other tables fixed) keeps the factors of the
    collapsed likelihood that depend on it (Petitjean et al. 2018, Sect. 4.2):
    at the node, S(n_k, t_k) alpha^{t_k}; at its parent p, whose customers are
    m_k + t_k, S(m_k + t_k, t_pk) / (alpha_p)_{M + t_k} (rising factorial, read from
    ``log_rising``). Candidates are the window t_k - window .. t_k + window
    (reference: windowForSamplingTk = 10), clipped to 1 <= t_k <= min(n_k, max_tables)
    and m_k + t_k >= t_pk; nothing is drawn when n_k <= 1 (t_k = n_k is forced) or
    when one candidate is left. The index is drawn with probability proportional to
    exp(w_j - max w) by one uniform: the first j whose running sum reaches u * total.
    Those exponentials are :func:`algorithms._libm_exp.exp_nonpositive` (glibc's exp written
    out, so the compiler inlines and overlaps it) when ``exp_table`` is not empty (it is
    empty unless that equals ``math.exp`` in this process) and every w_j - max w > -500,
    else ``math.exp``: the same values. The running sums are kept, and the first j is found
    as the number of running sums below u (they never decrease), without a branch per
    candidate: the same j as the sequential search.
    The step is written out in the loop rather than called as an inlined helper:
    passing the arrays to a helper made Numba emit an atomic reference-count
    increment and decrement per visit (a quarter of the sweep's time).

    ``log_rising`` is filled lazily: ``rising_filled[g]`` entries of group g's slice
    are valid (0 after its concentration changes), ``rising_acc[g]`` is the running
    sum there (:func:`extend_log_rising`); a sweep reads only the entries around its
    parents' current customer totals, far fewer than the slice's bound.

    ``cached_only``: every customer count of the tree is below the rows of
    ``stirling`` (the fast path, every S from the table, which the caller has sized to
    cover all of them; else log S goes through ``log_stirling``: table, closed forms,
    approximation, the same draws wherever the table covers the window).
    Returns the next iteration to run: ``n_iterations`` when done, earlier when
    the next sweep could need a table count beyond the columns of ``stirling``
    (the caller grows the table and resumes; no random draw is lost or repeated).
    """
    n_values = customers.shape[1]
    weights = np.empty(2 * window + 1)
    n_active = active.shape[0]
    active_node = np.empty(n_active, np.int64)
    active_value = np.empty(n_active, np.int64)
    for i in range(n_active):
        active_node[i] = active[i] // n_values
        active_value[i] = active[i] % n_values
    root_alpha = alpha[group[0]]
    inline_exp = exp_table.shape[0] > 0
    for it in range(first_iteration, n_iterations):
        if largest_table[0] + window + 1 > stirling.shape[1] and stirling.shape[1] < max_tables + window + 1:
            return it
        largest = 0
        for i in range(n_active):
            node = active_node[i]
            k = active_value[i]
            n = customers[node, k]
            if n <= 1:
                continue  # t_k = n_k is forced
            p = parent[node]
            log_a = log_alpha[group[node]]
            t_old = tables[node, k]
            m = customers[p, k] - t_old
            gp = group[p]
            rel = customers_total[p] - t_old
            start = rising_offset[gp] + rel
            t_parent = tables[p, k]
            lo = max(1, t_old - window, t_parent - m)
            hi = min(t_old + window, n, max_tables)
            t_new = t_old
            if lo < hi:
                if rising_filled[gp] <= rel + hi:
                    extend_log_rising(gp, rel + hi + 1, alpha, rising_offset, log_rising, rising_filled, rising_acc)
                best = -np.inf
                lowest = np.inf
                if cached_only:
                    for t in range(lo, hi + 1):
                        w = stirling[n, t] + t * log_a + stirling[m + t, t_parent] - log_rising[start + t]
                        weights[t - lo] = w
                        best = max(best, w)  # max / min without a branch per candidate
                        lowest = min(lowest, w)
                else:
                    for t in range(lo, hi + 1):
                        w = (log_stirling(stirling, n, t, misses) + t * log_a
                             + log_stirling(stirling, m + t, t_parent, misses) - log_rising[start + t])
                        weights[t - lo] = w
                        best = max(best, w)
                        lowest = min(lowest, w)
                size = hi - lo + 1
                if inline_exp and best - lowest < EXP_LOWER:
                    for j in range(size):
                        weights[j] = exp_nonpositive(weights[j] - best, exp_table)
                else:
                    for j in range(size):
                        d = weights[j] - best
                        weights[j] = 1.0 if d == 0.0 else math.exp(d)  # exp(+-0) is exactly 1
                total = 0.0
                for j in range(size):  # running sums, in the order of the sequential search
                    total += weights[j]
                    weights[j] = total
                u = rng.random() * total
                j = 0
                for i_sum in range(size - 1):  # first running sum >= u (the last index at most)
                    j += weights[i_sum] < u
                t_new = lo + j
                if t_new != t_old:  # the parent's customers follow
                    delta = t_new - t_old
                    tables[node, k] += delta
                    tables_total[node] += delta
                    customers[p, k] += delta
                    customers_total[p] += delta
            if t_new > largest:
                largest = t_new
        reset_root_tables(customers, tables, tables_total)
        if largest > largest_table[0]:
            largest_table[0] = largest
        if concentration_every > 0 and (it + concentration_every // 2) % concentration_every == 0:
            _resample_concentrations(customers_total, tables_total, alpha, log_alpha, group_fixed, group_ptr,
                                     group_nodes, prior_shape, prior_rate, rising_offset, log_rising, rng,
                                     rising_filled)
            root_alpha = alpha[group[0]]
        if it >= burn_in:
            node_probabilities(customers, customers_total, parent, group, alpha, root_alpha, probs)
            for node in range(probs.shape[0]):
                for k in range(probs.shape[1]):
                    prob_sum[node, k] += probs[node, k]
            for g in range(alpha.shape[0]):
                alpha_sum[g] += alpha[g]
    return n_iterations


# ----------------------------------------------------------------- queries
@njit(cache=True)
def deepest_nodes(paths, child_slot, child_table, arities):
    """For each row of ``paths`` (class value, then parent values), the deepest node
    of the tree on that path: the leaf when the path was observed, otherwise the
    nearest existing ancestor (the back-off of the reference ProbabilityTree.query).
    Values outside 0..arity-1 give -1 (the caller raises)."""
    n_rows, depth = paths.shape
    out = np.empty(n_rows, dtype=np.int64)
    for i in range(n_rows):
        node = 0
        for d in range(depth):
            v = paths[i, d]
            if v < 0 or v >= arities[d]:
                node = -1
                break
            slot = child_slot[node]
            if slot < 0:
                break
            child = child_table[slot + v]
            if child < 0:
                break
            node = child
        out[i] = node
    return out
