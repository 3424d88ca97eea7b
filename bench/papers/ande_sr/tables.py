"""The tables of the ``ande_sr`` report: Tables 1-5 (datasets, win/draw/loss against the published
counts), the settings of the stored runs, and the per-dataset values and tests beyond the paper."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench import published
from bench.stats.pairwise import SIZE_LABELS
from bench.stats.spread import standard_error
from bench.stats.ttests import corrected_resampled_ttest, paired_5x2cv_ttest
from bench.report.compare import fmt, fmt_p, long_display, value_facts, wdl_facts, wdl_matrix_display
from bench.report.context import PaperResult
from bench.report.tables import write_table
from bench.report.keyfig import WIN_SHARE, gather
from bench.papers.ande_sr.data import n_compared, rf10_sklearn_cells, rounds, wdl_cells
from bench.papers.ande_sr.spec import (ALGOS, ALPHA, BASELINE, PAIRED, PAPER, SKLEARN_FILE, SUBSETS, TABLES,
                                       VALUES_FACT)


def wdl_tables(exp, vals: dict, coll: dict, out: Path, res: PaperResult) -> list[Path]:
    """Tables 2-5: per measure and collection the win/draw/loss matrix (ours (published)), the long
    table of every cell, and the cells with RF10 recomputed with RF10-sklearn."""
    files = []
    long_sk = []
    key_cells, key_sources = [], []
    for number, (measure, pub_measure, flabel) in TABLES.items():
        pub = published.wdl(PAPER, number)
        long = wdl_cells(pub, vals, measure, pub_measure, coll, exp)
        long_sk.append(rf10_sklearn_cells(pub, vals, measure, pub_measure, coll, exp))
        stem = f"table{number}_wdl_{flabel}_long"
        res.facts.add_table(stem, wdl_facts(long), f"{PAPER}/{stem}.csv",
                            about=f"Table {number} ({pub_measure}): every published W/D/L cell (row vs col, a win = "
                                  f"lower {pub_measure}) beside ours, with the two-tailed sign test")
        key_cells.append(_key_cells(long, f"Table {number} ({flabel})"))
        key_sources.append(f"{PAPER}/{stem}.csv")
        rows, cols = list(ALGOS)[1:], list(ALGOS)[:-1]
        for subset in sorted(set(pub["subset"]), key=SUBSETS.index):
            m = wdl_matrix_display(long, rows, cols, subset, pub_measure)
            n_ds = n_compared(long, subset, pub_measure)
            cap = (f"Table {number}: win/draw/loss of {pub_measure}, {SIZE_LABELS[subset]} datasets "
                   f"(row vs column; a win = lower {pub_measure}). Each cell: ours (published). Bold: two-tailed "
                   f"binomial sign test p < {ALPHA} (published bold recomputed from the published counts). "
                   f"Ours over {n_ds} datasets; scale {exp.plan.get('scale', '?')}, protocol "
                   f"{exp.plan.get('protocol', '?')}" + (f" (Kohavi-Wolpert {pub_measure} from {rounds(exp)} "
                                                         f"rounds; the paper used 20)" if number in (2, 3) else "")
                   + ".")
            files += write_table(m, out / f"table{number}_wdl_{flabel}_{subset}", caption=cap)
            if number == 4 and subset == "all":   # the scale of the verdicts: Table 4's caption says it
                src = f"{PAPER}/table{number}_wdl_{flabel}_{subset}.md"
                res.facts.add_value("scale", exp.plan.get("scale", "?"), src, "the scale of the stored runs")
                res.facts.add_value("protocol", exp.plan.get("protocol", "?"), src, "the protocol of the stored runs")
                res.facts.add_value("datasets_compared", n_ds, src,
                                    "how many datasets our Table 4 cells over all data compare (a range 'lo-hi' "
                                    "when they differ)")
        files += write_table(long_display(long), out / f"table{number}_wdl_{flabel}_long", index=False,
                             key_columns=4,
                             caption=f"Table {number} ({pub_measure}): every cell, ours beside published; "
                                     f"win share = wins / (wins + losses); diff = ours - published")
        if long["ours"].eq("").all():
            res.add_missing(f"Table {number}", "", "", "no cell computed: " +
                            (long["note"].iloc[0] if len(long) else "no published rows"))

    sk = pd.concat(long_sk, ignore_index=True) if long_sk else pd.DataFrame()
    if not sk.empty:
        files += write_table(long_display(sk), out / Path(SKLEARN_FILE).stem, index=False,
                             caption="Tables 2-5, every cell with RF10: the same comparison with scikit-learn's "
                                     "forest (RF10-sklearn) in place of Weka's RandomForest; published = the "
                                     "paper's RF10 cell")
        res.facts.add_table(Path(SKLEARN_FILE).stem, wdl_facts(sk), f"{PAPER}/{SKLEARN_FILE}",
                            about="Tables 2-5, every cell with RF10, recomputed with RF10-sklearn in RF10's place")
    bv = vals.get("_bv")
    size = {d: s for s in ("small", "medium", "large") for d in (coll.get(s) or [])}
    values = value_facts(vals, ALGOS, [(name, measure) for measure, name, _ in TABLES.values()], size)
    res.facts.add_table(VALUES_FACT, values, f"{PAPER}/summary_long.csv" + (
                            f";{PAPER}/bias_variance_per_dataset.csv" if bv is not None and not bv.empty else ""),
                        about="per dataset, each learner's mean bias, variance, 0-1 loss and RMSE (the paper's names) "
                              "with the paper's size collection of the dataset: the values Tables 2-5 count on, "
                              "paired by dataset for the Bayesian signed-rank beside each W/D/L claim")
    res.facts.add_table("key_cells", gather(key_cells), ";".join(key_sources),
                        about="the key figure's cells: published and our win share W / (W + L) of every published "
                              "cell of Tables 2-5, as the long tables show them (3 decimals); ours None where we "
                              "have no record")
    return files


def _key_cells(long: pd.DataFrame, label: str) -> pd.DataFrame:
    """The key figure's cells of one long W/D/L table: the win shares as its CSV shows them (``fmt`` to 3
    decimals, read back as floats)."""
    def shown(v) -> float | None:
        s = fmt(v, 3)
        return float(s) if s else None

    rows = [[WIN_SHARE, label, shown(r["published_win_share"]), shown(r["ours_win_share"])]
            for r in (long.to_dict("records") if not long.empty else [])]
    return pd.DataFrame(rows, columns=["kind", "table", "published", "ours"], dtype=object)


def datasets_table(exp, pds: pd.DataFrame, out: Path) -> list[Path]:
    """Table 1: the paper's datasets, ours, and which have complete runs."""
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


def setup_table(exp, out: Path) -> list[Path]:
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


def protocol_notes(exp) -> list[str]:
    """The protocol and scale of the runs, and how the bias-variance rounds differ from the paper's."""
    plan = exp.plan
    prot = plan.get("protocol", "?")
    lines = [f"protocol {prot} at scale {plan.get('scale', '?')}" + (" (planned, not run)" if plan.get("not_run")
                                                                     else "")]
    if exp.records.empty:
        return lines
    pc = exp.records["protocol_config"].iloc[0] or {}
    reps = int(rounds(exp))
    if reps != 20:
        lines.append(f"bias and variance are estimated from {reps} rounds of {pc.get('n_splits', '?')}-fold CV "
                     f"({reps} predictions of every instance); the paper used 20 rounds of 2-fold CV")
    return lines


def per_dataset(exp, measure: str, name: str, datasets: list[str], paper_name: dict, label: dict,
                out: Path) -> list[Path]:
    """Per-dataset values with the corrected resampled t-test against NB (Weka Experimenter style)."""
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


def paired_tests(exp, datasets: list[str], paper_name: dict, out: Path) -> list[Path]:
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


def bias_variance_values(bv: pd.DataFrame, paper_name: dict, label: dict, out: Path) -> list[Path]:
    """The Kohavi-Wolpert bias and variance of every (dataset, algorithm)."""
    rows = []
    for r in bv.sort_values(["dataset", "algo"]).itertuples():
        rows.append({"dataset": paper_name.get(r.dataset, r.dataset), "algorithm": label.get(r.algo, r.algo),
                     "bias": fmt(r.bias), "variance": fmt(r.variance), "0-1 loss": fmt(r.loss),
                     "bias + variance - loss": f"{r.bias + r.variance - r.loss:.1e}",
                     "instances": r.n_instances, "rounds": r.rounds_min})
    return write_table(pd.DataFrame(rows), out / "bias_variance_per_dataset", index=False,
                       caption="Kohavi-Wolpert bias and variance per dataset (noise folded into bias; "
                               "bias + variance = 0-1 loss over all rounds)")
