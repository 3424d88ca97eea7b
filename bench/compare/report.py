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
    ("Hochberg's step-up correction", "Hochberg, Y. (1988). A sharper Bonferroni procedure for multiple tests of "
     "significance. Biometrika 75:800-802"),
    ("comparisons with a control by the Friedman z statistics (Bonferroni-Dunn, Holm, Hochberg) and the "
     "Bonferroni-Dunn diagram", "Demsar (2006), Sec. 3.2.2 and Fig. 2; Dunn, O. J. (1961). Multiple comparisons "
     "among means. Journal of the American Statistical Association 56:52-64"),
    ("Wilcoxon's signed-rank test, with Demsar's rule for zero differences and exact permutation p-values",
     "Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1:80-83; Demsar (2006), "
     "Sec. 3.1.3"),
    ("Conover's post-hoc test after Friedman's", "Conover, W. J. (1999). Practical Nonparametric Statistics, "
     "3rd ed., Wiley, Sec. 5.8; computed by scikit-posthocs: Terpilowski, M. (2019). scikit-posthocs: pairwise "
     "multiple comparison tests in Python. Journal of Open Source Software 4(36):1169"),
    ("Bayesian signed-rank test with a region of practical equivalence, and the posterior simplex",
     "Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. and Ruggeri, F. (2014). A Bayesian Wilcoxon signed-rank "
     "test based on the Dirichlet process. ICML; Benavoli, A., Corani, G., Demsar, J. and Zaffalon, M. (2017). "
     "Time for a change: a tutorial for comparing multiple classifiers through Bayesian analysis. JMLR 18(77):1-36"),
    ("Bayesian correlated t-test on one dataset's splits", "Corani, G. and Benavoli, A. (2015). A Bayesian "
     "approach for comparing cross-validated algorithms on multiple data sets. Machine Learning 100:285-304; "
     "checked against baycomp (Benavoli et al. 2017)"),
    ("Bayesian hierarchical model over datasets from every split", "Corani, G., Benavoli, A., Demsar, J., Mangili, "
     "F. and Zaffalon, M. (2017). Statistical comparison of classifiers through Bayesian hierarchical modelling. "
     "Machine Learning 106:1817-1837; the model as baycomp's HierarchicalTest states it, sampled by bench's own "
     "Gibbs sampler (baycomp's needs Stan)"),
    ("the corrected resampled t-test per dataset (Weka Experimenter's v / * marks)",
     "Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52:239-281; "
     "Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability of significance tests for comparing "
     "learning algorithms. PAKDD"),
    ("Cliff's delta and its magnitude labels", "Cliff, N. (1993). Dominance statistics: ordinal analyses to answer "
     "ordinal questions. Psychological Bulletin 114:494-509; Romano, J. et al. (2006). Appropriate statistics for "
     "ordinal level data. Annual meeting of the Florida Association of Institutional Research; labelled as in "
     "Herbold, S. (2020). Autorank: a Python package for automated ranking of classifiers. JOSS 5(48):2173; "
     "bootstrap interval: Efron, B. (1987). Better bootstrap confidence intervals. JASA 82:171-185"),
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


def _three(r: pd.DataFrame, algorithms, prefix: str) -> list[str]:
    """Each algorithm's three posterior probabilities (``<prefix>_algorithm``, ``_rope``, ``_baseline`` of its
    row in ``r``) as "a / r / b" to three decimals; blank for an algorithm with no row."""
    return [" / ".join(f"{r.loc[a, f'{prefix}_{k}']:.3f}" for k in ("algorithm", "rope", "baseline"))
            if a in r.index else "" for a in algorithms]


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
        "p two-tailed (Holm)": [_p(p) for p in df.get("p_two_tailed_holm", pd.Series(np.nan, index=df.index))],
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


def _control_blocks(c: Comparison, measure: str, figdir: Path, tables: Path, plan, n_records: int) -> list:
    """Every algorithm against the baseline by the Friedman z statistics (Bonferroni-Dunn, Holm,
    Hochberg; Demsar 2006 Sec. 3.2.2), and the Bonferroni-Dunn diagram, beside Nemenyi's."""
    from ..report.compare import fmt_p
    from ..report.figures import Caption
    from ..stats.posthoc import bonferroni_dunn_cd
    from .figures import control_cd_diagram

    fr, ctl = c.friedman.get(measure), c.control.get(measure)
    if fr is None or ctl is None or ctl.empty:
        return []
    label = MEASURES[measure]
    cd = bonferroni_dunn_cd(fr["n_algos"], fr["n_datasets"], fr["alpha"])
    what = (f"Bonferroni-Dunn diagram of the mean ranks by {label} against the baseline {c.baseline} "
            f"(Demsar 2006, Fig. 2): the red bar spans one critical difference (CD = {cd:.3f}, alpha = {fr['alpha']}, "
            f"{fr['n_algos'] - 1} comparisons) on each side of {c.baseline}'s mean rank; an algorithm outside it "
            f"(in bold) differs significantly from the baseline. Comparing with one control makes k - 1 tests "
            f"instead of Nemenyi's k (k - 1) / 2, so its CD is smaller. Friedman {fmt_p(fr['p_f'], True)} "
            f"(Iman-Davenport).")
    cap = Caption(what, data=f"{fr['n_datasets']} datasets with a complete run of every algorithm",
                  protocol=plan.protocol, scale=plan.scale or "", records=n_records)
    control_cd_diagram(fr["ranks"], cd, c.baseline, fr["n_datasets"], figdir / f"cd_control_{measure}", cap,
                       title=f"{label}: Friedman {fmt_p(fr['p_f'], True)} (Iman-Davenport)")
    _table(ctl, tables / f"control_{measure}", f"{label}: Friedman z tests against {c.baseline}", index=False)
    shown = pd.DataFrame({"algorithm": ctl["algorithm"], "mean rank": [f"{v:.3f}" for v in ctl["rank"]],
                          "z": [_f(v, 3) for v in ctl["z"]], "p": [_p(v) for v in ctl["p"]],
                          "Bonferroni-Dunn": [_p(v) + (" *" if s else "") for v, s in
                                              zip(ctl["p_bonferroni_dunn"], ctl["rejects_bonferroni_dunn"])],
                          "Holm": [_p(v) + (" *" if s else "") for v, s in zip(ctl["p_holm"], ctl["rejects_holm"])],
                          "Hochberg": [_p(v) + (" *" if s else "") for v, s in
                                       zip(ctl["p_hochberg"], ctl["rejects_hochberg"])]})
    return [P.Figure(f"figures/cd_control_{measure}.png", f"Bonferroni-Dunn diagram against {c.baseline}, {label}",
                     what),
            P.Para(f"Against {c.baseline} by the Friedman z statistic z = (R_i - R_{c.baseline}) / sqrt(k (k+1) / (6 N)), "
                   f"two-sided normal p-values adjusted over the {fr['n_algos'] - 1} comparisons (* : adjusted p <= "
                   f"{fr['alpha']}):"),
            _md(shown)]


def _probs(v) -> str:
    return "" if v is None or not np.isfinite(v) else f"{v:.3f}"


def rope_text(c: Comparison) -> str:
    """The ROPEs of ``c``'s Bayesian tests per measure: "error 0.01, RMSE 0.01, log-loss 0.01"."""
    return ", ".join(f"{'error' if m == 'error' else MEASURES.get(m, m)} {'/'.join(f'{r:g}' for r in rs)}"
                     for m, rs in (c.measure_ropes or {"error": c.ropes}).items())


def _beyond_blocks(c: Comparison, plan, tables: Path, figs: Path, n_records: int) -> list:
    """The Bayesian tests, effect sizes, per-dataset significance and post-hoc tests."""
    from ..report.figures import Caption
    from ..stats.bayes import DECISION, NSAMPLES, PRIOR, default_rope
    from .figures import simplex

    md: list = []
    base = plan.baseline
    # ------------------------------------------------------------ Bayesian signed-rank
    md += [P.Heading(2, "Bayesian signed-rank test against the baseline"),
           P.Para(f"Instead of a p-value, the posterior probabilities that each algorithm is better than {base} by "
                  f"more than a region of practical equivalence (ROPE), that the two are practically equivalent "
                  f"(the difference of their per-dataset means lies within the ROPE), and that {base} is better "
                  f"(Benavoli et al. 2017; Dirichlet process prior {PRIOR} at zero difference, {NSAMPLES} draws, seed 0). "
                  f"The ROPE is in each measure's units ({rope_text(c)} here). Without --rope each measure takes its "
                  f"default, fixed in advance: {default_rope('error'):g} of error (one point of error, as Benavoli et "
                  f"al. use on accuracy), {default_rope('rmse'):g} of RMSE (one point of probability), "
                  f"{default_rope('log_loss'):g} nats of log-loss (a 1% change of the probability given to the true "
                  f"class); --rope sets it for every measure. A probability above {DECISION} is a decision; below, "
                  f"the datasets do not decide at this ROPE.")]
    if c.bayes is not None and not c.bayes.empty:
        b = c.bayes
        _table(b, tables / "bayes_signed_rank", f"Bayesian signed-rank against {base}", index=False)
        be = b[b["measure"] == "error"]
        shown = pd.DataFrame({"algorithm": list(dict.fromkeys(be["algorithm"]))})
        for rope in c.ropes:
            r = be[be["rope"] == rope].set_index("algorithm")
            shown[f"ROPE {rope:g}: P(better) / P(equivalent) / P({base} better)"] = _three(r, shown["algorithm"], "p")
            shown[f"ROPE {rope:g}: decided"] = [
                "" if a not in r.index or not r.loc[a, "decision"] else
                ("equivalent" if r.loc[a, "decision"] == "equivalent" else f"{r.loc[a, 'decision']} better")
                for a in shown["algorithm"]]
        md.append(P.Para(("On error, over ", str(int(be["n"].max())) if len(be) else "0", " datasets (every measure in ",
                          P.Code("tables/bayes_signed_rank.csv"), "):")))
        md.append(_md(shown))
        for rope in c.ropes:
            be = b[(b["measure"] == "error") & (b["rope"] == rope)]
            panels = [(r.algorithm, c.bayes_samples.get((r.algorithm, rope)), (r.p_algorithm, r.p_rope, r.p_baseline))
                      for r in be.itertuples()]
            if not panels:
                continue
            stem = f"simplex_error_rope{rope:g}".replace(".", "_")
            what = (f"Posterior of the Bayesian signed-rank test on error against {base}, ROPE {rope:g}: each point is "
                    f"one draw of (P(algorithm better), P(equivalent), P({base} better)) in the triangle whose corners "
                    f"are the three outcomes; the dashed lines split it into the regions where each outcome is the "
                    f"most probable, and the numbers at the corners are the shares of draws in each region.")
            cap = Caption(what, data=f"{len(c.datasets)} datasets with a complete run of every algorithm",
                          protocol=plan.protocol, scale=plan.scale or "", records=n_records)
            simplex(panels, base, rope, figs / stem, cap)
            md.append(P.Figure(f"figures/{stem}.png", f"posterior simplex, error, ROPE {rope:g}", what))
    else:
        md.append(P.Para("Not computed: the Bayesian signed-rank test needs at least two datasets with a run of every "
                         "algorithm."))
    # ------------------------------------------------------------ Bayesian hierarchical model
    md += [P.Heading(2, "Bayesian hierarchical model against the baseline"),
           P.Para((f"The model of Corani, Benavoli, Demšar, Mangili and Zaffalon (2017) on every split's error, not only "
                  f"the datasets' means: each dataset's splits are correlated (rho = n_test / n_total), each dataset "
                  f"has its own mean difference, and those come from a Student t whose location delta0, scale and "
                  f"degrees of freedom are estimated. Its answer is about the next dataset: the probabilities that "
                  f"on it the algorithm is better than {base} by more than the ROPE, practically equivalent, or "
                  f"worse, as the shares of posterior draws in which each is the most probable (as for the "
                  f"signed-rank test), and as the posterior predictive probabilities. A probability above "
                  f"{DECISION} is a decision. Every number is in ", P.Code("tables/bayes_hierarchical.csv"),
                  "; delta0 is the algorithm's error minus the baseline's."))]
    hb = c.hierarchical
    if hb is not None and not hb.empty:
        _table(hb, tables / "bayes_hierarchical", f"Bayesian hierarchical model against {base}, error", index=False)
        shown = pd.DataFrame({"algorithm": list(dict.fromkeys(hb["algorithm"]))})
        first = hb.drop_duplicates("algorithm").set_index("algorithm")
        shown["delta0 (mean)"] = [f"{first.loc[a, 'delta0 (algorithm - baseline)']:+.4f}" for a in shown["algorithm"]]
        for rope in c.ropes:
            r = hb[hb["rope"] == rope].set_index("algorithm")
            shown[f"ROPE {rope:g}: P(better) / P(equivalent) / P({base} better)"] = _three(r, shown["algorithm"], "p")
            shown[f"ROPE {rope:g}: predictive"] = _three(r, shown["algorithm"], "predictive")
        md.append(P.Para(("On error, over ", str(int(hb["n"].max())), " datasets (", hb["method"].iloc[0], "):")))
        md.append(_md(shown))
    else:
        md.append(P.Para("Not computed: the model needs at least two datasets with paired splits of every algorithm, "
                         "their training and test sizes recorded, and some spread of the differences within them."))
    # ------------------------------------------------------------ Bayesian correlated t per dataset
    md += [P.Heading(2, "Bayesian correlated t-test on each dataset"),
           P.Para((f"On each dataset, the error of each algorithm against {base}'s over the paired splits, by the "
                   f"Bayesian correlated t-test (Corani and Benavoli 2015): its posterior of the mean difference is "
                   f"Student's t with the Nadeau-Bengio correlation rho = n_test / n_total of the splits. Counted "
                   f"below: the datasets on which a probability exceeds {DECISION}; every dataset's probabilities are "
                   f"in ", P.Code("tables/bayes_per_dataset.csv"), "."))]
    bd = c.bayes_datasets
    if bd is not None and not bd.empty:
        _table(bd, tables / "bayes_per_dataset", f"Bayesian correlated t-test per dataset, error, against {base}",
               index=False)
        shown = pd.DataFrame({"algorithm": list(dict.fromkeys(bd["algorithm"]))})
        shown["datasets"] = [int((bd["algorithm"] == a).sum() // max(1, len(c.ropes))) for a in shown["algorithm"]]
        for rope in c.ropes:
            col = []
            for a in shown["algorithm"]:
                g = bd[(bd["algorithm"] == a) & (bd["rope"] == rope)]
                col.append(f"{int((g['decision'] == a).sum())} / {int((g['decision'] == 'equivalent').sum())} / "
                           f"{int((g['decision'] == base).sum())} / {int((g['decision'] == '').sum())}")
            shown[f"ROPE {rope:g}: better / equivalent / {base} better / undecided"] = col
        md.append(_md(shown))
    else:
        md.append(P.Para("Not computed: the test needs at least two paired splits per dataset, with their training "
                         "and test sizes recorded."))
    # ------------------------------------------------------------ effect sizes
    md += [P.Heading(2, "Effect sizes"),
           P.Para(f"Cliff's delta of each algorithm's per-dataset means against {base}'s: the probability that a "
                  f"dataset mean of the algorithm is better than one of {base}'s minus the reverse (> 0: the algorithm "
                  f"better; -1 to 1), with the magnitude labels of Romano et al. (2006) as autorank gives them "
                  f"(|delta| < 0.147 negligible, < 0.33 small, < 0.474 medium, else large) and a 95% BCa bootstrap "
                  f"interval over the datasets. It compares the two sets of per-dataset values, so the spread between "
                  f"easy and hard datasets keeps it small even when one algorithm wins on most datasets: read it with "
                  f"the paired tests above.")]
    if c.effects is not None and not c.effects.empty:
        e = c.effects
        _table(e, tables / "effect_sizes", f"Cliff's delta against {base}", index=False)
        shown = pd.DataFrame({"algorithm": list(dict.fromkeys(e["algorithm"]))})
        for m, label in MEASURES.items():
            r = e[e["measure"] == m].set_index("algorithm")
            shown[f"{label}: delta [95% interval], magnitude"] = [
                "" if a not in r.index else
                f"{_f(r.loc[a, 'cliffs_delta'], 3)} "
                + ("" if not np.isfinite(r.loc[a, "ci_low"]) else f"[{r.loc[a, 'ci_low']:.3f}, {r.loc[a, 'ci_high']:.3f}] ")
                + r.loc[a, "magnitude"] for a in shown["algorithm"]]
        md.append(_md(shown))
    # ------------------------------------------------------------ Weka per dataset
    md += [P.Heading(2, "Per-dataset significance (as Weka's Experimenter)"),
           P.Para(f"On each dataset, the corrected resampled t-test (Nadeau and Bengio 2003, Weka's "
                  f"PairedCorrectedTTester) of each algorithm's split values against {base}'s, two-sided at 0.05, with "
                  f"n_test / n_train from the splits. v: significantly better than {base} (lower error), *: "
                  f"significantly worse (Weka marks accuracy, where higher is better; here the marks say better and "
                  f"worse). The last row counts (v/ /*). Raw W/D/L counts every difference; this counts only the "
                  f"significant ones.")]
    wk = c.weka.get("error")
    if wk is not None and not wk.empty:
        for m, t in c.weka.items():
            if not t.empty:
                _table(t, tables / f"weka_{m}", f"corrected resampled t-test per dataset against {base}, {MEASURES[m]}",
                       index=False)
        mean_b = wk.groupby("dataset")["baseline mean"].first()
        grid = pd.DataFrame(index=list(mean_b.index))
        grid[base] = [_f(v) for v in mean_b]
        for a in [x for x in c.algos if x != base]:
            sub = wk[wk["algorithm"] == a].set_index("dataset")
            grid[a] = [(_f(sub.loc[d, "mean"]) + (f" {sub.loc[d, 'mark']}" if sub.loc[d, "mark"] else ""))
                       if d in sub.index else "" for d in grid.index]
        counts = {base: ""}
        for a in [x for x in c.algos if x != base]:
            sub = wk[wk["algorithm"] == a]
            counts[a] = (f"({int((sub['mark'] == 'v').sum())}/{int((sub['mark'] == '').sum())}/"
                         f"{int((sub['mark'] == '*').sum())})")
        grid.loc["(v/ /*)"] = pd.Series(counts)
        grid.index.name = "dataset"
        _table(grid, tables / "weka_error_marks", f"error per dataset with significance marks against {base}", index=True)
        md.append(_md(grid, index=True))
        md.append(P.Para("Significant wins/draws/losses of every pair on error (row against column, counted over the "
                         "datasets by the same test):"))
        for m, prs in c.weka_pairs.items():
            if prs.empty:
                continue
            mat = pd.DataFrame("", index=c.algos, columns=c.algos)
            for r in prs.itertuples():
                mat.loc[r.algorithm, r.against] = f"{r.wins}/{r.draws}/{r.losses}"
            for a in c.algos:
                mat.loc[a, a] = "-"
            mat.index.name = "row vs column"
            _table(mat, tables / f"weka_matrix_{m}", f"significant W/D/L (corrected resampled t), {MEASURES[m]}",
                   index=True)
            if m == "error":
                md.append(_md(mat, index=True))
    else:
        md.append(P.Para("Not computed: the test needs at least two paired splits per dataset, with their training "
                         "and test sizes recorded."))
    # ------------------------------------------------------------ post-hoc of every pair
    md += [P.Heading(2, "Post-hoc tests of every pair"),
           P.Para("Two tests stronger than Nemenyi's for every pair of algorithms on error, each Holm-adjusted over "
                  "the k (k-1) / 2 pairs (significant when the adjusted p <= 0.05): Conover's test after Friedman's "
                  "(on the ranks within the datasets, computed by scikit-posthocs), and Wilcoxon's signed-rank test of "
                  "each pair over the datasets (Demsar's zero rule, exact where the approximation is poor). Every "
                  "measure's matrices are under tables/.")]
    for m in MEASURES:
        cm = c.conover.get(m)
        wp = c.wilcoxon_pairs.get(m)
        if cm is None or wp is None:
            continue
        from ..stats.posthoc import pair_matrix

        wm = pair_matrix(wp, c.algos)
        _table(cm.rename_axis("algorithm"), tables / f"conover_holm_{m}", f"Conover p (Holm), {MEASURES[m]}",
               index=True)
        _table(wp, tables / f"wilcoxon_pairs_{m}", f"Wilcoxon of every pair (Holm), {MEASURES[m]}", index=False)
        if m != "error":
            continue

        def cell(v):
            return "-" if not np.isfinite(v) else (f"**{_p(v)}**" if v <= 0.05 else _p(v))

        cm = cm.mask(np.eye(len(cm), dtype=bool))      # the diagonal is no test
        md += [P.Heading(3, "Conover-Friedman, Holm-adjusted p (bold: <= 0.05)"),
               _md(cm.map(cell).rename_axis("algorithm"), index=True),
               P.Heading(3, "Wilcoxon signed-rank of every pair, Holm-adjusted p (bold: <= 0.05)"),
               _md(wm.map(cell).rename_axis("algorithm"), index=True)]
    return md


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
    from ..stats.bayes import DECISION
    from .analysis import BAYES_LEAD, bayes_sentences

    md: list = [P.Heading(1, f"Comparison: {plan.name}"), P.Para(summary(c, bayes=False))]
    # the first screen shows the first measure's critical-difference diagram (when there are ranks)
    first = next(iter(MEASURES))
    _, lead = _write_cd(c, first, figs, plan, n_rec)
    if isinstance(lead, P.Figure):
        md.append(lead)
    if bayes_sentences(c):
        md += [P.Para(BAYES_LEAD.format(decision=DECISION, baseline=c.baseline)),
               P.Bullets([P.Item(t) for t in bayes_sentences(c)])]
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
                  f"and two-tailed (p < 0.05, as the A2DE paper). With several algorithms, the two-tailed p-values "
                  f"are also given Holm-adjusted over the comparisons with the baseline of each measure (bias and "
                  f"variance, when shown, are further rows: the error rows' adjustment counts the error rows only).")]
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
        md += _control_blocks(c, m, figs, tables, plan, n_ok)

    # ------------------------------------------------------------ Wilcoxon
    md += [P.Heading(2, "Wilcoxon signed-rank tests against the baseline"),
           P.Para(f"Each algorithm's per-dataset means against {plan.baseline}'s (two-sided; zero differences split "
                  f"between the signs and, when their number is odd, one ignored, as Demsar recommends), with Holm's "
                  f"step-down correction over the {len(c.algos) - 1} tests of each measure (significant when the "
                  f"adjusted p <= 0.05, Holm's rule). The method column says how each p-value was computed: exact "
                  f"(the rank-sum distribution, without ties or zeros, up to 50 datasets), an exact permutation "
                  f"p-value over every sign flip (with ties or zeros, up to 20 datasets, where the normal "
                  f"approximation is poor), or the normal approximation with the tie correction.")]
    if not c.wilcoxon.empty:
        w = c.wilcoxon
        shown = pd.DataFrame({"algorithm": w["algorithm"], "measure": w["measure"], "datasets": w["n"],
                              "median difference (algorithm - baseline)": [_f(v) for v in w.get("median difference", pd.Series(np.nan, index=w.index))],
                              "T": [_f(v, 1) for v in w["T"]], "p": [_p(v) for v in w["p"]], "method": w["method"],
                              "p (Holm)": [_p(v) for v in w["p_holm"]],
                              "significant (Holm, 0.05)": ["yes" if s else "" for s in w["significant_holm"]]})
        _table(w, tables / "wilcoxon_vs_baseline", f"Wilcoxon signed-rank against {plan.baseline}, Holm-corrected",
               index=False)
        md.append(_md(shown))

    md += _beyond_blocks(c, plan, tables, figs, n_rec)

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
        P.Item("The Bayesian tests answer what the p-values cannot: how probable it is that the difference is larger "
               "than what matters in practice (the ROPE), and how probable that it is smaller, i.e. that the two are "
               "practically equivalent. Their answer depends on the ROPE chosen: state it with the probabilities."),
        P.Item("Multiple testing: every family of tests here is corrected over its own comparisons (the k - 1 "
               "comparisons with the baseline, or the k (k-1) / 2 pairs), with Holm's step-down method unless named "
               "otherwise; a hypothesis is rejected when its adjusted p-value is <= 0.05 (Holm's rule)."),
        *[P.Item(f"{what}: {ref}.") for what, ref in CITATIONS],
        P.Item(("bench computes every test with ", P.Code("bench.stats"), " (sign tests with scipy's binomtest; "
                "Friedman, Nemenyi and Wilcoxon as Demsar describes them, exact permutation p-values with scipy's "
                "permutation_test; the Bayesian signed-rank test as baycomp computes it and the correlated t-test by "
                "its Student posterior, both checked against baycomp; Conover's test by scikit-posthocs; Cliff's delta "
                "with scipy's bootstrap). Cite the method papers above and the version of bench (its commit is on the "
                "Generated line)."))])]
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
