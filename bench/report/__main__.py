"""``python -m bench.report``: regenerate reports/ from the stored records."""

from __future__ import annotations

import argparse
import sys

from .build import build_reports


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.report", description=__doc__)
    ap.add_argument("--results-dir", default=None)
    ap.add_argument("--out", default="reports")
    ap.add_argument("--experiment", action="append", default=None,
                    help="only these experiments (repeatable); default: every stored experiment")
    args = ap.parse_args(argv)
    written = build_reports(args.results_dir, args.out, args.experiment)
    print(f"wrote {len(written)} files under {args.out}/ (index: {args.out}/index.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
