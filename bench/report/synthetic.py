"""Synthetic stored records, for testing and previewing reports before the algorithms land.

:func:`write_fake_run` writes the records of one (experiment, dataset, algo) through
:class:`bench.store.Store` exactly as :mod:`bench.runner` lays them out (same keys, same
per-instance ``.npz``), on the real folds of a protocol, with predictions of a chosen quality.
Nothing here is ever read by a real report unless a test points the report at such a directory.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .. import metrics as M
from ..protocols import splits
from ..store import RunKey, Store, config_hash

FAKE_HOST = "synthetic-records"


def _protocol(protocol) -> dict:
    if isinstance(protocol, dict):
        return dict(protocol)
    from omegaconf import OmegaConf

    from ..data.registry import conf_dir

    return OmegaConf.to_container(OmegaConf.load(conf_dir() / "protocol" / f"{protocol}.yaml"))


def write_fake_run(root, experiment: str, dataset: str, algo: str, n: int = 100, n_classes: int = 2,
                   protocol="cv5x2", seed: int = 0, quality: float = 0.8, rng_seed: int = 0,
                   train_s: float = 0.01, test_s: float = 0.001, fail_splits=(), algo_config: dict | None = None,
                   labels: np.ndarray | None = None, fail_status: str = "failed",
                   extra: dict | None = None) -> Path:
    """Write every split of one fake job; return its directory.

    Each test instance is predicted correctly with probability ``quality`` (the predicted class gets
    probability 0.7, the rest is spread evenly). ``fail_splits`` lists (repeat, fold) pairs stored
    as failed (``fail_status="not_applicable"``: as not applicable). ``labels`` fixes the class of
    every instance (default: random, seeded by the dataset name). ``extra`` is stored as every
    successful split's ``extra`` (an estimator's ``diagnostics_``, e.g. ESKDB's ``k_star``).
    """
    pcfg = _protocol(protocol)
    name_seed = int(config_hash({"dataset": dataset})[:8], 16)
    y = np.asarray(labels) if labels is not None else \
        np.random.default_rng(name_seed).integers(0, n_classes, n)
    n = len(y)
    acfg = algo_config or {"name": algo, "estimator": {"_target_": f"fake.{algo}"}}
    key = RunKey(experiment, dataset, algo, config_hash(acfg), pcfg.get("name", "protocol"), int(seed))
    store = Store(root, key)
    rng = np.random.default_rng([rng_seed, name_seed])
    for sp in splits(y, pcfg, seed):
        rec = {
            "record_version": 1, "experiment": experiment, "dataset": dataset, "dataset_sha256": "fake",
            "dataset_source": "synthetic", "n_instances": int(n), "n_features": 4, "n_classes": int(n_classes),
            "algo": algo, "algo_hash": key.algo_hash, "algo_config": acfg, "protocol": key.protocol,
            "protocol_config": pcfg, "seed": int(seed), "repeat": sp.repeat, "fold": sp.fold,
            "n_train": int(sp.train.size), "n_test": int(sp.test.size), "train_size": None,
            "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "host": FAKE_HOST, "cpu": "none", "n_cpus": 1, "git_commit": "fake",
        }
        if (sp.repeat, sp.fold) in set(map(tuple, fail_splits)):
            what = "failure" if fail_status == "failed" else fail_status
            store.put({**rec, "status": fail_status, "error": f"RuntimeError: deliberate fake {what}"}, None)
            continue
        yte = y[sp.test]
        right = rng.random(sp.test.size) < quality
        wrong = (yte + rng.integers(1, n_classes, sp.test.size)) % n_classes
        pred = np.where(right, yte, wrong)
        proba = np.full((sp.test.size, n_classes), 0.3 / max(n_classes - 1, 1))
        proba[np.arange(sp.test.size), pred] = 0.7
        rec.update({
            "status": "ok", "metrics": M.all_metrics(yte, proba),
            "times": {"train_cpu_s": float(train_s), "test_cpu_s": float(test_s), "fit_cpu_s": float(train_s),
                      "predict_cpu_s": float(test_s), "preprocess_fit_cpu_s": 0.0},
            "model_bytes": 1000, "memory": {"peak_rss_mb": 1.0},
        })
        if extra is not None:
            rec["extra"] = dict(extra)
        store.put(rec, {"test_index": sp.test.astype(np.int64), "y_true": yte.astype(np.int32),
                        "proba": np.asarray(proba, dtype=np.float64)})
    return store.dir
