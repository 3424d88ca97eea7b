"""The measured causes the verdicts of ES22, ES24, MC13, MC16 and EC03 state, each checked against a
hand-computed case: the numbers in the reason are the ones the stored evidence gives."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from bench import published
from bench.report import verdicts as V
from bench.report.facts import Facts
from bench.report.verdicts import kinds
from tests.test_verdicts import _mc_tables


# ------------------------------------------------------------------ ES22: the leave-one-out scores of the k's
#: four splits of the standalone SKDB: the LOO RMSE of k = 0..5 and the k chosen (the lowest)
SKDB_LOO = [([0.50, 0.45, 0.40, 0.42, 0.43, 0.41], 2), ([0.50, 0.45, 0.44, 0.42, 0.43, 0.41], 5),
            ([0.50, 0.45, 0.38, 0.42, 0.43, 0.41], 2), ([0.50, 0.45, 0.46, 0.42, 0.43, 0.40], 5)]


def _loo_records():
    probe = pd.DataFrame([{"algo": "skdb_loo", "status": "ok", "dataset": "tic_tac_toe", "repeat": i // 2,
                           "fold": i % 2, "extra.loo_by_k": loo, "extra.k": k}
                          for i, (loo, k) in enumerate(SKDB_LOO)]
                         + [{"algo": "eskdb_m_loo", "status": "ok", "dataset": "tic_tac_toe", "repeat": 0, "fold": 0,
                             "extra.loo_by_k": [[0.5, 0.4, 0.3, 0.35, 0.36, 0.37], [0.5, 0.4, 0.45, 0.35, 0.36, 0.37]],
                             "extra.k_star": [2, 3]}])
    # eskdb_main's records of the same splits: the last SKDB split chose 4 there (a mismatch to count)
    main = pd.DataFrame([{"algo": "skdb", "status": "ok", "dataset": "tic_tac_toe", "repeat": i // 2, "fold": i % 2,
                          "extra.k": k if i < 3 else 4} for i, (_, k) in enumerate(SKDB_LOO)]
                        + [{"algo": "eskdb_m", "status": "ok", "dataset": "tic_tac_toe", "repeat": 0, "fold": 0,
                            "extra.k_star": "[2,3]"}])
    return probe, main


def test_loo_scores_per_choice_and_what_they_show():
    from bench.papers.eskdb import loo

    t = loo.scores(*_loo_records())
    sk = t[t["chooser"] == "SKDB"]
    assert sk["k"].tolist() == [2, 5, 2, 5] and sk["main_k"].tolist() == [2, 5, 2, 4]
    assert t[t["chooser"] == "ESKDB_M"][["member", "k", "main_k", "loo_k3"]].values.tolist() == \
        [[0, 2, 2, 0.35], [1, 3, 3, 0.35]]
    # by hand: k = 2 scores .40 .44 .38 .46 (mean .42, SD sqrt(.004 / 3)); k = 5 .41 .41 .41 .40 (mean .4075, SD
    # .005); margins over the next best .01 .01 .03 .02 (median .015) below the median SD (.0365 + .005) / 2
    text = loo.note_for(t[t["chooser"] == "SKDB"])
    assert text == ("standalone SKDB: mean ± SD LOO RMSE over the 4 choices k = 2: 0.4200 ± 0.0365, k = 5: 0.4075 ± "
                    "0.0050; a choice beats the next-best k by a median 0.0150, below the median SD 0.0208: which k "
                    "wins varies from choice to choice (k = 2 and k = 5 each in 2 of 4); the same k as eskdb_main's "
                    "in 3 of 4")
    # margins wider than the scores' spread are said to be so
    wide = t[t["chooser"] == "SKDB"].copy()
    wide["loo_k5"] = [0.30, 0.30, 0.30, 0.30]
    assert "a median 0.1100, not below the median SD" in loo.note_for(wide)   # .10 .12 .08 .12


def test_es22_states_the_leave_one_out_cause(tmp_path):
    from bench.papers.eskdb import loo
    from bench.papers.eskdb import verdicts as eskdb

    out = tmp_path / "eskdb"
    out.mkdir()
    f = Facts("eskdb")
    f.add_table("selected_k", pd.DataFrame([
        {"dataset": "tic_tac_toe", "algorithm": "SKDB", "chooser": "splits", "choices": 4, "most frequent k": "2 and 5",
         **{f"k={k}": {2: 2, 5: 2}.get(k, 0) for k in range(6)}},
        {"dataset": "tic_tac_toe", "algorithm": "ESKDB_M", "chooser": "members x splits", "choices": 2,
         "most frequent k": "2 and 3", **{f"k={k}": {2: 1, 3: 1}.get(k, 0) for k in range(6)}}]),
        "eskdb/selected_k.csv")
    f.add_table(loo.FACT, loo.scores(*_loo_records()), f"eskdb/{loo.FACT}.csv")
    f.write(out)
    v = eskdb.evaluate(tmp_path, published.claims("eskdb").query("claim_id == 'ES22'"))[0]
    assert v.verdict == "not reproduced"
    assert "cause: the leave-one-out scores of the k's (eskdb_skdb_loo): ESKDB_M's SKDB members:" in v.reason
    assert "a median 0.0150, below the median SD 0.0208" in v.reason
    assert v.evidence == "eskdb/selected_k.csv;eskdb/skdb_loo_by_k.csv"


# ------------------------------------------------------------------ ES24: how far the RMSE moves with more iterations
def _uniform_split_exps():
    """eskdb_uniform_prior with two splits per dataset d0..d7 (rows 100 + i): from 1000 to 10000 iterations the
    RMSE falls by 0.01 + 0.001 i on both splits; from 10000 to 50000 it moves by +0.001 + 0.0002 i and -0.001 +
    0.0002 i (mean 0.0002 i, standard error 0.001); eskdb_main also has a 5000-row dataset."""
    cols = {k: f"eskdb_hdp[n_iterations={k},prior=uniform]" for k in (1000, 10000, 50000)}
    rows = []
    for i in range(8):
        for s, sign in ((0, 1), (1, -1)):
            base = 0.3 + 0.01 * i
            r10 = base - 0.01 - 0.001 * i
            rows.append({"dataset": f"d{i}", "seed": 0, "repeat": 0, "fold": s, cols[1000]: base, cols[10000]: r10,
                         cols[50000]: r10 + sign * 0.001 + 0.0002 * i})
    sv = pd.DataFrame(rows).set_index(["dataset", "seed", "repeat", "fold"])
    g = sv.groupby(level="dataset").mean()[[cols[1000]]].set_axis(["eskdb_hdp"], axis=1)
    recs = pd.DataFrame({"dataset": [f"d{i}" for i in range(8)], "n_instances": [100 + i for i in range(8)]})

    def exp(name, splits, means, records):
        return SimpleNamespace(name=name, algos=lambda: list(means.columns), algo_reason=lambda a: None,
                               means=lambda m: means if m == "rmse" else means / 2,
                               splits=lambda m: splits if m == "rmse" else splits / 2, records=records)
    main_recs = pd.concat([recs, pd.DataFrame({"dataset": ["big"], "n_instances": [5000]})])
    return (exp("eskdb_uniform_prior", sv, sv.groupby(level="dataset").mean(), recs),
            exp("eskdb_main", pd.DataFrame(), g, main_recs))


def test_es24_states_how_far_the_rmse_moves(tmp_path):
    from bench.papers.eskdb import build
    from bench.papers.eskdb import verdicts as eskdb
    from bench.report.context import PaperResult

    out = tmp_path / "eskdb"
    out.mkdir()
    res = PaperResult("eskdb", experiments=[])
    build.uniform_prior(*_uniform_split_exps(), out, res)
    t = res.facts.table("uniform_prior_steps").set_index("dataset")
    assert t.loc["d7", "rows"] == 107 and t.loc["d7", "splits"] == 2
    assert np.isclose(t.loc["d7", "change_10000_50000"], 0.0014) and np.isclose(t.loc["d7", "se_10000_50000"], 0.001)
    assert np.isclose(t.loc["d3", "change_1000_10000"], -0.013)
    assert res.facts.value("uniform_prior_main_rows") == {"datasets": 9, "median": 104.0, "max": 5000}
    res.facts.write(out)
    v = eskdb.evaluate(tmp_path, published.claims("eskdb").query("claim_id == 'ES24'"))[0]
    assert v.verdict == "not reproduced"      # 10000 iterations are the better ones here
    # |changes| 10000 -> 50000: 0, .0002, ..., .0014 (median .0007), each within 2 x .001; 1000 -> 10000: .010 .. .017
    assert ("cause: the mean RMSE per dataset moves less from 10000 to 50000 iterations (median |change| 0.0007, "
            "largest +0.0014 (d7); within two split-paired standard errors on 8 of 8 datasets) than from 1000 to "
            "10000 (median |change| 0.0135, largest -0.0170 (d7)); these datasets have 100-107 rows, against a "
            "median of 104 (largest 5000) over eskdb_main's 9") in v.reason
    assert v.evidence == "eskdb/uniform_prior_tests.csv;eskdb/uniform_prior_steps.csv"
    assert (out / "uniform_prior_steps.csv").exists()


# ------------------------------------------------------------------ MC13 and MC16: the yardstick of the trees
def _yardstick(root, bt_nn):
    """mctree_fig5's yardstick fact on Pendigits: the Bayes tree - NN at the Bayes tree's 30, 50, 1000, 2000, 5000
    Gaussians' times ``bt_nn``; MC-Tree - NN +7, -6, -4, -4, -4."""
    from bench.papers.mctree import yardstick

    f = Facts.of_paper(root, "mctree")
    mc = [7.0, -6.0, -4.0, -4.0, -4.0]
    f.add_table(yardstick.FACT, pd.DataFrame([
        dict(dataset="pendigits", bt_budget=b, seconds=round(s, 4), microseconds=s * 1e6, nn=90.0, bt=90.0 + d,
             mc=90.0 + m, bt_minus_nn=d, mc_minus_nn=m, mc_minus_bt=m - d)
        for b, s, d, m in zip((30, 50, 1000, 2000, 5000), (2e-6, 1e-5, 1e-4, 2e-4, 5e-4), bt_nn, mc)]),
        f"mctree/{yardstick.FACT}.csv")
    f.write(root / "mctree")


def test_mc13_behind_on_a_dataset_states_which_tree_falls_short(tmp_path):
    _mc_tables(tmp_path, pendigits_leads=[-1.0, -0.5, 0.1, 0.2], letter_svm=85.0)
    _yardstick(tmp_path, [12.0, -2.0, -3.0, -4.0, -5.0])
    vs = {v.claim_id: v for v in V.evaluate_paper("mctree", tmp_path)}
    mc13 = vs["MC13"]
    assert mc13.verdict == V.PARTLY
    # the Bayes tree behind the NN in the later stages (as the paper's), MC-Tree 6 points behind it (not as the paper's)
    assert ("cause on pendigits: against anytime NN at equal time, our Bayes tree is +12.00 points at its first "
            "answer (30 Gaussians' time) and -5.00 to -3.00 in the later stages") in mc13.reason
    assert "the gap is on the side of MC-Tree: ours falls short of the paper's" in mc13.reason
    assert mc13.reason.count("cause on") == 1                       # letter is never behind: no cause for it
    assert "mctree/mctree_fig5_yardstick.csv" in mc13.evidence.split(";")
    assert vs["MC05a"].reason.split("(at equal time")[1].split("; against")[1] in mc13.reason   # the same text


def test_mc16_reads_the_budget_axis_and_states_the_time_axis_beside(tmp_path):
    _mc_tables(tmp_path, pendigits_leads=[-1.0, -0.5, 0.1, 0.2], letter_svm=85.0)
    _yardstick(tmp_path, [12.0, -2.0, -3.0, -4.0, -5.0])
    mc16 = {v.claim_id: v for v in V.evaluate_paper("mctree", tmp_path)}["MC16"]
    assert mc16.verdict == V.PARTLY       # budget axis: +10 at 50 Gaussians, behind from 500
    assert ("on the axis of the paper's Fig. 5, actual time (its Sect. 4: time on the x-axis against the NN), Bayes "
            "tree - anytime NN at equal time (the Bayes tree's times at 30/50/1000/2000/5000 Gaussians): +12.00 (2us), "
            "-2.00 (10us), -3.00 (100us), -4.00 (200us), -5.00 (500us): ahead at first by up to +12.00 points, more than 3 (not "
            "slightly); behind from 50 Gaussians' time to the end: the same outcome as on the budget axis") \
        in mc16.reason
    assert "mctree/mctree_fig5_yardstick.csv" in mc16.evidence.split(";")
    # slightly ahead on the time axis: said so, and the verdict stays the budget axis's
    other = tmp_path / "slightly"
    _mc_tables(other, pendigits_leads=[-1.0, -0.5, 0.1, 0.2], letter_svm=85.0)
    _yardstick(other, [2.0, -2.0, -3.0, -4.0, -5.0])
    mc16 = {v.claim_id: v for v in V.evaluate_paper("mctree", other)}["MC16"]
    assert mc16.verdict == V.PARTLY
    assert "ahead at first by up to +2.00 points; behind from 50 Gaussians' time to the end: not the outcome of the " \
           "budget axis" in mc16.reason


# ------------------------------------------------------------------ EC03: where the cost per bit departs
def test_ec03_table4_states_the_per_bit_cost_and_the_papers_own_reading():
    from bench.papers.ecocnb import verdicts as ecoc

    rows = []
    for i in range(8):
        for bits in (15, 31, 63):
            rows.append({"dataset": f"d{i}", "code_length": bits, "algorithm": "ECOC-straightforward",
                         "nb_s_paper": 1.0, "nb_s_ours": 0.1,
                         # ours: 0.2 NB shared + 0.40 (1 + 0.01 i) NB per bit; the paper's: 0.6 or 0.8 NB per bit
                         "ratio_ours": 0.2 + 0.40 * (1 + 0.01 * i) * bits,
                         "ratio_paper": (0.6 if i < 4 else 0.8) * bits})
    f = Facts("ecocnb")
    f.add_table("table4_traintime_ratio", pd.DataFrame(rows), "ecocnb/table4_traintime_ratio.csv")
    v, reason, o = kinds.judge(ecoc.CHECKS["EC03"], ecoc.Evidence(f), {"claim_id": "EC03"})
    assert v == V.NOT_REPRODUCED and o.extra["paper_own"] == V.REPRODUCED
    # the paper's geometric mean sqrt(0.6 x 0.8) = 0.69 is inside [0.67, 1.5]; its 12 cells at 0.6 are outside
    assert ("cause: Table 4: the paper's own ratio / bits has a geometric mean of 0.69x, inside the band (12 of its "
            "24 cells are outside x1.5, but the rule reads the geometric mean over the datasets), so the paper's own "
            "numbers do not fail it; ours falls short in the cost of each bit: each added bit costs a median 0.41 NB "
            "trainings here against 0.70 in the paper (the slope of straightforward-ECOC / NB over the code lengths, "
            "8 datasets), the cost the bits share +0.20 against +0.00 NB trainings (the intercept), with our NB a "
            "median 10x faster than the paper's") in reason


# ------------------------------------------------------------------ the probe behind ES22's cause
def test_loo_probes_are_the_learners_and_their_scores_give_the_chosen_k():
    """LooScoredSKDB / LooScoredESKDB fit the same models as SKDB / ESKDB_M; the recorded score of each k is the
    lowest of the selection's table for that k, so the k chosen is the one with the lowest score (the prior's
    lowest of all when no attribute is chosen), checked by brute force over the table."""
    from algorithms.bnc import SKDB
    from algorithms.eskdb import ESKDB
    from algorithms.skdb_loo_probe import LooScoredESKDB, LooScoredSKDB

    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (240, 6)).astype(float)
    y = ((X[:, 0] + X[:, 1] * X[:, 2] + rng.integers(0, 2, 240)) % 3).astype(int)
    kw = dict(categorical_features=np.ones(6, bool), n_categories=np.full(6, 3))
    probe = LooScoredSKDB(**kw).fit(X, y)
    assert np.array_equal(probe.predict_proba(X), SKDB(**kw).fit(X, y).predict_proba(X))
    d = probe.diagnostics_
    table = probe.loo_rmse_
    assert d["loo_by_k"] == [min(table[k, u] for u in range(table.shape[1])) for k in range(table.shape[0])]
    assert d["k"] == (int(np.argmin(d["loo_by_k"])) if min(d["loo_by_k"]) < d["loo_prior"] else 0)
    ens = LooScoredESKDB(n_estimators=3, random_state=0, **kw).fit(X, y)
    assert np.array_equal(ens.predict_proba(X), ESKDB(n_estimators=3, random_state=0, **kw).fit(X, y).predict_proba(X))
    g = ens.diagnostics_
    assert len(g["loo_by_k"]) == 3 and len(g["loo_prior"]) == 3
    assert g["k_star"] == [int(np.argmin(s)) if min(s) < p else 0 for s, p in zip(g["loo_by_k"], g["loo_prior"])]
