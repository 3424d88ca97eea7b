"""The harness's own cost.

``harness``: a split through bench's runner against the bare fit + predict_proba of the same
estimator on the same arrays (:func:`harness_overhead`), and the cost bench adds to every split of
a job (:func:`harness_per_split`): small jobs (NB, A1DE, A2DE, KDB on iris, wine and breast cancer,
10-fold CV, the limits on as by default) run through :func:`bench.runner.run_job` in this process,
as a sweep runs them; per split, the wall time of the jobs' split loops (warm-up left out) less the
splits' own preprocessing, fit and predict time, against that own time. Whatever a split costs
besides the learner is in it: the hand-off to the job's worker process, the metrics and the
model's pickled size, the record with its checksums, the ``.npz``, the lock and the progress.

``startup``: what a user waits for before any work, whole processes: ``import bench.__main__``
and ``python -m bench --help``, each against ``python -c pass`` (best of 5), and, without
``--quick``, the 12 jobs above as one ``python -m bench -m`` sweep (one worker, a fresh results
folder each time), against the splits' own time.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from . import benchmark, best_of, row

ROOT = Path(__file__).resolve().parents[2]

#: the small jobs whose harness cost per split is measured: algorithms x datasets, cv10
SMALL_ALGOS = ("nb", "a1de", "a2de", "kdb")
SMALL_DATA = ("sk_iris", "sk_wine", "sk_breast_cancer")
#: the goal for the harness's own cost per split of small jobs (seconds)
GOAL_PER_SPLIT_S = 0.010


@benchmark("harness")
def harness(quick: bool = False) -> list[dict]:
    return [harness_overhead(quick), harness_per_split(quick)]


def harness_overhead(quick: bool = False) -> dict:
    from sklearn.naive_bayes import GaussianNB

    from ..data.dataset import Dataset
    from ..protocols import Split
    from ..runner import run_split

    n = 20_000 if quick else 200_000
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 20))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(np.int64)
    ds = Dataset("perf", X, y, ["a", "b"], [f"x{j}" for j in range(20)], np.zeros(20, bool))
    idx = rng.permutation(n)
    split = Split(0, 0, np.sort(idx[: n // 2]), np.sort(idx[n // 2:]))
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}

    def bare():
        m = GaussianNB().fit(X[split.train], y[split.train])
        return m.predict_proba(X[split.test])

    t_bare, _ = best_of(bare)
    t_runner, _ = best_of(lambda: run_split(algo, ds, split, seed=0))
    return row("harness", f"GaussianNB {n}x20 split", "bench runner", t_runner, "bare sklearn", t_bare,
               note="ratio < 1: runner overhead (slicing, pickled size, metrics)")


def small_jobs(results: str, algos=SMALL_ALGOS, data=SMALL_DATA) -> dict:
    """Run the small jobs into ``results`` (a fresh folder) and sum their parts: ``harness_s`` and
    ``own_s`` (:func:`bench.runner.harness_seconds`), ``splits``, ``jobs_s`` (the jobs' whole
    wall time: data, warm-up and all)."""
    from ..experiment_plan import algo_config
    from ..runner import harness_seconds, run_job

    protocol = {"name": "cv10", "kind": "kfold", "n_splits": 10}
    out = {"harness_s": 0.0, "own_s": 0.0, "splits": 0, "jobs_s": 0.0}
    for algo in algos:
        cfg = algo_config(algo)
        for name in data:
            t0 = time.perf_counter()
            res = run_job(cfg, name, protocol, 0, "default", results, progress=False, named_config=cfg)
            out["jobs_s"] += time.perf_counter() - t0
            parts = harness_seconds(res)
            if parts is None:
                raise RuntimeError(f"{algo} on {name} computed no split in a fresh results folder")
            out["harness_s"] += parts[0]
            out["own_s"] += parts[1]
            out["splits"] += parts[2]
    return out


def harness_per_split(quick: bool = False) -> dict:
    algos = SMALL_ALGOS[:2] if quick else SMALL_ALGOS
    with tempfile.TemporaryDirectory(prefix="bench-harness-") as tmp:
        small_jobs(str(Path(tmp) / "warm"), algos, SMALL_DATA[:1])  # kernels loaded, caches warm
        runs = [small_jobs(str(Path(tmp) / f"r{i}"), algos) for i in range(1 if quick else 3)]
    best = min(runs, key=lambda r: r["harness_s"] / r["splits"])
    per, own = best["harness_s"] / best["splits"], best["own_s"] / best["splits"]
    return row("harness", f"cost per split: {', '.join(algos)} on {', '.join(SMALL_DATA)}, cv10 "
                          f"({best['splits']} splits, limits on)", "bench's own work per split", per,
               "the split's own fit + predict", own, unit="s/split", goal_s=GOAL_PER_SPLIT_S,
               note=f"best of {len(runs)}: split loops without warm-up, less the splits' own preprocess, fit and "
                    f"predict wall time; goal <= {GOAL_PER_SPLIT_S * 1000:g} ms per split "
                    f"({'met' if per <= GOAL_PER_SPLIT_S else 'NOT met'}); the jobs took {best['jobs_s']:.2f} s "
                    f"in all (data, warm-up, code identity included)")


def _process_s(args: list[str], env: dict | None = None) -> float:
    t0 = time.perf_counter()
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({out.returncode}): {out.stderr.strip()[-300:]}")
    return time.perf_counter() - t0


def _best_process(args: list[str], reps: int) -> float:
    return min(_process_s(args) for _ in range(reps))


@benchmark("startup")
def startup(quick: bool = False) -> list[dict]:
    reps = 3 if quick else 5
    py = sys.executable
    bare = _best_process([py, "-c", "pass"], reps)
    rows = [row("startup", "import bench.__main__ (process wall s)", "python -c 'import bench.__main__'",
                _best_process([py, "-c", "import bench.__main__"], reps), "python -c pass", bare,
                note=f"best of {reps} processes"),
            row("startup", "python -m bench --help (process wall s)", "python -m bench --help",
                _best_process([py, "-m", "bench", "--help"], reps), "python -c pass", bare,
                note=f"best of {reps} processes")]
    if not quick:
        rows.append(_sweep_row())
    return rows


def _sweep_row(reps: int = 3) -> dict:
    """The small jobs as one ``python -m bench -m`` sweep with one worker, whole process."""
    from ..runner import OWN_TIMES
    from ..store import load

    walls, owns = [], []
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as tmp:
        for i in range(reps):
            results = Path(tmp) / f"r{i}"
            walls.append(_process_s([sys.executable, "-m", "bench", "-m", f"algo={','.join(SMALL_ALGOS)}",
                                     f"data={','.join(SMALL_DATA)}", "protocol=cv10", "hydra.launcher.n_jobs=1",
                                     "progress=false", f"results_dir={results}"]))
            df = load(results)
            owns.append(float(sum(df[f"times.{k}"].sum() for k in OWN_TIMES)))
            n = len(df)
    i = int(np.argmin(walls))
    return row("startup", f"{len(SMALL_ALGOS) * len(SMALL_DATA)}-job sweep, {n} splits, 1 worker (process wall s)",
               "python -m bench -m (the small jobs)", walls[i], "the splits' own fit + predict", owns[i],
               note=f"best of {reps} sweeps into fresh results folders; whole process: Hydra, data, warm-up, "
                    f"every split and record, the sweep's table")
