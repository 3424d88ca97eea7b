"""The published numbers of the five seed papers, as data the reports read.

The CSV and YAML files in this package are the verbatim copy of the papers' printed numbers (their
conventions are in ``PAPER_README.md``): one row per printed table cell, every number kept as the
printed string; a paper's files are ``<paper>_table<n>_<what>.csv``, its data set table the one named
``<paper>_table<n>_datasets.csv``, its claims its rows of ``claims.csv``. This module loads them and
maps the papers' dataset names to ours through the ``papers:`` key of each ``conf/data/<name>.yaml``.

>>> from bench import published
>>> published.table("ande_sr", 4).head()          # ande_sr_table4_wdl_01loss.csv
>>> published.wdl("ande_sr", 2)                    # WDL rows with integer counts
>>> published.dataset_map("ande_sr")["Letter Recognition"]
'letter'
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pandas as pd

DIR = Path(__file__).resolve().parent


class PublishedError(KeyError):
    pass


def files(paper: str | None = None) -> list[Path]:
    """The published CSV files, optionally of one paper."""
    pat = f"{paper}_table*.csv" if paper else "*_table*.csv"
    return sorted(DIR.glob(pat))


def table_path(paper: str, number: int) -> Path:
    hits = [p for p in files(paper) if re.match(rf"{re.escape(paper)}_table{int(number)}_", p.name)]
    if not hits:
        have = ", ".join(p.stem for p in files(paper)) or "none"
        raise PublishedError(f"no published Table {number} for paper {paper!r} (have: {have})")
    return hits[0]


@functools.lru_cache(maxsize=None)
def _read(path: str) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def table(paper: str, number: int) -> pd.DataFrame:
    """A published table as printed: every cell a string ('' = blank / N/A in the paper)."""
    return _read(str(table_path(paper, number))).copy()


def wdl(paper: str, number: int) -> pd.DataFrame:
    """A published win/draw/loss table with integer ``wins``, ``draws``, ``losses``.

    Orientation (README): a row reads "row_algorithm vs col_algorithm"; ``wins`` counts
    datasets on which the row algorithm is better.
    """
    df = table(paper, number)
    need = {"row_algorithm", "col_algorithm", "subset", "measure", "wins", "draws", "losses"}
    if not need <= set(df.columns):
        raise PublishedError(f"{table_path(paper, number).name} is not a win/draw/loss table")
    for c in ("wins", "draws", "losses"):
        df[c] = df[c].astype(int)
    return df


def values(paper: str, number: int) -> pd.DataFrame:
    """A published table of numbers: adds ``value_num`` (float, NaN when blank) beside the printed ``value``."""
    df = table(paper, number)
    if "value" not in df.columns:
        raise PublishedError(f"{table_path(paper, number).name} has no `value` column")
    df["value_num"] = pd.to_numeric(df["value"], errors="coerce")
    if "plusminus" in df.columns:
        df["plusminus_num"] = pd.to_numeric(df["plusminus"], errors="coerce")
    return df


@functools.lru_cache(maxsize=1)
def settings() -> dict:
    """Every parameter the papers give, with verbatim quotes (``settings.yaml``)."""
    import yaml

    return yaml.safe_load((DIR / "settings.yaml").read_text())


def claims(paper: str | None = None) -> pd.DataFrame:
    """Numeric and qualitative claims of the running text (``claims.csv``)."""
    df = _read(str(DIR / "claims.csv")).copy()
    return df[df["paper"] == paper].reset_index(drop=True) if paper else df


def dataset_table_path(paper: str) -> Path:
    """The paper's data set table: its published file ``<paper>_table<n>_datasets.csv`` (its "Table 1";
    MassBayes: Table 2)."""
    hits = [p for p in files(paper) if re.fullmatch(rf"{re.escape(paper)}_table\d+_datasets\.csv", p.name)]
    if len(hits) != 1:
        raise PublishedError(
            f"paper {paper!r} has {len(hits)} published data set tables ({', '.join(p.name for p in hits)}): keep one"
            if hits else f"paper {paper!r} has no published data set table: add bench/published/{paper}_table<n>_"
            "datasets.csv, its table of data sets as printed (columns dataset and rows at least; PAPER_README.md)")
    return hits[0]


def datasets(paper: str) -> pd.DataFrame:
    """The paper's dataset table plus ``ours`` (our dataset name, '' when none maps to it)."""
    df = _read(str(dataset_table_path(paper))).copy()
    if not {"dataset", "rows"} <= set(df.columns):
        raise PublishedError(f"{dataset_table_path(paper).name} needs the columns dataset and rows (PAPER_README.md)")
    back = dataset_map(paper)
    df["ours"] = [back.get(name, "") for name in df["dataset"]]
    df["rows"] = pd.to_numeric(df["rows"], errors="coerce")
    return df


def dataset_map(paper: str) -> dict[str, str]:
    """Paper dataset name -> our dataset name, from the ``papers:`` key of conf/data/*.yaml."""
    return {paper_name: ours for ours, paper_name in our_dataset_names(paper).items()}


@functools.lru_cache(maxsize=None)
def our_dataset_names(paper: str) -> dict[str, str]:
    """Our dataset name -> the paper's name for it (only datasets that map to the paper): the ``papers:``
    key of conf/data/*.yaml and the ``datasets`` map of the paper's declaration (:mod:`bench.papers`)."""
    import yaml

    from ..data.registry import conf_dir
    from ..papers import PAPERS

    out = {}
    for p in sorted((conf_dir() / "data").glob("*.yaml")):
        cfg = yaml.safe_load(p.read_text()) or {}
        name = (cfg.get("papers") or {}).get(paper)
        if name:
            out[cfg.get("name", p.stem)] = str(name)
    declared = PAPERS[paper].datasets if paper in PAPERS else {}
    for name, ours in declared.items():
        if out.get(ours, name) != name:
            raise PublishedError(f"dataset {ours!r} is {out[ours]!r} in conf/data/{ours}.yaml's papers.{paper} but "
                                 f"{name!r} in bench/papers/{paper}/'s DECLARATION.datasets: keep one")
        out[ours] = str(name)
    return out
