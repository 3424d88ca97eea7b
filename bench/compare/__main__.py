"""``python -m bench.compare`` (``bench compare``): run what is missing, then write the comparison.

    bench compare --algos logreg,nb,a1de --datasets my_data,iris,zoo --protocol cv5x2
    bench compare --experiment my_experiment --scale medium
    bench compare --algos logreg --against ande_sr --datasets iris,zoo    # baselines from shipped evidence

Exit status: 0 when every split ran and the report was written; 1 when splits failed (or a
dataset's folds differ from the evidence's; the report is written from the rest); 2 for a
comparison that cannot run as asked (unknown names, fewer than two algorithms, ...).
"""

from __future__ import annotations

import argparse
import sys
import time

from ..store import SCALES
from pathlib import Path


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="bench compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--experiment", default=None, help="compare the algorithms and datasets of conf/experiment/NAME.yaml")
    ap.add_argument("--scale", default="medium", choices=SCALES,
                    help="with --experiment: the scale whose datasets, protocol and seeds are run (default medium)")
    ap.add_argument("--algos", default=None, help="comma-separated algorithm configs (conf/algo/<name>.yaml)")
    ap.add_argument("--datasets", default=None, help="comma-separated datasets (conf/data/<name>.yaml; "
                    "`bench data add FILE` registers your own)")
    ap.add_argument("--protocol", default=None, help="conf/protocol/<name>.yaml (default cv10)")
    ap.add_argument("--seeds", default=None, help="comma-separated seeds (default 0)")
    ap.add_argument("--baseline", default=None, help="the algorithm every other is compared with (default: the first)")
    ap.add_argument("--against", default=None, metavar="EXPERIMENT",
                    help="read the baselines from the evidence shipped in reports/evidence/EXPERIMENT.* and run only "
                         "--algos, on the experiment's datasets (or those of --datasets), protocol and seeds")
    ap.add_argument("--baselines", default=None, help="with --against: which of the experiment's algorithms to "
                    "compare with (default: all of them)")
    from ..stats.bayes import DEFAULT_ROPES

    ap.add_argument("--rope", default=None, metavar="R[,R...]",
                    help="region(s) of practical equivalence of the Bayesian tests, in the measures' units, for "
                         "every measure (0.01 = one point of error); several separated by commas, the first is the "
                         "summary's (default: each measure's own, "
                         + ", ".join(f"{m} {r:g}" for m, r in DEFAULT_ROPES.items()) + ")")
    ap.add_argument("--name", default=None, help="the report's name (reports/compare/<name>/)")
    ap.add_argument("--out", default=None, help="write the report into this folder instead")
    ap.add_argument("--results-dir", default=None, help="where records are stored (default BENCH_RESULTS_DIR or results)")
    ap.add_argument("--rerun", action="store_true", help="recompute the splits even when stored")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    return ap


def parse_ropes(text: str | None) -> list[float] | None:
    """``--rope 0.001,0.005`` -> [0.001, 0.005]; ValueError naming the bad value."""
    if text is None:
        return None
    out = []
    for t in [t.strip() for t in text.split(",") if t.strip()]:
        try:
            r = float(t)
        except ValueError:
            r = float("nan")
        if not (r == r and 0 <= r < float("inf")):
            raise ValueError(f"--rope {text!r}: {t!r} is not a number >= 0; give e.g. --rope 0.01 or --rope 0.001,0.005")
        out.append(r)
    if not out:
        raise ValueError(f"--rope {text!r}: give at least one number >= 0, e.g. --rope 0.01")
    return list(dict.fromkeys(out))


def bayes_lines(rows) -> list[str]:
    """The console rows of the Bayesian signed-rank results ``rows`` (columns algorithm, rope, p_algorithm,
    p_rope, p_baseline, decision), one per (algorithm, ROPE), in columns that line up whatever the
    lengths of the ROPEs and the algorithms' names: "  ROPE 0.01    a2de     0.001 / 0.999 / 0.000  -> equivalent"."""
    rows = list(rows.itertuples()) if hasattr(rows, "itertuples") else list(rows)
    if not rows:
        return []
    ropes = [f"ROPE {r.rope:g}" for r in rows]
    wr, wa = max(map(len, ropes)), max(len(str(r.algorithm)) for r in rows)
    return [f"  {label:<{wr}}  {str(r.algorithm):<{wa}}  {r.p_algorithm:.3f} / {r.p_rope:.3f} / {r.p_baseline:.3f}"
            + (f"  -> {r.decision}" if r.decision else "")
            for label, r in zip(ropes, rows)]


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        ropes = parse_ropes(args.rope)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from ..data import DataError
    from .runs import CompareError, evidence_baselines, fold_check, output_dir, plan_from_args, run

    t0 = time.perf_counter()
    try:
        plan = plan_from_args(args)
    except (CompareError, DataError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import pandas as pd

    print(f"bench compare {plan.name}: {len(plan.algos)} algorithms ({', '.join(plan.algos)}; baseline {plan.baseline}) "
          f"x {len(plan.datasets)} datasets, protocol {plan.protocol}, seeds {plan.seeds}"
          + (f"; baselines from the shipped evidence of {plan.against}" if plan.against else ""), flush=True)
    for d, why in plan.missing.items():
        print(f"  left out: {d}: {why}", file=sys.stderr)
    outcome = run(plan, args.results_dir, progress=not args.no_progress, rerun=args.rerun)
    records, folds, bad_folds, shipped_bv = outcome.records, None, {}, None
    if plan.against:
        ev, _, shipped_bv = evidence_baselines(plan.against)
        ev = ev[ev["dataset"].isin(plan.datasets) & ev["algo"].isin([a for a in plan.algos if a not in plan.run_algos])]
        if not records.empty:
            folds, bad_folds = fold_check(records, ev)
        for d, why in bad_folds.items():
            print(f"  {d}: not on the evidence's folds ({why}); left out", file=sys.stderr)
        keep = lambda df: df[~df["dataset"].isin(list(bad_folds))]  # noqa: E731
        records = pd.concat([keep(records), keep(ev)], ignore_index=True) if not records.empty else keep(ev)
    from .analysis import analyse
    from .report import write
    from .runs import display_names

    names = plan.algos
    records, plan, notes = display_names(records, plan)
    for line in notes:
        print(f"  note: {line}", file=sys.stderr)
    if shipped_bv is not None and "algo" in shipped_bv.columns:
        shipped_bv = shipped_bv.assign(algo=shipped_bv["algo"].map(dict(zip(names, plan.algos))).fillna(shipped_bv["algo"]))

    if records.empty:
        print("error: no split could be run or read; nothing to compare", file=sys.stderr)
        for line in outcome.failed[:20]:
            print(f"  FAILED: {line}", file=sys.stderr)
        return 1
    comparison = analyse(records, plan.algos, plan.baseline, plan.seeds, shipped_bv, ropes=ropes)
    out = Path(args.out) if args.out else output_dir(plan.name)
    info = {"computed": outcome.computed, "reused": outcome.reused, "failed": outcome.failed,
            "run_seconds": round(outcome.seconds, 3)}
    write(comparison, plan, out, records, info, folds, bad_folds)
    print(f"{outcome.computed} splits computed, {outcome.reused} reused"
          + (f", {int((records['source'] != 'run').sum())} read from the evidence of {plan.against}" if plan.against else "")
          + f", {len(outcome.failed)} failed; {time.perf_counter() - t0:.1f} s")
    b = comparison.bayes
    if b is not None and not b.empty:
        be = b[b["measure"] == "error"]
        print(f"Bayesian signed-rank on error over {int(be['n'].max()) if len(be) else 0} datasets "
              f"(P(algorithm better) / P(equivalent) / P({plan.baseline} better)):")
        for line in bayes_lines(be):
            print(line)
    h = comparison.hierarchical
    if h is not None and not h.empty:
        print(f"Bayesian hierarchical model on error over {int(h['n'].max())} datasets, the next dataset "
              f"(P(algorithm better) / P(equivalent) / P({plan.baseline} better)):")
        for line in bayes_lines(h):
            print(line)
    print(f"report: {out}/README.md (and index.html)")
    if outcome.failed:
        for line in outcome.failed[:20]:
            print(f"FAILED: {line}", file=sys.stderr)
        return 1
    return 1 if bad_folds else 0


if __name__ == "__main__":
    sys.exit(main())
