"""Table 5's BayesNet run by Weka itself (experiment ``massbayes_bayesnet_weka``): Weka 3.6's BayesNet as the paper set
it (K2, at most 100 parents, an empty initial network; Weka's supervised Discretize fitted on each training fold,
not timed) on the 10 folds of ``massbayes_table3``, beside bench's ``bayesnet_k2`` and the paper's Table 5.

One table (``bayesnet_weka``, also the fact table of that name) with one row per data set: Weka's build and
classification CPU seconds per fold, the network it learned (arcs, the most parents of a node, the cells of its
dense probability tables, each node's table being its cardinality times the product of its parents'), its
accuracy; bench's bayesnet_k2 seconds per fold and the paper's; MassBayes's and MassBayes''s seconds per fold
(bench's, from Table 5's facts) and the time ratios BayesNet/MassBayes and MassBayes'/BayesNet with Weka's
BayesNet, with bench's and in the paper. Times per fold: Table 5's totals over the 10 folds divided by 10 (the
ratios do not depend on it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench.report.facts import Facts
from bench.report.tables import write_table

EXPERIMENT = "massbayes_bayesnet_weka"
FACT = "bayesnet_weka"
ALGO = "bayesnet_k2_wekajar"
#: Table 5's fact table (built before this one, from massbayes_table3) and Table 3's
RUNTIME, ACC = "table5_runtime_long", "table3_accuracy_long"


def _table5(facts: Facts, name: str, ds: str, algo: str, col: str) -> float:
    t = facts.table(name)
    if t is None:
        return np.nan
    sel = t[(t["ours_dataset"] == ds) & (t["algorithm"] == algo)]
    return float(sel[col].iloc[0]) if len(sel) and pd.notna(sel[col].iloc[0]) else np.nan


def report(df: pd.DataFrame, plan: dict, out: Path, facts: Facts) -> list[Path]:
    """The table and fact of Weka's own BayesNet (``df``: the experiment's records), beside Table 5's facts."""
    ok = df[(df["status"] == "ok") & (df["algo"] == ALGO)] if "status" in df else df.iloc[:0]
    if ok.empty:
        return []
    t5 = facts.table(RUNTIME)
    rows = []
    for ds, g in ok.groupby("dataset", sort=False):
        paper_ds = ""
        if t5 is not None and (t5["ours_dataset"] == ds).any():
            paper_ds = str(t5.loc[t5["ours_dataset"] == ds, "dataset"].iloc[0])
        folds = int(g["fold"].nunique())
        extra = g[[c for c in g.columns if c.startswith("extra.")]].rename(columns=lambda c: c[len("extra."):])

        def per_fold(name, algo, col="ours_s"):
            v = _table5(facts, name, ds, algo, col)
            return v / 10 if v == v else np.nan      # Table 5: the 10 folds' total

        weka = float((g["times.train_cpu_s"] + g["times.test_cpu_s"]).mean())
        bench_bn, paper_bn = per_fold(RUNTIME, "BayesNet"), per_fold(RUNTIME, "BayesNet", "published_s")
        mb, paper_mb = per_fold(RUNTIME, "MassBayes"), per_fold(RUNTIME, "MassBayes", "published_s")
        mbp, paper_mbp = per_fold(RUNTIME, "MassBayes'"), per_fold(RUNTIME, "MassBayes'", "published_s")
        rows.append({
            "dataset": paper_ds or ds, "ours_dataset": ds, "folds": folds,
            "weka_train_s": float(g["times.train_cpu_s"].mean()), "weka_test_s": float(g["times.test_cpu_s"].mean()),
            "weka_s": weka, "bench_s": bench_bn, "paper_s": paper_bn,
            "paper/weka": paper_bn / weka if weka else np.nan,
            "arcs": float(extra["n_arcs"].mean()) if "n_arcs" in extra else np.nan,
            "max_parents": int(extra["max_parents"].max()) if "max_parents" in extra else None,
            "table_cells": float(extra["family_cells"].mean()) if "family_cells" in extra else np.nan,
            "class_only_parent": float(np.mean([all(list(p) == [len(ps) - 1] for p in ps[:-1])
                                                for ps in extra["parents"]])) if "parents" in extra else np.nan,
            "weka_accuracy": float(100 * (1 - g["metrics.error"].mean())),
            "paper_accuracy": _table5(facts, ACC, ds, "BayesNet", "published"),
            "massbayes_s": mb, "paper_massbayes_s": paper_mb, "massbayes_prime_s": mbp,
            "paper_massbayes_prime_s": paper_mbp,
            "bn/mb_weka": weka / mb if mb else np.nan, "bn/mb_bench": bench_bn / mb if mb else np.nan,
            "bn/mb_paper": paper_bn / paper_mb if paper_mb else np.nan,
            "mbp/bn_weka": mbp / weka if weka else np.nan, "mbp/bn_bench": mbp / bench_bn if bench_bn else np.nan,
            "mbp/bn_paper": paper_mbp / paper_bn if paper_bn else np.nan,
        })
    table = pd.DataFrame(rows)
    facts.add_table(FACT, table, f"massbayes/{FACT}.csv",
                    about="Table 5's BayesNet run by Weka 3.6 itself on the folds of massbayes_table3 (K2, at most 100 "
                          "parents, empty initial network): per data set its CPU seconds per fold, the network it "
                          "learned (mean arcs, most parents, dense table cells, share of folds where every attribute's "
                          "only parent is the class), its accuracy (%); bench's bayesnet_k2 and the paper's seconds per "
                          "fold; the time ratios BayesNet/MassBayes and MassBayes'/BayesNet with Weka's BayesNet, "
                          "bench's and the paper's (Table 5's totals / 10)")
    shown = table.copy()
    for c in shown.columns:
        if c.endswith("accuracy"):    # percentages, to the paper's two decimals
            shown[c] = shown[c].map(lambda x: "" if pd.isna(x) else f"{x:.2f}")
        elif shown[c].dtype.kind == "f":
            shown[c] = shown[c].map(lambda x: "" if pd.isna(x) else (f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"))
    return write_table(shown, out / FACT, index=False, key_columns=2,
                       caption="Table 5's BayesNet run by Weka 3.6 itself (BayesNet -D -Q K2 -- -P 100 -N -S BAYES, "
                               "SimpleEstimator -A 0.5, on Weka's supervised Discretize fitted per training fold, not "
                               f"timed), experiment {EXPERIMENT}, on the {plan.get('protocol', '?')} folds of "
                               "massbayes_table3: CPU seconds per fold (build + classify) beside bench's bayesnet_k2 and "
                               "the paper's (Table 5 / 10); the network Weka learned (mean arcs; most parents of a node; "
                               "cells of its dense tables; share of folds where the class is every attribute's only "
                               "parent, i.e. naive Bayes); accuracy (%) beside the paper's Table 3; time ratios "
                               "BayesNet/MassBayes and MassBayes'/BayesNet with Weka's BayesNet, bench's and the paper's")


__all__ = ["report", "EXPERIMENT", "FACT", "ALGO"]
