"""Reports of the MC-Tree paper (Kranen et al. 2010): anytime accuracy curves (Figs. 4-6) from stored runs.

:func:`build` writes everything into ``reports/mctree/`` (the experiment folders keep only their
generic summaries); each file is named after its experiment. Every stored experiment ``mctree_*``
(:data:`EXPERIMENTS`) gets, per dataset:

- ``<experiment>_<dataset>_budget.{png,pdf}``: accuracy against the budget (Gaussians evaluated
  for the trees, instances compared for anytime NN; log axis), mean over folds with a
  standard-error band; the static classifiers as horizontal lines; the paper's static SVM and
  C4.5 levels (the mctree rows of ``bench/published/claims.csv``) as dotted reference lines where the paper
  gives them; a marker at the right for each anytime classifier's full model;
- ``<experiment>_<dataset>_time.{png,pdf}``: the same against the mean wall-clock seconds per
  query at which each budget's state was reached (the paper's time axis of Figs. 5-6);

and the tables ``<experiment>_accuracy_at_budgets``, ``<experiment>_static`` (ours beside the
paper) and, where both ran, ``<experiment>_mctree_vs_bayestree`` (accuracy points by which
MC-Tree leads the Bayes tree at each budget, fold-paired) with the paper's claimed gains beside.
The numbers of these tables are recorded as facts (``reports/mctree/facts.json``, :func:`_record_facts`),
which the claim checks read; an experiment not stored is listed in ``missing.csv``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from bench import published
from bench.stats.spread import standard_error
from bench.report.context import PaperResult, ReportContext
from bench.report.facts import Facts
from bench.report.keyfig import gather
from bench.report.figures import Caption, plt, save
from bench.report.labels import DISPLAY_NAMES, unique_display, variant_labels
from bench.papers.mctree import DECLARATION, yardstick
from bench.report import contents
from bench.report.tables import write_table

PAPER = "mctree"
EXPERIMENTS = DECLARATION.experiments
#: the static decision tree: the placeholder until J48 lands, then j48
STATIC_TREES = ("j48", "tree_placeholder")
#: the paper's SVM line: Weka 3.6 SMO's defaults on the numeric attributes (algorithms/smo.py)
SVM_ALGO = "smo_numeric"
TABLE_BUDGETS = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
#: paper claims about MC-Tree's lead over the Bayes tree (percentage points as printed)
LEAD_CLAIMS = {"pendigits": "3-4 % (MC05a/b: 'a performance gain over the Bayes tree of three to four percent'; "
                            "Fig. 5 left, time axis)",
               "letter": "up to 15 % (MC08; Fig. 5 right, time axis)", "gender": "roughly 6 % (MC09)",
               "covtype_head20k_numeric": "'clearly reached' (Fig. 6 right, Gaussians axis; full Covertype, no number)"}
NOT_HERE = {"mctree_fig6": "Gender (Fig. 6 left; 189,961 x 9, ICML 2004 physiological data contest) is not "
                           "available here and was not run.",
            "mctree_fig4_delta": "The paper's Fig. 4 (right) uses Gender, which is not available here; the delta "
                                 "sweep runs on the datasets listed instead."}
STANDINS = {"covtype_head20k_numeric": "the first 20,000 rows of Covertype (10 numeric attributes; not a random "
                                       "sample) stand in for the full 581,012-row Covertype, which is not available "
                                       "here"}




def published_static_levels() -> dict:
    """{(dataset, "SVM"|"C4.5"): accuracy %} from the claims (MC03, MC04, MC06, MC07, MC11, MC12)."""
    out = {}
    for r in published.claims(PAPER).itertuples():
        if r.quantity != "accuracy" or not isinstance(r.value, str) or not r.value:
            continue
        ds = r.conditions.split(",")[0].strip().lower()
        algo = "SVM" if "SVM" in r.conditions else "C4.5" if "C4.5" in r.conditions else None
        if algo:
            out[(ds, algo)] = float(r.value)
    return out


def _mean_se(v: pd.Series) -> tuple[float, float]:
    a = v.astype(float).to_numpy()
    return float(a.mean()), standard_error(a, single=0.0)


def _summary(curves: pd.DataFrame) -> pd.DataFrame:
    g = curves.groupby(["dataset", "variant", "budget"])
    out = g.agg(accuracy=("accuracy", "mean"), accuracy_se=("accuracy", lambda v: standard_error(v, single=0.0)),
                folds=("accuracy", "size"), units=("units", "mean"), seconds=("seconds", "mean")).reset_index()
    return out


def _static(ok: pd.DataFrame) -> pd.DataFrame:
    st = ok[~ok["metrics_by_budget"].apply(lambda v: isinstance(v, list))] if "metrics_by_budget" in ok \
        else ok
    rows = []
    for (ds, algo), g in st.groupby(["dataset", "algo"]):
        acc, se = _mean_se(100 * g["metrics.accuracy"])
        per_query = float((g["times.predict_wall_s"] / g["n_test"]).mean())
        rows.append({"dataset": ds, "algo": algo, "accuracy": acc, "accuracy_se": se, "folds": len(g),
                     "seconds_per_query": per_query})
    return pd.DataFrame(rows, columns=["dataset", "algo", "accuracy", "accuracy_se", "folds", "seconds_per_query"])


def _full_models(ok: pd.DataFrame) -> pd.DataFrame:
    any_ok = ok[ok["metrics_by_budget"].apply(lambda v: isinstance(v, list))] if "metrics_by_budget" in ok \
        else ok.iloc[0:0]
    rows = []
    for (ds, var), g in any_ok.groupby(["dataset", "variant"]):
        acc, se = _mean_se(100 * g["metrics.accuracy"])
        rows.append({"dataset": ds, "variant": var, "accuracy": acc, "accuracy_se": se,
                     "seconds_per_query": float((g["times.predict_wall_s"] / g["n_test"]).mean())})
    return pd.DataFrame(rows, columns=["dataset", "variant", "accuracy", "accuracy_se", "seconds_per_query"])


def _static_name(algo: str) -> str | None:
    """The paper's static classifier a config stands for: Weka's SMO (``smo_numeric``, the paper's SVM
    line) and J48; scikit-learn's SVC (``svm``) is an extra with no paper level."""
    if algo == SVM_ALGO:
        return "SVM"
    if algo in STATIC_TREES:
        return "C4.5"
    return None


def _plot(name: str, ds: str, summ: pd.DataFrame, static: pd.DataFrame, full: pd.DataFrame, paper: dict,
          xaxis: str, out: Path, plan: dict, show: dict | None = None, records=None) -> list[Path]:
    """One figure, two panels: the whole accuracy range and a zoom on the upper range where the
    static classifiers and the paper's reference levels lie. ``show`` maps config (variant) labels
    to the names in the legend."""
    show = show or {}
    fig, axes = plt.subplots(1, 2, figsize=(11.5, 4.6), gridspec_kw={"width_ratios": [1, 1]})
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    s = summ[summ["dataset"] == ds]
    st = static[static["dataset"] == ds]
    variants = sorted(s["variant"].unique())
    refs = [(palgo, val) for (pds, palgo), val in paper.items() if pds == ds.lower()]
    levels = list(st["accuracy"]) + [v for _, v in refs]
    fulls = full[full["dataset"] == ds]
    top_curve = float(s["accuracy"].max()) if len(s) else 100.0
    zoom_lo = max(0.0, min(levels + [top_curve]) - 10.0)
    stars = diamonds = False
    for panel, ax in enumerate(axes):
        for i, var in enumerate(variants):
            c = s[s["variant"] == var].sort_values("budget")
            x = c["budget"] if xaxis == "budget" else c["seconds"]
            keep = ((x > 0) & np.isfinite(x)).to_numpy()
            col = colours[i % len(colours)]
            f = fulls[fulls["variant"] == var]
            label = show.get(var, var) + (f" (full model {f['accuracy'].iloc[0]:.1f}%)" if len(f) else "")
            ax.plot(x[keep], c["accuracy"][keep], marker=".", color=col, label=label)
            ax.fill_between(x[keep], (c["accuracy"] - c["accuracy_se"])[keep],
                            (c["accuracy"] + c["accuracy_se"])[keep], color=col, alpha=0.15, linewidth=0)
            if xaxis == "time" and len(f) and f["seconds_per_query"].iloc[0] > 0:
                ax.plot([f["seconds_per_query"].iloc[0]], [f["accuracy"].iloc[0]], marker="*", markersize=10,
                        color=col, linestyle="none")
                stars = True
        for j, r in enumerate(st.itertuples()):
            col = colours[(len(variants) + j) % len(colours)]
            ax.axhline(r.accuracy, color=col, linestyle="--", linewidth=1.2,
                       label=f"{show.get(r.algo, r.algo)} (static, ours) {r.accuracy:.1f}%")
            if xaxis == "time" and r.seconds_per_query > 0:
                ax.plot([r.seconds_per_query], [r.accuracy], marker="D", color=col, linestyle="none")
                diamonds = True
        for palgo, val in refs:
            ax.axhline(val, color="0.35", linestyle=":", linewidth=1.2)
            if panel == 1:
                ax.annotate(f"paper {palgo} {val}%", xy=(0.0, val), xycoords=("axes fraction", "data"),
                            xytext=(4, 2), textcoords="offset points", ha="left", fontsize=7, color="0.3")
        ax.set_xscale("log")
        ax.grid(True, which="both", alpha=0.25)
        ax.set_xlabel("Gaussians evaluated per query (instances compared for anytime NN)" if xaxis == "budget"
                      else "seconds per query (mean time at which each budget's state was reached)", fontsize=8)
        if panel == 0:
            ax.set_ylabel("accuracy (%)")
            ax.set_ylim(0, 101)
            ax.set_title(f"{name}: {ds}" + (" (stand-in)" if ds in STANDINS else ""), fontsize=10)
        else:
            ax.set_ylim(zoom_lo, 100.5)
            ax.set_title("zoom on the upper range", fontsize=9)
            ax.legend(fontsize=7, loc="lower right")
    # a footnote names only the marks this plot has
    marks = (["stars: full model"] if stars else []) + (["diamonds: static classifiers' time per query"]
                                                         if diamonds else [])
    cap = Caption.of_plan("", {**plan, "experiment": name}, records)
    fig.text(0.01, 0.01, f"scale {plan.get('scale', 'ad hoc')}, protocol {cap.protocol or '?'}"
             + (f"; {', '.join(marks)}" if marks else ""), fontsize=6, color="0.4")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    what = (f"{name}, {ds}: accuracy (%) of each anytime classifier, mean over the folds with a band of one standard "
            f"error, against " + ("the budget (Gaussians evaluated per query; training objects compared for anytime "
                                  "NN), log axis" if xaxis == "budget" else
                                  "the mean wall-clock seconds per query at which each budget's state was reached, "
                                  "log axis") + "; left: the whole range, right: a zoom on the upper range")
    if len(st):
        what += "; dashed lines: our static classifiers"
    if refs:
        what += "; dotted lines: the paper's static SVM / C4.5 accuracies printed in its text"
    if marks:
        what += "; " + ", ".join(marks)
    cap = Caption.of_plan(what, {**plan, "experiment": name}, records, data=ds,
                          notes=STANDINS.get(ds, "").capitalize() + ("." if ds in STANDINS else ""))
    return save(fig, out / f"{name}_{ds}_{xaxis}", cap)


def _lead_table(curves: pd.DataFrame, ours: str, other: str) -> pd.DataFrame:
    """Per dataset and budget: MC-Tree minus Bayes tree accuracy (points), paired by fold."""
    key = ["dataset", "repeat", "fold", "budget"]
    a = curves[curves["variant"] == ours].set_index(key)
    b = curves[curves["variant"] == other].set_index(key)
    diff = (a["accuracy"] - b["accuracy"]).dropna().rename("lead").to_frame()
    # both classifiers have read their root entries (a first answer beyond the class prior)
    diff["both_answer"] = (a["units"] > 0) & (b["units"] > 0)
    diff = diff.reset_index()
    rows = []
    for (ds, budget), g in diff.groupby(["dataset", "budget"]):
        m, se = _mean_se(g["lead"])
        rows.append({"dataset": ds, "budget": budget, "lead_points": m, "lead_se": se,
                     "folds_mctree_ahead": int((g["lead"] > 0).sum()), "folds": len(g),
                     "both_answer": bool(g["both_answer"].all())})
    return pd.DataFrame(rows)


#: budgets (Gaussians) at which the lead summary reports (and the Bayes tree's times at them)
LEAD_BUDGETS = (50, 100, 200, 500)


def _time_lead_table(curves: pd.DataFrame, ours: str, other: str) -> pd.DataFrame:
    """Per dataset and time: MC-Tree minus Bayes tree accuracy (points) at equal mean seconds per
    query, fold-paired. The times are, per dataset, the Bayes tree's mean seconds at LEAD_BUDGETS
    Gaussians (``ref_budget``). A classifier that has not read its root by then (units 0, the prior)
    makes ``both_answer`` False."""
    rows = []
    sub = curves[curves["variant"].isin([ours, other])]
    for ds, g in sub.groupby("dataset"):
        for rb, t_us in _bayestree_times_us(g, other):
            at = t_us * 1e-6
            leads, both = [], True
            for _, f in g.groupby(["repeat", "fold"]):
                vals = []
                for var in (ours, other):
                    c = f[f["variant"] == var].sort_values("budget")
                    if c.empty or c["seconds"].isna().all():
                        vals.append(float("nan"))
                        continue
                    t = c["seconds"].to_numpy(float)
                    answered = c["units"].to_numpy(float) > 0
                    a = yardstick.step_at(np.where(answered, t, np.inf), c["accuracy"].to_numpy(float), at)
                    if np.isnan(a):
                        both = False
                    vals.append(a)
                if not np.isnan(vals).any():
                    leads.append(vals[0] - vals[1])
            m, se = _mean_se(pd.Series(leads)) if leads else (float("nan"), float("nan"))
            rows.append({"dataset": ds, "ref_budget": rb, "seconds": at, "lead_points": m, "lead_se": se,
                         "folds": len(leads), "both_answer": both and bool(leads)})
    return pd.DataFrame(rows, columns=["dataset", "ref_budget", "seconds", "lead_points", "lead_se", "folds",
                                       "both_answer"])


def _bayestree_times_us(curves: pd.DataFrame, other: str) -> list[tuple]:
    """[(budget, microseconds)]: the Bayes tree's mean seconds per query at each of LEAD_BUDGETS
    Gaussians (over folds), where it has answered from its tree."""
    c = curves[(curves["variant"] == other) & curves["budget"].isin(LEAD_BUDGETS) & (curves["units"] > 0)]
    c = c.dropna(subset=["seconds"])
    t = c.groupby("budget")["seconds"].mean() * 1e6
    return [(int(b), float(f"{v:.3g}")) for b, v in t.sort_index().items() if v > 0]


#: what each hypothesis variant (conf/algo) changes, for the notes
HYPOTHESES = {"mctree_inf": "Fig. 5 setting", "mctree_inf_root": "Def. 3 strictly at the root: classes grouped "
              "under <= fanout mixed entries", "mctree_inf_leafpage": "leaves of a 2 KB page of kernels as in the "
              "Bayes tree", "mctree_inf_cf": "literal CF variances of Def. 1, against the Bayes tree with the same"}


def _first_answer(curves: pd.DataFrame) -> pd.DataFrame:
    """Per dataset and variant: the first budget state computed from the tree (units > 0)."""
    rows = []
    for (ds, var), g in curves.groupby(["dataset", "variant"]):
        m = g.groupby("budget").agg(accuracy=("accuracy", "mean"), units=("units", "mean")).reset_index()
        m = m.sort_values("budget")
        ans = m[m["units"] > 0]
        pri = m[m["units"] == 0]
        rows.append({"dataset": ds, "variant": var,
                     "first_answer_units": round(float(ans["units"].iloc[0]), 1) if len(ans) else "",
                     "first_answer_budget": float(ans["budget"].iloc[0]) if len(ans) else "",
                     "first_answer_accuracy": round(float(ans["accuracy"].iloc[0]), 2) if len(ans) else "",
                     "prior_only_accuracy": round(float(pri["accuracy"].iloc[0]), 2) if len(pri) else ""})
    return pd.DataFrame(rows)


def _delta_of(label: str) -> float | None:
    import re

    m = re.search(r"delta=([^,)\]]+)", label)
    if not m:
        return None
    v = m.group(1).strip().strip("'")
    return math.inf if v.lower() in ("inf", "infinity") else float(v)


def _delta_claims(summ: pd.DataFrame, curves: pd.DataFrame) -> list[str]:
    """Sec. 4.1 on Fig. 4 (right): delta = 1 is better "for the first Gaussians that are read";
    a higher delta gives "continuous improvement"; delta = inf is "up to 9 % higher" than delta = 1.
    Checked per dataset at the budgets where every variant answers from its tree."""
    lines = []
    for ds, s_ds in summ.groupby("dataset"):
        s_ds = s_ds.assign(delta=s_ds["variant"].map(_delta_of)).dropna(subset=["delta"])
        if s_ds["delta"].nunique() < 2:
            continue
        units = curves[curves["dataset"] == ds].groupby(["variant", "budget"])["units"].mean()
        ok_b = [b for b in sorted(s_ds["budget"].unique())
                if all(units.get((v, b), 0) > 0 for v in s_ds["variant"].unique())]
        if not ok_b:
            continue
        piv = s_ds[s_ds["budget"].isin(ok_b)].pivot_table(index="budget", columns="delta", values="accuracy")
        deltas = sorted(piv.columns)
        first = piv.index[0]
        best_first = piv.loc[first].idxmax()
        mono = int(sum(all(np.diff(piv.loc[b, deltas].to_numpy()) >= 0) for b in piv.index))
        gain = (piv[deltas[-1]] - piv[deltas[0]]) if math.isinf(deltas[-1]) and deltas[0] == 1.0 else None
        best_at = {b: piv.loc[b].idxmax() for b in piv.index}
        n_inf_best = sum(math.isinf(v) for v in best_at.values())
        fmt = lambda d: "inf" if math.isinf(d) else f"{d:g}"  # noqa: E731
        lines.append(f"- {ds}: at the first budget where every delta answers ({first:g} units) the best is "
                     f"delta = {fmt(best_first)} (paper: delta = 1 best for the first Gaussians); accuracy "
                     f"non-decreasing in delta at {mono}/{len(piv)} budgets (paper: continuous improvement); "
                     f"delta = inf best at {n_inf_best}/{len(piv)} budgets"
                     + (f"; inf minus 1: largest {gain.max():+.2f} points at {gain.idxmax():g}, smallest "
                        f"{gain.min():+.2f} at {gain.idxmin():g} (paper, on Gender: up to +9)" if gain is not None
                        else "") + ".")
    return lines


def _lead_pairs(variants: set) -> list[tuple[str, str]]:
    """(MC-Tree variant, Bayes tree variant) pairs to compare: every ``mctree*`` variant against
    the Bayes tree variant with the same swept settings (label suffix), or against the only Bayes
    tree variant."""
    bts = sorted(v for v in variants if v.startswith("bayestree"))
    mcs = sorted(v for v in variants if v.startswith("mctree"))
    if not bts or not mcs:
        return []
    pairs = []
    for m in mcs:
        suffix = m[m.index(" "):] if " " in m else ""
        algo = m.split(" ")[0]
        tail = algo[len("mctree_inf"):] if algo.startswith("mctree_inf_") else ""
        match = [b for b in bts if b == "bayestree" + suffix] or [b for b in bts if tail and b == "bayestree" + tail] \
            or [b for b in bts if b == "bayestree"]
        if match:
            pairs.append((m, match[0]))
        elif len(bts) == 1:
            pairs.append((m, bts[0]))
    return pairs


def _lead_numbers(lead: pd.DataFrame, tlead: pd.DataFrame) -> list[dict]:
    """Per (dataset, MC-Tree variant): the numbers of the lead summary. ``at`` / ``t_at``: the lead
    (points) at LEAD_BUDGETS Gaussians / at the Bayes tree's times for them, NaN where not both
    answer from their trees; ``t_seconds`` those times; the largest lead where both answer and its
    budget; the first budget where both answer (None where none)."""
    rows = []
    for (ds, mc), g in lead.groupby(["dataset", "mctree"]):
        both = g[g["both_answer"]]
        at = []
        for b in LEAD_BUDGETS:
            r = both[both["budget"] == b]
            at.append(float(r["lead_points"].iloc[0]) if len(r) else float("nan"))
        best = both.loc[both["lead_points"].idxmax()] if len(both) else None
        tg = tlead[(tlead["dataset"] == ds) & (tlead["mctree"] == mc) & tlead["both_answer"]] \
            if not tlead.empty else tlead
        t_at, t_seconds = [], []
        for b in LEAD_BUDGETS:
            r = tg[tg["ref_budget"] == b] if len(tg) else tg
            t_at.append(float(r["lead_points"].iloc[0]) if len(r) else float("nan"))
            t_seconds.append(float(r["seconds"].iloc[0]) if len(r) else float("nan"))
        rows.append({"dataset": ds, "mctree": mc, "at": at,
                     "max_lead": float(best["lead_points"]) if best is not None else float("nan"),
                     "max_lead_budget": int(best["budget"]) if best is not None else None,
                     "first_budget": int(both["budget"].min()) if len(both) else None,
                     "t_at": t_at, "t_seconds": t_seconds})
    return rows


def _lead_summary(lead: pd.DataFrame, tlead: pd.DataFrame) -> pd.DataFrame:
    """One row per dataset: the lead at LEAD_BUDGETS Gaussians and at the Bayes tree's times there, the largest
    lead, all only where both classifiers answer from their trees, and the paper's claim (the numbers:
    :func:`_lead_numbers`). The table states numbers; the claims are judged only by the verdicts
    (:mod:`bench.report.verdicts.mctree`)."""
    rows = []
    for n in _lead_numbers(lead, tlead):
        ds = n["dataset"]
        row = {"dataset": ds, "mctree": n["mctree"]}
        for b, v in zip(LEAD_BUDGETS, n["at"]):
            row[f"lead@{b}"] = f"{v:+.2f}" if not np.isnan(v) else "-"
        row["max_lead_both_answer"] = f"{n['max_lead']:+.2f} @ {n['max_lead_budget']}" \
            if n["max_lead_budget"] is not None else "-"
        row["first_budget_both_answer"] = n["first_budget"] if n["first_budget"] is not None else "-"
        for b, v, sec in zip(LEAD_BUDGETS, n["t_at"], n["t_seconds"]):
            row[f"lead@t{b}"] = f"{v:+.2f} ({sec * 1e6:.3g}us)" if not np.isnan(v) else "-"
        row["paper_claim"] = LEAD_CLAIMS.get(ds, "")
        rows.append(row)
    return pd.DataFrame(rows)


def mctree_report(df: pd.DataFrame, plan: dict, out: Path, facts: Facts) -> list[Path]:
    """The tables, figures and notes of one experiment, written into ``out`` (the paper's folder),
    each file named after the experiment; the numbers behind the tables recorded in ``facts``
    (:func:`_record_facts`)."""
    name = plan.get("experiment") or (df["experiment"].iloc[0] if len(df) else "mctree")
    ok = df[df["status"] == "ok"].copy()
    if ok.empty:
        return []
    if "metrics_by_budget" not in ok:
        ok["metrics_by_budget"] = None
    # a label per record: the algorithm name, plus the estimator settings that differ between its
    # configurations in this experiment (a sweep), e.g. "mctree (delta=2)"
    ok["variant"] = variant_labels(ok, keys="estimator", style="parens")
    curves = yardstick.curves(ok, keys=("dataset", "variant", "algo"))
    static = _static(ok)
    full = _full_models(ok)
    paper = published_static_levels()
    written: list[Path] = []
    summ = _summary(curves) if not curves.empty else pd.DataFrame(
        columns=["dataset", "variant", "budget", "accuracy", "accuracy_se", "seconds"])
    datasets = sorted(set(curves["dataset"]) if not curves.empty else set(static["dataset"]))
    # config (variant) label -> the name shown in legends and tables
    show = unique_display(sorted(set(ok["variant"]) | set(static["algo"])), DISPLAY_NAMES["mctree"])
    for ds in datasets:
        n_ds = ok[ok["dataset"] == ds]
        written += _plot(name, ds, summ, static, full, paper, "budget", out, plan, show, n_ds)
        if not summ.empty and summ.loc[summ["dataset"] == ds, "seconds"].notna().any():
            written += _plot(name, ds, summ, static, full, paper, "time", out, plan, show, n_ds)

    if not summ.empty:
        sel = summ[summ["budget"].isin(TABLE_BUDGETS)]
        piv = sel.pivot_table(index=["dataset", "budget"], columns="variant", values="accuracy").round(2)
        if not full.empty:
            fpiv = full.pivot_table(index="dataset", columns="variant", values="accuracy").round(2)
            fpiv.index = pd.MultiIndex.from_tuples([(d, "full model") for d in fpiv.index], names=piv.index.names)
            piv = pd.concat([piv, fpiv]).sort_index(level=0, sort_remaining=False)
        written += write_table(piv, out / f"{name}_accuracy_at_budgets", labels=show,
                               caption=f"{name}: accuracy (%) after each budget, mean over folds; 'full model' = "
                                       f"every kernel (every training object for anytime NN)")

    if not static.empty:
        rows = []
        for r in static.itertuples():
            pname = _static_name(r.algo)
            pub = paper.get((r.dataset.lower(), pname)) if pname else None
            rows.append({"dataset": r.dataset, "classifier": r.algo, "ours_accuracy": round(r.accuracy, 2),
                         "ours_se": round(r.accuracy_se, 2), "paper_accuracy": pub if pub is not None else "",
                         "paper_classifier": f"Weka {pname}" if pub is not None else "",
                         "seconds_per_query": f"{r.seconds_per_query:.2e}"})
        static_rows = pd.DataFrame(rows)
        written += write_table(static_rows.set_index(["dataset", "classifier"]), out / f"{name}_static",
                               labels=show,
                               caption=f"{name}: static classifiers (horizontal lines), ours beside the paper's Weka "
                                       f"levels where printed; the tree is {', '.join(sorted(set(static['algo']) & set(STATIC_TREES))) or '-'}")

    variants = set(curves["variant"]) if not curves.empty else set()
    pairs = _lead_pairs(variants)
    lead = tlead = summary = pd.DataFrame()
    if pairs:
        leads, tleads = [], []
        for ours, other in pairs:
            lead = _lead_table(curves, ours, other)
            tlead = _time_lead_table(curves, ours, other)
            for t in (lead, tlead):
                t.insert(1, "mctree", ours)
                t.insert(2, "bayestree", other)
            leads.append(lead)
            tleads.append(tlead)
        lead = pd.concat(leads, ignore_index=True)
        tlead = pd.concat(tleads, ignore_index=True)
        if not lead.empty:
            tab = lead[lead["budget"].isin(TABLE_BUDGETS)].copy()
            tab["lead"] = [f"{m:+.2f} ± {s:.2f}" if b else f"({m:+.2f}: one answers with the prior)"
                           for m, s, b in zip(tab["lead_points"], tab["lead_se"], tab["both_answer"])]
            tab["folds ahead"] = [f"{a}/{n}" for a, n in zip(tab["folds_mctree_ahead"], tab["folds"])]
            written += write_table(tab.set_index(["dataset", "mctree", "budget"])[["lead", "folds ahead"]],
                                   out / f"{name}_mctree_vs_bayestree", labels=show,
                                   caption=f"{name}: MC-Tree minus Bayes tree accuracy in points at equal Gaussians "
                                           f"(mean ± s.e. over folds, fold-paired); in brackets where one of them "
                                           f"has not read its root entries yet and answers with the class prior")
            summary = _lead_summary(lead, tlead)
            written += write_table(summary.set_index(["dataset", "mctree"]), out / f"{name}_lead_summary",
                                   labels=show,
                                   caption=f"{name}: MC-Tree's lead over the Bayes tree (accuracy points, fold-paired "
                                           f"mean), only at budgets where both have answered from their trees (read "
                                           f"their root entries; before that a classifier answers with the class "
                                           f"prior, and such budgets are left out). Time: the same at equal mean "
                                           f"seconds per query, at the times the Bayes tree needs for "
                                           f"{'/'.join(map(str, LEAD_BUDGETS))} Gaussians (each classifier's last "
                                           f"state reached by then; our "
                                           f"Numba engine on this machine, not the paper's Java). The paper does not "
                                           f"say whether its '%' are points or relative.")
            if not tlead.empty:
                tt = tlead.copy()
                tt["lead"] = [f"{m:+.2f} ± {s:.2f}" if b else "(one answers with the prior)"
                              for m, s, b in zip(tt["lead_points"], tt["lead_se"], tt["both_answer"])]
                tt["microseconds"] = (tt["seconds"] * 1e6).round(1)
                written += write_table(tt.set_index(["dataset", "mctree", "microseconds"])[["ref_budget", "lead",
                                                                                            "folds"]],
                                       out / f"{name}_mctree_vs_bayestree_time", labels=show,
                                       caption=f"{name}: MC-Tree minus Bayes tree accuracy in points at equal "
                                               f"wall-clock time per query: the time the Bayes tree needs for "
                                               f"ref_budget Gaussians (mean over folds; each classifier's "
                                               f"accuracy is that of the last budget state whose mean time per "
                                               f"query is at most the given time)")

    first = _first_answer(curves) if not curves.empty else None
    _record_facts(facts, name, plan, ok, piv if not summ.empty else None,
                  static_rows if not static.empty else None,
                  lead if pairs and not lead.empty else None, tlead, first)
    if name in FOLD_FACTS and not curves.empty:
        facts.add_table(f"{name}_fold_anytime", fold_anytime(curves, ok), f"{PAPER}/{name}_accuracy_at_budgets.csv",
                        about="per fold, each variant's accuracy (%) averaged over the table's budgets (the anytime "
                              "accuracy whose mean over folds the table's rows average): the paired values of the "
                              "ordering claims")
    notes = [f"# {name}", "", f"Scale {plan.get('scale', 'ad hoc')}, protocol {plan.get('protocol', '?')}, "
             f"seeds {plan.get('seeds', '?')}; run on {plan.get('host', '?')} ({plan.get('cpu', '?')}).", ""]
    if name in NOT_HERE:
        notes.append(f"- {NOT_HERE[name]}")
    for ds in datasets:
        if ds in STANDINS:
            notes.append(f"- {ds}: {STANDINS[ds]}.")
    if set(static.get("algo", [])) & {"tree_placeholder"}:
        notes.append("- The static tree is `tree_placeholder` (scikit-learn entropy tree, min 2 objects per leaf), "
                     "a stand-in for Weka's J48 until `j48` is available.")
    notes.append("- Budget unit: Gaussians (and kernels) evaluated per query for MC-Tree and the Bayes tree, training "
                 "objects compared for anytime NN (one kernel and one distance both cost O(d)). An MC-Tree entry "
                 "holding several classes (delta < inf) counts as set by the estimator's `cost`: `entries` (one per "
                 "entry read, the default) or `class_gaussians` (one per class Gaussian plus the overall one); "
                 "single-class entries (all Bayes tree entries; MC-Tree with delta = inf) count one either way.")
    notes.append("- Wall-clock times are those of our Numba engine on a machine shared by several processes (load "
                 "well above the 2 cores), not of the paper's Java; they order the two trees at equal time only "
                 "roughly.")
    if first is not None:
        written += write_table(first.set_index(["dataset", "variant"]), out / f"{name}_first_answer", labels=show,
                               caption=f"{name}: the first answer from the tree (the root entries read): its cost "
                                       f"in budget units and its accuracy, beside the prior-only accuracy before it")
    if pairs and not lead.empty:
        notes += ["", "## MC-Tree against the Bayes tree (fold-paired points, only where both answer from their trees)",
                  ""]
        for r in summary.itertuples(index=False):
            d = dict(zip(summary.columns, r))
            what = HYPOTHESES.get(str(d["mctree"]).split(" ")[0], "")
            at = "/".join(str(d[f"lead@{b}"]) for b in LEAD_BUDGETS)
            tat = "/".join(str(d[f"lead@t{b}"]) for b in LEAD_BUDGETS)
            shown_name = show.get(d["mctree"], d["mctree"])
            notes.append(f"- {d['dataset']}, {shown_name}{' (' + what + ')' if what else ''}: lead at "
                         f"50/100/200/500 Gaussians {at}; largest {d['max_lead_both_answer']}; at equal time (when the "
                         f"Bayes tree has read 50/100/200/500 Gaussians) {tat}. Paper: {d['paper_claim'] or '-'}")
    if name == "mctree_fig4_delta" and not summ.empty:
        notes += ["", "## Sec. 4.1 claims on delta, per dataset", ""] + _delta_claims(summ, curves)
    if name == "mctree_fig5":
        notes += ["", "## Hypotheses examined (each a stored experiment; numbers in its report)", "",
                  "- Lead summary: budgets where the Bayes tree has not read its root (it answers with the prior) "
                  "are left out (they gave the former 73-80 point 'leads'); `first_answer` gives each tree's "
                  "first answer.",
                  "- Cost of a mixed entry (C + 1 Gaussians vs one per entry read): `mctree_cost`; does not touch "
                  "this figure (delta = inf: every entry holds one class).",
                  "- Root with more classes than the fanout (Def. 3), leaves of fanout vs page-sized kernel sets, "
                  "literal CF variances for both trees: `mctree_hypotheses`.",
                  "- k of k-class / qbk: `mctree_k` (k = 1, 5; k = 2 here).",
                  "- EM clusters per node and purity: the `extra` (estimator `diagnostics_`) of every MC-Tree record "
                  "(mean_children_per_inner_entry, purity_depth*); one-object entries are now final (refining "
                  "them to their one-kernel leaf changed nothing but cost a unit).",
                  "- x axis: the paper plots Fig. 5 against time; `<...>_time` figures and the lead at equal time "
                  "(`mctree_vs_bayestree_time`)."]
    if not summ.empty and summ["variant"].nunique() > 1:
        notes += ["", "## Best variant per budget", ""]
        for ds in datasets:
            s_ds = summ[summ["dataset"] == ds]
            parts = []
            for b in (10, 20, 50, 100, 200, 500):
                r = s_ds[s_ds["budget"] == b]
                if len(r) > 1:
                    top = r.sort_values("accuracy", ascending=False)
                    parts.append(f"{b}: " + " > ".join(f"{show.get(v, v)} {a:.2f}"
                                                      for v, a in zip(top["variant"], top["accuracy"])))
            if parts:
                notes.append(f"- {ds}: " + "; ".join(parts))
    notes.append("- Paper reference lines: the static Weka SVM / C4.5 accuracies printed in the text "
                 "(bench/published/claims.csv, the mctree rows); the paper's curves are not in its text.")
    p = out / f"{name}_notes.md"
    p.write_text("\n".join(notes) + "\n")
    from bench.report.html import notes_page, page_html

    p.with_suffix(".html").write_text(page_html(notes_page(notes), p))   # the view the pages link to
    contents.record(out, "notes", p.stem, [p])
    written.append(p)
    return written


def _shown_float(v, digits: int) -> float | None:
    """A number as its table shows it (``digits`` decimals), None for NaN: the facts hold what a
    reader of the table sees."""
    return None if v is None or not np.isfinite(v) else float(f"{v:.{digits}f}")


def _setting(ok: pd.DataFrame, variant: str, key: str):
    """The estimator setting ``key`` of a variant's first record (None when its config has none)."""
    conf = ok.loc[ok["variant"] == variant, "algo_config"].iloc[0] if "algo_config" in ok else None
    if isinstance(conf, str):
        import json

        conf = json.loads(conf)
    est = (conf or {}).get("estimator") if isinstance(conf, dict) else None
    return est.get(key) if isinstance(est, dict) else None


#: the experiments whose per-fold anytime accuracies are recorded (MC14's paired test over folds)
FOLD_FACTS = ("mctree_fig4_alpha",)


def fold_anytime(curves: pd.DataFrame, ok: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, variant, repeat, fold): the variant's alpha and its accuracy (%) averaged over the budgets
    of :data:`TABLE_BUDGETS` it reached (plain values, for the facts)."""
    c = curves[curves["budget"].isin(TABLE_BUDGETS)]
    g = c.groupby(["dataset", "variant", "repeat", "fold"], sort=True)["accuracy"].mean().reset_index()
    alpha = {v: _setting(ok, v, "alpha") for v in g["variant"].unique()}
    g.insert(2, "alpha", [a if isinstance(a, (int, float)) else None for a in g["variant"].map(alpha)])
    g["repeat"], g["fold"] = g["repeat"].astype(int), g["fold"].astype(int)
    return g.astype(object)


def _record_facts(facts: Facts, name: str, plan: dict, ok: pd.DataFrame, piv: pd.DataFrame | None,
                  static_rows: pd.DataFrame | None, lead: pd.DataFrame | None, tlead: pd.DataFrame,
                  first: pd.DataFrame | None) -> None:
    """The numbers of experiment ``name``'s tables as facts (:mod:`bench.report.facts`), each with the
    table that shows it (``mctree/<name>_<table>.csv``), at the precision it shows them: what the
    claim checks (:mod:`bench.papers.mctree.verdicts`) and the key figure read."""
    src = lambda table: f"{PAPER}/{name}_{table}.csv"  # noqa: E731
    facts.add_value(f"{name}_run", {"scale": plan.get("scale", "ad hoc"), "protocol": plan.get("protocol", "?")},
                    f"{PAPER}/{name}_notes.md", about=f"the scale and protocol {name} ran at")
    if piv is not None:
        rows = []
        for (ds, budget), r in piv.iterrows():
            for var, acc in r.items():
                alpha = _setting(ok, var, "alpha")
                rows.append({"dataset": ds, "budget": None if budget == "full model" else float(budget),
                             "variant": var, "alpha": alpha if isinstance(alpha, (int, float)) else None,
                             "accuracy": _shown_float(acc, 2)})
        facts.add_table(f"{name}_accuracy_at_budgets", pd.DataFrame(rows), src("accuracy_at_budgets"),
                        about="accuracy (%) after each budget (None: the full model), mean over folds, per "
                              "variant (config label; alpha: its estimator's alpha)")
    if static_rows is not None:
        t = pd.DataFrame({"dataset": static_rows["dataset"], "classifier": static_rows["classifier"],
                          "ours_accuracy": static_rows["ours_accuracy"], "ours_se": static_rows["ours_se"],
                          "paper_accuracy": [None if v == "" else float(v) for v in static_rows["paper_accuracy"]],
                          "seconds_per_query": [float(v) for v in static_rows["seconds_per_query"]]})
        facts.add_table(f"{name}_static", t, src("static"),
                        about="static classifiers: our accuracy (%) and its standard error over folds, the "
                              "paper's printed Weka level where it gives one")
    if first is not None:
        t = first.apply(lambda col: col.map(lambda v: None if isinstance(v, str) and v == "" else v))
        facts.add_table(f"{name}_first_answer", t, src("first_answer"),
                        about="the first answer from the tree: its budget units and accuracy, the prior-only "
                              "accuracy before it")
    if lead is not None:
        nums = _lead_numbers(lead, tlead)
        rows = []
        for n in nums:
            for axis, vals, secs in (("gaussians", n["at"], [None] * len(LEAD_BUDGETS)),
                                     ("time", n["t_at"], n["t_seconds"])):
                for b, v, sec in zip(LEAD_BUDGETS, vals, secs):
                    us = None if sec is None or np.isnan(v) else float(f"{sec * 1e6:.3g}")
                    rows.append({"dataset": n["dataset"], "mctree": n["mctree"], "axis": axis, "ref_budget": b,
                                 "lead_points": _shown_float(v, 2), "microseconds": us})
        facts.add_table(f"{name}_lead", pd.DataFrame(rows), src("lead_summary"),
                        about="MC-Tree's fold-paired lead over the Bayes tree (accuracy points) where both answer "
                              "from their trees (None: not both), at ref_budget Gaussians (axis gaussians) or at "
                              "the Bayes tree's mean time for them (axis time; microseconds per query)")
        facts.add_table(f"{name}_lead_max", pd.DataFrame([
            {"dataset": n["dataset"], "mctree": n["mctree"], "max_lead_points": _shown_float(n["max_lead"], 2),
             "max_lead_budget": n["max_lead_budget"], "first_budget_both_answer": n["first_budget"]}
            for n in nums]), src("lead_summary"),
            about="the largest lead where both answer from their trees and its budget; the first budget where "
                  "both answer")


#: what each experiment's tables and figures stand for (the missing list's item when it is not stored)
ITEMS = {"mctree_fig4_alpha": "Fig. 4 (left)", "mctree_fig4_delta": "Fig. 4 (right)", "mctree_fig5": "Fig. 5",
         "mctree_fig5_pages32": "Fig. 5 (32 entries per page)", "mctree_fig6": "Fig. 6",
         "mctree_vowel": "vowel (extra)", "mctree_hypotheses": "hypotheses",
         "mctree_k": "k of k-class", "mctree_cost": "cost of a mixed entry"}
#: the static tables whose published cells the key figure draws: experiment -> its label there
KEY_TABLES = (("mctree_fig5", "Fig. 5"), ("mctree_fig6", "Fig. 6"), ("mctree_vowel", "vowel"))


def _key_cells(facts: Facts) -> tuple[pd.DataFrame, str]:
    """The key figure's cells: the static accuracies with a printed paper level, ours beside them
    (columns kind, table, published, ours), and the tables they come from (';'-joined; with no
    cell, the tables read)."""
    frames, sources, read = [], [], []
    for exp, label in KEY_TABLES:
        t = facts.table(f"{exp}_static")
        if t is None:
            continue
        read.append(facts.source(f"{exp}_static"))
        t = t[t["paper_accuracy"].notna()]
        if len(t):
            sources.append(read[-1])
        frames.append(pd.DataFrame({"kind": "accuracy (%)", "table": label,
                                    "published": t["paper_accuracy"].astype(float),
                                    "ours": t["ours_accuracy"].astype(float)}))
    return gather(frames), ";".join(sources or read)


def _not_stored(view) -> str:
    """Why an experiment has no tables: never run, not defined, or no split ran."""
    if not view.defined:
        return f"experiment not defined yet: no conf/experiment/{view.name}.yaml"
    if view.all_records.empty:
        return f"not run yet: no stored runs of experiment {view.name}"
    return f"run failed: no split of experiment {view.name} ran ({len(view.all_records)} stored, none ok)"


def build(ctx: ReportContext, out: Path) -> PaperResult:
    """The paper's tables, figures and notes in ``reports/mctree/``: those of every stored experiment of
    :data:`EXPERIMENTS` (:func:`mctree_report`, files named after the experiment), each experiment not
    stored listed as missing; the facts behind them, and the key figure's cells (``key_cells``)."""
    res = PaperResult(PAPER, experiments=list(EXPERIMENTS))
    for name in EXPERIMENTS:
        view = ctx.experiment(name)
        df = view.all_records
        if df.empty or not (df["status"] == "ok").any():
            res.add_missing(ITEMS.get(name, name), "", "", _not_stored(view))
            continue
        res.files += mctree_report(df, view.plan, out, res.facts)
        if name == yardstick.EXPERIMENT:   # both trees against anytime NN (MC05a, MC05b, MC08)
            res.files += yardstick.table(df, out, res.facts)
    cells, sources = _key_cells(res.facts)
    if sources:
        res.facts.add_table("key_cells", cells, sources,
                            about="the key figure's cells: each static accuracy (%) with a level printed in the "
                                  "paper, ours beside it")
    return res
