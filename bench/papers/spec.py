"""A paper's declaration: who wrote it, what it runs, and how its names map onto ours."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Paper:
    """One reproduced paper (``bench/papers/<key>/__init__.py`` declares it as ``DECLARATION``).

    ``algorithms`` maps the paper's algorithm names to our config names (a tuple where several of
    ours stand for one of the paper's, the first preferred); ``display_names`` maps every config
    name its tables, legends and the generic summaries of its experiments show to the name a reader
    sees (the paper's, or a name saying what an extra is); ``experiments`` are the conf/experiment
    YAMLs that name the paper (checked by the tests); ``test``/``alpha`` the paper's own significance
    test of its W/D/L claims (``sign1``: one-tailed binomial sign test, p <= alpha; ``sign2``:
    two-tailed, p < alpha; None: the paper has no W/D/L test); ``published`` the stems of its
    tables in ``bench/published/`` (the verbatim copy of the papers' printed numbers, one copy for
    all papers beside ``claims.csv``, so that one ``diff`` checks it against the source); ``measures``
    maps the names the paper gives its measures to the names of our measure registry
    (:data:`bench.measures.MEASURES`, checked by the tests), in the order its tables show them;
    ``cells`` whether the paper prints result cells of its own that its build fills or lists as
    missing (then its ``build.py`` defines ``published_cells(missing) -> int``, the denominator of the
    index's "cells filled"), False for a paper whose numbers are claims and figures only;
    ``datasets`` maps the names of its data set table to our dataset configs (``conf/data/<name>.yaml``),
    beside the ``papers: {<key>: <name>}`` key a dataset config may carry (either says it; saying it
    twice differently is an error)."""

    key: str
    seed: str
    title: str
    short: str
    authors: str
    year: int
    experiments: tuple[str, ...]
    cells: bool
    algorithms: dict = field(default_factory=dict)
    display_names: dict = field(default_factory=dict)
    test: str | None = None
    alpha: float | None = None
    measures: dict = field(default_factory=dict)
    datasets: dict = field(default_factory=dict)

    @property
    def published(self) -> list[str]:
        from pathlib import Path

        # bench/published/ read by path: bench.published reads the declarations (dataset_map), not the reverse
        folder = Path(__file__).resolve().parents[1] / "published"
        return sorted(p.stem for p in folder.glob(f"{self.key}_table*.csv"))
