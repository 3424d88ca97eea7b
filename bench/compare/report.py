"""Writing a comparison: ``README.md`` (the summary at the top, then every table and the figures),
``index.html`` (the same page as static HTML), each table as Markdown, LaTeX and CSV under
``tables/``, the critical-difference diagrams under ``figures/`` (PNG, PDF and caption), the
per-split values under ``splits.csv`` and the plan under ``comparison.json``.

The folder is written into a temporary sibling and swapped in whole, so an interrupted build
keeps the earlier report; nothing outside it is written.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..report import page as P
from .analysis import MEASURES, TIMES, Comparison, geometric_mean, summary

#: the papers and methods behind each instrument, for the "How to cite" section
CITATIONS = [
    ("win/draw/loss with the two-tailed binomial sign test (p < 0.05)",
     "Zaidi, N. A. and Webb, G. I. (2013). Fast and effective single pass Bayesian learning. PAKDD"),
    ("win/draw/loss with the one-tailed binomial sign test (p <= 0.05)",
     "Zhang, H., Petitjean, F. and Buntine, W. (2020). Bayesian network classifiers using ensembles and "
     "smoothing. Knowledge and Information Systems 62"),
    ("Friedman test, Iman-Davenport F, Nemenyi critical difference and its diagram, Wilcoxon signed-rank "
     "over datasets", "Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. "
     "JMLR 7:1-30"),
    ("Holm's step-down correction", "Holm, S. (1979). A simple sequentially rejective multiple test procedure. "
     "Scandinavian Journal of Statistics 6:65-70"),
    ("bias and variance of 0-1 loss", "Kohavi, R. and Wolpert, D. H. (1996). Bias plus variance decomposition "
     "for zero-one loss functions. ICML; estimated by repeated cross-validation as in Webb, G. I. (2000). "
     "MultiBoosting. Machine Learning 40:159-196"),
]


def _f(v, digits: int = 4) -> str:
    from ..report.compare import fmt

    return fmt(v, digits)


def _p(v) -> str:
    from ..report.compare import fmt_p

    return fmt_p(v)


def _md(df: pd.DataFrame, index: bool = False):
    """``df`` as a table block of the page (:func:`bench.report.tables.table_block`)."""
    from ..report.tables import table_block

    return table_block(df, index=index)


def _table(df: pd.DataFrame, stem: Path, caption: str, index: bool = False) -> list[Path]:
    from ..report.tables import write_table

    return write_table(df, stem, caption=caption, index=index)


def mean_se_table(c: Comparison, measure: str) -> pd.DataFrame:
    """datasets x algorithms, cells ``mean ± s.e.`` (complete datasets first, then the others)."""
    m, s = c.means[measure], c.ses[measure]
    rows = []
    for d in list(c.datasets) + sorted(set(m.index) - set(c.datasets)):
        row = {"dataset": d + ("" if d in c.datasets else " (incomplete)")}
        for a in c.algos:
            v = m.loc[d, a] if (d in m.index and a in m.columns) else np.nan
            e = s.loc[d, a] if (d in s.index and a in s.columns) else np.nan
            row[a] = "" if pd.isna(v) else (f"{_f(v)} ± {_f(e)}" if np.isfinite(e) else _f(v))
        rows.append(row)
    if c.datasets:
        row = {"dataset": f"mean over the {len(c.datasets)} datasets"}
        for a in c.algos:
            row[a] = _f(m.loc[c.datasets, a].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def wdl_display(df: pd.DataFrame) -> pd.DataFrame:
    out = pd.DataFrame({
        "algorithm": df["algorithm"], "against": df["against"], "measure": df["measure"],
        "W/D/L": [f"{w}/{d}/{l_}" for w, d, l_ in zip(df["wins"], df["draws"], df["losses"])],
        "p one-tailed": [_p(p) for p in df["p_one_tailed"]],
        "p two-tailed": [_p(p) for p in df["p_two_tailed"]],
        "significant": [", ".join(t for t, s in (("one-tailed", s1), ("two-tailed", s2)) if s) or ""
                        for s1, s2 in zip(df["significant_one_tailed"], df["significant_two_tailed"])]})
    return out


def wdl_matrix(pairs: pd.DataFrame, algos: list[str]) -> pd.DataFrame:
    """Row algorithm's W/D/L against the column algorithm; bold when the two-tailed sign test is
    significant."""
    out = pd.DataFrame("", index=algos, columns=algos)
    for r in pairs.itertuples():
        cell = f"{r.wins}/{r.draws}/{r.losses}"
        out.loc[r.algorithm, r.against] = f"**{cell}**" if r.significant_two_tailed else cell
    for a in algos:
        out.loc[a, a] = "-"
    out.index.name = "row vs column"
    return out


def _write_cd(c: Comparison, measure: str, figdir: Path, plan, n_records: int) -> tuple[list[Path], object]:
    """The Nemenyi CD diagram of ``measure`` (always, when there are ranks), with the Friedman
    p-value in its title and caption; the page block that shows it."""
    from ..report.compare import fmt_p
    from ..report.figures import Caption, cd_diagram

    fr = c.friedman.get(measure)
    label = MEASURES[measure]
    if fr is None:
        return [], P.Para(f"No rank analysis of {label}: ranks need at least two datasets with a run of every "
                          f"algorithm ({len(c.datasets)} here).")
    verdict = "rejects" if fr["rejects"] else "does not reject"
    ptext = (f"Friedman chi2_F = {fr['chi2']:.3f} ({fmt_p(fr['p_chi2'], True)}); Iman-Davenport F_F = {fr['f']:.3f}, "
             f"df {fr['df']} ({fmt_p(fr['p_f'], True)}): {verdict} equal performance at alpha = {fr['alpha']}")
    what = (f"Demsar's critical-difference diagram of the mean ranks by {label} of {fr['n_algos']} algorithms over "
            f"{fr['n_datasets']} datasets (rank 1 = best, on the left); thick bars join algorithms the Nemenyi test "
            f"does not tell apart at alpha = {fr['alpha']} (CD = {fr['cd']:.3f}). {ptext}. Drawn whether or not the "
            f"Friedman test rejects: when it does not, the bars are no evidence of a difference.")
    cap = Caption(what, data=f"{fr['n_datasets']} datasets with a complete run of every algorithm",
                  protocol=plan.protocol, scale=plan.scale or "", records=n_records)
    stem = figdir / f"cd_{measure}"
    files = cd_diagram(fr["ranks"], fr["cd"], fr["n_datasets"], stem,
                       title=f"{label}: Friedman {fmt_p(fr['p_f'], True)} (Iman-Davenport)", cliques=fr["cliques"],
                       caption=cap)
    return files, P.Figure(f"figures/cd_{measure}.png", f"critical-difference diagram, {label}", what)


def write(c: Comparison, plan, out: Path, records: pd.DataFrame, run_info: dict,
          folds: pd.DataFrame | None = None, fold_problems: dict | None = None) -> list[Path]:
    """Write the report of ``c`` into ``out`` (replacing it whole); return the files."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    try:
        _write_into(c, plan, tmp, records, run_info, folds, fold_problems or {})
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        if old.exists():
            shutil.rmtree(old)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return sorted(p for p in out.rglob("*") if p.is_file())


def _write_into(c: Comparison, plan, root: Path, records: pd.DataFrame, run_info: dict,
                folds: pd.DataFrame | None, fold_problems: dict) -> None:
    from ..provenance import provenance

    tables, figs = root / "tables", root / "figures"
    prov = provenance()
    n_rec = int((records["status"] == "ok").sum()) if not records.empty else 0
    md: list = [P.Heading(1, f"Comparison: {plan.name}"), P.Para(summary(c))]
    # the first screen shows the first measure's critical-difference diagram (when there are ranks)
    first = next(iter(MEASURES))
    _, lead = _write_cd(c, first, figs, plan, n_rec)
    if isinstance(lead, P.Figure):
        md.append(lead)
    src = (f"{run_info.get('computed', 0)} splits computed and {run_info.get('reused', 0)} reused from the results "
           f"directory")
    if plan.against:
        n_ev = int((records["source"] != "run").sum()) if "source" in records else 0
        src = P.inlines(src, f"; {n_ev} baseline splits read from the shipped evidence of ", P.Code(plan.against))
    facts = [P.Item((f"algorithms: {', '.join(plan.algos)}; baseline ", P.strong(plan.baseline))),
             P.Item(f"datasets: {len(c.datasets)} with a complete run of every algorithm"
                    + (f" ({', '.join(c.datasets)})" if len(c.datasets) <= 20 else "")),
             P.Item(f"protocol: {plan.protocol}, seeds {', '.join(map(str, plan.seeds))}"
                    + (f", {c.rounds} rounds of cross-validation" if c.rounds > 1 else "")),
             P.Item((f"records: {n_rec} successful splits (", src, ")"))]
    if c.incomplete:
        facts.append(P.Item("left out of the tests (no complete run of every algorithm): "
                            + "; ".join(f"{d} (missing {', '.join(a)})" for d, a in sorted(c.incomplete.items()))))
    if plan.missing:
        facts.append(P.Item("not available here: " + "; ".join(f"{d}: {w}" for d, w in plan.missing.items())))
    if fold_problems:
        facts.append(P.Item("left out, not on the evidence's folds: "
                            + "; ".join(f"{d}: {w}" for d, w in fold_problems.items())))
    facts.append(P.Item(f"Generated {time.strftime('%Y-%m-%d %H:%M:%S')} on {prov.get('host')} at commit "
                        f"{prov.get('git_commit') or 'unknown'}"))
    md.append(P.Bullets(facts))

    # ------------------------------------------------------------ means
    md += [P.Heading(2, "Error, RMSE and log-loss per dataset"),
           P.Para("Mean over the splits ± its standard error (over the splits; cross-validation splits are not "
                  "independent, so it understates the uncertainty: a guide, not a test). Lower is better for all three.")]
    for m, label in MEASURES.items():
        t = mean_se_table(c, m)
        _table(t, tables / f"{m}_per_dataset", f"{label}: mean ± standard error over the splits", index=False)
        raw = []
        for d in c.means[m].index:
            for a in c.algos:
                raw.append({"dataset": d, "algorithm": a, "mean": c.means[m].loc[d, a],
                            "se": c.ses[m].loc[d, a] if a in c.ses[m].columns else np.nan,
                            "n_splits": int(c.n_splits.loc[d, a]) if d in c.n_splits.index else 0})
        pd.DataFrame(raw).to_csv(tables / f"{m}_per_dataset_values.csv", index=False)
        md += [P.Heading(3, label), _md(t),
               P.Para(("Files: ", P.Code(f"tables/{m}_per_dataset.csv"), " (cells as shown), ",
                       P.Code(f"tables/{m}_per_dataset_values.csv"), " (numbers), ", P.Code(".tex"), ", ",
                       P.Code(".md"), "."))]

    # ------------------------------------------------------------ W/D/L
    vb = wdl_display(c.vs_baseline) if not c.vs_baseline.empty else pd.DataFrame()
    md += [P.Heading(2, "Win/draw/loss against the baseline"),
           P.Para(f"For each algorithm, the datasets on which its mean is lower (win), equal (draw) or higher (loss) "
                  f"than the baseline {plan.baseline}'s, with the binomial sign test on wins against losses (draws left "
                  f"out): one-tailed in the direction of the majority (significant when p <= 0.05, as the ESKDB paper) "
                  f"and two-tailed (p < 0.05, as the A2DE paper).")]
    if not vb.empty:
        _table(c.vs_baseline, tables / "wdl_vs_baseline", f"W/D/L against {plan.baseline}", index=False)
        md.append(_md(vb))
    md += [P.Heading(2, "Win/draw/loss of every pair"),
           P.Para(("Row algorithm against column algorithm; ", P.strong("bold"), ": the two-tailed sign test is "
                   "significant (p < 0.05). The long tables give both p-values."))]
    for m, label in MEASURES.items():
        pairs = c.pairs[m]
        if pairs.empty:
            continue
        mat = wdl_matrix(pairs, c.algos)
        _table(mat, tables / f"wdl_matrix_{m}", f"W/D/L matrix, {label} (row vs column)", index=True)
        _table(pairs, tables / f"wdl_pairs_{m}", f"W/D/L of every pair, {label}", index=False)
        md += [P.Heading(3, label), _md(mat, index=True)]

    # ------------------------------------------------------------ ranks
    md += [P.Heading(2, "Ranks: Friedman, Iman-Davenport and Nemenyi"),
           P.Para("Mean rank of each algorithm over the datasets (1 = best; ties share the mean rank). The Friedman "
                  "test asks whether the ranks differ more than chance allows; Iman-Davenport's F is its less "
                  "conservative form (Demsar 2006). Nemenyi's critical difference (CD) is the least difference of mean "
                  "ranks it calls significant. The diagram is always drawn; its caption gives the Friedman p-value.")]
    n_ok = n_rec
    for m, label in MEASURES.items():
        fr = c.friedman.get(m)
        if fr is not None:
            order = sorted(fr["ranks"], key=fr["ranks"].get)
            groups = {a: [] for a in order}
            for gi, g in enumerate(fr["cliques"]):
                for i in g:
                    groups[list(fr["ranks"])[i]].append(chr(ord("a") + gi))
            rt = pd.DataFrame({"algorithm": order, "mean rank": [f"{fr['ranks'][a]:.3f}" for a in order],
                               "Nemenyi groups (not told apart)": [",".join(groups[a]) for a in order]})
            _table(rt, tables / f"ranks_{m}", f"mean ranks by {label}", index=False)
            md += [P.Heading(3, label), _md(rt)]
        if m == first and isinstance(lead, P.Figure):
            md.append(P.Para(f"The diagram of {label} is at the top of the page."))
            continue
        _, fig = _write_cd(c, m, figs, plan, n_ok)
        md.append(fig)

    # ------------------------------------------------------------ Wilcoxon
    md += [P.Heading(2, "Wilcoxon signed-rank tests against the baseline"),
           P.Para(f"Each algorithm's per-dataset means against {plan.baseline}'s (two-sided; zero differences split "
                  f"between the signs, as Demsar recommends), with Holm's step-down correction over the "
                  f"{len(c.algos) - 1} tests of each measure.")]
    if not c.wilcoxon.empty:
        w = c.wilcoxon
        shown = pd.DataFrame({"algorithm": w["algorithm"], "measure": w["measure"], "datasets": w["n"],
                              "median difference (algorithm - baseline)": [_f(v) for v in w.get("median difference", pd.Series(np.nan, index=w.index))],
                              "T": [_f(v, 1) for v in w["T"]], "p": [_p(v) for v in w["p"]],
                              "p (Holm)": [_p(v) for v in w["p_holm"]],
                              "significant (Holm, 0.05)": ["yes" if s else "" for s in w["significant_holm"]]})
        _table(w, tables / "wilcoxon_vs_baseline", f"Wilcoxon signed-rank against {plan.baseline}, Holm-corrected",
               index=False)
        md.append(_md(shown))

    # ------------------------------------------------------------ bias / variance
    md.append(P.Heading(2, "Bias and variance (Kohavi-Wolpert)"))
    if c.biasvar is None:
        md.append(P.Para(f"Not computed: the protocol {plan.protocol} with seeds {plan.seeds} gives each test instance "
                         f"a single prediction ({c.rounds} round of cross-validation); the decomposition needs at least "
                         f"two rounds (a repeated protocol such as cv5x2, or several seeds)."))
    elif c.biasvar.empty:
        md.append(P.Para("Not computed: no algorithm's predictions could be decomposed."))
    else:
        bv = c.biasvar
        tab = bv.pivot_table(index="dataset", columns="algo", values=["bias", "variance"])
        rows = []
        for d in tab.index:
            row = {"dataset": d}
            for a in c.algos:
                b = tab.get(("bias", a), pd.Series(dtype=float)).get(d, np.nan)
                v = tab.get(("variance", a), pd.Series(dtype=float)).get(d, np.nan)
                row[a] = "" if pd.isna(b) else f"{_f(b)} / {_f(v)}"
            rows.append(row)
        shown = pd.DataFrame(rows)
        _table(bv, tables / "bias_variance", "Kohavi-Wolpert bias and variance of 0-1 loss", index=False)
        md += [P.Para(f"Bias / variance of the 0-1 loss per dataset ({c.rounds} rounds; noise folded into bias, so "
                      f"bias + variance is the mean error of the repeated cross-validation). W/D/L on bias and variance "
                      f"against the baseline are in the table above."), _md(shown)]

    # ------------------------------------------------------------ times
    md += [P.Heading(2, "Training and test time, as ratios to the baseline"),
           P.Para(f"Mean CPU seconds per split, divided by {plan.baseline}'s on the same dataset; the summary is the "
                  f"geometric mean of the ratios over the datasets (and their range).")]
    hosts = sorted(records["host"].dropna().astype(str).unique()) if "host" in records else []
    if plan.against and len(hosts) > 1:
        md.append(P.Para(f"The baselines' times were measured where the evidence was made and yours here (hosts: "
                         f"{', '.join(hosts)}): the ratios compare machines as well as algorithms."))
    rows = []
    for t, label in TIMES.items():
        r = c.time_ratios.get(t)
        if r is None or r.empty:
            continue
        for a in c.algos:
            vals = r[a].to_numpy(dtype=float)
            fin = vals[np.isfinite(vals)]
            rows.append({"measure": label, "algorithm": a, "geometric mean ratio": _f(geometric_mean(vals), 3),
                         "min": _f(fin.min(), 3) if fin.size else "", "max": _f(fin.max(), 3) if fin.size else "",
                         "mean seconds": _f(np.nanmean(c.times[t][a].to_numpy(dtype=float)), 5)})
        per = r.copy()
        per.index.name = "dataset"
        _table(per.map(lambda v: _f(v, 3)), tables / f"{t}_ratio", f"{label} / {plan.baseline}'s", index=True)
    if rows:
        tt = pd.DataFrame(rows)
        _table(tt, tables / "time_ratios", f"times as ratios to {plan.baseline}", index=False)
        md.append(_md(tt))

    # ------------------------------------------------------------ folds
    if folds is not None:
        md += [P.Heading(2, f"Same folds as the shipped evidence of {plan.against}"),
               P.Para("Splits depend only on the labels, the protocol and the seed, so two runs share their folds when "
                      "they share the data identity (the file's SHA-256 and every transform), the protocol identity "
                      "(kind, folds, repeats, splitting scheme) and the seed; every split's training and test sizes "
                      "were compared too.")]
        _table(folds, tables / "fold_check", "fold check against the evidence", index=False)
        md.append(_md(folds))

    md += [P.Heading(2, "What the parts mean and how to cite them"), P.Bullets([
        P.Item("A win/draw/loss record counts datasets, not splits: it asks whether one algorithm is better on more "
               "datasets than chance allows, whatever the size of the differences. The Wilcoxon test also weighs the "
               "sizes of the differences (by rank). Neither says how large a difference is: read the mean tables."),
        P.Item("A test that does not reject is not evidence that the algorithms are equal, only that these datasets "
               "do not show a consistent difference."),
        *[P.Item(f"{what}: {ref}.") for what, ref in CITATIONS],
        P.Item(("bench computes every test with ", P.Code("bench.stats"), " (sign tests with scipy's binomtest; "
                "Friedman, Nemenyi and Wilcoxon as Demsar describes them). Cite the method papers above and the "
                "version of bench (its commit is on the Generated line)."))])]
    md += [P.Heading(2, "Files"), P.Bullets([
        P.Item((P.Code("tables/"), ": every table as Markdown, LaTeX (", P.Code(".tex"), ") and CSV")),
        P.Item((P.Code("figures/"), ": the critical-difference diagrams (PNG, PDF, caption)")),
        P.Item((P.Code("splits.csv"), ": every split's values behind the tables")),
        P.Item((P.Code("comparison.json"), ": what was compared, and the command's counts"))])]

    root.mkdir(parents=True, exist_ok=True)
    cols = [c_ for c_ in ("dataset", "algo", "seed", "repeat", "fold", "status", "metrics.error", "metrics.rmse",
                          "metrics.log_loss", "times.train_cpu_s", "times.test_cpu_s", "n_train", "n_test",
                          "algo_hash", "data_key", "protocol_key", "source") if c_ in records.columns]
    records[cols].sort_values(["dataset", "algo", "seed", "repeat", "fold"]).to_csv(root / "splits.csv", index=False)
    (root / "comparison.json").write_text(json.dumps({**plan.as_dict(), **run_info,
                                                      "datasets_compared": c.datasets,
                                                      "incomplete": c.incomplete,
                                                      "fold_problems": fold_problems}, indent=1, default=str) + "\n")
    readme = root / "README.md"
    page = P.Page(md)
    readme.write_text(P.to_markdown(page))
    from ..report.html import page_html

    (root / "index.html").write_text(page_html(page, readme, {readme.resolve(): (root / "index.html").resolve()}))
