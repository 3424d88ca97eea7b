"""Experiments run by Weka 3.6 itself on the harness's folds, stored as records like any other run.

An experiment with ``driver: weka`` (``conf/experiment/ande_sr_weka_rf.yaml``) declares its Weka learners
under ``weka:``, one entry per algorithm name, instead of ``conf/algo`` configs (a Weka learner is not a
scikit-learn estimator and needs Weka installed, which a ``conf/algo`` config may not)::

    driver: weka
    algos: [rf10_wekajar]
    weka:
      rf10_wekajar:
        description: Weka 3.6 RandomForest -I 10 -K 0, run by Weka
        classifier: weka.classifiers.trees.RandomForest
        options: [-I, "10", -K, "0", -S, "{seed}"]
        filter: null            # or {class: weka.filters.supervised.attribute.Discretize, options: []}

Every split of a dataset runs in one JVM (:func:`bench.weka.batch.run_splits`); the splits are
:mod:`bench.protocols`' for the experiment's protocol and seed, the folds every stored run of that
dataset used, and ``{seed}`` is each split's estimator seed (:func:`bench.runner.estimator_seed`). Each
split becomes one record in the normal store (experiment, dataset, algorithm name and config hash,
protocol, seed, data and protocol identity, as :func:`bench.runner.run_job` keys them), with the
metrics computed by :mod:`bench.metrics` from Weka's class distributions, which the ``.npz`` holds;
``times.fit_cpu_s`` / ``times.predict_cpu_s`` are the CPU seconds of the JVM thread that built and
classified (Weka's filter, when there is one, is not timed: the papers leave discretisation out),
the wall seconds beside them; a BayesNet's parents and table sizes go in ``extra``. The record's
``code_files`` are the Java drivers, this bridge, the ARFF writer, the metrics code and the Weka jar (its sha256), so
a record made with another jar or driver is recomputed. A dataset whose splits are all stored with
this code is reused whole.

``python -m bench.weka.experiment NAME [--scale medium] [--datasets a,b]``, or ``python -m
bench.experiments run NAME``, which delegates here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import traceback
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .. import metrics as M
from ..data import load
from ..data.registry import dataset_config
from ..experiment_plan import experiment_config, plan, results_root, write_plan
from ..protocols import resolve, splits
from ..provenance import provenance
from ..runner import algo_identity, estimator_seed
from ..store import RunKey, Store, config_hash, data_identity, protocol_identity, setup_hash
from . import available, weka_jar
from .batch import run_splits
from .folds import _protocol

DRIVER = "weka"
_HERE = Path(__file__).resolve().parent
_CODE = ("WekaFolds.java", "WekaIO.java", "batch.py", "experiment.py")


def weka_algos(cfg: dict) -> dict[str, dict]:
    """The Weka learners an experiment config declares (``weka:``), each as the record's algorithm
    config: name, description and the ``weka`` block (classifier, options, filter)."""
    out = {}
    for name, spec in (cfg.get("weka") or {}).items():
        if not isinstance(spec, dict) or not spec.get("classifier"):
            raise SystemExit(f"experiment {cfg.get('name')}: weka learner {name!r} needs a `classifier` "
                             "(a Weka class name, e.g. weka.classifiers.trees.RandomForest)")
        filt = spec.get("filter")
        out[name] = {"name": name, "family": spec.get("family", "weka"),
                     "description": spec.get("description", ""),
                     "weka": {"classifier": str(spec["classifier"]),
                              "options": [str(o) for o in spec.get("options") or []],
                              "filter": None if not filt else {"class": str(filt["class"]),
                                                               "options": [str(o) for o in filt.get("options") or []]}}}
    return out


def code_files() -> dict[str, str]:
    """The code behind a record: the bridge's files, the metrics code and the Weka jar."""
    from ..codeid import harness_sources

    out = {f"bench/weka/{f}": hashlib.sha256((_HERE / f).read_bytes()).hexdigest()[:16] for f in _CODE}
    # the ARFF the JVM reads (bench.data.readers.write_arff)
    out["bench/data/readers.py"] = hashlib.sha256((_HERE.parent / "data" / "readers.py").read_bytes()).hexdigest()[:16]
    out["bench/metrics.py"] = harness_sources()["bench/metrics.py"]
    jar = weka_jar()
    out["weka.jar"] = hashlib.sha256(Path(jar).read_bytes()).hexdigest()[:16] if jar else "absent"
    return dict(sorted(out.items()))


def _fingerprint(files: dict) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]


def _records(algo_cfg, ds, todo, results, context) -> list[tuple[dict, dict]]:
    out = []
    for s, r in zip(todo, results):
        if r.error is not None:     # stored as failed, as the runner stores a split that raised
            out.append(({**context, "repeat": int(s.repeat), "fold": int(s.fold), "n_train": int(s.train.size),
                         "n_test": int(s.test.size), "train_size": s.train_size, "status": "failed",
                         "error": f"Weka: {r.error}", "traceback": None}, None))
            continue
        proba = np.asarray(r.proba, dtype=np.float64)
        yte = ds.y[s.test]
        t = r.times
        rec = {**context, "repeat": int(s.repeat), "fold": int(s.fold), "n_train": int(s.train.size),
               "n_test": int(s.test.size), "train_size": s.train_size, "status": "ok",
               "metrics": M.all_metrics(yte, proba),
               "times": {"preprocess_fit_cpu_s": 0.0, "preprocess_fit_wall_s": 0.0,
                         "fit_cpu_s": t["train_cpu_s"], "fit_wall_s": t["train_wall_s"],
                         "preprocess_predict_cpu_s": 0.0, "preprocess_predict_wall_s": 0.0,
                         "predict_cpu_s": t["test_cpu_s"], "predict_wall_s": t["test_wall_s"],
                         "train_cpu_s": t["train_cpu_s"], "test_cpu_s": t["test_cpu_s"]},
               "estimator_random_state": estimator_seed(context["seed"], s.repeat, s.fold)}
        if r.structure:
            cells = r.table_cells()
            rec["extra"] = {"n_families": len(r.structure), "family_cells": int(sum(cells)),
                            "max_parents": max(len(p) for _, _, p in r.structure),
                            "n_arcs": sum(len(p) for _, _, p in r.structure),
                            "parents": [list(p) for _, _, p in r.structure],
                            "cardinality": [int(c) for _, c, _ in r.structure]}
        preds = {"test_index": s.test.astype(np.int64), "y_true": yte.astype(np.int32), "proba": proba}
        out.append((rec, preds))
    return out


def run_dataset(exp: str, dataset: str, algo_cfg: dict, protocol_name: str, seed: int, root: Path,
                rerun: bool = False) -> tuple[int, int, float]:
    """Run (or reuse) every split of one Weka learner on one dataset: (computed, reused, seconds)."""
    ds = load(dataset)
    protocol = resolve(_protocol(protocol_name), ds.name)
    name, ahash = algo_identity(algo_cfg)
    d_ident, p_ident = data_identity(dataset_config(dataset), ds.meta), protocol_identity(protocol)
    dkey, pkey = config_hash(d_ident), config_hash(p_ident)
    key = RunKey(exp, ds.name, name, ahash, protocol.get("name", protocol_name), int(seed), setup_hash(dkey, pkey))
    store = Store(root, key)
    todo = list(splits(ds.y, protocol, seed))
    files = code_files()
    fp = _fingerprint(files)
    stored = [store.get(s.repeat, s.fold, quiet=True) for s in todo]
    if not rerun and all(r is not None and r.get("status") == "ok" and r.get("code_fingerprint") == fp
                         and r.get("data_key") == dkey and r.get("protocol_key") == pkey for r in stored):
        return 0, len(todo), 0.0
    context = {"record_version": 2, "experiment": exp, "dataset": ds.name, "dataset_sha256": ds.meta.get("sha256"),
               "dataset_source": ds.meta.get("source"), "n_instances": ds.n_instances, "n_features": ds.n_features,
               "n_classes": ds.n_classes, "algo": name, "algo_hash": ahash, "algo_config": algo_cfg,
               "protocol": key.protocol, "protocol_config": protocol, "seed": int(seed), **provenance(),
               "config_label": name, "data_key": dkey, "data_identity": d_ident, "protocol_key": pkey,
               "protocol_identity": p_ident, "warmup": False, "code_fingerprint": fp, "code_files": files}
    w = algo_cfg["weka"]
    filt = (w["filter"]["class"], w["filter"]["options"]) if w.get("filter") else None
    seeds = [estimator_seed(seed, s.repeat, s.fold) for s in todo]
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    try:
        results = run_splits(ds, todo, seeds, w["classifier"], w["options"], filter=filt)
        done = _records(algo_cfg, ds, todo, results, context)
    except Exception as exc:    # stored as failed, split by split, as the runner stores a failure
        err, tb = f"{type(exc).__name__}: {exc}", traceback.format_exc()
        done = [({**context, "repeat": int(s.repeat), "fold": int(s.fold), "n_train": int(s.train.size),
                  "n_test": int(s.test.size), "train_size": s.train_size, "status": "failed", "error": err,
                  "traceback": tb}, None) for s in todo]
    seconds = time.perf_counter() - t0
    finished = datetime.now(timezone.utc).isoformat(timespec="seconds")
    for rec, preds in done:
        rec.update({"started_at": started, "finished_at": finished, "duration_s": seconds / len(done)})
        store.put(rec, preds)
    failed = [r for r, _ in done if r["status"] != "ok"]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(done)} splits failed; the first: {failed[0]['error']}")
    return len(done), 0, seconds


def run_experiment(name: str, scale: str, results_dir: str | None = None, only: list[str] | None = None,
                   rerun: bool = False) -> int:
    """Run every Weka learner of experiment ``name`` on its datasets at ``scale``; 0 when all splits are ok."""
    cfg = experiment_config(name)
    if cfg.get("driver") != DRIVER:
        raise SystemExit(f"experiment {name} is not run by Weka (driver: {cfg.get('driver', 'sweep')})")
    learners = weka_algos(cfg)
    p = plan(name, scale, only=only)
    if not available():
        raise SystemExit("Weka 3.6 is not installed here: apt-get install weka (or set WEKA_JAR)")
    root = results_root(results_dir)
    print(f"[{name}] scale={scale}: {len(p['algos'])} Weka learners x {len(p['datasets'])} datasets, "
          f"protocol {p['protocol']}, seeds {p['seeds']}, one JVM per dataset", flush=True)
    t_start, failures = time.perf_counter(), 0
    for seed in p["seeds"]:
        for algo in p["algos"]:
            for ds in p["datasets"]:
                try:
                    computed, reused, secs = run_dataset(name, ds, learners[algo], p["protocol"], seed, root, rerun)
                    print(f"  {algo} on {ds}: {computed} splits computed, {reused} reused ({secs:.1f} s)", flush=True)
                except Exception as exc:      # the dataset's splits are stored as failed; the run goes on
                    failures += 1
                    print(f"  {algo} on {ds}: FAILED {str(exc)[:300]}", file=sys.stderr, flush=True)
    write_plan(root, p, time.perf_counter() - t_start, 1 if failures else 0)
    return 1 if failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.weka.experiment", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("--scale", default="medium")
    ap.add_argument("--results-dir", default=None)
    ap.add_argument("--datasets", default=None, help="comma-separated datasets of the experiment's list")
    ap.add_argument("--rerun", action="store_true", help="recompute stored splits")
    args = ap.parse_args(argv)
    try:
        return run_experiment(args.name, args.scale, args.results_dir,
                              args.datasets.split(",") if args.datasets else None, args.rerun)
    except SystemExit as exc:
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
