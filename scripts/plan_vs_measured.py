"""A cost plan's estimate beside the measured cost of the run it planned (reports/plans/measured_*.md).

Before a run, save the plan's per-cell estimate (blind: made from the committed reports' timings,
before any record of the run exists):

    PYTHONPATH=. python scripts/plan_vs_measured.py save eskdb_main full plan.json [--datasets a,b]

After the run, compare it with the stored records (split CPU = the records' training + test CPU
seconds; peak = the largest peak RSS of a split; wall = the run's elapsed seconds, given by hand
from the run's log because the store keeps no per-run wall time):

    PYTHONPATH=. python scripts/plan_vs_measured.py compare plan.json RESULTS_DIR [--wall-s 1234] > measured.md
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np


def save(args) -> int:
    from bench import plan as P
    from bench.experiment_plan import plan

    only = args.datasets.split(",") if args.datasets else None
    p = plan(args.experiment, args.scale, only=only)
    _, cells = P.cost_plan(p, None)
    json.dump({"plan": p, "job_overhead_s": P.JOB_OVERHEAD_S, "cells": [c.__dict__ for c in cells]},
              open(args.out, "w"), indent=1, default=str)
    return 0


def compare(args) -> int:
    from bench.store import load

    saved = json.load(open(args.plan))
    p, overhead = saved["plan"], float(saved["job_overhead_s"])
    pred = {(c["label"], c["dataset"]): c for c in saved["cells"] if c["split_s"] is not None}
    df = load(args.results_dir)
    df = df[(df.status == "ok") & df.dataset.isin(p["datasets"]) & df.algo.isin(p["algos"])]
    if "protocol" in df:
        df = df[df.protocol == p["protocol"]]
    out = [f"# {p['experiment']} at scale {p['scale']}: the plan's estimate beside the measured cost", "",
           f"Plan made before the run from the committed reports' timings ({len(pred)} cells); measured: the "
           f"stored records of the run (split CPU = training + test CPU seconds of the records).", "",
           "| algorithm | dataset | splits | predicted split CPU s | measured split CPU s | measured / predicted "
           "| predicted peak MB | measured peak MB |", "|---|---|---|---|---|---|---|---|"]
    ratios, tot_p, tot_m, n_jobs = [], 0.0, 0.0, 0
    for (a, d), g in sorted(df.groupby(["algo", "dataset"])):
        c = pred.get((a, d))
        if c is None:
            continue
        meas = float((g["times.train_cpu_s"] + g["times.test_cpu_s"]).sum())
        pr = float(c["split_s"]) * len(g)
        n_jobs += int(c["jobs"])
        tot_p, tot_m = tot_p + pr, tot_m + meas
        if pr > 0 and meas > 0:
            ratios.append(meas / pr)
        peak = g["memory.peak_rss_mb"].max() if "memory.peak_rss_mb" in g else float("nan")
        out.append(f"| {a} | {d} | {len(g)} | {pr:.1f} | {meas:.1f} | {meas / pr:.2f} | {c['peak_mb']:.0f} | "
                   f"{peak:.0f} |")
    r = np.array(ratios)
    out += ["", f"Split CPU over {len(ratios)} cells: predicted {tot_p / 3600:.3f} h, measured {tot_m / 3600:.3f} h "
                f"(measured / predicted {tot_m / tot_p:.2f}); per cell the geometric mean factor is "
                f"x{np.exp(np.mean(np.abs(np.log(r)))):.2f} (range {r.min():.2f} .. {r.max():.2f}).",
            f"The plan adds {overhead:.0f} s of start-up per job ({n_jobs} jobs: {n_jobs * overhead / 3600:.2f} h); "
            f"its whole estimate was {(tot_p + n_jobs * overhead) / 3600:.2f} CPU h.",
            "Measured peak MB is the worker process's resident set during the split (``peak_rss_mb``): a sweep "
            "worker that ran a larger job before keeps that memory, so on a reused worker it bounds the job's own "
            "need from above."]
    if args.wall_s:
        cores = p.get("n_cpus") or 2
        out.append(f"Measured wall time of the run: {args.wall_s / 3600:.2f} h on {cores} cores "
                   f"(the plan's wall estimate: {(tot_p + n_jobs * overhead) / 3600 / cores:.2f} h if every core is busy).")
    print("\n".join(out))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save")
    s.add_argument("experiment"), s.add_argument("scale"), s.add_argument("out")
    s.add_argument("--datasets", default=None)
    c = sub.add_parser("compare")
    c.add_argument("plan"), c.add_argument("results_dir")
    c.add_argument("--wall-s", type=float, default=None)
    args = ap.parse_args(argv)
    return save(args) if args.cmd == "save" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
