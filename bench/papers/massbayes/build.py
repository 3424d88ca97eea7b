"""MassBayes paper (Aryal and Ting 2013): Tables 3-5 and Figs. 3-4 from stored runs, published numbers beside ours.

:func:`build` writes every table and figure into the paper's folder ``reports/massbayes/``, from the
experiments :data:`EXPERIMENTS`: ``massbayes_table3`` (Tables 3, 4 and 5 come from the same 10-fold CV
runs), ``massbayes_fig3`` (scale-up, written by :mod:`bench.scaleup`), ``massbayes_fig3_disc`` (the MDL
discretisation of all N rows at Fig. 3's sizes), ``massbayes_fig4_{psi,t,h}`` and ``massbayes_fig4_psi_synth``
(psi beyond CoverType's head, on the synthetic generator; each experiment's folder keeps only its generic summary)
and ``massbayes_bayesnet_weka`` (Table 5's BayesNet run by Weka itself, :mod:`.bayesnet_weka`). Every printed cell of Tables 3 and 5 without
our number, and every table or figure whose experiment is not stored, is listed as missing. The numbers
the claim checks read are recorded as facts (:mod:`bench.report.facts`, ``reports/massbayes/facts.json``):
the long tables of Tables 3 and 5, Table 4's W/L/D counts as integers, the Fig. 3 and Fig. 4 data, the
psi claims and the key figure's cells (``key_cells``), each with the CSV a reader sees them in.
The published numbers are ``bench/published/massbayes_table*.csv`` and the paper's rows of
``bench/published/claims.csv`` (copied from the paper extraction).

Self-contained on purpose (the two-standard-error test is a few lines here), so that it can later
move onto the shared statistics library.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from bench import published
from bench.stats.pairwise import two_se_outcome
from bench.stats.spread import standard_error
from bench.report.context import PaperResult, ReportContext
from bench.report.facts import Facts
from bench.report.figures import Caption, plt, save
from bench.report.keyfig import gather
from bench.report.labels import DISPLAY_NAMES, display_name
from bench.papers.massbayes import ALGOS, bayesnet_weka
from bench.report.tables import write_table
from bench.report.verdicts.timing import SPLIT_TIME_COLUMNS

PAPER = "massbayes"
#: the published numbers, stored once for every paper (bench/published/massbayes_table*.csv, claims.csv)
PUBLISHED = published.DIR

#: paper name -> our dataset names, in order of preference (the first one stored is used)
DATASETS = {"CoverType": ["covtype_numeric", "covtype_head20k_numeric"], "MiniBooNE": ["miniboone"],
            "OneBig": ["onebig"], "Shuttle": ["shuttle_notime", "shuttle"], "Wave": ["wave"], "RingCurve": ["ringcurve"],
            "Letters": ["letter"], "Magic04": ["magic"], "Mamograph": ["mammography"], "Pendigits": ["pendigits"]}
NOTES = {
    "covtype_head20k_numeric": "CoverType: only the first 20000 rows of covtype exist here "
                               "(covtype_head20k_numeric, 10 numeric attributes), not the 581012 of the paper",
    "miniboone": "MiniBooNE: the config loads the 130064 UCI rows; the paper used 129596",
    "shuttle_notime": "Shuttle: shuttle_notime, the mirror's 9 UCI attributes without the first (time), as Table 2's 8",
    "shuttle": "Shuttle: our copy has 9 attributes (UCI, with the time attribute); Table 2 lists 8",
}


def published(table: str) -> pd.DataFrame:
    return pd.read_csv(PUBLISHED / f"{PAPER}_{table}.csv", dtype={"value": str})


def paper_cells(choice: dict[str, str | None], table: str):
    """Every cell of the paper's data set x algorithm ``table`` (Tables 3 and 5), in the paper's
    order: ``(paper data set, our data set or None, paper algorithm, our algo, published value)``,
    the published value NaN for a blank or absent cell."""
    pub = published(table)
    for paper_ds, ours_ds in choice.items():
        for paper_algo, algo in ALGOS.items():
            p = pub[(pub["dataset"] == paper_ds) & (pub["algorithm"] == paper_algo)]["value"]
            pv = float(p.iloc[0]) if len(p) and isinstance(p.iloc[0], str) and p.iloc[0] else np.nan
            yield paper_ds, ours_ds, paper_algo, algo, pv


def _ok(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["status"] == "ok"].copy() if not df.empty else df


def dataset_choice(df: pd.DataFrame) -> dict[str, str | None]:
    """Paper dataset -> the dataset of ours whose runs are used (None: not stored)."""
    stored = set(df["dataset"]) if not df.empty else set()
    return {paper: next((d for d in ours if d in stored), None) for paper, ours in DATASETS.items()}


# ---------------------------------------------------------------- statistics
def fold_accuracy(df: pd.DataFrame, dataset: str, algo: str) -> pd.Series:
    """Accuracy (%) per fold of one (dataset, algorithm), indexed by (repeat, fold)."""
    g = df[(df["dataset"] == dataset) & (df["algo"] == algo)]
    return (100 * (1 - g.set_index(["repeat", "fold"])["metrics.error"].astype(float))).sort_index()


def fold_two_se(a: pd.Series, b: pd.Series) -> int:
    """+1 if a is significantly more accurate than b, -1 if less, 0 for a draw (also when fewer
    than two folds pair up): :func:`bench.stats.pairwise.two_se_outcome` (the paper's
    two-standard-error test, the standard error of the paired differences) on the per-fold
    accuracy differences, paired by (repeat, fold)."""
    d = (a - b).dropna()
    if d.size < 2:
        return 0
    return two_se_outcome(d.to_numpy(), np.zeros(d.size), lower_is_better=False)  # d - 0 is d exactly


def failed_note(df: pd.DataFrame, table: str) -> str:
    """The cells of the paper's ``table`` whose stored splits all failed here, with the first error's
    reason (its text up to the first ';'), for the table's caption: '' when there are none."""
    if df.empty:
        return ""
    notes = []
    for paper_ds, ours_ds, paper_algo, algo, _ in paper_cells(dataset_choice(df), table):
        g = df[(df["dataset"] == ours_ds) & (df["algo"] == algo)] if ours_ds else df.iloc[:0]
        bad = g[g["status"] == "failed"]
        if len(bad) and len(bad) == len(g):
            reason = str(bad["error"].iloc[0]).split(";")[0].strip()
            notes.append(f"{paper_algo} on {paper_ds}: {len(bad)} of {len(g)} splits failed here ({reason})")
    return ("Failed: " + "; ".join(notes) + ". ") if notes else ""


# ---------------------------------------------------------------- Tables 3-5
def _source(name: str) -> str:
    """The report file (relative to reports/) a fact named after a CSV ``name`` of the paper's folder is shown in."""
    return f"{PAPER}/{name}.csv"


def table3(df: pd.DataFrame, out: Path, facts: Facts | None = None) -> list[Path]:
    ok = _ok(df)
    choice = dataset_choice(ok)
    long_rows, cells = [], {}
    for paper_ds, ours_ds, paper_algo, algo, pv in paper_cells(choice, "table3_accuracy"):
        acc = fold_accuracy(ok, ours_ds, algo) if ours_ds else pd.Series(dtype=float)
        mean = acc.mean() if acc.size else np.nan
        se = standard_error(acc)  # NaN for a single fold
        long_rows.append({"dataset": paper_ds, "ours_dataset": ours_ds or "not available",
                          "algorithm": paper_algo, "folds": int(acc.size),
                          "ours": round(mean, 2) if acc.size else np.nan,
                          "ours_se": round(se, 2) if acc.size > 1 else np.nan,
                          "published": pv, "diff": round(mean - pv, 2) if acc.size and pv == pv else np.nan})
        ours_txt = f"{mean:.2f}" if acc.size else "-"
        pub_txt = f"{pv:.2f}" if pv == pv else "N/A"
        cells.setdefault(paper_ds, {})[paper_algo] = f"{ours_txt} ({pub_txt})"
    long = pd.DataFrame(long_rows)
    wide = pd.DataFrame(cells).T[list(ALGOS)]
    wide.index.name = "dataset"
    notes = [NOTES[d] for d in choice.values() if d in NOTES]
    missing = [k for k, v in choice.items() if v is None]
    cap = ("Table 3: mean 10-fold CV accuracy (%), ours (published). "
           + (f"Not run here: {', '.join(missing)}. " if missing else "") + "".join(f"{n}. " for n in notes)
           + failed_note(df, "table3_accuracy"))
    written = write_table(wide, out / "table3_accuracy", caption=cap)
    written += write_table(long, out / "table3_accuracy_long", index=False,
                           caption="Table 3, one row per cell: ours (mean and standard error over folds), "
                                   "published, ours - published (percentage points)")
    if facts is not None:
        facts.add_table("table3_accuracy_long", long, _source("table3_accuracy_long"),
                        "Table 3 by cell: mean 10-fold CV accuracy (%) and its standard error over the folds "
                        "(ours, NaN where not run), the published accuracy, ours - published; ours_dataset "
                        "'not available' where the paper's data set is not here")
    return written


def table4(df: pd.DataFrame, out: Path, facts: Facts | None = None) -> list[Path]:
    ok = _ok(df)
    pub = published("table4_wdl")
    choice = {k: v for k, v in dataset_choice(ok).items() if v}
    rows, counts = [], []
    for row_paper in ("MassBayes'", "MassBayes"):
        for col_paper, col in ALGOS.items():
            if col_paper in ("MassBayes'", "MassBayes"):
                continue
            w = lo = dr = 0
            for ds in choice.values():
                a, b = fold_accuracy(ok, ds, ALGOS[row_paper]), fold_accuracy(ok, ds, col)
                if not a.size or not b.size:
                    continue
                r = fold_two_se(a, b)
                w, lo, dr = w + (r > 0), lo + (r < 0), dr + (r == 0)
            p = pub[(pub["row_algorithm"] == row_paper) & (pub["col_algorithm"] == col_paper)]
            ptxt = f"{int(p['wins'].iloc[0])}:{int(p['losses'].iloc[0])}:{int(p['draws'].iloc[0])}" if len(p) else ""
            rows.append({"row": row_paper, "contender": col_paper,
                         "ours W:L:D": f"{w}:{lo}:{dr}" if w + lo + dr else "-", "datasets": w + lo + dr,
                         "published W:L:D": ptxt})
            pc = [int(p[k].iloc[0]) if len(p) else None for k in ("wins", "losses", "draws")]
            counts.append({"row": row_paper, "contender": col_paper, "wins": int(w), "losses": int(lo),
                           "draws": int(dr), "datasets": int(w + lo + dr), "published_wins": pc[0],
                           "published_losses": pc[1], "published_draws": pc[2]})
    t = pd.DataFrame(rows)
    if facts is not None:
        facts.add_table("table4_wdl", pd.DataFrame(counts), _source("table4_wdl"),
                        "Table 4: wins, losses and draws of the row algorithm against the contender over the "
                        "data sets run here (two-standard-error test on the paired fold accuracies; datasets = "
                        "their sum, 0: no data set with both), and the paper's counts (None: not printed)")
    return write_table(t, out / "table4_wdl", index=False,
                       caption="Table 4: wins:losses:draws of MassBayes' and MassBayes against each contender "
                               "over the data sets run here (two-standard-error test on the paired fold "
                               "accuracies); the paper's counts are over its 10 data sets")


def table5(df: pd.DataFrame, out: Path, facts: Facts | None = None) -> list[Path]:
    ok = _ok(df)
    rows, cells = [], {}
    for paper_ds, ours_ds, paper_algo, algo, pv in paper_cells(dataset_choice(ok), "table5_runtime"):
        g = ok[(ok["dataset"] == ours_ds) & (ok["algo"] == algo)] if ours_ds else ok.iloc[:0]
        if len(g):
            run = float((g["times.fit_cpu_s"].astype(float) + g["times.predict_cpu_s"].astype(float)).sum())
            disc = float((g["times.preprocess_fit_cpu_s"].astype(float)
                          + g["times.preprocess_predict_cpu_s"].astype(float)).sum())
        else:
            run = disc = np.nan
        rows.append({"dataset": paper_ds, "ours_dataset": ours_ds or "not available", "algorithm": paper_algo,
                     "folds": len(g), "ours_s": round(run, 3) if run == run else np.nan,
                     "discretisation_s": round(disc, 3) if disc == disc else np.nan, "published_s": pv,
                     "published/ours": round(pv / run, 1) if run == run and pv == pv and run > 0 else np.nan})
        cells.setdefault(paper_ds, {})[paper_algo] = (
            (f"{run:.2f}" + (f" +{disc:.2f}" if disc == disc and disc >= 0.005 else "") if run == run else "-")
            + f" ({pv:g})" if pv == pv else (f"{run:.2f}" if run == run else "-") + " (N/A)")
    wide = pd.DataFrame(cells).T[list(ALGOS)]
    wide.index.name = "dataset"
    cap = ("Table 5: runtime over the 10 folds (process CPU seconds, training + testing), ours (published, Java "
           "on a 2.27 GHz machine). '+x' is the discretisation (preprocessing) time, which the paper's AnDE, "
           "BayesNet and NB-Disc figures leave out. " + failed_note(df, "table5_runtime")).strip()
    written = write_table(wide, out / "table5_runtime", caption=cap)
    long = pd.DataFrame(rows)
    written += write_table(long, out / "table5_runtime_long", index=False,
                           caption="Table 5, one row per cell: ours_s excludes preprocessing; discretisation_s is "
                                   "the preprocessing (MDL discretisation) time over the folds")
    if facts is not None:
        facts.add_table("table5_runtime_long", long, _source("table5_runtime_long"),
                        "Table 5 by cell: process CPU seconds over the 10 folds, training + testing without "
                        "preprocessing (ours_s, NaN where not run), the MDL discretisation apart "
                        "(discretisation_s), the published seconds and published / ours")
    return written


#: the paper's synthetic sets (Table 2; the 48-d one of Fig. 3), drawn once beside Table 3
SYNTHETIC = ("ringcurve", "wave", "ringcurve_wave_trigaussian")


def synthetic_plots(out: Path) -> list[Path]:
    """Scatter plots of the reconstructed synthetic sets (first 7000 rows), to check that they look
    like a ring, a curve and a wave (bench/data/synthetic_massbayes.py has the definitions)."""
    from bench.data import load
    from bench.data.plot import dataset_figure

    files = []
    for name in SYNTHETIC:
        ds = load(name)
        fig, n = dataset_figure(ds, max_rows=7000)
        cap = Caption(f"the reconstructed synthetic dataset {name} (Table 2 of the paper): its first {n} of "
                      f"{ds.n_instances} rows, numeric attributes two by two, one colour per class, to check that "
                      f"it looks like the paper's ring, curve and wave",
                      data=f"{name} (bench/data/synthetic_massbayes.py)",
                      protocol="none (the data, not a learner)", scale="independent of the scale")
        files += save(fig, out / f"synthetic_{name}", cap)
    return files


def report_table3(df: pd.DataFrame, plan: dict, out: Path, facts: Facts | None = None) -> list[Path]:
    return table3(df, out, facts) + table4(df, out, facts) + table5(df, out, facts) + synthetic_plots(out)


# ---------------------------------------------------------------- Fig. 3
def report_fig3(df: pd.DataFrame, plan: dict, out: Path, facts: Facts | None = None) -> list[Path]:
    ok = _ok(df)
    if ok.empty:
        return []
    n_records = len(ok)
    ok["train_s"] = ok["times.fit_cpu_s"].astype(float)
    ok["n"] = ok["n_train"].astype(int)
    if "extra.build_cpu_s" in ok:  # MassBayes: also its tree growing alone, without the sampling pass
        trees = ok[ok["extra.build_cpu_s"].notna()].copy()
        trees["algo"] = trees["algo"] + " (trees only)"
        trees["train_s"] = trees["extra.build_cpu_s"].astype(float)
        ok = pd.concat([ok, trees], ignore_index=True)
    base_n = int(ok["n"].min())
    rows = []
    for algo, g in ok.groupby("algo"):
        g = g.sort_values("n")
        if base_n not in set(g["n"]):
            continue
        b = g[g["n"] == base_n].iloc[0]
        for _, r in g.iterrows():
            rows.append({"algo": algo, "N": int(r["n"]), "size_ratio": r["n"] / base_n,
                         "train_cpu_s": round(r["train_s"], 4),
                         "time_ratio": round(r["train_s"] / b["train_s"], 3) if b["train_s"] > 0 else np.nan,
                         "model_bytes": int(r["model_bytes"]),
                         "memory_ratio": round(r["model_bytes"] / b["model_bytes"], 3),
                         "preprocess_cpu_s": round(float(r.get("times.preprocess_fit_cpu_s") or 0), 4),
                         "error": round(float(r["metrics.error"]), 4)})
    t = pd.DataFrame(rows)
    shown = {a: display_name(a, DISPLAY_NAMES["massbayes"]) for a in t["algo"].unique()} if len(t) else {}
    written = write_table(t, out / "fig3_scaleup", index=False, labels=shown,
                          caption=f"Fig. 3 data: training CPU seconds (without data generation and, for "
                                  f"discretising learners, without the discretisation fitted on the first chunk) "
                                  f"and pickled model size, as ratios to N = {base_n}")
    if facts is not None:
        facts.add_table("fig3_scaleup", t, _source("fig3_scaleup"),
                        f"Fig. 3 data by (algorithm config, training size N): training CPU seconds, pickled "
                        f"model bytes, their ratios to N = {base_n}, the preprocessing CPU seconds and the error; "
                        f"'<algo> (trees only)': MassBayes' tree growing without its sampling pass")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, col, title in ((axes[0], "time_ratio", "training time ratio"), (axes[1], "memory_ratio", "model size ratio")):
        for algo, g in t.groupby("algo"):
            ax.plot(g["size_ratio"], g[col], marker="o", label=shown.get(algo, algo))
        xs = np.array([1, t["size_ratio"].max()])
        ax.plot(xs, xs, color="grey", ls=":", label="linear")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"training size ratio (base N = {base_n})")
        ax.set_ylabel(title)
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize=8)
    fig.suptitle("Scale-up on RingCurve-Wave-TriGaussian (48-d), cf. MassBayes Fig. 3")
    fig.tight_layout()
    cap = Caption.of_plan(f"Fig. 3: training time (left) and pickled model size (right) of each learner as a ratio to "
                          f"its value at N = {base_n}, against the training size ratio, log-log; the dotted line is "
                          f"linear growth. '(trees only)': MassBayes' tree growing without its sampling pass",
                          plan, n_records, data="RingCurve-Wave-TriGaussian (48-d), growing training sizes")
    written += save(fig, out / "fig3_scaleup", cap)
    return written


def report_fig3_disc(df: pd.DataFrame, plan: dict, out: Path, facts: Facts | None = None) -> list[Path]:
    """The discretisation of all N rows (``preprocess_rows: all``): its CPU and wall seconds against N."""
    ok = _ok(df)
    if ok.empty:
        return []
    ok = ok.assign(N=ok["n_train"].astype(int)).sort_values("N")
    t = pd.DataFrame({"algo": ok["algo"], "N": ok["N"],
                      "discretisation_cpu_s": ok["times.preprocess_fit_cpu_s"].astype(float).round(4),
                      "discretisation_wall_s": ok["times.preprocess_fit_wall_s"].astype(float).round(4)})
    t["time_ratio"] = (t["discretisation_cpu_s"] / t["discretisation_cpu_s"].iloc[0]).round(3)
    t["size_ratio"] = t["N"] / t["N"].iloc[0]
    cap = (f"Fig. 3's discretisation: CPU and wall seconds of the MDL discretiser fitted on, and applied to, all N "
           f"rows of RingCurve-Wave-TriGaussian (48-d), and the CPU time as a ratio to N = {t['N'].iloc[0]}")
    written = write_table(t, out / "fig3_discretisation", index=False, caption=cap)
    if facts is not None:
        facts.add_table("fig3_discretisation", t, _source("fig3_discretisation"),
                        "MDL discretisation of all N rows by (algorithm config, N): CPU and wall seconds, the CPU "
                        "seconds' ratio to the smallest N and N's")
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    ax.plot(t["size_ratio"], t["time_ratio"], marker="o", label="MDL discretisation (CPU)")
    xs = np.array([1, t["size_ratio"].max()])
    ax.plot(xs, xs, color="grey", ls=":", label="linear")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"training size ratio (base N = {t['N'].iloc[0]})")
    ax.set_ylabel("discretisation time ratio")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    written += save(fig, out / "fig3_discretisation",
                    Caption.of_plan(cap + ", log-log; the dotted line is linear growth", plan, len(ok),
                                    data="RingCurve-Wave-TriGaussian (48-d), growing training sizes"))
    return written


# ---------------------------------------------------------------- Fig. 4
def _param(df: pd.DataFrame, key: str) -> pd.Series:
    defaults = {"psi": 5000, "t": 100, "h": 10}

    def get(cfg):
        v = (cfg or {}).get("estimator", {}).get(key, defaults[key])
        return v

    return df["algo_config"].map(get)


def _plain_param(v):
    """A swept parameter's value as a plain number when it is one (psi is kept as text in the table)."""
    return int(v) if isinstance(v, str) and v.isdigit() else v


def report_fig4(param: str, base: int, claims: bool = True):
    """Fig. 4's table and figure of ``param``; ``claims``: psi's figure shows the paper's CoverType accuracies
    and the psi claims' table is written (not for data other than CoverType)."""
    def report(df: pd.DataFrame, plan: dict, out: Path, facts: Facts | None = None) -> list[Path]:
        ok = _ok(df)
        if ok.empty:
            return []
        ok["value"] = _param(ok, param)
        ok["runtime"] = ok["times.train_cpu_s"].astype(float) + ok["times.test_cpu_s"].astype(float)
        written = []
        for ds, g in ok.groupby("dataset"):
            n_train = int(g["n_train"].max())
            rows = []
            for v, h in g.groupby("value"):
                acc = 100 * (1 - h["metrics.error"].astype(float))
                rows.append({"dataset": ds, param: v, "folds": len(h), "accuracy": round(acc.mean(), 2),
                             "accuracy_se": round(standard_error(acc), 2) if len(h) > 1 else np.nan,
                             "runtime_s": round(h["runtime"].sum(), 3)})
            t = pd.DataFrame(rows)
            if param == "psi":
                t["psi_used"] = [min(int(v), n_train) if str(v) != "N" else n_train for v in t[param]]
                t[param] = t[param].astype(str)
            t = t.sort_values("psi_used" if param == "psi" else param, key=lambda s: pd.to_numeric(s, errors="coerce"))
            x = t["psi_used"] if param == "psi" else t[param]
            b = t[x == base]["runtime_s"]
            t["runtime_ratio"] = (t["runtime_s"] / float(b.iloc[0])).round(3) if len(b) else np.nan
            note = f"{NOTES[ds]}." if ds in NOTES else ""
            if param == "psi" and n_train < 50000:
                note += f" With {n_train} training instances per fold, psi >= {n_train} means psi = N."
            written += write_table(t, out / f"fig4_{param}_{ds}", index=False,
                                   caption=f"Fig. 4 data ({ds}): accuracy (%) and total 10-fold runtime as {param} "
                                           f"varies, the others at their defaults; runtime ratio to {param} = {base}. "
                                           + note)
            if facts is not None:   # per split on the same folds: MB14's runtime ratios, MB13's slope intervals
                st = g.assign(algorithm=[f"{param}={v}" for v in g["value"]], seconds=g["runtime"].astype(float))
                st = st[SPLIT_TIME_COLUMNS].sort_values(["algorithm", "seed", "repeat", "fold"]).reset_index(drop=True)
                facts.add_table(f"fig4_{param}_{ds}_split_times", st,
                                f"evidence/{plan.get('experiment', 'massbayes_fig4_' + param)}.records.parquet",
                                f"training + testing CPU seconds per split on {ds} by {param} (the per-split "
                                f"runtime ratios on the same folds)")
            if facts is not None:
                facts.add_table(f"fig4_{param}_{ds}", t.assign(**{param: [_plain_param(v) for v in t[param]]}),
                                _source(f"fig4_{param}_{ds}"),
                                f"Fig. 4 data on {ds} by {param}: folds, mean accuracy (%) and its standard error "
                                f"over the folds, total runtime (s) over the folds and its ratio to {param} = {base}"
                                + ("; psi_used: the psi a fold could draw (at most its training size)"
                                   if param == "psi" else ""))
            fig, axes = plt.subplots(1, 2, figsize=(10, 4))
            axes[0].errorbar(x, t["accuracy"], yerr=t["accuracy_se"], marker="o")
            axes[0].set_ylabel("accuracy (%)")
            axes[1].plot(x, t["runtime_ratio"], marker="o")
            axes[1].set_ylabel(f"runtime ratio (base {param} = {base})")
            for ax in axes:
                ax.set_xlabel(param + (" (as used)" if param == "psi" else ""))
                ax.grid(alpha=0.3, which="both")
                if param in ("t", "psi"):
                    ax.set_xscale("log")
            if param == "t":
                axes[1].set_yscale("log")
            if param == "psi" and claims:
                for v, pv, _ in published_psi_accuracies():
                    axes[0].scatter([v], [pv], marker="x", color="red", zorder=3)
                axes[0].scatter([], [], marker="x", color="red", label="published (full CoverType)")
                axes[0].legend(fontsize=8)
            fig.suptitle(f"MassBayes on {ds}: effect of {param} (cf. Fig. 4)")
            fig.tight_layout()
            cap = Caption.of_plan(
                f"Fig. 4: MassBayes on {ds} as {param} varies, the other parameters at their defaults: accuracy (%, "
                f"left; mean over the folds with bars of one standard error) and total runtime as a ratio to "
                f"{param} = {base} (right)" + ("; red crosses: the paper's accuracies on the full CoverType at psi = "
                                               "5000, 20000, 50000" if param == "psi" and claims else ""),
                plan, len(g), data=ds, notes=note.strip())
            written += save(fig, out / f"fig4_{param}_{ds}", cap)
            if param == "psi" and claims:
                written += psi_claims(t, ds, out, facts)
        return written

    return report


#: the published MassBayes accuracies on CoverType at several psi: claim ids of the running text
PSI_CLAIMS = ("MB01", "MB02")


def _psi_of(text: str) -> int:
    m = re.search(r"psi\s*=\s*(\d+)", str(text))
    if not m:
        raise ValueError(f"no psi = <number> in {text!r}")
    return int(m.group(1))


def published_psi_accuracies() -> list[tuple[int, float, str]]:
    """(psi, accuracy %, source) of the paper's MassBayes on CoverType: Table 3's cell (its psi in the
    cell's notes) and the running text's claims MB01, MB02 (their psi in the claim's conditions), read
    from bench/published/ (massbayes_table3_accuracy.csv, claims.csv), in increasing psi."""
    t3 = published("table3_accuracy")
    cell = t3[(t3["dataset"] == "CoverType") & (t3["algorithm"] == "MassBayes")].iloc[0]
    out = [(_psi_of(cell["notes"]), float(cell["value"]), "Table 3")]
    claims = pd.read_csv(PUBLISHED / "claims.csv", dtype=str, keep_default_na=False)
    for cid in PSI_CLAIMS:
        c = claims[claims["claim_id"] == cid].iloc[0]
        out.append((_psi_of(c["conditions"]), float(c["value"]), cid))
    return sorted(out)


def psi_claims(t: pd.DataFrame, ds: str, out: Path, facts: Facts | None = None) -> list[Path]:
    """The text's accuracies at psi = 20000 and 50000 (claims MB01, MB02) and Table 3's 5000."""
    rows = []
    for psi, pv, src in published_psi_accuracies():
        r = t[t["psi"] == str(psi)]
        ours = float(r["accuracy"].iloc[0]) if len(r) else np.nan
        used = int(r["psi_used"].iloc[0]) if len(r) else None
        rows.append({"psi": psi, "psi_used": used, "ours": ours, "published": pv, "source": src,
                     "diff": round(ours - pv, 2) if ours == ours else np.nan})
    table = pd.DataFrame(rows)
    if facts is not None:
        facts.add_table(f"psi_claims_{ds}", table, _source(f"psi_claims_{ds}"),
                        f"MassBayes accuracy (%) on {ds} at the psi of the paper's CoverType figures (Table 3's "
                        f"cell, claims MB01, MB02): psi, the psi used (None: not run), ours, published, its source")
    return write_table(table, out / f"psi_claims_{ds}", index=False,
                       caption=f"MassBayes accuracy (%) on {ds} at psi = 5000, 20000, 50000 against the paper's "
                               f"CoverType figures. {NOTES[ds] + '.' if ds in NOTES else ''}")


# ---------------------------------------------------------------- the paper's build
#: experiment -> (the paper's item it makes, the function writing its tables and figures into the paper's
#: folder: fn(records, plan, out, facts) -> [paths]), in the order they are built
EXPERIMENTS = {"massbayes_fig3": ("Fig. 3", report_fig3),
               "massbayes_fig3_disc": ("Fig. 3 (discretisation of all N rows)", report_fig3_disc),
               "massbayes_fig4_h": ("Fig. 4 (h)", report_fig4("h", 1)),
               "massbayes_fig4_psi": ("Fig. 4 (psi) and the psi claims", report_fig4("psi", 500)),
               "massbayes_fig4_psi_synth": ("Fig. 4 (psi) beyond 18000, synthetic data",
                                            report_fig4("psi", 500, claims=False)),
               "massbayes_fig4_t": ("Fig. 4 (t)", report_fig4("t", 10)),
               "massbayes_table3": ("Table 4", report_table3),
               # after massbayes_table3: beside Table 5's facts
               bayesnet_weka.EXPERIMENT: ("Table 5's BayesNet run by Weka itself", bayesnet_weka.report)}
#: the printed tables whose cells the index counts: (fact table, the paper's table, ours column, published
#: column, published table, the key figure's measure)
PRINTED = (("table3_accuracy_long", "Table 3", "ours", "published", "table3_accuracy", "accuracy (%)"),
           ("table5_runtime_long", "Table 5", "ours_s", "published_s", "table5_runtime", "runtime (s)"))


def build(ctx: ReportContext, out: Path) -> PaperResult:
    """Every table and figure of the paper into ``out`` (``reports/massbayes/``) from the stored experiments
    (each experiment's records as stored, every config), the missing cells and items with their reasons, and
    the facts (:mod:`bench.report.facts`) the claim checks and the key figure read."""
    res = PaperResult(PAPER, experiments=sorted(EXPERIMENTS))
    experiment_of = {}
    for name, (item, report) in EXPERIMENTS.items():
        view = ctx.experiment(name)
        df = view.all_records
        before = set(res.facts.tables)
        files = report(df, view.plan, out, res.facts) if not df.empty else []
        res.files += files
        experiment_of.update({t: name for t in res.facts.tables if t not in before})
        if not files:
            res.add_missing(item, "", "", _experiment_reason(view))
    _missing_printed_cells(ctx.experiment("massbayes_table3"), res)
    keys = key_cells(res.facts)
    if keys is not None:
        res.facts.add_table("key_cells", *keys, about="the key figure's cells: every printed number of Tables "
                                                      "3, 5 (published not None) and Table 4 (win share W/(W+L)), "
                                                      "ours beside it (None: no number of ours)")
    if experiment_of:
        res.facts.add_value("experiment_of", experiment_of, "massbayes/facts.json",
                            "fact table -> the experiment whose records it comes from (its plan: "
                            "reports/evidence/<experiment>.plan.json)")
    return res


def _experiment_reason(view) -> str:
    """Why an experiment of the paper gave no table or figure."""
    if not view.defined and view.all_records.empty:
        return f"experiment not defined yet: no conf/experiment/{view.name}.yaml"
    if view.all_records.empty:
        return f"not run yet: no stored records of experiment {view.name}"
    return f"run failed: no split of experiment {view.name} finished"


def _missing_printed_cells(view, res: PaperResult) -> None:
    """A missing row for every printed cell of Tables 3 and 5 without our number, with its reason."""
    for name, item, ours_col, pub_col, pub_table, _ in PRINTED:
        t = res.facts.table(name)
        have = {} if t is None else {(r["dataset"], r["algorithm"]): (r["ours_dataset"], r[ours_col])
                                     for r in t.to_dict("records")}
        for paper_ds, _, paper_algo, algo, pv in paper_cells({d: None for d in DATASETS}, pub_table):
            if pv != pv:
                continue
            ours_ds, ours = have.get((paper_ds, paper_algo), (None, None))
            if ours is not None and ours == ours:
                continue
            ds = ours_ds if ours_ds and ours_ds != "not available" else DATASETS[paper_ds][0]
            why = view.reason(ds, algo) or f"run failed: no split of {algo} on {ds} finished"
            res.add_missing(item, paper_ds, paper_algo, why)


def key_cells(facts: Facts) -> tuple[pd.DataFrame, str] | None:
    """The key figure's cells (columns kind, table, published, ours; rows with a published number), in the
    order of :data:`bench.report.keyfig.CELLS`, from the facts of Tables 3, 5 and 4, and their sources
    (';'-joined); None when none of those tables was built."""
    frames, sources = [], []
    for name, item, ours_col, pub_col, _, kind in PRINTED:
        t = facts.table(name)
        if t is not None:
            frames.append(pd.DataFrame({"kind": kind, "table": item, "published": t[pub_col].astype(float),
                                        "ours": t[ours_col].astype(float)}))
            sources.append(facts.source(name))
    w = facts.table("table4_wdl")
    if w is not None:
        def share(wins, losses):
            ok = wins is not None and losses is not None and wins == wins and losses == losses and wins + losses
            return wins / (wins + losses) if ok else np.nan

        frames.append(pd.DataFrame({
            "kind": "win share", "table": "Table 4",
            "published": [share(a, b) for a, b in zip(w["published_wins"], w["published_losses"])],
            "ours": [share(a, b) for a, b in zip(w["wins"], w["losses"])]}, columns=["kind", "table", "published", "ours"]))
        sources.append(facts.source("table4_wdl"))
    return (gather(frames), ";".join(sources)) if frames else None


def published_cells(missing: pd.DataFrame | None = None) -> int:
    """The printed (non-blank) cells of Tables 3 and 5, which :func:`build` fills or lists as missing: the
    index's "cells filled" counts them. (``missing``, a built report's list, is not needed.)"""
    return sum(1 for *_, pub_table, _ in PRINTED
               for *_, pv in paper_cells({d: None for d in DATASETS}, pub_table) if pv == pv)

