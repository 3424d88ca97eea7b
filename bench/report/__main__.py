"""``python -m bench.report``: regenerate reports/ from the stored records (through the evidence they
export), or with ``--from-evidence`` from the evidence shipped in reports/evidence alone."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..store import SCALES
from .build import ReportBuildError, build_reports, experiment_only, output_dir_for, paper_of


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.report", description=__doc__)
    ap.add_argument("--results-dir", default=None)
    ap.add_argument("--out", default="reports")
    ap.add_argument("--experiment", action="append", default=None,
                    help="build only this experiment's summary, reports/NAME/ (repeatable): nothing else under --out is "
                         "written (no paper, index or verdict); for a paper's experiments use --paper")
    ap.add_argument("--paper", action="append", default=None, help="only these papers (repeatable); default: all")
    ap.add_argument("--scale", default=os.environ.get("SCALE") or None, choices=SCALES,
                    help="the scale the reports describe for experiments that were not run yet")
    ap.add_argument("--fresh", action="store_true",
                    help="rebuild every paper from what is stored, even with nothing stored (default: keep the "
                         "earlier reports of papers and experiments that have no stored records here)")
    ap.add_argument("--force-scale", action="store_true",
                    help="write into --out even when its reports were built at a larger scale (default: a smaller-"
                         "scale build goes to <out>/scale-<scale>/); it never replaces shipped evidence with a "
                         "smaller run: that takes --replace-evidence")
    ap.add_argument("--replace-evidence", action="append", default=None, metavar="EXPERIMENT",
                    help="replace the evidence shipped in <out>/evidence for this experiment (repeatable) even when "
                         "the stored run is smaller or different (a smaller scale, another protocol, fewer records or "
                         "datasets); without it such a build writes to <out>/scale-<scale>/ or is refused")
    ap.add_argument("--verdicts-only", action="store_true",
                    help="only the verdict stage, from the report files in --out (no stored runs needed): "
                         "verdicts.{md,csv}, each paper's README.md, the verdict head of index.md, the HTML view")
    ap.add_argument("--from-evidence", action="store_true",
                    help="rebuild from the evidence shipped in <out>/evidence alone (no stored records): every "
                         "table, figure and verdict it backs; the reports it does not back stay as committed")
    ap.add_argument("--check", action="store_true",
                    help="with --from-evidence: rebuild into a temporary folder (or --check-into DIR) and compare "
                         "it with --out byte for byte (build-time lines aside); exit 1 on any difference")
    ap.add_argument("--check-into", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    bad = _bad_arguments(args)
    if bad:
        print(f"error: {bad}", file=sys.stderr)
        return 2
    if args.from_evidence:
        return _from_evidence(args)
    if args.verdicts_only:
        from .build import verdicts_only
        from .verdicts import EvaluatorError

        try:
            written = verdicts_only(args.out)
        except EvaluatorError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"wrote {len(written)} files under {args.out}/ (verdicts: {args.out}/verdicts.md, "
              f"index: {args.out}/index.md, {args.out}/index.html)")
        return 0
    if experiment_only(args.experiment, args.paper):
        owned = {e: paper_of(e) for e in args.experiment if paper_of(e)}
        if owned:
            print("error: " + "; ".join(f"experiment {e} belongs to paper {p}" for e, p in owned.items())
                  + ": --experiment rebuilds a user's experiment only (it never touches the papers' reports); "
                  f"rebuild a paper with --paper {' --paper '.join(sorted(set(owned.values())))}", file=sys.stderr)
            return 2
    out, note = output_dir_for(args.out, args.scale, args.force_scale)
    if note:
        print(note, flush=True)
    if not experiment_only(args.experiment, args.paper):
        out, note = _guard_evidence(args, out)
        if out is None:
            print(f"error: {note}", file=sys.stderr)
            return 2
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
    if experiment_only(args.experiment, args.paper):
        print(f"wrote {len(written)} files under {', '.join(f'{out}/{e}/' for e in args.experiment)} "
              f"(nothing else under {out}/ changed)")
    else:
        print(f"wrote {len(written)} files under {out}/ (index: {out}/index.md)")
    return 0


def _bad_arguments(args) -> str | None:
    """What is wrong with the command line, with the fix, before anything is written (None: nothing):
    a paper that is not one of ours, an experiment with neither a config nor stored runs, a
    ``--results-dir`` that is no folder. Each would otherwise give a build that writes the earlier
    reports again and exits 0, as if the named thing had been built."""
    from ..experiment_plan import experiment_names
    from ..papers import PAPERS
    from ..store import results_root

    unknown = [p for p in args.paper or [] if p not in PAPERS]
    if unknown:
        return (f"unknown paper {', '.join(map(repr, unknown))}; the papers are {', '.join(PAPERS)} "
                f"(python -m bench.report --paper <key>)")
    if args.results_dir is not None and not Path(args.results_dir).is_dir():
        return (f"--results-dir {args.results_dir}: no such folder. Give the folder your runs wrote (the results "
                f"root: $BENCH_RESULTS_DIR, else results/), or leave --results-dir out")
    if args.experiment and not (args.from_evidence or args.verdicts_only):
        root, known = results_root(args.results_dir), set(experiment_names())
        lost = [e for e in args.experiment if e not in known and not (root / e).is_dir()]
        if lost:
            return (f"unknown experiment {', '.join(map(repr, lost))}: no conf/experiment/<name>.yaml and nothing "
                    f"stored under {root}/<name>. Defined: {', '.join(sorted(known))}")
    return None


def _guard_evidence(args, out: Path) -> tuple[Path | None, str | None]:
    """Where the build goes so that it never replaces the evidence shipped in ``out`` with a smaller or
    different run (:mod:`bench.report.guard`): ``out``, a ``scale-<scale>`` folder beside it, or None
    with the refusal."""
    from ..store import results_root
    from . import guard
    from .context import ReportContext

    root = results_root(args.results_dir)
    names = guard.selected_experiments(ReportContext(root).stored_experiments(), args.experiment, args.paper)
    where, note = guard.decide(out, guard.check(root, out, names, fresh=args.fresh), args.replace_evidence)
    if where is not None and where != out:   # the folder beside holds its own evidence: guard it too
        found = guard.check(root, where, names, fresh=args.fresh)
        again, refusal = guard.decide(where, found, args.replace_evidence)
        if again is None:
            return None, refusal
    return where, note


def _evidence_source(args) -> tuple[str, str | None, str | None]:
    """(the reports folder whose evidence is read, the folder to build into (None: in place), what is
    wrong). ``--out`` holding evidence is rebuilt in place (or checked); a new or empty ``--out`` is
    filled from the default reports folder's evidence; anything else is refused with the fix."""
    default = _DEFAULT_OUT
    out = Path(args.out)
    if (out / "evidence").is_dir():  # its manifest and files are checked next
        return args.out, None, None
    empty = not out.exists() or (out.is_dir() and not any(out.iterdir()))
    if args.check:
        return args.out, None, (f"--out {args.out} holds no evidence ({args.out}/evidence/MANIFEST.json) to check the "
                                f"reports against; --check compares a reports folder with its own evidence (e.g. "
                                f"--out {default})")
    if empty and (Path(default) / "evidence" / "MANIFEST.json").is_file():
        return default, args.out, None
    return args.out, None, (f"--out {args.out} holds no evidence ({args.out}/evidence/MANIFEST.json); give a new or "
                            f"empty folder to fill from {default}/evidence, or a reports folder with its evidence")


#: the reports folder ``--out`` names by default
_DEFAULT_OUT = "reports"


def _from_evidence(args) -> int:
    import tempfile
    import time

    from .build import rebuild_from_evidence
    from .evidence import EvidenceError, compare_trees

    import shutil

    from .build import verify_evidence

    t0 = time.time()
    src, into, problem = _evidence_source(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        verify_evidence(Path(src) / "evidence")  # before any folder is made or copied
    except EvidenceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    made = None
    if args.check:
        made = None if args.check_into else Path(tempfile.mkdtemp(prefix="bench-evidence-"))
        into = Path(args.check_into) if args.check_into else made / "reports"
    try:
        out, rebuilt, kept = rebuild_from_evidence(src, into, scale=args.scale)
    except (EvidenceError, ReportBuildError) as exc:
        text = "; ".join(exc.failures) if isinstance(exc, ReportBuildError) else str(exc)
        print(f"error: the rebuild from evidence failed: {text}", file=sys.stderr)
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        return 1
    print(f"rebuilt from the evidence of {len(rebuilt)} experiments ({', '.join(rebuilt) or 'none'}) into {out}/ "
          f"in {time.time() - t0:.0f} s")
    if kept:
        print(f"kept as committed, no evidence shipped for them: {', '.join(kept)}")
    if not args.check:
        return 0
    diff = compare_trees(args.out, out)
    if not diff and made is not None:
        shutil.rmtree(made, ignore_errors=True)
    if diff:
        print(f"the rebuild differs from {args.out}/ in {len(diff)} files (build-time lines aside):", file=sys.stderr)
        for line in diff[:50]:
            print(f"  {line}", file=sys.stderr)
        print(f"(the rebuild is in {out}/)", file=sys.stderr)
        return 1
    print(f"identical to {args.out}/ byte for byte, build-time lines aside")
    return 0


if __name__ == "__main__":
    sys.exit(main())
