"""``python -m bench algo=X data=Y protocol=Z seed=S`` (Hydra app; ``-m`` sweeps)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from .paths import app_conf_dir

log = logging.getLogger("bench")


@hydra.main(version_base="1.3", config_path=str(app_conf_dir()), config_name="config")
def main(cfg: DictConfig) -> dict:
    from ._deferred import defer

    defer()  # before scikit-learn is imported: scipy.stats (pulled in by it) is imported on first use only;
    # here, not at the module's import, so that --help, --cfg and a setup error never import scikit-learn
    from .data import DataError
    from .protocols import ProtocolError
    from .runner import SetupError, run_job
    from .store import RecordError
    from .summary import failure_line, job_line, job_summary_dict, job_table
    from .warm import notice_if_cold

    if _in_sweep():
        _die_with_parent()
    unknown = _unknown_keys(list(cfg.keys()))
    if unknown and not _in_sweep():
        print(f"error: {unknown}", file=sys.stderr)
        raise SystemExit(2)
    algo = OmegaConf.to_container(cfg.algo, resolve=True)
    named = _named_algo_config(cfg, algo)
    notice_if_cold(algo)
    protocol = OmegaConf.to_container(cfg.protocol, resolve=True)
    experiment = (cfg.get("experiment") or {}).get("name") or "default"
    try:
        if unknown:
            raise SetupError(unknown)
        result = run_job(algo, cfg.data, protocol, cfg.seed, experiment, str(cfg.results_dir),
                         rerun=bool(cfg.rerun), retry_failed=bool(cfg.retry_failed),
                         progress=bool(cfg.progress) and (not _in_sweep() or sys.stderr.isatty()),
                         progress_position=_bar_position(), threads=cfg.threads,
                         warmup=bool(cfg.get("warmup", True)), mem_limit_gb=cfg.get("mem_limit_gb", "auto"),
                         time_limit_s=cfg.get("time_limit_s"), data_max_gb=cfg.get("data_max_gb", 1.0),
                         named_config=named)
    except (DataError, SetupError, ProtocolError, RecordError) as exc:
        if not _in_sweep():
            print(f"error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        # in a sweep one unavailable dataset must not stop the other jobs
        log.error("%s", exc)
        summary = {"dataset": OmegaConf.select(cfg, "data.name"), "algo": algo.get("name"),
                   "protocol": protocol.get("name"), "seed": cfg.seed, "n_ok": 0, "n_failed": 1,
                   "errors": [f"{type(exc).__name__}: {exc}"], "job_error": f"{type(exc).__name__}: {exc}"}
        _write_job_summary(summary)
        return summary
    except OSError as exc:  # records cannot be written (disk full, permissions): this job stops, a sweep goes on
        return _storage_failure(cfg, algo, protocol, exc)
    # a sweep prints one line per job (the sweep's table follows at its end); a single job its table
    print(job_line(result) if _in_sweep() else job_table(result), flush=True)
    if result.warmed_up:
        from .warm import mark_warm

        mark_warm(algo)
    summary = job_summary_dict(result)
    _write_job_summary(summary)
    line = failure_line(summary)
    if line:
        allowed = bool(cfg.get("allow_failures", False))
        print(line + (" (allow_failures=true: exit status 0)" if allowed else ""), file=sys.stderr, flush=True)
        if not allowed and not _in_sweep():
            raise SystemExit(1)
    return summary


def _named_algo_config(cfg=None, algo: dict | None = None) -> dict | None:
    """The algorithm config as its YAML composes it without this run's overrides (the job shows how
    its own config differs from it), or None when it cannot be composed (no ``algo=`` choice).

    When no override of the command line touches ``algo`` (a key under it, or a config within the
    group) and the job's ``algo`` node holds no interpolation (so no other key's override can
    reach it), that node is the named config itself: ``algo`` (the job's, resolved) is returned
    and Hydra does not compose it a second time (``bench.experiment_plan.algo_config``)."""
    from .experiment_plan import algo_config

    try:
        hc = HydraConfig.get()
        choice = hc.runtime.choices.get("algo")
    except ValueError:  # not inside a Hydra app
        return None
    if not choice:
        return None
    if cfg is not None and algo is not None and _algo_untouched(list(hc.overrides.task)) \
            and not _interpolates(OmegaConf.to_container(cfg.algo, resolve=False)):
        return algo
    try:
        return algo_config(choice)
    except (SystemExit, Exception):  # noqa: BLE001 - a name outside conf/algo: shown with its hash
        return None


def _algo_untouched(overrides: list[str]) -> bool:
    """Whether none of the command line's overrides changes the algo node beyond choosing its config
    (``algo=NAME``): no ``algo.KEY=...``, ``+algo.KEY``, ``~algo.KEY``, ``algo/...=...``."""
    for o in overrides:
        key = o.split("=", 1)[0].lstrip("+~").strip()
        if key.startswith(("algo.", "algo/", "algo@")) or (key.startswith("algo") and key != "algo"):
            return False
    return True


def _interpolates(node) -> bool:
    """Whether an unresolved config holds an interpolation (``${...}``) anywhere."""
    if isinstance(node, dict):
        return any(_interpolates(v) for v in node.values())
    if isinstance(node, list):
        return any(_interpolates(v) for v in node)
    return isinstance(node, str) and "${" in node


#: top-level keys a command line may add that conf/config.yaml does not hold: ``experiment`` (the
#: experiment drivers pass ``+experiment=<name>``) and ``chunk`` (bench.plan's SLURM chunk tasks)
EXTRA_KEYS = ("experiment", "chunk", "hydra")


def _known_keys() -> set[str] | None:
    """The top-level keys of bench's config: conf/config.yaml's own and its config groups, and
    :data:`EXTRA_KEYS`. None when the file cannot be read (no check then)."""
    import yaml

    try:
        with open(app_conf_dir() / "config.yaml") as fh:
            primary = yaml.safe_load(fh) or {}
    except (OSError, yaml.YAMLError):
        return None
    keys = {k for k in primary if k != "defaults"} | set(EXTRA_KEYS)
    for entry in primary.get("defaults") or []:
        if isinstance(entry, dict):
            for k in entry:
                keys.add(str(k).replace("override ", "").strip().split("/")[0].split("@")[0])
    return keys


def _unknown_keys(names) -> str | None:
    """A message naming the top-level config keys among ``names`` that bench does not know (a typo
    such as ``+protocl=cv5x2`` would otherwise be ignored and the default protocol run), or None."""
    import difflib

    known = _known_keys()
    if known is None:
        return None
    bad = [n for n in dict.fromkeys(names) if n not in known]
    if not bad:
        return None
    parts = []
    for n in bad:
        close = difflib.get_close_matches(n, sorted(known), n=1)
        parts.append(f"{n!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return (f"unknown config key {', '.join(parts)}: bench does not use it, so it would change nothing. The keys are "
            f"{', '.join(sorted(known - {'hydra'}))} (and hydra.*); see conf/config.yaml")


#: flags after which the primary config may not be bench's conf/config.yaml
_CONFIG_FLAGS = ("--config-dir", "-cd", "--config-path", "-cp", "--config-name", "-cn")


def _check_overrides(argv: list[str]) -> None:
    """Before Hydra: an override of a top-level key bench does not know (``+protocl=cv5x2``,
    ``seeed=1``) ends the command with exit status 2 and a message naming it, before any job runs."""
    if any(a.startswith(_CONFIG_FLAGS) for a in argv):
        return
    import re

    word = _bare_word(argv)
    if word is not None:
        from .cli import COMMANDS

        if word in COMMANDS:
            print(f"error: '{word}' is a command of `bench`, not a setting of a job: run `bench {word} ...` (or "
                  f"`python -m bench.cli {word} ...`; `bench --help` lists the commands)", file=sys.stderr)
        else:
            print(f"error: '{word}' is not a setting: a job is set with key=value, e.g. `python -m bench algo=nb "
                  f"data=iris`; `python -m bench --help` lists the keys", file=sys.stderr)
        raise SystemExit(2)
    names = []
    for a in argv:
        if a.startswith("-") or "=" not in a:
            continue
        key = a.split("=", 1)[0].lstrip("+~")
        top = re.split(r"[./@\[]", key, maxsplit=1)[0]
        if top:
            names.append(top)
    msg = _unknown_keys(names) or _nested_problem(argv) or _group_path_problem(argv)
    if msg:
        print(f"error: {msg}", file=sys.stderr)
        raise SystemExit(2)


#: Hydra's flags that take the next argument as their value
_VALUE_FLAGS = ("--cfg", "-c", "--package", "-p", "--info", "-i", "--experimental-rerun")


def _bare_word(argv: list[str]) -> str | None:
    """The first argument that is neither a flag, a flag's value nor a key=value setting (Hydra would
    fail on it with a parser traceback), else None."""
    prev = ""
    for a in argv:
        if not a.startswith(("-", "~")) and "=" not in a and prev not in _VALUE_FLAGS:
            return a
        prev = a
    return None


#: keys a data or protocol config may hold (what bench.data and bench.protocols read), besides those
#: the configs of conf/data and conf/protocol already use
NESTED_KEYS = {
    "data": {"name", "description", "notes", "papers", "tags", "sources", "expected", "stand_in", "target",
             "target_is_class", "select", "drop", "nominal", "numeric", "all_nominal", "class_groups",
             "drop_missing_target", "keep_empty_classes"},
    "protocol": {"name", "description", "notes", "kind", "n_splits", "n_repeats", "test_size", "train_sizes",
                 "per_dataset"},
}


def _nested_keys(group: str) -> set[str]:
    import yaml

    keys = set(NESTED_KEYS[group])
    for path in (Path(__file__).resolve().parents[1] / "conf" / group).glob("*.yaml"):
        try:
            cfg = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(cfg, dict):
            keys.update(str(k) for k in cfg)
    return keys


def _nested_problem(argv: list[str]) -> str | None:
    """A message for ``+data.<key>=`` or ``+protocol.<key>=`` whose key bench does not read (a typo
    such as ``+protocol.n_split=5`` would add a key nothing uses, and the job would run with the
    default), or None. ``++`` forces a key, as Hydra's own syntax says."""
    import difflib

    for a in argv:
        if not a.startswith("+") or a.startswith("++") or "=" not in a:
            continue
        parts = a[1:].split("=", 1)[0].split(".")
        if len(parts) != 2 or parts[0] not in NESTED_KEYS:
            continue
        group, key = parts
        known = _nested_keys(group)
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=1)
            hint = f" (did you mean {group}.{close[0]}?)" if close else ""
            return (f"unknown key {group}.{key} in {a!r}{hint}: no {group} setting of that name is read, so it would "
                    f"change nothing. The {group} keys are {', '.join(sorted(known))}")
    return None


def _group_path_problem(argv: list[str]) -> str | None:
    """A message for a config-group choice that is a path (``algo=../data/iris``), or None: a
    choice names a file of conf/<group>/, and a path would load another group's config as this one."""
    for a in argv:
        if a.startswith("-") or "=" not in a:
            continue
        key, value = a.lstrip("+~").split("=", 1)
        if key not in ("algo", "data", "protocol", "experiment"):
            continue
        for choice in value.split(","):
            c = choice.strip()
            if c.startswith("/") or ".." in c.split("/") or "\\" in c:
                return (f"{key}={c} is a path; {key}= takes the name of a config in conf/{key}/ (e.g. "
                        f"{key}={c.rstrip('/').rsplit('/', 1)[-1]} if conf/{key}/ holds it)")
    return None


def _setup_problem(exc) -> str | None:
    """The one-paragraph message for an error Hydra met while composing the job's config (a YAML
    syntax error, an unknown algo/data/protocol name, a key that is not in the config, a malformed
    override), or None for any other error."""
    from hydra.errors import (ConfigCompositionException, MissingConfigException, OverrideParseException)
    from omegaconf.errors import OmegaConfBaseException

    from .fileio import yaml_problem

    yaml_text = yaml_problem(exc)
    if yaml_text:
        return yaml_text
    if isinstance(exc, MissingConfigException) and exc.missing_cfg_file and exc.options is not None:
        group, _, name = str(exc.missing_cfg_file).rpartition("/")
        import difflib

        close = difflib.get_close_matches(name, list(exc.options), n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        what = {"data": "dataset", "algo": "algorithm", "protocol": "protocol"}.get(group, f"{group} config")
        listing = "`python -m bench.data list` describes them" if group == "data" else f"conf/{group}/ holds them"
        return (f"unknown {what} {group}={name} (Could not find '{exc.missing_cfg_file}').{hint} The "
                f"{len(exc.options)} available: {', '.join(exc.options)} ({listing})")
    if isinstance(exc, (ConfigCompositionException, OverrideParseException, OmegaConfBaseException)):
        text = str(exc).strip()
        cause = exc.__cause__
        if isinstance(cause, OmegaConfBaseException) and str(cause).strip() and str(cause).strip() not in text:
            text += "\n" + str(cause).strip()
        return text
    return None


def _friendly_setup_errors() -> None:
    """Make Hydra's error report (``hydra._internal.utils.run_and_report``) print a short message
    and exit with status 2 for a setup it cannot run (:func:`_setup_problem`): a YAML syntax error
    gives its file, line and column, not a 90-line traceback; an unknown algo or data name lists
    the available ones. Anything else goes to Hydra's own report, unchanged (HYDRA_FULL_ERROR=1
    too)."""
    import os

    import hydra._internal.utils as hu

    original = hu.run_and_report
    if getattr(original, "_bench", False):
        return

    def run_and_report(func):
        try:
            return func()
        except Exception as exc:
            if os.environ.get("HYDRA_FULL_ERROR") != "1":
                try:
                    msg = _setup_problem(exc)
                except Exception:
                    msg = None
                if msg:
                    print(f"error: {msg}", file=sys.stderr, flush=True)
                    sys.exit(2)
                if isinstance(exc, OSError):  # Hydra's own files (a sweep's multirun.yaml) on a full disk
                    print(f"error: {type(exc).__name__}: {exc}; nothing ran: free space (or fix the permissions) "
                          f"under the results directory, or choose another with results_dir=<path>",
                          file=sys.stderr, flush=True)
                    sys.exit(1)

            def again():
                raise exc

            return original(again)

    run_and_report._bench = True
    hu.run_and_report = run_and_report


def _storage_failure(cfg, algo: dict, protocol: dict, exc: OSError) -> dict:
    """The end of a job whose records could not be written: its table so far, a summary whose
    ``job_error`` says what happened, exit status 1 (in a sweep: the summary, and the next job)."""
    from .summary import failure_line, job_summary_dict, job_table

    partial = getattr(exc, "bench_result", None)
    what = (f"{type(exc).__name__}: {exc}; the job stopped: its records cannot be written (disk full? "
            f"permissions?)" + ("; the split in flight is stored as failed where that still fit"
                                if getattr(exc, "bench_collected", False) else ""))
    if partial is not None:
        print(job_table(partial), flush=True)
        summary = job_summary_dict(partial)
        summary["n_failed"] = max(1, summary["n_failed"])
    else:
        summary = {"dataset": OmegaConf.select(cfg, "data.name"), "algo": algo.get("name"),
                   "protocol": protocol.get("name"), "seed": cfg.seed, "n_ok": 0, "n_failed": 1, "errors": []}
    summary["errors"] = [what] + list(summary.get("errors") or [])[:4]
    summary["job_error"] = what
    import logging

    logging.raiseExceptions = False  # log files on the same full disk: no traceback per line logged
    log.error("%s", what)
    _write_job_summary(summary)
    if not _in_sweep():
        print(failure_line(summary), file=sys.stderr, flush=True)
        raise SystemExit(1)
    return summary


def _tolerate_full_disk() -> None:
    """:func:`bench.sweep.tolerate_full_disk` (Hydra's copy of a job's config is for reference only)."""
    from .sweep import tolerate_full_disk

    tolerate_full_disk()


def _interrupted() -> None:
    """Ctrl-C: stop every worker and say, in one line, what was kept and how to resume."""
    from .paths import results_root
    from .sweep import stop_workers

    stop_workers()
    root = results_root()
    for a in sys.argv[1:]:
        if a.startswith(("results_dir=", "+results_dir=", "++results_dir=")):
            root = a.split("=", 1)[1]
    print(f"\ninterrupted: every split finished before the interrupt is stored under {root} (the splits in "
          f"flight are not); run the same command again to resume, the stored splits are reused", file=sys.stderr,
          flush=True)


def _die_with_parent() -> None:
    """In a sweep worker (joblib/loky, submitit local): ask Linux to SIGKILL this process when
    its parent dies, so killing a sweep's main process does not leave workers computing on.
    Records stay consistent either way (atomic writes, split locks); this is about not leaving
    orphans behind. No-op where prctl is unavailable."""
    import ctypes
    import os
    import signal

    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _bar_position() -> int | None:
    """In a sweep whose jobs run at once, the terminal line of this job's progress bar: one line per
    job running (the job's number modulo the jobs at once), so the bars of parallel jobs do not
    interleave. None outside a sweep."""
    import os

    if not _in_sweep():
        return None
    try:
        n = int(HydraConfig.get().launcher.get("n_jobs") or 1)
        num = int(HydraConfig.get().job.num)
    except (ValueError, TypeError, AttributeError):
        return None
    n = (os.cpu_count() or 1) if n < 0 else max(n, 1)
    return num % n


def _in_sweep() -> bool:
    from hydra.types import RunMode

    try:
        return HydraConfig.get().mode == RunMode.MULTIRUN
    except ValueError:
        return False


def _write_job_summary(summary: dict) -> None:
    """Leave the job's summary in its Hydra output dir for the sweep-end table."""
    try:
        out = Path(HydraConfig.get().runtime.output_dir)
    except ValueError:
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench_summary.json").write_text(json.dumps(summary, indent=1, default=str))
    except OSError as exc:  # the sweep's table then names this job as one that left no summary
        log.error("could not write the job's summary under %s (%s)", out, exc)


def _check_results_dir(argv: list[str]) -> Path | None:
    """Before Hydra creates its output folder under ``results_dir``: fail with a message, not a
    traceback, when that directory cannot be written. A results directory that does not exist yet
    is not made here (the job makes it): its nearest existing parent must be writable. Returns that
    directory when it does not exist yet (:func:`_tidy_results_dir` removes it again if the command
    fails having stored nothing), else None."""
    import os
    import tempfile

    from .paths import results_root

    root = str(results_root())
    for a in argv:
        if a.startswith(("results_dir=", "+results_dir=", "++results_dir=")):
            root = a.split("=", 1)[1]
    if "${" in root or "," in root:
        return None  # interpolated or swept: Hydra resolves it
    path = Path(root).expanduser()
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        if not probe.is_dir():
            raise NotADirectoryError(20, "not a directory", str(probe))
        fd, tmp = tempfile.mkstemp(dir=probe, prefix=".write-test.")
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        print(f"error: cannot write to the results directory {root} ({exc.strerror or exc}); choose a writable "
              f"one with results_dir=<path> or BENCH_RESULTS_DIR=<path>", file=sys.stderr)
        raise SystemExit(2) from None
    return None if path.exists() else path


def _tidy_results_dir(made: Path | None) -> None:
    """After a command that failed: remove the results directory it created (``made``) when it holds
    nothing but Hydra's run folders (``.runs``, ``.sweeps``: the logs of a job that stored no split),
    so a failed command leaves no empty ``results/`` behind."""
    import shutil

    if made is None or not made.is_dir():
        return
    try:
        if any(p.name not in (".runs", ".sweeps") for p in made.iterdir()):
            return
        shutil.rmtree(made)
    except OSError:
        pass


#: command-line arguments after which Hydra's config may set ``hydra.mode`` (bench's never does:
#: tests/test_cli.py checks conf/), so its mode must be read from the composed config
_MODE_ARGS = ("hydra.mode", "--config-dir", "-cd", "--config-path", "-cp", "--config-name", "-cn", "--info",
              "--cfg", "-c", "--help", "-h", "--hydra-help", "--shell-completion", "-sc")


def _mode_from_flags(argv: list[str]) -> None:
    """Spare Hydra's first composition of the whole config (``Hydra.get_mode``, composed only to
    read ``hydra.mode``, then composed again to run; about 0.15 s). bench's configs never
    set ``hydra.mode``, so it is None there and Hydra takes the mode from ``-m`` / ``--multirun``;
    the shortcut answers None without composing. Any argument that could bring a config setting
    the mode (:data:`_MODE_ARGS`) leaves Hydra's own ``get_mode`` in place."""
    if any(a.startswith(_MODE_ARGS) or "hydra.mode" in a for a in argv):
        return
    from hydra._internal.hydra import Hydra

    if hasattr(Hydra, "get_mode"):
        Hydra.get_mode = lambda self, config_name, overrides: None


def _help_without_groups(argv: list[str]) -> None:
    """``--help``: Hydra lists every config group's options (``$APP_CONFIG_GROUPS``,
    ``$HYDRA_CONFIG_GROUPS``) before it fills the help template, whether the template shows them or
    not: a repository of every config per group, most of ``--help``'s time. bench's template
    (conf/config.yaml ``hydra.help``) shows neither, so for a template without them the lists are
    not made; the text printed is the same. ``--hydra-help`` (whose template lists the groups) is left
    to Hydra."""
    if not any(a in ("--help", "-h") for a in argv):
        return
    from hydra._internal.hydra import Hydra

    original = Hydra.get_help
    if getattr(original, "_bench", False):
        return

    def get_help(self, help_cfg, cfg, args_parser, resolve):
        if "CONFIG_GROUPS" in str(help_cfg.template):
            return original(self, help_cfg, cfg, args_parser, resolve)
        self.format_config_groups = lambda predicate, compact=True: ""  # not in the template: not made
        try:
            return original(self, help_cfg, cfg, args_parser, resolve)
        finally:
            del self.format_config_groups

    get_help._bench = True
    Hydra.get_help = get_help


def _is_program() -> bool:
    """Whether this process is ``python -m bench`` itself (not ``bench run`` or a test running this
    module in its own process through runpy)."""
    argv = list(getattr(sys, "orig_argv", []))
    return any(a == "-m" and b == "bench" for a, b in zip(argv, argv[1:])) or "-mbench" in argv


def _exit(code) -> None:
    """End ``python -m bench`` with status ``code`` (SystemExit's conventions) without the
    interpreter's teardown: the exit handlers run (logging flushes and closes Hydra's job log,
    weakref finalizers, numba's and llvmlite's), then the process exits. Clearing every module and
    collecting the object graphs of numba, LLVM and scikit-learn took about 0.25 s of CPU after
    the work was done. A sweep (-m), or any other thread still running, exits the usual way."""
    import atexit
    import os
    import threading

    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    if any(t is not threading.main_thread() and t.is_alive() and not t.daemon for t in threading.enumerate()):
        sys.exit(status)
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed pipe: nothing more to say
                pass
        os._exit(status)


def _workspace_setup(argv: list[str]) -> None:
    """The workspace (:mod:`bench.paths`) for this command: results under ``$BENCH_HOME/results``
    when ``BENCH_HOME`` is set (and no ``BENCH_RESULTS_DIR``), and the workspace's own configs
    (``conf/algo``, ``conf/data``, ...) on Hydra's search path after bench's."""
    import os

    from .paths import default_results_dir, searchpath_overrides

    if os.environ.get("BENCH_HOME", "").strip() and not os.environ.get("BENCH_RESULTS_DIR"):
        os.environ["BENCH_RESULTS_DIR"] = default_results_dir()
    if not any(a.startswith(("hydra.searchpath", "+hydra.searchpath", "++hydra.searchpath")) for a in argv):
        argv.extend(searchpath_overrides())


if __name__ == "__main__":
    _workspace_setup(sys.argv)
    _check_overrides(sys.argv[1:])
    _made = _check_results_dir(sys.argv[1:])
    _mode_from_flags(sys.argv[1:])
    _help_without_groups(sys.argv[1:])
    _friendly_setup_errors()
    _tolerate_full_disk()
    fast = _is_program() and not any(a in ("-m", "--multirun") or a.startswith("hydra.mode") for a in sys.argv[1:])
    if fast and not any(a.startswith("-") for a in sys.argv[1:]):  # one job (no --help, --cfg, ...)
        from .provenance import prefetch_git_commit

        prefetch_git_commit()  # the records' git commit, found while Hydra composes the config
    _sigints: list[int] = []
    if not fast:
        import signal

        def _on_sigint(signum, frame):
            # Ctrl-C reaches the sweep's workers too: when they die of it first, the sweep can end as
            # "jobs failed" before this process sees its own KeyboardInterrupt; the flag says it was an interrupt
            _sigints.append(signum)
            signal.default_int_handler(signum, frame)

        signal.signal(signal.SIGINT, _on_sigint)
    try:
        try:
            if not fast:
                from .sweep import install

                install()  # a job's fault in a sweep worker is the job's
            main()
        except SystemExit as exc:
            if exc.code not in (0, None):
                _tidy_results_dir(_made)
            if _sigints and exc.code not in (0, None):
                raise KeyboardInterrupt from None
            if not fast:
                raise
            _exit(exc.code)
        except BaseException:
            _tidy_results_dir(_made)
            raise
        if fast:
            _exit(0)
    except KeyboardInterrupt:
        _interrupted()
        (_exit if fast else sys.exit)(130)
