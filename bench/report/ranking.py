"""Rank-based analysis of many learners over many datasets (beyond the papers): average ranks,
Friedman / Iman-Davenport, Nemenyi's critical difference and its diagram (drawn only when the
Friedman test rejects), and Wilcoxon signed-rank tests of every pair."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pandas as pd

from ..stats.ranks import critical_difference, friedman, nemenyi_cliques
from ..stats.ttests import wilcoxon_signed_rank
from .compare import fmt, fmt_p
from .figures import Caption, cd_diagram
from .tables import write_table


def friedman_report(values: pd.DataFrame, stem: Path, title: str, lower_is_better: bool = True,
                    labels: dict[str, str] | None = None, alpha: float = 0.05, plan: dict | None = None,
                    n_records: int | None = None) -> tuple[list[Path], list[str]]:
    """Ranks of the learners (columns) over the datasets (rows) where all have a value.

    Writes ``<stem>_ranks`` (table) and, when the Friedman test rejects at ``alpha``,
    ``<stem>_cd`` (PNG/PDF and caption; protocol and scale from ``plan``, ``n_records`` stored
    records). ``labels`` maps column names to the names shown (the papers' names). Returns the
    files and Markdown note lines."""
    labels = labels or {}
    v = values.dropna(axis=0, how="any")
    notes: list[str] = []
    if v.shape[1] < 2:
        return [], notes          # a single learner: nothing to rank
    if v.shape[0] < 2:
        notes.append(f"{title}: no rank analysis (only {v.shape[0]} dataset with all {v.shape[1]} learners)")
        return [], notes
    res = friedman(v.to_numpy(), lower_is_better=lower_is_better)
    cd = critical_difference(res.n_learners, res.n_datasets, alpha)
    names = [labels.get(c, c) for c in v.columns]
    avg = dict(zip(names, res.average_ranks))
    order = sorted(avg, key=avg.get)
    cliques = nemenyi_cliques(res.average_ranks, cd)
    in_clique = {names[i]: [] for i in range(len(names))}
    for gi, g in enumerate(cliques):
        for i in g:
            in_clique[names[i]].append(chr(ord("a") + gi))
    table = pd.DataFrame({"learner": order, "average rank": [fmt(avg[n], 3) for n in order],
                          "not significantly different (Nemenyi groups)": [",".join(in_clique[n]) for n in order]})
    rejects = res.rejects(alpha)
    caption = (f"{title}: average ranks over {res.n_datasets} datasets (1 = best). Friedman chi2_F = "
               f"{res.chi2:.3f} ({fmt_p(res.p_chi2, True)}), Iman-Davenport F_F = {res.f:.3f} with {res.df} df "
               f"({fmt_p(res.p_f, True)}): {'rejects' if rejects else 'does not reject'} equal performance at "
               f"alpha = {alpha}. Nemenyi CD = {cd:.3f}.")
    files = write_table(table, Path(str(stem) + "_ranks"), caption=caption, index=False)
    if rejects:
        what = (f"{title}: Demsar's critical-difference diagram of the average ranks of {res.n_learners} learners "
                f"over {res.n_datasets} datasets (rank 1 = best, on the left); thick bars join learners the Nemenyi "
                f"test does not tell apart at alpha = {alpha} (CD = {cd:.3f}); Friedman {fmt_p(res.p_f, True)}")
        cap = Caption.of_plan(what, plan, n_records, data=f"{res.n_datasets} datasets with a value for every learner")
        files += cd_diagram(avg, cd, res.n_datasets, Path(str(stem) + "_cd"), title=title, cliques=cliques,
                            caption=cap)
    else:
        notes.append(f"{title}: the Friedman test does not reject ({fmt_p(res.p_f, True)}); no CD diagram drawn")
    # Wilcoxon signed-rank for every pair
    rows = []
    for a, b in combinations(v.columns, 2):
        w = wilcoxon_signed_rank(v[a].to_numpy(), v[b].to_numpy(), zero_method="zsplit")
        better = (v[a] < v[b]).sum() if lower_is_better else (v[a] > v[b]).sum()
        worse = (v[a] > v[b]).sum() if lower_is_better else (v[a] < v[b]).sum()
        rows.append({"A": labels.get(a, a), "B": labels.get(b, b), "A better": int(better), "A worse": int(worse),
                     "Wilcoxon T": fmt(w.statistic, 1), "p": fmt_p(w.p), "significant": "yes" if w.p < alpha else ""})
    files += write_table(pd.DataFrame(rows), Path(str(stem) + "_wilcoxon"), index=False,
                         caption=f"{title}: Wilcoxon signed-rank tests (two-sided, zero differences split) "
                                 f"over {res.n_datasets} datasets")
    return files, notes
