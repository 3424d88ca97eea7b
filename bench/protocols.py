"""Evaluation protocols: seeded, reproducible train/test splits.

A protocol config (``conf/protocol/<name>.yaml``) has a ``kind``:

``kfold``
    stratified k-fold cross-validation repeated ``n_repeats`` times
    (10-fold: ``cv10``; 5x2: ``cv5x2``; 20x2: ``cv20x2``).
``holdout``
    one stratified split with ``test_size`` (fraction), repeated ``n_repeats`` times.
``train_sizes``
    scale-up curves: a fixed stratified test set of ``test_size`` and, for each
    size in ``train_sizes``, a stratified training subsample of that size drawn
    from the rest (``fold`` = index into ``train_sizes``); subsamples are nested
    (each is a prefix of one random order), as in the papers' learning curves.

``per_dataset`` maps a dataset name to overrides, e.g. the ESKDB paper's single
2-fold run on its largest datasets: ``per_dataset: {adult: {n_repeats: 1}}``.

Splits depend only on the labels, the protocol and the seed, never on the
algorithm, so every algorithm sees the same folds (paired comparisons).
Repeat r of seed s draws from ``SeedSequence([s, r, 0x5EED])``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

SPLIT_SALT = 0x5EED


@dataclass(frozen=True)
class Split:
    """One split of a protocol: ``index`` is its position in the protocol's run order
    (``repeat * splits per repeat + fold``), what an estimator declaring ``split_index`` receives
    from the runner (:func:`bench.runner.inject`)."""
    repeat: int
    fold: int
    train: np.ndarray
    test: np.ndarray
    train_size: int | None = None
    index: int = 0


class ProtocolError(ValueError):
    pass


def resolve(protocol: dict, dataset: str | None = None) -> dict:
    """The protocol config with its per-dataset overrides for ``dataset`` applied."""
    p = {k: v for k, v in dict(protocol).items() if k != "per_dataset"}
    over = (protocol.get("per_dataset") or {}).get(dataset or "", None)
    if over:
        p.update(dict(over))
        p["overridden_for"] = dataset
    return p


def n_splits(protocol: dict, n_instances: int | None = None) -> int:
    kind = protocol.get("kind", "kfold")
    reps = int(protocol.get("n_repeats", 1))
    if kind == "kfold":
        return reps * int(protocol["n_splits"])
    if kind == "holdout":
        return reps
    if kind == "train_sizes":
        return reps * len(protocol["train_sizes"])
    raise ProtocolError(f"unknown protocol kind {kind!r} (kfold, holdout, train_sizes)")


def split_seed(seed: int, repeat: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(repeat), SPLIT_SALT]))


def splits(y: np.ndarray, protocol: dict, seed: int) -> Iterator[Split]:
    """Yield every split of ``protocol`` for labels ``y`` under ``seed``."""
    y = np.asarray(y)
    kind = protocol.get("kind", "kfold")
    reps = int(protocol.get("n_repeats", 1))
    for r in range(reps):
        rng = split_seed(seed, r)
        if kind == "kfold":
            k = int(protocol["n_splits"])
            folds = stratified_folds(y, k, rng)
            for f in range(k):
                test = np.flatnonzero(folds == f)
                train = np.flatnonzero(folds != f)
                yield Split(r, f, train, test, index=r * k + f)
        elif kind == "holdout":
            test = stratified_sample(y, float(protocol.get("test_size", 1 / 3)), rng)
            mask = np.zeros(len(y), dtype=bool)
            mask[test] = True
            yield Split(r, 0, np.flatnonzero(~mask), np.flatnonzero(mask), index=r)
        elif kind == "train_sizes":
            test = stratified_sample(y, float(protocol.get("test_size", 0.25)), rng)
            mask = np.zeros(len(y), dtype=bool)
            mask[test] = True
            pool = np.flatnonzero(~mask)
            order = _stratified_order(y[pool], rng)
            for f, size in enumerate(protocol["train_sizes"]):
                size = int(size)
                if size > pool.size:
                    raise ProtocolError(
                        f"train size {size} exceeds the {pool.size} instances left after the test set"
                    )
                yield Split(r, f, np.sort(pool[order[:size]]), test, train_size=size,
                            index=r * len(protocol["train_sizes"]) + f)
        else:
            raise ProtocolError(f"unknown protocol kind {kind!r} (kfold, holdout, train_sizes)")


def stratified_folds(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Fold index of every instance: within each class, a random permutation is
    dealt round-robin to the folds, starting each class where the previous one
    stopped, so fold sizes differ by at most one and class proportions are kept
    (Weka's stratification deals the same way)."""
    if k < 2:
        raise ProtocolError(f"k-fold needs k >= 2, got {k}")
    if len(y) < k:
        raise ProtocolError(f"{len(y)} instances cannot be split into {k} folds")
    folds = np.empty(len(y), dtype=np.int64)
    offset = 0
    for c in np.unique(y):
        members = np.flatnonzero(y == c)
        members = members[rng.permutation(members.size)]
        folds[members] = (offset + np.arange(members.size)) % k
        offset = (offset + members.size) % k
    return folds


def stratified_sample(y: np.ndarray, fraction: float, rng: np.random.Generator) -> np.ndarray:
    """Indices of a stratified random sample holding ``fraction`` of each class (rounded)."""
    if not 0.0 < fraction < 1.0:
        raise ProtocolError(f"test_size must lie in (0, 1), got {fraction}")
    out = []
    for c in np.unique(y):
        members = np.flatnonzero(y == c)
        m = int(round(fraction * members.size))
        out.append(members[rng.permutation(members.size)[:m]])
    return np.sort(np.concatenate(out))


def _stratified_order(y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random order of positions whose every prefix is (nearly) stratified:
    each instance gets key (rank within its class + U(0,1)) / class size."""
    keys = np.empty(len(y))
    for c in np.unique(y):
        members = np.flatnonzero(y == c)
        ranks = rng.permutation(members.size)
        keys[members] = (ranks + rng.random(members.size)) / members.size
    return np.argsort(keys, kind="stable")
