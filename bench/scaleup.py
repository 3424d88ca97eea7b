"""Scale-up driver: training time and model size as the training set grows (MassBayes Fig. 3).

An experiment with ``driver: scaleup`` (``conf/experiment/massbayes_fig3.yaml``) names the
algorithms, one dataset, a base size and the growth factors per scale::

    driver: scaleup
    algos: [massbayes, nb_disc, a1de, gnb]
    datasets: [ringcurve_wave_trigaussian]
    base_size: 7000
    factors: {smoke: [1, 10], medium: [1, 10, 75, 150, 1500]}
    chunk_size: 50000      # rows generated (or sliced) at a time
    test_size: 10000       # a fixed test set drawn with another seed, for accuracy
    max_fit_rows: 1000000  # estimators with neither fit_stream nor partial_fit: largest N
    replicate: false       # a real dataset: true = past its last row, start again from its first
                           # (timing an algorithm's growth in t beyond the dataset's size; ECOC-NB EC01/EC07)
    preprocess_rows: first_chunk   # or all: preprocessing fitted on all N rows (MassBayes MB11)
    allocator: system      # or hold_freed: the C heap keeps what it frees (bench.resources.hold_freed_memory),
                           # so that a sub-millisecond timed step pays no page faults for memory another step
                           # gave back (ECOC-NB EC07's shared-pass timing)

Training never holds the whole training set when it need not:

- an estimator with ``fit_stream(chunks, n_samples)`` (MassBayes) is given the chunk
  iterator; it keeps only its sample;
- an estimator with ``partial_fit`` is trained chunk by chunk; its preprocessing steps
  (an MDL discretiser, an imputer) are fitted on the first chunk and applied to every
  chunk, and their time is recorded apart, as the paper leaves discretisation out of Fig. 3;
  with ``preprocess_rows: all`` the N rows are materialised and the steps fitted on (and
  applied to) all of them, timed as the preprocessing: the discretisation of all N rows;
- any other estimator is fitted on the materialised data up to ``max_fit_rows`` rows.

Time spent generating (or slicing) the data is measured and left out of the training time.
Each (algorithm, N) is one record in the normal store: experiment = the experiment name,
protocol ``scaleup``, fold = the index of the factor, with ``times.fit_*`` (training
without data generation), ``times.preprocess_fit_*``, ``model_bytes`` (pickled model),
the test metrics and the estimator's ``diagnostics_``. Finished records are reused.

``python -m bench.scaleup NAME --scale medium`` runs one experiment (``python -m
bench.experiments run NAME`` delegates here).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from datetime import datetime, timezone
from typing import Callable, Iterator

import numpy as np

from . import metrics as M
from .data import Dataset, load
from .data.registry import dataset_config
from .experiment_plan import algo_config, at_scale, experiment_config, plan, results_root, write_plan
from .store import SCALES
from .provenance import provenance
from .resources import (Timing, hold_freed_memory, limit_threads, peak_rss_mb, pickled_size, reset_peak_rss, rss_mb, timed,
                        timed_without_jit)
from .runner import algo_identity, build_estimator, estimator_seed, fit_steps
from .store import RunKey, Store

PROTOCOL = "scaleup"


# ---------------------------------------------------------------- data in chunks
def chunk_source(dataset: str, chunk_size: int, replicate: bool = False
                 ) -> tuple[Callable[[int, int], Iterator], dict]:
    """``(chunks(n, seed), info)``: a function yielding ``(X, y)`` chunks of the first n rows.

    A synthetic dataset whose generator has a chunked twin (``CHUNKED`` in
    :mod:`bench.data.synthetic_massbayes`) is generated chunk by chunk at any n; any
    other dataset is loaded once and sliced: n at most its size, or, with ``replicate``, any n,
    row i being the dataset's row i mod its size (every pass in the file's order).
    """
    from .data.synthetic import _import_plugins

    _import_plugins()
    from .data.synthetic_massbayes import CHUNKED

    cfg = dataset_config(dataset)
    src = (cfg.get("sources") or [{}])[0]
    gen = src.get("synthetic")
    if gen in CHUNKED:
        params = {k: v for k, v in (src.get("params") or {}).items() if k != "n_instances"}
        fn = CHUNKED[gen]

        def chunks(n, seed):
            return fn(n, seed=seed, chunk_size=chunk_size, **params)

        first_X, first_y = next(fn(1, seed=int(src.get("seed", 0)), chunk_size=1, **params))
        info = {"source": f"synthetic:{gen}", "generator_params": params, "n_features": first_X.shape[1]}
        return chunks, info
    ds = load(dataset)

    def sliced(n, seed):
        if n > ds.n_instances and not replicate:
            raise ValueError(f"dataset {dataset!r} has {ds.n_instances} rows; cannot take {n} "
                             f"(set `replicate: true` in the experiment to repeat its rows)")
        for i in range(0, n, chunk_size):
            rows = np.arange(i, min(n, i + chunk_size)) % ds.n_instances
            yield ds.X[rows], ds.y[rows]

    info = {"source": ds.meta.get("source"), "n_features": ds.n_features}
    if replicate:
        info["replicated_from_rows"] = int(ds.n_instances)
    return sliced, info


class _TimedChunks:
    """Iterates a chunk source and adds the wall/CPU time spent producing chunks to ``timing``."""

    def __init__(self, source: Iterator, timing: Timing):
        self.source, self.timing = source, timing

    def __iter__(self):
        while True:
            with timed(self.timing):
                try:
                    X, y = next(self.source)
                except StopIteration:
                    return
            yield X, y


# ---------------------------------------------------------------- one (algo, N)
def train_scaled(algo_cfg: dict, chunks: Callable, n: int, seed: int, rs: int, meta_ds: Dataset,
                 classes: np.ndarray, max_fit_rows: int, prep_all: bool = False) -> dict:
    """Train one algorithm on the first n rows; return the model and the timings. With ``prep_all``, a
    ``partial_fit`` estimator's preprocessing steps are fitted on all n rows (materialised), not the first
    chunk."""
    steps, est = build_estimator(algo_cfg, meta_ds, rs)
    gen, prep, fit = Timing(), Timing(), Timing()
    source = iter(_TimedChunks(chunks(n, seed), gen))
    mode = None
    if hasattr(est, "fit_stream") and not steps:
        mode = "fit_stream"
        with timed_without_jit(fit):
            est.fit_stream(source, n_samples=n)
        fit.wall_s -= gen.wall_s  # the chunks were generated inside fit_stream's pass
        fit.cpu_s -= gen.cpu_s
    elif hasattr(est, "partial_fit") and prep_all and steps:
        mode = "partial_fit"
        X, y = _fill(source, n, meta_ds.X.shape[1])
        with timed(prep):   # the steps fitted on, and applied to, all n rows
            X = fit_steps(steps, est, meta_ds, X, y)
        with timed_without_jit(fit):
            est.partial_fit(X, y, classes=classes)
    elif hasattr(est, "partial_fit"):
        mode = "partial_fit"
        first = True
        for Xc, yc in source:
            with timed(prep):
                if first:  # preprocessing fitted on the first chunk
                    Xc = fit_steps(steps, est, meta_ds, Xc, yc)
                    first = False
                else:
                    for s in steps:
                        Xc = s.transform(Xc)
            with timed_without_jit(fit):
                est.partial_fit(Xc, yc, classes=classes)
    else:
        if n > max_fit_rows:
            raise _Skip(f"{algo_cfg.get('name')} has neither fit_stream nor partial_fit; "
                        f"N={n} exceeds max_fit_rows={max_fit_rows}")
        mode = "fit"
        parts = list(source)
        X = _stack([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        with timed(prep):
            X = fit_steps(steps, est, meta_ds, X, y)
        with timed_without_jit(fit):
            est.fit(X, y)
    return {"steps": steps, "est": est, "mode": mode, "gen": gen, "prep": prep, "fit": fit}


def _warm_up(algo_cfg, chunks, seed, meta_ds, classes) -> None:
    """Train once on 500 rows and predict them, untimed, so that most compilation (Numba) happens before
    the first timed N. A kernel first needed at a larger N (a new type signature) is still compiled
    inside a timed run; :func:`~bench.resources.timed_without_jit` takes that time off the point and
    records it as ``times.jit_compile_s``."""
    try:
        out = train_scaled(algo_cfg, chunks, 500, seed, 0, meta_ds, classes, max_fit_rows=500)
        X, _ = next(chunks(500, seed))
        _predict(out["steps"], out["est"], X)
    except Exception:  # a real failure shows up, and is recorded, in the timed runs
        pass


class _Skip(Exception):
    pass


def _predict(steps, est, X):
    for s in steps:
        X = s.transform(X)
    return est.predict_proba(X)


# ---------------------------------------------------------------- an experiment
def experiment_settings(name: str, scale: str) -> dict:
    cfg = experiment_config(name)
    p = plan(name, scale)
    factors = [int(f) for f in at_scale(cfg.get("factors", [1]), scale)]
    all_factors = sorted({int(f) for v in (cfg.get("factors") or {}).values() for f in v}) \
        if isinstance(cfg.get("factors"), dict) else factors
    return {**p, "base_size": int(cfg.get("base_size", 7000)), "factors": factors,
            "all_factors": all_factors, "chunk_size": int(cfg.get("chunk_size", 50_000)),
            "test_size": int(cfg.get("test_size", 10_000)),
            "max_fit_rows": int(cfg.get("max_fit_rows", 1_000_000)),
            "replicate": bool(cfg.get("replicate", False)),
            "preprocess_rows": _preprocess_rows(name, cfg.get("preprocess_rows", "first_chunk")),
            "allocator": _allocator(name, cfg.get("allocator", "system")),
            "test_seed_offset": int(cfg.get("test_seed_offset", 1000))}


def _preprocess_rows(name: str, value) -> str:
    if value not in ("first_chunk", "all"):
        raise SystemExit(f"{name}: preprocess_rows is {value!r}; use first_chunk (the default) or all")
    return value


#: ``allocator``: the C heap as the system configures it, or keeping the memory it frees
ALLOCATORS = ("system", "hold_freed")


def _allocator(name: str, value) -> str:
    if value not in ALLOCATORS:
        raise SystemExit(f"{name}: allocator is {value!r}; use system (the default) or hold_freed")
    return value


def run_experiment(name: str, scale: str, results_dir: str | None = None, rerun: bool = False,
                   threads: int | None = 1) -> int:
    """Run every (algorithm, size) of a scale-up experiment that is not stored yet."""
    limit_threads(threads)
    st = experiment_settings(name, scale)
    root = results_root(results_dir)
    if len(st["datasets"]) != 1:
        raise SystemExit(f"{name}: a scale-up experiment takes exactly one available dataset; "
                         f"got {st['datasets']} (missing: {list(st['missing_datasets'])})")
    dataset = st["datasets"][0]
    if st["allocator"] == "hold_freed" and not hold_freed_memory():
        raise SystemExit(f"{name}: allocator: hold_freed needs glibc's mallopt, which this system does not have; "
                         f"run it on a glibc system (Linux) or remove the setting to time with the system's allocator")
    chunks, info = chunk_source(dataset, st["chunk_size"], st["replicate"])
    t_start = time.perf_counter()
    failures = 0
    print(f"[{name}] scale={scale}: {len(st['algos'])} algorithms x sizes "
          f"{[st['base_size'] * f for f in st['factors']]} on {dataset}", flush=True)
    if st["missing_algos"]:
        print(f"[{name}] algorithms skipped (no config yet): {', '.join(st['missing_algos'])}", flush=True)
    protocol_cfg = {"name": PROTOCOL, "kind": PROTOCOL, "base_size": st["base_size"],
                    "factors": st["all_factors"], "chunk_size": st["chunk_size"], "test_size": st["test_size"],
                    **({"replicate": True} if st["replicate"] else {}),
                    **({"preprocess_rows": "all"} if st["preprocess_rows"] == "all" else {}),
                    **({"allocator": st["allocator"]} if st["allocator"] != "system" else {})}
    for seed in st["seeds"]:
        Xte, yte = _materialise(chunks(st["test_size"], seed + st["test_seed_offset"]))
        first_X, first_y = next(chunks(min(st["chunk_size"], st["base_size"]), seed))
        classes = np.arange(int(max(first_y.max(), yte.max())) + 1)
        meta_ds = Dataset(dataset, first_X, first_y, [str(c) for c in classes],
                          [f"x{j + 1}" for j in range(first_X.shape[1])], np.zeros(first_X.shape[1], bool))
        for algo in st["algos"]:
            algo_cfg = algo_config(algo)  # composed by Hydra, as `python -m bench algo=...` does
            aname, ahash = algo_identity(algo_cfg)
            _warm_up(algo_cfg, chunks, seed, meta_ds, classes)
            key = RunKey(name, dataset, aname, ahash, PROTOCOL, int(seed))
            store = Store(root, key)
            for factor in st["factors"]:
                n = st["base_size"] * factor
                fold = st["all_factors"].index(factor)
                old = store.get(0, fold)
                if old is not None and old.get("status") == "ok" and not rerun:
                    print(f"  {aname:<14} N={n:>9}: stored", flush=True)
                    continue
                rec = _evaluate(algo_cfg, aname, ahash, name, dataset, info, protocol_cfg, chunks, n, fold,
                                int(seed), meta_ds, classes, Xte, yte, st["max_fit_rows"],
                                st["preprocess_rows"] == "all")
                if rec is None:
                    continue
                store.put(rec, rec.pop("_predictions", None))
                if rec["status"] != "ok":
                    failures += 1
                    print(f"  {aname:<14} N={n:>9}: FAILED {rec['error'][:200]}", flush=True)
                else:
                    print(f"  {aname:<14} N={n:>9}: fit {rec['times']['fit_wall_s']:8.3f} s  "
                          f"model {rec['model_bytes'] / 2**20:8.2f} MB  error {rec['metrics']['error']:.4f}",
                          flush=True)
    write_plan(root, st, time.perf_counter() - t_start, 1 if failures else 0)
    return 1 if failures else 0


def _fill(it, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """The n rows of a chunk iterator in one preallocated array (never two copies of the data at once)."""
    X, y = np.empty((n, d)), np.empty(n, dtype=np.int64)
    i = 0
    for Xc, yc in it:
        X[i:i + len(yc)], y[i:i + len(yc)] = Xc, yc
        i += len(yc)
    if i != n:
        raise ValueError(f"the chunk source gave {i} rows, not {n}")
    return X, y


def _materialise(it) -> tuple[np.ndarray, np.ndarray]:
    parts = list(it)
    return _stack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _stack(blocks):
    """Row-stack chunks: dense arrays, or CSR matrices (a sparse dataset such as fbis)."""
    import scipy.sparse as sp

    return sp.vstack(blocks, format="csr") if sp.issparse(blocks[0]) else np.concatenate(blocks)


def _evaluate(algo_cfg, aname, ahash, experiment, dataset, info, protocol_cfg, chunks, n, fold, seed,
              meta_ds, classes, Xte, yte, max_fit_rows, prep_all: bool = False) -> dict | None:
    rs = estimator_seed(seed, 0, fold)
    rec = {"record_version": 1, "experiment": experiment, "dataset": dataset, "dataset_sha256": None,
           "dataset_source": info.get("source"), "n_instances": n, "n_features": info.get("n_features"),
           "n_classes": int(classes.size), "algo": aname, "algo_hash": ahash, "algo_config": algo_cfg,
           "protocol": PROTOCOL, "protocol_config": protocol_cfg, "seed": seed, "repeat": 0, "fold": fold,
           "n_train": n, "n_test": int(yte.size), "train_size": n, "estimator_random_state": rs,
           "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), **provenance()}
    t0 = time.perf_counter()
    reset_peak_rss()
    base = rss_mb()
    try:
        out = train_scaled(algo_cfg, chunks, n, seed, rs, meta_ds, classes, max_fit_rows, prep_all)
        pred = Timing()
        with timed_without_jit(pred):
            proba = _predict(out["steps"], out["est"], Xte)
        est = out["est"]
        full = np.zeros((yte.size, classes.size))
        full[:, np.asarray(est.classes_, dtype=np.int64)] = proba
        model = out["steps"] + [est]
        rec.update({
            "status": "ok",
            "train_mode": out["mode"],
            "metrics": M.all_metrics(yte, full),
            "times": {"fit_cpu_s": out["fit"].cpu_s, "fit_wall_s": out["fit"].wall_s,
                      "preprocess_fit_cpu_s": out["prep"].cpu_s, "preprocess_fit_wall_s": out["prep"].wall_s,
                      "generate_cpu_s": out["gen"].cpu_s, "generate_wall_s": out["gen"].wall_s,
                      "train_cpu_s": out["fit"].cpu_s, "predict_cpu_s": pred.cpu_s, "predict_wall_s": pred.wall_s,
                      "test_cpu_s": pred.cpu_s, "jit_compile_s": out["fit"].jit_s + pred.jit_s},
            "memory": {"peak_rss_mb": peak_rss_mb(), "start_rss_mb": base,
                       "peak_increase_mb": peak_rss_mb() - base},
            "model_bytes": pickled_size(model if len(model) > 1 else est),
            "_predictions": {"test_index": np.arange(yte.size, dtype=np.int64), "y_true": yte.astype(np.int32),
                             "proba": np.asarray(full, dtype=np.float64)},
        })
        extra = getattr(est, "diagnostics_", None)
        if isinstance(extra, dict):
            rec["extra"] = extra
    except _Skip as exc:
        print(f"  {aname:<14} N={n:>9}: skipped ({exc})", flush=True)
        return None
    except Exception as exc:  # recorded, never fatal to the experiment
        rec.update({"status": "failed", "error": f"{type(exc).__name__}: {exc}",
                    "traceback": traceback.format_exc()})
    rec["duration_s"] = time.perf_counter() - t0
    rec["finished_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return rec


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.scaleup", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", help="a conf/experiment/<name>.yaml with driver: scaleup")
    ap.add_argument("--scale", default="medium", choices=SCALES)
    ap.add_argument("--results-dir", default=None)
    ap.add_argument("--rerun", action="store_true", help="recompute stored records")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    return run_experiment(args.name, args.scale, args.results_dir, args.rerun, args.threads)


if __name__ == "__main__":
    sys.exit(main())
