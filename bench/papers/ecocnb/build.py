"""ECOC with naive Bayes (Park and Fuernkranz 2014): Table 1's diversity column and
Tables 2-4 (training times) as ratios to NB, with the published ratios beside ours.

The machines differ (the paper: a 2.4 GHz Opteron 250), so training times are compared as the
ratio of each ECOC variant's training time to NB's on the same dataset and density estimator.

What the module expects (any part may be absent, and its cells are then listed as missing):

* experiments :data:`EXPERIMENTS`: ``ecocnb_normal`` (Table 2, normal density estimators),
  ``ecocnb_kernel`` (Table 3, kernel density estimators), ``ecocnb_discretized`` (Table 4,
  10-bin equal-frequency discretisation), each on the paper's text datasets with 10-fold CV;
* in each, algorithms whose names start with the prefixes of :data:`ROLES`: ``nb...`` (plain
  naive Bayes with that estimator), ``ecocnb...`` (ECOC-NB, one pass), ``ecoc_sf...``
  (the straightforward ECOC: one NB per code bit);
* the code length of an ECOC run is read from trailing digits of the algorithm name
  (``ecocnb_normal_b127``, ``ecoc_sf_normal_b15``: one config per length, the simplest way since
  all roles share one experiment) or from the estimator parameter ``code_length``
  (:data:`CODE_LENGTH_PARAM`) of a run swept with ``sweep: {algo.estimator.code_length: [...]}``,
  which the report tells apart by the experiment's ``sweep`` keys. (A Hydra sweep of
  ``algo.estimator.code_length`` would also be applied to the NB config, which lacks that key.)

Training time is the median over the folds of ``times.fit_cpu_s`` (the first fold of a job also
loads the compiled Numba kernels, which can exceed NB's whole pass over a text set's counts; the
paper's protocol, 10-fold CV, is the same): the estimator's fit, without the
pipeline's preprocessing, because the paper discretised its datasets before the experiments
(Table 4, "we decided to perform experiments on discretized versions of these datasets") and its
times are those of the learners; our discretiser is fitted per training fold and timed apart.
The diversity of Table 1 is computed from the data: the number of distinct values summed over the
attributes, divided by instances x attributes (sparse zeros count as a value; missing values do not).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from bench import published
from bench.stats.collect import base_algo, variant_params
from bench.report.compare import fmt
from bench.report.context import PaperResult, ReportContext
from bench.report.facts import Facts
from bench.report.html import KEY_FIGURE
from bench.report.keyfig import gather, printed
from bench.papers.ecocnb import CODE_LENGTHS, ROLES
from bench.report.tables import write_table
from bench.report.verdicts import BOOT_LEVEL as VERDICT_BOOT_LEVEL
from bench.report.verdicts import BOOT_RESAMPLES as VERDICT_BOOT_RESAMPLES
from bench.report.verdicts import BOOT_SEED as VERDICT_BOOT_SEED

PAPER = "ecocnb"
EXPERIMENTS = {2: "ecocnb_normal", 3: "ecocnb_kernel", 4: "ecocnb_discretized"}
#: every experiment the paper's report reads (res.experiments, the scale gate)
ALL_EXPERIMENTS = [*EXPERIMENTS.values(), "ecocnb_instances", "ecocnb_shared_pass", "ecocnb_instances_shared",
                   "ecocnb_instances_shared_held"]
ESTIMATOR = {2: "normal estimators (Weka 3.6 NaiveBayes': precision grid, cell probability)",
             3: "kernel density", 4: "10-bin equal-frequency discretisation"}
#: claims on ECOC-NB's cost (bench/published/claims.csv) -> the table whose times they are about (the rules
#: that judge them are bench.papers.ecocnb.verdicts's; this module shows the numbers they are applied to)
COST_CLAIMS = {"EC04": (2,), "EC05": (3,), "EC08": (2, 3, 4)}
CODE_LENGTH_PARAM = "code_length"


# ---------------------------------------------------------------- Table 1: diversity
def diversity(X) -> float:
    """Distinct values summed over the attributes / (instances x attributes) (Park and Fuernkranz 2014, Table 1)."""
    n, d = X.shape
    if sp.issparse(X):
        csc = sp.csc_matrix(X)
        csc.sum_duplicates()
        cols = np.repeat(np.arange(d), np.diff(csc.indptr))
        vals = csc.data
        keep = ~np.isnan(vals)
        pairs = np.unique(np.stack([cols[keep], vals[keep]]), axis=1).shape[1] if keep.any() else 0
        nnz = np.diff(csc.indptr)
        explicit_zero = np.zeros(d, dtype=bool)
        explicit_zero[cols[(vals == 0) & keep]] = True
        implicit_zero = (nnz < n) & ~explicit_zero
        return float((pairs + implicit_zero.sum()) / (n * d))
    X = np.asarray(X, dtype=np.float64)
    total = sum(np.unique(col[~np.isnan(col)]).size for col in X.T)
    return float(total / (n * d))


def _table1(ctx: ReportContext, out: Path, res: PaperResult) -> list[Path]:
    from bench.data import load

    pub = published.datasets(PAPER)
    rows, facts = [], []
    for r in pub.itertuples():
        row = {"dataset": r.dataset, "instances (paper)": int(r.rows), "features (paper)": r.attributes,
               "classes (paper)": r.classes, "diversity (paper)": r.diversity}
        why = ctx.dataset_reason(r.ours or None)
        fact = {"dataset": r.dataset, "diversity_paper": pd.to_numeric(r.diversity, errors="coerce"),
                "diversity_ours": None}
        if why:
            res.add_missing("Table 1", r.dataset, "", why)
            rows.append({**row, "instances (ours)": "", "features (ours)": "", "classes (ours)": "",
                         "diversity (ours)": "", "diff": "", "missing / note": why})
            facts.append(fact)
            continue
        ds = load(r.ours)
        div = diversity(ds.X)
        rows.append({**row, "instances (ours)": ds.n_instances, "features (ours)": ds.n_features,
                     "classes (ours)": ds.n_classes, "diversity (ours)": fmt(div, 4),
                     "diff": fmt(div - float(r.diversity), 4), "missing / note": ""})
        facts.append({**fact, "diversity_ours": div})
    res.facts.add_table("table1_diversity", pd.DataFrame(facts, columns=["dataset", "diversity_paper", "diversity_ours"],
                                                         dtype=object),
                        f"{PAPER}/table1_datasets_diversity.csv",
                        about="Table 1's diversity per dataset, the paper's and ours (None: the dataset is not here)")
    return write_table(pd.DataFrame(rows), out / "table1_datasets_diversity", index=False,
                       caption="Table 1: the text datasets and their diversity (distinct values summed over "
                               "attributes / (instances x attributes)), computed from our copy of the data")


# ---------------------------------------------------------------- Tables 2-4
def role_of(algo: str) -> str | None:
    """The paper's algorithm an algorithm name plays (longest matching prefix), or None."""
    name = base_algo(algo)
    best = None
    for pub_name, prefix in ROLES.items():
        if name.startswith(prefix) and (best is None or len(prefix) > len(ROLES[best])):
            best = pub_name
    return best


def code_length_of(algo: str, algo_config: dict | None) -> int | None:
    """The code length of an ECOC run: the estimator's ``code_length`` or the name's trailing digits."""
    v = variant_params(algo).get(CODE_LENGTH_PARAM)
    if v is None and isinstance(algo_config, dict):
        v = (algo_config.get("estimator") or {}).get(CODE_LENGTH_PARAM)
    if v is None:
        m = re.search(r"(\d+)$", base_algo(algo))
        v = m.group(1) if m else None
    return int(v) if v is not None else None


def _our_times(exp) -> pd.DataFrame:
    """Mean training seconds per (dataset, role, code length) over complete runs of the experiment."""
    per_split = exp.splits("fit_s")
    # the median over the folds: the first fold of every job also loads the compiled Numba kernels
    # (up to ~0.7 s, against ~2 ms for NB's whole pass over a text set's counts)
    times = per_split.groupby(level="dataset").median() if not per_split.empty else per_split
    if times.empty:
        return pd.DataFrame(columns=["dataset", "algorithm", "code_length", "seconds", "algo"])
    cfg = exp.records.drop_duplicates("algo").set_index("algo")["algo_config"].to_dict()
    rows = []
    for algo in times.columns:
        role = role_of(algo)
        if role is None:
            continue
        length = None if role == "NB" else code_length_of(algo, cfg.get(algo))
        for ds, v in times[algo].dropna().items():
            rows.append({"dataset": ds, "algorithm": role, "code_length": length, "seconds": float(v), "algo": algo})
    return pd.DataFrame(rows)


def _planned_algo(exp, role: str, length: int | None) -> str:
    """Our algorithm (config name) that plays ``role`` at ``length`` bits in the experiment's plan
    (e.g. ``ecocnb_normal_b63``), or the role's name prefix when the plan names none."""
    algos = exp.plan.get("algos")
    if not algos and exp.defined:  # a plan without its algorithm list: read the experiment's config
        from bench.experiment_plan import experiment_config

        algos = experiment_config(exp.name).get("algos")
    for algo in algos if isinstance(algos, list) else []:
        if role_of(algo) == role and (role == "NB" or code_length_of(algo, None) == length):
            return algo
    return ROLES[role]


def _time_table(ctx: ReportContext, number: int, out: Path, res: PaperResult) -> list[Path]:
    exp = ctx.experiment(EXPERIMENTS[number])
    pub = published.values(PAPER, number)
    pub["code_length"] = pd.to_numeric(pub["code_length"], errors="coerce")
    back = published.dataset_map(PAPER)
    ours = _our_times(exp)
    rows, facts = [], []
    for ds_pub, g in pub.groupby("dataset", sort=False):
        ds = back.get(ds_pub, "")
        nb_pub = g.loc[g["algorithm"] == "NB", "value_num"]
        nb_pub = float(nb_pub.iloc[0]) if not nb_pub.empty else np.nan
        mine = ours[ours["dataset"] == ds] if not ours.empty else ours
        nb_ours = mine.loc[mine["algorithm"] == "NB", "seconds"] if not mine.empty else pd.Series(dtype=float)
        nb_ours = float(nb_ours.iloc[0]) if not nb_ours.empty else np.nan
        for r in g.itertuples():
            if r.algorithm == "NB":
                continue
            length = int(r.code_length)
            pub_ratio = r.value_num / nb_pub if np.isfinite(r.value_num) else np.nan
            sel = mine[(mine["algorithm"] == r.algorithm) & (mine["code_length"] == length)] if not mine.empty \
                else mine
            our_ratio = float(sel["seconds"].iloc[0]) / nb_ours if (not sel.empty and np.isfinite(nb_ours)
                                                                    and nb_ours > 0) else np.nan
            note = ""
            if not np.isfinite(r.value_num):
                note = f"paper: {r.notes.split(';')[0]}" if r.notes else "blank in the paper"
            if not np.isfinite(our_ratio):
                who = f"{r.algorithm} {length}-bit"
                if not ds:
                    why = ctx.dataset_reason(None)
                elif not exp.defined:
                    why = f"experiment not defined yet: no conf/experiment/{exp.name}.yaml"
                elif not np.isfinite(nb_ours):
                    who, why = "NB (the baseline of the ratio)", \
                        exp.reason(ds, _planned_algo(exp, "NB", None)) or "no NB time"
                else:
                    why = exp.reason(ds, _planned_algo(exp, r.algorithm, length) if sel.empty
                                     else sel["algo"].iloc[0]) or "not run yet"
                if np.isfinite(r.value_num):
                    res.add_missing(f"Table {number}", ds_pub, who, why)
                note = (note + "; " if note else "") + f"ours: {why}"
            facts.append({"dataset": ds_pub, "code_length": length, "algorithm": r.algorithm, "nb_s_paper": nb_pub,
                          "ratio_paper": pub_ratio, "nb_s_ours": nb_ours, "ratio_ours": our_ratio})
            rows.append({"dataset": ds_pub, "code length": length, "algorithm": r.algorithm,
                         "NB s (paper)": fmt(nb_pub, 2), "ratio to NB (paper)": fmt(pub_ratio, 3),
                         "NB s (ours)": fmt(nb_ours, 4), "ratio to NB (ours)": fmt(our_ratio, 3),
                         "diff": fmt(our_ratio - pub_ratio, 3), "missing / note": note})
    cap = (f"Table {number}: training time of ECOC-NB and of the straightforward ECOC as a ratio to NB's on the "
           f"same dataset ({ESTIMATOR[number]}); published ratio from the paper's seconds, ours from experiment "
           f"{EXPERIMENTS[number]} (median fit CPU seconds over the folds, preprocessing excluded)")
    res.facts.add_table(f"table{number}_traintime_ratio",
                        pd.DataFrame(facts, columns=["dataset", "code_length", "algorithm", "nb_s_paper", "ratio_paper",
                                                     "nb_s_ours", "ratio_ours"], dtype=object),
                        f"{PAPER}/table{number}_traintime_ratio.csv",
                        about=f"Table {number}: NB's training seconds and each ECOC variant's time / NB's, the "
                              f"paper's and ours (median fit CPU seconds over the folds); None where not run")
    files = write_table(pd.DataFrame(rows), out / f"table{number}_traintime_ratio", index=False, caption=cap)
    files += _accuracy_table(exp, number, out)
    return files


def _accuracy_table(exp, number: int, out: Path) -> list[Path]:
    """NB vs ECOC-NB accuracy per code length (the paper's appendix; absent from the conversion)."""
    acc = exp.means("accuracy")
    if acc.empty:
        return []
    cfg = exp.records.drop_duplicates("algo").set_index("algo")["algo_config"].to_dict()
    rows = []
    for ds in acc.index:
        row = {"dataset": ds}
        for algo in acc.columns:
            role = role_of(algo)
            if role is None or pd.isna(acc.loc[ds, algo]):
                continue
            length = code_length_of(algo, cfg.get(algo)) if role != "NB" else None
            row[role if role == "NB" else f"{role} {length}"] = fmt(100 * acc.loc[ds, algo], 2)
        rows.append(row)
    table = pd.DataFrame(rows)

    def order(col):  # dataset, NB, then each role by increasing code length
        if col == "dataset":
            return (0, 0, 0)
        role, _, length = col.rpartition(" ")
        if not role:
            return (1, 0, 0)
        return (2 + list(ROLES).index(role) if role in ROLES else 9, int(length) if length.isdigit() else 0, 0)

    table = table[sorted(table.columns, key=order)]
    return write_table(table, out / f"table{number}_accuracy", index=False,
                       caption=f"Accuracy (%) of NB and the ECOC variants, {ESTIMATOR[number]} (no published "
                               f"numbers: the paper's appendix is absent from the text conversion)")


# ---------------------------------------------------------------- the cost claims
def _ratios(ctx: ReportContext, number: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(ours, paper): ECOC-NB / NB training-time ratio per (dataset, code length)."""
    ours = _our_times(ctx.experiment(EXPERIMENTS[number]))
    mine = pd.DataFrame(columns=["dataset", "code_length", "ratio"])
    if not ours.empty:
        nb = ours[ours["algorithm"] == "NB"].set_index("dataset")["seconds"]
        e = ours[ours["algorithm"] == "ECOC-NB"].copy()
        e["ratio"] = e["seconds"] / e["dataset"].map(nb)
        mine = e.dropna(subset=["ratio"])[["dataset", "code_length", "ratio"]]
    pub = published.values(PAPER, number)
    pub["code_length"] = pd.to_numeric(pub["code_length"], errors="coerce")
    nbp = pub[pub["algorithm"] == "NB"].set_index("dataset")["value_num"]
    ep = pub[pub["algorithm"] == "ECOC-NB"].copy()
    ep["ratio"] = ep["value_num"] / ep["dataset"].map(nbp)
    return mine, ep.dropna(subset=["ratio"])[["dataset", "code_length", "ratio"]]


def _nb_speed(ctx: ReportContext, number: int) -> float | None:
    """Median over the datasets of the paper's NB training seconds / ours (Table ``number``)."""
    ours = _our_times(ctx.experiment(EXPERIMENTS[number]))
    if ours.empty:
        return None
    nb = ours[ours["algorithm"] == "NB"].set_index("dataset")["seconds"]
    pub = published.values(PAPER, number)
    nbp = pub[pub["algorithm"] == "NB"].set_index("dataset")["value_num"]
    r = (nbp / nb).replace([np.inf, -np.inf], np.nan).dropna()
    return float(r.median()) if len(r) else None


def _perf_floor(ctx: ReportContext) -> pd.DataFrame:
    """The newest ``bench.perf ecoc_text`` run stored under ``<results>/perf``: per text set,
    estimator and code length, NB's and ECOC-NB's fit (fused and reference) and the floor (the
    product of Eqs. 1-2 alone), median CPU seconds on fold 0."""

    rows = []
    for run in ctx.perf_runs():
        got = [r for r in run.get("rows", []) if r.get("benchmark") == "ecoc_text"]
        if got:
            rows = got                                      # the newest run with these rows wins
    return pd.DataFrame(rows)


def _cost(ctx: ReportContext, out: Path, facts: Facts | None = None) -> list[Path]:
    files = []
    perf = _perf_floor(ctx)
    if not perf.empty:
        t = pd.DataFrame({
            "dataset": perf["dataset"], "estimator": perf["estimator"], "bits": perf["bits"],
            "NB s": perf["nb_s"].map(lambda v: fmt(v, 4)),
            "ECOC-NB / NB": (perf["fused_s"] / perf["nb_s"]).map(lambda v: fmt(v, 2)),
            "before (reference path) / NB": (perf["reference_s"] / perf["nb_s"]).map(lambda v: fmt(v, 2)),
            "floor: S @ A (2n groups) / NB": (perf["floor_2n_s"] / perf["nb_s"]).map(lambda v: fmt(v, 2)),
            "floor: S @ A+ (n groups) / NB": (perf["floor_n_s"] / perf["nb_s"]).map(lambda v: fmt(v, 2)),
            "values at 0, first prediction s": perf["kernel_values_at_0_s"].map(lambda v: fmt(v, 3)),
        })
        files += write_table(t, out / "cost_floor", index=False, caption=(
            "ECOC-NB's training cost against its floor (measured by python -m bench.perf ecoc_text, fold 0 of "
            "10-fold CV, median process CPU seconds over repeated fits on a shared machine, one BLAS thread). "
            "The floor is the matrix product of Eqs. 1-2 alone: the per-class statistics (rows x classes) times "
            "the membership of the 2n groups C_b^+, C_b^- as the equations are written, and of the n positive "
            "groups only, which is what the fused path multiplies (C_b^- is the complement). 'before' is the "
            "unblocked reference path (precalculation='reference'). The kernel and Weka-normal estimators' "
            "values at 0 are a prediction-time cost (Weka evaluates its estimators at prediction) and are "
            "shown apart."))
    medians, overall, numbers = [], [], {}
    for number in sorted({n for tables in COST_CLAIMS.values() for n in tables}):
        mine, pub = _ratios(ctx, number)
        med = mine.groupby("code_length")["ratio"].median() if not mine.empty else pd.Series(dtype=float)
        pmed = pub.groupby("code_length")["ratio"].median()
        lengths = [L for L in CODE_LENGTHS if L in med.index]
        speed = _nb_speed(ctx, number)
        medians += [{"table": number, "code_length": L, "ours": float(med[L]) if L in med.index else None,
                     "paper": float(pmed[L]) if L in pmed.index else None}
                    for L in CODE_LENGTHS if L in med.index or L in pmed.index]
        allm = float(mine["ratio"].median()) if not mine.empty else None
        pall = float(pub["ratio"].median()) if not pub.empty else None
        overall.append({"table": number, "cells": len(mine), "ours_median": allm, "paper_median": pall,
                        "nb_speed": speed})
        data = "; ".join(f"{L}: {med[L]:.2f} (paper {pmed.get(L, np.nan):.2f})" for L in lengths)
        both = [L for L in lengths if L in pmed.index]
        growth = ""
        if both:
            lo, hi = both[0], both[-1]
            growth = (f"the median ratio's growth from {lo} to {hi} bits: ours x{med[hi] / med[lo]:.2f}, paper "
                      f"x{pmed[hi] / pmed[lo]:.2f}"
                      + (f"; our NB is a median {speed:.0f}x faster than the paper's, which inflates every ratio to "
                         f"NB" if speed else ""))
        whole = (f"median ECOC-NB / NB over {len(mine)} (dataset, length) cells {allm:.2f} (paper {pall:.2f})"
                 if lengths else "")
        numbers[number] = (data, growth, whole, bool(lengths))
    if facts is not None:
        source = f"{PAPER}/cost_claims.csv"
        facts.add_table("cost_medians", pd.DataFrame(medians, columns=["table", "code_length", "ours", "paper"],
                                                     dtype=object), source,
                        about="per table and code length: the median over the datasets of ECOC-NB's training time / "
                              "NB's, ours and the paper's")
        facts.add_table("cost_overall", pd.DataFrame(overall, columns=["table", "cells", "ours_median", "paper_median",
                                                                       "nb_speed"], dtype=object), source,
                        about="per table: the median ECOC-NB / NB ratio over all (dataset, code length) cells, ours "
                              "(over `cells` cells) and the paper's, and the median of the paper's NB seconds / ours")
    rows = []
    for cid, tables in COST_CLAIMS.items():
        claim = published.claims(PAPER).set_index("claim_id").loc[cid]
        for number in tables:
            data, growth, whole, ran = numbers[number]
            shown = "not run" if not ran else whole if cid == "EC08" else growth
            rows.append({"claim": cid, "quote": claim["quote"],
                         "table": f"Table {number} ({ESTIMATOR[number]})",
                         "median ECOC-NB / NB per code length (ours, paper)": data, "the rule's numbers": shown})
    if not perf.empty:
        f = perf[perf["bits"] == perf.groupby(["dataset", "estimator"])["bits"].transform("max")]
        floor = "; ".join(f"{r.dataset} {r.estimator} {r.bits} bits: {r.floor_n_s / r.nb_s:.2f}"
                          for r in f.itertuples())
        rows.append({"claim": "floor", "quote": "", "table": "bench.perf ecoc_text (cost_floor.md)",
                     "median ECOC-NB / NB per code length (ours, paper)":
                         "floor (the product over the n positive groups alone) / NB at the longest feasible "
                         "code: " + floor,
                     "the rule's numbers": "where the floor alone exceeds the paper's ratio, no implementation of Eqs. 1-2 "
                                "on top of our NB can reach it: our NB is one pass over the stored counts "
                                "(O(nnz)), while the precalculation is O(n g k) over every attribute"})
    files += write_table(pd.DataFrame(rows), out / "cost_claims", index=False, caption=(
        "Claims on ECOC-NB's cost (EC04, EC05, EC08) with the numbers their verdicts (verdicts.md) are decided on: "
        "the median over the datasets of ECOC-NB's training time / NB's at each code length, ours (median fit CPU "
        "seconds over the 10 folds) beside the paper's (its seconds), its growth from the shortest to the longest "
        "code (EC04, EC05) and the median over every (dataset, code length) cell (EC08)"))
    return files


def build(ctx: ReportContext, out: Path) -> PaperResult:
    res = PaperResult(PAPER, experiments=ALL_EXPERIMENTS)
    res.files += _table1(ctx, out, res)
    for number in EXPERIMENTS:
        res.files += _time_table(ctx, number, out, res)
    res.files += _cost(ctx, out, res.facts)
    res.files += instances_table(ctx.experiment(INSTANCES_EXPERIMENT), out, res.facts)
    res.files += shared_pass_tables(ctx, out, res.facts)
    for name in ALL_EXPERIMENTS:
        ran = _protocols(ctx.experiment(name))
        if ran:
            res.facts.add_value(f"{name}_protocols", ran, f"{name}/summary_long.csv",
                                about="the protocols of the experiment's ok splits")
    res.facts.add_table("key_cells", key_cells(res.facts), f"{PAPER}/{KEY_FIGURE}",
                        about="every published number of Tables 1-4 beside ours, as the tables print them (the key "
                              "figure's points)")
    return res


def _protocols(exp) -> list[str]:
    """The protocols of the experiment's ok splits (the ``protocol`` column of its summary_long.csv)."""
    df = exp.all_records
    if df.empty:
        return []
    return sorted(set(df.loc[df["status"] == "ok", "protocol"].dropna().astype(str)))


#: the digits the tables print: Table 1's diversity, the ratios to NB, NB's seconds (paper, ours)
DIVERSITY_DIGITS, RATIO_DIGITS, PAPER_S_DIGITS, OURS_S_DIGITS = 4, 3, 2, 4


def key_cells(facts: Facts) -> pd.DataFrame:
    """The key figure's cells (:data:`bench.report.keyfig.CELLS`): Table 1's diversity, Tables 2-4's ratios to
    NB and NB's seconds (once per dataset), published beside ours as the tables print them; rows without a
    published number are left out."""
    parts = []
    t = facts.table("table1_diversity")
    if t is not None:
        parts.append(pd.DataFrame({"kind": "code diversity", "table": "Table 1",
                                   "published": printed(t["diversity_paper"], DIVERSITY_DIGITS),
                                   "ours": printed(t["diversity_ours"], DIVERSITY_DIGITS)}))
    for what in ("ratio", "nb_s"):
        for n in EXPERIMENTS:
            t = facts.table(f"table{n}_traintime_ratio")
            if t is None:
                continue
            if what == "ratio":
                part = pd.DataFrame({"kind": "training time / NB's", "table": f"Table {n}",
                                     "published": printed(t["ratio_paper"], RATIO_DIGITS),
                                     "ours": printed(t["ratio_ours"], RATIO_DIGITS)})
            else:
                part = pd.DataFrame({"dataset": t["dataset"], "kind": "NB training time (s)", "table": f"Table {n}",
                                     "published": printed(t["nb_s_paper"], PAPER_S_DIGITS),
                                     "ours": printed(t["nb_s_ours"], OURS_S_DIGITS)})
                part = part.drop_duplicates(["dataset", "published", "ours"]).drop(columns="dataset")
            parts.append(part)
    return gather(parts)


#: EC01/EC07: NB and 31-bit ECOC-NB trained on fbis at growing N (a scale-up run, one fit per N)
INSTANCES_EXPERIMENT = "ecocnb_instances"
INSTANCE_PAIRS = {"normal": ("nb_normal_text", "ecocnb_normal_b31"), "discretised": ("nb_disc_text", "ecocnb_disc_b31")}


def instances_table(exp, out: Path, facts: Facts | None = None) -> list[Path]:
    """instances_extra_time.{csv,md,tex}: per estimator and training size N, the training CPU seconds of
    NB and of 31-bit ECOC-NB (one fit of the first N rows of fbis, rows repeated past its 2463), the
    extra time ECOC-NB - NB, and NB's own time as a multiple of its time at the smallest N. Nothing is
    written when the experiment has no stored run."""
    recs = exp.records
    if recs.empty:
        return []
    ok = recs[recs["status"] == "ok"]
    rows = []
    for est, (nb, ecoc) in INSTANCE_PAIRS.items():
        t = ok[ok["algo"].isin([nb, ecoc])].pivot_table(index="n_train", columns="algo", values="times.fit_cpu_s")
        if nb not in t.columns or ecoc not in t.columns:
            continue
        t = t.dropna().sort_index()
        for n, r in t.iterrows():
            rows.append({"estimator": est, "N": int(n), "NB fit CPU s": round(float(r[nb]), 4),
                         "ECOC-NB fit CPU s": round(float(r[ecoc]), 4),
                         "extra s (ECOC-NB - NB)": round(float(r[ecoc] - r[nb]), 4),
                         "NB time / NB time at the smallest N": round(float(r[nb] / t[nb].iloc[0]), 2)})
    if not rows:
        return []
    if facts is not None:
        facts.add_table("instances_extra_time", pd.DataFrame(
            [{"estimator": r["estimator"], "N": r["N"], "nb_s": r["NB fit CPU s"], "ecoc_s": r["ECOC-NB fit CPU s"],
              "extra_s": r["extra s (ECOC-NB - NB)"], "nb_growth": r["NB time / NB time at the smallest N"]}
             for r in rows], columns=["estimator", "N", "nb_s", "ecoc_s", "extra_s", "nb_growth"], dtype=object),
            f"{PAPER}/instances_extra_time.csv",
            about="per estimator and training size N: NB's and 31-bit ECOC-NB's fit CPU seconds, the extra time "
                  "ECOC-NB - NB, and NB's time / its time at the smallest N, as the table gives them")
    return write_table(pd.DataFrame(rows), out / "instances_extra_time", index=False,
                       caption="EC01/EC07: training CPU seconds of NB and 31-bit BCH ECOC-NB on fbis against the "
                               "number of training instances N (experiment ecocnb_instances: one fit of the first N "
                               "rows, fbis's 2463 rows repeated in file order; times without data slicing and, for "
                               "the discretised pair, without the MDL discretisation)")


#: EC01/EC07 timed over one shared pass (ECOCNaiveBayes shared_pass_repeats): the experiments, by what varies
#: (SHARED_N_HELD: SHARED_N with the C heap keeping the memory it frees, the scale-up run EC07 reads when stored)
SHARED_CV, SHARED_N, SHARED_N_HELD = "ecocnb_shared_pass", "ecocnb_instances_shared", "ecocnb_instances_shared_held"
SHARED_ESTIMATOR = {"ecocnb_normal_b31_shared": "normal", "ecocnb_disc_b31_shared": "discretised"}
#: percentile bootstrap: resamples, confidence and seed shared with every timing verdict (bench.report.verdicts)
BOOT_RESAMPLES, BOOT_LEVEL, BOOT_SEED = VERDICT_BOOT_RESAMPLES, VERDICT_BOOT_LEVEL, VERDICT_BOOT_SEED


def _interval(samples: tuple, statistic) -> tuple[float, float]:
    """The percentile bootstrap interval of ``statistic`` over ``samples`` (one or more independent samples),
    resampled as :func:`bench.report.verdicts.timing.interval` resamples its ratios: each sample drawn with
    replacement from numpy's generator seeded :data:`BOOT_SEED`, :data:`BOOT_RESAMPLES` times, the
    interval the percentiles of level :data:`BOOT_LEVEL`. ``statistic`` takes one array per sample, the
    resamples along the last axis (``np.median(x, axis=-1)``). NaN when a sample has fewer than two values."""
    arrs = [np.asarray(x, dtype=float) for x in samples]
    if any(a.size < 2 for a in arrs):
        return float("nan"), float("nan")
    rng = np.random.default_rng(BOOT_SEED)
    draws = [a[rng.integers(0, a.size, size=(BOOT_RESAMPLES, a.size))] for a in arrs]
    stat = np.asarray(statistic(*draws), dtype=float)
    lo, hi = np.percentile(stat, [100 * (1 - BOOT_LEVEL) / 2, 100 * (1 + BOOT_LEVEL) / 2])
    return float(lo), float(hi)


def _median(x):
    return np.median(x, axis=-1)


def _shared_repeats(r) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A record's repeats: the shared pass, NB's model and ECOC-NB's model, CPU seconds."""
    return tuple(np.asarray(r[f"extra.{k}"], float) for k in ("shared_pass_cpu_s", "nb_model_cpu_s", "ecoc_model_cpu_s"))


def shared_pass_tables(ctx: ReportContext, out: Path, facts: Facts | None = None) -> list[Path]:
    """shared_pass_extra and shared_pass_growth (EC01, EC07): ECOC-NB's extra time over NB timed over one shared
    pass. Per split, NB's time is the pass + NB's model, ECOC-NB's the pass + its own model, each repeat timed
    in turn; the extra time and the ratio ECOC-NB / NB are the medians over the repeats. The 10-fold CV on fbis
    gives one row per estimator (medians over the folds, bootstrap intervals over the folds); the scale-up run
    one row per estimator and N (one fit each: intervals over the repeats), and per estimator the growth of the
    extra time from the smallest to the largest N (two-sample bootstrap over the repeats); the scale-up run
    once with the system's allocator (SHARED_N) and once with the C heap keeping what it frees (SHARED_N_HELD),
    each its own rows (column ``experiment``)."""
    rows, growth = [], []
    for exp_name, unit in ((SHARED_CV, "folds"), (SHARED_N, "repeats"), (SHARED_N_HELD, "repeats")):
        recs = ctx.experiment(exp_name).records
        if recs.empty or "extra.ecoc_model_cpu_s" not in recs:
            continue
        ok = recs[(recs["status"] == "ok") & recs["algo"].isin(list(SHARED_ESTIMATOR))]
        for algo, g in ok.groupby("algo", sort=False):
            est = SHARED_ESTIMATOR[algo]
            groups = [("all", g)] if unit == "folds" else list(g.groupby("n_train"))
            by_n = {}
            for key, h in groups:
                per = [_shared_repeats(r) for _, r in h.iterrows()]
                extra = [ec - nb for p, nb, ec in per]
                ratio = [(p + ec) / (p + nb) for p, nb, ec in per]
                if unit == "folds":   # one value per fold: its median over the repeats; intervals over the folds
                    x_extra, x_ratio = np.array([np.median(e) for e in extra]), np.array([np.median(q) for q in ratio])
                    nb_s = float(np.median([np.median(p + nb) for p, nb, _ in per]))
                else:                 # one fit: its repeats
                    x_extra, x_ratio = extra[0], ratio[0]
                    nb_s = float(np.median(per[0][0] + per[0][1]))
                    by_n[int(key)] = x_extra
                lo, hi = _interval((x_extra,), _median)
                rlo, rhi = _interval((x_ratio,), _median)
                rows.append({"experiment": exp_name, "estimator": est, "dataset": str(h["dataset"].iloc[0]),
                             "N": int(h["n_train"].median()), "splits": len(h), "repeats": len(per[0][0]),
                             "interval_over": unit, "nb_ms": round(1000 * nb_s, 3),
                             "extra_ms": round(1000 * float(np.median(x_extra)), 3),
                             "extra_lo_ms": round(1000 * lo, 3), "extra_hi_ms": round(1000 * hi, 3),
                             "ratio": round(float(np.median(x_ratio)), 4), "ratio_lo": round(rlo, 4),
                             "ratio_hi": round(rhi, 4)})
            if len(by_n) >= 2:
                a, b = by_n[min(by_n)], by_n[max(by_n)]
                glo, ghi = _interval((a, b), lambda x, y: _median(y) / _median(x))
                growth.append({"experiment": exp_name, "estimator": est, "N_min": min(by_n), "N_max": max(by_n),
                               "growth": round(float(np.median(b) / np.median(a)), 3), "growth_lo": round(glo, 3),
                               "growth_hi": round(ghi, 3)})
    if not rows:
        return []
    how = (f"{int(BOOT_LEVEL * 100)} % percentile bootstrap intervals ({BOOT_RESAMPLES} resamples, seed {BOOT_SEED})")
    t, files = pd.DataFrame(rows), []
    files += write_table(t, out / "shared_pass_extra", index=False, caption=(
        "EC01/EC07: ECOC-NB (31-bit BCH) against NB timed over one pass they share (process CPU time, repeats "
        "interleaved): nb_ms = the pass + NB's model, extra_ms = ECOC-NB's model (code draw, Eqs. 1-2) - NB's model, "
        "ratio = (pass + ECOC-NB's model) / (pass + NB's model); medians over the repeats of a fit, then over the "
        "folds (ecocnb_shared_pass, 10-fold CV) or per N (ecocnb_instances_shared; ecocnb_instances_shared_held: "
        f"the same with the C heap keeping the memory it frees), with {how} over the folds or the repeats"))
    if facts is not None:
        facts.add_table("shared_pass_extra", t, f"{PAPER}/shared_pass_extra.csv",
                        about="per experiment, estimator (and N): NB's time over the shared pass, ECOC-NB's extra "
                              f"time and the ratio ECOC-NB / NB, medians with {how}")
    if growth:
        gt = pd.DataFrame(growth)
        files += write_table(gt, out / "shared_pass_growth", index=False, caption=(
            "EC07: ECOC-NB's extra time over NB (shared pass) at the largest N over that at the smallest N "
            "(ecocnb_instances_shared and, with the C heap keeping the memory it frees, ecocnb_instances_shared_held; "
            f"fbis, 31-bit BCH), ratio of the medians over the repeats, {how}"))
        if facts is not None:
            facts.add_table("shared_pass_growth", gt, f"{PAPER}/shared_pass_growth.csv",
                            about=f"per experiment and estimator: the extra time at the largest N / at the smallest "
                                  f"N, with {how}")
    return files


def published_cells(missing: pd.DataFrame | None = None) -> int:
    """The cells :func:`build` fills or lists as missing: Table 1's datasets and every printed (non-blank)
    ECOC cell of Tables 2-4 (NB is the ratio's baseline): the "cells filled" of the index counts them.
    (``missing``, a built report's list, is not needed: the cells come from the published tables alone.)"""
    n = len(published.datasets(PAPER))
    for number in EXPERIMENTS:
        pub = published.values(PAPER, number)
        n += int(((pub["algorithm"] != "NB") & pub["value_num"].notna()).sum())
    return n

