"""The papers bench reproduces: one package each, in one explicit list (never discovered).

A paper is one folder, ``bench/papers/<key>/``:

* ``__init__.py`` -- its declaration (:class:`~bench.papers.spec.Paper` ``DECLARATION``): key, seed
  number, title and short name, authors and year, its experiments, the map from its algorithm names to
  our configs, the display names its tables and the generic summaries show, its test and level. It
  imports nothing heavy (no pandas, no matplotlib), so anything may read it.
* ``build.py`` -- ``build(ctx, out) -> PaperResult``: its tables, figures and facts in
  ``reports/<key>/``, run on every build whether or not its experiments ran, listing every missing
  cell (:mod:`bench.report.context`); further modules of the build beside it.
* ``verdicts.py`` -- its claim checks: ``evaluate(reports_dir, claims) -> list[Verdict]`` reading
  only its facts (:mod:`bench.report.verdicts`; the kinds: :mod:`bench.report.verdicts.kinds`).

Its published numbers and claims are its rows of ``bench/published/`` (the verbatim copy of the
papers' printed numbers). Adding a paper: its folder, one line in :data:`PAPERS`, its experiment
YAMLs (``paper: <key>``), its published tables and claim rows in ``bench/published/``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

from . import ande_sr, ecocnb, eskdb, massbayes, mctree
from .spec import Paper

#: paper key -> its declaration, in the order of bench/published (seed numbers 000-004)
PAPERS: dict[str, Paper] = {m.DECLARATION.key: m.DECLARATION for m in (massbayes, ecocnb, eskdb, ande_sr, mctree)}
#: the package of each paper (its modules are named explicitly below, never discovered)
PACKAGES: dict[str, str] = {k: f"{__name__}.{k}" for k in PAPERS}


def build_module(key: str) -> ModuleType:
    """``bench.papers.<key>.build`` (imported on first use: it pulls in pandas and matplotlib)."""
    return importlib.import_module(f"{PACKAGES[key]}.build")


def verdicts_module(key: str) -> ModuleType:
    """``bench.papers.<key>.verdicts``: the paper's claim checks."""
    return importlib.import_module(f"{PACKAGES[key]}.verdicts")


def builds() -> dict[str, Callable]:
    """paper key -> its ``build(ctx, out) -> PaperResult``."""
    return {k: build_module(k).build for k in PAPERS}


def published_cells(paper: str, missing) -> int | None:
    """The published cells the paper's build fills or lists as missing (its ``published_cells()``),
    or None when it has no such count."""
    fn = getattr(build_module(paper), "published_cells", None) if paper in PAPERS else None
    return None if fn is None else int(fn(missing))


def titles() -> dict[str, str]:
    """paper key -> the title its page and index section show."""
    return {k: p.title for k, p in PAPERS.items()}


def display_names(key: str) -> dict[str, str]:
    return dict(PAPERS[key].display_names) if key in PAPERS else {}
