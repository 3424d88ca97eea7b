"""``python -m bench.warm [ALGO ...]``: compile and cache the Numba kernels ahead of the first run.

Every estimator's hot loops are ``@njit(cache=True)``: the first process that calls a kernel
with a given type signature compiles it (seconds per kernel) and writes the machine code to
Numba's cache (``__pycache__`` next to the module, or ``NUMBA_CACHE_DIR``); later processes
load it in milliseconds. Without warming, a new user's first ``python -m bench`` spends about
20 s compiling in silence. ``make install`` (and ``make warm``) run this module.

It fits each algorithm (default: :data:`DEFAULT_ALGOS`) through bench's own runner
(:func:`bench.runner.run_split`, the same preprocessing and estimator path as a real job) on
small synthetic tables whose dtypes match real data: float64 features with numeric and
nominal columns and missing values, and a training fold large enough for the count dtype
real folds use (int16 and int32 count tables are distinct signatures). Nothing is stored.

:func:`notice_if_cold` prints a one-line progress message when the cache is empty, so an
unwarmed first run says why it is slow.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

#: algorithms whose estimators run Numba kernels (the paper learners); others (rf, xgb, svm)
#: need no warming
DEFAULT_ALGOS = ("a1de", "a1de_s", "a1de_w", "a2de", "nb", "nb_disc", "nb_gaussian", "kdb5", "skdb",
                 "tan", "j48", "massbayes", "mctree", "eskdb_hdp", "smo_numeric")

#: algorithms whose kernels have no count-dtype signatures: warmed on the smallest size only (Weka's
#: SMO on 40,000 rows would take seconds for nothing)
SMALLEST_ONLY = frozenset({"smo", "smo_numeric"})

#: training rows of the warming folds: int16 counts (<= 32767 rows) and int32 counts
SIZES = (600, 40_000)


def _dataset(n: int, seed: int = 0):
    """``n`` rows: 6 numeric and 4 nominal attributes (3-5 values), 3 classes, ~2% missing
    (:func:`bench.data.synthetic.warm_table`)."""
    from .data.synthetic import warm_table

    return warm_table(n, seed)


def warm(algos=DEFAULT_ALGOS, sizes=SIZES, out=sys.stderr) -> dict:
    """Fit and apply each algorithm on each size; returns ``{algo: seconds or error text}``."""
    import numpy as np

    from .experiment_plan import algo_config
    from .protocols import Split
    from .runner import run_split

    done = {}
    for name in algos:
        cfg = algo_config(name)   # as `python -m bench algo=<name>` composes it (Hydra; SystemExit if unknown)
        t0 = time.perf_counter()
        print(f"warming {name} ...", end="", file=out, flush=True)
        try:
            for n in (sizes[:1] if name in SMALLEST_ONLY else sizes):
                ds = _dataset(n + 200)
                split = Split(0, 0, np.arange(n), np.arange(n, n + 200))
                run_split(cfg, ds, split, seed=0)
            done[name] = time.perf_counter() - t0
            print(f" {done[name]:.1f} s", file=out, flush=True)
        except Exception as exc:  # one algorithm failing to warm must not stop the others
            done[name] = f"{type(exc).__name__}: {exc}"
            print(f" failed ({done[name]})", file=out, flush=True)
    return done


def cache_is_cold() -> bool:
    """True when Numba's cache holds no compiled kernel of ``algorithms._counts`` (the kernels
    every count-based learner uses) for this Python: the next run will compile."""
    import importlib.util

    spec = importlib.util.find_spec("algorithms._counts")
    if spec is None or not spec.origin:
        return False
    src = Path(spec.origin)
    import os

    env = os.environ.get("NUMBA_CACHE_DIR")   # Numba then caches there only
    where = Path(env) if env else src.parent / "__pycache__"
    return not (where.exists() and any(where.rglob("_counts.*.nbi")))


def notice_if_cold(out=sys.stderr) -> None:
    """One line on stderr when the kernels are not compiled yet, so a first run is not silent."""
    try:
        cold = cache_is_cold()
    except OSError:
        return
    if cold:
        print("bench: first run here: compiling the Numba kernels (cached for later runs; "
              "`make warm` does it ahead) ...", file=out, flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.warm", description=__doc__.split("\n\n")[0])
    ap.add_argument("algos", nargs="*", help=f"algorithms to warm (default: {' '.join(DEFAULT_ALGOS)})")
    ap.add_argument("--quick", action="store_true", help="one small size only (int16 count tables)")
    args = ap.parse_args(argv)
    from .resources import limit_threads

    limit_threads(1)
    t0 = time.perf_counter()
    res = warm(args.algos or DEFAULT_ALGOS, SIZES[:1] if args.quick else SIZES)
    failed = [a for a, v in res.items() if isinstance(v, str)]
    print(f"warmed {len(res) - len(failed)} of {len(res)} algorithms in {time.perf_counter() - t0:.1f} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
