"""Run one job: an algorithm config on a dataset under a protocol and seed.

Per split: build a fresh estimator from its config (Hydra ``_target_``), inject
``categorical_features`` / ``n_categories`` / ``random_state`` where a step has
them, time preprocessing, fitting and prediction separately (process CPU and
wall seconds), measure the pickled model size and the peak memory of the
split, and store the record with per-instance class probabilities. A split that
raises is stored as ``failed`` with its traceback; the job goes on. Each split runs
under a memory limit (``mem_limit_gb``, :func:`bench.resources.memory_limit`) and an optional
time limit (``time_limit_s``) in the job's worker process (:class:`bench.resources.LimitedWorker`,
forked once per job and replaced when a split ends it): a split that goes over either is stored as
``failed`` (memory) or ``timeout`` with a message naming the limit, whatever the code did when it
ran out (a MemoryError, an abort in LLVM or C++, a hang), and the job and the sweep go on.
"""

from __future__ import annotations

import json
import logging
import signal as _signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np

from algorithms._base import NotApplicableError

from . import metrics as M
from .codeid import changed_parts, code_identity
from .data import Dataset, load
from .data.cache import cache_dir as user_cache_dir
from .protocols import Split, resolve, splits
from .provenance import provenance
from .resources import (LimitedWorker, Timing, data_mb, limit_threads, memory_limit, peak_rss_mb, pickled_size,
                        reset_peak_rss, prefer_forksafe_threads, resolve_mem_limit, rss_mb, run_limited, timed)
from .store import (RunKey, Store, config_hash, data_identity, metrics_problem, predictions_problem,
                    protocol_identity, setup_hash)

log = logging.getLogger("bench")

#: algorithm config keys that describe, not define, the algorithm (left out of its hash)
DESCRIPTIVE_KEYS = ("name", "description", "paper", "family", "notes", "tags", "peers")
ESTIMATOR_SALT = 0xA160


class SplitError(ValueError):
    """A split cannot be evaluated (e.g. its training fold has a single class)."""


class SetupError(ValueError):
    """A job cannot run as configured (bad seed or protocol, a single-class dataset, an
    unwritable results directory); the message names the value and the fix."""


@dataclass
class JobResult:
    key: RunKey
    directory: str
    n_splits: int
    reused: int = 0
    computed: int = 0
    failed: list = field(default_factory=list)
    not_applicable: list = field(default_factory=list)  # the algorithm does not apply to the dataset
    records: list = field(default_factory=list)
    warmed_up: bool | None = None  # None: no warm-up needed (nothing computed)
    label: str = ""  # the config's display name (:func:`config_label`); "" = the algorithm's name
    #: wall seconds of the job's parts: ``start_s`` (from the call to the first split: data, checks, code
    #: identity), ``warmup_s`` (:func:`warm_up`), ``splits_s`` (every split, its warm-up included, to the
    #: last record on disk), ``own_s`` (the computed splits' own preprocessing, fit and predict); the
    #: harness's own cost per split is ``splits_s - warmup_s - own_s`` (:func:`harness_seconds`)
    wall: dict = field(default_factory=dict)

    @property
    def display(self) -> str:
        return self.label or self.key.algo


# ------------------------------------------------------------------ estimators
def algo_identity(algo_cfg: dict) -> tuple[str, str]:
    """(name, hash) of an algorithm config; the hash covers what defines the algorithm."""
    name = algo_cfg.get("name") or "algo"
    defining = {k: v for k, v in algo_cfg.items() if k not in DESCRIPTIVE_KEYS}
    return name, config_hash(defining)


#: the longest list of differing parameters a display name spells out; beyond it the name carries the hash
LABEL_MAX_CHARS = 48


def _leaves(node, path=()) -> dict:
    if isinstance(node, dict) and node:
        out = {}
        for k, v in node.items():
            out.update(_leaves(v, path + (str(k),)))
        return out
    return {path: node}


def config_label(algo_cfg: dict, named_cfg: dict | None) -> str:
    """The display name of an algorithm config: its ``name`` when it is the config of that name
    (``named_cfg``, as ``conf/algo/<name>.yaml`` composes; descriptive keys aside), else the name
    with the parameters that differ, ``rf100[n_estimators=500]`` (each by its last key, or as
    many keys as tell it apart; a removed key as ``~key``), or with the config hash,
    ``rf100@1a2b3c4d5e``, when there is no named config to compare with or the list would be
    longer than :data:`LABEL_MAX_CHARS`."""
    name, ahash = algo_identity(algo_cfg)
    if named_cfg is None:
        return f"{name}@{ahash}"
    if algo_identity(named_cfg)[1] == ahash:
        return name
    ours = _leaves({k: v for k, v in algo_cfg.items() if k not in DESCRIPTIVE_KEYS})
    theirs = _leaves({k: v for k, v in named_cfg.items() if k not in DESCRIPTIVE_KEYS})
    diff = sorted(p for p in set(ours) | set(theirs) if p not in ours or p not in theirs or
                  json.dumps(ours[p], sort_keys=True, default=str) != json.dumps(theirs[p], sort_keys=True, default=str))
    parts = []
    for p in diff:
        n = 1
        while n < len(p) and sum(q[-n:] == p[-n:] for q in diff) > 1:
            n += 1
        key = ".".join(p[-n:])
        if p not in ours:
            parts.append(f"~{key}")
        else:
            v = ours[p]
            parts.append(f"{key}={v if isinstance(v, (str, int, float, bool)) else json.dumps(v, default=str)}")
    inner = ",".join(parts)
    if not inner or len(inner) > LABEL_MAX_CHARS:
        return f"{name}@{ahash}"
    return f"{name}[{inner}]"


def build_estimator(algo_cfg: dict, ds: Dataset, random_state: int | None, split_index: int | None = None):
    """Instantiate the configured steps: ``preprocess`` (list, optional) then ``estimator``.

    Returns ``(steps, estimator)`` where ``steps`` are the unfitted preprocessing steps.
    ``split_index`` (the split's position in the protocol, :attr:`bench.protocols.Split.index`)
    goes to the steps that declare it (:func:`inject`).
    """
    if "estimator" not in algo_cfg:
        raise ValueError(f"algorithm config {algo_cfg.get('name')!r} has no `estimator` entry")
    steps = [instantiate(s) for s in (algo_cfg.get("preprocess") or [])]
    est = instantiate(algo_cfg["estimator"])
    for obj in steps + [est]:
        inject(obj, ds, random_state, split_index=split_index)
    return steps, est


def harness_caches() -> dict[str, str]:
    """Cache-folder parameters of estimators -> bench's folder for them (under ``BENCH_CACHE_DIR``):
    ``cache_dir`` of the ECOC estimators, where their BCH codebooks are kept. A run option: the
    folder changes where a codebook is read from, never the model, and is in no key or hash."""
    return {"cache_dir": str(user_cache_dir() / "bch")}


def instantiate(cfg):
    """``hydra.utils.instantiate(cfg, _convert_="all")``, done directly for a plain config: nested
    dicts, lists and scalars, ``_target_`` the only special key (every config in ``conf/algo``;
    the job resolved the interpolations). Hydra's own goes through OmegaConf and deep copies,
    about 10 ms a step, paid for every split and the warm-up; anything else
    (``_args_``, ``_partial_``, an OmegaConf node) goes to Hydra."""
    if not _plain(cfg):
        from hydra.utils import instantiate as hydra_instantiate

        return hydra_instantiate(cfg, _convert_="all")
    return _build(cfg)


def _plain(node) -> bool:
    if isinstance(node, dict):
        return all(isinstance(k, str) and (k == "_target_" or not k.startswith("_")) and _plain(v)
                   for k, v in node.items()) and isinstance(node.get("_target_", ""), str)
    if isinstance(node, list):
        return all(_plain(v) for v in node)
    return node is None or isinstance(node, (str, int, float, bool)) and not (isinstance(node, str) and "${" in node)


def _build(node):
    if isinstance(node, dict):
        kwargs = {k: _build(v) for k, v in node.items() if k != "_target_"}
        if "_target_" not in node:
            return kwargs
        from hydra._internal.utils import _locate  # Hydra's own lookup of the target

        return _locate(node["_target_"])(**kwargs)
    if isinstance(node, list):
        return [_build(v) for v in node]
    return node


def inject(obj, ds: Dataset, random_state: int | None, categorical=None, n_categories=None,
           split_index: int | None = None) -> None:
    """Set the dataset-aware parameters an estimator (or any nested step) declares:
    ``categorical_features`` (bool mask), ``n_categories`` (declared number of values
    per column, 0 for numeric), ``random_state`` and ``split_index`` (the split's position in the
    protocol's run order, :attr:`bench.protocols.Split.index`; both when configured as None); and a cache
    folder left at None to bench's (:func:`harness_caches`).
    ``categorical`` / ``n_categories`` override the dataset's own (see :func:`feature_metadata`)."""
    try:
        params = obj.get_params(deep=True)
    except AttributeError:
        return
    cat = ds.categorical if categorical is None else categorical
    ncat = ds.n_categories if n_categories is None else n_categories
    caches = harness_caches()
    updates = {}
    for name in params:
        leaf = name.rsplit("__", 1)[-1]
        if leaf in caches and params[name] is None:
            updates[name] = caches[leaf]
        elif leaf == "categorical_features":
            updates[name] = np.asarray(cat, dtype=bool).copy()
        elif leaf == "n_categories":
            updates[name] = np.asarray(ncat, dtype=np.int64).copy()
        elif leaf == "random_state" and params[name] is None and random_state is not None:
            updates[name] = int(random_state)
        elif leaf == "split_index" and params[name] is None and split_index is not None:
            updates[name] = int(split_index)
    if updates:
        obj.set_params(**updates)


def feature_metadata(step, categorical, n_categories):
    """Column metadata after a fitted preprocessing step.

    A step that changes which columns are nominal (a discretiser) exposes
    ``categorical_features_out_`` (bool mask) and ``n_categories_out_`` (number of
    values per output column, 0 for numeric); the steps after it receive those in
    their ``categorical_features`` / ``n_categories``. Other steps pass the
    metadata through unchanged.
    """
    cat = getattr(step, "categorical_features_out_", None)
    ncat = getattr(step, "n_categories_out_", None)
    if cat is None and ncat is None:
        return categorical, n_categories
    if cat is None:
        cat = np.asarray(ncat) > 0
    if ncat is None:
        ncat = np.zeros(len(cat), dtype=np.int64)
    return np.asarray(cat, dtype=bool), np.asarray(ncat, dtype=np.int64)


def fit_steps(steps: list, est, ds: Dataset, X, y):
    """Fit the preprocessing ``steps`` in order, each on the output of the ones before
    (``fit_transform``), and pass each fitted step's column metadata (:func:`feature_metadata`)
    on to every step after it and to the estimator ``est`` (:func:`inject`). Returns ``X``
    transformed by all the steps. The one place that does this: ``run_split`` on a training
    fold, ``bench.scaleup`` on the first chunk (or the materialised data)."""
    cat, ncat = ds.categorical, ds.n_categories
    for i, s in enumerate(steps):
        X = s.fit_transform(X, y)
        cat, ncat = feature_metadata(s, cat, ncat)
        for later in steps[i + 1:] + [est]:  # what the following steps now receive
            inject(later, ds, None, cat, ncat)
    return X


def estimator_seed(seed: int, repeat: int, fold: int) -> int:
    ss = np.random.SeedSequence([int(seed), int(repeat), int(fold), ESTIMATOR_SALT])
    return int(ss.generate_state(1)[0] & 0x7FFFFFFF)


# ------------------------------------------------------------------ one split
def run_split(algo_cfg: dict, ds: Dataset, split: Split, seed: int) -> tuple[dict, dict]:
    """Fit and evaluate one split. Returns (record fields, per-instance predictions)."""
    from sklearn.pipeline import Pipeline

    X, y = ds.X, ds.y
    ytr = y[split.train]
    present = np.unique(ytr)
    if present.size < 2:
        only = ds.classes[int(present[0])] if present.size else "none"
        if np.unique(y).size < 2:
            raise SplitError(
                f"dataset {ds.name!r} holds a single class ({only!r}): a classifier needs at least two. "
                f"Check its class column (`target`) and `class_groups` in conf/data/{ds.name}.yaml."
            )
        raise SplitError(
            f"training fold {split.fold} of repeat {split.repeat} holds a single class ({only!r}); "
            f"a classifier cannot be trained on it. Use fewer folds or a dataset with more instances per class."
        )
    rs = estimator_seed(seed, split.repeat, split.fold)
    steps, est = build_estimator(algo_cfg, ds, rs, split.index)
    Xtr, Xte = X[split.train], X[split.test]

    t_prep_fit, t_fit, t_prep_pred, t_pred = Timing(), Timing(), Timing(), Timing()
    reset_peak_rss()
    base_rss = rss_mb()
    with timed(t_prep_fit):
        Xtr = fit_steps(steps, est, ds, Xtr, ytr)
    with timed(t_fit):
        est.fit(Xtr, ytr)
    with timed(t_prep_pred):
        for s in steps:
            Xte = s.transform(Xte)
    with timed(t_pred):
        proba_est = est.predict_proba(Xte)
    peak = peak_rss_mb()

    proba = _full_proba(est, proba_est, ds.n_classes, len(split.test))
    model = Pipeline([(f"step{i}", s) for i, s in enumerate(steps)] + [("model", est)]) if steps else est
    try:
        model_bytes = pickled_size(model)
    except Exception:  # an unpicklable model is not an evaluation failure
        model_bytes = None
    yte = y[split.test]
    rec = {
        "metrics": M.all_metrics(yte, proba),
        "times": {
            "preprocess_fit_cpu_s": t_prep_fit.cpu_s, "preprocess_fit_wall_s": t_prep_fit.wall_s,
            "fit_cpu_s": t_fit.cpu_s, "fit_wall_s": t_fit.wall_s,
            "preprocess_predict_cpu_s": t_prep_pred.cpu_s, "preprocess_predict_wall_s": t_prep_pred.wall_s,
            "predict_cpu_s": t_pred.cpu_s, "predict_wall_s": t_pred.wall_s,
            "train_cpu_s": t_prep_fit.cpu_s + t_fit.cpu_s,
            "test_cpu_s": t_prep_pred.cpu_s + t_pred.cpu_s,
        },
        "memory": {"peak_rss_mb": peak, "start_rss_mb": base_rss, "peak_increase_mb": peak - base_rss},
        "model_bytes": model_bytes,
        "estimator_random_state": rs,
    }
    extra = getattr(est, "diagnostics_", None)  # optional per-fit diagnostics of an estimator
    if isinstance(extra, dict):
        rec["extra"] = extra
    preds = {
        "test_index": split.test.astype(np.int64),
        "y_true": yte.astype(np.int32),
        "proba": np.asarray(proba, dtype=np.float64),  # what the metrics were computed from, exactly
    }
    anytime_cfg = algo_cfg.get("anytime")
    if anytime_cfg and hasattr(est, "predict_proba_anytime"):
        fields, arrays = anytime_evaluation(est, anytime_cfg, Xte, yte, ds.n_classes)
        rec.update(fields)
        preds.update(arrays)
    return rec, preds


def anytime_evaluation(est, cfg: dict, Xte, yte: np.ndarray, n_classes: int) -> tuple[dict, dict]:
    """Metrics of an anytime classifier at every budget of ``cfg`` (docs/DESIGN.md contract:
    ``predict_proba_anytime(X, budgets) -> (len(budgets), n, n_classes)``).

    ``cfg`` = ``{budgets: [...], unit: optional str, store_proba: optional bool}``; a budget
    of None means unlimited. Returns the record fields ``metrics_by_budget`` (one dict per
    budget: budget, error, accuracy, rmse, log_loss, and when the estimator reports them the
    mean units spent and seconds elapsed per query) and ``anytime`` (unit, budgets, timing),
    plus the arrays for the ``.npz``: ``anytime_budgets``, ``anytime_pred`` (predicted class
    per budget and instance) and ``anytime_proba_true`` (probability of the true class); the
    full ``anytime_proba`` only with ``store_proba: true`` (it is large)."""
    import inspect
    import math

    raw = list(cfg.get("budgets") or [])
    if not raw:
        raise ValueError("the algorithm's `anytime` block needs a non-empty `budgets` list")
    budgets = [math.inf if b is None else float(b) for b in raw]
    kwargs = {"unit": cfg["unit"]} if cfg.get("unit") else {}
    with_cost = "return_cost" in inspect.signature(est.predict_proba_anytime).parameters
    if with_cost:
        kwargs["return_cost"] = True
    t_any = Timing()
    with timed(t_any):
        out = est.predict_proba_anytime(Xte, budgets, **kwargs)
    proba_b, units, secs = out if with_cost else (out, None, None)
    proba_b = np.asarray(proba_b)
    n = len(yte)
    if proba_b.ndim != 3 or proba_b.shape[:2] != (len(budgets), n):
        raise ValueError(f"predict_proba_anytime returned shape {proba_b.shape}; expected "
                         f"({len(budgets)}, {n}, n_classes)")
    rows, pred_b, ptrue_b, full_b = [], np.empty((len(budgets), n), np.int32), \
        np.empty((len(budgets), n), np.float64), []
    for i, b in enumerate(budgets):
        full = _full_proba(est, proba_b[i], n_classes, n)
        row = {"budget": None if math.isinf(b) else b, **M.all_metrics(yte, full)}
        if units is not None:
            row["mean_units"] = float(np.mean(units[i]))
            row["mean_seconds"] = float(np.mean(secs[i]))
        rows.append(row)
        pred_b[i] = M.predict_from_proba(full)
        ptrue_b[i] = full[np.arange(n), yte]
        if cfg.get("store_proba"):
            full_b.append(np.asarray(full, dtype=np.float64))
    fields = {"metrics_by_budget": rows,
              "anytime": {"unit": cfg.get("unit") or "default", "budgets": [r["budget"] for r in rows],
                          "predict_cpu_s": t_any.cpu_s, "predict_wall_s": t_any.wall_s}}
    arrays = {"anytime_budgets": np.array(budgets, dtype=np.float64), "anytime_pred": pred_b,
              "anytime_proba_true": ptrue_b}
    if full_b:
        arrays["anytime_proba"] = np.stack(full_b)
    return fields, arrays


def _full_proba(est, proba: np.ndarray, n_classes: int, n_test: int) -> np.ndarray:
    """Class probabilities over all dataset classes (columns ordered by class code)."""
    proba = np.asarray(proba, dtype=np.float64)
    if proba.shape[0] != n_test:
        raise ValueError(f"predict_proba returned {proba.shape[0]} rows for {n_test} test instances")
    if not np.all(np.isfinite(proba)):
        raise ValueError("predict_proba returned non-finite probabilities (NaN or inf)")
    classes = np.asarray(getattr(est, "classes_", np.arange(proba.shape[1])))
    if proba.shape[1] != classes.size:
        raise ValueError(f"predict_proba has {proba.shape[1]} columns but classes_ has {classes.size}")
    full = np.zeros((n_test, n_classes))
    full[:, classes.astype(np.int64)] = proba
    return full


# ------------------------------------------------------------------ a job
def run_job(algo_cfg: dict, data_cfg: Any, protocol_cfg: dict, seed: int, experiment: str,
            results_dir: str, rerun: bool = False, retry_failed: bool = True, progress: bool = True,
            threads: int | None = 1, warmup: bool = True, mem_limit_gb: Any = "auto",
            time_limit_s: Any = None, data_max_gb: Any = 1.0, named_config: dict | None = None,
            progress_position: int | None = None) -> JobResult:
    """Run (or resume) every split of one job and return what happened.

    ``named_config`` is the config of the algorithm's name as its YAML composes it (no
    overrides); given, the job's display name (:func:`config_label`, also stored in each new record
    as ``config_label``) says how ``algo_cfg`` differs from it. Without it the name is shown as is.

    With ``warmup`` (default), before the first split it computes, the job fits a
    throwaway copy of the algorithm on a small slice (see :func:`warm_up`), so that
    recorded times exclude one-off compilation and loading.

    ``mem_limit_gb`` caps the process's data memory while each split (and the warm-up) runs:
    ``"auto"`` (default) = :data:`bench.resources.AUTO_MEM_FRACTION` of physical memory, a
    number = GiB, None/0 = no limit. A split that exceeds it is stored as failed (MemoryError,
    the message names the limit and how to raise it) and the job goes on. ``time_limit_s``
    (None: none) bounds each split's wall-clock seconds; a split over it is stopped and stored
    with status ``timeout``. With either limit each split runs in a forked child process
    (:func:`bench.resources.run_limited`), so nothing it does when it runs out can end the job.
    Both are properties of the run, not of the results: in no record key or hash.

    Loading the data is bounded too: a data file that decompresses to more than ``data_max_gb``
    GiB (default 1; None: no cap) is refused before it is parsed, and the parse runs under the
    machine guard (:func:`load_guard`), a MemoryError there becoming a :class:`bench.data.DataError`
    that names it."""
    t_start = time.perf_counter()
    seed = check_seed(seed)
    try:
        mem_limit = resolve_mem_limit(mem_limit_gb)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    time_limit = check_time_limit(time_limit_s)
    if mem_limit or time_limit:
        prefer_forksafe_threads()  # the splits run in forked child processes
    limit_threads(threads)
    ds = _load_bounded(data_cfg, mem_limit, mem_limit_gb, check_data_max(data_max_gb))
    check_classes(ds)
    protocol = resolve(protocol_cfg, ds.name)
    check_protocol(protocol)
    check_class_sizes(ds, protocol)
    name, ahash = algo_identity(algo_cfg)
    d_ident, p_ident = data_identity(_data_cfg_dict(data_cfg), ds.meta), protocol_identity(protocol)
    dkey, pkey = config_hash(d_ident), config_hash(p_ident)
    key = RunKey(experiment, ds.name, name, ahash, protocol.get("name", "protocol"), int(seed),
                 setup_hash(dkey, pkey))
    store = Store(results_dir, key)
    try:
        check_writable(store.dir, results_dir)
        read_only = None
    except SetupError as exc:  # a read-only results folder still serves the splits it holds
        read_only = exc
    todo = list(splits(ds.y, protocol, seed))
    if not todo:
        raise SetupError(f"protocol {protocol.get('name')!r} plans no splits for {ds.name} "
                         f"({_protocol_text(protocol)}); set protocol.n_repeats and protocol.n_splits to at least 1")
    label = config_label(algo_cfg, named_config) if named_config is not None else name
    result = JobResult(key, str(store.dir), len(todo), label=label)
    context = _job_context(algo_cfg, ds, protocol, key)
    fingerprint, code_files = code_identity(algo_cfg)
    context["config_label"] = label
    context.update({"data_key": dkey, "data_identity": d_ident, "protocol_key": pkey,
                    "protocol_identity": p_ident, "warmup": bool(warmup), "code_fingerprint": fingerprint,
                    "code_files": code_files})
    context["_mem_limit"], context["_mem_limit_option"] = mem_limit, mem_limit_gb
    context["_time_limit"] = time_limit
    legacy = Store(results_dir, key.legacy())
    context["_legacy_ok"] = _legacy_data_ok(data_cfg, ds)
    if read_only is not None:
        missing = [sp for sp in todo if _reusable(store.get(sp.repeat, sp.fold, quiet=True), context, rerun,
                                                   retry_failed, quiet=True) is None]
        if missing:
            raise SetupError(f"{read_only}. {len(missing)} of the job's {len(todo)} splits are not stored there (or not "
                             f"reusable), so they would have to be computed and written; a folder that cannot be "
                             f"written serves only jobs whose every split it holds")

    bar = _progress(len(todo), f"{label} on {ds.name}", progress, progress_position)
    worker = None
    if mem_limit or time_limit:  # one process runs the splits under the limits, replaced when it dies
        by_key = {(sp.repeat, sp.fold): sp for sp in todo}
        worker = LimitedWorker(lambda msg: _in_child(algo_cfg, ds, by_key[msg[0], msg[1]], seed, msg[2])(),
                               mem_limit, classify=_classify, before_fork=store.sync)
        context["_worker"] = worker
    t_splits = time.perf_counter()
    result.wall.update(start_s=t_splits - t_start, warmup_s=0.0)
    try:
        _run_splits(todo, store, legacy, algo_cfg, ds, seed, context, rerun, retry_failed, result, bar)
        store.sync()  # every record of the job on disk before it reports
        result.wall["splits_s"] = time.perf_counter() - t_splits
    except OSError as exc:  # the records cannot be written (disk full, permissions): the job stops here
        bar.close()
        exc.bench_result = result  # what was done, for the job's summary
        raise
    finally:
        if worker is not None:
            worker.close()
        try:
            store.sync()  # after an interrupt or a failure: what was written, as far as it goes
        except OSError:
            pass
    bar.close()
    _legacy_code_notice(result)
    return result


#: the times of a record that are the split's own work (preprocessing, fitting, predicting)
OWN_TIMES = ("preprocess_fit_wall_s", "fit_wall_s", "preprocess_predict_wall_s", "predict_wall_s")


def harness_seconds(result: JobResult) -> tuple[float, float, int] | None:
    """(the harness's own wall seconds, the splits' own wall seconds, splits computed) of a job: the
    time of its split loop (``wall["splits_s"]``) without the warm-up, less each computed split's
    preprocessing, fitting and prediction (:data:`OWN_TIMES`). What is left is what bench adds to a
    split: handing it to the worker process, the metrics and the model's pickled size, the record
    with its checksums and ``.npz``, the lock, the progress. None when the job computed nothing."""
    if not result.computed or "splits_s" not in result.wall:
        return None
    own = result.wall.get("own_s", 0.0)
    loop = result.wall["splits_s"] - result.wall.get("warmup_s", 0.0)
    return loop - own, own, result.computed


def _legacy_code_notice(result: JobResult) -> None:
    """One line when the job reused records that predate code fingerprints (:mod:`bench.codeid`):
    nothing says which code made them, so they are reused as they are."""
    n = sum(1 for r in result.records if r.get("status") and "code_fingerprint" not in r)
    if n:
        log.warning("%d of the %d records reused for %s on %s predate code fingerprints, so nothing shows which "
                    "code made them; reused as they are (rerun=true recomputes them with this code)",
                    n, result.n_splits, result.key.algo, result.key.dataset)


def _run_splits(todo, store, legacy, algo_cfg, ds, seed, context, rerun, retry_failed, result, bar) -> None:
    deferred = []
    for split in todo:
        # quiet: a record that cannot be reused is reported once, by the locked check below
        rec = _reusable(store.get(split.repeat, split.fold, quiet=True), context, rerun, retry_failed, quiet=True)
        if rec is not None:
            result.reused += 1
            _collect(result, rec)
            bar.update(1)
            continue
        with store.claim(split.repeat, split.fold, wait=False) as held:
            if not held:  # another worker is computing this split; come back to it
                deferred.append(split)
                continue
            rec = _compute_or_reuse(store, split, algo_cfg, ds, seed, context, rerun, retry_failed, result,
                                    legacy)
        _collect(result, rec)
        bar.update(1)
        bar.set_postfix_str(_postfix(result))
    for split in deferred:
        with store.claim(split.repeat, split.fold, wait=True):
            rec = _compute_or_reuse(store, split, algo_cfg, ds, seed, context, False, retry_failed, result, legacy)
        _collect(result, rec)
        bar.update(1)


def warm_up(algo_cfg: dict, ds: Dataset, split: Split, seed: int, n_rows: int = 200) -> bool:
    """Fit and apply a throwaway copy of the algorithm on a small stratified slice of a
    training fold, so that one-off costs (loading Numba's compiled kernels, JIT, imports)
    are not recorded as the first split's fit time. Errors are ignored: the real split
    reports them. Returns whether the warm-up ran to the end."""
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x3A7]))
    train = split.train
    ytr = ds.y[train]
    picked = []
    for c in np.unique(ytr):  # a few rows of every class, so the slice is a valid training set
        members = train[ytr == c]
        picked.append(rng.permutation(members)[: max(2, n_rows // max(1, np.unique(ytr).size))])
    rows = np.sort(np.concatenate(picked))[: max(n_rows, 2 * len(picked))]
    try:
        mini = Split(split.repeat, split.fold, rows, split.test[: min(50, split.test.size)], index=split.index)
        run_split(algo_cfg, ds, mini, seed)
        return True
    except Exception:
        return False


def check_seed(seed) -> int:
    """The seed as an int >= 0 (numpy's SeedSequence takes no negative entropy)."""
    try:
        value = int(seed)
        if isinstance(seed, bool) or (isinstance(seed, float) and not seed.is_integer()):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise SetupError(f"seed={seed} is not an integer; seeds must be integers >= 0: give seed=<integer >= 0>, "
                         f"e.g. seed=0 (or seed=0,1,2 with -m for several)") from None
    if value < 0:
        raise SetupError(f"seed={seed} is negative; seeds must be integers >= 0 (e.g. seed=0, or seed=0,1,2 "
                         f"with -m for several)")
    return value


def check_data_max(value) -> int | None:
    """``data_max_gb`` in bytes (None: no cap)."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() in ("", "null", "none")):
        return None
    try:
        gb = float(value)
        if isinstance(value, bool) or gb != gb or gb <= 0:
            raise ValueError
    except (TypeError, ValueError):
        raise SetupError(f"data_max_gb={value!r} is not a size; give the largest decompressed data file a job may "
                         f"parse in GiB (e.g. data_max_gb=4) or data_max_gb=null (no cap)") from None
    return int(gb * 2**30)


def load_guard(mem_limit: int | None) -> int | None:
    """The memory limit of what runs in the job's own process (data loading, the warm-up): the
    larger of the split's limit and ``auto`` (0.85 of physical memory), None when there is none."""
    if not mem_limit:
        return None
    guard = resolve_mem_limit("auto")
    return max(guard, mem_limit) if guard else mem_limit


def _load_bounded(data_cfg, mem_limit, option, max_bytes):
    """The job's dataset, loaded under the decompressed-size cap and the machine guard
    (:func:`load_guard`), not the split's own limit: parsing runs in the job's process, where C and
    C++ libraries (pandas' parser, Arrow's allocator) under a tight limit can fail in worse ways than
    a MemoryError (the same reason the warm-up runs there under the guard)."""
    from .data import DataError
    from .data.readers import size_limit

    guard = load_guard(mem_limit)
    try:
        with size_limit(max_bytes), memory_limit(guard):
            return load(data_cfg)
    except MemoryError as exc:
        import gc

        gc.collect()
        name = data_cfg if isinstance(data_cfg, str) else (dict(data_cfg).get("name") if data_cfg else None)
        raise DataError(f"loading dataset {name!r} needed more memory than the limit of {guard / 2**30:.2f} GiB "
                        f"(the larger of mem_limit_gb={option} and mem_limit_gb=auto; {type(exc).__name__}: {exc}); "
                        f"the file holds more than it looks (check it), or raise mem_limit_gb=<GiB> if the machine "
                        f"has the memory") from None


def check_time_limit(value) -> float | None:
    """``time_limit_s`` as a positive number of seconds, or None (no limit: None, 0, "null", "none")."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() in ("", "null", "none", "0")):
        return None
    try:
        t = float(value)
        if isinstance(value, bool) or t != t or t < 0 or t == float("inf"):
            raise ValueError
    except (TypeError, ValueError):
        raise SetupError(f"time_limit_s={value!r} is not a time limit; give a number of seconds per split "
                         f"(e.g. time_limit_s=600) or time_limit_s=null (no limit)") from None
    return t or None


def check_protocol(protocol: dict) -> None:
    """Reject protocol settings that plan no splits or cannot be split, naming the key."""
    name = protocol.get("name", "protocol")
    for k in ("n_repeats", "n_splits"):
        if k in protocol:
            try:
                v = int(protocol[k])
            except (TypeError, ValueError):
                raise SetupError(f"protocol.{k}={protocol[k]!r} is not an integer (protocol {name!r})") from None
            least = 2 if k == "n_splits" else 1
            if v < least:
                what = "no split would be run" if k == "n_repeats" else "k-fold needs at least 2 folds"
                raise SetupError(f"protocol.{k}={v} in protocol {name!r}: {what}; set protocol.{k} to an "
                                 f"integer >= {least}")
    if protocol.get("kind") == "train_sizes" and not protocol.get("train_sizes"):
        raise SetupError(f"protocol {name!r} of kind train_sizes lists no train_sizes; give e.g. "
                         f"protocol.train_sizes=[100,1000]")


def check_class_sizes(ds: Dataset, protocol: dict) -> list[str]:
    """Classes too small for the protocol's folds. Under k-fold, a class with fewer rows than folds
    cannot be in every test fold (and a class of one row is missing from the training fold that
    tests it): a warning naming them; when every class is that small, stratification cannot hold
    at all: SetupError. Under a holdout, a class whose every row falls in the test set is never
    trained on: a warning. Returns the classes warned about."""
    counts = ds.class_counts()
    present = np.flatnonzero(counts > 0)
    name = protocol.get("name", "protocol")
    kind = protocol.get("kind", "kfold")
    if kind == "kfold" and "n_splits" in protocol:
        k = int(protocol["n_splits"])
        small = [c for c in present if counts[c] < k]
        if small and len(small) == len(present):
            largest = int(counts.max())
            fewer = f"use fewer folds (protocol.n_splits={largest} or less) or " if largest >= 2 else ""
            raise SetupError(
                f"every class of dataset {ds.name!r} has fewer rows than the {k} folds of protocol {name!r} (the "
                f"largest class has {largest} row{'s' if largest != 1 else ''}, over {len(present)} classes): "
                f"stratified {k}-fold cross-validation cannot keep the classes in its folds; {fewer}group the classes "
                f"(class_groups in conf/data/{ds.name}.yaml)")
        why = (f"fewer rows than the {k} folds of protocol {name!r}: some test folds hold none of their rows, and a "
               f"class of one row is missing from the training fold that tests it")
    elif kind in ("holdout", "train_sizes"):
        f = float(protocol.get("test_size", 1 / 3 if kind == "holdout" else 0.25))
        small = [c for c in present if int(round(f * counts[c])) >= counts[c]]
        why = f"all their rows in the test set of protocol {name!r} (test_size={f:g}): no model is trained on them"
    else:
        return []
    if small:
        shown = ", ".join(f"{ds.classes[c]!r} ({counts[c]} row{'s' if counts[c] != 1 else ''})" for c in small[:8])
        more = f" and {len(small) - 8} more" if len(small) > 8 else ""
        log.warning("dataset %s: %d of %d classes have %s: %s%s", ds.name, len(small), len(present), why, shown, more)
    return [ds.classes[c] for c in small]


def check_classes(ds: Dataset) -> None:
    """A dataset with fewer than two classes cannot train any classifier: say so up front."""
    present = np.unique(ds.y)
    if present.size < 2:
        only = ds.classes[int(present[0])] if present.size else "none"
        raise SetupError(
            f"dataset {ds.name!r} has a single class ({only!r}) in its {ds.n_instances} rows: a classifier "
            f"needs at least two. Check its class column (`target`) and `class_groups` in conf/data/"
            f"{ds.name}.yaml (or the overrides on the command line).")


def check_writable(directory, results_dir) -> None:
    """Create the job's record folder, or raise SetupError naming the results directory and the fix."""
    import os

    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not os.access(directory, os.W_OK):
            raise PermissionError(13, "Permission denied", str(directory))
    except OSError as exc:
        raise SetupError(
            f"cannot write records under the results directory {results_dir} ({exc.strerror or exc}: "
            f"{exc.filename or directory}); choose a writable one with results_dir=<path> or "
            f"BENCH_RESULTS_DIR=<path>") from None


def _protocol_text(protocol: dict) -> str:
    return ", ".join(f"{k}={protocol[k]}" for k in ("kind", "n_splits", "n_repeats", "train_sizes") if k in protocol)


def _data_cfg_dict(data_cfg) -> dict:
    from .data.registry import _as_dict

    return _as_dict(data_cfg)


def _legacy_data_ok(data_cfg, ds: Dataset) -> bool:
    """Records of the earlier layout do not say which data config made them; they are taken
    to use the dataset's registered config. So they may stand for this job only when its data
    config is exactly the registered one (no overrides)."""
    from .data import dataset_config
    from .data.dataset import DataError
    from .store import DATA_DESCRIPTIVE_KEYS

    try:
        registered = dataset_config(ds.name)
    except DataError:
        return False
    strip = lambda c: {k: v for k, v in c.items() if k not in DATA_DESCRIPTIVE_KEYS or k == "sources"}  # noqa: E731
    return strip(_data_cfg_dict(data_cfg)) == strip(registered)


def _compute_or_reuse(store, split, algo_cfg, ds, seed, context, rerun, retry_failed, result, legacy=None):
    rec = _reusable(store.get(split.repeat, split.fold), context, rerun, retry_failed)
    if rec is None and legacy is not None and not rerun:
        adopted = store.adopt(legacy, split.repeat, split.fold, context) if context.get("_legacy_ok") else None
        rec = _reusable(adopted, context, rerun, retry_failed)
    if rec is not None:
        result.reused += 1
        return rec
    if result.warmed_up is None and context.get("warmup", True):
        t0 = time.perf_counter()
        result.warmed_up = _warm(algo_cfg, ds, split, seed, context)
        result.wall["warmup_s"] = result.wall.get("warmup_s", 0.0) + time.perf_counter() - t0
    rec, preds = _evaluate(algo_cfg, ds, split, seed, context)
    result.wall["own_s"] = result.wall.get("own_s", 0.0) + sum(
        float((rec.get("times") or {}).get(k) or 0.0) for k in OWN_TIMES)
    try:
        stored = store.put(rec, preds, sync=False)
    except OSError as exc:  # disk full, permissions: store the split as failed where that still fits
        if not exc.filename:
            exc.filename = str(store.dir)
        failed = {**rec, "status": "failed", "error": f"{type(exc).__name__}: the split's result could not be "
                  f"stored ({exc})", "traceback": traceback.format_exc(), "lost_status": rec.get("status")}
        for k in ("metrics", "metrics_by_budget"):
            failed.pop(k, None)
        try:
            failed = store.put(failed, None)
        except OSError:
            failed["path"] = str(store.record_path(split.repeat, split.fold))
        result.computed += 1
        _collect(result, failed)
        exc.bench_collected = True
        raise
    result.computed += 1
    return stored


#: the longest the warm-up may take in its trial child process (seconds; the split's time limit if shorter)
PROBE_S = 300.0


def _warm(algo_cfg, ds, split, seed, context) -> bool:
    """The warm-up (:func:`warm_up`) runs in the job's own process, so that the kernels it loads
    are loaded once and every split's child process inherits them; loading a Numba kernel under a
    tight memory limit is what made LLVM abort the whole process. It runs there under the machine
    guard (:data:`bench.resources.AUTO_MEM_FRACTION` of physical memory, or the split's limit when
    that is larger), not under the split's limits. When the split's limits are tighter (an explicit
    ``mem_limit_gb`` below the guard, or a ``time_limit_s``), the common kernels are first loaded
    on a small synthetic table (:func:`_preload_kernels`), then the warm-up is tried in a child
    process under the split's limits (at most :data:`PROBE_S` seconds), and runs in the job's
    process only if it ended there: what fits a split's limits is then safe to run unguarded by them."""
    limit, tlimit = context.get("_mem_limit"), context.get("_time_limit")
    if not limit and not tlimit:
        return warm_up(algo_cfg, ds, split, seed)
    guard = load_guard(limit)
    if tlimit or (limit and guard and limit < guard):
        _preload_kernels(algo_cfg, guard)  # so the probe, and the splits, seldom load one under their limit
        probe = run_limited(lambda: warm_up(algo_cfg, ds, split, seed), limit, min(tlimit or PROBE_S, PROBE_S))
        if probe.kind != "returned" or not probe.value:
            return False
    with memory_limit(guard):
        return warm_up(algo_cfg, ds, split, seed)


def _preload_kernels(algo_cfg, guard) -> None:
    """Load the algorithm's common kernels in the job's process on :mod:`bench.warm`'s small
    synthetic table (10 attributes, 800 rows: little memory whatever the real data), before the
    warm-up on the real data is tried under the split's limits: loading a kernel under a tight
    limit is what aborted LLVM or spun in malloc. Errors are ignored."""
    from .data.synthetic import warm_table

    try:
        with memory_limit(guard):
            run_split(algo_cfg, warm_table(800), Split(0, 0, np.arange(600), np.arange(600, 800)), 0)
    except Exception:
        pass


def _in_child(algo_cfg, ds, split, seed, parent_rss_mb: float):
    """:func:`run_split` for a child process. Its memory figures are made the job process's: a
    forked child's resident set does not count the parent's shared library pages until it touches
    them, so the RSS at the fork is taken from the parent and the split's increase from the child
    (``peak_rss_mb`` = the parent's RSS + the child's peak increase, as if the split ran in the
    job's process)."""

    def fn():
        offset = parent_rss_mb - rss_mb()
        fields, preds = run_split(algo_cfg, ds, split, seed)
        mem = fields.get("memory") or {}
        for k in ("peak_rss_mb", "start_rss_mb"):
            if isinstance(mem.get(k), float) and offset == offset:
                mem[k] += offset
        return fields, preds

    return fn


def _classify(exc) -> dict:
    return {"not_applicable": isinstance(exc, NotApplicableError)}


def _evaluate(algo_cfg, ds, split, seed, context) -> tuple[dict, dict | None]:
    started = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    rec = {**{k: v for k, v in context.items() if not k.startswith("_")}, "repeat": split.repeat, "fold": split.fold, "n_train": int(split.train.size),
           "n_test": int(split.test.size), "train_size": split.train_size,
           "started_at": started.isoformat(timespec="seconds")}
    limit, tlimit = context.get("_mem_limit"), context.get("_time_limit")
    option = context.get("_mem_limit_option")
    before_mb = data_mb()
    preds = None
    where = f"split r{split.repeat} f{split.fold} of {context['algo']} on {context['dataset']}"
    if limit or tlimit:  # in a child process, which alone suffers whatever happens when it runs out
        worker = context.get("_worker")
        if worker is not None:  # the job's worker process (bench.resources.LimitedWorker)
            out = worker.call((split.repeat, split.fold, rss_mb()), tlimit)
        else:
            out = run_limited(_in_child(algo_cfg, ds, split, seed, rss_mb()), limit, tlimit, classify=_classify)
        if out.kind == "returned":
            fields, preds = out.value
            rec.update(fields)
            rec["status"] = "ok"
        elif out.kind == "raised":
            e = out.error
            rec["status"] = "not_applicable" if e.get("not_applicable") else "failed"
            rec["error"] = f"{e['type']}: {e['message']}"
            rec["traceback"] = e["traceback"]
            if e.get("memory"):
                rec["error"] += _memory_hint(limit, option, before_mb)
                rec["memory_limit_mb"] = None if not limit else limit / 2**20
        elif out.kind == "timeout":
            rec["status"] = "timeout"
            rec["error"] = (f"TimeoutError: the split ran longer than the per-split time limit of {tlimit:g} s "
                            f"(time_limit_s={tlimit:g}) and was stopped. Raise it with time_limit_s=<seconds> "
                            f"(or time_limit_s=null for none) to compute it.")
            rec["traceback"] = None
            rec["time_limit_s"] = tlimit
        elif out.signal == _signal.SIGINT:  # Ctrl-C reached the split's process: interrupted, not failed
            raise KeyboardInterrupt
        else:
            rec["status"] = "failed"
            rec["error"] = _death_message(out, limit, option, before_mb)
            rec["traceback"] = out.stderr_tail or None
            rec["memory_limit_mb"] = None if not limit else limit / 2**20
    else:
        try:
            fields, preds = run_split(algo_cfg, ds, split, seed)
            rec.update(fields)
            rec["status"] = "ok"
        except Exception as exc:  # any failure is recorded, never fatal to the job
            # the model does not apply to the data (e.g. a 1023-bit ECOC code for 6 classes): not a failure
            rec["status"] = "not_applicable" if isinstance(exc, NotApplicableError) else "failed"
            rec["error"] = f"{type(exc).__name__}: {exc}"
            rec["traceback"] = traceback.format_exc()
            if isinstance(exc, MemoryError):
                rec["error"] += _memory_hint(limit, option, before_mb)
                rec["memory_limit_mb"] = None
        if rec["status"] != "ok":  # give the failed split's arrays back now
            import gc

            gc.collect()
    if rec["status"] in ("failed", "timeout"):
        log.warning("%s %s: %s", where, "failed" if rec["status"] == "failed" else "timed out", rec["error"])
    elif rec["status"] == "not_applicable":
        log.info("%s does not apply to %s (split r%d f%d): %s", context["algo"], context["dataset"],
                 split.repeat, split.fold, rec["error"])
    rec["duration_s"] = time.perf_counter() - t0
    rec["finished_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return rec, preds


def _death_message(out, limit, option, before_mb) -> str:
    """The error of a split whose process ended without an answer (killed by a signal, or an abort
    in native code)."""
    import signal as _signal

    if out.signal:
        try:
            how = f"was killed by {_signal.Signals(out.signal).name}"
        except ValueError:
            how = f"was killed by signal {out.signal}"
    else:
        how = f"exited with status {out.exit_code} without a result"
    lines = [ln.strip() for ln in out.stderr_tail.splitlines() if ln.strip()
             and not ln.startswith(("Extension modules", "  File ", "Current thread", "Thread 0x"))]  # faulthandler's
    last = " ".join(lines[-3:])[-300:]
    said = f"; its last words on stderr: {last!r}" if last else ""
    if limit:
        return (f"SplitCrashed: the split's process {how}{said} -- it ran under the per-split memory limit of "
                f"{limit / 2**30:.2f} GiB (mem_limit_gb={option}; the process's data memory was "
                f"{before_mb / 1024:.2f} GiB when the split started): native code (LLVM, C++) that cannot "
                f"allocate memory aborts instead of raising MemoryError. Raise it with mem_limit_gb=<GiB> on the "
                f"command line (or mem_limit_gb=null for no limit) if the machine has the memory.")
    return f"SplitCrashed: the split's process {how}{said}"


def _memory_hint(limit: int | None, option, before_mb: float) -> str:
    """The explanation appended to a split's MemoryError."""
    if not limit:
        return (" (no per-split memory limit was set: the machine ran out of memory; "
                "set mem_limit_gb=<GiB> to bound a split)")
    return (f" -- the split exceeded the per-split memory limit of {limit / 2**30:.2f} GiB "
            f"(mem_limit_gb={option}; RLIMIT_DATA on this process's data memory, which was "
            f"{before_mb / 1024:.2f} GiB when the split started). Raise it with mem_limit_gb=<GiB> on the "
            f"command line (or mem_limit_gb=null for no limit) if the machine has the memory.")


def _job_context(algo_cfg, ds, protocol, key) -> dict:
    return {
        "record_version": 2,
        "experiment": key.experiment,
        "dataset": ds.name,
        "dataset_sha256": ds.meta.get("sha256"),
        "dataset_source": ds.meta.get("source"),
        "n_instances": ds.n_instances,
        "n_features": ds.n_features,
        "n_classes": ds.n_classes,
        "algo": key.algo,
        "algo_hash": key.algo_hash,
        "algo_config": algo_cfg,
        "protocol": key.protocol,
        "protocol_config": protocol,
        "seed": key.seed,
        **provenance(),
    }


def _reusable(rec: dict | None, context: dict, rerun: bool, retry_failed: bool, quiet: bool = False) -> dict | None:
    """A stored record that may stand for this split, or None to compute it (saying why, unless ``quiet``)."""
    warn = (lambda *a: None) if quiet else log.warning
    if rec is None or rerun:
        return None
    if rec.get("status") not in ("ok", "not_applicable") and retry_failed:
        return None  # a failed split is tried again (a not-applicable one is a property of the data)
    if rec.get("dataset_sha256") != context["dataset_sha256"]:
        warn("stored record %s was made from different data (sha256 %s); recomputing",
             rec.get("path"), str(rec.get("dataset_sha256"))[:12])
        return None
    if rec.get("protocol_config") != context["protocol_config"]:
        warn("stored record %s was made under other protocol settings; recomputing", rec.get("path"))
        return None
    for k in ("data_key", "protocol_key"):
        if rec.get(k) != context.get(k):
            warn("stored record %s has %s %s, this job %s; recomputing", rec.get("path"), k,
                 rec.get(k), context.get(k))
            return None
    if "code_fingerprint" in rec and rec.get("code_fingerprint") != context.get("code_fingerprint"):
        changed = changed_parts(rec.get("code_files"), context.get("code_files") or {})
        warn("stored record %s was made by other code (changed since: %s); recomputing", rec.get("path"),
             ", ".join(changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "") or "unknown")
        return None
    problem = predictions_problem(rec) or metrics_problem(rec)
    if problem:
        warn("%s; the split will be recomputed", problem)
        return None
    return rec


def _collect(result: JobResult, rec: dict) -> None:
    result.records.append(rec)
    if rec.get("status") == "not_applicable":
        result.not_applicable.append(rec)
    elif rec.get("status") != "ok":
        result.failed.append(rec)


def _postfix(result: JobResult) -> str:
    errs = [r["metrics"]["error"] for r in result.records if r.get("status") == "ok"]
    s = f"error={np.mean(errs):.4f}" if errs else ""
    if result.failed:
        s += f" failed={len(result.failed)}"
    return s


def _progress(total: int, desc: str, enabled: bool, position: int | None = None):
    """A tqdm progress bar over splits on stderr; with ``enabled`` False, tqdm's own silent one.
    With ``position`` (a sweep's parallel jobs: one terminal line each) the bar stays on that line
    and is cleared when the job ends (the job prints its one-line summary instead)."""
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="split", file=sys.stderr, dynamic_ncols=True,
                leave=position is None, position=position, disable=not enabled)
