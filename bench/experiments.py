"""Experiments: ``conf/experiment/<name>.yaml`` = algorithms x datasets x protocol.

An experiment config lists what to run at each scale::

    name: massbayes_table3
    paper: massbayes            # experiments with a paper are run by `make paper-tables`
    description: ...
    algos: [massbayes, a1de]    # or "all" (every conf/algo/*.yaml); names without a
                                # conf/algo/<name>.yaml are skipped and listed in the plan
                                # as `missing_algos` (not implemented yet)
    datasets:                   # a list, or one list per scale
      smoke: [magic]
      medium: [magic, letter]
      full: [magic, letter, covtype_numeric]
    protocol: {smoke: cv2, medium: cv10, full: cv10}   # or one name
    seeds: [0]
    overrides: []               # extra Hydra overrides for every job
    sweep: {}                   # extra swept keys, e.g. {algo.estimator.psi: [500, 5000]}

``python -m bench.experiments run NAME --scale medium`` launches one Hydra
multirun over the available datasets (jobs in parallel, finished splits reused)
and records the plan, including the datasets missing here, in
``results/<name>/_plan.json`` for the reports. An experiment that plans no job (none of its
datasets available here, none of its algorithms implemented) is an error (exit 2, naming them)
unless ``--allow-empty`` is given. The plan itself (scales, registries, the
Hydra command) is in :mod:`bench.experiment_plan`, which the reports and the other
launchers import instead of this module.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from .experiment_plan import (DEFAULT_SCALE, SCALES, algo_names, command, experiment_config,  # noqa: F401
                              experiment_names, plan, results_root, write_plan)


#: the exit status of a run that plans no job (as ``python -m bench`` for a setup it cannot run)
EMPTY_STATUS = 2


def empty_plan_message(p: dict) -> str | None:
    """Why plan ``p`` has no job (its datasets not available here, its algorithms not implemented,
    or every dataset left out by --max-rows/--datasets), naming each; None when it has jobs."""
    if p["datasets"] and p["algos"]:
        return None
    name = p["experiment"]
    lines = [f"[{name}] scale={p['scale']}: nothing to run, the experiment plans 0 jobs"]
    if not p["algos"]:
        lines.append(f"  no algorithm: {', '.join(p['missing_algos']) or 'the list is empty'}"
                     + (" (not implemented yet: no conf/algo/<name>.yaml)" if p["missing_algos"] else ""))
    if not p["datasets"]:
        if not (p["missing_datasets"] or p["skipped_datasets"]):
            lines.append(f"  no dataset: the experiment lists none at scale {p['scale']}")
        for ds, why in p["missing_datasets"].items():
            lines.append(f"  dataset {ds}: {why}")
        for ds, why in p["skipped_datasets"].items():
            lines.append(f"  dataset {ds}: {why}")
    return "\n".join(lines)


def _refuse_empty(p: dict, allow_empty: bool) -> int | None:
    """None when ``p`` has jobs; else print why it has none and return the exit status: 0 with
    ``allow_empty``, else :data:`EMPTY_STATUS`."""
    msg = empty_plan_message(p)
    if msg is None:
        return None
    if allow_empty:
        print(msg + "\n  (--allow-empty: not an error)", flush=True)
        return 0
    hints = []
    if p["missing_datasets"]:
        hints.append("`python -m bench.data check` says what each dataset needs")
    hints.append("--allow-empty accepts an empty experiment")
    print(msg + "\n  " + "; ".join(hints), file=sys.stderr, flush=True)
    return EMPTY_STATUS


def run(name: str, scale: str = DEFAULT_SCALE, jobs: int | None = None, results_dir: str | None = None,
        dry_run: bool = False, allow_failures: bool = False, extra: list[str] | None = None,
        max_rows: int | None = None, only: list[str] | None = None, allow_empty: bool = False) -> int:
    """Run one experiment; ``extra`` Hydra overrides go to every job (e.g. ``["rerun=true"]``);
    ``max_rows`` and ``only`` restrict its datasets (see :func:`plan`). An experiment that plans
    no job (no dataset available, no algorithm implemented) exits :data:`EMPTY_STATUS` naming
    what is missing, unless ``allow_empty``."""
    if experiment_config(name).get("driver") == "scaleup":  # not a Hydra sweep: see bench/scaleup.py
        from .scaleup import run_experiment

        empty = _refuse_empty(plan(name, scale), allow_empty)
        if empty is not None:
            return empty
        try:
            return run_experiment(name, scale, results_dir)
        except SystemExit as exc:  # a setup it cannot run: the message, and run-all goes on
            if isinstance(exc.code, int) or exc.code is None:
                return int(exc.code or 0)
            print(f"[{name}] {exc.code}", file=sys.stderr, flush=True)
            return 1
    if experiment_config(name).get("driver") == "weka":  # run by Weka itself: see bench/weka/experiment.py
        from .weka.experiment import run_experiment as run_weka

        empty = _refuse_empty(plan(name, scale, max_rows=max_rows, only=only), allow_empty)
        if empty is not None:
            return empty
        try:
            return run_weka(name, scale, results_dir, only, rerun="rerun=true" in (extra or []))
        except SystemExit as exc:
            if isinstance(exc.code, int) or exc.code is None:
                return int(exc.code or 0)
            print(f"[{name}] {exc.code}", file=sys.stderr, flush=True)
            return 1
    p = plan(name, scale, max_rows=max_rows, only=only)
    # failed splits are counted below (failed_records); the sweep's own status then means a job
    # could not run at all
    cmd = command(p, jobs, results_dir, ["allow_failures=true", *(extra or [])])
    print(f"[{name}] scale={scale}: {len(p['algos'])} algorithms x {len(p['datasets'])} datasets, "
          f"protocol {p['protocol']}, seeds {p['seeds']}", flush=True)
    if p["missing_datasets"]:
        print(f"[{name}] missing here: {', '.join(p['missing_datasets'])}", flush=True)
    if p["missing_algos"]:
        print(f"[{name}] skipped, not implemented yet: {', '.join(p['missing_algos'])}", flush=True)
    if p["skipped_datasets"]:
        print(f"[{name}] left out by --max-rows/--datasets: {', '.join(p['skipped_datasets'])}", flush=True)
    if dry_run:
        print(" ".join(cmd))
        return 0
    root = results_root(results_dir)
    empty = _refuse_empty(p, allow_empty)
    if empty is not None:
        write_plan(root, p, 0.0, empty)
        return empty
    t0 = time.perf_counter()
    rc = subprocess.call(cmd)
    write_plan(root, p, time.perf_counter() - t0, rc)
    failures = failed_records(root, p)
    if rc != 0:
        print(f"[{name}] the sweep exited with status {rc} (a job could not run; see the sweep summary above)",
              file=sys.stderr)
        return rc
    if failures:
        print(f"[{name}] {len(failures)} failed splits:", file=sys.stderr)
        for f in failures[:20]:
            print(f"  {f}", file=sys.stderr)
        return 0 if allow_failures else 1
    return 0


def failed_records(root: Path, p: dict) -> list[str]:
    from .store import RecordError, load

    try:
        df = load(root, experiment=p["experiment"])
    except RecordError as exc:
        return [str(exc)]
    if df.empty:
        return []
    df = df[df["dataset"].isin(p["datasets"]) & df["algo"].isin(p["algos"])]
    bad = df[~df["status"].isin(["ok", "not_applicable"])]  # not applicable to the dataset: no failure
    return [f"{r.algo} on {r.dataset} r{r.repeat} f{r.fold}: {str(r.error)[:160]}" for r in bad.itertuples()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.experiments", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="every experiment, with its paper")
    for cmd in ("run", "plan"):
        sp = sub.add_parser(cmd, help=f"{cmd} one experiment")
        sp.add_argument("name")
        sp.add_argument("--scale", default=os.environ.get("SCALE", DEFAULT_SCALE), choices=SCALES)
        sp.add_argument("--jobs", type=int, default=None)
        sp.add_argument("--results-dir", default=None)
        sp.add_argument("--allow-failures", action="store_true")
        sp.add_argument("--dry-run", action="store_true", help="print the Hydra command, run nothing")
        sp.add_argument("--allow-empty", action="store_true",
                        help="run: exit 0 when the experiment plans no job (by default that is an error, "
                             "exit 2, naming the datasets not available and the algorithms not implemented)")
        sp.add_argument("--max-rows", type=int, default=None,
                        help="leave out the datasets with more instances than this (recorded in the plan)")
        sp.add_argument("--datasets", default=None,
                        help="comma-separated: run only these of the scale's datasets (recorded in the plan)")
        sp.add_argument("--json", action="store_true", help="plan: print the plan as JSON, without costs")
        sp.add_argument("--out", default=None, help="plan: also write the cost plan to this file")
        sp.add_argument("--launcher", default="local", choices=("local", "slurm"),
                        help="run: slurm submits SLURM job arrays sized by the cost plan (bench/plan.py)")
        sp.add_argument("--partition", default=None, help="run --launcher slurm: the SLURM partition")
        sp.add_argument("--max-job-hours", type=float, default=4.0,
                        help="run --launcher slurm: each job's time limit; longer jobs are chunked")
    ra = sub.add_parser("run-all", help="run every experiment that reproduces a paper")
    ra.add_argument("--scale", default=os.environ.get("SCALE", DEFAULT_SCALE), choices=SCALES)
    ra.add_argument("--jobs", type=int, default=None)
    ra.add_argument("--results-dir", default=None)
    ra.add_argument("--allow-failures", action="store_true", help="exit 0 even when splits failed")
    ra.add_argument("--allow-empty", action="store_true",
                    help="exit 0 even when an experiment plans no job (its datasets not available here)")
    ap.epilog = ("Extra Hydra overrides for every job follow a --, e.g. `run smoke -- rerun=true`; keys absent "
                 "from the composed config need the ++ prefix.")
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    args = ap.parse_args(argv)
    args.hydra_overrides = extra
    if args.cmd == "list":
        if not experiment_names():
            from .paths import conf_dirs

            print(f"error: no experiment config found (searched "
                  f"{', '.join(str(d / 'experiment') for d in conf_dirs())}); this install lacks bench's configs: "
                  f"reinstall bench, or point BENCH_CONF_DIR at a copy of its conf/", file=sys.stderr)
            return 2
        for n in experiment_names():
            c = experiment_config(n)
            print(f"{n:<34} {c.get('paper') or '-':<10} {c.get('description', '')}")
        return 0
    only = args.datasets.split(",") if getattr(args, "datasets", None) else None
    if args.cmd == "plan" and args.json:
        print(json.dumps(plan(args.name, args.scale, max_rows=args.max_rows, only=only), indent=1))
        return 0
    if args.cmd in ("plan", "run") and (args.cmd == "plan" or args.launcher == "slurm"):
        from . import plan as costs  # cost estimate from stored timings; SLURM job arrays

        p = plan(args.name, args.scale, max_rows=args.max_rows, only=only)
        if args.cmd == "plan":
            return costs.main_plan(p, args.results_dir, args.out, False)
        empty = _refuse_empty(p, args.allow_empty)
        if empty is not None:
            return empty
        text, cells = costs.cost_plan(p, args.results_dir)
        print(text.split("\n## ", 1)[0], flush=True)
        t0 = time.perf_counter()
        rc = costs.submit(p, cells, args.max_job_hours, args.partition, args.results_dir,
                          args.hydra_overrides, dry_run=args.dry_run)
        if not args.dry_run:
            write_plan(results_root(args.results_dir), p, time.perf_counter() - t0, rc)
        return rc
    if args.cmd == "run":
        return run(args.name, args.scale, args.jobs, args.results_dir, dry_run=args.dry_run,
                   allow_failures=args.allow_failures, extra=args.hydra_overrides, max_rows=args.max_rows,
                   only=only, allow_empty=args.allow_empty)
    status, statuses = 0, {}
    for n in experiment_names(paper_only=True):
        rc = run(n, args.scale, args.jobs, args.results_dir, allow_failures=args.allow_failures,
                 extra=args.hydra_overrides, allow_empty=args.allow_empty)
        statuses[n] = rc
        status = status or rc
    bad = {n: rc for n, rc in statuses.items() if rc}
    print(f"run-all --scale {args.scale}: {len(statuses) - len(bad)} of {len(statuses)} experiments ran"
          + (": not " + ", ".join(f"{n} (exit {rc}{', nothing to run' if rc == EMPTY_STATUS else ''})"
                                  for n, rc in bad.items()) if bad else ""),
          file=sys.stderr if bad else sys.stdout, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
