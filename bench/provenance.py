"""Where and with what a record was made: package version, git commit, machine."""

from __future__ import annotations

import functools
import os
import platform
import socket
import subprocess
from pathlib import Path


@functools.lru_cache(maxsize=1)
def provenance() -> dict:
    """Versions come from the installed distributions' metadata (``importlib.metadata``), so that
    gathering provenance imports neither scikit-learn (about 1 s of start-up) nor anything else
    heavy: a job pays only for the libraries its algorithm uses."""
    from . import __version__

    if _GIT_PREFETCH is not None:
        _GIT_PREFETCH.join()  # started by prefetch_git_commit: its answer is then git_commit's cached one
    return {
        "bench_version": __version__,
        "git_commit": git_commit(),
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "n_cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": _dist_version("numpy"),
        "sklearn": _dist_version("scikit-learn", "sklearn"),
    }


def _dist_version(dist: str, module: str | None = None) -> str:
    """Installed version of distribution ``dist``; the module's ``__version__`` when it is
    already imported (the same string for a regular install, and the truth for a source tree
    on ``sys.path`` without metadata); ``unknown`` when neither is available."""
    import sys

    mod = sys.modules.get(module or dist)
    if mod is not None and getattr(mod, "__version__", None):
        return str(mod.__version__)
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


#: the thread :func:`prefetch_git_commit` started, if any
_GIT_PREFETCH = None


def prefetch_git_commit() -> None:
    """Start :func:`git_commit` in a thread of this process, so that its two ``git`` processes run
    while a job starts up (its imports and its config's composition) rather than while it waits
    for them; :func:`provenance` waits for the thread before it reads the (cached) answer."""
    global _GIT_PREFETCH
    if _GIT_PREFETCH is None and git_commit.cache_info().currsize == 0:
        import threading

        _GIT_PREFETCH = threading.Thread(target=git_commit, name="bench-git-commit", daemon=True)
        _GIT_PREFETCH.start()


@functools.lru_cache(maxsize=1)
def git_commit() -> str:
    """HEAD of the checkout bench runs from, with ``-dirty`` when it has uncommitted
    changes to tracked files; ``unknown`` outside a git checkout."""
    root = Path(__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():  # an installed package: not inside bench's checkout
        return "unknown"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
