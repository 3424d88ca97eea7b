"""Published numbers beside ours: generic builders every paper module uses.

* :func:`beside_published` joins published values and ours on the key (paper, table, dataset,
  algorithm, measure) and adds the difference, keeping published cells we lack (with the reason)
  and our cells the paper lacks;
* :func:`wdl_vs_published` computes our win/draw/loss record for every cell of a published WDL
  table (same row/column algorithms, subset and measure) and sets it beside the published record,
  with both sign tests: the papers' bold (significance) marks are lost in the text conversions,
  so the published significance is recomputed from the published counts;
* :func:`wdl_matrix_display` lays such a long table out as the papers' matrix.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats.pairwise import LOWER_IS_BETTER, WDL, significance, wdl, wdl_two_se

KEYS = ["paper", "table", "dataset", "algorithm", "measure"]


def fmt(v, digits: int = 4) -> str:
    """A number for a table cell ('' for NaN/None)."""
    if v is None or (isinstance(v, float) and not np.isfinite(v)):
        return ""
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    s = f"{float(v):.{digits}f}"
    return s.lstrip("-") if float(s) == 0 else s


#: p-values below this are printed as "< 1e-4" (never as 0.0000)
P_FLOOR = 1e-4


def fmt_p(p, prefix: bool = False, missing: str = "") -> str:
    """A p-value for a table cell, a caption or a verdict, the one formatter every report uses: ``< 1e-4``
    below :data:`P_FLOOR`, else four decimals (``0.0123``); ``prefix`` gives ``p < 1e-4`` /
    ``p = 0.0123``; ``missing`` for NaN/None (default '')."""
    if p is None or (isinstance(p, float) and not np.isfinite(p)):
        return missing
    p = float(p)
    if p < P_FLOOR:
        return "p < 1e-4" if prefix else "< 1e-4"
    return f"p = {p:.4f}" if prefix else f"{p:.4f}"


def beside_published(published: pd.DataFrame, ours: pd.DataFrame, keys: list[str] = KEYS,
                     reasons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Outer join of ``published`` (keys + ``published``, optional ``printed``, ``published_pm``)
    and ``ours`` (keys + ``ours``, optional ``ours_se``, ``n``) with ``diff = ours - published``.

    ``reasons`` (keys + ``reason``) says why a published cell has no value of ours; cells with
    neither a value nor a reason get "not computed".
    """
    pub = published.copy()
    if "printed" not in pub.columns:
        pub["printed"] = pub["published"].map(lambda v: fmt(v))
    pub["_order"] = np.arange(len(pub))
    out = pub.merge(ours, on=keys, how="outer")
    out = out.sort_values("_order", na_position="last", kind="stable").drop(columns="_order").reset_index(drop=True)
    if reasons is not None and not reasons.empty:
        out = out.merge(reasons[keys + ["reason"]].drop_duplicates(keys), on=keys, how="left")
    else:
        out["reason"] = ""
    out["published"] = pd.to_numeric(out["published"], errors="coerce")
    out["ours"] = pd.to_numeric(out["ours"], errors="coerce") if "ours" in out else np.nan
    out["diff"] = out["ours"] - out["published"]
    out["reason"] = out["reason"].fillna("")
    has = out["ours"].notna()
    out.loc[has, "reason"] = ""
    out.loc[~has & (out["reason"] == ""), "reason"] = "not computed"
    return out


def display_beside(df: pd.DataFrame, index: list[str], digits: int = 4, extra: list[str] | None = None) -> pd.DataFrame:
    """A readable version of :func:`beside_published`: printed published value, ours (± se), diff,
    and the reason for a missing value."""
    rows = []
    for r in df.to_dict("records"):
        ours = fmt(r.get("ours"), digits)
        se = r.get("ours_se")
        if ours and se is not None and np.isfinite(se):
            ours += f" ± {fmt(se, digits)}"
        pub = str(r.get("printed") or "")
        pm = r.get("published_pm")
        if pub and isinstance(pm, str) and pm:
            pub += f" ± {pm}"
        row = {k: r.get(k, "") for k in index}
        row.update({"published": pub, "ours": ours, "diff": fmt(r.get("diff"), digits)})
        for e in extra or []:
            row[e] = r.get(e, "")
        note = r.get("note", "")
        row["missing / note"] = r.get("reason", "") or ("" if note is None or note != note else str(note))
        rows.append(row)
    return pd.DataFrame(rows)


def our_wdl(values: pd.DataFrame, row: str, col: str, datasets=None, lower_is_better: bool = True,
            test: str = "sign2", alpha: float = 0.05) -> WDL | None:
    """Our WDL of ``row`` vs ``col`` over the datasets (index of ``values``) where both have a value."""
    if values is None or values.empty or row not in values.columns or col not in values.columns:
        return None
    v = values if datasets is None else values.loc[values.index.intersection(list(datasets))]
    both = v[[row, col]].dropna()
    if both.empty:
        return None
    return wdl(both[row].to_numpy(), both[col].to_numpy(), lower_is_better, test, alpha)


def our_wdl_two_se(splits: pd.DataFrame, row: str, col: str, datasets=None, lower_is_better: bool = True,
                   se: str = "paired") -> WDL | None:
    """Our WDL by Aryal and Ting 2013's two-standard-error test, from split values (index (dataset, seed, repeat,
    fold), one column per algo), over the datasets where both have every split."""
    if splits is None or splits.empty or row not in splits.columns or col not in splits.columns:
        return None
    a_list, b_list = [], []
    for ds, g in splits[[row, col]].groupby(level="dataset"):
        if datasets is not None and ds not in set(datasets):
            continue
        g = g.dropna()
        if len(g) >= 2:
            a_list.append(g[row].to_numpy())
            b_list.append(g[col].to_numpy())
    if not a_list:
        return None
    return wdl_two_se(a_list, b_list, lower_is_better, se)


def wdl_vs_published(published_wdl: pd.DataFrame, values: dict[str, pd.DataFrame], algo_map: dict[str, str],
                     measure_map: dict[str, str], subsets: dict[str, list | None], test: str = "sign2",
                     alpha: float = 0.05, lower_is_better: dict[str, bool] | None = None,
                     algo_reasons: dict[str, str] | None = None,
                     splits: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Our WDL for every row of a published WDL table, beside the published record.

    ``values[measure]`` are our per-dataset means (our dataset names x our algo names);
    ``algo_map`` maps the paper's algorithm names to ours; ``measure_map`` the published measure
    strings to the keys of ``values``; ``subsets`` the published subset strings to lists of our
    datasets (None = all). ``algo_reasons`` says why an algorithm has no values at all. With
    ``test="two_se"`` (Aryal and Ting 2013) the records come from ``splits[measure]`` (split values, see
    :func:`our_wdl_two_se`) and the published counts are taken as printed (their draws already are
    the non-significant differences).
    """
    lower_is_better = {**LOWER_IS_BETTER, **(lower_is_better or {})}
    algo_reasons = algo_reasons or {}
    rows = []
    for r in published_wdl.to_dict("records"):
        measure = measure_map.get(r["measure"], r["measure"])
        vals = values.get(measure)
        ra, ca = algo_map.get(r["row_algorithm"]), algo_map.get(r["col_algorithm"])
        datasets = subsets.get(r["subset"])
        lib = lower_is_better.get(measure, True)
        if test == "two_se":
            vals = (splits or {}).get(measure)
            ours = our_wdl_two_se(vals, ra, ca, datasets, lib) if ra and ca else None
        else:
            ours = our_wdl(vals, ra, ca, datasets, lib, test, alpha) if ra and ca else None
        p_pub, sig_pub = significance(int(r["wins"]), int(r["losses"]), test, alpha)   # bold is lost: recomputed
        pub = WDL(int(r["wins"]), int(r["draws"]), int(r["losses"]), test, p_pub, sig_pub, alpha)
        note = ""
        if ours is None:
            why = [f"{a}: {algo_reasons.get(m, 'no values')}" for a, m in
                   ((r["row_algorithm"], ra), (r["col_algorithm"], ca))
                   if not m or vals is None or vals.empty or m not in vals.columns]
            note = "; ".join(why) or "no dataset with both values"
        elif ours.n < pub.n:
            note = f"{ours.n} of the paper's {pub.n} datasets"
        share_o = ours.win_share if ours else np.nan
        rows.append({
            "row": r["row_algorithm"], "col": r["col_algorithm"], "subset": r["subset"], "measure": r["measure"],
            "published": str(pub), "published_p": pub.p, "published_significant": pub.significant,
            "ours": str(ours) if ours else "", "ours_n": ours.n if ours else 0,
            "ours_p": ours.p if ours else np.nan, "ours_significant": bool(ours.significant) if ours else False,
            "published_win_share": pub.win_share, "ours_win_share": share_o,
            "diff_win_share": share_o - pub.win_share if ours else np.nan,
            "same_direction": (np.sign(ours.wins - ours.losses) == np.sign(pub.wins - pub.losses)) if ours else None,
            "note": note,
            "_ours": ours, "_published": pub,
        })
    return pd.DataFrame(rows)


def wdl_matrix_display(long: pd.DataFrame, rows: list[str], cols: list[str], subset: str, measure: str) -> pd.DataFrame:
    """The papers' matrix of one (subset, measure): cell = "ours (published)", each in bold when
    its sign test is significant; blank where the paper has no cell."""
    sel = long[(long["subset"] == subset) & (long["measure"] == measure)]
    out = pd.DataFrame("", index=rows, columns=cols, dtype=object)
    for r in sel.to_dict("records"):
        if r["row"] not in out.index or r["col"] not in out.columns:
            continue
        ours = r["_ours"].markdown() if r["_ours"] is not None else "–"
        out.loc[r["row"], r["col"]] = f"{ours} ({r['_published'].markdown()})"
    out.index.name = "row vs col"
    return out


def long_display(long: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """The long WDL comparison without the object columns, numbers formatted."""
    df = long.drop(columns=[c for c in long.columns if c.startswith("_")]).copy()
    for c in ("published_p", "ours_p"):
        df[c] = df[c].map(fmt_p)
    for c in ("published_win_share", "ours_win_share", "diff_win_share"):
        df[c] = df[c].map(lambda v: fmt(v, digits))
    none = df["ours"] == ""
    for c in ("ours_significant", "same_direction"):
        df[c] = ["" if (n or v is None) else ("yes" if bool(v) else "no") for v, n in zip(df[c], none)]
    df["published_significant"] = ["yes" if r["_published"].significant else "no" for r in long.to_dict("records")]
    return df


#: the columns of a W/D/L fact table (:func:`wdl_facts`)
WDL_FACT_COLUMNS = ["row", "col", "subset", "measure", "published_wins", "published_draws", "published_losses",
                    "published_p", "published_significant", "published_win_share", "ours_wins", "ours_draws",
                    "ours_losses", "ours_n", "ours_p", "ours_significant", "ours_win_share", "note"]


def wdl_facts(long: pd.DataFrame) -> pd.DataFrame:
    """The cells of a long W/D/L table (:func:`wdl_vs_published`) as plain values for the facts: counts as
    ints, p-values and win shares as floats, significance as booleans; ours None where we have no record
    (``note`` says why). The rows are the long table's, in its order (:func:`long_display` shows the same cells)."""
    rows = []
    for r in long.to_dict("records") if not long.empty else []:
        o, p = r["_ours"], r["_published"]
        rows.append([r["row"], r["col"], r["subset"], r["measure"], p.wins, p.draws, p.losses, p.p,
                     bool(p.significant), p.win_share,
                     o.wins if o else None, o.draws if o else None, o.losses if o else None, int(r["ours_n"]),
                     o.p if o else None, bool(o.significant) if o else None, o.win_share if o else None,
                     r["note"]])
    return pd.DataFrame(rows, columns=WDL_FACT_COLUMNS, dtype=object)


def value_facts(vals: dict, algos: dict[str, str], measures, size: dict | None = None) -> pd.DataFrame:
    """The per-dataset means a paper's W/D/L tables count on, as a long fact table: dataset, (with ``size``,
    dataset -> its collection: size), algo (the paper's name, ``algos``: paper's name -> our config), measure
    (the paper's name; ``measures``: pairs (its name, the key of ``vals``)), value; cells without a value left
    out. The paired values of a W/D/L claim's Bayesian signed-rank note."""
    rows = []
    for name, key in measures:
        v = vals.get(key)
        if v is None or v.empty:
            continue
        pairs = [(pa, oa) for pa, oa in algos.items() if oa in v.columns]
        for ds in v.index:
            rows += [[ds, *([size.get(ds, "")] if size is not None else []), pa, name, float(v.loc[ds, oa])]
                     for pa, oa in pairs if pd.notna(v.loc[ds, oa])]
    columns = ["dataset", *(["size"] if size is not None else []), "algo", "measure", "value"]
    return pd.DataFrame(rows, columns=columns, dtype=object)
