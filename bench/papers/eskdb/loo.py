"""How SKDB's leave-one-out selection weighs the k's it chooses between (claim ES22: "for [tic-tac-toe] SKDB
chooses to use k = 2"), from the stored runs of experiment ``eskdb_skdb_loo`` (``conf/algo/skdb_loo.yaml``,
``eskdb_m_loo.yaml``: skdb and eskdb_m recording the LOO RMSE of every k, :mod:`algorithms.skdb_loo_probe`) on
eskdb_main's folds of tic-tac-toe.

Per chooser (the standalone SKDB: one choice per split; ESKDB_M's members: one per member and split), the
lowest LOO RMSE of each k (over the attribute counts) and the k chosen, checked against the k eskdb_main's
records hold for the same split and member (the probe fits the same models). :func:`note` words what the scores
show for ES22's verdict: the mean and spread of each chosen k's score, and the margin of each choice over the
next-best k.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from bench.report.tables import write_table

EXPERIMENT = "eskdb_skdb_loo"
FACT = "skdb_loo_by_k"
MAIN = "eskdb_main"
#: probe algo -> (the chooser's name, the probed algo of eskdb_main, the record's column of the chosen k)
LEARNERS = {"skdb_loo": ("SKDB", "skdb", "extra.k"), "eskdb_m_loo": ("ESKDB_M", "eskdb_m", "extra.k_star")}
WHO = {"SKDB": "standalone SKDB", "ESKDB_M": "ESKDB_M's SKDB members"}


def _list(v) -> list:
    if isinstance(v, str):
        return json.loads(v)
    if isinstance(v, (list, tuple, np.ndarray)):
        return list(v)
    return [] if v is None or (isinstance(v, float) and np.isnan(v)) else [v]


def scores(records: pd.DataFrame, main: pd.DataFrame | None = None) -> pd.DataFrame:
    """Long table, one row per choice: dataset, chooser, repeat, fold, member, chosen k, the k eskdb_main's
    record holds for the same split and member (``main_k``, NaN without it), and ``loo_k0`` .. ``loo_k<max>``."""
    if records is None or records.empty or "extra.loo_by_k" not in records:
        return pd.DataFrame()
    ok = records[(records["status"] == "ok") & records["algo"].isin(LEARNERS)]
    if main is not None and not main.empty:
        main = main[main["status"] == "ok"]
    rows = []
    for rec in ok.to_dict("records"):
        name, probed, kcol = LEARNERS[rec["algo"]]
        ds, rep, fold = rec["dataset"], int(rec["repeat"]), int(rec["fold"])
        table = _list(rec["extra.loo_by_k"])
        members = table if table and isinstance(table[0], (list, tuple)) else [table]
        chosen = _list(rec.get(kcol))
        main_k = []
        if main is not None and not main.empty and kcol in main:
            m = main[(main["algo"] == probed) & (main["dataset"] == ds) & (main["repeat"] == rep)
                     & (main["fold"] == fold)]
            main_k = _list(m[kcol].iloc[0]) if len(m) else []
        for i, loo in enumerate(members):
            row = {"dataset": ds, "chooser": name, "repeat": rep, "fold": fold, "member": i,
                   "k": int(chosen[i]) if i < len(chosen) else np.nan,
                   "main_k": int(main_k[i]) if i < len(main_k) else np.nan}
            row.update({f"loo_k{k}": float(x) for k, x in enumerate(loo)})
            rows.append(row)
    return pd.DataFrame(rows)


def table(ctx, out: Path, facts) -> list[Path]:
    """The table and fact ``skdb_loo_by_k`` (nothing when the experiment has no stored runs)."""
    exp = ctx.experiment(EXPERIMENT)
    main = ctx.experiment(MAIN).records
    t = scores(exp.records, main)
    if t.empty:
        return []
    facts.add_table(FACT, t.round(6), f"eskdb/{FACT}.csv",
                    about="per choice of SKDB's leave-one-out selection (standalone SKDB per split, ESKDB_M per "
                          "member and split): the k chosen, the k eskdb_main chose on the same split and member, and "
                          "the lowest LOO RMSE of each k")
    lines = [f"{ds}: {note_for(t[t['dataset'] == ds])}" for ds in sorted(set(t["dataset"]))]
    return write_table(t.round(4), out / FACT, index=False,
                       caption=f"{EXPERIMENT}: the leave-one-out RMSE of each k (the lowest over the attribute counts) "
                               f"that SKDB's selection weighs, per choice; k the one chosen, main_k the one "
                               f"eskdb_main's record holds. " + " ".join(lines))


def summary(t: pd.DataFrame, chooser: str) -> dict | None:
    """Per chooser: choices, how many equal eskdb_main's, each chosen k's mean and SD of its LOO RMSE over the
    choices, the median of those SDs, the median margin of the chosen k's score over the next-best k's, and the
    most frequent chosen k's (all of them when several tie) with their count."""
    g = t[t["chooser"] == chooser]
    if g.empty:
        return None
    cols = sorted((c for c in g.columns if c.startswith("loo_k")), key=lambda c: int(c[5:]))
    s = g[cols].to_numpy(float)
    srt = np.sort(s, axis=1)
    counts = g["k"].dropna().astype(int).value_counts()
    chosen = sorted(k for k in counts.index if k < s.shape[1])
    sd = {k: float(np.nanstd(s[:, k], ddof=1)) for k in chosen}
    return {"choices": len(g), "same_as_main": int((g["k"] == g["main_k"]).sum()),
            "with_main": int(g["main_k"].notna().sum()),
            "mean": {k: float(np.nanmean(s[:, k])) for k in chosen}, "sd": sd,
            "median_sd": float(np.median(list(sd.values()))) if sd else float("nan"),
            "margin": float(np.median(srt[:, 1] - srt[:, 0])),
            "top": (sorted(int(k) for k in counts.index[counts == counts.max()]), int(counts.max()))
            if len(counts) else ([], 0)}


def note_for(t: pd.DataFrame) -> str:
    """The LOO scores behind the choices of one dataset, and what they show ("" without data): per chooser,
    the mean and SD over the choices of each chosen k's score and the median margin of a choice over the
    next-best k; when that margin is below the median SD, the winning k is decided by how the score varies
    from one fold (and member) to the next, which the text says, with the share of the most frequent k."""
    parts = []
    for chooser in ("ESKDB_M", "SKDB"):
        s = summary(t, chooser)
        if s is None:
            continue
        ks = ", ".join(f"k = {k}: {s['mean'][k]:.4f} ± {s['sd'][k]:.4f}" for k in s["mean"])
        close = s["margin"] < s["median_sd"]
        top, c = s["top"]
        most = " and ".join(f"k = {k}" for k in top) + (" each" if len(top) > 1 else "")
        parts.append(f"{WHO[chooser]}: mean ± SD LOO RMSE over the {s['choices']} choices {ks}; a choice beats the "
                     f"next-best k by a median {s['margin']:.4f}, "
                     + (f"below the median SD {s['median_sd']:.4f}: which k wins varies from choice to choice "
                        f"({most} in {c} of {s['choices']})" if close else
                        f"not below the median SD {s['median_sd']:.4f}")
                     + f"; the same k as {MAIN}'s in {s['same_as_main']} of {s['with_main']}")
    return "; ".join(parts)


def note(facts, dataset: str) -> str:
    """ES22's measured cause on ``dataset`` ("" when the fact was not built)."""
    t = facts.table(FACT)
    if t is None or t.empty:
        return ""
    text = note_for(t[t["dataset"] == dataset])
    return f"the leave-one-out scores of the k's ({EXPERIMENT}): {text}" if text else ""
