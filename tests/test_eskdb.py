"""ESKDB (algorithms/eskdb.py): Algorithm 2 (randomised MDL), Algorithm 3 (order sampling),
the ensemble (equality with SKDB, determinism, probabilities)."""

import math
from itertools import permutations

import numpy as np
import pytest
from scipy.stats import chisquare

from algorithms.discretize import candidate_cuts, class_counts_by_value, mdl_boundaries
from algorithms.eskdb import mutual_information, random_mdl_boundaries, sample_attribute_order


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


def test_mutual_information_matches_the_definition():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 500)
    a = np.where(rng.random(500) < 0.7, y, rng.integers(0, 3, 500))
    b = rng.integers(0, 4, 500)
    codes = np.column_stack([a, b, np.full(500, -1)])
    mi = mutual_information(codes, y, [3, 4, 1], 3)
    joint = np.zeros((3, 3))
    np.add.at(joint, (a, y), 1)
    p = joint / 500
    ref = sum(p[i, j] * math.log(p[i, j] / (p[i].sum() * p[:, j].sum())) for i in range(3) for j in range(3)
              if p[i, j] > 0)
    assert math.isclose(mi[0], ref, rel_tol=1e-12)
    assert 0 <= mi[1] < 0.05 and mi[2] == 0.0
