"""bench.compare.analysis against independent computations: W/D/L by hand counts, the sign tests by
scipy's binomtest, Friedman by scipy's friedmanchisquare, Wilcoxon by scipy's wilcoxon, Holm by a
hand-worked case, and the fold check on records that differ. The instruments beyond the papers' are
checked in tests/test_compare_beyond.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bench.compare.analysis import analyse, holm, sign_test_floor, summary, wilcoxon_floor
from bench.compare.runs import fold_check
from tests.helpers_stats import signflip_p

PROTOCOL = {"name": "cv2", "kind": "kfold", "n_splits": 2, "n_repeats": 1}


def records(values: dict[str, np.ndarray], rng) -> pd.DataFrame:
    """Split records of algorithms on datasets: ``values[algo]`` is (n_datasets, 2 splits) of errors."""
    rows = []
    for algo, v in values.items():
        for d in range(v.shape[0]):
            for f in range(v.shape[1]):
                rows.append({"dataset": f"d{d:02d}", "algo": algo, "protocol": "cv2", "seed": 0, "repeat": 0, "fold": f,
                             "status": "ok", "metrics.error": v[d, f], "metrics.rmse": v[d, f] * 2,
                             "metrics.log_loss": v[d, f] * 3, "times.train_cpu_s": rng.uniform(0.01, 0.02) *
                             (2 if algo == "b" else 1), "times.test_cpu_s": 0.001, "protocol_config": PROTOCOL,
                             "n_instances": 100, "algo_hash": algo * 3, "finished_at": "2026", "experiment": "x"})
    return pd.DataFrame(rows)


@pytest.fixture
def case():
    rng = np.random.default_rng(7)
    n = 12
    vals = {a: rng.uniform(0.05, 0.4, size=(n, 2)) for a in ("a", "b", "c")}
    vals["b"][:9] = vals["a"][:9] + 0.03      # b worse than a on 9 datasets
    vals["b"][9] = vals["a"][9]               # a draw
    return vals, records(vals, rng)


def test_wdl_and_sign_tests_match_hand_counts_and_binomtest(case):
    vals, rec = case
    c = analyse(rec, ["a", "b", "c"], "a", [0])
    means = {k: v.mean(axis=1) for k, v in vals.items()}
    for other in ("b", "c"):
        row = c.vs_baseline[(c.vs_baseline["algorithm"] == other) & (c.vs_baseline["measure"] == "error")].iloc[0]
        wins = int(np.sum(means[other] < means["a"]))
        losses = int(np.sum(means[other] > means["a"]))
        draws = len(means["a"]) - wins - losses
        assert (row.wins, row.draws, row.losses) == (wins, draws, losses)
        n = wins + losses
        assert row.p_two_tailed == pytest.approx(stats.binomtest(wins, n, 0.5).pvalue)
        alt = "greater" if wins >= losses else "less"
        assert row.p_one_tailed == pytest.approx(stats.binomtest(wins, n, 0.5, alternative=alt).pvalue)
    b = c.vs_baseline[(c.vs_baseline["algorithm"] == "b") & (c.vs_baseline["measure"] == "error")].iloc[0]
    assert (b.wins, b.draws) == (int(np.sum(means["b"] < means["a"])), 1) and b.losses >= 9
    # the all-pairs matrix: a against b is b against a mirrored
    pairs = c.pairs["error"]
    ab = pairs[(pairs.algorithm == "a") & (pairs.against == "b")].iloc[0]
    assert (ab.wins, ab.draws, ab.losses) == (b.losses, b.draws, b.wins)


def test_friedman_matches_scipy_and_wilcoxon_holm_matches_scipy(case):
    vals, rec = case
    c = analyse(rec, ["a", "b", "c"], "a", [0])
    means = {k: v.mean(axis=1) for k, v in vals.items()}
    fr = c.friedman["error"]
    # Demsar's chi2_F (no tie correction: dataset d09 has a tie) from ranks computed here
    m = np.column_stack([means["a"], means["b"], means["c"]])
    r = np.apply_along_axis(stats.rankdata, 1, m).mean(axis=0)
    n, k = m.shape
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r ** 2) - k * (k + 1) ** 2 / 4)
    assert fr["chi2"] == pytest.approx(chi2) and fr["p_chi2"] == pytest.approx(stats.chi2.sf(chi2, k - 1))
    assert [fr["ranks"][a] for a in "abc"] == pytest.approx(r)
    # without the tied dataset, scipy's tie-corrected statistic is the same number
    no_tie = analyse(rec[rec["dataset"] != "d09"], ["a", "b", "c"], "a", [0]).friedman["error"]
    keep = np.arange(n) != 9
    ref = stats.friedmanchisquare(means["a"][keep], means["b"][keep], means["c"][keep])
    assert no_tie["chi2"] == pytest.approx(ref.statistic) and no_tie["p_chi2"] == pytest.approx(ref.pvalue)
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert fr["f"] == pytest.approx(f) and fr["p_f"] == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))
    w = c.wilcoxon[c.wilcoxon["measure"] == "error"].set_index("algorithm")
    ps = []
    for other in ("b", "c"):
        d = means[other] - means["a"]
        # Demsar's rule: b's single zero difference (dataset d09) is dropped (an odd number of zeros);
        # then every sign flip of the 11 or 12 ranked differences, enumerated here
        assert (np.sum(d == 0), w.loc[other, "n_ranked"]) == ((1, 11) if other == "b" else (0, 12))
        ref = signflip_p(d[d != 0] if other == "b" else d)
        assert w.loc[other, "p"] == pytest.approx(ref, rel=1e-9)
        if other == "c":   # no ties, no zeros: scipy's exact distribution, the same number
            assert ref == pytest.approx(stats.wilcoxon(d, method="exact").pvalue, rel=1e-9)
        ps.append(ref)
    lo, hi = sorted(ps)
    assert w["p_holm"].min() == pytest.approx(min(1, 2 * lo))
    assert w["p_holm"].max() == pytest.approx(max(min(1, 2 * lo), hi))


def test_holm_hand_worked_case():
    # sorted 0.005, 0.01, 0.03, 0.04 with m = 4: 4*0.005, 3*0.01, 2*0.03, max(1*0.04, 0.06)
    assert np.allclose(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    assert np.allclose(holm([0.5, 0.9]), [1.0, 1.0])
    out = holm([np.nan, 0.02])
    assert np.isnan(out[0]) and out[1] == pytest.approx(0.02)
    # the boundary: an adjusted p of exactly 0.05 rejects (Holm's rule p_(i) <= alpha / (m - i + 1), as statsmodels)
    from bench.compare.analysis import rejects
    from statsmodels.stats.multitest import multipletests

    p = [0.025, 0.5]
    assert holm(p)[0] == 0.05 and rejects(p, "holm")[0] and multipletests(p, 0.05, "holm")[0][0]


def test_floors_and_thin_evidence_summary(case):
    assert sign_test_floor(5) == pytest.approx(stats.binomtest(5, 5, 0.5).pvalue) and sign_test_floor(5) > 0.05
    assert sign_test_floor(6) < 0.05
    assert wilcoxon_floor(5) == pytest.approx(2 / 32) and wilcoxon_floor(6) < 0.05
    vals, _ = case
    few = records({k: v[:4] for k, v in vals.items()}, np.random.default_rng(0))
    c = analyse(few, ["a", "b", "c"], "a", [0])
    text = summary(c)
    assert "evidence is thin" in text and "4 datasets" in text
    assert "Friedman" in text


def test_incomplete_dataset_left_out_of_the_tests(case):
    _, rec = case
    rec = rec[~((rec["dataset"] == "d03") & (rec["algo"] == "c") & (rec["fold"] == 1))]
    c = analyse(rec, ["a", "b", "c"], "a", [0])
    assert "d03" not in c.datasets and c.incomplete == {"d03": ["c"]}
    assert c.friedman["error"]["n_datasets"] == 11
    assert c.vs_baseline.query("measure == 'error'")[["wins", "draws", "losses"]].sum(axis=1).eq(11).all()


def test_time_ratios_are_per_dataset_ratios_to_the_baseline(case):
    _, rec = case
    c = analyse(rec, ["a", "b", "c"], "a", [0])
    t = rec.groupby(["dataset", "algo"])["times.train_cpu_s"].mean().unstack()
    assert np.allclose(c.time_ratios["train_s"]["b"], (t["b"] / t["a"]).loc[c.datasets])
    assert np.allclose(c.time_ratios["train_s"]["a"], 1.0)


def test_fold_check_names_a_dataset_on_other_folds():
    base = {"seed": 0, "repeat": 0, "dataset_sha256": "s1", "data_key": "dk", "protocol_key": "pk"}
    ours = pd.DataFrame([{**base, "dataset": "x", "fold": f, "n_train": 50, "n_test": 50} for f in (0, 1)] +
                        [{**base, "dataset": "y", "fold": f, "n_train": 50, "n_test": 50} for f in (0, 1)])
    theirs = ours.copy()
    theirs.loc[theirs["dataset"] == "y", "data_key"] = "other"
    table, bad = fold_check(ours, theirs)
    assert list(bad) == ["y"] and "data_key" in bad["y"]
    assert table.set_index("dataset").loc["x", "same folds"] == "yes"
    theirs = ours.copy()
    theirs.loc[0, "n_test"] = 49
    _, bad = fold_check(ours, theirs)
    assert list(bad) == ["x"] and "sizes" in bad["x"]
