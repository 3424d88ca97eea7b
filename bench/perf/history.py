"""Speed over time: every ``python -m bench.perf`` run appends its headline figures to
``<out>/history.jsonl`` (one JSON object a line: the run's file, date, commit, machine, threads,
whether it was ``--quick``, and :func:`headline` of its rows), and is compared with the last run
on the same machine (:func:`last_on_machine`, :func:`changes`), as asv and pytest-benchmark compare
a run with the stored ones. A figure of a run on another machine is never compared: speed moves
with the machine.

The headline figures (:func:`headline`) are the harness's own cost (:data:`HEADLINE_BENCHMARKS`'
rows), the start-up and whole-run times against their peers, and the learners against Petal; each
as the perf table's ratio, peer seconds / our seconds (> 1: bench is faster), and the harness's
cost per split in milliseconds besides. The perf page draws the same figures across commits
(``bench.report.perf_trend``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

#: benchmarks whose rows are headline figures
HEADLINE_BENCHMARKS = ("harness", "startup", "petal", "weka_cli")
#: the history file under the perf results folder
HISTORY_NAME = "history.jsonl"
#: a change of a figure against the last run on the machine beyond this fraction is called out
NOTABLE = 0.10


def headline(rows: list[dict]) -> dict[str, float]:
    """The headline figures of a run's rows: ``"<benchmark>: <case>"`` -> peer/ours ratio, and
    ``"harness: ms per split"`` for the harness's cost per split (a row with ``unit`` ``s/split``)."""
    out: dict[str, float] = {}
    for r in rows:
        if r.get("benchmark") not in HEADLINE_BENCHMARKS:
            continue
        if r.get("unit") == "s/split" and isinstance(r.get("ours_s"), (int, float)) and r["ours_s"] == r["ours_s"]:
            out[f"{r['benchmark']}: ms per split"] = 1000.0 * float(r["ours_s"])
        ratio = r.get("ratio")
        if isinstance(ratio, (int, float)) and ratio == ratio:
            out[f"{r['benchmark']}: {r.get('case', '')}"] = float(ratio)
    return out


def lower_is_better(name: str) -> bool:
    """Whether a smaller value of headline figure ``name`` is better (a cost) or worse (a ratio)."""
    return name.endswith("ms per split")


def machine(prov: dict) -> str:
    """The machine a run was made on, as runs are compared by: host and CPU model."""
    return f"{prov.get('host', '?')} ({prov.get('cpu', '?')}, {prov.get('n_cpus', '?')} cpus)"


def entry(doc: dict, file: str) -> dict:
    """The history line of a stored run ``doc`` (``provenance``, ``threads``, ``rows``)."""
    prov = doc.get("provenance") or {}
    return {"file": file, "date": doc.get("date") or time.strftime("%Y-%m-%dT%H:%M:%S"),
            "commit": prov.get("git_commit", "unknown"), "machine": machine(prov),
            "threads": doc.get("threads"), "quick": bool(doc.get("quick")), "headline": headline(doc.get("rows", []))}


def read_history(folder: Path) -> list[dict]:
    """The history's entries, oldest first; a line that does not parse (a run killed while writing it)
    is skipped."""
    path = Path(folder) / HISTORY_NAME
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and isinstance(item.get("headline"), dict):
            out.append(item)
    return out


def append_history(folder: Path, item: dict) -> Path:
    """Append ``item`` as one line to the history (one ``write`` of a whole line, so concurrent
    runs do not interleave their lines)."""
    import os

    path = Path(folder) / HISTORY_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(item, sort_keys=True) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    return path


def last_on_machine(history: list[dict], item: dict) -> dict | None:
    """The newest earlier entry made on the same machine with the same threads and quickness, or None."""
    for old in reversed(history):
        if (old.get("machine"), old.get("threads"), bool(old.get("quick"))) == \
                (item.get("machine"), item.get("threads"), bool(item.get("quick"))) and old.get("file") != item.get("file"):
            return old
    return None


def changes(old: dict, new: dict) -> list[dict]:
    """Each headline figure of both runs: its name, the old and new value, the relative change, and
    whether it moved for the worse or the better by more than :data:`NOTABLE`."""
    out = []
    for name in sorted(set(old["headline"]) & set(new["headline"])):
        a, b = float(old["headline"][name]), float(new["headline"][name])
        rel = (b - a) / a if a else float("nan")
        worse = rel > NOTABLE if lower_is_better(name) else rel < -NOTABLE
        better = rel < -NOTABLE if lower_is_better(name) else rel > NOTABLE
        out.append({"figure": name, "old": a, "new": b, "change": rel,
                    "verdict": "worse" if worse else "better" if better else "same"})
    return out


def changes_text(old: dict | None, new: dict) -> str:
    """What the run's headline figures did against the last run on the machine, for the console."""
    if old is None:
        return f"history: the first run on {new['machine']} kept; later runs are compared with it"
    lines = [f"against the last run on this machine ({old['date']}, commit {str(old['commit'])[:12]}); "
             f"peer/ours ratios (> 1: bench faster) and ms per split; a change beyond {NOTABLE:.0%} is named:"]
    for c in changes(old, new):
        mark = {"worse": "  WORSE", "better": "  better"}.get(c["verdict"], "")
        lines.append(f"  {c['figure']}: {c['old']:.4g} -> {c['new']:.4g} ({c['change']:+.0%}){mark}")
    if len(lines) == 1:
        lines.append("  no headline figure in common")
    return "\n".join(lines)
