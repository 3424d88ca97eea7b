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


# ------------------------------------------------------------------ memory limit per split
#: default ``mem_limit_gb: auto``: this fraction of the machine's physical memory
AUTO_MEM_FRACTION = 0.85


def physical_memory_bytes() -> int | None:
    """Physical memory of the machine in bytes (None where the OS does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return None


def data_mb() -> float:
    """This process's data memory in MiB (``VmData``: private writable mappings, what
    RLIMIT_DATA limits)."""
    kb = _status_kb("VmData")
    return kb / 1024 if kb is not None else float("nan")


def resolve_mem_limit(value) -> int | None:
    """The per-split memory limit in bytes from the ``mem_limit_gb`` option.

    ``"auto"`` -> :data:`AUTO_MEM_FRACTION` of the physical memory; a positive number -> that
    many GiB; ``None`` / ``0`` / ``false`` / ``"none"`` -> no limit (None). Anything else raises
    ValueError naming the option and the accepted values."""
    if value is None or value is False:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("", "none", "null", "off", "0"):
            return None
        if text == "auto":
            phys = physical_memory_bytes()
            return int(AUTO_MEM_FRACTION * phys) if phys else None
    try:
        gb = float(value)
        if isinstance(value, bool) or gb != gb or gb < 0:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"mem_limit_gb={value!r} is not a memory limit; give a number of GiB (e.g. "
                         f"mem_limit_gb=16), mem_limit_gb=auto ({AUTO_MEM_FRACTION:g} of physical memory) "
                         f"or mem_limit_gb=null (no limit)") from None
    return int(gb * 2**30) if gb > 0 else None


@contextmanager
def memory_limit(limit_bytes: int | None):
    """Cap this process's data memory at ``limit_bytes`` for the block, then restore the
    previous cap.

    Uses the soft ``RLIMIT_DATA``: on Linux >= 4.7 it counts private writable mappings
    (``VmData``: malloc/mmap'd heap, NumPy and Numba arrays), so an allocation beyond it fails
    and Python/NumPy/Numba raise MemoryError, where without a cap the kernel's OOM killer
    would kill the whole process (and a whole sweep run in it). Unlike RLIMIT_AS it does not
    count read-only or PROT_NONE reservations (code, allocator arenas, the JVM's reserved heap).
    The limit is on the process's total, not on the block's increase. The hard limit is kept,
    so the soft one can be restored; a limit above the hard one is clipped to it. No-op for
    None or where RLIMIT_DATA is unavailable."""
    if not limit_bytes or not hasattr(resource, "RLIMIT_DATA"):
        yield None
        return
    old_soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    new = int(limit_bytes) if hard == resource.RLIM_INFINITY else min(int(limit_bytes), hard)
    if old_soft != resource.RLIM_INFINITY:
        new = min(new, old_soft)  # never loosen a tighter cap set from outside (ulimit -d)
    resource.setrlimit(resource.RLIMIT_DATA, (new, hard))
    try:
        yield new
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (old_soft, hard))
