"""The papers bench reproduces: each is one folder, ``bench/papers/<key>/``, and its declaration is the
only list of papers (:data:`PAPERS` is made from the folders, in the order of their seed numbers).

A paper's folder holds:

* ``__init__.py`` -- its declaration (:class:`~bench.papers.spec.Paper` ``DECLARATION``): key (the
  folder's name), seed number, title and short name, authors and year, its experiments, the map from
  its algorithm names to our configs, the display names its tables and the generic summaries show,
  its test and level, whether it prints result cells. It imports nothing heavy (no pandas, no
  matplotlib), so anything may read it.
* ``build.py`` -- ``build(ctx, out) -> PaperResult``: its tables, figures and facts in
  ``reports/<key>/``, run on every build whether or not its experiments ran, listing every missing
  cell (:mod:`bench.report.context`); further modules of the build beside it. With ``cells=True`` in
  the declaration it also defines ``published_cells(missing) -> int``.
* ``verdicts.py`` -- its claim checks: ``evaluate(reports_dir, claims) -> list[Verdict]`` reading
  only its facts (:mod:`bench.report.verdicts`; the kinds: :mod:`bench.report.verdicts.kinds`).

Its published numbers and claims are its rows of ``bench/published/`` (the verbatim copy of the
papers' printed numbers: ``<key>_table<n>_*.csv``, its dataset table ``<key>_table<n>_datasets.csv``,
its rows of ``claims.csv`` and its part of ``settings.yaml``), and its experiments are the YAMLs of
``conf/experiment/`` that say ``paper: <key>``. Adding a paper touches nothing else (docs/DESIGN.md,
"Add a paper").
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Callable

from .spec import Paper


class PaperDeclarationError(ValueError):
    """A folder of bench/papers/ that does not declare a paper as the contract says."""


def _declarations(folder: Path = Path(__file__).parent, package: str = __name__) -> dict[str, Paper]:
    """paper key -> its declaration: every package in ``folder`` (bench/papers/; its ``DECLARATION``), by
    seed number."""
    found = []
    for info in pkgutil.iter_modules([str(folder)]):
        if not info.ispkg or info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{package}.{info.name}")
        decl = getattr(mod, "DECLARATION", None)
        if not isinstance(decl, Paper):
            raise PaperDeclarationError(
                f"bench/papers/{info.name}/__init__.py declares no paper: it needs DECLARATION = "
                f"bench.papers.spec.Paper(key={info.name!r}, seed=..., ...) (docs/DESIGN.md, 'Add a paper')")
        if decl.key != info.name:
            raise PaperDeclarationError(f"bench/papers/{info.name}/: its DECLARATION says key={decl.key!r}; a "
                                        f"paper's key is its folder's name ({info.name!r})")
        found.append(decl)
    seeds: dict[str, str] = {}
    for d in found:
        if d.seed in seeds:
            raise PaperDeclarationError(f"papers {seeds[d.seed]!r} and {d.key!r} both declare seed {d.seed!r}: "
                                        "each paper has its own seed number")
        seeds[d.seed] = d.key
    return {d.key: d for d in sorted(found, key=lambda d: d.seed)}


#: paper key -> its declaration, in the order of the seed numbers (massbayes 000 ... mctree 004)
PAPERS: dict[str, Paper] = _declarations()


def build_module(key: str) -> ModuleType:
    """``bench.papers.<key>.build`` (imported on first use: it pulls in pandas and matplotlib)."""
    return importlib.import_module(f"{__name__}.{key}.build")


def builds() -> dict[str, Callable]:
    """paper key -> its ``build(ctx, out) -> PaperResult``."""
    return {k: build_module(k).build for k in PAPERS}


def published_cells(paper: str, missing) -> int | None:
    """The published cells the paper's build fills or lists as missing (its build's
    ``published_cells(missing)``), or None for a paper that declares it prints none (``cells=False``)."""
    if not PAPERS[paper].cells:
        return None
    fn = getattr(build_module(paper), "published_cells", None)
    if fn is None:
        raise PaperDeclarationError(
            f"paper {paper!r} declares cells=True but bench/papers/{paper}/build.py defines no "
            "published_cells(missing) -> int (the published cells its build fills or lists as missing): "
            "define it, or declare cells=False when the paper prints no result cells of its own")
    return int(fn(missing))
