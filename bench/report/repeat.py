"""``python -m bench.report.repeat --results-dir DIR``: do the verdicts survive a second run?

A verdict that rests on timing must not flip when the same experiments are run again. This command
takes a results directory holding a second run of some shipped experiments (the same experiments at
the same scale, e.g. ``BENCH_RESULTS_DIR=DIR python -m bench.experiments run massbayes_fig4_h --scale
medium``), builds their papers from it into a copy of the reports (the shipped reports are not
touched), and compares the two ``verdicts.csv``: for every claim whose numbers moved it prints the
verdict and our figures of both runs, and whether a changed verdict was decided both times (a
contradiction) or in one run only (within timing noise in the other). It exits 1 when a verdict
changed, 0 when every verdict held, and 2 when nothing could be compared (no shipped experiment in
DIR, or a second run smaller than the shipped one, which the evidence guard would not put beside it).

Only the papers of the experiments found in DIR are rebuilt; every other claim keeps its shipped
figures, so a change can only come from the rerun.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from ..paths import shipped_reports_dir
from ..store import SCALES
from .verdicts import NOT_CHECKABLE

#: the columns of verdicts.csv compared between the runs
VERDICT, OURS = "verdict", "ours"


def rerun_experiments(results_dir: Path, evidence: Path) -> list[str]:
    """The shipped experiments (those with evidence in ``evidence``) that ``results_dir`` holds a run of."""
    shipped = {p.name[: -len(".records.parquet")] for p in evidence.glob("*.records.parquet")}
    return sorted(d.name for d in results_dir.iterdir() if d.is_dir() and d.name in shipped)


def compare(first: pd.DataFrame, second: pd.DataFrame) -> pd.DataFrame:
    """Claims whose verdict or figures differ between two verdicts.csv tables (indexed by claim id):
    claim_id, verdict and ours of each run, and whether the verdict changed."""
    both = first[[VERDICT, OURS]].join(second[[VERDICT, OURS]], lsuffix="_1", rsuffix="_2", how="outer")
    both = both.fillna("")
    moved = both[(both[f"{VERDICT}_1"] != both[f"{VERDICT}_2"]) | (both[f"{OURS}_1"] != both[f"{OURS}_2"])]
    changed = moved[f"{VERDICT}_1"] != moved[f"{VERDICT}_2"]
    undecided = moved[f"{VERDICT}_1"].str.startswith(NOT_CHECKABLE) | moved[f"{VERDICT}_2"].str.startswith(NOT_CHECKABLE)
    return moved.assign(changed=changed, contradicted=changed & ~undecided).reset_index()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.report.repeat", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results-dir", required=True, help="the results directory of the second run")
    ap.add_argument("--reports", default=None, help="the reports the first run built (default: the shipped ones)")
    ap.add_argument("--keep", default=None, help="build into this new folder and keep it (default: a temporary one)")
    args = ap.parse_args(argv)
    from .build import paper_of

    reports = Path(args.reports) if args.reports else shipped_reports_dir()
    results = Path(args.results_dir)
    if not (reports / "verdicts.csv").is_file() or not (reports / "evidence").is_dir():
        print(f"error: {reports} holds no verdicts.csv and evidence/ to compare with; give --reports <folder>",
              file=sys.stderr)
        return 2
    if not results.is_dir():
        print(f"error: --results-dir {results}: no such folder", file=sys.stderr)
        return 2
    names = rerun_experiments(results, reports / "evidence")
    papers = sorted({p for p in map(paper_of, names) if p})
    if not papers:
        print(f"error: {results} holds no run of a paper's shipped experiment; run one there first "
              f"(BENCH_RESULTS_DIR={results} python -m bench.experiments run <experiment> --scale <its scale>)",
              file=sys.stderr)
        return 2
    if args.keep and Path(args.keep).exists():
        print(f"error: --keep {args.keep} exists; give a new folder", file=sys.stderr)
        return 2
    tmp = None if args.keep else Path(tempfile.mkdtemp(prefix="bench-repeat-"))
    out = Path(args.keep) if args.keep else tmp / "reports"
    try:
        shutil.copytree(reports, out)
        print(f"second run of {', '.join(names)}: building {', '.join(papers)} into a copy of {reports}", flush=True)
        cmd = [sys.executable, "-m", "bench.report", "--results-dir", str(results), "--out", str(out)]
        for p in papers:
            cmd += ["--paper", p]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0 or any((out / f"scale-{s}").exists() and not (reports / f"scale-{s}").exists()
                                       for s in SCALES):
            print(done.stdout, file=sys.stderr)
            print("error: the second run could not be built beside the first (a smaller or different run goes to "
                  "a scale- folder or is refused): rerun the experiments at the scale they were shipped at",
                  file=sys.stderr)
            return 2
        first = pd.read_csv(reports / "verdicts.csv", dtype=str).set_index("claim_id")
        second = pd.read_csv(out / "verdicts.csv", dtype=str).set_index("claim_id")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    moved = compare(first, second)
    for r in moved.itertuples(index=False):
        mark = ("VERDICT CHANGED: decided both times, differently" if r.contradicted else
                "VERDICT CHANGED: decided in one run, not checkable in the other" if r.changed else "same verdict")
        print(f"\n{r.claim_id}: {mark}\n  run 1: {getattr(r, VERDICT + '_1')}: {getattr(r, OURS + '_1')}"
              f"\n  run 2: {getattr(r, VERDICT + '_2')}: {getattr(r, OURS + '_2')}")
    changed, contradicted = int(moved["changed"].sum()), int(moved["contradicted"].sum())
    print(f"\n{len(moved)} claims' figures moved with the second run of {len(names)} experiments; "
          f"{changed} verdicts changed ({contradicted} decided both times, differently; {changed - contradicted} "
          f"decided in one run only), {len(first) - changed} held")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
