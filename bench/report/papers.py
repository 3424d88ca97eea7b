"""The papers the reports reproduce: one explicit list, imported here, never discovered.

Each paper is one module (or package) of ``bench/report/`` naming its key in ``PAPER`` and declaring
its display names (:data:`bench.report.labels.DISPLAY_NAMES`) and its published numbers' readers;
its claims are the paper's rows of ``bench/published/claims.csv``, judged by
``bench/report/verdicts/<paper>.py``. Every paper writes its tables and figures one way:
``build(ctx, out) -> PaperResult``, everything in ``reports/<paper>/``, run on every build whether
or not its experiments ran, listing every missing cell and recording its numbers as facts
(:mod:`bench.report.facts`).

Adding a paper: its module, one line in :data:`PAPERS`, its experiment YAMLs (``paper: <key>``),
its published tables and claims in ``bench/published/``, its verdict module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from . import ande_sr, ecocnb, eskdb, massbayes, mctree

#: paper key -> its module, in the order of bench/published (seed numbers 000-004)
PAPERS: dict[str, ModuleType] = {m.PAPER: m for m in (massbayes, ecocnb, eskdb, ande_sr, mctree)}

#: paper key -> build(ctx, out) -> PaperResult
BUILDS: dict[str, Callable] = {k: m.build for k, m in PAPERS.items()}


def published_cells(paper: str, missing) -> int | None:
    """The published cells the paper's build fills or lists as missing (its ``published_cells()``),
    or None when it has no such count."""
    fn = getattr(PAPERS.get(paper), "published_cells", None)
    return None if fn is None else int(fn(missing))
