"""ESKDB's ablation under two random generators: ``ablation_generators.{csv,md,tex}``.

The ESKDB authors' reference code draws every MDL-R cut point with ``new Random(seed).nextDouble()``
and then ``seed++``, and each member's attribute order with ``new Random(1990093 + e)``. The first
``nextDouble()`` of consecutive Java seeds barely moves, so the members' cut points are nearly the
same. Experiment ``eskdb_ablation`` runs the paper's three variants (ES-KDB, ES-KDB_randomO,
ES-KDB_randomCP) with bench's default NumPy draws and with the reference code's draws
(``cut_point_rng="authors"``, ``order_rng="authors"``: the ``*_authors_rng`` configs).

The table has one row per generator and measure: the mean of each variant over the datasets where
all six configs have complete runs, the W/D/L (a win = lower) of ES-KDB against each ablation
with the paper's one-tailed binomial sign test p, and the members' cut-point diversity (records'
``extra.distinct_cut_sets``: per numeric attribute, distinct cut-point sets among the 10 members,
averaged; mean over the splits and datasets with numeric attributes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench.stats.pairwise import wdl
from bench.report.tables import write_table
from bench.papers.eskdb import ACCURACY

#: generator -> the paper's variant name -> config
GENERATORS = {
    "NumPy (bench's default)": {"ES-KDB": "eskdb_m", "ES-KDB_randomO": "eskdb_random_o",
                                "ES-KDB_randomCP": "eskdb_random_cp"},
    "java.util.Random as the reference code": {"ES-KDB": "eskdb_m_authors_rng",
                                               "ES-KDB_randomO": "eskdb_random_o_authors_rng",
                                               "ES-KDB_randomCP": "eskdb_random_cp_authors_rng"},
}
TEST, ALPHA = "sign1", 0.05


def _diversity(records: pd.DataFrame, algo: str) -> float:
    """Mean of ``extra.distinct_cut_sets`` over the ok splits of ``algo`` with numeric attributes."""
    if records.empty or "extra.distinct_cut_sets" not in records.columns:
        return float("nan")
    g = records[(records["algo"] == algo) & (records["status"] == "ok")]
    v = pd.to_numeric(g["extra.distinct_cut_sets"], errors="coerce")
    v = v[v > 0]
    return float(v.mean()) if len(v) else float("nan")


def ablation_generators(exp, out: Path) -> list[Path]:
    """Write the table when all six configs have complete runs on at least one common dataset."""
    configs = [a for names in GENERATORS.values() for a in names.values()]
    vals = {m: exp.means(m) for m in ("rmse", "error")}
    if any(vals[m].empty or any(a not in vals[m].columns for a in configs) for m in vals):
        return []
    common = vals["rmse"][configs].dropna().index.intersection(vals["error"][configs].dropna().index)
    if common.empty:
        return []
    rows = []
    for gen, names in GENERATORS.items():
        for mname, m in ACCURACY.items():
            v = vals[m].loc[common]
            row = {"generator": gen, "measure": mname, "datasets": len(common)}
            for n, a in names.items():
                row[f"{n} mean"] = round(float(v[a].mean()), 4)
            for other in ("ES-KDB_randomO", "ES-KDB_randomCP"):
                r = wdl(v[names["ES-KDB"]].to_numpy(), v[names[other]].to_numpy(), test=TEST, alpha=ALPHA)
                row[f"ES-KDB vs {other} W/D/L"] = str(r)
                row[f"ES-KDB vs {other} p (one-tailed sign)"] = round(r.p, 4)
            for n in ("ES-KDB", "ES-KDB_randomCP"):
                d = _diversity(exp.records, names[n])
                row[f"{n} distinct cut-point sets per attribute"] = round(d, 2) if np.isfinite(d) else ""
            rows.append(row)
    cap = ("ESKDB's ablation (Figs. 3-5) under two random generators: bench's NumPy draws and the "
           "reference code's java.util.Random draws (new Random(seed++) per cut point, new Random(1990093 + e) "
           f"per member's order); means over the {len(common)} datasets where all six configs have complete runs; "
           f"W/D/L of ES-KDB against each ablation (a win = lower), one-tailed binomial sign test p; cut-point "
           "diversity = distinct cut-point sets among the 10 members per numeric attribute (records' "
           "extra.distinct_cut_sets; 10 = every member its own, 1 = all the same)")
    return write_table(pd.DataFrame(rows), out / "ablation_generators", index=False, caption=cap)
