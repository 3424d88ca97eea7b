"""Which side of MC-Tree's lead over the Bayes tree falls short (MC05a, MC05b, MC08): both trees against the
anytime nearest neighbour, the yardstick the paper's own text places its two curves against.

The paper prints no point of its Fig. 5 curves, so our Bayes tree cannot be set beside its Bayes tree
directly. Its text, though, places both of its trees against its anytime NN (Ueno et al.'s ordering, the
same algorithm here) on the figure's time axis:

* Pendigits: "The Bayes tree performs only slightly better than the anytime nearest neighbor in the
  beginning before it falls behind", "While the accuracy of the MC-tree is similar to the nearest neighbor
  in later stages, it quickly shows a performance gain over the Bayes tree of three to four percent".
* Letter: "anytime NN and the Bayes tree are again similar, after a short time the nearest neighbor
  bypasses the accuracy of the Bayes tree. The MC-tree outperforms both approaches and reaches accuracy
  values which are up to 15% higher as compared to the Bayes tree".

So in the paper its Bayes tree falls behind its NN in the later stages, and its MC-Tree outperforms the NN
throughout ("outperforms the other two anytime classifiers throughout" on Pendigits, "outperforms both
approaches" on Letter; similar to it in the later stages on Pendigits). :func:`table` measures the same on
our curves of ``mctree_fig5``, at equal mean seconds per query (the Bayes tree's times at :data:`BUDGETS`
Gaussians; each classifier's last state reached by then, fold means), and :func:`note` says which of our two
trees departs from the paper's description: a Bayes tree not behind the NN in the later stages
(:data:`LATER`: the last three of those times) is stronger than the paper's; an MC-Tree more than
:data:`SIMILAR` points behind the NN at any of those times is weaker than the paper's. Times are those of
our engines on one machine (not the paper's Java): the yardstick holds as far as the NN and the trees keep
their relative speed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from bench.report.tables import write_table

EXPERIMENT = "mctree_fig5"
NN, BT, MC = "anytime_nn", "bayestree", "mctree_inf"
#: the Bayes tree's Gaussians whose mean times per query are the comparison times
BUDGETS = (30, 50, 75, 100, 200, 500, 1000, 2000, 5000)
#: the paper's "later stages": the last this many comparison times
LATER = 3
#: "similar": within this many accuracy points (the same as the claim checks' "slightly", MC16)
SIMILAR = 3.0
FACT = f"{EXPERIMENT}_yardstick"


def step_at(t: np.ndarray, acc: np.ndarray, at: float) -> float:
    """Accuracy of an anytime curve at time ``at``: the last state reached by then (NaN if none)."""
    ok = np.flatnonzero(t <= at)
    return float(acc[ok[-1]]) if ok.size else float("nan")


def curves(records: pd.DataFrame, keys=("dataset", "algo")) -> pd.DataFrame:
    """Per record and budget: the record's ``keys`` columns, repeat, fold, budget, accuracy (%), units, seconds."""
    rows = []
    for r in records.itertuples(index=False):
        mbb = r.metrics_by_budget
        if isinstance(mbb, str):
            mbb = json.loads(mbb)
        if not isinstance(mbb, list):
            continue
        for m in mbb:
            if m.get("budget") is None:
                continue
            rows.append({**{k: getattr(r, k) for k in keys}, "repeat": r.repeat, "fold": r.fold,
                         "budget": float(m["budget"]), "accuracy": 100 * m["accuracy"],
                         "units": m.get("mean_units", np.nan), "seconds": m.get("mean_seconds", np.nan)})
    return pd.DataFrame(rows)


def at_equal_time(c: pd.DataFrame) -> pd.DataFrame:
    """Per dataset and comparison time: the three curves' accuracies (fold means) and their differences."""
    out = []
    if c.empty:
        return pd.DataFrame()
    for ds, g in c.groupby("dataset", sort=True):
        if not {NN, BT, MC} <= set(g["algo"]):
            continue
        bt = g[(g["algo"] == BT) & (g["units"] > 0)]
        ref = bt.groupby("budget")["seconds"].mean()
        for b in BUDGETS:
            if float(b) not in ref.index:
                continue
            at = float(ref[float(b)])
            acc = {}
            for algo in (NN, BT, MC):
                vals = []
                for _, f in g[g["algo"] == algo].groupby(["repeat", "fold"]):
                    f = f.sort_values("budget")
                    t = np.where(f["units"].to_numpy(float) > 0, f["seconds"].to_numpy(float), np.inf)
                    vals.append(step_at(t, f["accuracy"].to_numpy(float), at))
                acc[algo] = float(np.nanmean(vals)) if np.isfinite(vals).any() else float("nan")
            out.append({"dataset": ds, "bt_budget": b, "seconds": at, "nn": acc[NN], "bt": acc[BT], "mc": acc[MC],
                        "bt_minus_nn": acc[BT] - acc[NN], "mc_minus_nn": acc[MC] - acc[NN],
                        "mc_minus_bt": acc[MC] - acc[BT]})
    return pd.DataFrame(out)


def table(records: pd.DataFrame, out: Path, facts) -> list[Path]:
    """The table and fact ``mctree_fig5_yardstick`` from the experiment's records (nothing without the three)."""
    ok = records[records["status"] == "ok"] if "status" in records else records
    t = at_equal_time(curves(ok))
    if t.empty:
        return []
    facts.add_table(FACT, t.assign(microseconds=t["seconds"] * 1e6).round(4), f"mctree/{FACT}.csv",
                    about="accuracy (%) of anytime NN, the Bayes tree and MC-Tree at equal mean seconds per query "
                          "(the Bayes tree's times at bt_budget Gaussians; also in microseconds), fold means, and "
                          "their differences")
    show = pd.DataFrame({
        "dataset": t["dataset"], "Bayes tree's Gaussians": t["bt_budget"],
        "us per query": t["seconds"].map(lambda v: f"{v * 1e6:.3g}"),
        "anytime NN": t["nn"].map("{:.2f}".format), "Bayes tree": t["bt"].map("{:.2f}".format),
        "MC-Tree": t["mc"].map("{:.2f}".format),
        "Bayes tree - NN": t["bt_minus_nn"].map("{:+.2f}".format),
        "MC-Tree - NN": t["mc_minus_nn"].map("{:+.2f}".format),
        "MC-Tree - Bayes tree": t["mc_minus_bt"].map("{:+.2f}".format)})
    lines = [f"{ds}: {note_for(t, ds)}" for ds in sorted(set(t["dataset"]))]
    cap = ("mctree_fig5: anytime NN as the yardstick of both trees, at equal mean seconds per query (the Bayes "
           "tree's times at its 50-5000 Gaussians on our engines; accuracy %, fold means). The paper prints no "
           "point of its curves; its text places its Bayes tree behind its anytime NN in the later stages and its "
           "MC-Tree ahead of the NN throughout (similar to it in the later stages on Pendigits). " + " ".join(lines))
    return write_table(show, out / FACT, index=False, caption=cap)


def summary(t: pd.DataFrame, ds: str) -> dict | None:
    g = t[t["dataset"] == ds].sort_values("bt_budget")
    if g.empty:
        return None
    late = g.tail(LATER)
    rng = lambda v: (float(v.min()), float(v.max()))  # noqa: E731
    return {"first_bt_nn": float(g["bt_minus_nn"].iloc[0]), "first_budget": int(g["bt_budget"].iloc[0]),
            "late_bt_nn": rng(late["bt_minus_nn"]), "mc_nn": rng(g["mc_minus_nn"]),
            "late_mc_nn": rng(late["mc_minus_nn"]), "late_mc_bt": rng(late["mc_minus_bt"]),
            "late_budgets": (int(late["bt_budget"].iloc[0]), int(late["bt_budget"].iloc[-1]))}


def note_for(t: pd.DataFrame, ds: str) -> str:
    """Which tree departs from the paper's description on ``ds`` ("" without data): its Bayes tree behind its
    NN in the later stages; its MC-Tree outperforming the NN throughout (on Pendigits "similar" in the later
    stages: not more than :data:`SIMILAR` points behind)."""
    s = summary(t, ds)
    if s is None:
        return ""
    bt_as_paper = s["late_bt_nn"][1] < 0
    mc_as_paper = s["mc_nn"][0] >= -SIMILAR
    side = ("MC-Tree: ours falls short of the paper's, while our Bayes tree behaves as the paper's"
            if bt_as_paper and not mc_as_paper else
            "the Bayes tree: ours is stronger than the paper's, while our MC-Tree behaves as the paper's"
            if mc_as_paper and not bt_as_paper else
            "both trees: ours is a stronger Bayes tree and a weaker MC-Tree than the paper's"
            if not bt_as_paper and not mc_as_paper else
            "neither tree as measured against the NN")
    r = lambda p: f"{p[0]:+.2f} to {p[1]:+.2f}"  # noqa: E731
    return (f"against anytime NN at equal time, our Bayes tree is {s['first_bt_nn']:+.2f} points at its first "
            f"answer ({s['first_budget']} Gaussians' time) and {r(s['late_bt_nn'])} in the later stages "
            f"({s['late_budgets'][0]}-{s['late_budgets'][1]} Gaussians' times), "
            f"{'as' if bt_as_paper else 'where'} the paper's falls behind its NN; "
            f"our MC-Tree is {r(s['mc_nn'])} from the NN over all those times ({r(s['late_mc_nn'])} in the later "
            f"stages; MC-Tree - Bayes tree there {r(s['late_mc_bt'])}), where the paper's outperforms its NN "
            f"(similar within {SIMILAR:g} points at most): the gap is on the side of {side}")


def note(facts, ds: str) -> str:
    t = facts.table(FACT)
    return note_for(t, ds) if t is not None else ""
