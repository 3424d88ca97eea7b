"""The MC-Tree paper report (bench/papers/mctree/build.py) on a tiny stored experiment."""

from tests.helpers import table_cells
import numpy as np
import pandas as pd
import pytest

from bench.report import keyfig
from bench.report.build import build_reports
from bench.report.facts import Facts
from bench.papers.mctree.build import _lead_table, published_static_levels
from bench.report.build import BUILDS
from bench.runner import run_job
from bench.store import load

CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}
TREES = [2, 5, 20, 80]


def _algo(name, target, budgets, **params):
    return {"name": name, "estimator": {"_target_": target, **params}, "anytime": {"budgets": budgets}}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    for algo in (_algo("mctree_inf", "algorithms.anytime.MCTree", TREES, fanout=3),
                 _algo("bayestree", "algorithms.anytime.BayesTree", TREES),
                 _algo("anytime_nn", "algorithms.anytime.AnytimeNN", [1, 10, 50]),
                 {"name": "svm", "preprocess": [{"_target_": "sklearn.preprocessing.StandardScaler"}],
                  "estimator": {"_target_": "sklearn.calibration.CalibratedClassifierCV",
                                "estimator": {"_target_": "sklearn.svm.SVC", "kernel": "linear"}, "ensemble": False}}):
        res = run_job(algo, "sk_iris", CV2, 0, "mctree_fig5", str(root), progress=False)
        assert not res.failed
    return root


def test_published_levels_come_from_the_copied_claims():
    levels = published_static_levels()
    assert levels[("pendigits", "SVM")] == 97.9 and levels[("pendigits", "C4.5")] == 96.3
    assert levels[("letter", "C4.5")] == 86.8 and levels[("letter", "SVM")] == 81.8


def test_report_draws_every_figure_and_table(stored, tmp_path):
    assert "mctree" in BUILDS
    reports = tmp_path / "reports"
    written = build_reports(str(stored), str(reports), papers=["mctree"])
    mine = reports / "mctree"
    names = {p.name for p in written if p.parent == mine}
    for stem in ("mctree_fig5_sk_iris_budget", "mctree_fig5_sk_iris_time"):
        assert f"{stem}.png" in names and f"{stem}.pdf" in names and f"{stem}.caption.md" in names
    # the experiment folder keeps its generic summary only
    assert not any(p.name.startswith("mctree_fig5_") for p in (reports / "mctree_fig5").iterdir())
    # the experiments not stored are listed as missing, by figure
    missing = pd.read_csv(mine / "missing.csv")
    assert "Fig. 6" in set(missing["item"]) and "Fig. 5" not in set(missing["item"])
    assert missing["reason"].str.startswith("not run yet").all()
    # facts: every table's numbers, with the file that shows them; the key figure's cells are the facts'
    facts = Facts.of_paper(reports, "mctree")
    static = pd.read_csv(mine / "mctree_fig5_static.csv")
    got = facts.table("mctree_fig5_static")
    assert got["ours_accuracy"].tolist() == static["ours_accuracy"].tolist()
    assert facts.source("mctree_fig5_static") == "mctree/mctree_fig5_static.csv"
    lead = facts.table("mctree_fig5_lead")
    assert set(lead["axis"]) == {"gaussians", "time"} and facts.source("mctree_fig5_lead_max").endswith(
        "mctree_fig5_lead_summary.csv")
    run = facts.value("mctree_fig5_run")     # the plan's scale and protocol, as the notes show them
    assert f"Scale {run['scale']}, protocol {run['protocol']}," in (reports / facts.source("mctree_fig5_run")).read_text()
    cells, key = table_cells(reports, "mctree"), facts.table("key_cells")
    assert len(cells) == len(key) == 0 and list(key.columns) == list(cells.columns)   # no printed level for iris
    cap = (mine / "mctree_fig5_sk_iris_budget.caption.md").read_text()
    assert "protocol: cv2" in cap and "stored records" in cap and "stars" not in cap   # no marks on the budget axis
    for table in ("accuracy_at_budgets", "static", "mctree_vs_bayestree", "lead_summary"):
        assert f"mctree_fig5_{table}.md" in names
    acc = pd.read_csv(mine / "mctree_fig5_accuracy_at_budgets.csv")
    assert {"mctree_inf", "bayestree", "anytime_nn"} <= set(acc.columns)          # the CSV keeps config names
    # readers see the paper's names (config mctree_inf is MC-Tree with delta = inf)
    md = (mine / "mctree_fig5_accuracy_at_budgets.md").read_text()
    assert all(n in md for n in ("MC-Tree (delta=inf)", "Bayes tree", "anytime NN"))
    assert not any(n in md for n in ("mctree_inf", "bayestree", "anytime_nn"))
    static = (mine / "mctree_fig5_static.md").read_text()
    # scikit-learn's SVC is an extra, never the paper's SVM (Weka's SMO, smo_numeric)
    assert "| SVC (scikit-learn, extra)" in static and "| svm" not in static


def test_lead_is_the_fold_paired_difference(stored):
    df = load(stored, experiment="mctree_fig5")
    df = df[df["status"] == "ok"].copy()
    df["variant"] = df["algo"]
    from bench.papers.mctree.yardstick import curves as records_curves

    curves = records_curves(df, keys=("dataset", "variant", "algo"))
    lead = _lead_table(curves, "mctree_inf", "bayestree")
    for budget in TREES:
        a = [r for r in df[df.algo == "mctree_inf"]["metrics_by_budget"]]
        b = [r for r in df[df.algo == "bayestree"]["metrics_by_budget"]]
        acc = lambda recs: np.mean([100 * m["accuracy"] for rec in recs for m in rec if m["budget"] == budget])  # noqa
        got = float(lead.loc[lead.budget == budget, "lead_points"].iloc[0])
        assert got == pytest.approx(acc(a) - acc(b))


def test_sweep_without_static_classifiers(tmp_path):
    """Fig. 4 experiments: one algorithm swept over a parameter, no static lines."""
    root = tmp_path / "results"
    for alpha in (0.0, 1.0):
        algo = _algo("mctree", "algorithms.anytime.MCTree", TREES, fanout=3, delta=1, alpha=alpha)
        assert not run_job(algo, "sk_iris", CV2, 0, "mctree_fig4_alpha", str(root), progress=False).failed
    written = build_reports(str(root), str(tmp_path / "reports"), papers=["mctree"])
    acc = pd.read_csv(tmp_path / "reports" / "mctree" / "mctree_fig4_alpha_accuracy_at_budgets.csv")
    assert {"mctree (alpha=0.0)", "mctree (alpha=1.0)"} <= set(acc.columns)     # the CSV keeps config names
    md = (tmp_path / "reports" / "mctree" / "mctree_fig4_alpha_accuracy_at_budgets.md").read_text()
    assert "MC-Tree (alpha=0.0)" in md and "mctree (alpha" not in md              # readers see the paper's
    assert any(p.name == "mctree_fig4_alpha_sk_iris_budget.pdf" for p in written)
    # the facts name each variant's alpha (the claim check MC14 reads them, not the labels)
    t = Facts.of_paper(tmp_path / "reports", "mctree").table("mctree_fig4_alpha_accuracy_at_budgets")
    assert dict(zip(t["variant"], t["alpha"])) == {"mctree (alpha=0.0)": 0.0, "mctree (alpha=1.0)": 1.0}
    assert t.loc[t["budget"].isna(), "accuracy"].notna().all()      # the full model's row: budget None


def _hand_curves():
    """Two folds; the Bayes tree reads its root only at budget 50 (units 0 before), MC-Tree at 10."""
    rows = []
    for fold in (0, 1):
        for b, (am, ab) in {10: (80, 10), 20: (85, 10), 50: (90, 88), 100: (92, 93), 200: (94, 93),
                            500: (95, 94)}.items():
            rows.append({"dataset": "pendigits", "variant": "mctree_inf", "fold": fold, "repeat": 0, "budget": b,
                         "accuracy": am + fold, "units": b, "seconds": b * 1e-7})
            rows.append({"dataset": "pendigits", "variant": "bayestree", "fold": fold, "repeat": 0, "budget": b,
                         "accuracy": ab + fold, "units": b if b >= 50 else 0.0, "seconds": b * 2e-7})
    return pd.DataFrame(rows)


def test_lead_summary_leaves_out_budgets_where_one_answers_with_the_prior(monkeypatch):
    from bench.papers.mctree import build as B
    from bench.papers.mctree.build import _lead_summary, _time_lead_table

    curves = _hand_curves()
    lead = _lead_table(curves, "mctree_inf", "bayestree")
    with monkeypatch.context() as m:    # times of our choosing, one before the Bayes tree reads its root
        m.setattr(B, "_bayestree_times_us", lambda g, other: [(None, t) for t in (2, 10, 20)])
        tlead = _time_lead_table(curves, "mctree_inf", "bayestree")
    for t in (lead, tlead):
        t.insert(1, "mctree", "mctree_inf")
    row = _lead_summary(lead, tlead).iloc[0]
    assert row["max_lead_both_answer"] == "+2.00 @ 50"  # not the +75 at budget 10/20
    assert row["first_budget_both_answer"] == 50
    assert (row["lead@50"], row["lead@100"], row["lead@200"], row["lead@500"]) == ("+2.00", "-1.00", "+1.00",
                                                                                     "+1.00")
    assert not any("verdict" in c for c in row.index)   # the report states numbers; the verdicts judge
    # time: at 2 us MC-Tree is at budget 20 (85) but the Bayes tree answers with the prior -> left out;
    # at 10 us MC-Tree reached budget 100 (92), the Bayes tree budget 50 (88): +4
    def at(us, col="lead_points"):
        return tlead.loc[np.isclose(tlead["seconds"], us * 1e-6), col].iloc[0]

    assert at(10) == pytest.approx(4.0) and not at(2, "both_answer")
    # at 20 us: MC-Tree budget 200 (94) vs Bayes tree budget 100 (93)
    assert at(20) == pytest.approx(1.0)
    # default time points: the Bayes tree's time for 50/100/200/500 Gaussians (10/20/40/100 us)
    dl = _time_lead_table(curves, "mctree_inf", "bayestree")
    dl.insert(1, "mctree", "mctree_inf")
    row = _lead_summary(lead, dl).iloc[0]
    # at 10 us (Bayes tree at 50): MC-Tree at 100 (92) - 88 = +4; at 100 us (Bayes tree at 500): 95 - 94
    assert row["lead@t50"].startswith("+4.00") and row["lead@t500"].startswith("+1.00")
