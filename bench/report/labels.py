"""The names a reader sees: one variant labeller and the papers' algorithm names.

* Every paper declares ``display_names = {config name: the paper's name}`` in its package
  (:mod:`bench.papers`; e.g. ``eskdb_hdp`` -> ``ESKDB_HDP``, ``nb_disc`` -> ``NB-Disc`` in the
  MassBayes paper), the one mapping from config name to display name of that paper, read here as
  ``DISPLAY_NAMES[paper]``, used by its own tables and figures and
  by the generic summaries of its experiments (through :func:`paper_of`).
* :func:`variant_labels` is the one variant labeller: a label per record, the algorithm name plus
  the parameters that differ when one name was run with several configurations (a swept
  parameter), e.g. ``massbayes[psi=500]``; with ``names`` the algorithm part is the display name
  (``MassBayes[psi=500]``). Labels stay unique: two configs that map to the same display name
  (e.g. ``kdb`` and ``kdb5`` both "KDB") get their config name in brackets. With ``sweep`` (an
  experiment's sweep keys) the parameters are the swept ``algo.`` keys, in the sweep's order,
  read from each record's config: the names :class:`bench.report.context.ExperimentView` keeps
  the variants of an experiment apart by (``ecocnb[code_length=15]``).

Config names stay the keys of every computation and of every CSV's ``algo`` column; only
legends, CD diagrams, rank and test tables and summary tables show display names.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd


class _PaperNames(Mapping):
    """paper key -> {our config name: the paper's algorithm name}, read from the papers'
    declarations (:mod:`bench.papers`) on use."""

    @staticmethod
    def _all() -> dict[str, dict[str, str]]:
        from ..papers import PAPERS

        return {k: dict(p.display_names) for k, p in PAPERS.items()}

    def __getitem__(self, key: str) -> dict[str, str]:
        return self._all()[key]

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: paper key -> {our config name: the paper's algorithm name} (the papers' declarations)
DISPLAY_NAMES: Mapping[str, dict[str, str]] = _PaperNames()


def _flat(d, prefix=""):
    out = {}
    for k, v in (d or {}).items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _lookup(cfg, path: list[str]):
    for part in path:
        if not isinstance(cfg, dict) or part not in cfg:
            return None
        cfg = cfg[part]
    return cfg


def _label(algo: str, parts: list[str], style: str) -> str:
    return f"{algo}[{','.join(parts)}]" if style == "brackets" else f"{algo} ({', '.join(parts)})"


def display_name(algo: str, names: dict[str, str] | None) -> str:
    """The display name of a config (variant) label: ``eskdb_hdp[tying=none]`` ->
    ``ESKDB_HDP[tying=none]`` with ``names = {"eskdb_hdp": "ESKDB_HDP"}``; unknown names unchanged."""
    algo = str(algo)
    if not names:
        return algo
    cut = min([i for i in (algo.find("["), algo.find(" (")) if i >= 0], default=len(algo))
    base, rest = algo[:cut], algo[cut:]
    return names.get(base, base) + rest


def unique_display(algos, names: dict[str, str] | None) -> dict[str, str]:
    """config (variant) label -> display label, unique: configs whose display names collide keep
    their config name in brackets (``KDB (kdb5)``)."""
    algos = list(dict.fromkeys(str(a) for a in algos))
    shown = {a: display_name(a, names) for a in algos}
    count: dict[str, int] = {}
    for s in shown.values():
        count[s] = count.get(s, 0) + 1
    return {a: (s if count[s] == 1 or s == a else f"{s} ({a})") for a, s in shown.items()}


def variant_labels(df: pd.DataFrame, names: dict[str, str] | None = None, keys: str = "all",
                   style: str = "brackets", sweep=None) -> pd.Series:
    """A label per record: the algorithm name (its display name with ``names``), plus the
    parameters that differ when one name was run with several configurations, e.g.
    ``massbayes[psi=500]``. ``keys="estimator"`` looks only at the estimator's parameters;
    ``style="parens"`` spells the parameters ``mctree (alpha=0.0, delta=1)``, the MC-Tree
    report's spelling, which its stored tables and the claim evaluators read.

    ``sweep``: an experiment's sweep keys. Its ``algo.``-prefixed ones (``algo.estimator.code_length``)
    are then the parameters, in sorted order, of every record whose config has them (``ecocnb[code_length=15]``),
    whether or not they differ; a record whose config has none of them keeps its name."""
    if style not in ("brackets", "parens"):
        raise ValueError(f"style must be 'brackets' or 'parens', got {style!r}")
    labels = pd.Series(df["algo"].astype(str).values, index=df.index)
    if sweep is not None:
        # sorted: the plan read back from the evidence (canonical JSON) has its keys sorted, and a label must
        # not depend on whether the records or the evidence were read (the bias-variance facts join on it)
        paths = [k.split(".")[1:] for k in sorted(map(str, sweep)) if k.startswith("algo.")]
        if paths and "algo_config" in df:
            for i, (algo, conf) in enumerate(zip(labels, df["algo_config"])):
                parts = [f"{p[-1]}={v}" for p in paths if (v := _lookup(conf, p)) is not None]
                if parts:
                    labels.iloc[i] = _label(algo, parts, style)
    elif "algo_hash" in df and "algo_config" in df:
        for algo, g in df.groupby("algo"):
            hashes = g["algo_hash"].unique()
            if len(hashes) < 2:
                continue
            conf = {h: g.loc[g["algo_hash"] == h, "algo_config"].iloc[0] or {} for h in hashes}
            flat = {h: _flat(c.get("estimator") if keys == "estimator" else c) for h, c in conf.items()}
            allk = sorted({k for f in flat.values() for k in f})
            varying = [k for k in allk if len({repr(f.get(k)) for f in flat.values()}) > 1]
            if not varying:
                continue
            for h in hashes:
                parts = [f"{k.split('.')[-1]}={flat[h].get(k)}" for k in varying]
                labels[g.index[g["algo_hash"] == h]] = _label(algo, parts, style)
    if names:
        labels = labels.map(unique_display(labels.unique(), names))
    return labels


def paper_of(experiment: str, plan: dict | None = None) -> str | None:
    """The paper an experiment belongs to: the run plan's ``paper``, else its config's."""
    paper = (plan or {}).get("paper")
    if paper:
        return str(paper)
    try:
        from ..experiment_plan import experiment_config

        return experiment_config(experiment).get("paper")
    except (Exception, SystemExit):  # not defined here: no paper, config names are shown
        return None


def names_for(experiment: str, plan: dict | None = None) -> dict[str, str]:
    """The display names of the paper an experiment belongs to (empty when it has none)."""
    return DISPLAY_NAMES.get(paper_of(experiment, plan) or "", {})
