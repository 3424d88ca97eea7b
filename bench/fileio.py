"""File utilities shared by every layer: atomic writes and checksums.

The lowest module of the harness (it imports nothing from ``bench``), so that the store, the
data cache and the experiment launcher use one implementation without importing each other.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path


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
    not mkstemp's 0600, so a group sharing a results directory can read it. The data reach the
    disk (``fsync``) before the rename, unless the write happens inside :func:`deferred_fsync`,
    which collects the path for the caller to flush later with many others (:func:`fsync_paths`):
    the rename is atomic either way, for every reader and against a killed process."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    pending = getattr(_LOCAL, "pending", None)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if pending is None:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if pending is not None:
        pending.append(path)


_LOCAL = threading.local()


@contextmanager
def deferred_fsync():
    """Within the block, :func:`atomic_write_bytes` of this thread leaves the flush to disk to the
    caller: the block yields the list of the paths written, to pass to :func:`fsync_paths`."""
    outer = getattr(_LOCAL, "pending", None)
    _LOCAL.pending = written = []
    try:
        yield written
    finally:
        _LOCAL.pending = outer
        if outer is not None:
            outer.extend(written)


def fsync_paths(paths) -> None:
    """Make written files and their folders durable (``fsync`` of each file, then of each folder,
    so the renames that put them there persist too). A file gone meanwhile (replaced again) is
    skipped; a folder that cannot be opened is left to the file system."""
    folders = []
    for p in paths:
        try:
            fd = os.open(p, os.O_RDONLY)
        except FileNotFoundError:
            continue
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        parent = os.path.dirname(os.fspath(p)) or "."
        if parent not in folders:
            folders.append(parent)
    for d in folders:
        try:
            fd = os.open(d, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)


def yaml_problem(exc) -> str | None:
    """'YAML syntax error in <file>, line L, column C: <problem>' for a PyYAML error anywhere in the
    cause chain of ``exc`` (lines and columns from 1), or None when there is none."""
    seen = 0
    while exc is not None and seen < 10:
        mark = getattr(exc, "problem_mark", None)
        if mark is not None and hasattr(mark, "line") and type(exc).__module__.startswith("yaml"):
            ctx, ctx_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
            where = (f" ({ctx} that starts at line {ctx_mark.line + 1}, column {ctx_mark.column + 1})"
                     if ctx and ctx_mark is not None else (f" ({ctx})" if ctx else ""))
            return (f"YAML syntax error in {mark.name}, line {mark.line + 1}, column {mark.column + 1}: "
                    f"{getattr(exc, 'problem', None) or exc}{where}")
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None
