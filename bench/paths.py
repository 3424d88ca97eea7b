"""Where bench finds what it ships, and where it writes what is the user's.

What ships with bench (read, never written by a user's command):

* the configs, ``conf/`` (:func:`conf_dir`): in a checkout the repository's ``conf/``; in an
  installed wheel the copy inside the package (``bench/_shipped/conf``); ``BENCH_CONF_DIR`` names
  another complete copy (then it is the one folder of configs, read and written);
* the papers' datasets, ``datasets/`` (:func:`shipped_datasets_dir`), the same way
  (``BENCH_DATASETS_DIR`` overrides it, see :mod:`bench.data.cache`);
* the evidence behind the committed reports, ``reports/evidence`` (:func:`shipped_reports_dir`),
  which ``bench compare --against`` reads.

What is the user's goes to the **workspace** (:func:`workspace`): ``BENCH_HOME`` when set, else the
current folder. It holds ``results/`` (unless ``BENCH_RESULTS_DIR`` or ``results_dir`` says
otherwise), the user's own configs in ``conf/<group>/`` (``bench data add`` writes
``conf/data/<name>.yaml`` there; an ``algo``, ``data``, ``protocol`` or ``experiment`` config put
there is found beside the shipped ones) and the user's reports in ``reports/`` (``bench compare``:
``reports/compare/<name>/``; ``bench data plot``: ``reports/data/``).

This module imports nothing from bench: every layer may use it.
"""

from __future__ import annotations

import os
from pathlib import Path

#: the folder inside the installed package that holds the shipped configs, datasets and evidence
#: (filled by setup.py's build step when a wheel is built; absent in a checkout)
PACKAGED = Path(__file__).resolve().parent / "_shipped"

#: the checkout's root, when bench runs from one (``bench/`` beside ``conf/``)
_CHECKOUT = Path(__file__).resolve().parents[1]

#: the config groups a workspace's ``conf/`` may add configs to
GROUPS = ("algo", "data", "protocol", "experiment")


def _checkout_has(name: str, marker: str) -> Path | None:
    here = _CHECKOUT / name
    return here if (here / marker).exists() else None


def shipped_conf_dir() -> Path:
    """bench's own configs: the checkout's ``conf/``, else the installed package's copy."""
    return _checkout_has("conf", "config.yaml") or PACKAGED / "conf"


def conf_dir() -> Path:
    """The folder of bench's configs: ``BENCH_CONF_DIR`` (a complete copy of ``conf/``), else the
    shipped configs (:func:`shipped_conf_dir`)."""
    env = os.environ.get("BENCH_CONF_DIR")
    return Path(env).expanduser() if env else shipped_conf_dir()


def app_conf_dir() -> Path:
    """The primary config folder of the Hydra app (``python -m bench``): :func:`conf_dir` when it
    holds ``config.yaml`` (a complete copy), else bench's own (a ``BENCH_CONF_DIR`` holding only
    some groups is then searched by bench's readers, not by the app)."""
    here = conf_dir()
    return here if (here / "config.yaml").is_file() else shipped_conf_dir()


def shipped_datasets_dir() -> Path:
    """Where the papers' datasets ship: the checkout's ``datasets/``, else the installed package's
    copy (whether or not it is present)."""
    return _checkout_has("datasets", "MANIFEST.csv") or PACKAGED / "datasets"


def shipped_reports_dir() -> Path:
    """Where the committed reports' evidence ships (``<this>/evidence``): the checkout's
    ``reports/``, else the installed package's copy of ``reports/evidence``."""
    return _checkout_has("reports", "evidence") or PACKAGED / "reports"


def workspace() -> Path:
    """The user's workspace: ``BENCH_HOME`` when set, else the current folder."""
    env = os.environ.get("BENCH_HOME")
    return Path(env).expanduser() if env and env.strip() else Path.cwd()


def user_conf_dir() -> Path:
    """Where the user's own configs go: the workspace's ``conf/`` (``BENCH_CONF_DIR`` when that is
    set: then it is the one folder of configs)."""
    env = os.environ.get("BENCH_CONF_DIR")
    return Path(env).expanduser() if env else workspace() / "conf"


def user_reports_dir() -> Path:
    """Where the user's own reports go (``compare/``, ``data/``): the workspace's ``reports/``."""
    return workspace() / "reports"


def default_results_dir() -> str:
    """The results folder when neither ``results_dir`` nor ``BENCH_RESULTS_DIR`` names one:
    ``$BENCH_HOME/results`` when ``BENCH_HOME`` is set, else ``results`` in the current folder."""
    env = os.environ.get("BENCH_HOME")
    return str(Path(env).expanduser() / "results") if env and env.strip() else "results"


def results_root(results_dir: str | os.PathLike | None = None) -> Path:
    """The results root: ``results_dir`` if given, else ``$BENCH_RESULTS_DIR``, else the workspace's
    ``results`` (:func:`default_results_dir`). Every command finds the store through this one rule
    (``bench.store.results_root`` is this function)."""
    return Path(results_dir or os.environ.get("BENCH_RESULTS_DIR") or default_results_dir())


def conf_dirs() -> list[Path]:
    """The folders searched for a config, in order: bench's (:func:`conf_dir`), then the user's
    (:func:`user_conf_dir`) when it exists and is another folder. A shipped name wins."""
    dirs = [conf_dir()]
    user = user_conf_dir()
    try:
        if user.is_dir() and user.resolve() != dirs[0].resolve():
            dirs.append(user)
    except OSError:
        pass
    return dirs


def config_names(group: str) -> list[str]:
    """The names of every config of ``group`` (``algo``, ``data``, ...), bench's and the user's."""
    names = set()
    for d in conf_dirs():
        names.update(p.stem for p in (d / group).glob("*.yaml"))
    return sorted(names)


def config_path(group: str, name: str) -> Path | None:
    """The file of config ``group/name`` (bench's first, then the user's), or None."""
    for d in conf_dirs():
        p = d / group / f"{name}.yaml"
        if p.is_file():
            return p
    return None


def searchpath_overrides() -> list[str]:
    """The Hydra override that adds the workspace's own configs (:func:`user_conf_dir`) to the
    config search path after bench's, or nothing when there are none."""
    extra = conf_dirs()[1:]
    if not extra:
        return []
    quoted = ",".join("'file://" + str(d.resolve()).replace("\\", "\\\\").replace("'", "\\'") + "'" for d in extra)
    return [f"hydra.searchpath=[{quoted}]"]
