"""Where ESKDB_M's and SKDB's training time goes, stage by stage (claim ES16: "ESKDB_M with 10 SKDBs needs 25
seconds, which is 1.8 times longer than SKDB"), from the stored runs of experiment ``eskdb_stage_profile``
(``conf/algo/eskdb_m_stages.yaml``, ``skdb_stages.yaml``: eskdb_m and skdb recording their CPU seconds per
stage, :mod:`algorithms.eskdb_probe`).

Per dataset and learner, the mean CPU seconds per training split of each stage: discretisation (SKDB: the
runner's preprocessing, Weka's MDL; ESKDB_M: one sort per numeric column shared by the members, then each
member's randomised MDL and binning), MI/CMI, order sampling, structure, counting, leave-one-out, finalising
and the rest of the training time; ESKDB_M's per member, and a member's cost against SKDB's, stage by stage.

What the paper's implementation shares between members (the ESKDB reference code, icesky0125/ESKDB-on-numerical-
data, ``MDL_R/TwoFoldCV.java``): nothing of the learning. For each member its driver builds a new randomised
MDL discretiser on the training fold, filters the training and test data through it, and builds a new
classifier, which counts the pair statistics, learns the structure, counts the parameters and runs the
leave-one-out pass; the members share only the data in memory. bench's ESKDB_M shares one sort per numeric
column (the scans of Alg. 2 read it) and otherwise does the same per member. :func:`note` words what the
profile shows for ES16's verdict.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench.report.tables import write_table

EXPERIMENT = "eskdb_stage_profile"
FACT = "eskdb_stage_profile"
LEARNERS = {"skdb_stages": "SKDB", "eskdb_m_stages": "ESKDB_M"}
STAGES = ("discretise", "mi_cmi", "order", "structure", "counting", "loo", "finalise", "other")
LABELS = {"discretise": "discretisation", "mi_cmi": "MI and CMI (pass 1)", "order": "order sampling (Alg. 3)",
          "structure": "structure (KDB-maxK parents)", "counting": "counting (pass 2)",
          "loo": "leave-one-out (pass 3)", "finalise": "finalising the estimates", "other": "rest of the training",
          "total": "training (times.train_cpu_s)"}


def stage_times(records: pd.DataFrame) -> pd.DataFrame:
    """Long table: dataset, learner, stage, cpu_s (mean per split), per_member_s, members, member_over_skdb."""
    if records is None or records.empty or "algo" not in records:
        return pd.DataFrame()
    ok = records[records["status"] == "ok"] if "status" in records else records
    ok = ok[ok["algo"].isin(LEARNERS)]
    if ok.empty or "extra.cpu_fit" not in ok:
        return pd.DataFrame()
    rows = []
    for (ds, algo), g in ok.groupby(["dataset", "algo"], sort=True):
        st = {s: g[f"extra.cpu_{s}"].astype(float) for s in STAGES if s not in ("other", "discretise")}
        st["discretise"] = g["extra.cpu_discretise"].astype(float) + g["times.preprocess_fit_cpu_s"].astype(float)
        total = g["times.train_cpu_s"].astype(float)
        st["other"] = total - sum(st[s] for s in st)
        st["total"] = total
        members = int(g["extra.n_members"].iloc[0])
        for s, v in st.items():
            rows.append({"dataset": ds, "learner": LEARNERS[algo], "stage": s, "cpu_s": float(v.mean()),
                         "per_member_s": float(v.mean()) / members, "members": members, "splits": len(g)})
    long = pd.DataFrame(rows)
    sk = long[long["learner"] == "SKDB"].set_index(["dataset", "stage"])["cpu_s"]
    long["member_over_skdb"] = [p / sk[(d, s)] if (d, s) in sk.index and sk[(d, s)] > 0 else np.nan
                                for d, s, p in zip(long["dataset"], long["stage"], long["per_member_s"])]
    return long


def table(ctx, out: Path, facts) -> list[Path]:
    """The table and fact ``eskdb_stage_profile`` (nothing when the experiment has no stored runs)."""
    exp = ctx.experiment(EXPERIMENT)
    long = stage_times(exp.records)
    if long.empty:
        return []
    facts.add_table(FACT, long.round(6), f"eskdb/{FACT}.csv",
                    about="mean training CPU seconds per split of each stage of SKDB and ESKDB_M, per member, and a "
                          "member's cost over SKDB's on the same stage")
    shown = []
    for ds, g in long.groupby("dataset", sort=True):
        sk = g[g["learner"] == "SKDB"].set_index("stage")
        es = g[g["learner"] == "ESKDB_M"].set_index("stage")
        for s in (*STAGES, "total"):
            if s not in es.index or s not in sk.index:
                continue
            shown.append({"dataset": ds, "stage": LABELS[s], "SKDB s": f"{sk.at[s, 'cpu_s']:.4f}",
                          "ESKDB_M s": f"{es.at[s, 'cpu_s']:.4f}",
                          "ESKDB_M per member s": f"{es.at[s, 'per_member_s']:.4f}",
                          "member / SKDB": "" if pd.isna(es.at[s, "member_over_skdb"])
                          else f"{es.at[s, 'member_over_skdb']:.2f}",
                          "ESKDB_M / SKDB": "" if not sk.at[s, "cpu_s"] > 0
                          else f"{es.at[s, 'cpu_s'] / sk.at[s, 'cpu_s']:.2f}"})
    plan = exp.plan
    cap = (f"ESKDB_M and SKDB: training CPU seconds per split by stage ({EXPERIMENT}: protocol "
           f"{plan.get('protocol', '?')}, the folds of eskdb_main; mean over the splits). " + note_from(long))
    return write_table(pd.DataFrame(shown), out / FACT, index=False, caption=cap)


def note_from(long: pd.DataFrame, paper_ratio: float | None = None) -> str:
    """ES16's documented cause from the stage table ("" without it)."""
    if long is None or long.empty:
        return ""
    tot = long[long["stage"] == "total"].pivot(index="dataset", columns="learner", values="cpu_s")
    if not {"SKDB", "ESKDB_M"} <= set(tot.columns):
        return ""
    es = long[long["learner"] == "ESKDB_M"].set_index(["dataset", "stage"])
    members = int(es["members"].iloc[0])
    ratio = tot["ESKDB_M"] / tot["SKDB"]
    member = es.xs("total", level="stage")["member_over_skdb"]
    r = lambda v: f"{np.nanmin(v):.2f}-{np.nanmax(v):.2f}"  # noqa: E731
    pct = lambda v: f"{np.nanmin(v):.0f}-{np.nanmax(v):.0f}%"  # noqa: E731
    share = {s: es.xs(s, level="stage")["cpu_s"] / tot["ESKDB_M"] for s in ("discretise", "loo")}
    over = {s: es.xs(s, level="stage")["member_over_skdb"] for s in ("discretise", "loo", "mi_cmi", "counting")}
    text = (f"stage profile ({EXPERIMENT}, {', '.join(tot.index)}): ESKDB_M / SKDB {r(ratio)}x, its {members} "
            f"members each costing {r(member)} SKDBs: discretisation {r(over['discretise'])}x SKDB's (a randomised "
            f"MDL per member; {pct(100 * share['discretise'])} of ESKDB_M's time), leave-one-out "
            f"{r(over['loo'])}x ({pct(100 * share['loo'])}), MI/CMI {r(over['mi_cmi'])}x, counting "
            f"{r(over['counting'])}x. The authors' code shares no learning between members either (its driver "
            f"builds a randomised discretiser and a whole SKDB per member), so with either code the ratio is about "
            f"{members} x a member's cost over SKDB's")
    if paper_ratio:
        text += (f"; the paper's {paper_ratio:g}x therefore implies a standalone SKDB costing about "
                 f"{members / paper_ratio:.1f} ESKDB members, i.e. a costlier program (SKDB by Martinez et al.), "
                 f"not work shared between members")
    return text


def note(facts, paper_ratio: float | None = None) -> str:
    t = facts.table(FACT)
    return note_from(t, paper_ratio) if t is not None else ""
