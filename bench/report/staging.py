"""Safe report builds: one build at a time per output folder, every build in a private staging
copy of the folder, and each top-level folder swapped in whole, only once the build is complete.

* :func:`build_lock`: an exclusive ``flock`` on ``<out>/.build.lock``, held by every writer of
  ``<out>`` (a full build, ``--verdicts-only``, an experiment-only build); a second writer says
  so and waits.
* :class:`StagedTree`: the build writes into ``<out>/.build-<random>/``, a copy of ``<out>``
  (dot-entries and the ``scale-<s>`` folders of other builds left out). When the build is done,
  pages and verdicts included, :meth:`StagedTree.publish` swaps every top-level folder of the copy
  with its counterpart by one ``renameat2(RENAME_EXCHANGE)`` (the old folder or the new one,
  never a mix, never absent), moves in new folders by one ``rename``, replaces the top-level files
  each by one ``rename``, and removes what the build removed. A build killed at any moment leaves
  every folder of ``<out>`` as it was or as the build made it; the staging folders it leaves
  (dot-names, which :func:`bench.report.evidence.compare_trees` and git ignore) are removed by the
  next build, which holds the lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["build_lock", "StagedTree", "exchange", "remove_leftovers", "STAGING_PREFIX"]

#: the staging copy of a whole output folder
STAGING_PREFIX = ".build-"
#: what a build leaves beside its output when killed: staging copies, per-folder staging, swapped-out folders
#: tests only: seconds to wait before each swap of :meth:`StagedTree.publish` (to kill a build mid-swap)
SWAP_PAUSE_ENV = "BENCH_REPORT_TEST_SWAP_PAUSE"
LEFTOVER_PREFIXES = (STAGING_PREFIX, ".evidence.building-")
LEFTOVER_MARKS = (".building-", ".old-")

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_libc = None


def _renameat2():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    return getattr(_libc, "renameat2", None)


def exchange(a: Path, b: Path) -> bool:
    """Swap the paths ``a`` and ``b`` (both exist) in one atomic step; False where the system or the
    file system cannot (the caller then falls back to two renames)."""
    fn = _renameat2() if sys.platform.startswith("linux") else None
    if fn is None:
        return False
    rc = fn(_AT_FDCWD, os.fsencode(str(a)), _AT_FDCWD, os.fsencode(str(b)), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, f"cannot swap {a} and {b}: {os.strerror(err)}")


@contextlib.contextmanager
def build_lock(out_root: Path):
    """One writer at a time per output folder: an exclusive lock on ``out_root/.build.lock``; a
    second writer says so and waits for the first to finish."""
    import fcntl

    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    with open(out_root / ".build.lock", "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another report build is writing {out_root}/; waiting for it to finish", file=sys.stderr,
                  flush=True)
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _is_leftover(name: str) -> bool:
    return name.startswith(LEFTOVER_PREFIXES) or (name.startswith(".") and any(m in name for m in LEFTOVER_MARKS))


def remove_leftovers(out_root: Path) -> list[Path]:
    """Remove what killed builds left in ``out_root`` (call with the lock held); return it."""
    gone = []
    for p in sorted(Path(out_root).iterdir()) if Path(out_root).is_dir() else []:
        if _is_leftover(p.name):
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
            gone.append(p)
    return gone


def _ignored(name: str) -> bool:
    """Top-level entries of an output folder a build neither copies nor replaces: dot-entries (the
    lock, staging folders) and the ``scale-<s>`` folders of smaller-scale builds (their own outputs)."""
    return name.startswith(".") or name.startswith("scale-")


def _identical(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are the same file, or folders of the same files, byte for byte."""
    if a.is_symlink() or b.is_symlink():
        return a.is_symlink() and b.is_symlink() and os.readlink(a) == os.readlink(b)
    if a.is_file() and b.is_file():
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    if not (a.is_dir() and b.is_dir()):
        return False
    names = sorted(p.name for p in a.iterdir())
    return names == sorted(p.name for p in b.iterdir()) and all(_identical(a / n, b / n) for n in names)


class StagedTree:
    """A private, complete copy of ``out_root`` for one build (see the module docstring)."""

    def __init__(self, out_root: Path | str):
        self.out = Path(out_root)
        self.out.mkdir(parents=True, exist_ok=True)
        remove_leftovers(self.out)
        self.path = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.out))
        self.before: set[str] = set()
        for p in sorted(self.out.iterdir()):
            if _ignored(p.name):
                continue
            self.before.add(p.name)
            if p.is_dir():
                shutil.copytree(p, self.path / p.name, symlinks=True)
            else:
                shutil.copy2(p, self.path / p.name)

    def final(self, path: Path | str) -> Path:
        """Where a path inside the staging copy ends up once published."""
        try:
            return self.out / Path(path).relative_to(self.path)
        except ValueError:
            return Path(path)

    def publish(self, only: set[str] | None = None) -> None:
        """Swap the completed copy in, folder by folder (see the module docstring). Entries the build
        left byte for byte as they were are not touched; with ``only``, no entry but those named is
        (an experiment-only build publishes its experiments' folders and nothing else)."""
        after = {p.name for p in self.path.iterdir() if not _ignored(p.name)
                 and (only is None or p.name in only) and not _identical(p, self.out / p.name)}
        gone = self.before - {p.name for p in self.path.iterdir()}
        trash = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.out))
        # folders first (a page's links resolve once the top-level files point at them), files last
        names = sorted(after, key=lambda n: (not (self.path / n).is_dir(), n))
        pause = float(os.environ.get(SWAP_PAUSE_ENV) or 0)
        if pause:
            print(f"publishing {len(names)} entries into {self.out}/", file=sys.stderr, flush=True)
        for name in names:
            if pause:
                time.sleep(pause)
            new, old = self.path / name, self.out / name
            if new.is_dir() and old.is_dir() and not old.is_symlink():
                if not exchange(new, old):   # no atomic exchange here: two renames
                    os.replace(old, trash / name)
                    os.replace(new, old)
            else:
                if old.is_dir() and not old.is_symlink():
                    os.replace(old, trash / name)
                os.replace(new, old)
        for name in sorted(gone if only is None else gone & set(only)):   # removed by the build
            old = self.out / name
            if old.exists() or old.is_symlink():
                os.replace(old, trash / name)
        shutil.rmtree(trash, ignore_errors=True)
        self.discard()

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
