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
    import numpy
    import sklearn

    from . import __version__

    return {
        "bench_version": __version__,
        "git_commit": git_commit(),
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "n_cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "sklearn": sklearn.__version__,
    }


@functools.lru_cache(maxsize=1)
def git_commit() -> str:
    """HEAD of the checkout bench runs from, with ``-dirty`` when it has uncommitted
    changes to tracked files; ``unknown`` outside a git checkout."""
    root = Path(__file__).resolve().parents[1]
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
