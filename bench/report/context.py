"""What the reports read: stored records, run plans, the registries, and why a cell is missing.

A :class:`ReportContext` is built once per ``python -m bench.report`` run. Paper modules ask it
for an :class:`ExperimentView` per experiment (records of the newest algorithm configs, the
plan of the last run, per (dataset, algo) completeness) and for the reason a (dataset, algo)
cell has no result. Missing cells are collected as :class:`Missing` rows for ``reports/index.md``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..stats import collect
from .labels import variant_labels

#: reason categories, in the order the index lists them
REASONS = (
    "dataset not in the data directory",
    "dataset not available here",
    "algorithm not implemented yet",
    "experiment not defined yet",
    "not run at this scale",
    "not run yet",
    "run failed",
    "incomplete",
)


@dataclass(frozen=True)
class Missing:
    """One missing cell (or figure) of a paper's table, and why."""

    paper: str
    item: str            #: "Table 2", "Fig. 1", ...
    dataset: str         #: the paper's dataset name ('' for a whole item)
    algorithm: str       #: the paper's algorithm name ('' for a whole item)
    reason: str          #: starts with one of REASONS

    @property
    def category(self) -> str:
        for r in REASONS:
            if self.reason.startswith(r):
                return r
        return self.reason.split(":")[0]


@dataclass
class PaperResult:
    """What a paper module wrote and what it could not fill."""

    paper: str
    files: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    notes: list = field(default_factory=list)          #: plain-text lines for the index (one bullet each)
    experiments: list = field(default_factory=list)    #: experiment names the module read
    #: the numbers behind the tables, as data (:mod:`bench.report.facts`); written to facts.json
    facts: "Facts | None" = None

    def __post_init__(self):
        if self.facts is None:
            from .facts import Facts

            self.facts = Facts(self.paper)

    def add_missing(self, item: str, dataset: str, algorithm: str, reason: str) -> None:
        self.missing.append(Missing(self.paper, item, dataset, algorithm, reason))

    def add_missing_cells(self, item: str, exp: "ExperimentView", datasets: pd.DataFrame,
                          algos: dict[str, str]) -> None:
        """A row for every (paper dataset, algorithm) cell of ``item`` that has no complete stored
        run: ``datasets`` is the paper's dataset table (columns ``dataset`` and ``ours``),
        ``algos`` maps the paper's algorithm names to our config names."""
        for r in datasets.itertuples():
            for pa, oa in algos.items():
                why = exp.reason(r.ours or None, oa)
                if why:
                    self.add_missing(item, r.dataset, pa, why)


def status_counts(records: pd.DataFrame) -> dict[str, int]:
    """Stored splits by outcome: ``ok``, ``not_applicable`` (the algorithm does not apply to the
    dataset; not a failure) and ``failed`` (everything else: not computed), of which ``timeout``
    are the splits stopped at their time limit (``time_limit_s``)."""
    if records.empty:
        return {"ok": 0, "not_applicable": 0, "failed": 0, "timeout": 0}
    st = records["status"]
    ok, na = int((st == "ok").sum()), int((st == "not_applicable").sum())
    return {"ok": ok, "not_applicable": na, "failed": len(st) - ok - na, "timeout": int((st == "timeout").sum())}


class ExperimentView:
    """The stored state of one experiment."""

    def __init__(self, ctx: "ReportContext", name: str):
        self.ctx = ctx
        self.name = name
        raw = ctx.load_records(name)
        self.all_records = raw
        self.plan = ctx.plan(name)
        labelled = raw
        sweep = [k for k in (self.plan.get("sweep") or {}) if str(k).startswith("algo.")]
        if sweep and not raw.empty and "algo_config" in raw:   # name the swept variants apart, so that
            # latest_runs keeps one config per variant: ecocnb[code_length=15]
            labelled = raw.assign(base_algo=raw["algo"], algo=variant_labels(raw, sweep=sweep))
        self.records = collect.latest_runs(labelled) if not raw.empty else raw
        prot = self.plan.get("protocol")
        if prot and not self.records.empty:
            self.records = self.records[self.records["protocol"] == prot].reset_index(drop=True)
        self.status = collect.run_status(self.records, self.plan.get("seeds"))
        self._status_index = {(r.dataset, r.algo): r for r in self.status.itertuples()}

    @property
    def defined(self) -> bool:
        return self.ctx.experiment_defined(self.name)

    @property
    def n_records(self) -> int:
        return len(self.records)

    @property
    def n_failed(self) -> int:
        """Stored splits that failed (``not_applicable`` ones are not failures: :attr:`n_not_applicable`)."""
        return status_counts(self.records)["failed"]

    @property
    def n_not_applicable(self) -> int:
        """Stored splits of an algorithm that does not apply to the dataset (e.g. a code longer
        than a k-class problem allows: the paper's blank cells)."""
        return status_counts(self.records)["not_applicable"]

    def complete(self, dataset: str, algo: str) -> bool:
        st = self._status_index.get((dataset, algo))
        return bool(st is not None and st.complete)

    def reason(self, dataset: str | None, algo: str) -> str | None:
        """None when (dataset, algo) has a complete stored run, else why not. Stored runs speak first
        (failed, incomplete); without any, the registries say why (dataset, algorithm, experiment,
        scale)."""
        st = self._status_index.get((dataset, algo)) if dataset else None
        if st is not None:
            if st.complete:
                return None
            if st.n_ok == 0:
                if str(st.error).startswith("not applicable: "):
                    return str(st.error)[:176]
                return f"run failed: {st.error[:160]}"
            extra = f"; {st.n_failed} failed: {st.error[:120]}" if st.n_failed else ""
            return f"incomplete: {st.n_ok} of {st.n_expected} splits{extra}"
        why = self.ctx.dataset_reason(dataset)
        if why:
            return why
        if not self.ctx.algo_registered(collect.base_algo(algo)):
            return f"algorithm not implemented yet: no conf/algo/{collect.base_algo(algo)}.yaml"
        if not self.defined:
            return f"experiment not defined yet: no conf/experiment/{self.name}.yaml"
        skipped = self.plan.get("skipped_datasets") or {}
        if dataset in skipped:
            return skipped[dataset]
        planned = self.plan.get("datasets")
        if planned is not None and dataset not in planned:
            return f"not run at this scale: {dataset} is not in the {self.plan.get('scale')} list"
        return "not run yet"

    def algo_reason(self, algo: str) -> str | None:
        """None when ``algo`` has at least one complete run here, else why not (for whole figures)."""
        st = self.status[self.status["algo"] == algo] if not self.status.empty else self.status
        if not st.empty and st["complete"].any():
            return None
        base = collect.base_algo(algo)
        if not self.ctx.algo_registered(base):
            return f"algorithm not implemented yet: no conf/algo/{base}.yaml"
        if not self.defined:
            return f"experiment not defined yet: no conf/experiment/{self.name}.yaml"
        if st.empty:
            return f"not run yet: no stored runs of {algo} in experiment {self.name}"
        if (st["n_ok"] == 0).all():
            return f"run failed: {st['error'].iloc[0][:160]}"
        return f"incomplete: no complete run of {algo} in experiment {self.name}"

    def algos(self) -> list[str]:
        """Algorithm (variant) names with at least one complete run."""
        if self.status.empty:
            return []
        return sorted(set(self.status.loc[self.status["complete"], "algo"]))

    def means(self, measure: str, datasets: list[str] | None = None) -> pd.DataFrame:
        """Per-dataset means of ``measure`` (datasets x algos), only the rows of ``datasets`` when given."""
        v = collect.dataset_means(self.records, measure, seeds=self.plan.get("seeds")) \
            if not self.records.empty else pd.DataFrame()
        return v if datasets is None or v.empty else v.loc[v.index.intersection(datasets)]

    def splits(self, measure: str) -> pd.DataFrame:
        return collect.split_values(self.records, measure, seeds=self.plan.get("seeds")) \
            if not self.records.empty else pd.DataFrame()

    def hosts(self) -> list[str]:
        if self.records.empty or "host" not in self.records:
            return []
        return sorted(self.records["host"].dropna().astype(str).unique())


class ReportContext:
    """Access to everything a report needs, with caching."""

    def __init__(self, results_root: Path | str | None = None, scale: str | None = None,
                 evidence=None):
        """Read the stored records under ``results_root``, or, with ``evidence`` (a
        :class:`bench.report.evidence.Evidence`), the shipped evidence alone (the records are then
        never read)."""
        from ..store import results_root as _root

        self.root = _root(results_root)
        self.scale = scale
        self.evidence = evidence
        #: experiments whose stored records could not be exported (name -> the error): reading one raises it
        self.broken: dict[str, BaseException] = {}
        self._views: dict[str, ExperimentView] = {}

    # ------------------------------------------------------------ stored state
    def stored_experiments(self) -> list[str]:
        if self.evidence is not None:
            return self.evidence.experiments()
        if not self.root.exists():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and not p.name.startswith("."))

    @functools.lru_cache(maxsize=None)
    def load_records(self, experiment: str) -> pd.DataFrame:
        if experiment in self.broken:
            raise self.broken[experiment]
        if self.evidence is not None:
            return self.evidence.records(experiment)
        from ..store import load

        return load(self.root, experiment=experiment)

    def bias_variance(self, experiment: str, records: pd.DataFrame) -> pd.DataFrame:
        """Kohavi-Wolpert bias and variance per (dataset, algo, protocol) of ``records`` (rows of the
        experiment's view): from the stored predictions, or the evidence's per-instance facts."""
        from ..stats.biasvar import BiasVariance, bias_variance_table

        if self.evidence is None:
            return bias_variance_table(records)
        bv = self.evidence.biasvar(experiment)
        keys = ["dataset", "algo", "protocol"]
        cols = keys + list(BiasVariance.__dataclass_fields__)
        if bv.empty or records.empty:
            return pd.DataFrame(columns=cols)
        groups = records.loc[records["status"] == "ok", keys].drop_duplicates()
        return bv.merge(groups, on=keys)[cols].sort_values(keys, kind="stable").reset_index(drop=True)

    def perf_runs(self) -> list[dict]:
        """The stored speed-benchmark runs (``make bench-perf``), oldest first."""
        if self.evidence is not None:
            return self.evidence.perf_runs()
        from .perf import perf_runs

        return perf_runs(self.root)

    def plan(self, experiment: str) -> dict:
        """The plan of the experiment's last run; without one, what a run at this scale would do."""
        if self.evidence is not None:
            got = self.evidence.plan(experiment)
            if got is not None:
                return got
        path = self.root / experiment / "_plan.json"
        if self.evidence is None and path.exists():
            try:
                return json.loads(path.read_text())
            except ValueError:
                pass
        if self.experiment_defined(experiment):
            from ..experiment_plan import DEFAULT_SCALE, plan

            try:
                return {**plan(experiment, self.scale or DEFAULT_SCALE), "not_run": True}
            except SystemExit:
                return {}
        return {}

    def experiment(self, name: str) -> ExperimentView:
        if name not in self._views:
            self._views[name] = ExperimentView(self, name)
        return self._views[name]

    # ------------------------------------------------------------ registries
    @staticmethod
    def experiment_defined(name: str) -> bool:
        from ..data.registry import conf_dir

        return (conf_dir() / "experiment" / f"{name}.yaml").exists()

    @staticmethod
    def algo_registered(name: str) -> bool:
        return _algo_registered(_registry_key(), name)

    @staticmethod
    def dataset_reason(name: str | None) -> str | None:
        """Why a dataset cannot be used here, or None."""
        return _dataset_reason(_registry_key(), name)

    @staticmethod
    def dataset_notes(name: str) -> str:
        """The config's notes when the mirrored data differ from the paper's (DIFF / PARTIAL)."""
        return _dataset_notes(_registry_key(), name)


def _registry_key() -> tuple:
    """What the registry answers depend on: the config directory and where data are looked
    for. Caches are keyed by it, so a changed BENCH_CONF_DIR / BENCH_DATA_DIR is never
    answered from a stale cache."""
    from ..data.cache import data_dirs
    from ..data.registry import conf_dir

    return (str(conf_dir()), tuple(str(d) for d in data_dirs()))


@functools.lru_cache(maxsize=None)
def _algo_registered(key: tuple, name: str) -> bool:
    return (Path(key[0]) / "algo" / f"{name}.yaml").exists()


@functools.lru_cache(maxsize=None)
def _dataset_reason(key: tuple, name: str | None) -> str | None:
    if not name:
        return "dataset not in the data directory: no conf/data entry maps to it"
    from ..data import DataError
    from ..data.registry import dataset_config, source_available, unavailable_reason

    try:
        cfg = dataset_config(name)
    except DataError:
        return f"dataset not in the data directory: no conf/data/{name}.yaml"
    if not any(source_available(s) for s in cfg.get("sources") or []):
        return f"dataset not available here: {name} ({unavailable_reason(cfg)})"
    return None


@functools.lru_cache(maxsize=None)
def _dataset_notes(key: tuple, name: str) -> str:
    from ..data import DataError
    from ..data.registry import dataset_config

    try:
        notes = str(dataset_config(name).get("notes") or "")
    except DataError:
        return ""
    return notes if ("DIFF" in notes or "PARTIAL" in notes) else ""


def dataset_algo_cells(n_datasets: int, n_algos: int, missing: pd.DataFrame | None = None) -> int:
    """The (dataset, algorithm) cells of a paper whose tables are every dataset of its Table 1 by every
    algorithm: the denominator of the index's "cells filled". With the ``missing`` list of a built
    report, the algorithms are those that build enumerated (the most cells listed for one absent
    dataset), so a report built before an algorithm was added counts right."""
    if missing is not None and not missing.empty:
        whole = missing[missing["category"].str.startswith("dataset") & (missing["dataset"] != "")]
        if not whole.empty:
            n_algos = int(whole.groupby("dataset")["algorithm"].nunique().max())
    return n_datasets * n_algos
