"""Experiment plans: what an experiment (``conf/experiment/<name>.yaml``) runs at a scale.

The lower half of :mod:`bench.experiments`, shared by the launchers (``bench.experiments``,
``bench.scaleup``, the SLURM submission in ``bench.plan``) and the reports, none of which
needs to import another launcher: the scales, the experiment and algorithm registries,
:func:`plan` (algorithms x available datasets x protocol x seeds), the Hydra command of a
plan, and the ``_plan.json`` a run leaves for the reports. See :mod:`bench.experiments` for
the config format.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from .data import DataError
from .data.registry import conf_dir, dataset_config, source_available, unavailable_reason
from .fileio import atomic_write_bytes
from .paths import config_names, config_path
from .provenance import provenance

from .store import SCALES, results_root  # noqa: F401  (defined once, in the store)

DEFAULT_SCALE = "medium"


def experiment_names(paper_only: bool = False) -> list[str]:
    names = config_names("experiment")
    if paper_only:
        names = [n for n in names if experiment_config(n).get("paper")]
    return names


def experiment_config(name: str) -> dict:
    from omegaconf import OmegaConf

    path = config_path("experiment", name)
    if path is None:
        raise SystemExit(f"unknown experiment {name!r}; available: {', '.join(experiment_names())}")
    cfg = OmegaConf.to_container(OmegaConf.load(path), resolve=False)
    cfg.setdefault("name", name)
    return cfg


def algo_names() -> list[str]:
    return config_names("algo")


def at_scale(value, scale: str):
    if isinstance(value, dict) and value and set(value) <= set(SCALES):
        if scale in value:
            return value[scale]
        for s in SCALES[SCALES.index(scale)::-1]:  # fall back to the next smaller scale
            if s in value:
                return value[s]
        raise SystemExit(f"no setting for scale {scale!r} in {value}")
    return value


def plan(name: str, scale: str = DEFAULT_SCALE, max_rows: int | None = None,
         only: list[str] | None = None) -> dict:
    """What ``run`` would launch: algorithms, available and missing datasets, protocol, seeds.

    ``max_rows`` leaves out the datasets with more instances (by their config's ``expected.rows``)
    and ``only`` keeps just the named datasets of the scale's list; both are recorded in the plan
    as ``skipped_datasets`` (with the reason), so the reports say why those cells are empty."""
    cfg = experiment_config(name)
    algos = at_scale(cfg.get("algos", []), scale)
    if algos == "all":
        algos = algo_names()
    # algorithms without a conf/algo/<name>.yaml are skipped (not implemented yet) and
    # recorded, so the reports can show their cells as missing instead of the run failing
    # an experiment run by Weka itself (driver: weka, bench.weka.experiment) declares its learners in its config
    registered = set(algo_names()) | (set(cfg.get("weka") or {}) if cfg.get("driver") == "weka" else set())
    missing_algos = {a: f"not implemented yet (no conf/algo/{a}.yaml)" for a in algos if a not in registered}
    algos = [a for a in algos if a in registered]
    datasets = at_scale(cfg.get("datasets", []), scale)
    if only:
        unknown = sorted(set(only) - set(datasets))
        if unknown:
            raise SystemExit(f"experiment {name} at scale {scale} has no dataset(s) {', '.join(unknown)}; "
                             f"its datasets: {', '.join(datasets)}")
    available, missing, skipped = [], {}, {}
    for ds in datasets:
        if only and ds not in only:
            skipped[ds] = "not run at this scale: left out by --datasets"
            continue
        try:
            dcfg = dataset_config(ds)
        except DataError as exc:
            raise SystemExit(f"experiment {name}: {exc}") from None
        rows = (dcfg.get("expected") or {}).get("rows")
        if max_rows is not None and rows is not None and int(rows) > max_rows:
            skipped[ds] = f"not run at this scale: {int(rows)} rows, more than --max-rows {max_rows}"
            continue
        if any(source_available(s) for s in dcfg.get("sources") or []):
            available.append(ds)
        else:
            missing[ds] = f"not available here ({unavailable_reason(dcfg)})"
    return {
        "experiment": name,
        "paper": cfg.get("paper"),
        "scale": scale,
        "algos": list(algos),
        "missing_algos": missing_algos,
        "datasets": available,
        "missing_datasets": missing,
        "skipped_datasets": skipped,
        "protocol": at_scale(cfg.get("protocol", "cv10"), scale),
        "seeds": [int(s) for s in at_scale(cfg.get("seeds", [0]), scale)],
        "overrides": list(at_scale(cfg.get("overrides", []), scale) or []),
        "sweep": dict(at_scale(cfg.get("sweep", {}), scale) or {}),
    }


def command(p: dict, jobs: int | None, results_dir: str | None = None, extra: list[str] | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "bench", "-m", f"+experiment={p['experiment']}",
           f"algo={','.join(p['algos'])}", f"data={','.join(p['datasets'])}",
           f"protocol={p['protocol']}", f"seed={','.join(str(s) for s in p['seeds'])}",
           "progress=false"]
    for key, values in p["sweep"].items():
        vals = values if isinstance(values, list) else [values]
        cmd.append(f"{key}={','.join(str(v) for v in vals)}")
    cmd += p["overrides"]
    if jobs:
        cmd.append(f"hydra.launcher.n_jobs={jobs}")
    if results_dir:
        cmd.append(f"results_dir={results_dir}")
    return cmd + list(extra or [])


def write_plan(root: Path, p: dict, seconds: float, rc: int) -> None:
    """Record a finished (or attempted) run's plan in ``<root>/<experiment>/_plan.json`` for the reports.

    A run restricted by ``--datasets``/``--max-rows`` adds to the stored plan of an earlier run of
    the same experiment, scale, protocol, algorithms and seeds instead of replacing it: the
    datasets run are the union of both, a dataset stays "not run at this scale" only when neither
    run had it, the seconds add up and ``runs`` lists each run. (Running the five largest datasets
    after the others must not make the reports forget the others.) An unrestricted run replaces it."""
    path = root / p["experiment"] / "_plan.json"
    stamp = {"seconds": seconds, "exit_status": rc, "finished_at": time.strftime("%Y-%m-%d %H:%M:%S"),
             **{k: v for k, v in provenance().items() if k in ("git_commit", "host", "cpu", "n_cpus")}}
    out = {**p, **stamp, "runs": [{"datasets": list(p["datasets"]), **stamp}]}
    try:
        old = json.loads(path.read_text()) if p.get("skipped_datasets") else None
    except (OSError, ValueError):
        old = None
    same = ("experiment", "scale", "protocol", "algos", "seeds", "overrides", "sweep")
    if old and all(old.get(k) == p.get(k) for k in same):
        datasets = list(old.get("datasets", [])) + [d for d in p["datasets"] if d not in old.get("datasets", [])]
        skipped = {**old.get("skipped_datasets", {}), **p["skipped_datasets"]}
        runs = old.get("runs") or [{"datasets": old.get("datasets", []),
                                    **{k: old.get(k) for k in stamp}}]
        out = {**out, "datasets": datasets,
               "skipped_datasets": {d: why for d, why in skipped.items() if d not in datasets},
               "seconds": float(old.get("seconds") or 0.0) + seconds,
               "exit_status": rc or int(old.get("exit_status") or 0), "runs": runs + out["runs"]}
    atomic_write_bytes(path, json.dumps(out, indent=1).encode())


def algo_config(name: str, overrides: list[str] | tuple = ()) -> dict:
    """The algorithm config ``conf/algo/<name>.yaml`` as ``python -m bench algo=<name>`` composes it
    (through Hydra: defaults lists, interpolations and ``overrides`` such as ``algo.estimator.t=50``),
    resolved to a plain dict, so that a driver outside the Hydra app (``bench.scaleup``,
    ``bench.warm``, ``bench.perf``) runs, and hashes, exactly the config the app would.

    Algorithm configs inherit through the defaults list: a family's shared settings live in
    ``conf/algo/_base/`` (not algorithms: :func:`algo_names` lists ``conf/algo/*.yaml`` only) and
    a config merges them into its own package (``- _base/ecocnb_normal@_here_`` before ``_self_``);
    ``tests/test_config_inheritance.py`` checks every composed config against its stored hash."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import OmegaConf

    from .paths import searchpath_overrides

    if config_path("algo", name) is None:
        raise SystemExit(f"unknown algorithm {name!r}: no conf/algo/{name}.yaml; available: {', '.join(algo_names())}")
    running = GlobalHydra.instance().is_initialized()  # e.g. inside a Hydra app: put it back afterwards
    saved = GlobalHydra.instance().hydra if running else None
    if running:
        GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(conf_dir().resolve()), version_base="1.3"):
            # the algo group alone (no primary config): the same `algo` node as in the app's
            # config, and a conf/ that holds only algo/ (a test's private one) is enough
            cfg = compose(config_name=None, overrides=[f"+algo={name}", *searchpath_overrides(), *overrides])
        return OmegaConf.to_container(cfg.algo, resolve=True)
    finally:
        if running:
            GlobalHydra.instance().clear()
            GlobalHydra.instance().initialize(saved)
