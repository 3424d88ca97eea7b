"""Speed of HDP smoothing (algorithms/hdp.py).

Cases:
- one realistic family (26 classes, two parents of 10 values, 10 values, 20,000
  instances), 1000 Gibbs iterations: against (a) one sweep of a pure-Python
  reference implementation of the same sampler, and (b) XGBoost_tuned fitted on
  the same data (the two parents and the attribute as features, the class as target);
- a KDB-2 network on letter's first half (16 families), 1000 iterations: against
  XGBoost_tuned fitted on the same training data. One ESKDB_HDP member smooths
  one such network; the paper's ensemble has 10.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np

from . import benchmark, best_of, row


def realistic_family(n=20_000, n_classes=26, n_parent_values=10, n_values=10, seed=0):
    """A family drawn from a random BN: P(pa1 | y), P(pa2 | y, pa1), P(x | y, pa1, pa2)
    with Dirichlet(0.5) rows, so leaf counts are skewed as in real data."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    p1_table = rng.dirichlet(np.full(n_parent_values, 0.5), n_classes)
    cum1 = p1_table.cumsum(axis=1)
    p1 = (rng.random(n)[:, None] > cum1[y]).sum(axis=1)
    p2_table = rng.dirichlet(np.full(n_parent_values, 0.5), (n_classes, n_parent_values))
    p2 = (rng.random(n)[:, None] > p2_table[y, p1].cumsum(axis=1)).sum(axis=1)
    x_table = rng.dirichlet(np.full(n_values, 0.5), (n_classes, n_parent_values, n_parent_values))
    x = (rng.random(n)[:, None] > x_table[y, p1, p2].cumsum(axis=1)).sum(axis=1)
    p1, p2, x = (np.minimum(v, m - 1) for v, m in ((p1, n_parent_values), (p2, n_parent_values), (x, n_values)))
    return x, y, np.column_stack([p1, p2])


def reference_sweep(customers, tables, customers_total, parent, level_start, alpha, group, window, max_tables,
                    log_stirling, rand):
    """One sweep of the same Gibbs sampler in pure Python (the peer for a sweep's cost)."""
    for depth in range(len(level_start) - 2, 0, -1):
        for node in range(level_start[depth], level_start[depth + 1]):
            p = parent[node]
            log_a = math.log(alpha[group[node]])
            a_p = alpha[group[p]]
            for k in range(len(customers[node])):
                n = customers[node][k]
                if n <= 1:
                    continue
                t_old = tables[node][k]
                m = customers[p][k] - t_old
                m_total = customers_total[p] - t_old
                tp = tables[p][k]
                lo, hi = max(1, t_old - window, tp - m), min(t_old + window, n, max_tables)
                if hi <= lo:
                    continue
                w = [log_stirling[n][t] + t * log_a - math.lgamma(a_p + m_total + t)
                     + (math.lgamma(m + t) if tp == 1 else log_stirling[m + t][tp]) for t in range(lo, hi + 1)]
                best = max(w)
                w = [math.exp(v - best) for v in w]
                u = rand.random() * sum(w)
                j, acc = 0, w[0]
                while acc < u and j < len(w) - 1:
                    j += 1
                    acc += w[j]
                delta = lo + j - t_old
                tables[node][k] += delta
                customers[p][k] += delta
                customers_total[p] += delta


def _initial_state(family, settings):
    from algorithms import _hdp_kernels as K
    from algorithms import hdp

    tree = hdp._build_tree(family)
    customers = np.zeros((tree.n_nodes, family.n_values), np.int64)
    customers[tree.level_start[-2]:] = family.counts
    tables = np.zeros_like(customers)
    ct, tt = np.zeros(tree.n_nodes, np.int64), np.zeros(tree.n_nodes, np.int64)
    group, alpha, _ = hdp._concentration_groups(tree, settings)
    K.init_tables(customers, tables, ct, tt, tree.parent, tree.level_start, group, alpha, settings.max_tables)
    bound = hdp._customer_bounds(tree, customers, settings.max_tables)
    table = hdp.LOG_STIRLING.ensure(int(bound.max()) + 1, int(tables[1:].max()) + 2 * settings.window + 1)
    return tree, customers, tables, ct, group, alpha, table


def kdb_structure(X, y, k):
    """KDB-k (Sahami 1996): attributes by decreasing MI with the class; each takes as parents
    the k earlier attributes with the highest conditional MI given the class."""
    n, d = X.shape
    n_classes = int(y.max()) + 1
    arity = X.max(axis=0).astype(int) + 1

    def entropy(*cols):
        key = np.zeros(n, np.int64)
        for c, a in cols:
            key = key * a + c
        p = np.bincount(key) / n
        p = p[p > 0]
        return -(p * np.log(p)).sum()

    yc = (y, n_classes)
    cols = [(X[:, i].astype(np.int64), arity[i]) for i in range(d)]
    h_y = entropy(yc)
    mi = np.array([entropy(cols[i]) + h_y - entropy(cols[i], yc) for i in range(d)])
    order = list(np.argsort(-mi, kind="stable"))
    parents = {}
    for pos, i in enumerate(order):
        cmi = [(entropy(cols[i], yc) + entropy(cols[j], yc) - entropy(cols[i], cols[j], yc) - h_y, j)
               for j in order[:pos]]
        parents[i] = tuple(j for _, j in sorted(cmi, key=lambda c: -c[0])[:k])
    return order, parents, arity


def network_families(X, y, k=2):
    from algorithms import hdp

    order, parents, arity = kdb_structure(X, y, k)
    n_classes = int(y.max()) + 1
    return [hdp.FamilyCounts.from_data(X[:, i], y, X[:, list(parents[i])] if parents[i] else None,
                                       n_values=int(arity[i]), arities=(n_classes,) + tuple(int(arity[j])
                                                                                         for j in parents[i]),
                                       attribute=int(i), parents=parents[i]) for i in order]


@benchmark("hdp")
def hdp_speed(quick: bool = False) -> list[dict]:
    from algorithms import hdp
    from algorithms.xgb_tuned import XGBoostTuned

    rows = []
    settings = hdp.HDPSettings()
    n = 3_000 if quick else 20_000
    x, y, pv = realistic_family(n=n)
    family = hdp.FamilyCounts.from_data(x, y, pv, n_values=10, arities=(26, 10, 10))
    hdp.smooth_family(family, hdp.HDPSettings(n_iterations=3, burn_in=1), 0)  # compile
    t_ours, est = best_of(lambda: hdp.smooth_family(family, settings, random_state=0), repeat=3)
    case = f"family 26 cl x 2 parents(10) x 10 values, {n} inst, {family.paths.shape[0]} paths, 1000 it"

    # (a) one sweep: the Numba kernel (1000 iterations / 1000) against the pure-Python reference
    tree, customers, tables, ct, group, alpha, table = _initial_state(family, settings)
    lists = [customers.tolist(), tables.tolist(), ct.tolist()]
    stirling_rows = table.tolist()
    t0 = time.perf_counter()
    reference_sweep(*lists, tree.parent.tolist(), tree.level_start.tolist(), alpha.tolist(), group.tolist(),
                    settings.window, settings.max_tables, stirling_rows, random.Random(0))
    t_ref_sweep = time.perf_counter() - t0
    rows.append(row("hdp", case + " (per sweep)", "numba sampler", t_ours / settings.n_iterations,
                    "pure-Python sweep", t_ref_sweep, note="ours = whole smoothing / iterations"))

    # (b) XGBoost_tuned on the same data
    X = np.column_stack([pv, x]).astype(float)
    t_xgb, _ = best_of(lambda: XGBoostTuned(random_state=0).fit(X, y), repeat=1)
    rows.append(row("hdp", case, "smooth_family", t_ours, "XGBoostTuned.fit", t_xgb,
                    note="peer: 3 features (parents, attribute) -> class"))

    # KDB-2 network on letter (first half: the 5x2 CV training size)
    try:
        from ..data import load

        ds = load("letter")
    except Exception as exc:  # the dataset mirror is optional for perf runs
        rows.append(row("hdp", "letter KDB-2 network", "smooth_network", float("nan"), note=f"skipped: {exc}"))
        return rows
    m = 2_000 if quick else ds.X.shape[0] // 2
    idx = np.random.default_rng(0).permutation(ds.X.shape[0])[:m]
    Xl, yl = ds.X[idx].astype(np.int64), ds.y[idx].astype(np.int64)
    families = network_families(Xl, yl, k=2)
    t_net, ests = best_of(lambda: hdp.smooth_network(families, settings, random_state=0), repeat=1)
    paths = sum(f.paths.shape[0] for f in families)
    t_xgb_l, _ = best_of(lambda: XGBoostTuned(random_state=0).fit(ds.X[idx], yl), repeat=1)
    rows.append(row("hdp", f"letter KDB-2, {m} inst, 16 families, {paths} paths, 1000 it", "smooth_network",
                    t_net, "XGBoostTuned.fit", t_xgb_l, note="one ESKDB_HDP member's smoothing; E=10 is 10x"))
    return rows
