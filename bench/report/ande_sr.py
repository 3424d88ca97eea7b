"""Seed 003 (Zaidi and Webb, "Fast and Effective Single Pass Bayesian Learning"): Tables 2-5,
Figs 1-4 and a check of the paper's conclusions, from the stored runs of experiment ``ande_sr``.

What is computed, per (dataset, algorithm) with a complete stored run:

* bias and variance: Kohavi-Wolpert by repeated cross-validation (:mod:`bench.stats.biasvar`),
  from the per-instance predictions of every round (noise folded into bias);
* 0-1 loss and RMSE: the mean over splits of the per-split error rate and RMSE;
* learning and classification time: mean CPU seconds per split (learning includes the MDL
  discretisation, fitted inside the fold).

Tables 2-5 are win/draw/loss matrices (row algorithm vs column algorithm, a win = lower value)
with the paper's two-tailed binomial sign test (significant when p < 0.05, in bold). Every cell
shows ours and, in parentheses, the published record; the published bold marks are lost in the
text conversion, so their significance is recomputed from the published counts. Dataset
collections use the paper's size categories (its Table 1 instance counts: German and LED, with
1000 instances, are small; our LED has 3200 rows but stays in the paper's collection).

Figs 1-4 average, over the datasets of a collection, each algorithm's value divided by NB's on
the same dataset, with standard-error bars (the paper does not say how it normalised or what
its error bars are; this is documented in the figure captions).

Algorithm names: the paper's names map to the conf/algo names in :data:`ALGOS`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .. import published
from ..stats.biasvar import bias_variance_table
from ..stats.pairwise import SIZE_LABELS, WDL
from ..stats.spread import standard_error
from ..stats.ttests import corrected_resampled_ttest, paired_5x2cv_ttest
from .compare import fmt, long_display, wdl_matrix_display, wdl_vs_published
from .context import PaperResult, ReportContext
from .figures import normalised_bars
from .ranking import friedman_report
from .registry import PAPER_MODULES
from .tables import write_table

PAPER = "ande_sr"
EXPERIMENT = "ande_sr"
TITLE = "Fast and Effective Single Pass Bayesian Learning (Zaidi and Webb; seed 003)"

#: the paper's algorithm names -> our conf/algo names, in the paper's order. The paper's RF10 is Weka's
#: RandomForest -I 10, i.e. ``rf10_weka`` (issue 15: multiway nominal splits); scikit-learn's forest
#: ``rf10`` (binary splits of nominal codes) is kept beside it as an extra column, "RF10-sklearn".
ALGOS = {"NB": "nb", "A1DE": "a1de", "A1DE-S": "a1de_s", "A1DE-W": "a1de_w", "A1DE-SW": "a1de_sw",
         "A2DE": "a2de", "A2DE-S": "a2de_s", "A2DE-W": "a2de_w", "A2DE-SW": "a2de_sw", "RF10": "rf10_weka",
         "RF10-sklearn": "rf10"}
BASELINE = "NB"
SUBSETS = ("all", "large", "medium", "small")

#: table number -> (our measure key, the published measure string, file label)
TABLES = {2: ("bias", "bias", "bias"), 3: ("variance", "variance", "variance"),
          4: ("error", "0-1 loss", "01loss"), 5: ("rmse", "RMSE", "rmse")}
TEST = "sign2"        # seed 003: two-tailed binomial sign test, significant when p < 0.05
ALPHA = 0.05


# ---------------------------------------------------------------- data
def _collections(pds: pd.DataFrame) -> dict[str, list[str] | None]:
    """Our dataset names of each of the paper's collections (by the paper's size category)."""
    mapped = pds[pds["ours"] != ""]
    out: dict[str, list[str] | None] = {"all": None}
    for s in ("large", "medium", "small"):
        out[s] = mapped.loc[mapped["size_category"] == s, "ours"].tolist()
    return out


def _values(exp, datasets: list[str]) -> dict[str, pd.DataFrame]:
    """Per-dataset values (datasets x our algo names) of every measure the paper uses."""
    vals = {}
    for m in ("error", "rmse", "train_s", "test_s"):
        v = exp.means(m)
        vals[m] = v.loc[v.index.intersection(datasets)] if not v.empty else v
    ok = exp.records
    complete = exp.status[exp.status["complete"]] if not exp.status.empty else exp.status
    if ok.empty or complete.empty:
        vals["bias"] = vals["variance"] = pd.DataFrame()
        return vals
    keep = ok.merge(complete[["dataset", "algo"]], on=["dataset", "algo"])
    bv = bias_variance_table(keep[keep["dataset"].isin(datasets)])
    for m in ("bias", "variance"):
        vals[m] = bv.pivot_table(index="dataset", columns="algo", values=m, aggfunc="first") if not bv.empty \
            else pd.DataFrame()
    vals["_bv"] = bv
    return vals


def _algo_reasons(exp) -> dict[str, str]:
    """Why an algorithm has no values at all (for table notes)."""
    out = {}
    for pa, oa in ALGOS.items():
        if not exp.ctx.algo_registered(oa):
            out[oa] = f"algorithm not implemented yet (no conf/algo/{oa}.yaml)"
        elif exp.status.empty or oa not in set(exp.status["algo"]):
            out[oa] = "not run yet"
    return out


# ---------------------------------------------------------------- build
def build(ctx: ReportContext, out: Path) -> PaperResult:
    res = PaperResult(PAPER, experiments=[EXPERIMENT])
    exp = ctx.experiment(EXPERIMENT)
    pds = published.datasets(PAPER)
    mapped = [d for d in pds["ours"] if d]
    coll = _collections(pds)
    paper_name = dict(zip(pds["ours"], pds["dataset"]))
    label = {oa: pa for pa, oa in ALGOS.items()}

    # every (paper dataset, algorithm) cell that has no complete stored run
    for r in pds.itertuples():
        for pa, oa in ALGOS.items():
            why = exp.reason(r.ours or None, oa)
            if why:
                res.add_missing("Tables 2-5, Figs 1-4", r.dataset, pa, why)

    vals = _values(exp, mapped)
    res.files += _datasets_table(exp, pds, out)
    res.files += _setup_table(exp, out)
    res.notes += _protocol_notes(exp)

    # Tables 2-5
    long_all = []
    for number, (measure, pub_measure, flabel) in TABLES.items():
        pub = published.wdl(PAPER, number)
        long = wdl_vs_published(pub, {measure: vals.get(measure, pd.DataFrame())}, ALGOS, {pub_measure: measure},
                                {s: coll[s] for s in SUBSETS}, TEST, ALPHA, algo_reasons=_algo_reasons(exp))
        long_all.append(long)
        rows, cols = list(ALGOS)[1:], list(ALGOS)[:-1]
        for subset in sorted(set(pub["subset"]), key=SUBSETS.index):
            m = wdl_matrix_display(long, rows, cols, subset, pub_measure)
            n_ds = _n_compared(long, subset, pub_measure)
            cap = (f"Table {number}: win/draw/loss of {pub_measure}, {SIZE_LABELS[subset]} datasets "
                   f"(row vs column; a win = lower {pub_measure}). Each cell: ours (published). Bold: two-tailed "
                   f"binomial sign test p < {ALPHA} (published bold recomputed from the published counts). "
                   f"Ours over {n_ds} datasets; scale {exp.plan.get('scale', '?')}, protocol "
                   f"{exp.plan.get('protocol', '?')}" + (f" (Kohavi-Wolpert {pub_measure} from {_rounds(exp)} "
                                                         f"rounds; the paper used 20)" if number in (2, 3) else "")
                   + ".")
            res.files += write_table(m, out / f"table{number}_wdl_{flabel}_{subset}", caption=cap)
        res.files += write_table(long_display(long), out / f"table{number}_wdl_{flabel}_long", index=False,
                                 caption=f"Table {number} ({pub_measure}): every cell, ours beside published; "
                                         f"win share = wins / (wins + losses); diff = ours - published")
        if long["ours"].eq("").all():
            res.add_missing(f"Table {number}", "", "", "no cell computed: " +
                            (long["note"].iloc[0] if len(long) else "no published rows"))

    # Figures 1-4
    res.files += _figures(vals, coll, out, res, label)

    # rank analysis beyond the paper
    for m, name in (("error", "0-1 loss"), ("rmse", "RMSE")):
        v = vals.get(m, pd.DataFrame())
        if v is not None and not v.empty:
            files, notes = friedman_report(v, out / f"ranks_{m}", f"{TITLE.split(' (')[0]}: {name}",
                                           labels=label)
            res.files += files
            res.notes += notes

    # per-dataset values with the corrected resampled t-test against NB (Weka Experimenter style)
    for m, name in (("error", "0-1 loss"), ("rmse", "RMSE")):
        res.files += _per_dataset(exp, m, name, mapped, paper_name, label, out)
    res.files += _paired_tests(exp, mapped, paper_name, out)
    bv = vals.get("_bv")
    if bv is not None and not bv.empty:
        res.files += _bias_variance_values(bv, paper_name, label, out)

    # conclusions
    long = pd.concat(long_all, ignore_index=True) if long_all else pd.DataFrame()
    res.files += _conclusions(long, vals, coll, exp, out, res)
    return res


def _rounds(exp) -> str:
    """Rounds of cross-validation behind the bias-variance estimates ('?' without records)."""
    if exp.records.empty:
        return "?"
    pc = exp.records["protocol_config"].iloc[0] or {}
    return str(int(pc.get("n_repeats", 1)) * max(1, len(exp.plan.get("seeds") or [0])))


def _n_compared(long: pd.DataFrame, subset: str, measure: str) -> str:
    sel = long[(long["subset"] == subset) & (long["measure"] == measure) & (long["ours_n"] > 0)]
    if sel.empty:
        return "0"
    lo, hi = int(sel["ours_n"].min()), int(sel["ours_n"].max())
    return str(hi) if lo == hi else f"{lo}-{hi}"


def _datasets_table(exp, pds: pd.DataFrame, out: Path) -> list[Path]:
    rows = []
    for r in pds.itertuples():
        ours_n = ""
        if r.ours and not exp.records.empty:
            g = exp.records[exp.records["dataset"] == r.ours]
            ours_n = int(g["n_instances"].iloc[0]) if not g.empty else ""
        why = exp.ctx.dataset_reason(r.ours or None)
        runs = "" if why else ", ".join(sorted(set(
            exp.status.loc[(exp.status["dataset"] == r.ours) & exp.status["complete"], "algo"]))) \
            if not exp.status.empty else ""
        rows.append({"dataset (paper)": r.dataset, "instances (paper)": int(r.rows), "collection": r.size_category,
                     "ours": r.ours, "instances (ours)": ours_n, "available": "no" if why else "yes",
                     "complete runs": runs, "data differs from the paper": exp.ctx.dataset_notes(r.ours)[:200]
                     if r.ours else ""})
    return write_table(pd.DataFrame(rows), out / "table1_datasets", index=False,
                       caption="Table 1: the paper's datasets, ours, and which have complete runs")


def _setup_table(exp, out: Path) -> list[Path]:
    """The settings every stored run actually used (from the records' algo configs)."""
    rows = []
    for pa, oa in ALGOS.items():
        recs = exp.records[exp.records["algo"] == oa] if not exp.records.empty else pd.DataFrame()
        if recs.empty:
            rows.append({"algorithm": pa, "algo": oa, "registered": "yes" if exp.ctx.algo_registered(oa) else "no",
                         "records": 0, "preprocess": "", "estimator": "", "parameters": ""})
            continue
        cfg = recs["algo_config"].iloc[0] or {}
        est = dict(cfg.get("estimator") or {})
        target = est.pop("_target_", "")
        pre = ", ".join(str((s or {}).get("_target_", "")).rsplit(".", 1)[-1] for s in cfg.get("preprocess") or [])
        rows.append({"algorithm": pa, "algo": oa, "registered": "yes", "records": len(recs), "preprocess": pre,
                     "estimator": target.rsplit(".", 1)[-1],
                     "parameters": ", ".join(f"{k}={v}" for k, v in est.items()
                                             if k not in ("categorical_features", "n_categories"))[:160]})
    return write_table(pd.DataFrame(rows), out / "setup", index=False,
                       caption="Settings of the stored runs (paper: MDL discretisation inside the folds for all "
                               "but RF10; m-estimation with m = 1; RF10 = Random Forest with 10 trees)")


def _protocol_notes(exp) -> list[str]:
    plan = exp.plan
    prot = plan.get("protocol", "?")
    lines = [f"protocol {prot} at scale {plan.get('scale', '?')}" + (" (planned, not run)" if plan.get("not_run")
                                                                     else "")]
    if exp.records.empty:
        return lines
    pc = exp.records["protocol_config"].iloc[0] or {}
    reps = int(pc.get("n_repeats", 1)) * max(1, len(plan.get("seeds") or [0]))
    if reps != 20:
        lines.append(f"bias and variance are estimated from {reps} rounds of {pc.get('n_splits', '?')}-fold CV "
                     f"({reps} predictions of every instance); the paper used 20 rounds of 2-fold CV")
    return lines


def _per_dataset(exp, measure: str, name: str, datasets: list[str], paper_name: dict, label: dict,
                 out: Path) -> list[Path]:
    sv = exp.splits(measure)
    if sv.empty:
        return []
    base = ALGOS[BASELINE]
    recs = exp.records[exp.records["status"] == "ok"]
    ratio = float((recs["n_test"] / recs["n_train"]).mean()) if not recs.empty else 1.0
    algos = [a for a in ALGOS.values() if a in sv.columns]
    rows = []
    for ds in [d for d in datasets if d in sv.index.get_level_values("dataset")]:
        g = sv.xs(ds, level="dataset")
        row = {"dataset": paper_name.get(ds, ds)}
        for a in algos:
            v = g[a].dropna() if a in g else pd.Series(dtype=float)
            if v.empty:
                row[label[a]] = ""
                continue
            cell = f"{v.mean():.4f} ± {standard_error(v, single=0.0):.4f}"
            if a != base and base in g and g[base].notna().all() and g[a].notna().all():
                t = corrected_resampled_ttest(g[a].to_numpy(), g[base].to_numpy(), ratio)
                if t.p < ALPHA:
                    cell += " v" if t.statistic < 0 else " *"
            row[label[a]] = cell
        rows.append(row)
    if not rows:
        return []
    cap = (f"{name} per dataset: mean ± standard error over splits. Marks (Weka Experimenter style, corrected "
           f"resampled t-test of Nadeau and Bengio, p < {ALPHA}, test/train ratio {ratio:.2f}): v = significantly "
           f"lower than {BASELINE}, * = significantly higher than {BASELINE}"
           + ("" if base in sv.columns else f" ({BASELINE} not run: no marks)"))
    return write_table(pd.DataFrame(rows), out / f"per_dataset_{measure}", caption=cap, index=False)


#: pairs whose per-dataset differences get the split-level tests (beyond the paper)
PAIRED = [("A2DE-SW", "RF10"), ("A2DE-SW", "A2DE"), ("A2DE-S", "A2DE"), ("A2DE-W", "A2DE"), ("A1DE-SW", "A1DE")]


def _paired_tests(exp, datasets: list[str], paper_name: dict, out: Path) -> list[Path]:
    """Per dataset and pair: the corrected resampled t-test on the split errors and, when the
    protocol is 5x2 CV, Dietterich's 5x2cv t-test."""
    sv = exp.splits("error")
    if sv.empty:
        return []
    recs = exp.records[exp.records["status"] == "ok"]
    ratio = float((recs["n_test"] / recs["n_train"]).mean())
    pc = recs["protocol_config"].iloc[0] or {}
    five_by_two = int(pc.get("n_splits", 0)) == 2 and int(pc.get("n_repeats", 0)) == 5 \
        and len(exp.plan.get("seeds") or [0]) == 1
    rows = []
    for a_name, b_name in PAIRED:
        a, b = ALGOS[a_name], ALGOS[b_name]
        if a not in sv.columns or b not in sv.columns:
            continue
        for ds in [d for d in datasets if d in sv.index.get_level_values("dataset")]:
            g = sv.xs(ds, level="dataset")[[a, b]].dropna()
            if len(g) < 2:
                continue
            t = corrected_resampled_ttest(g[a].to_numpy(), g[b].to_numpy(), ratio)
            row = {"pair": f"{a_name} vs {b_name}", "dataset": paper_name.get(ds, ds),
                   "mean difference": fmt(float((g[a] - g[b]).mean()), 4),
                   "corrected t": fmt(t.statistic, 3), "p (corrected t)": fmt(t.p, 4)}
            if five_by_two and len(g) == 10:
                d = (g[a] - g[b]).to_numpy().reshape(5, 2)   # index order: repeat, fold
                f = paired_5x2cv_ttest(d)
                row.update({"5x2cv t": fmt(f.statistic, 3), "p (5x2cv t)": fmt(f.p, 4)})
            rows.append(row)
    if not rows:
        return []
    return write_table(pd.DataFrame(rows), out / "paired_tests_error", index=False,
                       caption=f"0-1 loss differences (A - B) per dataset: corrected resampled t-test (Nadeau and "
                               f"Bengio; test/train ratio {ratio:.2f})" + (" and Dietterich's 5x2cv paired t-test"
                                                                           if five_by_two else "")
                               + "; negative = A has the lower error")


def _bias_variance_values(bv: pd.DataFrame, paper_name: dict, label: dict, out: Path) -> list[Path]:
    rows = []
    for r in bv.sort_values(["dataset", "algo"]).itertuples():
        rows.append({"dataset": paper_name.get(r.dataset, r.dataset), "algorithm": label.get(r.algo, r.algo),
                     "bias": fmt(r.bias), "variance": fmt(r.variance), "0-1 loss": fmt(r.loss),
                     "bias + variance - loss": f"{r.bias + r.variance - r.loss:.1e}",
                     "instances": r.n_instances, "rounds": r.rounds_min})
    return write_table(pd.DataFrame(rows), out / "bias_variance_per_dataset", index=False,
                       caption="Kohavi-Wolpert bias and variance per dataset (noise folded into bias; "
                               "bias + variance = 0-1 loss over all rounds)")


# ---------------------------------------------------------------- figures
def _figures(vals: dict, coll: dict, out: Path, res: PaperResult, label: dict) -> list[Path]:
    files = []
    base = ALGOS[BASELINE]
    algos = [a for a in ALGOS.values() if a != base]
    groups = {"All": coll["all"], "Large": coll["large"], "Medium": coll["medium"], "Small": coll["small"]}
    specs = [
        ("fig1_bias_variance", "Fig. 1", [("Bias", "bias"), ("Variance", "variance")], {"All": None},
         "Averaged bias (left) and variance (right) normalised with respect to NB"),
        ("fig2_01loss", "Fig. 2", [("0-1 loss", "error")], groups,
         "Average 0-1 loss on 4 collections of datasets, normalised with respect to NB"),
        ("fig3_rmse", "Fig. 3", [("RMSE", "rmse")], groups,
         "Average RMSE on 4 collections of datasets, normalised with respect to NB"),
        ("fig4_time", "Fig. 4", [("Learning time", "train_s"), ("Classification time", "test_s")], groups,
         "Averaged learning and classification time normalised with respect to NB"),
    ]
    for stem, item, panels, grp, title in specs:
        frames = [(t, vals.get(m, pd.DataFrame())) for t, m in panels]
        have_base = all((not f.empty) and base in f.columns for _, f in frames)
        others = [a for a in algos if all((not f.empty) and a in f.columns for _, f in frames)]
        if not have_base:
            res.add_missing(item, "", BASELINE, f"{_reason_word(res, BASELINE)}: the baseline of the normalisation "
                                                f"has no complete run")
            continue
        if not others:
            res.add_missing(item, "", "", "no algorithm besides NB has complete runs")
            continue
        paths, summary = normalised_bars(frames, base, others, grp, out / stem,
                                         ylabel="ratio to NB (mean ± s.e. over datasets)",
                                         title=title, labels=label)
        files += paths
        summary["algo"] = summary["algo"].map(lambda a: label.get(a, a))
        for c in ("mean", "se"):
            summary[c] = summary[c].map(fmt)
        files += write_table(summary, out / f"{stem}_values", index=False,
                             caption=f"{item}: the plotted numbers (mean and standard error over datasets of the "
                                     f"ratio to NB on the same dataset; n = datasets)")
        for a in algos:
            if a not in others:
                res.add_missing(item, "", label[a], "no complete runs")
    return files


def _reason_word(res: PaperResult, algorithm: str) -> str:
    for m in res.missing:
        if m.algorithm == algorithm:
            return m.category
    return "not run yet"


# ---------------------------------------------------------------- conclusions
_M = {"0-1 loss": "e", "RMSE": "r"}

#: (claim id from claims.csv, statement, [(row, col)], table measure, subset, expectation)
WDL_CHECKS = [
    ("AN03", "Weighting and subsumption resolution each reduce the bias of A1DE and A2DE significantly more often "
             "than they increase it", [("A1DE-S", "A1DE"), ("A1DE-W", "A1DE"), ("A2DE-S", "A2DE"), ("A2DE-W", "A2DE")],
     "bias", "all", "win_sig"),
    ("AN04", "Both together reduce bias significantly more often than either alone",
     [("A1DE-SW", "A1DE-S"), ("A1DE-SW", "A1DE-W"), ("A2DE-SW", "A2DE-S"), ("A2DE-SW", "A2DE-W")],
     "bias", "all", "win_sig"),
    ("AN05", "Weighting and subsumption resolution each increase variance more often than they decrease it",
     [("A1DE-S", "A1DE"), ("A1DE-W", "A1DE"), ("A2DE-S", "A2DE"), ("A2DE-W", "A2DE")], "variance", "all", "loss"),
    ("AN06", "Both together increase variance more often than either alone",
     [("A1DE-SW", "A1DE-S"), ("A1DE-SW", "A1DE-W"), ("A2DE-SW", "A2DE-S"), ("A2DE-SW", "A2DE-W")],
     "variance", "all", "loss"),
    ("AN07a", "RF10 has lower bias significantly more often than every AnDE variant",
     [("RF10", a) for a in list(ALGOS)[1:9]], "bias", "all", "win_sig"),
    ("AN07b", "RF10 has higher variance significantly more often than every AnDE variant",
     [("RF10", a) for a in list(ALGOS)[1:9]], "variance", "all", "loss_sig"),
] + [
    (f"AN09{_M[m]}{s[0]}", f"Subsumption resolution decreases {m} of A1DE and A2DE more often than not, {s} data "
                          f"(the paper's exceptions are draws)",
     [("A1DE-S", "A1DE"), ("A2DE-S", "A2DE")], m, s, "not_loss")
    for m in ("0-1 loss", "RMSE") for s in SUBSETS
] + [
    (f"AN10{_M[m]}{s[0]}", f"A1DE-SW and A2DE-SW beat RF10 significantly often on {m}, {s} data",
     [("RF10", "A1DE-SW"), ("RF10", "A2DE-SW")], m, s, "loss_sig")
    for m in ("0-1 loss", "RMSE") for s in ("all", "small")
] + [
    (f"AN10{_M[m]}m2", f"On medium data A2DE-SW beats RF10 significantly often ({m})", [("RF10", "A2DE-SW")], m,
     "medium", "loss_sig") for m in ("0-1 loss", "RMSE")
] + [
    (f"AN10{_M[m]}m1", f"On medium data A1DE-SW beats RF10, not significantly ({m})", [("RF10", "A1DE-SW")], m,
     "medium", "loss_nonsig") for m in ("0-1 loss", "RMSE")
] + [
    (f"AN10{_M[m]}l", f"On large data RF10 beats A1DE-SW and A2DE-SW, not significantly ({m})",
     [("RF10", "A1DE-SW"), ("RF10", "A2DE-SW")], m, "large", "win_nonsig") for m in ("0-1 loss", "RMSE")
] + [
    ("AN15", "Even on datasets with 10,000+ examples RF10 has lower error slightly less often than higher, "
             "relative to A2DE-SW", [("RF10", "A2DE-SW")], "0-1 loss", "large", "loss"),
    ("C1a", "Conclusion: SR and weighting each reduce A2DE's error on the largest datasets significantly more "
            "often than not", [("A2DE-S", "A2DE"), ("A2DE-W", "A2DE")], "0-1 loss", "large", "win_sig"),
    ("C1b", "Conclusion: both together reduce the error relative to weighting alone significantly often (large data)",
     [("A2DE-SW", "A2DE-W")], "0-1 loss", "large", "win_sig"),
    ("C1c", "Conclusion: both together reduce the error relative to SR alone often, not significantly (large data)",
     [("A2DE-SW", "A2DE-S")], "0-1 loss", "large", "win_nonsig"),
]


def expectation_met(w: WDL, kind: str) -> bool:
    if kind == "win_sig":
        return w.wins > w.losses and w.significant
    if kind == "loss_sig":
        return w.wins < w.losses and w.significant
    if kind == "win":
        return w.wins > w.losses
    if kind == "loss":
        return w.wins < w.losses
    if kind == "not_loss":
        return w.wins >= w.losses
    if kind == "win_nonsig":
        return w.wins > w.losses and not w.significant
    if kind == "loss_nonsig":
        return w.wins < w.losses and not w.significant
    raise ValueError(kind)


def _verdict(flags: list[bool | None]) -> str:
    if any(f is None for f in flags):
        return "cannot check"
    if all(flags):
        return "reproduced"
    return "partly reproduced" if any(flags) else "not reproduced"


def _conclusions(long: pd.DataFrame, vals: dict, coll: dict, exp, out: Path, res: PaperResult) -> list[Path]:
    rows = []
    for cid, text, pairs, measure, subset, kind in WDL_CHECKS:
        ours_flags, pub_flags, ev_o, ev_p = [], [], [], []
        for row, col in pairs:
            sel = long[(long["row"] == row) & (long["col"] == col) & (long["measure"] == measure)
                       & (long["subset"] == subset)] if not long.empty else long
            if sel.empty:
                ours_flags.append(None)
                pub_flags.append(None)
                continue
            o, p = sel["_ours"].iloc[0], sel["_published"].iloc[0]
            ours_flags.append(None if o is None else expectation_met(o, kind))
            pub_flags.append(expectation_met(p, kind))
            ev_o.append(f"{row} vs {col} {o.markdown() if o is not None else '–'}")
            ev_p.append(f"{p.markdown()}")
        rows.append({"claim": cid, "statement": text, "measure": measure, "data": subset,
                     "ours": _verdict(ours_flags), "paper's own table": _verdict(pub_flags),
                     "evidence (ours)": "; ".join(ev_o), "evidence (published)": "; ".join(ev_p)})
    rows += _figure_checks(vals, coll)
    table = pd.DataFrame(rows)
    cap = (f"Conclusions of the paper checked against our runs (scale {exp.plan.get('scale', '?')}). 'reproduced': "
           f"every comparison behaves as stated; 'cannot check': some algorithm has no complete runs. The "
           f"published column applies the same rule to the paper's own counts with its two-tailed sign test.")
    files = write_table(table, out / "conclusions", caption=cap, index=False)
    counts = table["ours"].value_counts().to_dict()
    res.notes.append("conclusions: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return files


def _mean_ratio(vals: dict, measure: str, datasets, algo: str) -> float | None:
    v = vals.get(measure)
    base = ALGOS[BASELINE]
    if v is None or v.empty or algo not in v.columns or base not in v.columns:
        return None
    sub = v if datasets is None else v.loc[v.index.intersection(datasets)]
    r = (sub[algo] / sub[base]).replace([np.inf, -np.inf], np.nan).dropna()
    return float(r.mean()) if not r.empty else None


def _figure_checks(vals: dict, coll: dict) -> list[dict]:
    anode = list(ALGOS)[1:9]
    out = []

    def row(cid, text, measure, data, flags, evidence):
        out.append({"claim": cid, "statement": text, "measure": measure, "data": data, "ours": _verdict(flags),
                    "paper's own table": "figure only", "evidence (ours)": evidence, "evidence (published)": ""})

    for cid, m, text, better in (("AN08a", "bias", "Fig. 1: RF10 has lower average bias than every AnDE variant",
                                  True),
                                 ("AN08b", "variance", "Fig. 1: RF10 has higher average variance than every AnDE "
                                                       "variant", False)):
        rf = _mean_ratio(vals, m, None, "rf10")
        others = {a: _mean_ratio(vals, m, None, ALGOS[a]) for a in anode}
        flags = [None if (rf is None or v is None) else ((rf < v) if better else (rf > v)) for v in others.values()]
        row(cid, text, m, "all", flags, f"RF10 {fmt(rf, 3)}; " + ", ".join(f"{a} {fmt(v, 3)}" for a, v in
                                                                            others.items()))
    for m, name in (("error", "0-1 loss"), ("rmse", "RMSE")):
        for s in ("large", "medium", "small"):
            r = {a: _mean_ratio(vals, m, coll[s], oa) for a, oa in ALGOS.items() if a != BASELINE}
            sw = r["A2DE-SW"]
            flags = [None if (sw is None or v is None) else sw <= v for a, v in r.items() if a != "A2DE-SW"]
            row(f"AN11{m[0]}{s[0]}", f"Figs. 2-3: A2DE-SW has the lowest average {name} ({s} data)", name, s, flags,
                ", ".join(f"{a} {fmt(v, 3)}" for a, v in r.items()))
    t = {a: _mean_ratio(vals, "test_s", None, ALGOS[a]) for a in ("A2DE", "A2DE-S", "A2DE-SW", "A2DE-W", "RF10")}
    tr = {a: _mean_ratio(vals, "train_s", None, ALGOS[a]) for a in ("A2DE-S", "A2DE-SW", "RF10")}
    row("AN12", "Fig. 4: subsumption resolution reduces A2DE's classification time", "classification time", "all",
        [None if (t["A2DE-S"] is None or t["A2DE"] is None) else t["A2DE-S"] < t["A2DE"]],
        f"A2DE-S {fmt(t['A2DE-S'], 3)} vs A2DE {fmt(t['A2DE'], 3)} (ratios to NB)")
    row("AN13", "Fig. 4: A2DE-S and A2DE-SW need slightly less training time than RF10 on average", "learning time",
        "all", [None if (tr[a] is None or tr["RF10"] is None) else tr[a] < tr["RF10"] for a in ("A2DE-S", "A2DE-SW")],
        ", ".join(f"{a} {fmt(v, 3)}" for a, v in tr.items()))
    row("AN14", "Fig. 4: A2DE and its variants need more classification time than RF10", "classification time",
        "all", [None if (t[a] is None or t["RF10"] is None) else t[a] > t["RF10"]
                for a in ("A2DE", "A2DE-S", "A2DE-W", "A2DE-SW")],
        ", ".join(f"{a} {fmt(v, 3)}" for a, v in t.items()))
    return out


PAPER_MODULES[PAPER] = build
