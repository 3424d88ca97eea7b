"""What an experiment will cost before it runs, and its submission to SLURM as sized job arrays.

``python -m bench.experiments plan NAME --scale full`` prints the number of jobs and splits and,
per algorithm and dataset, the estimated CPU hours and peak memory, from the timings already
stored at smaller scales.

How the estimate is made (also printed with every plan):

1. **Observations.** Every stored split record under the results directories (``train_cpu_s``,
   ``test_cpu_s``, ``peak_rss_mb``, with the record's ``n_train``, ``n_test``, ``n_features``,
   ``n_classes``), the shipped evidence (``reports/evidence/*.records.parquet``: the same fields,
   one row per split of the papers' runs; a swept variant by its swept values) and the
   per-(algorithm, dataset) means of the committed reports (``reports/*/summary_long.csv``:
   ``train_s`` and ``test_s`` per split, training and test sizes from the protocol and the
   dataset's config; no memory). Records win over evidence, and evidence over reports, where
   more than one holds the same (algorithm, dataset).
2. **A cost model per algorithm.** Training CPU seconds per split is fitted as
   ``t = t0 + exp(a) * n_train^b_r * attributes^b_a * classes^b_c``: ``t0`` = 0.8 x the
   algorithm's fastest split is the fixed part (on tiny datasets the cost is the interpreter's,
   not the algorithm's, and would flatten the exponents); the power law is fitted by least squares
   on the logs of ``t - t0`` over the splits at least 1.5 x ``t0``, with a ridge pull (weight
   ``RIDGE``) of the three exponents towards 1 (linear growth), so that a handful of datasets
   cannot produce wild exponents, while many datasets override it; exponents stay within [0, 3].
   Test CPU is fitted the same way on ``n_test``.
   A swept variant (``massbayes[psi=1000]``) uses its own observations when the evidence or the
   reports hold them, otherwise its algorithm's; an algorithm measured only as swept variants uses
   theirs.
3. **Prediction.** Where the algorithm was measured on the same dataset, that measurement is
   scaled by ``(n_train / n_train measured)^b_r`` above ``t0`` (the protocol may differ); elsewhere the power
   law gives it. The fit's leave-one-dataset-out error is printed as "typical factor" (the
   geometric mean of the ratio between prediction and measurement).
4. **Memory.** A job's peak resident memory is the process's resident memory before the data
   (``start_rss_mb``: interpreter, libraries) plus what the split adds (``peak_rss_mb`` -
   ``start_rss_mb``). Where records or evidence measured it on that dataset, the largest
   measurement is taken ("memory: measured"), its added part scaled by the rows when the plan's
   splits are larger; elsewhere the added part is fitted by the same power law against
   (rows, attributes, classes) of the measured datasets and added to the smallest start
   ("memory: fitted"). The fixed part is kept out of the fit: fitted on the whole peak, the few
   hundred MB of the interpreter would grow with the rows like the data do.
   Where nothing measured the algorithm's memory (the reports hold none), it is a rough upper
   bound ("memory: rough upper bound"): ``BASE_RSS_MB`` + the dataset as float64 four times
   (data, training and test copies, one transformed copy) + twice the model size (the reports'
   ``model_mb`` on that dataset, else fitted against attributes x classes). A SLURM array asks
   for the largest estimate of its jobs times ``MEM_SAFETY`` (measured) or ``MEM_SAFETY_FITTED``
   (fitted or bound), at least 1 GB.
5. **Jobs.** Each job (one algorithm x dataset x seed x swept value) adds ``JOB_OVERHEAD_S`` of
   start-up (interpreter, imports, Numba cache, data loading, warm-up fit).

The estimate is not a promise: models whose cost depends on the data (tree depth, MDL cut points,
ensemble structure) can be off by several times on one dataset; the per-algorithm factor says how
far off the fit was on the datasets it was fitted on.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path

import numpy as np

#: resident memory of a bench job before it loads data (interpreter, numpy, sklearn, numba)
BASE_RSS_MB = 400.0
#: CPU seconds per job outside its splits (start-up, imports, data loading, warm-up)
JOB_OVERHEAD_S = 10.0
#: a SLURM job's memory request over its estimated peak: measured on the dataset, and fitted or bound
#: (a job over its request is killed; left out of the fit one dataset at a time, the fitted peak of the shipped
#: evidence's cells is typically within x1.15 of the stored one, and within x2 for 99 % of them)
MEM_SAFETY = 1.5
MEM_SAFETY_FITTED = 2.0


@dataclass
class Obs:
    label: str          # algorithm name, or name[key=value,...] for a swept variant
    dataset: str
    n_train: float
    n_test: float
    attrs: float
    classes: float
    train_s: float
    test_s: float
    peak_mb: float | None = None
    start_mb: float | None = None
    model_mb: float | None = None
    source: str = "records"


@dataclass
class Fit:
    """t = t0 + exp(a + b . log(x)); ``x`` = (rows, attributes, classes);
    ``t0`` is the fixed cost of a split (interpreter, bookkeeping) that does not grow with x."""
    a: float
    b: tuple            # (b_rows, b_attrs, b_classes)
    n_datasets: int
    loo_factor: float | None  # geometric mean of max(pred/meas, meas/pred), leave one dataset out
    form: str
    t0: float = 0.0

    def __call__(self, rows: float, attrs: float, classes: float) -> float:
        x = np.log([max(rows, 1.0), max(attrs, 1.0), max(classes, 1.0)])
        return self.t0 + float(math.exp(self.a + float(np.dot(self.b, x))))

    def describe(self) -> str:
        base = f"{self.t0:.3g} + " if self.t0 else ""
        return f"{base}exp({self.a:.2f}) rows^{self.b[0]:.2f} attrs^{self.b[1]:.2f} classes^{self.b[2]:.2f}"


#: weight of the prior "cost grows linearly in rows, attributes and classes" against the data
#: (in squared log units): with a handful of datasets the exponents stay near 1, with many the
#: data decide
RIDGE = 1.0
PRIOR_B = np.ones(3)


def _fit_once(logx: np.ndarray, logt: np.ndarray) -> tuple[float, tuple]:
    """Least squares of ``logt = a + logx . b`` with a ridge pull of ``b`` towards ``PRIOR_B``;
    exponents kept within [0, 3]."""
    n = len(logt)
    xm, ym = logx.mean(axis=0), logt.mean()
    xc, yc = logx - xm, logt - ym
    A = xc.T @ xc + RIDGE * np.eye(3)
    b = np.linalg.solve(A, xc.T @ yc + RIDGE * PRIOR_B)
    b = np.clip(b, 0.0, 3.0)
    a = float(ym - xm @ b) if n else 0.0
    return a, tuple(float(v) for v in b)


def fit_power(rows, attrs, classes, t, groups, fixed: bool = True) -> Fit | None:
    """Fit ``t`` (> 0) against (rows, attrs, classes); ``groups`` = dataset of each point.

    With ``fixed``, a fixed part ``t0`` = 0.8 x the smallest value is taken off first, and the power
    law is fitted on the points at least 1.5 times ``t0`` when 3 datasets or more have such points
    (on tiny datasets the fixed part hides how the cost grows)."""
    rows, attrs, classes, t = (np.asarray(v, dtype=float) for v in (rows, attrs, classes, t))
    groups = np.asarray(groups)
    ok = np.isfinite(t) & (t > 0) & (rows > 0)
    if not ok.any():
        return None
    t0 = 0.8 * float(t[ok].min()) if fixed else 0.0
    big = ok & (t >= 1.5 * t0)
    if fixed and len(set(groups[big])) >= 3:
        ok = big
    elif fixed:
        t0 = 0.0  # too few points above the fixed part: plain power law on all points
    logx = np.log(np.column_stack([rows, np.maximum(attrs, 1), np.maximum(classes, 1)]))[ok]
    logt, g = np.log(t[ok] - t0), groups[ok]
    uniq = sorted(set(g))
    a, b = _fit_once(logx, logt)
    loo = None
    if len(uniq) >= 3:
        errs = []
        for d in uniq:
            tr = g != d
            a2, b2 = _fit_once(logx[tr], logt[tr])
            pred = t0 + np.exp(a2 + logx[~tr] @ np.asarray(b2))
            errs.extend(np.abs(np.log(pred) - np.log(t[ok][~tr])))
        loo = float(math.exp(np.mean(errs)))
    return Fit(a, b, len(uniq), loo, "ridge", t0)


# ------------------------------------------------------------------ observations
@lru_cache(maxsize=None)
def _dataset_dims(name: str) -> tuple[float, float, float] | None:
    from .data.registry import dataset_config

    try:
        exp = dataset_config(name).get("expected") or {}
    except Exception:
        return None
    if not all(exp.get(k) for k in ("rows", "features", "classes")):
        return None
    return float(exp["rows"]), float(exp["features"]), float(exp["classes"])


@lru_cache(maxsize=None)
def _protocol_config(name: str) -> dict | None:
    from omegaconf import OmegaConf

    from .data.registry import conf_dir

    path = conf_dir() / "protocol" / f"{name}.yaml"
    if not path.exists():
        return None
    return OmegaConf.to_container(OmegaConf.load(path), resolve=True)


def train_test_sizes(protocol: dict, rows: float) -> tuple[float, float]:
    """Mean training and test rows of a split of ``protocol`` on ``rows`` instances."""
    kind = protocol.get("kind", "kfold")
    if kind == "kfold":
        k = int(protocol["n_splits"])
        return rows * (k - 1) / k, rows / k
    if kind == "holdout":
        f = float(protocol.get("test_size", 1 / 3))
        return rows * (1 - f), rows * f
    if kind == "train_sizes":
        f = float(protocol.get("test_size", 0.25))
        return float(np.mean(protocol["train_sizes"])), rows * f
    raise ValueError(f"unknown protocol kind {kind!r}")


def _observations(rows, source: str) -> list[Obs]:
    """One observation per (label, dataset, training size) of ok split ``rows`` (dicts with
    ``label``, ``dataset``, ``n_train``, ``n_test``, ``n_features``, ``n_classes``, ``train_cpu_s``,
    ``test_cpu_s``, ``peak_rss_mb``, ``start_rss_mb``, ``model_bytes``): the means over its splits,
    the largest peak memory and the smallest start."""
    acc: dict[tuple, list] = {}
    for r in rows:
        acc.setdefault((r["label"], r["dataset"], int(r.get("n_train") or 0)), []).append(r)

    def present(vals):
        return [float(v) for v in vals if v is not None and np.isfinite(v) and v > 0]

    out = []
    for (label, ds, n_train), recs in acc.items():
        peaks = present(r.get("peak_rss_mb") for r in recs)
        starts = present(r.get("start_rss_mb") for r in recs)
        sizes = [v / 2**20 for v in present(r.get("model_bytes") for r in recs)]
        out.append(Obs(label, ds, float(n_train), float(np.mean([r["n_test"] for r in recs])),
                       float(recs[0]["n_features"]), float(recs[0]["n_classes"]),
                       float(np.mean([r["train_cpu_s"] for r in recs])),
                       float(np.mean([r["test_cpu_s"] for r in recs])),
                       max(peaks) if peaks else None, min(starts) if starts else None,
                       float(np.mean(sizes)) if sizes else None, source))
    return out


def observations_from_records(roots: list[Path]) -> list[Obs]:
    """One observation per (algorithm, dataset, training size): the means over its ok splits."""
    from .store import iter_record_paths

    rows = []
    for root in roots:
        if not Path(root).is_dir():
            continue
        for path in iter_record_paths(root):
            try:
                rec = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            if rec.get("status") != "ok" or not rec.get("times"):
                continue
            mem = rec.get("memory") or {}
            rows.append({"label": rec["algo"], "dataset": rec["dataset"], "n_train": rec.get("n_train"),
                         "n_test": rec["n_test"], "n_features": rec["n_features"], "n_classes": rec["n_classes"],
                         "train_cpu_s": rec["times"]["train_cpu_s"], "test_cpu_s": rec["times"]["test_cpu_s"],
                         "peak_rss_mb": mem.get("peak_rss_mb"), "start_rss_mb": mem.get("start_rss_mb"),
                         "model_bytes": rec.get("model_bytes")})
    return _observations(rows, "records")


#: the evidence columns an observation reads
_EVIDENCE_COLUMNS = ("algo", "dataset", "status", "n_train", "n_test", "n_features", "n_classes",
                     "times.train_cpu_s", "times.test_cpu_s", "memory.peak_rss_mb", "memory.start_rss_mb",
                     "model_bytes", "algo_config")


def _swept_value(algo_config, key: str):
    """The value of a swept key (``algo.estimator.psi``) in a record's algorithm config, or None."""
    node = json.loads(algo_config) if isinstance(algo_config, str) else algo_config
    parts = key.split(".")
    for part in parts[1:] if parts[0] == "algo" else parts:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def observations_from_evidence(evidence_dir: Path) -> list[Obs]:
    """One observation per (algorithm or swept variant, dataset, training size) of the shipped
    evidence (``<experiment>.records.parquet``, one row per split, and ``<experiment>.plan.json``,
    whose swept keys name the variants as ``_sweep_labels`` does): the means over its ok splits."""
    import pyarrow.parquet as pq

    rows = []
    for path in sorted(Path(evidence_dir).glob("*.records.parquet")):
        names = set(pq.read_schema(path).names)
        if not {"algo", "dataset", "status", "times.train_cpu_s", "times.test_cpu_s"} <= names:
            continue
        df = pq.read_table(path, columns=[c for c in _EVIDENCE_COLUMNS if c in names]).to_pandas()
        df = df[df["status"] == "ok"]
        if df.empty:
            continue
        sweep = {}
        plan_path = path.with_name(path.name.replace(".records.parquet", ".plan.json"))
        try:
            sweep = json.loads(plan_path.read_text()).get("sweep") or {}
        except (OSError, ValueError):
            pass
        labels = df["algo"].astype(str)
        if sweep and "algo_config" in df:
            inner = df["algo_config"].map(lambda c: ",".join(
                f"{k.rsplit('.', 1)[-1]}={_swept_value(c, k)}" for k in sweep))
            labels = labels + "[" + inner + "]"
        get = lambda c: df[c].tolist() if c in df else [None] * len(df)  # noqa: E731
        for vals in zip(labels, *(get(c) for c in _EVIDENCE_COLUMNS[1:] if c != "algo_config")):
            lab, ds, _, n_train, n_test, n_feat, n_cls, tr, te, peak, start, size = vals
            rows.append({"label": lab, "dataset": ds, "n_train": n_train, "n_test": n_test,
                         "n_features": n_feat, "n_classes": n_cls, "train_cpu_s": tr, "test_cpu_s": te,
                         "peak_rss_mb": peak, "start_rss_mb": start, "model_bytes": size})
    return _observations(rows, "evidence")


def observations_from_reports(reports_dir: Path) -> list[Obs]:
    """The committed reports' per-(algorithm, dataset) means (no memory in them)."""
    seen: dict[tuple, Obs] = {}
    for path in sorted(Path(reports_dir).glob("*/summary_long.csv")):
        with open(path, newline="") as fh:
            for row in csv.DictReader(fh):
                try:
                    train_s, test_s = float(row["train_s"]), float(row["test_s"])
                except (KeyError, TypeError, ValueError):
                    continue
                dims = _dataset_dims(row["dataset"])
                proto = _protocol_config(row.get("protocol") or "")
                if dims is None or proto is None or proto.get("kind") not in ("kfold", "holdout"):
                    continue
                from .protocols import resolve

                n_train, n_test = train_test_sizes(resolve(proto, row["dataset"]), dims[0])
                model_mb = float(row["model_mb"]) if row.get("model_mb") not in (None, "") else None
                seen[(row["algo"], row["dataset"], round(n_train))] = Obs(
                    row["algo"], row["dataset"], n_train, n_test, dims[1], dims[2], train_s, test_s,
                    None, None, model_mb, "reports")
    return list(seen.values())


def collect(results_dirs: list[Path], reports_dir: Path | None) -> list[Obs]:
    """Observations from the records, then the evidence (``reports_dir/evidence``), then the reports'
    means, each only for the (label, dataset) cells the earlier sources do not hold."""
    out = observations_from_records(results_dirs)
    if reports_dir:
        for more in (observations_from_evidence(Path(reports_dir) / "evidence"),
                     observations_from_reports(reports_dir)):
            have = {(o.label, o.dataset) for o in out}
            out += [o for o in more if (o.label, o.dataset) not in have]
    return out


# ------------------------------------------------------------------ the model
@dataclass
class AlgoModel:
    label: str
    obs: list
    train: Fit | None
    test: Fit | None
    mem: Fit | None
    start_mb: float | None
    model: Fit | None
    sources: set = field(default_factory=set)


def build_models(obs: list[Obs]) -> dict[str, AlgoModel]:
    by: dict[str, list[Obs]] = {}
    for o in obs:
        by.setdefault(o.label, []).append(o)
    variants: dict[str, list[Obs]] = {}
    for o in obs:
        if "[" in o.label:  # swept variants stand for their algorithm where it has no observations of its own
            variants.setdefault(o.label.split("[", 1)[0], []).append(o)
    for base, os_ in variants.items():
        by.setdefault(base, os_)
    models = {}
    for label, os_ in by.items():
        g = [o.dataset for o in os_]
        tr = fit_power([o.n_train for o in os_], [o.attrs for o in os_], [o.classes for o in os_],
                       [o.train_s for o in os_], g)
        te = fit_power([o.n_test for o in os_], [o.attrs for o in os_], [o.classes for o in os_],
                       [o.test_s for o in os_], g)
        withmem = [o for o in os_ if o.peak_mb is not None and o.start_mb is not None]
        start = min(o.start_mb for o in withmem) if withmem else None
        # what a split adds to the process's memory (peak - start): the interpreter and libraries
        # before it are a fixed part that must not grow with the rows
        mem = fit_power([o.n_train + o.n_test for o in withmem], [o.attrs for o in withmem],
                        [o.classes for o in withmem], [o.peak_mb - o.start_mb for o in withmem],
                        [o.dataset for o in withmem], fixed=False) if withmem else None
        sized = [o for o in os_ if o.model_mb]
        # a model's size grows with its attributes and classes (its tables), not with the rows
        mod = fit_power([1.0 for o in sized], [o.attrs for o in sized], [o.classes for o in sized],
                        [o.model_mb for o in sized], [o.dataset for o in sized]) if sized else None
        models[label] = AlgoModel(label, os_, tr, te, mem, start, mod, {o.source for o in os_})
    return models


@dataclass
class CellEstimate:
    label: str
    dataset: str
    jobs: int
    splits: int
    cpu_s: float | None      # all splits and jobs of the cell
    split_s: float | None    # one split
    peak_mb: float | None
    how: str
    #: how the peak memory was found: "measured" (on this dataset), "fitted" or "bound"
    mem_how: str = "fitted"


def _scaled(t: float, fit: Fit | None, ratio: float) -> float:
    """A time measured at one size, at ``ratio`` times the rows: the fit's fixed part stays, the
    rest grows with the fit's rows exponent."""
    if fit is None:
        return t * ratio
    t0 = min(fit.t0, t)
    return t0 + (t - t0) * ratio ** fit.b[0]


def estimate_cell(m: AlgoModel | None, label: str, dataset: str, dims, protocol: dict, jobs: int,
                  splits_per_job: int) -> CellEstimate:
    splits = jobs * splits_per_job
    if dims is None:
        return CellEstimate(label, dataset, jobs, splits, None, None, None, "dataset size unknown")
    rows, attrs, classes = dims
    n_train, n_test = train_test_sizes(protocol, rows)
    if m is None or m.train is None:
        return CellEstimate(label, dataset, jobs, splits, None, None, None, "no stored timings")
    same = [o for o in m.obs if o.dataset == dataset and o.label == m.label]
    how = "power law"
    if same:
        o = max(same, key=lambda o: o.n_train)
        split_s = _scaled(o.train_s, m.train, n_train / max(o.n_train, 1)) \
            + _scaled(o.test_s, m.test, n_test / max(o.n_test, 1))
        how = f"measured here at {int(o.n_train)} training rows ({o.source})"
    else:
        split_s = m.train(n_train, attrs, classes) + (m.test(n_test, attrs, classes) if m.test else 0.0)
    peak, mem_how = memory_estimate(m, same, n_train + n_test, attrs, classes)
    if mem_how == "bound":
        sized = [o.model_mb for o in same if o.model_mb]
        model_mb = max(sized) if sized else (m.model(1.0, attrs, classes) if m.model else 0.0)
        peak = BASE_RSS_MB + 4 * rows * attrs * 8 / 2**20 + 2 * model_mb
    how += {"measured": "; memory: measured", "scaled": "; memory: measured at fewer rows, scaled",
            "fitted": "; memory: fitted", "bound": "; memory: rough upper bound"}[mem_how]
    return CellEstimate(label, dataset, jobs, splits, splits * split_s + jobs * JOB_OVERHEAD_S, split_s, peak, how,
                        "measured" if mem_how in ("measured", "scaled") else mem_how)


def memory_estimate(m: AlgoModel, same: list[Obs], rows: float, attrs: float,
                    classes: float) -> tuple[float | None, str]:
    """(peak MB, how) of a split over ``rows`` (training + test) instances: "measured" (the largest
    peak stored on that dataset), "scaled" (measured on fewer rows: its added part grown by the fit's
    rows exponent), "fitted" (the smallest start plus the fitted added part) or "bound" (nothing
    measured: the caller's rough upper bound)."""
    measured = [o for o in same if o.peak_mb]
    if measured:
        big = max(measured, key=lambda o: (o.n_train + o.n_test, o.peak_mb))
        ratio = rows / max(big.n_train + big.n_test, 1.0)
        if ratio <= 1.05:
            return max(o.peak_mb for o in measured), "measured"
        base = big.start_mb if big.start_mb is not None else (m.start_mb or BASE_RSS_MB)
        b_rows = m.mem.b[0] if m.mem is not None else 1.0
        return base + max(big.peak_mb - base, 0.0) * ratio ** b_rows, "scaled"
    if m.mem is not None:
        return (m.start_mb or BASE_RSS_MB) + m.mem(rows, attrs, classes), "fitted"
    return None, "bound"


def _sweep_labels(algo: str, sweep: dict) -> list[tuple[str, int]]:
    """(label, how many jobs it stands for) of an algorithm under the experiment's swept keys."""
    if not sweep:
        return [(algo, 1)]
    keys = list(sweep)
    vals = [v if isinstance(v, list) else [v] for v in sweep.values()]
    out = []
    for combo in product(*vals):
        inner = ",".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in zip(keys, combo))
        out.append((f"{algo}[{inner}]", 1))
    return out


def estimate(p: dict, models: dict[str, AlgoModel]) -> list[CellEstimate]:
    """One estimate per (algorithm or swept variant, dataset) of the plan ``p``."""
    from .protocols import n_splits, resolve

    proto = _protocol_config(p["protocol"])
    cells = []
    if proto is None:  # e.g. the scale-up driver (bench/scaleup.py): not a Hydra sweep of splits
        for algo in p["algos"]:
            for ds in p["datasets"]:
                cells.append(CellEstimate(algo, ds, len(p["seeds"]), 0, None, None, None,
                                          f"protocol {p['protocol']} is not a split protocol (no conf/protocol/"
                                          f"{p['protocol']}.yaml): not estimated"))
        return cells
    for algo in p["algos"]:
        for label, _ in _sweep_labels(algo, p["sweep"]):
            m = models.get(label) or models.get(algo)
            for ds in p["datasets"] + list(p.get("missing_datasets") or {}):
                pr = resolve(proto, ds)
                cells.append(estimate_cell(m, label, ds, _dataset_dims(ds), pr, len(p["seeds"]),
                                           n_splits(pr)))
    return cells


# ------------------------------------------------------------------ printing
def _h(s: float | None) -> str:
    return "-" if s is None else f"{s / 3600:.3f}" if s < 36000 else f"{s / 3600:.0f}"


def _mb(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


def _table(header: list[str], rows: list[list]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def render(p: dict, cells: list[CellEstimate], models: dict[str, AlgoModel], sources: str,
           cores: int | None = None) -> str:
    here = set(p["datasets"])
    run_cells = [c for c in cells if c.dataset in here]
    known = [c for c in run_cells if c.cpu_s is not None]
    total = sum(c.cpu_s for c in known)
    jobs = sum(c.jobs for c in run_cells)
    splits = sum(c.splits for c in run_cells)
    peak = max(known, key=lambda c: c.peak_mb or 0, default=None)
    away = [c for c in cells if c.dataset not in here and c.cpu_s is not None]
    cores = cores or os.cpu_count() or 1
    lines = [f"# Plan: {p['experiment']} at scale {p['scale']}", "",
             f"- {len(p['algos'])} algorithms x {len(p['datasets'])} datasets available here"
             + (f" ({len(p['missing_datasets'])} more not available here: "
                f"{', '.join(p['missing_datasets'])}; estimated below where their size is known)"
                if p.get("missing_datasets") else "")
             + f"; protocol {p['protocol']}, seeds {p['seeds']}"
             + (f"; swept {', '.join(f'{k}={v}' for k, v in p['sweep'].items())}" if p["sweep"] else ""),
             f"- jobs: {jobs}; splits: {splits}",
             f"- estimated CPU: {total / 3600:.2f} h over {len(known)} of {len(run_cells)} "
             f"(algorithm, dataset) cells with an estimate ({cores} cores: about {total / 3600 / cores:.2f} h "
             f"wall if the jobs keep every core busy)",
             *([f"- the datasets not available here would add {sum(c.cpu_s for c in away) / 3600:.2f} h CPU "
                f"({sum(c.splits for c in away)} splits, {len(away)} cells with an estimate)"] if away else []),
             f"- largest peak memory of a job: {_mb(peak.peak_mb) if peak else '-'} MB"
             + (f" ({peak.label} on {peak.dataset}, {'measured' if peak.mem_how == 'measured' else peak.mem_how})"
                if peak else ""),
             f"- timings from: {sources}", ""]
    if p.get("missing_algos"):
        lines += [f"- not implemented, not planned: {', '.join(p['missing_algos'])}", ""]
    if len(known) < len(run_cells):
        none = sorted({(c.label, c.how) for c in run_cells if c.cpu_s is None})
        lines += [f"- no estimate for {len(run_cells) - len(known)} cells: "
                  + "; ".join(f"{lab} ({how})" for lab, how in none[:12]), ""]

    lines += ["## Per algorithm", ""]
    rows = []
    for label in dict.fromkeys(c.label for c in run_cells):
        cs = [c for c in run_cells if c.label == label]
        kn = [c for c in cs if c.cpu_s is not None]
        m = models.get(label) or models.get(label.split("[", 1)[0])
        fit = m.train if m else None
        rows.append([label, len(cs), sum(c.jobs for c in cs), sum(c.splits for c in cs),
                     _h(sum(c.cpu_s for c in kn)) if kn else "-",
                     f"{max(c.split_s for c in kn):.1f}" if kn else "-",
                     _mb(max((c.peak_mb for c in kn), default=None)),
                     fit.describe() if fit else "-", fit.n_datasets if fit else 0,
                     f"x{fit.loo_factor:.2f}" if fit and fit.loo_factor else "-",
                     "+".join(sorted(m.sources)) if m else "-"])
    lines += [_table(["algorithm", "datasets", "jobs", "splits", "CPU h", "longest split s", "peak MB",
                      "training cost per split (s)", "fitted on", "typical factor", "from"], rows), ""]

    lines += ["## Per dataset", ""]
    rows = []
    for ds in dict.fromkeys(c.dataset for c in cells):
        cs = [c for c in cells if c.dataset == ds]
        kn = [c for c in cs if c.cpu_s is not None]
        dims = _dataset_dims(ds)
        worst = max(kn, key=lambda c: c.cpu_s, default=None)
        rows.append([ds + ("" if ds in here else " (not here)"),
                     *([f"{int(v)}" for v in dims] if dims else ["-", "-", "-"]),
                     sum(c.splits for c in cs), _h(sum(c.cpu_s for c in kn)) if kn else "-",
                     _mb(max((c.peak_mb for c in kn), default=None)),
                     f"{worst.label} ({_h(worst.cpu_s)} h)" if worst else "-"])
    lines += [_table(["dataset", "rows", "attributes", "classes", "splits", "CPU h", "peak MB",
                      "costliest algorithm"], rows), ""]

    lines += ["## Costliest (algorithm, dataset) cells", ""]
    top = sorted(known, key=lambda c: -c.cpu_s)[:25]
    lines += [_table(["algorithm", "dataset", "splits", "CPU h", "s per split", "peak MB", "how"],
                     [[c.label, c.dataset, c.splits, _h(c.cpu_s), f"{c.split_s:.2f}", _mb(c.peak_mb), c.how]
                      for c in top]), ""]
    lines += ["## How the estimate was made", "",
              re.sub(r" (\d)\. \*\*", r"\n\1. **", " ".join(
                  l.strip() for l in __doc__.split("How the estimate is made (also printed with every plan):")[1]
                  .split("The estimate is not a promise")[0].splitlines())).strip(),
              "", f"Constants: JOB_OVERHEAD_S = {JOB_OVERHEAD_S:g} s per job, BASE_RSS_MB = {BASE_RSS_MB:g}, "
              f"RIDGE = {RIDGE:g}, MEM_SAFETY = {MEM_SAFETY:g}, MEM_SAFETY_FITTED = {MEM_SAFETY_FITTED:g}.", ""]
    return "\n".join(lines)


def default_sources(results_dir: str | None) -> tuple[list[Path], Path | None]:
    from .data.registry import conf_dir

    from .store import results_root

    roots = [results_root(results_dir)]
    extra = os.environ.get("BENCH_PLAN_RESULTS")  # more result trees, colon-separated
    if extra:
        roots += [Path(r) for r in extra.split(":") if r]
    reports = conf_dir().parent / "reports"
    return roots, (reports if reports.is_dir() else None)


def cost_plan(p: dict, results_dir: str | None = None, use_reports: bool = True) -> tuple[str, list[CellEstimate]]:
    roots, reports = default_sources(results_dir)
    obs = collect(roots, reports if use_reports else None)
    models = build_models(obs)
    cells = estimate(p, models)
    n_rec = sum(o.source == "records" for o in obs)
    n_rep = sum(o.source == "reports" for o in obs)
    src = (f"{n_rec} (algorithm, dataset, size) means from records under {', '.join(map(str, roots))}; "
           f"{n_rep} from {'the committed reports (their summaries)' if use_reports and reports else 'no reports'}")
    return render(p, cells, models, src), cells


# ------------------------------------------------------------------ SLURM submission
def slurm_sweeps(p: dict, cells: list[CellEstimate], max_job_hours: float, partition: str | None,
                 results_dir: str | None, extra: list[str] | None = None, safety: float = 2.0,
                 default_split_s: float = 60.0) -> list[list[str]]:
    """Hydra commands that submit the plan as SLURM job arrays, one array per (algorithm, chunk count).

    A job is one (algorithm, dataset, seed, swept value), as in a local sweep. When its estimate
    times ``safety`` exceeds ``max_job_hours``, it is split into ``k`` chunk jobs (``+chunk=0..k-1``)
    that share its splits through the store's split locks: each takes the next split no other holds,
    so k chunks running at once each take about 1/k of the time. Every array gets the SLURM time
    limit ``max_job_hours`` and memory from the largest peak estimate of its jobs (x ``MEM_SAFETY``
    where measured, x ``MEM_SAFETY_FITTED`` where fitted or bound; at least 1 GB). Cells without an estimate are sized as ``default_split_s`` per split."""
    from .experiment_plan import command

    limit_s = max_job_hours * 3600
    out = []
    for algo in p["algos"]:
        cs = [c for c in cells if c.label.split("[", 1)[0] == algo and c.dataset in p["datasets"]]
        groups: dict[int, list[CellEstimate]] = {}
        for ds in p["datasets"]:
            mine = [c for c in cs if c.dataset == ds]
            per_job = max(((c.cpu_s if c.cpu_s is not None else c.splits * default_split_s) / max(c.jobs, 1))
                          for c in mine)
            n_split = max(c.splits // max(c.jobs, 1) for c in mine)
            k = min(max(1, math.ceil(per_job * safety / limit_s)), max(n_split, 1))
            groups.setdefault(k, []).extend(mine)
        for k, group in sorted(groups.items()):
            datasets = list(dict.fromkeys(c.dataset for c in group))
            mem_mb = max((c.peak_mb or BASE_RSS_MB) * (MEM_SAFETY if c.mem_how == "measured" else MEM_SAFETY_FITTED)
                         for c in group)
            sub = {**p, "algos": [algo], "datasets": datasets}
            cmd = command(sub, None, results_dir, list(extra or []))
            # submitit asks SLURM for USR2 signal_delay_s (default 120 s) before the time limit and
            # then stops the job as timed out: keep that delay a tenth of a short limit
            cmd += ["hydra/launcher=cluster_slurm", f"hydra.launcher.timeout_min={max(2, int(limit_s // 60))}",
                    f"hydra.launcher.signal_delay_s={int(max(10, min(120, limit_s / 10)))}",
                    f"hydra.launcher.mem_gb={max(1, math.ceil(mem_mb / 1024))}",
                    f"hydra.launcher.name=bench-{p['experiment']}-{algo}"]
            if partition:
                cmd.append(f"hydra.launcher.partition={partition}")
            if k > 1:
                cmd.append("+chunk=" + ",".join(str(i) for i in range(k)))
            out.append(cmd)
    return out


def submit(p: dict, cells: list[CellEstimate], max_job_hours: float, partition: str | None,
           results_dir: str | None, extra: list[str] | None = None, dry_run: bool = False) -> int:
    """Submit every array at once (each Hydra launcher waits on its own array) and wait for all;
    the status is the worst of theirs."""
    cmds = slurm_sweeps(p, cells, max_job_hours, partition, results_dir, extra)
    print(f"[{p['experiment']}] {len(cmds)} SLURM job arrays, time limit {max_job_hours:g} h per job", flush=True)
    if dry_run:
        for c in cmds:
            print(" ".join(c))
        return 0
    from .store import results_root

    log_dir = results_root(results_dir) / p["experiment"] / ".slurm"
    log_dir.mkdir(parents=True, exist_ok=True)
    procs = []
    for i, c in enumerate(cmds):
        fh = open(log_dir / f"array{i:03d}.log", "w")
        procs.append((subprocess.Popen(c, stdout=fh, stderr=subprocess.STDOUT), fh, c))
    rc = 0
    for proc, fh, c in procs:
        r = proc.wait()
        fh.close()
        if r != 0:
            print(f"[{p['experiment']}] array exited {r}: {' '.join(c[4:7])} (log {fh.name})", file=sys.stderr)
        rc = rc or r
    return rc


def main_plan(p: dict, results_dir: str | None, out: str | None, as_json: bool) -> int:
    t0 = time.perf_counter()
    text, cells = cost_plan(p, results_dir)
    if as_json:
        print(json.dumps({**p, "cells": [c.__dict__ for c in cells]}, indent=1))
    else:
        print(text)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
        print(f"(written to {out} in {time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0
