"""Facts: the numbers a paper build computed, as data.

A paper's build computes numbers and then formats them for people ("0.2269 ± 0.0162", "**62/0/5**").
The claim checks, the key figure and the index must not read those display strings back. Instead each
build also records its numbers as *facts*: named tables of plain values (ints, floats, strings, None)
with the report file each one is shown in. The build writes them to ``reports/<paper>/facts.json``,
and later stages read only that file (and the experiment manifests), never Markdown, TeX or display CSVs.

The file is deterministic, so a rebuild from the same evidence gives the same bytes. Tables keep their
column order and row order. Floats are written with Python's shortest round-trip repr. NaN and ±inf
are written as null.

The layout::

    {"paper": "eskdb",
     "tables": {"table3_wdl": {"source": "eskdb/table3_wdl.csv",
                               "about": "W/D/L of ESKDB_M against ...",
                               "columns": ["row", "col", "measure", "wins", ...],
                               "rows": [["ESKDB_M", "NB", "RMSE", 62, ...], ...]}},
     "values": {"n_datasets": {"value": 67, "source": "eskdb/missing.csv", "about": "..."}}}

``source`` names the file a reader can open to see the same numbers as they are displayed. Every
number a verdict quotes must come from a fact, so a verdict's evidence is the ``source`` of the facts
it read (:meth:`Facts.sources`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

FILE = "facts.json"


def _plain(v: Any) -> Any:
    """A JSON value for one cell: numpy scalars become Python ones, NaN/inf/NA become None."""
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else None
    if v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return str(v)


@dataclass
class Facts:
    """The facts of one paper build (see the module docstring)."""

    paper: str
    tables: dict[str, dict] = field(default_factory=dict)
    values: dict[str, dict] = field(default_factory=dict)

    # ---- writing (in a paper's build)
    def add_table(self, name: str, df: pd.DataFrame, source: str, about: str = "") -> None:
        """Record ``df`` (plain values only, no display strings) as the fact table ``name``, shown in
        ``source`` (a path relative to ``reports/``)."""
        if name in self.tables:
            raise ValueError(f"fact table {name!r} recorded twice in {self.paper}")
        rows = [[_plain(v) for v in row] for row in df.itertuples(index=False, name=None)]
        self.tables[name] = {"source": str(source), "about": about, "columns": [str(c) for c in df.columns],
                             "rows": rows}

    def add_value(self, name: str, value: Any, source: str, about: str = "") -> None:
        """Record one value (a number, string, or a small list/dict of them)."""
        if name in self.values:
            raise ValueError(f"fact value {name!r} recorded twice in {self.paper}")
        self.values[name] = {"value": _plain(value), "source": str(source), "about": about}

    def merge(self, other: "Facts") -> None:
        for name, t in other.tables.items():
            if name in self.tables:
                raise ValueError(f"fact table {name!r} recorded twice in {self.paper}")
            self.tables[name] = t
        for name, v in other.values.items():
            if name in self.values:
                raise ValueError(f"fact value {name!r} recorded twice in {self.paper}")
            self.values[name] = v

    def __bool__(self) -> bool:
        return bool(self.tables or self.values)

    def to_json(self) -> str:
        doc = {"paper": self.paper, "tables": self.tables, "values": self.values}
        return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"

    def write(self, folder: Path) -> Path:
        path = Path(folder) / FILE
        path.write_text(self.to_json())
        return path

    # ---- reading (claim checks, pages)
    @classmethod
    def read(cls, path: Path) -> "Facts":
        doc = json.loads(Path(path).read_text())
        return cls(paper=doc["paper"], tables=doc.get("tables", {}), values=doc.get("values", {}))

    @classmethod
    def of_paper(cls, reports: Path, paper: str) -> "Facts":
        """``reports/<paper>/facts.json``, or empty facts when the build has not written it."""
        path = Path(reports) / paper / FILE
        return cls.read(path) if path.exists() else cls(paper=paper)

    def table(self, name: str) -> pd.DataFrame | None:
        """The fact table ``name`` as a DataFrame (None when the build did not record it)."""
        t = self.tables.get(name)
        if t is None:
            return None
        return pd.DataFrame(t["rows"], columns=t["columns"])

    def value(self, name: str, default: Any = None) -> Any:
        v = self.values.get(name)
        return default if v is None else v["value"]

    def source(self, name: str) -> str:
        """The report file fact ``name`` (a table or a value) is shown in."""
        item = self.tables.get(name) or self.values.get(name)
        if item is None:
            raise KeyError(f"no fact {name!r} in {self.paper}'s facts")
        return item["source"]

    def sources(self, *names: str) -> str:
        """The evidence string of a verdict reading these facts: their sources, once each, ';'-joined."""
        return ";".join(dict.fromkeys(self.source(n) for n in names))
