"""``python -m bench.warm [ALGO ...]``: compile and cache the Numba kernels ahead of the first run.

Every estimator's hot loops are ``@njit(cache=True)``: the first process that calls a kernel
with a given type signature compiles it (seconds per kernel) and writes the machine code to
Numba's cache (``__pycache__`` next to the module, or ``NUMBA_CACHE_DIR``); later processes
load it in milliseconds. ``make install`` (and ``make warm``) run this module: by default it
compiles what the demo and the quick tests need first (:data:`FIRST_ALGOS`); every other
algorithm compiles on its first use, which a one-line message announces, or all of them ahead with
``--all``.

It fits each algorithm through bench's own runner
(:func:`bench.runner.run_split`, the same preprocessing and estimator path as a real job) on
small synthetic tables whose dtypes match real data: float64 features with numeric and
nominal columns and missing values, and a training fold large enough for the count dtype
real folds use (int16 and int32 count tables are distinct signatures). Nothing is stored.

:func:`notice_if_cold` prints a one-line message when a job's algorithm was not compiled here yet
(:func:`mark_warm` records each warmed algorithm and each job that warmed up), so a first run says
why it is slow.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

#: what ``bench warm`` compiles first: the demo's algorithm (``bench run`` with no argument:
#: MassBayes) and the count kernels, NB and its MDL discretisation that the quick tests
#: (``make test-quick``) and the README's first commands fit. Every other algorithm compiles on
#: its first use, with a one-line message (:func:`notice_if_cold`), or ahead with ``--all``.
FIRST_ALGOS = ("massbayes", "nb")

#: algorithms whose estimators run Numba kernels (the paper learners); others (rf, xgb, svm)
#: need no warming. ``bench warm --all`` compiles them all.
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
            mark_warm(cfg)
            print(f" {done[name]:.1f} s", file=out, flush=True)
        except Exception as exc:  # one algorithm failing to warm must not stop the others
            done[name] = f"{type(exc).__name__}: {exc}"
            print(f" failed ({done[name]})", file=out, flush=True)
    return done


def _module_file(module: str) -> Path | None:
    """The source file of ``module`` (``algorithms.bnc``) below the ``algorithms`` package, found
    without importing anything of it (a kernel module imports Numba)."""
    import importlib.util

    head, _, rest = module.partition(".")
    spec = importlib.util.find_spec(head)
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(list(spec.submodule_search_locations)[0]).joinpath(*rest.split(".")) if rest else None
    for cand in ((base.with_suffix(".py"), base / "__init__.py") if base else
                 (Path(list(spec.submodule_search_locations)[0]) / "__init__.py",)):
        if cand.is_file():
            return cand
    return None


_IMPORT = None


def _kernel_files(modules) -> list[Path]:
    """The modules of ``algorithms`` that ``modules`` import, directly or through each other (read
    from their source with a pattern, nothing imported: a job's start-up pays milliseconds), and
    that define Numba kernels."""
    import re

    global _IMPORT
    if _IMPORT is None:
        _IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w, \t]*)|import[ \t]+([\w., \t]+))",
                             re.M)
    todo, seen, out = list(modules), set(), []
    while todo:
        mod = todo.pop()
        if mod in seen or mod.partition(".")[0] != "algorithms":
            continue
        seen.add(mod)
        path = _module_file(mod)
        if path is None:
            continue
        text = path.read_text()
        if "njit" in text:
            out.append(path)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for frm, names, plain in _IMPORT.findall(text):
            if plain:
                todo += [n.strip().split(" ")[0] for n in plain.split(",") if n.strip()]
                continue
            level = len(frm) - len(frm.lstrip("."))
            base = frm.lstrip(".")
            if level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - level + 1] + ([base] if base else []))
            todo.append(base)
            todo += [f"{base}.{n.strip().split(' ')[0]}" for n in names.split(",") if n.strip()]
    return sorted(out)


def _targets(cfg) -> list[str]:
    """Every ``_target_`` module of a config (the estimator's and the preprocessing steps')."""
    if isinstance(cfg, dict):
        own = [str(cfg["_target_"]).rpartition(".")[0]] if "_target_" in cfg else []
        return own + [t for v in cfg.values() for t in _targets(v)]
    if isinstance(cfg, list):
        return [t for v in cfg for t in _targets(v)]
    return []


def cache_is_cold(modules=("algorithms._counts",)) -> bool:
    """True when Numba's cache holds nothing of the kernel modules reachable from ``modules``
    (default: ``algorithms._counts``, the kernels every count-based learner uses) for this Python:
    the next run that uses them compiles them."""
    return not all(_cached(src) for src in _kernel_files(modules))


def _cached(src: Path) -> bool:
    """Whether Numba's cache holds any compiled kernel of module file ``src``."""
    import os

    env = os.environ.get("NUMBA_CACHE_DIR")   # Numba then caches there only
    where = Path(env) if env else src.parent / "__pycache__"
    return where.exists() and any(where.rglob(f"{src.stem}.*.nbi"))


def _marker(algo_cfg: dict) -> Path | None:
    """The file that says ``algo_cfg``'s kernels were compiled here (by ``bench warm`` or a job's
    warm-up): keyed by the kernel modules' files and modification times, this Python and Numba's
    cache folder, so a new install or an edited kernel counts as not compiled. None when the
    algorithm has no Numba kernel."""
    import hashlib
    import json
    import os

    from .data.cache import cache_dir

    files = _kernel_files(_targets(algo_cfg))
    if not files:
        return None
    key = json.dumps([list(sys.version_info[:2]), os.environ.get("NUMBA_CACHE_DIR", ""),
                      [(str(f), f.stat().st_mtime_ns) for f in files]])
    return cache_dir() / "warm" / hashlib.sha256(key.encode()).hexdigest()[:20]


def mark_warm(algo_cfg: dict) -> None:
    """Record that ``algo_cfg``'s kernels are compiled (after a warm-up or a job that ran it)."""
    try:
        marker = _marker(algo_cfg)
        if marker is not None:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(str(algo_cfg.get("name", "")))
    except OSError:
        pass


def notice_if_cold(algo_cfg: dict | None = None, out=None) -> None:
    """One line on stderr when the Numba kernels this job needs (those of ``algo_cfg``'s estimator
    and preprocessing steps) were not compiled here yet, so a first run says why it is slow. Without
    a config: when the shared count kernels are not in Numba's cache."""
    try:
        if algo_cfg is None:
            cold = cache_is_cold()
        else:
            marker = _marker(algo_cfg)   # compiled here before, and Numba's cache not emptied since
            cold = marker is not None and (not marker.exists()
                                           or not any(_cached(f) for f in _kernel_files(_targets(algo_cfg))))
    except OSError:
        return
    if cold:
        name = (algo_cfg or {}).get("name")
        print(f"bench: compiling the Numba kernels{f' of {name}' if name else ''} (first use here; cached for "
              f"later runs; `bench warm --all` compiles every algorithm ahead) ...", file=out or sys.stderr, flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.warm", description=__doc__.split("\n\n")[0])
    ap.add_argument("algos", nargs="*", help=f"algorithms to warm (default: {' '.join(FIRST_ALGOS)}, what the "
                    f"demo and the quick tests need; the others compile on first use)")
    ap.add_argument("--all", action="store_true", help=f"every algorithm with Numba kernels: {' '.join(DEFAULT_ALGOS)}")
    ap.add_argument("--quick", action="store_true", help="one small size only (int16 count tables)")
    args = ap.parse_args(argv)
    from .resources import limit_threads

    limit_threads(1)
    t0 = time.perf_counter()
    algos = args.algos or (DEFAULT_ALGOS if args.all else FIRST_ALGOS)
    res = warm(algos, SIZES[:1] if args.quick else SIZES)
    failed = [a for a, v in res.items() if isinstance(v, str)]
    print(f"warmed {len(res) - len(failed)} of {len(res)} algorithms in {time.perf_counter() - t0:.1f} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    if not args.algos and not args.all:
        print("the other algorithms compile on their first use (a message says so); `bench warm --all` "
              "compiles them all now", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
