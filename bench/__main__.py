"""``python -m bench algo=X data=Y protocol=Z seed=S`` (Hydra app; ``-m`` sweeps)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from ._deferred import defer

defer()  # scipy.stats (pulled in by scikit-learn) is imported on first use only

import hydra  # noqa: E402
from hydra.core.hydra_config import HydraConfig  # noqa: E402
from omegaconf import DictConfig, OmegaConf  # noqa: E402

log = logging.getLogger("bench")


@hydra.main(version_base="1.3", config_path="../conf", config_name="config")
def main(cfg: DictConfig) -> dict:
    from .data import DataError
    from .protocols import ProtocolError
    from .runner import SetupError, run_job
    from .store import RecordError
    from .summary import failure_line, job_summary_dict, job_table
    from .warm import notice_if_cold

    notice_if_cold()

    if _in_sweep():
        _die_with_parent()
    algo = OmegaConf.to_container(cfg.algo, resolve=True)
    protocol = OmegaConf.to_container(cfg.protocol, resolve=True)
    experiment = (cfg.get("experiment") or {}).get("name") or "default"
    try:
        result = run_job(algo, cfg.data, protocol, int(cfg.seed), experiment, str(cfg.results_dir),
                         rerun=bool(cfg.rerun), retry_failed=bool(cfg.retry_failed),
                         progress=bool(cfg.progress), threads=cfg.threads,
                         warmup=bool(cfg.get("warmup", True)), mem_limit_gb=cfg.get("mem_limit_gb", "auto"),
                         time_limit_s=cfg.get("time_limit_s"), data_max_gb=cfg.get("data_max_gb", 1.0))
    except (DataError, SetupError, ProtocolError, RecordError) as exc:
        if not _in_sweep():
            print(f"error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        # in a sweep one unavailable dataset must not stop the other jobs
        log.error("%s", exc)
        summary = {"dataset": OmegaConf.select(cfg, "data.name"), "algo": algo.get("name"),
                   "protocol": protocol.get("name"), "seed": int(cfg.seed), "n_ok": 0, "n_failed": 1,
                   "errors": [f"{type(exc).__name__}: {exc}"], "job_error": f"{type(exc).__name__}: {exc}"}
        _write_job_summary(summary)
        return summary
    print(job_table(result), flush=True)
    summary = job_summary_dict(result)
    _write_job_summary(summary)
    line = failure_line(summary)
    if line:
        allowed = bool(cfg.get("allow_failures", False))
        print(line + (" (allow_failures=true: exit status 0)" if allowed else ""), file=sys.stderr, flush=True)
        if not allowed and not _in_sweep():
            raise SystemExit(1)
    return summary


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
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench_summary.json").write_text(json.dumps(summary, indent=1, default=str))


def _check_results_dir(argv: list[str]) -> None:
    """Before Hydra creates its output folder under ``results_dir``: fail with a message, not a
    traceback, when that directory cannot be written."""
    import os
    import tempfile

    root = os.environ.get("BENCH_RESULTS_DIR") or "results"
    for a in argv:
        if a.startswith(("results_dir=", "+results_dir=", "++results_dir=")):
            root = a.split("=", 1)[1]
    if "${" in root or "," in root:
        return  # interpolated or swept: Hydra resolves it
    try:
        os.makedirs(root, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".write-test.")
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        print(f"error: cannot write to the results directory {root} ({exc.strerror or exc}); choose a writable "
              f"one with results_dir=<path> or BENCH_RESULTS_DIR=<path>", file=sys.stderr)
        raise SystemExit(2) from None


#: command-line arguments after which Hydra's config may set ``hydra.mode`` (bench's never does:
#: tests/test_cli.py checks conf/), so its mode must be read from the composed config
_MODE_ARGS = ("hydra.mode", "--config-dir", "-cd", "--config-path", "-cp", "--config-name", "-cn", "--info",
              "--cfg", "-c", "--help", "-h", "--hydra-help", "--shell-completion", "-sc")


def _mode_from_flags(argv: list[str]) -> None:
    """Spare Hydra's first composition of the whole config (``Hydra.get_mode``, composed only to
    read ``hydra.mode``, then composed again to run; about 0.15 s, issue 18). bench's configs never
    set ``hydra.mode``, so it is None there and Hydra takes the mode from ``-m`` / ``--multirun``;
    the shortcut answers None without composing. Any argument that could bring a config setting
    the mode (:data:`_MODE_ARGS`) leaves Hydra's own ``get_mode`` in place."""
    if any(a.startswith(_MODE_ARGS) or "hydra.mode" in a for a in argv):
        return
    from hydra._internal.hydra import Hydra

    if hasattr(Hydra, "get_mode"):
        Hydra.get_mode = lambda self, config_name, overrides: None


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
    the work was done (issue 18). A sweep (-m), or any other thread still running, exits the usual way."""
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


if __name__ == "__main__":
    _check_results_dir(sys.argv[1:])
    _mode_from_flags(sys.argv[1:])
    fast = _is_program() and not any(a in ("-m", "--multirun") or a.startswith("hydra.mode") for a in sys.argv[1:])
    if not fast:
        main()
    else:
        try:
            main()
        except SystemExit as exc:
            _exit(exc.code)
        _exit(0)
