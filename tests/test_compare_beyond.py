"""The instruments beyond the papers' tests against independent implementations on fixed inputs:
the Bayesian signed-rank and correlated t-tests against baycomp, Cliff's delta against scipy's
Mann-Whitney U and its interval against a bootstrap written out here, Holm / Hochberg / Bonferroni
against statsmodels, the Bonferroni-Dunn q against Demsar's Table 5b, Conover's test against its
formula, the Wilcoxon test of every pair against scikit-posthocs, the exact permutation Wilcoxon
against an enumeration of every sign flip, and Weka's per-dataset marks against the corrected
resampled t-test's formula; then the same numbers in ``bench compare``'s analysis and summary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bench.stats import bayes, effect, posthoc
from bench.stats.ttests import wilcoxon_signed_rank
from tests.helpers_stats import signflip_p

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- Bayesian tests against baycomp
@pytest.mark.parametrize("rope", [0.0, 0.004, 0.02])
def test_bayesian_signed_rank_equals_baycomp(rope):
    from baycomp import SignedRankTest

    rng = np.random.default_rng(3)
    a = rng.uniform(0.05, 0.4, 25)
    b = a + rng.normal(0.006, 0.01, 25)          # a lower error on most datasets
    b[:3] = a[:3]                                   # a few exact ties
    ours = bayes.signed_rank(a, b, rope, nsamples=20000, seed=5, keep_samples=True)
    ref = SignedRankTest.sample(a, b, rope, nsamples=20000, random_state=5)   # columns P(b-a < -rope), rope, >
    assert np.allclose(ours.samples, ref[:, [2, 1, 0]], atol=1e-12)
    pl, pe, pr = (np.bincount(np.argmax(ref, axis=1), minlength=3) / len(ref))
    assert (ours.p_a, ours.p_rope, ours.p_b) == pytest.approx((pr, pe, pl), abs=1e-12)
    # higher is better: the same values negated give the same answer
    hi = bayes.signed_rank(-a, -b, rope, lower_is_better=False, nsamples=20000, seed=5)
    assert (hi.p_a, hi.p_rope, hi.p_b) == pytest.approx((ours.p_a, ours.p_rope, ours.p_b))
    assert ours.p_a + ours.p_rope + ours.p_b == pytest.approx(1.0)


@pytest.mark.parametrize("runs,folds,rope", [(1, 10, 0.01), (3, 10, 0.005), (5, 2, 0.0)])
def test_bayesian_correlated_ttest_equals_baycomp(runs, folds, rope):
    from baycomp import CorrelatedTTest

    rng = np.random.default_rng(runs * 10 + folds)
    a = rng.uniform(0.1, 0.2, runs * folds)
    b = a + rng.normal(0.004, 0.01, a.size)
    ours = bayes.correlated_ttest(a, b, rho=1.0 / folds, rope=rope)   # rho = n_test / n_total of k-fold CV
    ref = CorrelatedTTest.probs(a, b, rope=rope, runs=runs)             # baycomp: y - x > rope is "right"
    if rope == 0:
        assert (ours.p_b, ours.p_a) == pytest.approx(ref, abs=1e-12)
    else:
        assert (ours.p_b, ours.p_rope, ours.p_a) == pytest.approx(ref, abs=1e-12)


def test_bayesian_inputs_are_checked():
    with pytest.raises(ValueError, match="ROPE"):
        bayes.signed_rank([1, 2], [2, 3], rope=-0.1)
    with pytest.raises(ValueError, match="rho"):
        bayes.correlated_ttest([1, 2], [2, 3], rho=1.0)
    with pytest.raises(ValueError, match="NaN"):
        bayes.signed_rank([1, np.nan], [2, 3])


# ---------------------------------------------------------------- effect sizes
def test_cliffs_delta_equals_mann_whitney_u_and_labels():
    rng = np.random.default_rng(1)
    x, y = rng.normal(0, 1, 30), rng.normal(0.5, 1, 40)
    x[:3] = y[:3]                                                     # ties count 0
    u = stats.mannwhitneyu(x, y).statistic                            # #(x > y) + 0.5 #(x == y)
    assert effect.cliffs_delta(x, y) == pytest.approx(2 * u / (x.size * y.size) - 1)
    assert [effect.magnitude(d) for d in (0.1, -0.2, 0.4, -0.9, 0.147)] == \
        ["negligible", "small", "medium", "large", "small"]


def _bca_by_hand(x, y, sign, b=20000, conf=0.95, seed=11):
    """Efron's BCa interval of sign * Cliff's delta, resampling datasets (pairs) with replacement."""
    rng = np.random.default_rng(seed)
    n = x.size
    theta = sign * effect.cliffs_delta(x, y)
    idx = rng.integers(0, n, size=(b, n))
    boot = sign * effect.cliffs_delta(x[idx], y[idx])
    z0 = stats.norm.ppf((np.sum(boot < theta) + 0.5 * np.sum(boot == theta)) / b)
    jack = np.array([sign * effect.cliffs_delta(np.delete(x, i), np.delete(y, i)) for i in range(n)])
    d = jack.mean() - jack
    acc = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    out = []
    for q in ((1 - conf) / 2, (1 + conf) / 2):
        z = stats.norm.ppf(q)
        out.append(np.quantile(boot, stats.norm.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z)))))
    return theta, out


def test_effect_size_interval_matches_a_bca_bootstrap_written_here():
    rng = np.random.default_rng(4)
    base = rng.uniform(0.05, 0.5, 40)
    algo = base - rng.normal(0.05, 0.04, 40)                        # algo lower (better) on most
    e = effect.effect_size(algo, base)
    theta, (lo, hi) = _bca_by_hand(base, algo, 1.0)                  # > 0: algo better = base values higher
    assert e.delta == pytest.approx(theta) and e.delta > 0
    assert e.low == pytest.approx(lo, abs=0.02) and e.high == pytest.approx(hi, abs=0.02)
    assert e.low < e.delta < e.high and e.magnitude == effect.magnitude(e.delta)


# ---------------------------------------------------------------- multiple testing
def test_holm_hochberg_bonferroni_equal_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(2)
    for _ in range(20):
        p = rng.uniform(0, 0.2, rng.integers(2, 12)) ** 2
        for ours, name, sm in ((posthoc.holm, "holm", "holm"), (posthoc.hochberg, "hochberg", "simes-hochberg"),
                               (posthoc.bonferroni, "bonferroni", "bonferroni")):
            rej, adj, _, _ = multipletests(p, alpha=0.05, method=sm)
            assert np.allclose(ours(p), adj)
            assert (posthoc.rejects(p, name, 0.05) == rej).all()
    # the boundary, adjusted p exactly alpha: rejected by both (p_(i) <= alpha / (m - i + 1))
    p = [0.0125, 0.5, 0.9, 0.7]
    assert posthoc.holm(p)[0] == 0.05 and posthoc.rejects(p, "holm")[0]
    assert multipletests(p, alpha=0.05, method="holm")[0][0]


@pytest.mark.parametrize("name,sm", [("holm", "holm"), ("hochberg", "simes-hochberg"), ("bonferroni", "bonferroni")])
def test_corrections_reject_at_the_threshold_itself_as_statsmodels(name, sm):
    """p_(i) exactly alpha / (m - i + 1) is rejected (<=), although (m - i + 1) p_(i) may round above alpha
    (0.05 / 11 * 11 = 0.05000000000000001): the decision is on the raw p-values, as statsmodels takes it."""
    from statsmodels.stats.multitest import multipletests

    rounded_up = 0
    for m in range(2, 25):
        for i in range(1, m + 1):
            k = m if name == "bonferroni" else m - i + 1
            p = [0.001 * j / m for j in range(1, i)] + [0.05 / k] + [0.9] * (m - i)
            ours = posthoc.rejects(p, name, 0.05)
            assert (ours == multipletests(p, alpha=0.05, method=sm)[0]).all(), (m, i)
            assert ours[i - 1]                             # the p-value at its threshold is rejected
            # just above the threshold: not rejected (nor any later one under Holm)
            q = list(p)
            q[i - 1] = np.nextafter(0.05 / k, 1.0)
            assert (posthoc.rejects(q, name, 0.05) == multipletests(q, alpha=0.05, method=sm)[0]).all(), (m, i)
            rounded_up += k * (0.05 / k) > 0.05
    assert rounded_up > 0       # the case the raw-p rule exists for occurs in this range
    with pytest.raises(ValueError, match="unknown correction"):
        posthoc.rejects([0.01], "sidak")


def test_bonferroni_dunn_q_is_demsars_table_5b():
    # k = 2..10, alpha 0.05; for k = 9 the table prints 2.724, a misprint: z_{1 - 0.05/16} = 2.734
    # (it lies between 2.690 for k = 8 and 2.773 for k = 10 either way)
    table = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773]
    assert [round(posthoc.bonferroni_dunn_q(k), 3) for k in range(2, 11)] == pytest.approx(table, abs=1.5e-3)
    assert posthoc.bonferroni_dunn_cd(5, 30) == pytest.approx(posthoc.bonferroni_dunn_q(5) * np.sqrt(5 * 6 / 180))


def test_control_tests_are_demsars_z_statistics():
    ranks = {"c": 2.1, "x": 1.4, "y": 3.6, "z": 2.9}
    n, k = 24, 4
    t = posthoc.control_tests(ranks, n, "c").set_index("algorithm")
    se = np.sqrt(k * (k + 1) / (6 * n))
    for a in "xyz":
        z = (ranks[a] - ranks["c"]) / se
        assert t.loc[a, "z"] == pytest.approx(z) and t.loc[a, "p"] == pytest.approx(2 * stats.norm.sf(abs(z)))
    p = t["p"].to_numpy()
    assert np.allclose(t["p_holm"], posthoc.holm(p)) and np.allclose(t["p_bonferroni_dunn"], np.minimum(1, 3 * p))
    # Bonferroni-Dunn rejects exactly where the difference of ranks exceeds its CD
    cd = posthoc.bonferroni_dunn_cd(k, n)
    assert list(t["rejects_bonferroni_dunn"]) == [abs(ranks[a] - ranks["c"]) > cd for a in t.index]


def test_conover_friedman_equals_its_formula():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(8)
    v = pd.DataFrame(rng.uniform(0, 1, (15, 4)) + np.array([0, 0.2, 0.25, 0.5]), columns=list("abcd"))
    r = np.apply_along_axis(stats.rankdata, 1, v.to_numpy())
    n, k = r.shape
    rs = r.sum(axis=0)
    a1 = np.sum(r ** 2)
    c1 = n * k * (k + 1) ** 2 / 4
    t1 = (k - 1) * np.sum((rs - n * (k + 1) / 2) ** 2) / (a1 - c1)     # Conover's (1999) T1
    df = (n - 1) * (k - 1)
    se = np.sqrt(2 * n * (a1 - c1) / df * (1 - t1 / (n * (k - 1))))
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    raw = [2 * stats.t.sf(abs(rs[i] - rs[j]) / se, df) for i, j in pairs]
    adj = multipletests(raw, method="holm")[1]
    ours = posthoc.conover_friedman(v, p_adjust="holm")
    for (i, j), p in zip(pairs, adj):
        assert ours.iloc[i, j] == pytest.approx(p) and ours.iloc[j, i] == pytest.approx(p)


def test_wilcoxon_pairs_equal_scikit_posthocs():
    import scikit_posthocs as sp

    rng = np.random.default_rng(12)
    v = pd.DataFrame(rng.uniform(0, 1, (14, 4)) + np.array([0, 0.1, 0.3, 0.35]), columns=list("abcd"))
    long = posthoc.wilcoxon_pairs(v)
    assert set(long["method"]) == {"exact"}
    ref = sp.posthoc_wilcoxon(v.melt(var_name="g", value_name="v"), val_col="v", group_col="g",
                              method="exact", p_adjust="holm")
    m = posthoc.pair_matrix(long, list(v.columns))
    for a in v.columns:
        for b in v.columns:
            if a != b:
                assert m.loc[a, b] == pytest.approx(ref.loc[a, b])


# ---------------------------------------------------------------- Wilcoxon with ties and zeros
def test_exact_permutation_wilcoxon_equals_enumeration():
    d = np.array([0.02, 0.02, -0.01, 0.03, 0.0, 0.01, 0.01, -0.02, 0.04, 0.0, 0.05, 0.0])
    # Demsar: three zeros, one dropped, two split
    w = wilcoxon_signed_rank(d, np.zeros_like(d), zero_method="demsar", method="auto_exact")
    assert w.method.startswith("exact permutation") and w.n == 11
    assert w.p == pytest.approx(signflip_p(np.delete(d, 4)), rel=1e-12)
    # zsplit keeps all three zeros; wilcox drops them
    assert wilcoxon_signed_rank(d, 0 * d, "zsplit", "permutation").p == pytest.approx(signflip_p(d), rel=1e-12)
    assert wilcoxon_signed_rank(d, 0 * d, "wilcox", "permutation").p == pytest.approx(signflip_p(d[d != 0]), rel=1e-12)
    # the normal approximation is what "auto" still gives, and it is off here
    approx = wilcoxon_signed_rank(d, 0 * d, "demsar", "auto")
    assert approx.method == "approx" and abs(approx.p - w.p) > 0.005
    with pytest.raises(ValueError, match="approx"):
        wilcoxon_signed_rank(np.r_[d, d, d], 0 * np.r_[d, d, d], "wilcox", "permutation")


# ---------------------------------------------------------------- in bench compare
def _records(values: dict, n_test: int = 50, n_train: int = 50) -> pd.DataFrame:
    rows = []
    for algo, v in values.items():
        for d in range(v.shape[0]):
            for f in range(v.shape[1]):
                rows.append({"dataset": f"d{d:02d}", "algo": algo, "protocol": "cv2", "seed": 0, "repeat": f // 2,
                             "fold": f % 2, "status": "ok", "metrics.error": v[d, f], "metrics.rmse": v[d, f] * 2,
                             "metrics.log_loss": v[d, f] * 3, "times.train_cpu_s": 0.01, "times.test_cpu_s": 0.001,
                             "n_instances": n_test + n_train, "n_test": n_test, "n_train": n_train,
                             "algo_hash": algo * 3, "finished_at": "2026", "experiment": "x",
                             "source": "evidence:x"})    # no stored predictions: no bias/variance here
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def compared():
    from bench.compare.analysis import analyse

    rng = np.random.default_rng(21)
    n, s = 10, 10                       # 10 datasets, 5 x 2-fold CV
    base = rng.uniform(0.1, 0.3, (n, 1)) + rng.normal(0, 0.01, (n, s))
    vals = {"base": base, "close": base + rng.normal(0.001, 0.002, (n, s)),
            "better": base - 0.04 + rng.normal(0, 0.01, (n, s))}
    return vals, analyse(_records(vals, 40, 60), list(vals), "base", [0], ropes=[0.005, 0.0001])


def test_compare_bayes_and_effect_numbers_are_the_instruments(compared):
    from baycomp import SignedRankTest

    vals, c = compared
    means = {k: v.mean(axis=1) for k, v in vals.items()}
    row = c.bayes.query("algorithm == 'close' and measure == 'error' and rope == 0.005").iloc[0]
    ref = SignedRankTest.sample(means["close"], means["base"], 0.005, random_state=0)
    pl, pe, pr = np.bincount(np.argmax(ref, axis=1), minlength=3) / len(ref)
    assert (row.p_algorithm, row.p_rope, row.p_baseline) == pytest.approx((pr, pe, pl))
    assert row.decision == "equivalent"
    assert c.bayes.query("algorithm == 'better' and rope == 0.005 and measure == 'error'").iloc[0].decision == "better"
    e = c.effects.query("algorithm == 'better' and measure == 'error'").iloc[0]
    assert e.cliffs_delta == pytest.approx(effect.cliffs_delta(means["base"], means["better"]))
    # the per-dataset correlated t: rho = n_test / n_total = 0.4 from the records
    bd = c.bayes_datasets.query("algorithm == 'close' and rope == 0.005 and dataset == 'd03'").iloc[0]
    ours = bayes.correlated_ttest(vals["close"][3], vals["base"][3], 0.4, 0.005)
    assert bd.rho == pytest.approx(0.4) and bd.p_rope == pytest.approx(ours.p_rope)


def test_compare_summary_speaks_of_practical_equivalence(compared):
    from bench.compare.analysis import summary

    _, c = compared
    text = summary(c)
    assert "practically equivalent to base within 0.5 points of error: close" in text
    assert "better than base by more than 0.5 points of error: better" in text


def test_weka_marks_follow_the_corrected_resampled_t_formula(compared):
    vals, c = compared
    w = c.weka["error"].set_index(["dataset", "algorithm"])
    for d in range(10):
        for a in ("close", "better"):
            diff = vals[a][d] - vals["base"][d]
            j = diff.size
            t = diff.mean() / np.sqrt((1 / j + 40 / 60) * diff.var(ddof=1))
            p = 2 * stats.t.sf(abs(t), j - 1)
            row = w.loc[(f"d{d:02d}", a)]
            assert row.t == pytest.approx(t) and row.p == pytest.approx(p)
            assert row.mark == ("" if p >= 0.05 else "v" if t < 0 else "*")
    pairs = c.weka_pairs["error"].set_index(["algorithm", "against"])
    marks = c.weka["error"].query("algorithm == 'better'")["mark"]
    assert (pairs.loc[("better", "base"), ["wins", "draws", "losses"]].tolist()
            == [int((marks == "v").sum()), int((marks == "").sum()), int((marks == "*").sum())])
    assert pairs.loc[("base", "better"), "wins"] == pairs.loc[("better", "base"), "losses"]


def test_compare_control_and_posthoc_tables(compared):
    _, c = compared
    fr = c.friedman["error"]
    ctl = c.control["error"].set_index("algorithm")
    se = np.sqrt(3 * 4 / (6 * fr["n_datasets"]))
    assert ctl.loc["better", "z"] == pytest.approx((fr["ranks"]["better"] - fr["ranks"]["base"]) / se)
    assert c.conover["error"].shape == (3, 3)
    assert len(c.wilcoxon_pairs["error"]) == 3


def test_rope_option_is_checked_before_anything_runs(tmp_path, capsys):
    from bench.compare.__main__ import main, parse_ropes

    assert parse_ropes("0.001, 0.005,0.001") == [0.001, 0.005] and parse_ropes(None) is None
    out = tmp_path / "never"
    for bad in ("-0.1", "x", ","):
        assert main(["--algos", "gnb,rf10", "--datasets", "sk_iris", "--rope", bad, "--out", str(out)]) == 2
        assert "--rope" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("first", ["import bench.stats.ranks", "from bench.stats import rank_matrix", "pass",
                                   "import bench.stats.posthoc", "from bench.stats import friedman",
                                   "from bench.stats import *", "import bench.compare.analysis"])
def test_bench_stats_ranks_is_the_module_whatever_was_imported_first(first):
    code = (f"{first}\nfrom bench.stats import ranks, rank_matrix\nimport types\n"
            "assert isinstance(ranks, types.ModuleType), ranks\n"
            "assert rank_matrix is ranks.ranks and rank_matrix([[1, 2], [2, 1]]).tolist() == [[1, 2], [2, 1]]\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
