"""Where bench looks for data files, and the checksummed download cache."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..fileio import atomic_write_bytes, sha256_file  # noqa: F401  (re-exported: cache.sha256_file)
from .dataset import DataError


def data_dirs() -> list[Path]:
    """Directories searched for local files, in order: every entry of ``BENCH_DATA_DIR``
    (os.pathsep-separated: a user's own files), then the project's ``datasets/`` (the papers'
    data, shipped with the repository; :func:`project_datasets_dir`), then the user cache."""
    dirs = []
    env = os.environ.get("BENCH_DATA_DIR", "")
    for part in env.split(os.pathsep):
        if part.strip():
            dirs.append(Path(part).expanduser())
    shipped = project_datasets_dir()
    if shipped is not None:
        dirs.append(shipped)
    dirs.append(cache_dir() / "files")
    return dirs


def project_datasets_dir() -> Path | None:
    """The repository's ``datasets/`` folder (the papers' datasets with ``MANIFEST.csv``), or None
    when bench runs from an install without it. ``BENCH_DATASETS_DIR`` names another copy (an empty
    value turns the shipped folder off, for tests of a machine without it)."""
    env = os.environ.get("BENCH_DATASETS_DIR")
    if env is not None:
        return Path(env).expanduser() if env.strip() else None
    here = shipped_dir()
    return here if (here / "MANIFEST.csv").is_file() else None


def shipped_dir() -> Path:
    """Where bench ships the papers' datasets (a checkout's ``datasets/``, else the installed
    package's copy; :func:`bench.paths.shipped_datasets_dir`), whether or not it is searched
    (``BENCH_DATASETS_DIR`` can turn it off) or present."""
    from ..paths import shipped_datasets_dir

    return shipped_datasets_dir()


def shipped_manifest(folder: Path | None = None) -> dict[str, dict]:
    """The rows of ``MANIFEST.csv`` of the shipped datasets folder (``folder``, default: the one
    searched, :func:`project_datasets_dir`, else the checkout's), keyed by name; the file of row
    ``name`` is ``<name>.csv.gz`` or ``<name>.arff.gz`` (:func:`shipped_file_name`). Empty when
    there is no manifest."""
    import csv

    folder = folder or project_datasets_dir() or shipped_dir()
    path = folder / "MANIFEST.csv"
    if not path.is_file():
        return {}
    with open(path, newline="") as fh:
        return {row["name"]: row for row in csv.DictReader(fh)}


def shipped_file_name(filename: str) -> str:
    """The manifest name of a data file: ``letter.csv.gz`` -> ``letter``."""
    return filename.split(".", 1)[0]


def cache_dir() -> Path:
    """The user cache: ``BENCH_CACHE_DIR`` or ``$XDG_CACHE_HOME/bench`` (``~/.cache/bench``)."""
    env = os.environ.get("BENCH_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bench"


def write_checksummed(path: Path, data: bytes, info: dict | None = None) -> str:
    """Store ``data`` at ``path`` with a ``.sha256.json`` sidecar recording its checksum."""
    digest = hashlib.sha256(data).hexdigest()
    atomic_write_bytes(path, data)
    sidecar = {"sha256": digest, "bytes": len(data), **(info or {})}
    atomic_write_bytes(_sidecar(path), json.dumps(sidecar, indent=1, sort_keys=True).encode())
    return digest


def verify_checksummed(path: Path, fetch_hint: str) -> dict:
    """Check a cached file against its sidecar; raise DataError if it is corrupt."""
    side = _sidecar(path)
    if not side.exists():
        raise DataError(
            f"cache file {path} has no checksum record {side.name}; it was not written by bench "
            f"or its download was interrupted. Delete it and run: {fetch_hint}"
        )
    try:
        info = json.loads(side.read_text())
        expected = info["sha256"]
    except (ValueError, KeyError) as exc:
        raise DataError(f"checksum record {side} is unreadable ({exc}); delete {path} and run: {fetch_hint}") from exc
    actual = sha256_file(path)
    if actual != expected:
        raise DataError(
            f"cache file {path} is corrupt: sha256 {actual[:16]}... does not match the recorded "
            f"{expected[:16]}.... Delete it and run: {fetch_hint}"
        )
    return info


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256.json")
