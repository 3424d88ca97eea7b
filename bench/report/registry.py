"""Where report modules register themselves.

* ``PAPER_MODULES[paper] = fn(ctx: ReportContext, out_dir: Path) -> PaperResult`` - a paper's tables
  and figures, run on whatever is stored (every paper, whether or not its experiments ran);
* ``PAPER_REPORTS[experiment] = fn(records DataFrame, plan dict, out_dir Path) -> [paths]`` - the
  older per-experiment hook, still honoured.

Every module of ``bench/report/`` that is not part of the framework is imported by
:func:`bench.report.build.discover`, so a new paper module registers itself by being there.
"""

from __future__ import annotations

from typing import Callable

PAPER_MODULES: dict[str, Callable] = {}
PAPER_REPORTS: dict[str, Callable] = {}
