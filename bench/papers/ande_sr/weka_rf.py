"""RF10 run by Weka itself (experiment ``ande_sr_weka_rf``): Weka 3.6's own ``RandomForest -I 10 -K 0`` on the folds of
``ande_sr``, beside bench's reimplementation (``rf10_weka``, the report's RF10) and scikit-learn's forest (``rf10``).

Two tables and their facts:

* ``rf10_weka_itself_per_dataset``: per dataset (the paper's rows beside ours), the mean 0-1 loss over the same
  splits of the three forests, NB, A1DE-SW and A2DE-SW;
* ``wdl_rf10_wekajar_long``: every published cell of Tables 4 and 5 (0-1 loss, RMSE) with RF10 in it,
  recomputed with Weka's own forest in RF10's place (the paper's RF10 is Weka's RandomForest, version 3.5.7),
  beside the published counts, as :func:`bench.papers.ande_sr.data.rf10_sklearn_cells` does for scikit-learn's.

The verdicts (:mod:`.verdicts`) decide AN10/AN11 on the report's RF10 and state the same checks with Weka's own
forest beside them.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench import published
from bench.report.compare import long_display, wdl_facts
from bench.report.context import PaperResult
from bench.report.tables import write_table
from bench.papers.ande_sr.data import algo_reasons, rf10_cells
from bench.papers.ande_sr.spec import ALGOS, ALPHA, PAPER, SUBSETS, TEST

EXPERIMENT = "ande_sr_weka_rf"
#: the paper's name of Weka's own forest and its algorithm name in the experiment
NAME, ALGO = "RF10-Weka", "rf10_wekajar"
LONG = "wdl_rf10_wekajar_long"
PER_DATASET = "rf10_weka_itself_per_dataset"
SIZES = "rf10_weka_itself_by_size"
#: the published tables whose RF10 cells are recomputed (the error measures of AN10, AN11)
MEASURES = {4: ("error", "0-1 loss"), 5: ("rmse", "RMSE")}


def report(ctx, main, vals: dict, coll: dict, pds: pd.DataFrame, out: Path, res: PaperResult) -> list[Path]:
    """The Weka-forest tables and facts, when experiment :data:`EXPERIMENT` has records; else nothing."""
    exp = ctx.experiment(EXPERIMENT)
    if exp.records.empty or exp.plan.get("protocol") != main.plan.get("protocol"):
        res.notes.append(f"RF10 run by Weka itself (experiment {EXPERIMENT}): "
                         + ("no stored run" if exp.records.empty else
                            f"protocol {exp.plan.get('protocol')} differs from ande_sr's {main.plan.get('protocol')}"))
        return []
    files = []
    mapping = {**ALGOS, NAME: ALGO}
    both = {}
    for measure in ("error", "rmse"):
        w = exp.means(measure)
        v = vals.get(measure, pd.DataFrame())
        if w.empty or ALGO not in w.columns or v is None or v.empty:
            continue
        both[measure] = v.join(w[[ALGO]], how="left")
    if not both:
        return []
    reasons = {**algo_reasons(main), **({} if exp.algos() else {ALGO: "not run yet"})}

    # Tables 4-5: every published RF10 cell with Weka's own forest in RF10's place
    from bench.report.compare import wdl_vs_published

    parts = []
    for number, (measure, pub_measure) in MEASURES.items():
        if measure not in both:
            continue
        pub = published.wdl(PAPER, number)
        parts.append(wdl_vs_published(rf10_cells(pub, NAME), {measure: both[measure]}, mapping, {pub_measure: measure},
                                      {s: coll[s] for s in SUBSETS}, TEST, ALPHA, algo_reasons=reasons))
    long = pd.concat(parts, ignore_index=True)
    files += write_table(long_display(long), out / LONG, index=False,
                         caption="Tables 4-5, every cell with RF10, recomputed with Weka 3.6's own RandomForest -I 10 "
                                 f"-K 0 ({NAME}, experiment {EXPERIMENT}: run by Weka on the same folds) in RF10's "
                                 "place; published = the paper's RF10 cell (Weka 3.5.7's RandomForest)")
    res.facts.add_table(LONG, wdl_facts(long), f"{PAPER}/{LONG}.csv",
                        about="Tables 4-5, every cell with RF10, recomputed with Weka's own RandomForest (run by Weka "
                              "on the same folds) in RF10's place")

    # per dataset: the three forests' 0-1 loss on the same splits, beside NB and the SW learners
    err = both["error"]
    paper_rows = dict(zip(pds["ours"], pds["rows"]))
    paper_name = dict(zip(pds["ours"], pds["dataset"]))
    cols = {ALGO: NAME, ALGOS["RF10"]: "RF10 (bench)", ALGOS["RF10-sklearn"]: "RF10-sklearn",
            ALGOS["NB"]: "NB", ALGOS["A1DE-SW"]: "A1DE-SW", ALGOS["A2DE-SW"]: "A2DE-SW"}
    mapped = [d for d in pds["ours"] if d and d in err.index and pd.notna(err.loc[d].get(ALGO))]
    rows = []
    for ds in mapped:
        n_here = main.records.loc[main.records["dataset"] == ds, "n_instances"]
        r = {"dataset": ds, "paper's name": paper_name.get(ds, ""),
             "rows (paper)": int(paper_rows[ds]) if pd.notna(paper_rows.get(ds)) else None,
             "rows (here)": int(n_here.iloc[0]) if len(n_here) else None}
        r.update({label: float(err.loc[ds, a]) if a in err.columns and pd.notna(err.loc[ds, a]) else None
                  for a, label in cols.items()})
        r[f"{NAME} - RF10 (bench)"] = None if r[NAME] is None or r["RF10 (bench)"] is None else \
            r[NAME] - r["RF10 (bench)"]
        rows.append(r)
    df = pd.DataFrame(rows, dtype=object)
    res.facts.add_table(PER_DATASET, df, f"{PAPER}/{PER_DATASET}.csv",
                        about="per dataset, the mean 0-1 loss over the same splits of Weka's own RF10, bench's "
                              "reimplementation, scikit-learn's forest, NB, A1DE-SW and A2DE-SW; the paper's and our "
                              "row counts")

    # the datasets whose size here differs from the paper's Table 1 (LED: 3200 rows, the paper's 1000), and the
    # cells of Weka's forest against the SW learners with and without them: do they make the difference?
    from bench.report.compare import our_wdl

    resized = [r["dataset"] for r in rows if r["rows (paper)"] and r["rows (here)"] and
               r["rows (paper)"] != r["rows (here)"]]
    same_size = [d for d in mapped if d not in resized]
    sizes = []
    for a in ("A1DE-SW", "A2DE-SW"):
        for where, dss in (("all", mapped), ("same size as the paper's", same_size), ("resized", resized)):
            w = our_wdl(err, ALGO, ALGOS[a], dss, True, TEST, ALPHA) if dss else None
            sizes.append({"row": NAME, "col": a, "datasets": where, "n": 0 if w is None else w.n,
                          "wins": None if w is None else w.wins, "draws": None if w is None else w.draws,
                          "losses": None if w is None else w.losses, "p": None if w is None else w.p})
    res.facts.add_table(SIZES, pd.DataFrame(sizes, dtype=object), f"{PAPER}/{PER_DATASET}.csv",
                        about="0-1 loss W/D/L of Weka's own RF10 against A1DE-SW and A2DE-SW over all datasets, over "
                              "those whose size here equals the paper's Table 1, and over the others")
    res.facts.add_value("resized_datasets", {d: [int(r["rows (paper)"]), int(r["rows (here)"])] for r in rows
                                             for d in [r["dataset"]] if d in resized},
                        f"{PAPER}/{PER_DATASET}.csv", "datasets whose row count here differs from the paper's Table 1: "
                                                      "[paper's rows, rows here]")
    # Weka's own forest against bench's reimplementation, per dataset (does the implementation move the cells?)
    from bench.stats.ttests import wilcoxon_signed_rank

    pair = err[[ALGO, ALGOS["RF10"]]].dropna().loc[lambda v: v.index.isin(mapped)]
    vs = our_wdl(pair, ALGO, ALGOS["RF10"], None, True, TEST, ALPHA)
    if vs is not None:
        res.facts.add_value("weka_vs_bench_rf10", {
            "wins": vs.wins, "draws": vs.draws, "losses": vs.losses, "n": vs.n,
            "wilcoxon_p": float(wilcoxon_signed_rank(pair[ALGO].to_numpy(), pair[ALGOS["RF10"]].to_numpy()).p),
            "mean_difference": float((pair[ALGO] - pair[ALGOS["RF10"]]).mean())}, f"{PAPER}/{PER_DATASET}.csv",
            "0-1 loss of Weka's own RF10 against bench's per dataset: W/D/L (a win = lower), the two-sided Wilcoxon "
            "signed-rank p over the datasets and the mean difference")
    shown = df.copy()
    for c in shown.columns[4:]:
        shown[c] = shown[c].map(lambda x: "" if x is None or pd.isna(x) else f"{x:.4f}")
    mean = {c: float(pd.to_numeric(df[c], errors="coerce").mean()) for c in df.columns[4:]}
    shown.loc[len(shown)] = ["mean", "", "", ""] + [f"{mean[c]:.4f}" for c in df.columns[4:]]
    files += write_table(shown, out / PER_DATASET, index=False, key_columns=1,
                         caption=f"RF10 run by Weka itself: mean 0-1 loss over the {exp.plan.get('protocol')} splits of "
                                 f"ande_sr (the same folds for every column) of Weka 3.6's RandomForest -I 10 -K 0 "
                                 f"({NAME}), bench's reimplementation (the report's RF10) and scikit-learn's forest, "
                                 "beside NB, A1DE-SW and A2DE-SW; rows (paper) from the paper's Table 1")
    return files


__all__ = ["report", "EXPERIMENT", "NAME", "ALGO", "LONG", "PER_DATASET", "SIZES"]
