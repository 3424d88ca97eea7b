"""Where ESKDB_M's training time goes, stage by stage, against the standalone SKDB's.

    python scripts/eskdb_stage_profile.py [--datasets letter adult magic optdigits] [--splits 2] [--repeats 3]
                                          [--out FILE.csv]

For each dataset, the first ``--splits`` training folds of ``eskdb_main``'s protocol (``cv5x2_eskdb``,
seed 0) are fitted with ``conf/algo/skdb.yaml`` (Weka-MDL discretisation as a preprocessing step, then
SKDB) and ``conf/algo/eskdb_m.yaml`` (10 members), through the runner's own fitting path, ``--repeats``
times, the two learners alternated on the same split. Each fit's CPU time (``time.process_time``) is
split into stages by timing the functions that do them (:func:`algorithms.eskdb_probe.stage_timer`, the
timers of experiment ``eskdb_stage_profile``; here on both learners alternated on the same split):

``discretise``   SKDB: the MDL discretiser's fit and transform; ESKDB_M: the shared per-column sort
                 (``class_counts_by_value``), each member's randomised MDL cut points (Alg. 2) and
                 its binning and coding of the training data;
``mi_cmi``       pass 1 of SKDB: the MI and CMI tables (``pairwise_information``);
``order``        ESKDB_M: each member's sampled attribute order (Alg. 3);
``structure``    the KDB-maxK parents (``kdb_parents``);
``counting``     pass 2: the family count tables (``FamilyTable.add``);
``loo``          pass 3: the incremental leave-one-out pass (``SKDB._loo``);
``finalise``     the prediction model (``_finalise``: count tables to estimates);
``other``        the rest of the fit (validation, bookkeeping).

It prints, per dataset and learner, the median over repeats of the mean CPU seconds per split of every
stage, ESKDB_M's stages per member, and the ratio ESKDB_M / SKDB of the totals and of each stage; with
``--out`` it writes the same as a CSV (one row per dataset, learner and stage).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from omegaconf import OmegaConf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's bench/algorithms

from algorithms.eskdb_probe import stage_timer  # noqa: E402
from bench.data.registry import load  # noqa: E402
from bench.experiment_plan import algo_config, experiment_config  # noqa: E402
from bench.protocols import resolve, splits  # noqa: E402
from bench.runner import build_estimator, estimator_seed, fit_steps  # noqa: E402

DATASETS = ("letter", "adult", "magic", "optdigits")
LEARNERS = {"SKDB": "skdb", "ESKDB_M": "eskdb_m"}
STAGES = ("discretise", "mi_cmi", "order", "structure", "counting", "loo", "finalise", "other")

def fit_once(algo: str, ds, split) -> dict[str, float]:
    """CPU seconds per stage of one training fit (preprocessing included), as the runner fits it, timed by
    :func:`algorithms.eskdb_probe.stage_timer` (the stages of ``eskdb_stage_profile``'s records)."""
    steps, est = build_estimator(algo_config(algo), ds, estimator_seed(0, split.repeat, split.fold), split.index)
    with stage_timer() as acc:
        t0 = time.process_time()
        Xtr = fit_steps(steps, est, ds, ds.X[split.train], ds.y[split.train])
        prep = time.process_time() - t0
        est.fit(Xtr, ds.y[split.train])
        total = time.process_time() - t0
    out = {s: acc.get(s, 0.0) for s in STAGES}
    out["discretise"] += prep
    out["other"] = total - sum(out[s] for s in STAGES if s != "other")
    out["total"] = total
    out["members"] = float(getattr(est, "n_estimators", 1))
    return out


def profile(name: str, n_splits: int, repeats: int) -> pd.DataFrame:
    ds = load(name)
    prot = experiment_config("eskdb_main")["protocol"]
    prot = prot["full"] if isinstance(prot, dict) else prot
    protocol = resolve(OmegaConf.to_container(OmegaConf.load(ROOT / "conf" / "protocol" / f"{prot}.yaml")), name)
    rows = []
    for split in list(splits(ds.y, protocol, 0))[:n_splits]:
        fit_once("eskdb_m", ds, split)   # warm the kernels and caches of both learners on this split
        fit_once("skdb", ds, split)
        for r in range(repeats):
            for label, algo in (LEARNERS.items() if r % 2 == 0 else reversed(LEARNERS.items())):
                rows.append({"dataset": name, "learner": label, "split": split.index, "repeat": r,
                             **fit_once(algo, ds, split)})
    return pd.DataFrame(rows)


def summarise(raw: pd.DataFrame) -> pd.DataFrame:
    """Per dataset, learner and stage: median over repeats of the mean over splits; per member for ESKDB_M."""
    cols = [*STAGES, "total"]
    per_rep = raw.groupby(["dataset", "learner", "repeat"])[cols + ["members"]].mean()
    med = per_rep.groupby(["dataset", "learner"]).median()
    long = med[cols].stack().rename("cpu_s").reset_index().rename(columns={"level_2": "stage"})
    long["per_member_s"] = long["cpu_s"] / long.apply(lambda r: med.at[(r["dataset"], r["learner"]), "members"], axis=1)
    sk = long[long["learner"] == "SKDB"].set_index(["dataset", "stage"])["cpu_s"]
    long["ratio_to_skdb"] = [c / sk.get((d, s), np.nan) if sk.get((d, s), 0) > 0 else np.nan
                             for d, s, c in zip(long["dataset"], long["stage"], long["cpu_s"])]
    return long


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS))
    ap.add_argument("--splits", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    if a.splits < 1 or a.repeats < 1:
        print("--splits and --repeats must be at least 1", file=sys.stderr)
        return 2
    raw = pd.concat([profile(d, a.splits, a.repeats) for d in a.datasets], ignore_index=True)
    long = summarise(raw)
    pd.set_option("display.width", 200)
    for d, g in long.groupby("dataset", sort=False):
        t = g.pivot(index="stage", columns="learner", values="cpu_s").reindex([*STAGES, "total"])
        t["ESKDB_M per member"] = g[g["learner"] == "ESKDB_M"].set_index("stage")["per_member_s"]
        sk = t["SKDB"].where(t["SKDB"] > 0)
        t["ESKDB_M / SKDB"] = t["ESKDB_M"] / sk
        t["member / SKDB"] = t["ESKDB_M per member"] / sk
        print(f"\n{d}: CPU seconds per training split (median of {a.repeats} interleaved repeats, "
              f"{a.splits} splits)")
        print(t.to_string(float_format=lambda v: f"{v:.4f}"))
    if a.out:
        long.to_csv(a.out, index=False)
        print(f"\nwritten: {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
