"""``bench``: one command for the harness's entry points.

    bench run algo=rf100 data=letter protocol=cv10 seed=0    # = python -m bench ... (Hydra app; -m sweeps)
    bench experiments run ande_sr --scale medium              # = python -m bench.experiments ...
    bench report --paper ande_sr                              # = python -m bench.report ...
    bench data list                                           # = python -m bench.data ...
    bench list algos                                          # = python -m bench.catalogue ...
    bench compare --algos logreg,nb --datasets iris,zoo       # = python -m bench.compare ...
    bench perf anytime --quick                                # = python -m bench.perf ...
    bench weka letter --algo rf -- weka.classifiers...        # = python -m bench.weka.folds ...
    bench scaleup massbayes_fig3 --scale smoke                # = python -m bench.scaleup ...

Each subcommand hands the rest of the command line, unchanged, to the module it names, so
``bench <subcommand> --help`` is that module's own help and every ``python -m`` form keeps
working as before. The console script is installed with the package (``[project.scripts]`` in
pyproject.toml); from a checkout, ``python -m bench.cli`` is the same command.
"""

from __future__ import annotations

import importlib
import sys
from typing import Callable

#: subcommand -> (module, what it does); the module's ``main(argv)`` runs it, except for ``run``
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bench.__main__", "one job or a Hydra sweep: algo=... data=... protocol=... seed=... (-m sweeps)"),
    "list": ("bench.catalogue", "the catalogue: bench list algos|data|protocols|experiments [PATTERN], with each "
             "config's family, papers, aliases and description"),
    "experiments": ("bench.experiments", "list, plan and run the experiments of conf/experiment/"),
    "report": ("bench.report.__main__", "rewrite reports/ from the stored records"),
    "data": ("bench.data.__main__", "list, describe, fetch, check and plot the registered datasets"),
    "perf": ("bench.perf.__main__", "speed and memory benchmarks, with peers measured in the same run"),
    "compare": ("bench.compare.__main__", "compare algorithms over datasets by the papers' statistics "
                "(W/D/L, sign tests, Friedman, CD diagram): reports/compare/<name>/"),
    "weka": ("bench.weka.folds", "run a Weka classifier on bench's own folds and store its records"),
    "weka-cuts": ("bench.weka.cuts", "Weka's MDL cut points of a dataset, against ours"),
    "scaleup": ("bench.scaleup", "a scale-up experiment: training time and size as the training set grows"),
    "warm": ("bench.warm", "compile and cache the Numba kernels ahead of the first run"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: bench <command> [arguments ...]   (bench <command> --help: that command's options)", "",
             "commands:"]
    lines += [f"  {name:<{width}}  {what}" for name, (_, what) in COMMANDS.items()]
    lines += ["", "`bench run` takes Hydra overrides exactly as `python -m bench` does; the others take the",
              "options of the module they name (python -m bench.<module>)."]
    return "\n".join(lines)


def _run_hydra_app(argv: list[str]) -> int:
    """``python -m bench`` with ``argv``, in this process: ``bench/__main__.py`` is run as the main
    module (:func:`runpy.run_module`), as ``python -m`` does, so Hydra finds ``conf/`` and names the
    job as it does there; it reads ``sys.argv``, which is set for the call."""
    import runpy

    saved = sys.argv
    sys.argv = [saved[0] if saved else "bench", *argv]
    try:
        runpy.run_module("bench", run_name="__main__", alter_sys=True)
    except SystemExit as exc:  # Hydra (and the app) exit with a status
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = saved
    return 0


def entry(name: str) -> Callable[[list[str]], int]:
    """The function that runs subcommand ``name`` with its arguments."""
    if name == "run":
        return _run_hydra_app
    module = importlib.import_module(COMMANDS[name][0])
    return lambda argv: module.main(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        import difflib

        close = difflib.get_close_matches(name, list(COMMANDS), n=2, cutoff=0.5)
        hint = f" Did you mean `bench {close[0]}`?" if close else ""
        if "=" in name:  # an override without its command
            hint = f" Did you mean `bench run {' '.join(argv)}`?"
        print(f"bench: unknown command {name!r}.{hint}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        status = entry(name)(rest)
    except SystemExit as exc:  # argparse's --help and usage errors
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
