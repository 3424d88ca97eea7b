"""Data shaping for the ``ande_sr`` report: the paper's dataset collections, the per-dataset values
of every measure (bias and variance included), and small facts about the stored runs."""

from __future__ import annotations

import pandas as pd

from bench.report.compare import wdl_vs_published
from bench.papers.ande_sr.spec import ALGOS, ALPHA, SUBSETS, TEST


def collections(pds: pd.DataFrame) -> dict[str, list[str] | None]:
    """Our dataset names of each of the paper's collections (by the paper's size category)."""
    mapped = pds[pds["ours"] != ""]
    out: dict[str, list[str] | None] = {"all": None}
    for s in ("large", "medium", "small"):
        out[s] = mapped.loc[mapped["size_category"] == s, "ours"].tolist()
    return out


def values(exp, datasets: list[str]) -> dict[str, pd.DataFrame]:
    """Per-dataset values (datasets x our algo names) of every measure the paper uses."""
    vals = {m: exp.means(m, datasets) for m in ("error", "rmse", "train_s", "test_s")}
    ok = exp.records
    complete = exp.status[exp.status["complete"]] if not exp.status.empty else exp.status
    if ok.empty or complete.empty:
        vals["bias"] = vals["variance"] = pd.DataFrame()
        return vals
    keep = ok.merge(complete[["dataset", "algo"]], on=["dataset", "algo"])
    bv = exp.ctx.bias_variance(exp.name, keep[keep["dataset"].isin(datasets)])
    for m in ("bias", "variance"):
        vals[m] = bv.pivot_table(index="dataset", columns="algo", values=m, aggfunc="first") if not bv.empty \
            else pd.DataFrame()
    vals["_bv"] = bv
    return vals


def algo_reasons(exp) -> dict[str, str]:
    """Why an algorithm has no values at all (for table notes)."""
    out = {}
    for pa, oa in ALGOS.items():
        if not exp.ctx.algo_registered(oa):
            out[oa] = f"algorithm not implemented yet (no conf/algo/{oa}.yaml)"
        elif exp.status.empty or oa not in set(exp.status["algo"]):
            out[oa] = "not run yet"
    return out


def wdl_cells(pub: pd.DataFrame, vals: dict, measure: str, pub_measure: str, coll: dict, exp) -> pd.DataFrame:
    """The long win/draw/loss cells of one of Tables 2-5, ours beside the published ``pub``."""
    return wdl_vs_published(pub, {measure: vals.get(measure, pd.DataFrame())}, ALGOS, {pub_measure: measure},
                            {s: coll[s] for s in SUBSETS}, TEST, ALPHA, algo_reasons=algo_reasons(exp))


def rf10_sklearn_cells(pub: pd.DataFrame, vals: dict, measure: str, pub_measure: str, coll: dict,
                       exp) -> pd.DataFrame:
    """The published cells with RF10, recomputed with RF10-sklearn in RF10's place (for the verdicts)."""
    return wdl_cells(rf10_cells(pub, "RF10-sklearn"), vals, measure, pub_measure, coll, exp)


def rf10_cells(pub: pd.DataFrame, forest: str) -> pd.DataFrame:
    """The published W/D/L cells with RF10, ``forest`` named in RF10's place."""
    rf = pub[(pub["row_algorithm"] == "RF10") | (pub["col_algorithm"] == "RF10")].copy()
    return rf.assign(**{c: rf[c].replace("RF10", forest) for c in ("row_algorithm", "col_algorithm")})


def time_facts(vals: dict) -> pd.DataFrame:
    """The per-dataset classification seconds (``vals["test_s"]``) as a long table: dataset, algo (our config
    name), test_s; datasets in order, algorithms in :data:`ALGOS` order, cells without a value left out."""
    t = vals.get("test_s", pd.DataFrame())
    rows = []
    if t is not None and not t.empty:
        algos = [a for a in ALGOS.values() if a in t.columns]
        for ds in t.index:
            rows += [[ds, a, float(t.loc[ds, a])] for a in algos if pd.notna(t.loc[ds, a])]
    return pd.DataFrame(rows, columns=["dataset", "algo", "test_s"], dtype=object)


def ratio_facts(vals: dict, coll: dict, label: dict) -> pd.DataFrame:
    """Per dataset of the small, medium and large collections (``coll``), each learner's 0-1 loss and RMSE
    divided by NB's on the same dataset, as a long table: dataset, group (Small, Medium, Large), algo (the
    paper's name), measure (0-1 loss, RMSE), ratio; cells without a value (or NB's zero) left out."""
    rows = []
    base = ALGOS["NB"]
    for m, name in (("error", "0-1 loss"), ("rmse", "RMSE")):
        v = vals.get(m, pd.DataFrame())
        if v is None or v.empty or base not in v.columns:
            continue
        for group in ("small", "medium", "large"):
            for ds in [d for d in (coll.get(group) or []) if d in v.index]:
                nb = v.loc[ds, base]
                if pd.isna(nb) or nb == 0:
                    continue
                rows += [[ds, group.capitalize(), label.get(a, a), name, float(v.loc[ds, a] / nb)]
                         for a in ALGOS.values() if a != base and a in v.columns and pd.notna(v.loc[ds, a])]
    return pd.DataFrame(rows, columns=["dataset", "group", "algo", "measure", "ratio"], dtype=object)


def rounds(exp) -> str:
    """Rounds of cross-validation behind the bias-variance estimates ('?' without records)."""
    if exp.records.empty:
        return "?"
    pc = exp.records["protocol_config"].iloc[0] or {}
    return str(int(pc.get("n_repeats", 1)) * max(1, len(exp.plan.get("seeds") or [0])))


def n_compared(long: pd.DataFrame, subset: str, measure: str) -> str:
    """How many datasets our cells of ``subset`` and ``measure`` compare over (a range when they differ)."""
    sel = long[(long["subset"] == subset) & (long["measure"] == measure) & (long["ours_n"] > 0)]
    if sel.empty:
        return "0"
    lo, hi = int(sel["ours_n"].min()), int(sel["ours_n"].max())
    return str(hi) if lo == hi else f"{lo}-{hi}"
