"""Speed and memory benchmarks (``make bench-perf``).

Each benchmark measures our code and a peer (scikit-learn, XGBoost, Weka, or a
reference implementation) in the same run, on the same data and machine, and
reports the ratio; absolute seconds alone say little across machines. Modules
in this package register benchmarks with :func:`benchmark`; ``python -m
bench.perf [NAME ...]`` runs them, prints one table and stores the rows as JSON
under ``results/perf/``.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from typing import Callable

BENCHMARKS: dict[str, Callable[..., list[dict]]] = {}


def benchmark(name: str):
    def deco(fn):
        BENCHMARKS[name] = fn
        return fn

    return deco


def discover() -> dict[str, Callable]:
    import bench.perf as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"bench.perf.{info.name}")
    return BENCHMARKS


def best_of(fn: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    """Minimum wall seconds of ``repeat`` calls (the usual estimate of intrinsic cost) and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def best_cpu(fn: Callable[[], object], repeat: int = 3) -> float:
    """Minimum process CPU seconds of ``repeat`` calls (robust on a shared, loaded machine)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def row(benchmark: str, case: str, ours: str, ours_s: float, peer: str | None = None,
        peer_s: float | None = None, **extra) -> dict:
    """One result row; ``ratio`` = peer seconds / our seconds (> 1: we are faster)."""
    r = {"benchmark": benchmark, "case": case, "ours": ours, "ours_s": ours_s, "peer": peer,
         "peer_s": peer_s, "ratio": (peer_s / ours_s) if (peer_s and ours_s) else None}
    r.update(extra)
    return r
