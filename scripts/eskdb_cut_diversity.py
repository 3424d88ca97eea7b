"""How many distinct cut-point sets ESKDB's members draw per numeric attribute, under each generator.

    python scripts/eskdb_cut_diversity.py [--datasets iris wine ...] [--splits 10] [--fold-seeds]

For every dataset, the training folds of ``cv5x2_eskdb`` (seed 0, the first ``--splits`` of its
splits) are fitted with ``conf/algo/eskdb_m.yaml`` (NumPy draws, bench's default) and
``conf/algo/eskdb_m_authors_rng.yaml`` (the ESKDB reference code's ``java.util.Random`` draws,
:mod:`algorithms.eskdb`). For each numeric attribute it counts the distinct cut-point sets among
the ``n_estimators`` members of one fit, averages that count over the splits, and prints per
dataset the mean, min and max over the numeric attributes (the reference code's draws
give far fewer distinct sets than a proper generator). It also prints, per dataset, how many
distinct first attributes the members' sampled orders start with (mean over the splits): the
reference code's order sampler draws its first attribute with ``new Random(1990093 + e)``'s first
``nextDouble()``, which barely moves with e.

``--fold-seeds``: the reference code's driver (``MDL_R/TwoFoldCV.java``) keeps counting its member
seed over the folds, so training fold f starts at ``1990093 + f * n_estimators``; with this flag the
authors' configuration is given that seed for split f instead of the config's ``java_seed``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's bench/algorithms

DATASETS = ("iris", "wine", "glass", "sonar", "segment", "vehicle", "pima")
CONFIGS = {"numpy": "eskdb_m", "authors": "eskdb_m_authors_rng"}


def distinct_sets(model) -> np.ndarray:
    """Per numeric attribute: the number of distinct cut-point sets among the fitted members."""
    n_numeric = len(model.members_[0].cut_points)
    return np.array([len({tuple(mb.cut_points[a].tolist()) for mb in model.members_}) for a in range(n_numeric)])


def measure(name: str, n_splits: int, fold_seeds: bool) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """For dataset ``name``: {generator: per-attribute distinct-set counts averaged over the splits}
    and {generator: distinct first attributes of the members' orders, averaged over the splits}."""
    from bench.data import load
    from bench.experiment_plan import algo_config
    from bench.protocols import resolve, splits
    from bench.runner import build_estimator, estimator_seed
    from omegaconf import OmegaConf

    ds = load(name)
    if not (~ds.categorical).any():
        raise SystemExit(f"{name} has no numeric attribute: no cut points to count")
    protocol = resolve(OmegaConf.to_container(OmegaConf.load(Path(__file__).resolve().parents[1] / "conf" /
                                                             "protocol" / "cv5x2_eskdb.yaml")), name)
    out, firsts = {}, {}
    for gen, algo in CONFIGS.items():
        cfg = algo_config(algo)
        counts, first = [], []
        for i, split in enumerate(splits(ds.y, protocol, seed=0)):
            if i >= n_splits:
                break
            if gen == "authors" and fold_seeds:
                e = int(cfg["estimator"]["n_estimators"])
                cfg = {**cfg, "estimator": {**cfg["estimator"], "java_seed": 1990093 + i * e}}
            _, est = build_estimator(cfg, ds, estimator_seed(0, split.repeat, split.fold))
            est.fit(ds.X[split.train], ds.y[split.train])
            counts.append(distinct_sets(est))
            first.append(len({int(mb.order[0]) for mb in est.members_ if mb.order is not None and mb.order.size}))
        out[gen] = np.mean(counts, axis=0)
        firsts[gen] = float(np.mean(first))
    return out, firsts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS))
    ap.add_argument("--splits", type=int, default=10, help="how many of cv5x2_eskdb's splits (default 10)")
    ap.add_argument("--fold-seeds", action="store_true",
                    help="authors' java_seed = 1990093 + split * n_estimators, as their 5x2 CV driver")
    args = ap.parse_args(argv)
    if args.splits < 1:
        ap.error("--splits must be at least 1")
    print(f"distinct cut-point sets per numeric attribute among the members of one fit (mean over "
          f"{args.splits} training folds of cv5x2_eskdb, seed 0); authors' seeds "
          f"{'1990093 + split * E' if args.fold_seeds else 'from the config (1990093)'}")
    header = f"{'dataset':12s} {'numeric':>7s} | {'numpy mean':>10s} {'min':>5s} {'max':>5s} | " \
             f"{'authors mean':>12s} {'min':>5s} {'max':>5s} | first attribute: {'numpy':>5s} {'authors':>7s}"
    print(header)
    print("-" * len(header))
    means = {g: [] for g in CONFIGS}
    for name in args.datasets:
        r, first = measure(name, args.splits, args.fold_seeds)
        for g in CONFIGS:
            means[g].append(r[g].mean())
        print(f"{name:12s} {r['numpy'].size:7d} | {r['numpy'].mean():10.2f} {r['numpy'].min():5.1f} "
              f"{r['numpy'].max():5.1f} | {r['authors'].mean():12.2f} {r['authors'].min():5.1f} "
              f"{r['authors'].max():5.1f} | {'':17s}{first['numpy']:5.1f} {first['authors']:7.1f}", flush=True)
    print(f"per-dataset means: numpy {min(means['numpy']):.2f}-{max(means['numpy']):.2f}, "
          f"authors {min(means['authors']):.2f}-{max(means['authors']):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
