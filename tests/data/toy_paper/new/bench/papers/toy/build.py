"""The made-up paper's Table 2 (error rate of NB and A1DE per data set), ours beside the published numbers,
and its facts: the W/D/L of A1DE against NB (``wdl``), each learner's mean error (``averages``) and every
numeric cell for the key figure (``key_cells``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench import published
from bench.measures import MEASURES
from bench.report.context import PaperResult, ReportContext
from bench.report.tables import write_table
from bench.stats.pairwise import wdl

PAPER, EXPERIMENT, TABLE = "toy", "toy_error", 2
ALGOS = {"NB": "nb", "A1DE": "a1de"}


def build(ctx: ReportContext, out: Path) -> PaperResult:
    res = PaperResult(PAPER, experiments=[EXPERIMENT])
    exp = ctx.experiment(EXPERIMENT)
    pds = published.datasets(PAPER)
    res.add_missing_cells(f"Table {TABLE}", exp, pds, ALGOS)
    pub = published.values(PAPER, TABLE).pivot(index="dataset", columns="algorithm", values="value_num")
    ok = exp.records[exp.records["status"] == "ok"] if not exp.records.empty else exp.records
    rows = []
    for r in pds.itertuples():
        row = {"dataset": r.dataset}
        for name, algo in ALGOS.items():
            done = bool(r.ours) and exp.complete(r.ours, algo)
            mine = ok[(ok["dataset"] == r.ours) & (ok["algo"] == algo)][MEASURES["error"].column] if done else []
            row[f"{name} published"] = float(pub.loc[r.dataset, name])
            row[f"{name} ours"] = float(pd.Series(mine).mean()) if done else None
        rows.append(row)
    table = pd.DataFrame(rows)
    stem = f"table{TABLE}_error"
    res.files += write_table(table, out / stem, caption=f"Table {TABLE}: error rate per data set, the paper's and "
                             "ours (mean over the splits)", index=False)
    src = f"{PAPER}/{stem}.csv"
    both = table.dropna()
    w = wdl(both["A1DE ours"], both["NB ours"], test="sign1") if len(both) else None
    p = wdl(table["A1DE published"], table["NB published"], test="sign1")
    res.facts.add_table("wdl", pd.DataFrame([{
        "row": "A1DE", "col": "NB", "measure": "error rate", "wins": w and w.wins, "draws": w and w.draws,
        "losses": w and w.losses, "published_wins": p.wins, "published_draws": p.draws,
        "published_losses": p.losses, "n": len(both)}]), src, "W/D/L of A1DE against NB on the error rate")
    res.facts.add_table("averages", pd.DataFrame([{
        "algorithm": name, "measure": "error rate", "ours": table[f"{name} ours"].mean() if len(both) else None,
        "n": int(table[f"{name} ours"].notna().sum()), "published": table[f"{name} published"].mean()}
        for name in ALGOS]), src, "each learner's mean error rate over the data sets")
    res.facts.add_table("key_cells", pd.DataFrame([
        {"kind": "error rate", "table": f"Table {TABLE}", "published": r[f"{n} published"], "ours": r[f"{n} ours"]}
        for r in rows for n in ALGOS]), src, "every numeric cell of Table 2, published and ours")
    return res


def published_cells(missing: pd.DataFrame | None = None) -> int:
    """The (data set, learner) cells of Table 2."""
    return int(published.values(PAPER, TABLE)["value_num"].notna().sum())
