"""Figs 1-4 of the ``ande_sr`` report: each learner's value divided by NB's on the same dataset,
averaged over a collection of datasets, with the plotted numbers beside each figure."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench.report.compare import fmt
from bench.report.context import PaperResult
from bench.report.figures import Caption, normalised_bars
from bench.report.tables import write_table
from bench.papers.ande_sr.spec import ALGOS, BASELINE, EXPERIMENT, PAPER

#: (file stem, the paper's item, [(panel title, measure)], grouped by collections?, title)
SPECS = [
    ("fig1_bias_variance", "Fig. 1", [("Bias", "bias"), ("Variance", "variance")], False,
     "Averaged bias (left) and variance (right) normalised with respect to NB"),
    ("fig2_01loss", "Fig. 2", [("0-1 loss", "error")], True,
     "Average 0-1 loss on 4 collections of datasets, normalised with respect to NB"),
    ("fig3_rmse", "Fig. 3", [("RMSE", "rmse")], True,
     "Average RMSE on 4 collections of datasets, normalised with respect to NB"),
    ("fig4_time", "Fig. 4", [("Learning time", "train_s"), ("Classification time", "test_s")], True,
     "Averaged learning and classification time normalised with respect to NB"),
]


def figures(vals: dict, coll: dict, out: Path, res: PaperResult, label: dict, exp=None) -> list[Path]:
    """Figs 1-4 (PNG, PDF) and their values tables; a figure that cannot be drawn is listed as missing."""
    files = []
    base = ALGOS[BASELINE]
    algos = [a for a in ALGOS.values() if a != base]
    groups = {"All": coll["all"], "Large": coll["large"], "Medium": coll["medium"], "Small": coll["small"]}
    for stem, item, panels, by_collection, title in SPECS:
        grp = groups if by_collection else {"All": None}
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
        res.facts.add_table(f"{stem}_values", summary[["panel", "group", "algo", "mean", "se", "n"]],
                            f"{PAPER}/{stem}_values.csv",
                            about=f"{item}: the plotted numbers: per panel, collection and learner the mean and "
                                  f"standard error over datasets of the ratio to NB on the same dataset (n = datasets)")
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
