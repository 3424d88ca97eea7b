"""``python -m bench.report``: regenerate reports/ from the stored records."""

from __future__ import annotations

import argparse
import os
import sys

from .build import ReportBuildError, build_reports, output_dir_for


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.report", description=__doc__)
    ap.add_argument("--results-dir", default=None)
    ap.add_argument("--out", default="reports")
    ap.add_argument("--experiment", action="append", default=None,
                    help="only these experiments' generic summaries (repeatable); default: every stored experiment")
    ap.add_argument("--paper", action="append", default=None, help="only these papers (repeatable); default: all")
    ap.add_argument("--scale", default=os.environ.get("SCALE") or None, choices=("smoke", "medium", "full"),
                    help="the scale the reports describe for experiments that were not run yet")
    ap.add_argument("--fresh", action="store_true",
                    help="rebuild every paper from what is stored, even with nothing stored (default: keep the "
                         "earlier reports of papers and experiments that have no stored records here)")
    ap.add_argument("--force-scale", action="store_true",
                    help="write into --out even when its reports were built at a larger scale (default: a smaller-"
                         "scale build goes to <out>/scale-<scale>/)")
    ap.add_argument("--verdicts-only", action="store_true",
                    help="only the verdict stage, from the report files in --out (no stored runs needed): "
                         "verdicts.{md,csv}, each paper's README.md, the verdict head of index.md, the HTML view")
    args = ap.parse_args(argv)
    if args.verdicts_only:
        from .pages import write_verdict_stage

        written = write_verdict_stage(args.out)
        print(f"wrote {len(written)} files under {args.out}/ (verdicts: {args.out}/verdicts.md, "
              f"index: {args.out}/index.md, {args.out}/index.html)")
        return 0
    out, note = output_dir_for(args.out, args.scale, args.force_scale)
    if note:
        print(note, flush=True)
    try:
        written = build_reports(args.results_dir, str(out), args.experiment, scale=args.scale, papers=args.paper,
                                keep_earlier=not args.fresh)
    except ReportBuildError as exc:
        print(f"wrote {len(exc.written)} files under {out}/ (index: {out}/index.md), but {len(exc.failures)} "
              f"reports could not be rebuilt; their earlier files were kept:", file=sys.stderr)
        for f in exc.failures:
            print(f"  - {f}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files under {out}/ (index: {out}/index.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
