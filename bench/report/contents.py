"""What a report folder holds, as data: ``<folder>/contents.json`` (Markdown is output only).

Whatever writes a table (:func:`bench.report.tables.write_table`), a figure
(:func:`bench.report.figures.save`) or a notes file into a folder of reports/ records it here at
the same time: its kind (``table``, ``figure``, ``notes``), its stem, its files and its caption
(a table's caption text; a figure's :class:`bench.report.figures.Caption` fields). The paper pages
(:mod:`bench.report.paper_pages`) list a folder's tables and figures, with their captions, from this file
alone, so ``--verdicts-only`` renders them from the committed files without running a paper build,
and no page reads a table's Markdown back.

The items are kept sorted by stem and kind (the file's bytes do not depend on the order things
are written); an item written again (same kind and stem) replaces the earlier one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FILE = "contents.json"
KINDS = ("table", "figure", "notes")


@dataclass(frozen=True)
class Item:
    kind: str
    stem: str
    files: tuple
    caption: object = ""   #: a table's caption (str); a figure's Caption fields (dict), or {"text": ...}


def record(folder: Path, kind: str, stem: str, files: list[Path], caption=None) -> Path:
    """Add (or replace) the item (``kind``, ``stem``) of ``folder``'s contents; return the contents file.
    A table and a figure may share a stem (a figure's data table, ``fig3_scaleup.md`` beside
    ``fig3_scaleup.png``)."""
    if kind not in KINDS:
        raise ValueError(f"contents of {folder}: kind {kind!r} is not one of {KINDS}")
    folder = Path(folder)
    path = folder / FILE
    items = json.loads(path.read_text())["items"] if path.exists() else []
    items = [it for it in items if (it["kind"], it["stem"]) != (kind, stem)]
    items.append({"kind": kind, "stem": stem, "files": sorted(Path(f).name for f in files),
                  "caption": "" if caption is None else caption})
    items.sort(key=lambda it: (it["stem"], it["kind"]))
    path.write_text(json.dumps({"items": items}, indent=1, ensure_ascii=False) + "\n")
    return path


def read(folder: Path) -> list[Item]:
    """The items of ``folder`` (sorted by stem, then kind); [] when the folder records none."""
    path = Path(folder) / FILE
    if not path.exists():
        return []
    out = []
    for it in json.loads(path.read_text()).get("items", []):
        if it.get("kind") not in KINDS:
            raise ValueError(f"{path}: item {it.get('stem')!r} has kind {it.get('kind')!r}, not one of {KINDS}")
        out.append(Item(it["kind"], it["stem"], tuple(it.get("files", ())), it.get("caption", "")))
    return out
