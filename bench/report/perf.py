"""``reports/perf/``: the newest stored result of every speed benchmark (``make bench-perf``).

``python -m bench.perf`` stores each run as ``results/perf/perf-<time>.json`` (rows of
benchmark, case, our seconds, the peer's seconds measured in the same run, the ratio, a note,
and the run's provenance). For each benchmark the rows of the newest file that has it are
shown, with when, where and at which commit they were measured.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from . import page as P
from .tables import write_table

__all__ = ["perf_runs", "perf_report"]


def perf_runs(results_root: Path) -> list[dict]:
    """Every stored perf run, oldest first (unreadable files are skipped with a note)."""
    runs = []
    for path in sorted((Path(results_root) / "perf").glob("perf-*.json")):
        try:
            run = json.loads(path.read_text())
        except ValueError:
            continue
        run["file"] = path.name
        runs.append(run)
    return runs


def _fmt_s(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return f"{v:.4g}"


def _kept_rows(csv_path: Path, rerun: set[str]) -> list[dict]:
    """Rows of the earlier table for benchmarks with no stored run here (another machine's runs are
    not in this results directory): kept as they were, 'measured' column included, so that a partial
    ``python -m bench.perf NAME ...`` run does not drop the other benchmarks from the report."""
    if not csv_path.exists():
        return []
    old = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    if "benchmark" not in old or "measured" not in old:
        return []
    return [r for r in old.to_dict("records") if r["benchmark"] not in rerun]


def perf_report(runs: list[dict], out: Path) -> tuple[list[Path], list]:
    """Write ``perf.md|tex|csv`` under ``out`` from the stored perf ``runs`` (:func:`perf_runs`, or
    the evidence's); return the files and the bullet items of the index section (page blocks,
    :class:`bench.report.page.Item`; empty when no perf run is stored)."""
    if not runs:
        return [], []
    newest: dict[str, dict] = {}
    for run in runs:  # later files win
        for bench in {r["benchmark"] for r in run.get("rows", [])}:
            newest[bench] = run
    rows = []
    for bench in sorted(newest):
        run = newest[bench]
        prov = run.get("provenance", {})
        when = run["file"].removeprefix("perf-").removesuffix(".json")
        for r in run["rows"]:
            if r["benchmark"] != bench:
                continue
            rows.append({"benchmark": bench, "case": r.get("case", ""), "ours": r.get("ours", ""),
                         "ours s": _fmt_s(r.get("ours_s")), "peer": r.get("peer") or "",
                         "peer s": _fmt_s(r.get("peer_s")),
                         "peer/ours": f"{r['ratio']:.2f}x" if r.get("ratio") else "",
                         "note": r.get("note", ""),
                         "measured": f"{when}, {prov.get('host', '?')}, commit {str(prov.get('git_commit', '?'))[:12]}, "
                                     f"{run.get('threads', '?')} thread(s)"})
    kept = _kept_rows(out / "perf.csv", set(newest))
    rows += kept
    rows.sort(key=lambda r: r["benchmark"])  # stable: each benchmark's rows keep their order
    files = write_table(pd.DataFrame(rows), out / "perf", index=False,
                        caption="Speed benchmarks (`make bench-perf`): our seconds and a peer's measured in the same "
                                "run; peer/ours > 1 means we are faster")
    machines = sorted({f"{r.get('provenance', {}).get('host', '?')} ({r.get('provenance', {}).get('cpu', '?')})"
                       for r in newest.values()})
    kept_b = sorted({r["benchmark"] for r in kept})
    items = [P.Item(f"{len(rows) - len(kept)} rows from {len(newest)} benchmarks ({', '.join(sorted(newest))}), newest "
                    f"stored run of each; measured on {', '.join(machines)}"),
             *([P.Item(f"{len(kept)} rows of {len(kept_b)} benchmarks not stored here ({', '.join(kept_b)}) kept from "
                       "the earlier table, each with its own 'measured' column")] if kept else []),
             P.Item(("table: ", P.link("perf", "perf/perf.md")))]
    from .perf_trend import write_trend

    trend_files, trend_items = write_trend(runs, out)
    return files + trend_files, items + trend_items
