"""The shipped evidence is never replaced by a smaller or different run unless it is asked for by name.

A report build exports the records of every experiment it reads from the results directory into
``<out>/evidence/`` and rebuilds that experiment's reports from them. When the stored run is smaller
than the one the shipped evidence holds, that would silently swap the papers' full-scale numbers for
a smoke run's. Before anything is written, :func:`check` compares, per experiment the build would
export, the stored run with the evidence in ``<out>/evidence/MANIFEST.json``:

* its **scale** (smoke < medium < full; a run with no plan, an ad-hoc run, counts as below every scale),
* its **protocol**,
* its **record count**,
* its **datasets** (every dataset of the shipped records must be stored),

and, for ``--fresh`` (which drops what is not stored here), every shipped experiment not stored here.
Each shortfall is a :class:`Shortfall`. :func:`decide` turns them into where the build goes: the
output folder as asked (none, or all named with ``--replace-evidence``), ``<out>/scale-<scale>/``
when every shortfall is a run at one smaller scale (as a smaller ``--scale`` does), or a refusal that
names each experiment, what is stored against what is shipped, and the fixes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..store import SCALES

__all__ = ["Shortfall", "check", "decide", "selected_experiments"]


@dataclass(frozen=True)
class Shortfall:
    """Why exporting ``experiment`` would replace its shipped evidence with less."""

    experiment: str
    stored: str           # the stored run, in words ("scale smoke, protocol cv2, 550 records")
    shipped: str          # the shipped evidence, in words
    reasons: tuple        # what is smaller or different, in words
    scale: str | None     # the stored run's scale (None: no plan, or not stored)

    def line(self) -> str:
        return (f"{self.experiment}: {'; '.join(self.reasons)} (stored here: {self.stored}; shipped in the evidence: "
                f"{self.shipped})")


def selected_experiments(stored: list[str], experiments: list[str] | None, papers: list[str] | None) -> list[str]:
    """The stored experiments a build exports and summarises: the named ones; with ``--paper`` only,
    those papers' experiments; else every stored one (the speed benchmarks apart)."""
    from .paper_pages import paper_experiments

    if experiments:
        return [e for e in experiments if e in stored]
    if papers:
        mine = {e for p in papers for e in paper_experiments(p)} | set(papers)
        return [e for e in stored if e in mine]
    return [e for e in stored if e != "perf"]


def _manifest(out: Path) -> dict:
    path = out / "evidence" / "MANIFEST.json"
    try:
        return json.loads(path.read_text()).get("experiments") or {}
    except (OSError, ValueError):
        return {}


def _shipped_datasets(out: Path, experiment: str) -> set[str]:
    import pyarrow.parquet as pq

    path = out / "evidence" / f"{experiment}.records.parquet"
    try:
        col = pq.read_table(path, columns=["dataset"]).column("dataset").to_pylist()
    except Exception:  # unreadable evidence is named by the build's own manifest check
        return set()
    return {d for d in col if d is not None}


def _rank(scale: str | None) -> int:
    return SCALES.index(scale) if scale in SCALES else -1


def _words(scale, protocol, records) -> str:
    return f"scale {scale or 'none (ad hoc runs)'}, protocol {protocol or '-'}, {records} records"


def check(results_root: Path, out: Path, names: list[str], fresh: bool = False) -> list[Shortfall]:
    """Every shortfall of a build that exports ``names`` (stored experiments under ``results_root``)
    into ``out``; with ``fresh``, the shipped experiments it would drop too. Reads the stored records'
    index (:func:`bench.store.load`) and plans, and the shipped manifest; writes nothing."""
    from ..store import load

    shipped = _manifest(out)
    found: list[Shortfall] = []
    for name in names:
        ship = shipped.get(name)
        if not ship:
            continue
        try:
            df = load(results_root, experiment=name)
        except Exception:  # a corrupt record: the build names it and keeps that experiment's earlier files
            continue
        plan_path = results_root / name / "_plan.json"
        try:
            plan = json.loads(plan_path.read_text()) if plan_path.exists() else {}
        except ValueError:
            plan = {}
        scale, protocol, n = plan.get("scale"), plan.get("protocol"), int(len(df))
        reasons = []
        if _rank(scale) < _rank(ship.get("scale")):
            reasons.append(f"a smaller scale ({scale or 'no plan'} < {ship.get('scale')})")
        if ship.get("protocol") and protocol != ship.get("protocol"):
            reasons.append(f"another protocol ({protocol or 'none'} instead of {ship.get('protocol')})")
        if n < int(ship.get("records") or 0):
            reasons.append(f"fewer records ({n} < {ship.get('records')})")
        have = set(df["dataset"].dropna().astype(str)) if "dataset" in df else set()
        lost = sorted(_shipped_datasets(out, name) - have)
        if lost:
            reasons.append(f"{len(lost)} shipped datasets not stored ({', '.join(lost[:6])}"
                           f"{', ...' if len(lost) > 6 else ''})")
        if reasons:
            found.append(Shortfall(name, _words(scale, protocol, n),
                                   _words(ship.get("scale"), ship.get("protocol"), ship.get("records")),
                                   tuple(reasons), scale))
    if fresh:
        for name, ship in sorted(shipped.items()):
            if name not in names:
                found.append(Shortfall(name, "nothing", _words(ship.get("scale"), ship.get("protocol"),
                                                                ship.get("records")),
                                       ("--fresh would drop its evidence: nothing of it is stored here",), None))
    return found


def decide(out: Path, found: list[Shortfall], replace: list[str] | None) -> tuple[Path | None, str | None]:
    """Where a build with these shortfalls writes: (folder, note) to go on, or (None, message) to
    refuse. ``replace`` names the experiments whose shipped evidence the user asked to replace."""
    named = set(replace or [])
    left = [s for s in found if s.experiment not in named]
    if not left:
        return out, None
    scales = {s.scale for s in left}
    if len(scales) == 1 and None not in scales and all(s.reasons[0].startswith("a smaller scale") for s in left):
        (scale,) = scales
        beside = out / f"scale-{scale}"
        return beside, (f"the evidence in {out}/evidence is from larger runs than the ones stored here "
                        f"({'; '.join(s.line() for s in left)}); this scale-{scale} build writes to {beside}/ "
                        f"instead, and {out}/ is left as it is (to replace the shipped evidence, name it: "
                        f"--replace-evidence {' --replace-evidence '.join(s.experiment for s in left)})")
    lines = "\n".join(f"  - {s.line()}" for s in left)
    names = " ".join(f"--replace-evidence {s.experiment}" for s in left)
    return None, (f"this build would replace the evidence shipped in {out}/evidence with smaller or different runs:\n"
                  f"{lines}\nNothing was written. Either finish those runs (python -m bench.experiments run NAME "
                  f"--scale SCALE resumes them), build into another folder (--out DIR), build other papers "
                  f"(--paper KEY), or, to replace the shipped evidence on purpose, name each experiment: {names}")
