"""Zaidi and Webb 2013, "Fast and Effective Single Pass Bayesian Learning": Tables 2-5,
Figs 1-4 and a verdict on each of the paper's claims (conclusions.md, a view of
:mod:`bench.report.verdicts.ande_sr`), from the stored runs of experiment ``ande_sr``.

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
from ..stats.pairwise import SIZE_LABELS
from ..stats.spread import standard_error
from ..stats.ttests import corrected_resampled_ttest, paired_5x2cv_ttest
from .compare import fmt, fmt_p, long_display, wdl_matrix_display, wdl_vs_published
from .context import PaperResult, ReportContext, dataset_algo_cells
from .figures import Caption, normalised_bars
from .labels import DISPLAY_NAMES
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
#: config name -> the paper's name, for every table, legend and generic summary of this paper
DISPLAY_NAMES[PAPER] = {oa: pa for pa, oa in ALGOS.items()}
BASELINE = "NB"
SUBSETS = ("all", "large", "medium", "small")

#: table number -> (our measure key, the published measure string, file label)
TABLES = {2: ("bias", "bias", "bias"), 3: ("variance", "variance", "variance"),
          4: ("error", "0-1 loss", "01loss"), 5: ("rmse", "RMSE", "rmse")}
TEST = "sign2"        # Zaidi and Webb 2013: two-tailed binomial sign test, significant when p < 0.05
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


SKLEARN_FILE = "wdl_rf10_sklearn_long.csv"


def _rf10_sklearn_cells(pub: pd.DataFrame, vals: dict, measure: str, pub_measure: str, coll: dict,
                        exp) -> pd.DataFrame:
    """The published cells with RF10, recomputed with RF10-sklearn in RF10's place (for the verdicts)."""
    if "RF10-sklearn" not in ALGOS:
        return pd.DataFrame()
    rf = pub[(pub["row_algorithm"] == "RF10") | (pub["col_algorithm"] == "RF10")].copy()
    for c in ("row_algorithm", "col_algorithm"):
        rf[c] = rf[c].replace("RF10", "RF10-sklearn")
    return wdl_vs_published(rf, {measure: vals.get(measure, pd.DataFrame())}, ALGOS, {pub_measure: measure},
                            {s: coll[s] for s in SUBSETS}, TEST, ALPHA, algo_reasons=_algo_reasons(exp))


# ---------------------------------------------------------------- build
def build(ctx: ReportContext, out: Path) -> PaperResult:
    res = PaperResult(PAPER, experiments=[EXPERIMENT])
    exp = ctx.experiment(EXPERIMENT)
    pds = published.datasets(PAPER)
    mapped = [d for d in pds["ours"] if d]
    coll = _collections(pds)
    paper_name = dict(zip(pds["ours"], pds["dataset"]))
    label = DISPLAY_NAMES[PAPER]

    res.add_missing_cells("Tables 2-5, Figs 1-4", exp, pds, ALGOS)

    vals = _values(exp, mapped)
    res.files += _datasets_table(exp, pds, out)
    res.files += _setup_table(exp, out)
    res.notes += _protocol_notes(exp)

    # Tables 2-5
    long_sk = []
    for number, (measure, pub_measure, flabel) in TABLES.items():
        pub = published.wdl(PAPER, number)
        long = wdl_vs_published(pub, {measure: vals.get(measure, pd.DataFrame())}, ALGOS, {pub_measure: measure},
                                {s: coll[s] for s in SUBSETS}, TEST, ALPHA, algo_reasons=_algo_reasons(exp))
        long_sk.append(_rf10_sklearn_cells(pub, vals, measure, pub_measure, coll, exp))
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
                                 key_columns=4,
                                 caption=f"Table {number} ({pub_measure}): every cell, ours beside published; "
                                         f"win share = wins / (wins + losses); diff = ours - published")
        if long["ours"].eq("").all():
            res.add_missing(f"Table {number}", "", "", "no cell computed: " +
                            (long["note"].iloc[0] if len(long) else "no published rows"))

    sk = pd.concat(long_sk, ignore_index=True) if long_sk else pd.DataFrame()
    if not sk.empty:
        res.files += write_table(long_display(sk), out / Path(SKLEARN_FILE).stem, index=False,
                                 caption="Tables 2-5, every cell with RF10: the same comparison with scikit-learn's "
                                         "forest (RF10-sklearn) in place of Weka's RandomForest; published = the "
                                         "paper's RF10 cell")

    # Figures 1-4
    res.files += _figures(vals, coll, out, res, label, exp)

    # rank analysis beyond the paper
    for m, name in (("error", "0-1 loss"), ("rmse", "RMSE")):
        v = vals.get(m, pd.DataFrame())
        if v is not None and not v.empty:
            files, notes = friedman_report(v, out / f"ranks_{m}", f"{TITLE.split(' (')[0]}: {name}",
                                           labels=label, plan={**exp.plan, "experiment": EXPERIMENT},
                                           n_records=exp.n_records)
            res.files += files
            res.notes += notes

    # per-dataset values with the corrected resampled t-test against NB (Weka Experimenter style)
    for m, name in (("error", "0-1 loss"), ("rmse", "RMSE")):
        res.files += _per_dataset(exp, m, name, mapped, paper_name, label, out)
    res.files += _paired_tests(exp, mapped, paper_name, out)
    bv = vals.get("_bv")
    if bv is not None and not bv.empty:
        res.files += _bias_variance_values(bv, paper_name, label, out)

    # conclusions: one verdict per published claim, read back from the tables written above
    res.files += _conclusions(out, exp, res)
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
    rows, marked = [], set()
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
                    marked.add("v" if t.statistic < 0 else "*")
            row[label[a]] = cell
        rows.append(row)
    if not rows:
        return []
    # the caption describes only the marks the table has
    legend = [text for m, text in (("v", f"v = significantly lower than {BASELINE}"),
                                   ("*", f"* = significantly higher than {BASELINE}")) if m in marked]
    test = (f"corrected resampled t-test of Nadeau and Bengio against {BASELINE}, p < {ALPHA}, test/train ratio "
            f"{ratio:.2f}")
    cap = (f"{name} per dataset: mean ± standard error over splits. "
           + (f"Marks (Weka Experimenter style, {test}): " + ", ".join(legend) if legend
              else f"No difference from {BASELINE} is significant ({test})" if base in sv.columns
              else f"{BASELINE} not run: no tests against it"))
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
                   "corrected t": fmt(t.statistic, 3), "p (corrected t)": fmt_p(t.p)}
            if five_by_two and len(g) == 10:
                d = (g[a] - g[b]).to_numpy().reshape(5, 2)   # index order: repeat, fold
                f = paired_5x2cv_ttest(d)
                row.update({"5x2cv t": fmt(f.statistic, 3), "p (5x2cv t)": fmt_p(f.p)})
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
def _figures(vals: dict, coll: dict, out: Path, res: PaperResult, label: dict, exp=None) -> list[Path]:
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
        what = (f"{item}: {title.lower()}: per collection of datasets (the paper's size categories), each "
                f"learner's value divided by NB's on the same dataset, averaged over the datasets, with bars of "
                f"one standard error over the datasets; the dashed line at 1 is NB")
        plan = {**(exp.plan if exp is not None else {}), "experiment": EXPERIMENT}
        cap = Caption.of_plan(what, plan, exp.n_records if exp is not None else None,
                              notes="The paper does not say how it normalised or what its error bars are.")
        paths, summary = normalised_bars(frames, base, others, grp, out / stem,
                                         ylabel="ratio to NB (mean ± s.e. over datasets)",
                                         title=title, labels=label, caption=cap)
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
def _conclusions(out: Path, exp, res: PaperResult) -> list[Path]:
    """conclusions.{md,csv,tex}: a view of the claim verdicts (bench.report.verdicts.ande_sr, which reads
    the tables written above) — the claims and their wording come from the published claim data."""
    from .verdicts import ande_sr as verdicts

    vs = verdicts.evaluate_dir(out, published.claims(PAPER))
    table = pd.DataFrame([{
        "claim": v.claim_id, "statement": v.claim, "verdict": v.verdict,
        "paper's own table": v.extra.get("paper_own", ""),
        "with RF10-sklearn": v.extra.get("rf10_sklearn", ""), "ours": v.ours, "published": v.published,
        "test": v.test, "reason": v.reason, "evidence": v.evidence} for v in vs])
    cap = (f"The paper's claims (claims.csv) checked against our runs (scale {exp.plan.get('scale', '?')}): one verdict "
           f"per claim from bench.report.verdicts.ande_sr. 'paper's own table' applies the same rule to the paper's "
           f"own counts; 'with RF10-sklearn' is the verdict with scikit-learn's forest in place of Weka's RF10.")
    files = write_table(table, out / "conclusions", caption=cap, index=False)
    counts = table["verdict"].value_counts().to_dict()
    res.notes.append("claims: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return files



def published_cells(missing: pd.DataFrame | None = None) -> int:
    """The (dataset, algorithm) cells of Tables 2-5 and Figs. 1-4 that :func:`build` fills or lists as
    missing (:func:`.context.dataset_algo_cells`)."""
    return dataset_algo_cells(len(published.datasets(PAPER)), len(ALGOS), missing)


PAPER_MODULES[PAPER] = build
