"""The result store: one record per (experiment, algorithm config hash, dataset,
protocol, seed, repeat, fold).

Layout under the results root::

    <experiment>/<dataset>/<algo>-<hash>/<protocol>-s<seed>/r<repeat>-f<fold>.json   the record
                                                            r<repeat>-f<fold>.npz    test indices,
                                                                                     labels, probabilities

Writes are atomic (temporary file + ``os.replace``); the ``.npz`` is written
before the ``.json``, so a record exists only when both are complete. A process
killed mid-split leaves no record for that split and nothing else changes.
Workers that race for the same split serialise on an ``flock`` of a lock file
beside the record: the loser waits and then reuses the winner's record, so no
record is lost or written twice. :func:`load` returns every record as one
pandas DataFrame.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from .data.cache import atomic_write_bytes

RECORD_VERSION = 1


def config_hash(cfg: dict) -> str:
    """Stable short hash of an algorithm config (keys sorted, JSON-serialised)."""
    blob = json.dumps(cfg, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:10]


@dataclass(frozen=True)
class RunKey:
    """Identifies the stored runs of one (experiment, algorithm config, dataset, protocol, seed)."""

    experiment: str
    dataset: str
    algo: str
    algo_hash: str
    protocol: str
    seed: int

    def directory(self, root: Path) -> Path:
        return (Path(root) / _safe(self.experiment) / _safe(self.dataset)
                / f"{_safe(self.algo)}-{self.algo_hash}" / f"{_safe(self.protocol)}-s{self.seed}")


def _safe(part: str) -> str:
    out = "".join(ch if ch.isalnum() or ch in "._-+=" else "_" for ch in str(part))
    if not out or out.startswith("."):
        raise ValueError(f"bad name for a results path component: {part!r}")
    return out


def split_stem(repeat: int, fold: int) -> str:
    return f"r{repeat:02d}-f{fold:02d}"


class Store:
    """Read and write the records of one :class:`RunKey`."""

    def __init__(self, root: Path | str, key: RunKey):
        self.root = Path(root)
        self.key = key
        self.dir = key.directory(self.root)

    def record_path(self, repeat: int, fold: int) -> Path:
        return self.dir / f"{split_stem(repeat, fold)}.json"

    def predictions_path(self, repeat: int, fold: int) -> Path:
        return self.dir / f"{split_stem(repeat, fold)}.npz"

    def get(self, repeat: int, fold: int) -> dict | None:
        """The stored record of a split, or None if there is none (or it is unreadable)."""
        return read_record(self.record_path(repeat, fold))

    def put(self, record: dict, predictions: dict | None) -> None:
        """Store a record (and its per-instance predictions) atomically."""
        r, f = int(record["repeat"]), int(record["fold"])
        self.dir.mkdir(parents=True, exist_ok=True)
        if predictions is not None:
            buf = io.BytesIO()
            np.savez_compressed(buf, **predictions)
            atomic_write_bytes(self.predictions_path(r, f), buf.getvalue())
        blob = json.dumps(record, indent=1, sort_keys=True, default=_json_default)
        atomic_write_bytes(self.record_path(r, f), blob.encode())

    @contextmanager
    def claim(self, repeat: int, fold: int, wait: bool) -> Iterator[bool]:
        """Hold the split's lock while computing it. Yields True when held; with
        ``wait=False`` yields False at once if another worker holds it."""
        self.dir.mkdir(parents=True, exist_ok=True)
        lock_path = self.dir / f".{split_stem(repeat, fold)}.lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                if self.record_path(repeat, fold).exists():
                    try:
                        os.unlink(lock_path)
                    except FileNotFoundError:
                        pass
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def read_record(path: Path) -> dict | None:
    try:
        with open(path) as fh:
            rec = json.load(fh)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None  # unreadable: treated as absent and recomputed
    rec["path"] = str(path)
    return rec


def load_predictions(record: dict) -> dict:
    """Per-instance arrays of a record: ``test_index``, ``y_true``, ``proba``."""
    path = Path(record["path"]).with_suffix(".npz")
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def iter_record_paths(root: Path | str, experiment: str | None = None, dataset: str | None = None,
                      algo: str | None = None) -> Iterator[Path]:
    root = Path(root)
    pattern = "/".join([
        _safe(experiment) if experiment else "*",
        _safe(dataset) if dataset else "*",
        f"{_safe(algo)}-*" if algo else "*",
        "*",
        "r*-f*.json",
    ])
    yield from sorted(root.glob(pattern))


def load(root: Path | str = "results", experiment: str | None = None, dataset: str | None = None,
         algo: str | None = None, status: str | None = None, **filters) -> pd.DataFrame:
    """All stored records under ``root`` as one DataFrame (one row per split).

    Nested fields are flattened with dots (``metrics.error``, ``times.fit_cpu_s``).
    Extra keyword filters match columns exactly, e.g. ``protocol="cv10"``.
    """
    rows = []
    for p in iter_record_paths(root, experiment, dataset, algo):
        rec = read_record(p)
        if rec is None:
            continue
        rows.append(_flatten(rec))
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    if status is not None:
        df = df[df["status"] == status]
    for k, v in filters.items():
        df = df[df[k] == v]
    return df.reset_index(drop=True)


def _flatten(rec: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in rec.items():
        if isinstance(v, dict) and k in ("metrics", "times", "memory", "extra"):
            for kk, vv in v.items():
                out[f"{k}.{kk}"] = vv
        else:
            out[f"{prefix}{k}"] = v
    return out
