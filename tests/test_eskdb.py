"""ESKDB (algorithms/eskdb.py): Algorithm 2 (randomised MDL), Algorithm 3 (order sampling),
the ensemble (equality with SKDB, determinism, probabilities)."""

import math
from itertools import permutations

import numpy as np
import pytest
from scipy.stats import chisquare
from sklearn.utils.estimator_checks import check_estimator

from algorithms.bnc import SKDB, mi_order
from algorithms.discretize import MDLDiscretizer, candidate_cuts, class_counts_by_value, mdl_boundaries
from bench.data import DataError, load
from algorithms.eskdb import ESKDB, random_mdl_boundaries, sample_attribute_order


# ---------------------------------------------------------------- Algorithm 2, transcribed from the paper
def _paper_alg2(counts, lo, hi, first, rng, out):
    """randomSampleCutPoints(P, firstFlag), line by line (recursive, plain Python over
    candidate_cuts), K = number of candidate boundaries; draws the same uniforms as the kernel."""
    m = hi - lo - 1
    if m < 1 or counts[lo:hi].sum() < 2:
        return
    cands = candidate_cuts(counts, lo, hi, n_cut_points=m)
    ig = cands.gain
    ig_t = np.where(ig > cands.mdl_threshold, ig - cands.mdl_threshold, 0.0)  # lines 5-14
    u = rng.random()
    if ig_t.sum() == 0:                                                      # line 16
        if first:                                                            # line 17
            p = np.clip(ig, 0, None)
            if p.sum() != 0:                                                 # line 19
                out.append(int(cands.boundary[_first_reaching(p / p.sum(), u)]))  # lines 18, 20-22
        return                                                               # lines 22 / 25
    pick = _first_reaching(ig_t / ig_t.sum(), u)                              # lines 28-29
    j = int(cands.boundary[pick])
    out.append(j)                                                            # line 30
    _paper_alg2(counts, lo, j + 1, False, rng, out)                          # lines 32, 34
    _paper_alg2(counts, j + 1, hi, False, rng, out)                          # lines 33, 35


def _first_reaching(p, u):
    cum = np.cumsum(p)
    ok = np.flatnonzero((cum >= u) & (p > 0))
    return int(ok[0]) if ok.size else int(np.flatnonzero(p > 0)[-1])


def _no_cut_passes_counts():
    """12 distinct values, 2 classes, weakly informative: no candidate passes MDL (checked)."""
    return np.array([[3, 1], [2, 2], [3, 1], [1, 2], [2, 2], [2, 1],
                     [1, 3], [2, 2], [1, 2], [2, 1], [1, 2], [1, 3]], dtype=np.int64)


def test_kernel_equals_the_paper_transcription():
    rng = np.random.default_rng(3)
    for trial in range(30):
        n = int(rng.integers(30, 400))
        x = np.round(rng.normal(size=n), 1)
        y = ((x + rng.normal(scale=rng.uniform(0.2, 3.0), size=n)) > 0).astype(int) + (x > 1.2)
        _, counts = class_counts_by_value(x, y, 3)
        for seed in range(5):
            expect = []
            _paper_alg2(counts, 0, counts.shape[0], True, np.random.default_rng(seed), expect)
            got = random_mdl_boundaries(counts, np.random.default_rng(seed))
            np.testing.assert_array_equal(got, np.sort(expect))


def test_first_call_rule_forces_one_cut_sampled_by_information_gain():
    counts = _no_cut_passes_counts()
    cands = candidate_cuts(counts, n_cut_points=counts.shape[0] - 1)
    assert not cands.passes_mdl.any(), "the fixture must have no cut that passes MDL"
    assert mdl_boundaries(counts, better_encoding=True).size == 0
    p = np.clip(cands.gain, 0, None)
    p = p / p.sum()
    n_draws = 6000
    freq = np.zeros(cands.boundary.size)
    for seed in range(n_draws):
        cuts = random_mdl_boundaries(counts, np.random.default_rng(seed))
        assert cuts.size == 1                      # exactly one cut is forced (Alg. 2 lines 16-22)
        freq[np.searchsorted(cands.boundary, cuts[0])] += 1
    # frequencies proportional to the raw information gain; pool cells with small expectations
    expected = p * n_draws
    big = expected >= 5
    obs = np.r_[freq[big], freq[~big].sum()] if (~big).any() else freq
    exp = np.r_[expected[big], expected[~big].sum()] if (~big).any() else expected
    assert chisquare(obs, exp).pvalue > 1e-3
    # and without the first-call rule there is no cut at all
    assert random_mdl_boundaries(counts, np.random.default_rng(0), force_first=False).size == 0


def test_first_draw_follows_gain_minus_threshold():
    # one strong boundary region: several candidates pass MDL; with a two-value-per-side design
    # the first draw decides everything (each side is pure afterwards or has no passing cut)
    counts = np.array([[20, 0], [18, 2], [12, 8], [2, 18], [0, 20]], dtype=np.int64)
    cands = candidate_cuts(counts, n_cut_points=counts.shape[0] - 1)
    excess = np.clip(cands.gain - cands.mdl_threshold, 0, None)
    assert (excess > 0).sum() >= 2
    p = excess / excess.sum()
    n_draws = 4000
    first = np.zeros(p.size)
    for seed in range(n_draws):
        rng = np.random.default_rng(seed)
        u = np.random.default_rng(seed).random()  # the first uniform the kernel draws
        first[_first_reaching(p, u)] += 1
        cuts = random_mdl_boundaries(counts, rng)
        assert cands.boundary[_first_reaching(p, u)] in cuts
    keep = p > 0
    assert chisquare(first[keep], p[keep] * n_draws).pvalue > 1e-3


def test_cut_point_count_rules():
    counts = np.array([[5, 1], [4, 2], [1, 5], [2, 6], [6, 1], [5, 0]], dtype=np.int64)
    for rule in ("boundaries", "instances", "instances_plus_boundaries"):
        random_mdl_boundaries(counts, np.random.default_rng(0), cut_point_count=rule)
    with pytest.raises(ValueError, match="cut_point_count"):
        random_mdl_boundaries(counts, np.random.default_rng(0), cut_point_count="weka")


def test_constant_and_tiny_columns_get_no_cut():
    assert random_mdl_boundaries(np.array([[3, 4]]), np.random.default_rng(0)).size == 0
    assert random_mdl_boundaries(np.zeros((0, 2), np.int64), np.random.default_rng(0)).size == 0
    # a pure column: every gain is zero except where the class changes
    cuts = random_mdl_boundaries(np.array([[5, 0], [5, 0], [0, 5]]), np.random.default_rng(0))
    np.testing.assert_array_equal(cuts, [1])


# ---------------------------------------------------------------- Algorithm 3
def test_order_sampling_frequencies():
    mi = np.array([0.5, 0.3, 0.0, 0.2])
    n_draws = 6000
    seen = {}
    for seed in range(n_draws):
        order = sample_attribute_order(mi, np.random.default_rng(seed))
        assert order[-1] == 2                    # zero MI: never drawn while another remains
        key = tuple(order[:3])
        seen[key] = seen.get(key, 0) + 1
    perms = list(permutations([0, 1, 3]))
    w = {0: 0.5, 1: 0.3, 3: 0.2}
    prob = []
    for perm in perms:                            # sampling without replacement, renormalised (lines 8-11)
        left, pr = 1.0, 1.0
        for a in perm:
            pr *= w[a] / left
            left -= w[a]
        prob.append(pr)
    obs = np.array([seen.get(p, 0) for p in perms], float)
    assert math.isclose(sum(prob), 1.0)
    assert chisquare(obs, np.array(prob) * n_draws).pvalue > 1e-3


def test_order_zero_mi_policies():
    mi = [0.0, 0.4, 0.0, 0.1]
    drop = sample_attribute_order(mi, np.random.default_rng(0), zero_mi="drop")
    assert sorted(drop.tolist()) == [1, 3]
    app = sample_attribute_order(mi, np.random.default_rng(0), zero_mi="append")
    assert sorted(app.tolist()) == [0, 1, 2, 3] and set(app[:2].tolist()) == {1, 3}
    with pytest.raises(ValueError):
        sample_attribute_order([0.1, -1.0], np.random.default_rng(0))


# ---------------------------------------------------------------- the ensemble (Algorithm 1)
def mixed_data(n=400, seed=0):
    """Two informative numeric columns, a nominal column, a noise column, NaN in both kinds."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack([
        y + rng.normal(scale=0.8, size=n),
        (y == 2) * 1.5 + rng.normal(size=n),
        np.where(rng.random(n) < 0.8, y, rng.integers(0, 4, n)).astype(float),
        rng.normal(size=n),
    ])
    X[rng.random(n) < 0.05, 0] = np.nan
    X[rng.random(n) < 0.05, 2] = np.nan
    cat = np.array([False, False, True, False])
    return X, y, cat, np.array([0, 0, 4, 0])


def _load_or_skip(name):
    try:
        return load(name)
    except DataError:
        pytest.skip(f"dataset {name} is not available here (the papers' data ship in datasets/; restore it with `git checkout datasets/`)")


def _member_hdp_seed(random_state):
    """The HDP seed of member 0 when nothing is randomised (the module docstring's seeding)."""
    member_seed = np.random.default_rng(random_state).integers(0, 2 ** 63 - 1, size=1)[0]
    return int(np.random.default_rng(int(member_seed)).integers(0, 2 ** 63 - 1))


@pytest.mark.parametrize("estimation", ["m_estimate", "hdp"])
@pytest.mark.parametrize("data", ["mixed", "hepatitis"])
def test_one_member_without_randomisation_is_skdb(estimation, data):
    if data == "mixed":
        X, y, cat, ncat = mixed_data()
    else:  # real data: numeric and nominal attributes, missing values
        ds = _load_or_skip("hepatitis")
        X, y, cat, ncat = ds.X, ds.y, ds.categorical, ds.n_categories
    hdp = {"n_iterations": 50, "burn_in": 10}
    eskdb = ESKDB(n_estimators=1, random_cut_points=False, random_order=False, estimation=estimation,
                  random_state=7, categorical_features=cat, n_categories=ncat, **hdp).fit(X, y)
    # SKDB on Weka-MDL (-E) bins, as conf/algo/skdb.yaml runs it
    disc = MDLDiscretizer(better_encoding=True, categorical_features=cat, n_categories=ncat).fit(X, y)
    skdb = SKDB(max_k=5, smoothing=estimation, hdp_settings=hdp if estimation == "hdp" else None,
                random_state=_member_hdp_seed(7), categorical_features=disc.categorical_features_out_,
                n_categories=disc.n_categories_out_).fit(disc.transform(X), y)
    Xt = X[::3].copy()
    np.testing.assert_array_equal(eskdb.predict_proba(Xt), skdb.predict_proba(disc.transform(Xt)))
    member = eskdb.members_[0]
    assert member.model.k_ == skdb.k_ and member.model.n_selected_ == skdb.n_selected_
    for j, cuts in zip(np.flatnonzero(~cat), member.cut_points):
        np.testing.assert_array_equal(cuts, disc.cut_points_[j])


def test_deterministic_per_seed_and_independent_of_n_jobs():
    X, y, cat, ncat = mixed_data()
    kw = dict(n_estimators=4, categorical_features=cat, n_categories=ncat)
    a = ESKDB(random_state=3, **kw).fit(X, y).predict_proba(X)
    b = ESKDB(random_state=3, **kw).fit(X, y).predict_proba(X)
    c = ESKDB(random_state=4, **kw).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    d = ESKDB(random_state=3, n_jobs=2, **kw).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, d)
    h1 = ESKDB(random_state=3, estimation="hdp", n_iterations=30, burn_in=5, **kw).fit(X, y).predict_proba(X)
    h2 = ESKDB(random_state=3, estimation="hdp", n_iterations=30, burn_in=5, **kw).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(h1, h2)


def test_members_differ_and_the_prediction_is_their_mean():
    X, y, cat, ncat = mixed_data()
    model = ESKDB(n_estimators=5, random_state=0, categorical_features=cat, n_categories=ncat).fit(X, y)
    cuts = [tuple(np.concatenate(mb.cut_points)) for mb in model.members_]
    orders = [tuple(mb.order) for mb in model.members_]
    assert len(set(cuts)) > 1 and len(set(orders)) > 1
    Xt = mixed_data(n=50, seed=1)[0]
    Xt[0, 0] = 1e6                                           # beyond the training range: the outer bin
    mean = np.mean([mb.model.predict_proba_encoded(_codes(Xt, cat, mb.cut_points, mb.model.n_values_))
                    for mb in model.members_], axis=0)
    np.testing.assert_allclose(model.predict_proba(Xt), mean, rtol=1e-12, atol=1e-15)


def _codes(X, cat, cut_points, n_values):
    """Member codes computed independently: bin = number of cut points below the value, NaN ->
    the last code (missing as a value)."""
    out = X.copy()
    for j, cuts in zip(np.flatnonzero(~cat), cut_points):
        out[:, j] = np.searchsorted(cuts, X[:, j], side="left")
    out = np.where(np.isnan(X), n_values[None, :] - 1, out)
    return out.astype(np.int64)


def test_ablations_fix_what_they_say():
    X, y, cat, ncat = mixed_data()
    kw = dict(n_estimators=4, random_state=0, categorical_features=cat, n_categories=ncat)
    random_o = ESKDB(random_cut_points=False, **kw).fit(X, y)
    disc = MDLDiscretizer(better_encoding=True, categorical_features=cat, n_categories=ncat).fit(X, y)
    for mb in random_o.members_:
        for j, cuts in zip(np.flatnonzero(~cat), mb.cut_points):
            np.testing.assert_array_equal(cuts, disc.cut_points_[j])
    assert len({tuple(mb.order) for mb in random_o.members_}) > 1
    random_cp = ESKDB(random_order=False, **kw).fit(X, y)
    for mb in random_cp.members_:
        assert mb.order is None
        np.testing.assert_array_equal(mb.model.order_, mi_order(mb.model.information_.mi))
    assert len({tuple(np.concatenate(mb.cut_points)) for mb in random_cp.members_}) > 1


@pytest.mark.parametrize("estimation", ["m_estimate", "hdp"])
def test_probabilities_sum_to_one(estimation):
    ds = load("synth_mixed")
    model = ESKDB(n_estimators=3, estimation=estimation, n_iterations=40, burn_in=10, random_state=0,
                  categorical_features=ds.categorical, n_categories=ds.n_categories).fit(ds.X[:400], ds.y[:400])
    p = model.predict_proba(ds.X[400:])
    assert p.shape == (ds.X.shape[0] - 400, len(ds.classes))
    assert np.all(p >= 0) and np.allclose(p.sum(axis=1), 1.0, atol=1e-12)
    assert set(model.diagnostics_) == {"k_star", "n_star", "mean_bins", "distinct_cut_sets"}
    assert (model.predict(ds.X[400:]) == ds.y[400:]).mean() > 0.5


def test_bad_input_is_named():
    X, y, cat, ncat = mixed_data()
    with pytest.raises(ValueError, match="at least 2 classes"):
        ESKDB(categorical_features=cat).fit(X, np.zeros(X.shape[0], int))
    model = ESKDB(n_estimators=2, random_state=0, categorical_features=cat, n_categories=ncat).fit(X, y)
    bad = X[:3].copy()
    bad[0, 2] = 9.0
    with pytest.raises(ValueError, match="unseen category"):
        model.predict_proba(bad)
    with pytest.raises(ValueError, match="n_estimators"):
        ESKDB(n_estimators=0).fit(X, y)
    with pytest.raises(ValueError, match="tying"):
        ESKDB(estimation="hdp", tying="family").fit(X, y)


def test_sklearn_estimator_checks():
    check_estimator(ESKDB(n_estimators=2, random_state=0))


# ----------------------------------------------------------------------------- missing-value slot
def test_missing_slot_only_in_columns_with_missing_values():
    """Complete data: each member's attributes have exactly their bins / categories (base rate
    1/|X|, the reference code's); a column with a missing training value gets one more value;
    ``missing_slot="always"`` is bench's earlier rule. A test value missing in a column without
    a slot is coded 0 (the reference code's (int) of a missing value)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 3))
    X[:, 2] = rng.integers(0, 3, 200)
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=200) > 0).astype(int)
    cat = np.array([False, False, True])
    est = ESKDB(n_estimators=3, random_state=0, categorical_features=cat).fit(X, y)
    for mb in est.members_:
        bins = [c.size + 1 for c in mb.cut_points]
        assert mb.model.n_values_.tolist() == bins + [3]
    old = ESKDB(n_estimators=3, random_state=0, categorical_features=cat, missing_slot="always").fit(X, y)
    for mb in old.members_:
        assert mb.model.n_values_.tolist() == [c.size + 2 for c in mb.cut_points] + [4]
    assert not np.allclose(old.predict_proba(X[:20]), est.predict_proba(X[:20]))
    Xm = X.copy()
    Xm[5, 1] = np.nan
    mis = ESKDB(n_estimators=2, random_state=0, categorical_features=cat).fit(Xm, y)
    for mb in mis.members_:
        assert mb.model.n_values_.tolist() == [mb.cut_points[0].size + 1, mb.cut_points[1].size + 2, 3]
    t_nan, t_zero = X[:1].copy(), X[:1].copy()
    t_nan[0, 2], t_zero[0, 2] = np.nan, 0.0
    np.testing.assert_array_equal(mis.predict_proba(t_nan), mis.predict_proba(t_zero))


def test_eskdb_passes_tie_order_and_loo_rule_to_its_members():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(150, 4))
    y = (X[:, 0] > 0).astype(int)
    est = ESKDB(n_estimators=2, random_state=1, tie_order="weka", loo_rule="authors").fit(X, y)
    assert all(mb.model.tie_order == "weka" and mb.model.loo_rule == "authors" for mb in est.members_)
    with pytest.raises(ValueError, match="loo_rule"):
        ESKDB(loo_rule="x").fit(X, y)


# ----------------------------------------------------------------------------- the reference code's draws
from pathlib import Path  # noqa: E402

from algorithms._java_random import JavaRandom  # noqa: E402
from algorithms.eskdb import (AUTHORS_SEED, random_mdl_boundaries_authors,  # noqa: E402
                              sample_attribute_order_authors)

AUTHORS_CUTS = Path(__file__).parent / "data" / "eskdb_authors_cut_points.txt"


def _java_cumulative(weights, p):
    """SUtils.normalize then SUtils.cumulativeProbability, in plain Python."""
    total = 0.0
    for w in weights:
        total += w
    norm = [w / total for w in weights] if total > 0 else list(weights)
    cum = 0.0
    for i, w in enumerate(norm):
        cum += w
        if p <= cum and w != 0:
            return i
    raise AssertionError("p above the last running sum")


class _Seed:
    """MDLR's ``long seed`` field."""

    def __init__(self, value):
        self.value = value


def _authors_alg2(counts, lo, hi, first, seed, out):
    """MDLR.cutPointsForSubset, line by line over candidate_cuts (plain Python, recursive):
    ``new Random(seed).nextDouble()`` then ``seed++``; the first-call IG draw keeps the seed."""
    m = hi - lo - 1
    if m < 1 or counts[lo:hi].sum() < 2:
        return
    cands = candidate_cuts(counts, lo, hi, n_cut_points=m)
    dist = [d if d > 0 else 0.0 for d in (cands.gain - cands.mdl_threshold)]
    if sum(dist) == 0:
        if first:
            ig = [g if g > 0 else 0.0 for g in cands.gain]
            if sum(ig) > 0:
                out.append(int(cands.boundary[_java_cumulative(ig, JavaRandom(seed.value).next_double())]))
        return
    p = JavaRandom(seed.value).next_double()
    seed.value += 1
    pick = _java_cumulative(dist, p)
    j = int(cands.boundary[pick])
    out.append(j)
    if pick != 0:
        _authors_alg2(counts, lo, j + 1, False, seed, out)
    if pick != m - 1:
        _authors_alg2(counts, j + 1, hi, False, seed, out)


def test_authors_kernel_equals_a_transcription_of_mdlr():
    rng = np.random.default_rng(8)
    for trial in range(30):
        n = int(rng.integers(30, 400))
        x = np.round(rng.normal(size=n), 1)
        y = ((x + rng.normal(scale=rng.uniform(0.2, 3.0), size=n)) > 0).astype(int) + (x > 1.2)
        _, counts = class_counts_by_value(x, y, 3)
        for seed in (0, AUTHORS_SEED + trial, -5):
            expect, s = [], _Seed(seed)
            _authors_alg2(counts, 0, counts.shape[0], True, s, expect)
            got, next_seed = random_mdl_boundaries_authors(counts, seed)
            np.testing.assert_array_equal(got, np.sort(expect))
            assert next_seed == s.value
    counts = _no_cut_passes_counts()           # the first-call rule draws without seed++
    got, next_seed = random_mdl_boundaries_authors(counts, 11)
    assert got.size == 1 and next_seed == 11
    expect = []
    _authors_alg2(counts, 0, counts.shape[0], True, _Seed(11), expect)
    assert got.tolist() == expect


def _authors_table():
    table = {}
    for line in AUTHORS_CUTS.read_text().splitlines():
        if line.startswith("#"):
            continue
        name, k, j, cuts = line.split("\t")
        table.setdefault(name, {})[(int(k), int(j))] = [float.fromhex(v) for v in cuts.split(",")] if cuts else []
    return table


@pytest.mark.parametrize("name", ["iris", "glass", "hepatitis"])
def test_authors_cut_points_equal_the_reference_code(name):
    """Every member's cut points equal those of the reference code's MDLR (fixture printed by it,
    seeds 1990093 + k as MDL_R/TwoFoldCV.java): columns visited last to first, seed carried."""
    ds = _load_or_skip(name)
    expect = _authors_table()[name]
    est = ESKDB(n_estimators=10, cut_point_rng="authors", random_state=0, categorical_features=ds.categorical,
                n_categories=ds.n_categories).fit(ds.X, ds.y)
    numeric = np.flatnonzero(~ds.categorical)
    assert {j for _, j in expect} == set(numeric.tolist())
    for k, mb in enumerate(est.members_):
        for j, cuts in zip(numeric, mb.cut_points):
            assert cuts.tolist() == expect[(k, int(j))], f"member {k}, column {j}"


def _authors_order(mi, seed):
    """BNStructure_MDLR.sampleReNormalizing with one new Random(seed), in plain Python."""
    w = [float(v) if v > 0 else 0.0 for v in mi]
    r = JavaRandom(seed)
    res = []
    for _ in range(len(w)):
        total = 0.0
        for v in w:
            total += v
        if total == 0:
            break
        w = [v / total for v in w]
        idx = _java_cumulative(w, r.next_double())
        res.append(idx)
        w[idx] = 0.0
    return res


def test_authors_order_equals_a_transcription_of_sample_renormalizing():
    rng = np.random.default_rng(2)
    for trial in range(200):
        d = int(rng.integers(1, 40))
        mi = rng.exponential(size=d) * (rng.random(d) < 0.8)
        seed = AUTHORS_SEED + trial
        expect = _authors_order(mi, seed)
        got = sample_attribute_order_authors(mi, seed, zero_mi="drop")
        assert got.tolist() == expect
        app = sample_attribute_order_authors(mi, seed, zero_mi="append", rng=np.random.default_rng(0))
        assert app[:len(expect)].tolist() == expect and sorted(app.tolist()) == list(range(d))
    # the first drawn attribute is the one Java's first nextDouble() lands on
    mi = np.array([0.1, 0.2, 0.3, 0.4])
    p = JavaRandom(7).next_double()
    assert sample_attribute_order_authors(mi, 7, "drop")[0] == int(np.argmax(np.cumsum(mi / mi.sum()) >= p))
    assert sample_attribute_order_authors(np.zeros(3), 7, "drop").size == 0
    with pytest.raises(ValueError, match="rng"):
        sample_attribute_order_authors([0.0, 0.2], 7, "append")


def test_authors_draws_seed_member_e_with_java_seed_plus_e():
    X, y, cat, ncat = mixed_data()
    kw = dict(n_estimators=4, categorical_features=cat, n_categories=ncat, zero_mi="drop")
    est = ESKDB(cut_point_rng="authors", order_rng="authors", random_state=0, **kw).fit(X, y)
    numeric = np.flatnonzero(~cat)
    for e, mb in enumerate(est.members_):
        assert mb.order.tolist() == _authors_order(mb.model.information_.mi, AUTHORS_SEED + e)
        seed = AUTHORS_SEED + e
        for pos in range(numeric.size - 1, -1, -1):           # last column first, seed carried over
            values, counts = class_counts_by_value(X[:, numeric[pos]], y, 3)
            cuts, seed = random_mdl_boundaries_authors(counts, seed)
            np.testing.assert_array_equal(mb.cut_points[pos], (values[cuts] + values[cuts + 1]) / 2.0)
    # random_state does not move the Java draws; java_seed does
    other = ESKDB(cut_point_rng="authors", order_rng="authors", random_state=99, **kw).fit(X, y)
    np.testing.assert_array_equal(other.predict_proba(X), est.predict_proba(X))
    shifted = ESKDB(cut_point_rng="authors", order_rng="authors", java_seed=AUTHORS_SEED + 1, **kw).fit(X, y)
    for a, b in zip(est.members_[1:], shifted.members_[:-1]):   # member e + 1 == shifted member e
        assert a.order.tolist() == b.order.tolist()
        assert all(np.array_equal(u, v) for u, v in zip(a.cut_points, b.cut_points))


def _driver_member_seeds(n_rounds, n_members):
    """The member seeds of the reference 5x2 CV driver (MDL_R/TwoFoldCV.main), as it counts them: one
    ``randomSeed = 1990093`` before the rounds, each round trains on its fold 0 then its fold 1, every
    member takes the current value and then ``randomSeed++``. Returns one list of member seeds per
    training fold, in the driver's order."""
    random_seed, folds = 1990093, []
    for _round in range(n_rounds):
        for _fold in (0, 1):
            members = []
            for _k in range(n_members):
                members.append(random_seed)
                random_seed += 1
            folds.append(members)
    return folds


def test_authors_fold_seeds_follow_the_reference_driver():
    from bench.protocols import splits

    X, y, cat, ncat = mixed_data()
    E = 3
    kw = dict(n_estimators=E, categorical_features=cat, n_categories=ncat, zero_mi="drop", cut_point_rng="authors",
              order_rng="authors")
    driver = _driver_member_seeds(5, E)
    # the protocol's split index is the driver's training-fold count: round r, fold f -> 2r + f
    index = {(s.repeat, s.fold): s.index for s in splits(y, {"kind": "kfold", "n_splits": 2, "n_repeats": 5}, 0)}
    assert sorted(index.values()) == list(range(10)) and index[(3, 1)] == 7
    numeric = np.flatnonzero(~cat)
    for f in (0, 1, 7):
        est = ESKDB(java_fold_seeds=True, split_index=f, random_state=0, **kw).fit(X, y)
        for e, mb in enumerate(est.members_):
            assert mb.order.tolist() == _authors_order(mb.model.information_.mi, driver[f][e])
            seed = driver[f][e]
            for pos in range(numeric.size - 1, -1, -1):
                values, counts = class_counts_by_value(X[:, numeric[pos]], y, 3)
                cuts, seed = random_mdl_boundaries_authors(counts, seed)
                np.testing.assert_array_equal(mb.cut_points[pos], (values[cuts] + values[cuts + 1]) / 2.0)
    # without java_fold_seeds every split starts at java_seed (bit-identical to no split index at all)
    base = ESKDB(random_state=0, **kw).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(ESKDB(split_index=7, random_state=0, **kw).fit(X, y).predict_proba(X), base)
    np.testing.assert_array_equal(ESKDB(java_fold_seeds=True, random_state=0, **kw).fit(X, y).predict_proba(X), base)
    with pytest.raises(ValueError, match="split_index"):
        ESKDB(split_index=-1, **kw).fit(X, y)


def test_runner_gives_the_split_index_to_an_estimator_that_declares_it():
    from bench.protocols import Split
    from bench.runner import build_estimator, run_split

    ds = load("iris")
    cfg = {"name": "t", "estimator": {"_target_": "algorithms.eskdb.ESKDB", "n_estimators": 2, "cut_point_rng": "authors",
                                      "order_rng": "authors", "java_fold_seeds": True}}
    assert build_estimator(cfg, ds, 0, 5)[1].split_index == 5
    assert build_estimator(cfg, ds, 0)[1].split_index is None
    fixed = {**cfg, "estimator": {**cfg["estimator"], "split_index": 2}}
    assert build_estimator(fixed, ds, 0, 5)[1].split_index == 2      # a configured value is kept
    rows = np.arange(ds.y.size)
    train, test = rows[rows % 2 == 0], rows[rows % 2 == 1]
    # the runner's split 3 of a config = split 0 of the same config with java_seed moved on by 3 folds
    p3 = run_split(cfg, ds, Split(1, 1, train, test, index=3), 0)[1]
    moved = {**cfg, "estimator": {**cfg["estimator"], "java_seed": 1990093 + 3 * 2}}
    p0 = run_split(moved, ds, Split(1, 1, train, test, index=0), 0)[1]
    assert p3.keys() == p0.keys()
    for k in p3:
        np.testing.assert_array_equal(np.asarray(p3[k]), np.asarray(p0[k]))


def test_each_rng_option_changes_only_its_own_draws():
    X, y, cat, ncat = mixed_data()
    kw = dict(n_estimators=3, random_state=5, categorical_features=cat, n_categories=ncat)
    base = ESKDB(**kw).fit(X, y)
    assert ESKDB().cut_point_rng == "numpy" and ESKDB().order_rng == "numpy" and ESKDB().java_seed == 1990093
    orders_only = ESKDB(order_rng="authors", **kw).fit(X, y)      # cut points come first from the same NumPy rng
    cuts_only = ESKDB(cut_point_rng="authors", **kw).fit(X, y)
    for b, o, c in zip(base.members_, orders_only.members_, cuts_only.members_):
        assert all(np.array_equal(u, v) for u, v in zip(b.cut_points, o.cut_points))
        assert not all(np.array_equal(u, v) for u, v in zip(b.cut_points, c.cut_points))
    assert [tuple(m.order) for m in base.members_] != [tuple(m.order) for m in orders_only.members_]
    fixed = ESKDB(random_cut_points=False, cut_point_rng="authors", **kw).fit(X, y)  # nothing to draw: unused
    np.testing.assert_array_equal(fixed.predict_proba(X), ESKDB(random_cut_points=False, **kw).fit(X, y)
                                  .predict_proba(X))


def test_authors_cut_points_are_nearly_fixed_across_members():
    """The reference code's draws give far fewer distinct cut-point sets per attribute."""
    ds = _load_or_skip("glass")
    kw = dict(n_estimators=10, random_state=0, categorical_features=ds.categorical, n_categories=ds.n_categories)

    def distinct(est):
        return [len({tuple(mb.cut_points[a]) for mb in est.members_}) for a in range(len(est.members_[0].cut_points))]

    authors = distinct(ESKDB(cut_point_rng="authors", **kw).fit(ds.X, ds.y))
    numpy_ = distinct(ESKDB(**kw).fit(ds.X, ds.y))
    assert np.mean(authors) < 0.7 * np.mean(numpy_)


def test_rng_options_are_validated():
    X, y, _, _ = mixed_data()
    with pytest.raises(ValueError, match="cut_point_rng"):
        ESKDB(cut_point_rng="java").fit(X, y)
    with pytest.raises(ValueError, match="order_rng"):
        ESKDB(order_rng="mt").fit(X, y)
    with pytest.raises(ValueError, match="java_seed"):
        ESKDB(java_seed=2 ** 63).fit(X, y)
    with pytest.raises(ValueError, match="seed"):
        random_mdl_boundaries_authors(np.array([[3, 1], [1, 3]]), 1.5)


def test_distinct_cut_sets_diagnostic_counts_member_discretisations():
    """diagnostics_['distinct_cut_sets'] = per numeric attribute, distinct cut-point sets among the
    members, averaged: recounted here from members_, and lower under the reference code's draws."""
    ds = load("iris")
    kw = dict(n_estimators=10, max_k=2, random_state=0)
    m = ESKDB(**kw).fit(ds.X, ds.y)
    recount = np.mean([len({tuple(mb.cut_points[a]) for mb in m.members_}) for a in range(ds.X.shape[1])])
    assert m.diagnostics_["distinct_cut_sets"] == pytest.approx(recount)
    assert 1.0 <= recount <= 10.0
    fixed = ESKDB(**kw, random_cut_points=False).fit(ds.X, ds.y)     # Weka's MDL cut points: one set
    assert fixed.diagnostics_["distinct_cut_sets"] == 1.0
    authors = ESKDB(**kw, cut_point_rng="authors").fit(ds.X, ds.y)
    assert authors.diagnostics_["distinct_cut_sets"] < m.diagnostics_["distinct_cut_sets"]
