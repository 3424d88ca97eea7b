"""Where bench looks for data files, and the checksummed download cache."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from .dataset import DataError


def data_dirs() -> list[Path]:
    """Directories searched for local files, in order: every entry of
    ``BENCH_DATA_DIR`` (os.pathsep-separated), then the user cache."""
    dirs = []
    env = os.environ.get("BENCH_DATA_DIR", "")
    for part in env.split(os.pathsep):
        if part.strip():
            dirs.append(Path(part).expanduser())
    dirs.append(cache_dir() / "files")
    return dirs


def cache_dir() -> Path:
    """The user cache: ``BENCH_CACHE_DIR`` or ``$XDG_CACHE_HOME/bench`` (``~/.cache/bench``)."""
    env = os.environ.get("BENCH_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bench"


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while True:
            block = fh.read(chunk)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a part.

    The file gets the permissions an ordinary ``open`` would give (0666 minus the umask),
    not mkstemp's 0600, so a group sharing a results directory can read it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
