"""Process resources: CPU and wall clocks, peak resident memory, thread limits."""

from __future__ import annotations

import os
import resource
import time
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Timing:
    cpu_s: float = 0.0
    wall_s: float = 0.0


@contextmanager
def timed(into: Timing):
    """Add the process CPU seconds (all threads) and wall seconds of the block to ``into``."""
    c0, w0 = time.process_time(), time.perf_counter()
    try:
        yield into
    finally:
        into.cpu_s += time.process_time() - c0
        into.wall_s += time.perf_counter() - w0


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux >= 4.0: write 5 to /proc/self/clear_refs),
    so that :func:`peak_rss_mb` measures from now on. False where unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def rss_mb() -> float:
    kb = _status_kb("VmRSS")
    return kb / 1024 if kb is not None else float("nan")


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (since the last reset)."""
    kb = _status_kb("VmHWM")
    if kb is None:
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024


def limit_threads(n: int | None) -> None:
    """Limit BLAS/OpenMP and Numba threads of this process to ``n`` (None: leave as is)."""
    if not n:
        return
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(int(n))
    except ImportError:  # pragma: no cover
        pass
    try:
        import numba

        numba.set_num_threads(min(int(n), numba.config.NUMBA_NUM_THREADS))
    except (ImportError, ValueError):  # pragma: no cover
        pass
