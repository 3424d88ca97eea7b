"""HDP smoothing (algorithms/hdp.py): log-Stirling numbers, the Gibbs sampler against
exact posterior means obtained by enumeration, Algorithm 4, determinism, back-off."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from algorithms import _hdp_kernels as K
from algorithms import hdp


# ----------------------------------------------------------------------------- log Stirling numbers
def exact_stirling(n_max: int) -> list[list[int]]:
    """Unsigned Stirling numbers of the first kind, exact integers, by S(n+1,t) = S(n,t-1) + n S(n,t)."""
    S = [[0] * (n_max + 1) for _ in range(n_max + 1)]
    S[0][0] = 1
    for n in range(n_max):
        for t in range(1, n + 2):
            S[n + 1][t] = S[n][t - 1] + n * S[n][t]
    return S


def test_log_stirling_hand_checked_values():
    # c(n, k): number of permutations of n elements with k cycles (hand-checked: 3! = 6 = 2 + 3 + 1)
    known = {(0, 0): 1, (1, 1): 1, (3, 1): 2, (3, 2): 3, (3, 3): 1, (4, 2): 11, (4, 3): 6, (5, 1): 24,
             (5, 2): 50, (5, 3): 35, (6, 3): 225, (6, 5): 15, (7, 4): 735, (8, 2): 13068}
    table = hdp.log_stirling_numbers(8)
    for (n, t), value in known.items():
        assert math.exp(table[n, t]) == pytest.approx(value, rel=1e-12)
    assert table[4, 0] == -np.inf and table[3, 4] == -np.inf
    # rows sum to n! (every permutation has some number of cycles)
    for n in range(1, 9):
        assert np.exp(table[n, : n + 1]).sum() == pytest.approx(math.factorial(n), rel=1e-12)


def test_log_stirling_table_matches_exact_integers():
    S = exact_stirling(60)
    table = hdp.log_stirling_numbers(60)
    for n in range(61):
        for t in range(n + 1):
            expected = math.log(S[n][t]) if S[n][t] else -np.inf
            assert table[n, t] == pytest.approx(expected, rel=1e-13, abs=1e-13)


def test_log_stirling_lookup_agrees_with_table_everywhere():
    """The kernel's closed forms give exactly the stored cells, so which path a lookup takes
    (and hence the cache's size history) cannot change a result."""
    table = hdp.log_stirling_numbers(40)
    misses = np.zeros(1, np.int64)
    for n in range(41):
        for t in range(41):
            assert K.log_stirling(table, n, t, misses) == table[n, t]
    assert misses[0] == 0
    small = table[:5, :5].copy()
    K.log_stirling(small, 20, 7, misses)  # n < STIRLING_ROW_LIMIT but outside the table: reported
    assert misses[0] == 1


def test_log_stirling_large_n_approximation():
    """Above the cached rows, log S(n, t) is the corrected saddle-point approximation: error < 1e-3."""
    limit = K.STIRLING_ROW_LIMIT
    exact = np.empty((limit + 600, 400))
    K.fill_log_stirling(exact, 0, 0)
    misses = np.zeros(1, np.int64)
    worst = 0.0
    for n in (limit, limit + 77, limit + 599):
        for t in list(range(2, 40)) + [60, 120, 250, 399]:
            worst = max(worst, abs(K.log_stirling(exact[:1, :1], n, t, misses) - exact[n, t]))
        assert K.log_stirling(exact[:1, :1], n, 1, misses) == pytest.approx(math.lgamma(n), rel=1e-15)
    assert misses[0] == 0
    assert worst < 1e-3


# ----------------------------------------------------------------------------- exact posterior means
def exact_posterior_mean(paths, counts, n_values, alpha_inner, alpha_root):
    """Posterior mean of every node's estimate by enumerating all table configurations.

    Derivation (Chinese restaurant franchise with fixed concentrations). A node j is a
    restaurant whose customers for value k are its data counts n_jk (leaf) or the tables
    of its children, n_jk = sum_c t_ck (inner node); each table sends one customer to the
    parent. The root has one table per value with customers (the "GEM" root) under a
    uniform base. The probability of the seating (table counts) t given the data is

        P(t | n) ~ prod_j  alpha_j^{T_j} / (alpha_j)_{N_j}  prod_k S(n_jk, t_jk),

    with (a)_N = Gamma(a + N) / Gamma(a), T_j = sum_k t_jk, N_j = sum_k n_jk and S the
    unsigned Stirling numbers of the first kind (the number of ways to seat n customers
    at t tables), constraints 1 <= t_jk <= n_jk when n_jk > 0; the uniform base
    contributes (1/K)^{T_root}, a constant. Given t, each node's posterior predictive is
    the CRP formula p_jk = (n_jk + alpha_j p_parent(j),k) / (N_j + alpha_j), with
    p_parent = 1/K above the root. The sampler averages p(t) over draws of t, so its
    estimate converges to  E[p_j | n] = sum_t P(t | n) p_j(t),  this finite sum.
    With a single level (root + class nodes) every class node is a leaf: t_ck ranges over
    1..n_ck and the root's customers are m_k = sum_c t_ck.
    Node order: root, then the sorted distinct prefixes of each length (as FamilyEstimate).
    """
    depth = paths.shape[1]
    prefixes = [[()]] + [sorted({tuple(p[:d]) for p in paths.tolist()}) for d in range(1, depth + 1)]
    nodes = [p for level in prefixes for p in level]
    index = {p: i for i, p in enumerate(nodes)}
    parent = [-1] + [index[p[:-1]] for p in nodes[1:]]
    alpha = [alpha_root] + [alpha_inner] * (len(nodes) - 1)
    S = exact_stirling(int(counts.sum()) + 1)
    leaf_counts = {tuple(p): c for p, c in zip(paths.tolist(), counts.tolist())}
    num = np.zeros((len(nodes), n_values))
    den = 0.0

    def score(customers, tables):
        logw = 0.0
        for j in range(len(nodes)):
            N, T = sum(customers[j]), sum(tables[j])
            logw += T * math.log(alpha[j]) - (math.lgamma(alpha[j] + N) - math.lgamma(alpha[j]))
            logw += sum(math.log(S[n][t]) for n, t in zip(customers[j], tables[j]))
        return logw

    def estimates(customers):
        p = np.zeros((len(nodes), n_values))
        p[0] = (np.array(customers[0]) + alpha_root / n_values) / (sum(customers[0]) + alpha_root)
        for j in range(1, len(nodes)):
            p[j] = (np.array(customers[j]) + alpha[j] * p[parent[j]]) / (sum(customers[j]) + alpha[j])
        return p

    def seat(d, customers, tables):
        nonlocal num, den
        if d == 0:  # the root: one table per value with customers
            tables = [list(t) for t in tables]
            tables[0] = [1 if n > 0 else 0 for n in customers[0]]
            w = math.exp(score(customers, tables))
            num += w * estimates(customers)
            den += w
            return
        level = [index[p] for p in prefixes[d]]
        options = [[(j, k, t) for t in (range(1, customers[j][k] + 1) if customers[j][k] else [0])]
                   for j in level for k in range(n_values)]
        for choice in itertools.product(*options):
            c2 = [list(c) for c in customers]
            t2 = [list(t) for t in tables]
            for j, k, t in choice:
                t2[j][k] = t
                c2[parent[j]][k] += t
            seat(d - 1, c2, t2)

    customers = [list(leaf_counts.get(p, [0] * n_values)) for p in nodes]
    seat(depth, customers, [[0] * n_values for _ in nodes])
    return num / den


def fixed(alpha_inner, alpha_root, n_iterations=40_000, burn_in=1_000, **kw):
    return hdp.HDPSettings(n_iterations=n_iterations, burn_in=burn_in, prior="fixed",
                           initial_concentration=alpha_inner, root_concentration=alpha_root, **kw)


def test_single_level_with_forced_tables_is_the_closed_form():
    """Counts <= 1 force t = n: the estimate is exactly the two-level CRP formula."""
    counts = np.array([[1, 0, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0]])
    fam = hdp.FamilyCounts(np.array([[0], [1], [2]]), counts, (3,), 4)
    a1, a0 = 1.7, 2.0
    est = hdp.smooth_family(fam, fixed(a1, a0, n_iterations=50, burn_in=10), random_state=0)
    m = counts.sum(axis=0)
    root = (m + a0 / 4) / (m.sum() + a0)
    leaves = (counts + a1 * root) / (counts.sum(axis=1, keepdims=True) + a1)
    np.testing.assert_allclose(est.node_probs[0], root, rtol=1e-13)
    np.testing.assert_allclose(est.leaf_probs, leaves, rtol=1e-13)


def test_single_level_matches_exact_posterior_mean():
    paths = np.array([[0], [1]])
    counts = np.array([[3, 1, 0], [2, 2, 1]])
    a1, a0 = 1.5, 2.0
    exact = exact_posterior_mean(paths, counts, 3, a1, a0)
    est = hdp.smooth_family(hdp.FamilyCounts(paths, counts, (2,), 3), fixed(a1, a0), random_state=1)
    np.testing.assert_allclose(est.node_probs, exact, atol=2e-3)
    # the test has power: seating every customer at its own table (t = n) is further off
    root = (counts.sum(axis=0) + a0 / 3) / (counts.sum() + a0)
    naive = (counts + a1 * root) / (counts.sum(axis=1, keepdims=True) + a1)
    assert np.abs(naive - exact[1:]).max() > 0.01


def test_two_levels_match_exact_posterior_mean():
    """Class level and one parent level: the inner nodes' customers are table counts."""
    paths = np.array([[0, 0], [0, 1], [1, 1]])
    counts = np.array([[2, 1], [1, 3], [3, 1]])
    a, a0 = 1.2, 2.0
    exact = exact_posterior_mean(paths, counts, 2, a, a0)
    est = hdp.smooth_family(hdp.FamilyCounts(paths, counts, (2, 2), 2), fixed(a, a0), random_state=3)
    np.testing.assert_allclose(est.node_probs, exact, atol=2e-3)
    mle = counts / counts.sum(axis=1, keepdims=True)
    assert np.abs(exact[-3:] - mle).max() > 0.05  # smoothing matters here


# ----------------------------------------------------------------------------- Algorithm 4
@pytest.mark.parametrize("prior", ["gamma", "uniform"])
def test_algorithm4_targets_the_concentration_posterior(prior):
    """Iterating Algorithm 4 with the tables fixed samples p(alpha | T, N) ~
    prior(alpha) prod_j alpha^{T_j} Gamma(alpha) / Gamma(alpha + N_j); compare its mean
    with numerical integration."""
    N = np.array([12, 5, 30], np.int64)
    T = np.array([4, 3, 6], np.int64)
    shape, rate = hdp.HDPSettings(prior=prior).prior_shape_rate
    grid = np.linspace(1e-4, 40, 400_001)
    from scipy.special import gammaln

    logpost = (shape - 1) * np.log(grid) - rate * grid
    for n, t in zip(N, T):
        logpost += t * np.log(grid) + gammaln(grid) - gammaln(grid + n)
    w = np.exp(logpost - logpost.max())
    exact_mean = (grid * w).sum() / w.sum()

    alpha, log_alpha = np.array([2.0]), np.log([2.0])
    offsets = np.array([0, 1], np.int64)
    rising = np.zeros(1)
    rng = np.random.default_rng(0)
    draws = np.empty(20_000)
    for i in range(draws.size):
        K.sample_concentrations(N, T, alpha, log_alpha, np.array([False]), np.array([0, 3], np.int64),
                                np.arange(3, dtype=np.int64), shape, rate, offsets, rising, rng)
        draws[i] = alpha[0]
    assert draws[1000:].mean() == pytest.approx(exact_mean, rel=0.03)


# ----------------------------------------------------------------------------- properties
def random_family(seed=0, n=3000, n_classes=4, arities=(3, 4), n_values=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    pv = np.column_stack([rng.integers(0, a, n) for a in arities])
    x = (y + pv.sum(axis=1) * rng.integers(0, 2, n) + rng.integers(0, 2, n)) % n_values
    return hdp.FamilyCounts.from_data(x, y, pv, n_values=n_values, arities=(n_classes,) + tuple(arities),
                                      attribute=0, parents=(1, 2))


def test_deterministic_per_seed_and_independent_of_cache_history():
    fam = random_family()
    s = hdp.HDPSettings(n_iterations=200, burn_in=50)
    hdp.LOG_STIRLING.clear()
    a = hdp.smooth_family(fam, s, random_state=7)
    hdp.smooth_family(random_family(1, n=20_000, arities=(6, 6)), s, random_state=0)  # grows the cache
    b = hdp.smooth_family(fam, s, random_state=7)
    c = hdp.smooth_family(fam, s, random_state=8)
    assert np.array_equal(a.node_probs, b.node_probs)
    assert np.array_equal(a.node_concentration, b.node_concentration)
    assert not np.array_equal(a.node_probs, c.node_probs)


def test_table_growth_mid_run_resumes_exactly():
    """A large fixed concentration makes table counts grow past the initial columns of the
    log-Stirling cache; the kernel stops, the table grows, and the run resumes without
    changing the random stream."""
    counts = np.tile([400, 300, 200], (30, 1))  # identical class distributions: alpha grows, so do the tables
    fam = hdp.FamilyCounts(np.arange(30)[:, None], counts, (30,), 3)
    s = hdp.HDPSettings(n_iterations=60, burn_in=10)
    hdp.LOG_STIRLING.clear()
    hdp.LOG_STIRLING.ensure(2, 2)
    grown_during = hdp.smooth_family(fam, s, random_state=5)
    cols_after = hdp.LOG_STIRLING.table.shape[1]
    hdp.LOG_STIRLING.ensure(1000, 600)
    pre_grown = hdp.smooth_family(fam, s, random_state=5)
    initial_cols = int(K.expected_tables(2.0, 400.0)) + s.window + 1  # largest starting table count + window
    assert cols_after > initial_cols  # the table grew during the run
    assert np.array_equal(grown_during.node_probs, pre_grown.node_probs)


def test_general_log_stirling_path_draws_the_same():
    """The kernel's two paths (all S from the cached table / through log_stirling) agree."""
    fam = random_family(9)
    s = hdp.HDPSettings(n_iterations=80, burn_in=20)
    fast = hdp._smooth(fam, s, np.random.default_rng(2))
    general = hdp._smooth(fam, s, np.random.default_rng(2), allow_cached_path=False)
    assert np.array_equal(fast.node_probs, general.node_probs)


def test_inline_exp_equals_math_exp():
    """exp_nonpositive is the C library's exp bit for bit where the process check enabled it
    (a random sample beyond the check's own points, and the edges of its range)."""
    from algorithms import _libm_exp as E

    tab = E.exp_table()
    if tab.size == 0:
        pytest.skip("this C library's exp differs: the sampler calls math.exp")
    x = np.concatenate([-np.random.default_rng(7).random(200_000) * E.LOWER, [0.0, -0.0, -E.TINY, -1e-20, -499.99]])
    assert E._mismatches(x, tab) == 0
    assert np.array_equal(E._derive_table(), tab)


def test_inline_exp_path_draws_the_same():
    """The sampler with the inlined exp and with math.exp (both log-Stirling paths) agree bit for bit."""
    for seed, n_values in ((3, 4), (11, 9)):
        fam = random_family(seed, n_values=n_values)
        s = hdp.HDPSettings(n_iterations=120, burn_in=20)
        fast = hdp._smooth(fam, s, np.random.default_rng(seed))
        slow = hdp._smooth(fam, s, np.random.default_rng(seed), allow_inline_exp=False)
        general = hdp._smooth(fam, s, np.random.default_rng(seed), allow_cached_path=False, allow_inline_exp=False)
        assert np.array_equal(fast.node_probs, slow.node_probs)
        assert np.array_equal(fast.node_probs, general.node_probs)
        assert np.array_equal(fast.node_concentration, slow.node_concentration)


def test_counts_beyond_the_cached_rows():
    """Counts above STIRLING_ROW_LIMIT use the closed forms and the saddle-point
    approximation; with that much data the estimates sit at the frequencies."""
    big = K.STIRLING_ROW_LIMIT
    counts = np.array([[big + 5000, big // 2, 300, 2], [40, 30, 20, 10]])
    fam = hdp.FamilyCounts(np.array([[0], [1]]), counts, (2,), 4)
    est = hdp.smooth_family(fam, hdp.HDPSettings(n_iterations=200, burn_in=50), random_state=0)
    freq = counts / counts.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(est.leaf_probs[0], freq[0], atol=1e-3)
    assert np.abs(est.leaf_probs[1] - freq[1]).max() < 0.05
    np.testing.assert_allclose(est.node_probs.sum(axis=1), 1.0, rtol=1e-12)


@pytest.mark.parametrize("tying", hdp.TYINGS)
@pytest.mark.parametrize("prior", hdp.PRIORS)
def test_probabilities_positive_and_normalised(tying, prior):
    fam = random_family(2)
    est = hdp.smooth_family(fam, hdp.HDPSettings(n_iterations=60, burn_in=20, tying=tying, prior=prior),
                            random_state=0)
    assert est.node_probs.shape == (est.level_start[-1], fam.n_values)
    assert (est.node_probs > 0).all()
    np.testing.assert_allclose(est.node_probs.sum(axis=1), 1.0, rtol=1e-12)
    dense = est.to_dense()
    assert dense.shape == fam.arities + (fam.n_values,)
    assert (dense > 0).all()
    np.testing.assert_allclose(dense.sum(axis=-1), 1.0, rtol=1e-12)
    assert np.isfinite(est.node_concentration).all() and (est.node_concentration > 0).all()


def test_more_data_moves_a_leaf_toward_its_frequencies():
    base = random_family(3)
    target = 5
    empirical = base.counts[target] / base.counts[target].sum()
    distances = []
    for factor in (1, 4, 16):
        counts = base.counts.copy()
        counts[target] *= factor
        fam = hdp.FamilyCounts(base.paths, counts, base.arities, base.n_values)
        est = hdp.smooth_family(fam, hdp.HDPSettings(n_iterations=300, burn_in=50), random_state=0)
        distances.append(np.abs(est.leaf_probs[target] - empirical).sum())
    assert distances[0] > distances[1] > distances[2]
    assert distances[2] < 0.25 * distances[0]


def test_back_off_to_the_nearest_existing_ancestor():
    paths = np.array([[0, 0, 1], [0, 0, 2], [0, 1, 0], [2, 1, 1]])
    counts = np.array([[3, 1], [0, 2], [1, 1], [5, 0]])
    fam = hdp.FamilyCounts(paths, counts, (3, 2, 3), 2)
    est = hdp.smooth_family(fam, hdp.HDPSettings(n_iterations=50, burn_in=10), random_state=0)
    ls = est.level_start
    root, class0, class2 = 0, ls[1], ls[1] + 1
    node_00 = ls[2]  # prefix (0, 0)
    nodes = est.deepest_node(np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 2], [2, 1, 1]]))
    assert nodes.tolist() == [ls[3], node_00, root, class2, ls[2] + 1, ls[3] + 3]
    q = est.query(np.array([[1, 1, 1], [0, 0, 0]]))
    np.testing.assert_array_equal(q[0], est.node_probs[root])  # class 1 never seen: P(X)
    np.testing.assert_array_equal(q[1], est.node_probs[node_00])
    assert class0 == 1
    with pytest.raises(ValueError, match="outside the arities"):
        est.query(np.array([[0, 2, 0]]))


def test_family_counts_constructors_agree():
    rng = np.random.default_rng(4)
    y, p, x = rng.integers(0, 3, 500), rng.integers(0, 4, 500), rng.integers(0, 5, 500)
    dense = np.zeros((3, 4, 5), np.int64)
    np.add.at(dense, (y, p, x), 1)
    a = hdp.FamilyCounts.from_data(x, y, p[:, None], n_values=5, arities=(3, 4))
    b = hdp.FamilyCounts.from_dense(dense)
    perm = rng.permutation(a.paths.shape[0])
    dup = np.concatenate([perm, perm[:3]])  # duplicate rows are summed
    counts = a.counts[dup].copy()
    counts[-3:] = 0
    c = hdp.FamilyCounts(a.paths[dup], counts, (3, 4), 5)
    for f in (b, c):
        np.testing.assert_array_equal(a.paths, f.paths)
        np.testing.assert_array_equal(a.counts, f.counts)
    assert a.total == 500
    # arities whose product overflows one int64 code: rows are sorted directly
    huge = (2, 2 ** 31, 2 ** 31)
    rows = np.array([[1, 5, 2 ** 31 - 1], [0, 7, 3], [1, 5, 2 ** 31 - 1], [0, 2 ** 30, 0]])
    h = hdp.FamilyCounts(rows, np.array([[1, 0], [0, 2], [3, 0], [1, 1]]), huge, 2)
    assert h.paths.tolist() == [[0, 7, 3], [0, 2 ** 30, 0], [1, 5, 2 ** 31 - 1]]
    assert h.counts.tolist() == [[0, 2], [1, 1], [4, 0]]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="parent 1 is outside 0..3"):
        hdp.FamilyCounts(np.array([[0, 4]]), np.array([[1, 1]]), (2, 4), 2)
    with pytest.raises(ValueError, match="counts must have shape"):
        hdp.FamilyCounts(np.array([[0, 1]]), np.array([[1, 1, 1]]), (2, 4), 2)
    with pytest.raises(ValueError, match="non-negative"):
        hdp.FamilyCounts(np.array([[0, 1]]), np.array([[1, -1]]), (2, 4), 2)
    with pytest.raises(ValueError, match="x has values outside"):
        hdp.FamilyCounts.from_data([0, 3], [0, 1], n_values=3, arities=(2,))
    with pytest.raises(ValueError, match="burn_in"):
        hdp.HDPSettings(n_iterations=100, burn_in=100)
    with pytest.raises(ValueError, match="tying"):
        hdp.HDPSettings(tying="siblings")


def test_tying_groups():
    fam = hdp.FamilyCounts(np.array([[0, 0], [0, 1], [1, 1]]), np.ones((3, 2), np.int64), (2, 2), 2)
    tree = hdp._build_tree(fam)  # root | classes 0, 1 | (0,0), (0,1), (1,1)
    groups = {}
    for tying in hdp.TYINGS:
        g, alpha, fixed_flags = hdp._concentration_groups(tree, hdp.HDPSettings(tying=tying))
        groups[tying] = g.tolist()
        assert fixed_flags[g[0]] and alpha[g[0]] == 2.0  # the reference's fixed root
        assert not fixed_flags[g[1:]].any()
    assert groups["none"] == [0, 1, 2, 3, 4, 5]
    assert groups["parent"] == [0, 1, 1, 2, 2, 3]  # siblings share
    assert groups["level"] == [0, 1, 1, 2, 2, 2]
    assert groups["single"] == [0, 1, 1, 1, 1, 1]
    g, _, fixed_flags = hdp._concentration_groups(tree, hdp.HDPSettings(tying="single", root_concentration=None))
    assert g.tolist() == [0] * 6 and not fixed_flags.any()


def test_concentration_is_sampled_and_level_tied():
    est = hdp.smooth_family(random_family(5), hdp.HDPSettings(n_iterations=200, burn_in=50), random_state=0)
    ls = est.level_start
    for d in range(1, ls.shape[0] - 1):
        level = est.node_concentration[ls[d]:ls[d + 1]]
        assert np.all(level == level[0])
    assert est.node_concentration[0] == 2.0
    assert len({est.node_concentration[ls[d]] for d in range(1, ls.shape[0] - 1)}) == ls.shape[0] - 2


def test_network_smoothing_and_joint_log_likelihood():
    rng = np.random.default_rng(6)
    n, n_classes = 400, 3
    y = rng.integers(0, n_classes, n)
    X = np.column_stack([(y + rng.integers(0, 2, n)) % 3, rng.integers(0, 4, n), rng.integers(0, 2, n)])
    fams = [hdp.FamilyCounts.from_data(X[:, 0], y, None, n_values=3, arities=(3,), attribute=0),
            hdp.FamilyCounts.from_data(X[:, 1], y, X[:, [0]], n_values=4, arities=(3, 3), attribute=1, parents=(0,)),
            hdp.FamilyCounts.from_data(X[:, 2], y, X[:, [1, 0]], n_values=2, arities=(3, 4, 3), attribute=2,
                                       parents=(1, 0))]
    s = hdp.HDPSettings(n_iterations=100, burn_in=20)
    ests = hdp.smooth_network(fams, s, random_state=3)
    again = hdp.smooth_network(fams, s, random_state=3)
    assert all(np.array_equal(a.node_probs, b.node_probs) for a, b in zip(ests, again))
    prior = hdp.class_prior(np.bincount(y, minlength=n_classes))
    np.testing.assert_allclose(prior, (np.bincount(y) + 1 / 3) / (n + 1))
    Xq = X[:7]
    jll = hdp.joint_log_likelihood(Xq, prior, ests)
    manual = np.zeros((7, n_classes))
    for i in range(7):
        for c in range(n_classes):
            manual[i, c] = (np.log(prior[c]) + np.log(ests[0].query([[c]])[0, Xq[i, 0]])
                            + np.log(ests[1].query([[c, Xq[i, 0]]])[0, Xq[i, 1]])
                            + np.log(ests[2].query([[c, Xq[i, 1], Xq[i, 0]]])[0, Xq[i, 2]]))
    np.testing.assert_allclose(jll, manual, rtol=1e-12)
    np.testing.assert_array_equal(hdp.joint_log_likelihood(X, prior, ests, chunk_rows=3),
                                  hdp.joint_log_likelihood(X, prior, ests))


def test_empty_and_single_value_families():
    empty = hdp.FamilyCounts(np.zeros((0, 2), np.int64), np.zeros((0, 3), np.int64), (2, 2), 3)
    est = hdp.smooth_family(empty, random_state=0)
    np.testing.assert_allclose(est.query([[1, 1]]), [[1 / 3] * 3])
    one = hdp.FamilyCounts(np.array([[0]]), np.array([[5]]), (2,), 1)
    assert hdp.smooth_family(one, random_state=0).query([[1]]).tolist() == [[1.0]]


def test_m_estimates_back_off_to_the_nearest_observed_ancestor():
    paths = np.array([[0, 0], [0, 2], [1, 1]])
    counts = np.array([[3, 1, 0], [0, 2, 2], [5, 0, 0]])
    est = hdp.m_estimate_family(hdp.FamilyCounts(paths, counts, (3, 3), 3), m=1.0)
    q = est.query(np.array([[0, 0], [0, 1], [2, 0], [1, 1]]))
    np.testing.assert_allclose(q[0], (np.array([3, 1, 0]) + 1 / 3) / 5)  # observed path
    np.testing.assert_allclose(q[1], (np.array([3, 3, 2]) + 1 / 3) / 9)  # class 0's data
    np.testing.assert_allclose(q[2], (np.array([8, 3, 2]) + 1 / 3) / 14)  # unseen class: all data
    np.testing.assert_allclose(q[3], (np.array([5, 0, 0]) + 1 / 3) / 6)


def test_lazy_log_rising_matches_the_eager_fill_bit_for_bit():
    """The sampler fills log rising factorials on demand (extend_log_rising); every entry
    must equal the eager fill's, whatever the order and size of the extensions."""
    alpha = np.array([0.37, 2.0, 123.456])
    offsets = np.array([0, 50, 1050, 4050], np.int64)
    eager = np.empty(int(offsets[-1]))
    K.fill_log_rising(alpha, offsets, eager, -1)
    lazy = np.full_like(eager, np.nan)
    filled = np.zeros(3, np.int64)
    acc = np.zeros(3)
    for g, upto in [(1, 3), (1, 2), (1, 700), (0, 49), (2, 10), (2, 2999), (1, 1000), (2, 3000), (0, 50)]:
        K.extend_log_rising(g, upto, alpha, offsets, lazy, filled, acc)
        assert filled[g] >= min(upto, offsets[g + 1] - offsets[g])
    assert np.array_equal(lazy, eager)
    filled[1] = 0  # a resampled concentration: the slice is refilled from its start
    alpha[1] = 3.5
    K.fill_log_rising(alpha, offsets, eager, 1)
    K.extend_log_rising(1, 1000, alpha, offsets, lazy, filled, acc)
    assert np.array_equal(lazy, eager)
