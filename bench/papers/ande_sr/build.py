"""Zaidi and Webb 2013, "Fast and Effective Single Pass Bayesian Learning": Tables 2-5,
Figs 1-4 and a verdict on each of the paper's claims (conclusions.md, a view of
:mod:`bench.papers.ande_sr.verdicts`), from the stored runs of experiment ``ande_sr``.

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

The package: :mod:`.spec` (the paper's constants), :mod:`.data` (collections, per-dataset values,
bias and variance), :mod:`.tables` (Tables 1-5 and the tables beyond the paper), :mod:`.figures`
(Figs 1-4), :mod:`.weka_rf` (RF10 run by Weka itself, experiment ``ande_sr_weka_rf``), :mod:`.claims` (the
conclusions); :func:`build` runs them in that order.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench import published
from bench.report.context import PaperResult, ReportContext, dataset_algo_cells
from bench.report.labels import DISPLAY_NAMES
from bench.report.ranking import friedman_report
from bench.papers.ande_sr import claims, data, figures, sr_check, tables, weka_rf
from bench.papers.ande_sr.spec import (ALGOS, ALPHA, BASELINE, EXPERIMENT, PAIRED, PAPER, SKLEARN_FILE, SUBSETS, TABLES,  # noqa: F401
                   TEST, TITLE)


def build(ctx: ReportContext, out: Path) -> PaperResult:
    res = PaperResult(PAPER, experiments=[EXPERIMENT, weka_rf.EXPERIMENT])
    exp = ctx.experiment(EXPERIMENT)
    pds = published.datasets(PAPER)
    mapped = [d for d in pds["ours"] if d]
    coll = data.collections(pds)
    paper_name = dict(zip(pds["ours"], pds["dataset"]))
    label = DISPLAY_NAMES[PAPER]

    res.add_missing_cells("Tables 2-5, Figs 1-4", exp, pds, ALGOS)

    vals = data.values(exp, mapped)
    res.files += tables.datasets_table(exp, pds, out)
    res.files += tables.setup_table(exp, out)
    res.facts.add_value("rf10_config", ALGOS["RF10"], f"{PAPER}/setup.csv", "the configuration behind the paper's RF10")
    res.facts.add_table("classification_time", data.time_facts(vals), f"{PAPER}/summary_long.csv",
                        about="mean classification (test) CPU seconds per split of every (dataset, algorithm) with a "
                              "complete run: the values Fig. 4's classification panel divides by NB's")
    res.notes += tables.protocol_notes(exp)

    # Tables 2-5
    res.files += tables.wdl_tables(exp, vals, coll, out, res)
    # RF10 run by Weka itself on the same folds (experiment ande_sr_weka_rf), beside bench's RF10
    res.files += weka_rf.report(ctx, exp, vals, coll, pds, out, res)

    # Figures 1-4
    res.files += figures.figures(vals, coll, out, res, label, exp)
    res.facts.add_table("error_ratio_to_nb", data.ratio_facts(vals, coll, label), f"{PAPER}/summary_long.csv",
                        about="per dataset of the paper's small, medium and large collections, each learner's mean 0-1 "
                              "loss and RMSE divided by NB's on the same dataset (what Figs. 2 and 3 average): the "
                              "paired values of the ordering claims")

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
        res.files += tables.per_dataset(exp, m, name, mapped, paper_name, label, out)
    res.files += tables.paired_tests(exp, mapped, paper_name, out)
    # what subsumption resolution deletes under MI weighting (AN04's cause), from ande_sr_subsumption
    res.files += sr_check.table(ctx, vals, exp, out, res)
    bv = vals.get("_bv")
    if bv is not None and not bv.empty:
        res.files += tables.bias_variance_values(bv, paper_name, label, out)

    # conclusions: one verdict per published claim, from the facts recorded above (never the tables)
    res.files += claims.conclusions(out, exp, res)
    return res


def published_cells(missing: pd.DataFrame | None = None) -> int:
    """The (dataset, algorithm) cells of Tables 2-5 and Figs. 1-4 that :func:`build` fills or lists as
    missing (:func:`.context.dataset_algo_cells`)."""
    return dataset_algo_cells(len(published.datasets(PAPER)), len(ALGOS), missing)

