"""``python -m bench.perf [NAME ...] [--quick]``: run speed benchmarks and print one table."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..provenance import provenance
from ..resources import limit_threads
from ..summary import format_table
from . import discover, history


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.perf", description=__doc__)
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    ap.add_argument("--quick", action="store_true", help="smaller problem sizes")
    ap.add_argument("--out", default="results/perf")
    ap.add_argument("--threads", type=int, default=1, help="threads per process (default 1: per-core figures)")
    args = ap.parse_args(argv)
    limit_threads(args.threads)
    registry = discover()
    names = args.names or sorted(registry)
    unknown = sorted(set(names) - set(registry))
    if unknown:
        print(f"unknown benchmarks {unknown}; available: {', '.join(sorted(registry))}", file=sys.stderr)
        return 2
    rows = []
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows += registry[name](quick=args.quick)
    table = [[r["benchmark"], r["case"], r["ours"], f"{r['ours_s']:.4f}", r.get("peer") or "",
              f"{r['peer_s']:.4f}" if r.get("peer_s") else "", f"{r['ratio']:.2f}x" if r.get("ratio") else "",
              r.get("note", "")] for r in rows]
    print(format_table(["benchmark", "case", "ours", "ours s", "peer", "peer s", "peer/ours", "note"], table,
                       align="<<<><>><"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"perf-{time.strftime('%Y%m%d-%H%M%S')}.json"
    doc = {"provenance": provenance(), "threads": args.threads, "quick": args.quick,
           "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "rows": rows}
    path.write_text(json.dumps(doc, indent=1, default=str))
    print(f"\nstored: {path}")
    item = history.entry(json.loads(json.dumps(doc, default=str)), path.name)
    before = history.last_on_machine(history.read_history(out), item)
    history.append_history(out, item)
    print(history.changes_text(before, item))
    return 0


if __name__ == "__main__":
    sys.exit(main())
