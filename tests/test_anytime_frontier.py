"""The anytime query engine against a plain-Python reference of Kranen et al. Sec. 3.3-3.4
(frontier, pdq, meta strategies) and Seidl et al.'s qbk, on small trees.

The reference recomputes pdq(x|c, F) from scratch over the frontier after every step (no
incremental update), checks Def. 4 (the frontier partitions the training set) and that the
mixture weights n_{e,c}/n_c of every class sum to one, and records the posterior at each
budget. The Numba engine must give the same posteriors and the same Gaussian counts."""

import math

import numpy as np
import pytest

from algorithms.anytime import BayesTree, MCTree


def _logpdf(x, mean, ivar, lognorm):
    return lognorm - 0.5 * float(np.sum((x - mean) ** 2 * ivar))


def reference_anytime(model, prior, x, budgets, strategy, k, alpha, unit="class_gaussians"):
    """Posteriors and units of one query at each budget, by brute force over the frontier."""
    m = model
    C = len(prior)
    counts = m["ent_counts"].astype(np.int64)
    n_c = counts[: m["n_roots"]].sum(axis=0)
    N = n_c.sum()
    child_lo, child_hi = m["ent_child_lo"], m["ent_child_hi"]

    def comps(e):
        return range(m["ent_comp_lo"][e], m["ent_comp_lo"][e + 1])

    def comp_log(kc):
        return m["comp_logw"][kc] + _logpdf(x, m["comp_mean"][kc], m["comp_ivar"][kc], m["comp_lognorm"][kc])

    def dens(e):  # log n_e/|DB| g(x; e), the Def. 7 density (the class term for one-class entries)
        if m["ent_single"][e]:
            return comp_log(m["ent_comp_lo"][e])
        return m["ent_logw"][e] + _logpdf(x, m["ent_mean"][e], m["ent_ivar"][e], m["ent_lognorm"][e])

    def cost(e):  # "entries": one per entry read; else every Gaussian evaluated
        return 1.0 if (unit == "entries" or m["ent_single"][e]) else len(comps(e)) + 1.0

    def posterior(frontier):
        logs = [(m["comp_class"][kc], comp_log(kc)) for e in frontier for kc in comps(e)]
        top = max(v for _, v in logs)
        s = np.zeros(C)
        for c, v in logs:
            s[c] += math.exp(v - top)
        return s / s.sum()

    def check_frontier(frontier):
        covered = np.zeros(N, dtype=int)
        for e in frontier:
            covered[m["ent_lo"][e]:m["ent_hi"][e]] += 1
        assert np.all(covered == 1), "Def. 4: the frontier must cover every object exactly once"
        weights = sum(counts[e] for e in frontier) / n_c
        assert np.allclose(weights, 1.0), "the mixture weights of every class must sum to one"

    def quality(e, frontier):
        if alpha == 0.0:
            return dens(e)
        logM = max(dens(w) for w in frontier)
        return alpha * m["ent_ig"][e] + (1 - alpha) * math.exp(dens(e) - logM)

    def best_of(cands, frontier):  # highest quality, ties to the lower entry id
        return max(cands, key=lambda e: (quality(e, frontier), -e))

    frontier = list(range(m["n_roots"]))
    spent = sum(cost(e) for e in frontier)
    out_p, out_u = [None] * len(budgets), [None] * len(budgets)
    order = np.argsort(budgets, kind="stable")
    bi = 0
    while bi < len(order) and budgets[order[bi]] < spent:
        out_p[order[bi]], out_u[order[bi]] = prior.copy(), 0.0
        bi += 1
    marked = []
    while bi < len(order):
        check_frontier(frontier)
        cands = [e for e in frontier if child_lo[e] >= 0 and e not in marked]
        if not marked:
            if strategy in ("k-best", "first-best"):
                kk = 1 if strategy == "first-best" else k
                pool = list(cands)
                while pool and len(marked) < kk:
                    e = best_of(pool, frontier)
                    marked.append(e)
                    pool.remove(e)
            elif strategy == "k-class":
                per_class = {}
                for c in range(C):
                    own = [e for e in cands if m["ent_strong"][e] == c]
                    if own:
                        per_class[c] = best_of(own, frontier)
                chosen = sorted(per_class.values(), key=lambda e: (quality(e, frontier), -e), reverse=True)
                marked = chosen[:min(k, C)]
            elif strategy == "qbk":
                p = posterior(frontier)
                classes = sorted({m["ent_strong"][e] for e in cands}, key=lambda c: (-p[c], c))[:k]
                marked = [best_of([e for e in cands if m["ent_strong"][e] == c], frontier) for c in classes]
            if not marked:
                break
        if strategy == "qbk" or alpha == 0.0:
            e = marked.pop(0)
        else:
            e = best_of(marked, frontier)
            marked.remove(e)
        step = sum(cost(ch) for ch in range(child_lo[e], child_hi[e]))
        while bi < len(order) and budgets[order[bi]] < spent + step:
            out_p[order[bi]], out_u[order[bi]] = posterior(frontier), spent
            bi += 1
        if bi >= len(order):
            break
        frontier.remove(e)  # Def. 6
        frontier.extend(range(child_lo[e], child_hi[e]))
        spent += step
    while bi < len(order):
        check_frontier(frontier)
        out_p[order[bi]], out_u[order[bi]] = posterior(frontier), spent
        bi += 1
    return np.array(out_p), np.array(out_u)


def _data(seed=0, n=90, d=3, C=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % C
    X = rng.normal(size=(n, d)) + y[:, None] * 0.8
    return X, y


BUDGETS = [0, 3, 5, 8, 13, 21, 34, 55, 89, 144, 1e9]


@pytest.mark.parametrize("make", [
    lambda: MCTree(fanout=3, delta="inf", strategy="k-class", k=2, random_state=1),
    lambda: MCTree(fanout=3, delta=1, strategy="k-class", k=2, random_state=1),
    lambda: MCTree(fanout=3, delta=1, strategy="k-class", k=2, random_state=1, cost="class_gaussians"),
    lambda: MCTree(fanout=3, delta="inf", root="fanout", random_state=1, cost="class_gaussians"),
    lambda: MCTree(fanout=2, delta="inf", root="fanout", leaf_capacity="page", random_state=1),
    lambda: MCTree(fanout=4, delta=1, strategy="first-best", random_state=2),
    lambda: MCTree(fanout=3, delta=1, strategy="k-best", k=3, random_state=3),
    lambda: MCTree(fanout=3, delta=1, strategy="k-class", k=2, alpha=0.5, random_state=4),
    lambda: MCTree(fanout=3, delta=1, strategy="k-best", k=2, alpha=1.0, random_state=4),
    lambda: MCTree(fanout=3, delta=1, entry_type="B", strategy="k-class", k=3, alpha=0.3, random_state=5),
    lambda: BayesTree(strategy="qbk", k=2, random_state=0),
    lambda: BayesTree(strategy="qbk", k=1, page_bytes=512, random_state=0),
])
def test_engine_matches_bruteforce_frontier_reference(make):
    X, y = _data()
    est = make().fit(X[::2], y[::2])
    Xq = X[1::2][:12]
    P, units, _ = est.predict_proba_anytime(Xq, BUDGETS, return_cost=True)
    Z = est._transform(Xq)
    for i in range(len(Xq)):
        ref_p, ref_u = reference_anytime(est.model_, est.class_prior_, Z[i], np.array(BUDGETS, float),
                                         est.strategy, est.k, float(est.alpha),
                                         getattr(est, "cost", "class_gaussians"))
        np.testing.assert_allclose(P[:, i], ref_p, rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(units[:, i], ref_u)


def test_budgets_are_respected_and_probabilities_sum_to_one():
    X, y = _data(seed=3, n=150)
    for est in (MCTree(fanout=3, random_state=0), MCTree(fanout=4, delta=2, random_state=0),
                BayesTree(random_state=0)):
        est.fit(X[::2], y[::2])
        budgets = [7, 0, 30, 2, 1000, None, 15]
        P, units, secs = est.predict_proba_anytime(X[1::2], budgets, return_cost=True)
        assert P.shape == (len(budgets), len(X[1::2]), 3)
        np.testing.assert_allclose(P.sum(axis=2), 1.0, atol=1e-12)
        finite = np.array([b if b is not None else np.inf for b in budgets])
        assert np.all(units <= finite[:, None])
        srt = np.argsort(finite)
        assert np.all(np.diff(units[srt], axis=0) >= 0), "more budget never means fewer Gaussians"
        # budget 0: nothing evaluated, the class prior
        np.testing.assert_allclose(P[1], np.tile(est.class_prior_, (len(X[1::2]), 1)))


def test_unlimited_budget_reads_every_kernel():
    X, y = _data(seed=4, n=120)
    for cost in ("class_gaussians", "entries"):
        est = MCTree(fanout=3, delta=1, random_state=0, cost=cost).fit(X, y)
        _, units, _ = est.predict_proba_anytime(X[:5], [None], return_cost=True)
        m = est.model_
        reach = np.zeros(len(m["ent_single"]), dtype=bool)  # entries reachable from the roots
        stack = list(range(m["n_roots"]))
        while stack:
            e = stack.pop()
            reach[e] = True
            if m["ent_child_lo"][e] >= 0:
                stack.extend(range(m["ent_child_lo"][e], m["ent_child_hi"][e]))
        # every object is read once as a kernel or a (final) one-object entry
        assert (reach & (m["ent_child_lo"] < 0)).sum() == len(X)
        unit = np.where(m["ent_single"], 1.0, (m["ent_counts"] > 0).sum(1) + 1.0) \
            if cost == "class_gaussians" else np.ones(len(reach))
        np.testing.assert_array_equal(units[0], float(unit[reach].sum()))


def test_wall_clock_budgets():
    X, y = _data(seed=5)
    est = MCTree(fanout=3, random_state=0).fit(X, y)
    P, _, secs = est.predict_proba_anytime(X[:10], [0.0, 1e6], unit="seconds", return_cost=True)
    np.testing.assert_allclose(P[0], np.tile(est.class_prior_, (10, 1)))
    np.testing.assert_allclose(P[1], est.predict_proba(X[:10]), atol=1e-12)
    assert np.all(secs[1] > 0) and np.all(secs[1] < 1.0)


def test_bad_budgets_and_units_are_clear_errors():
    X, y = _data()
    est = MCTree(fanout=3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="non-negative"):
        est.predict_proba_anytime(X[:2], [-1])
    with pytest.raises(ValueError, match="unknown budget unit"):
        est.predict_proba_anytime(X[:2], [5], unit="fortnights")
    with pytest.raises(ValueError, match="features"):
        est.predict_proba_anytime(X[:2, :2], [5])
