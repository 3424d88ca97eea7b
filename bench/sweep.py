"""A sweep's faults are its jobs' faults.

``python -m bench -m ...`` runs its jobs in joblib (loky) worker processes. Whatever ends a job
there (an ``OSError`` such as a full disk while Hydra saves the job's config or opens its log, an
interrupt sent to the worker, an exception that escaped the job) ends that job as failed, with a
summary naming what happened; the other jobs run, and the sweep ends with its table
(``bench.callbacks.SweepSummary``). The summary is written into the job's folder, and also handed
back to the sweep's own process, so a job whose folder cannot take it (a full disk) is still named
by its error.

:func:`install` (in the sweep's process) points the joblib launcher at :func:`execute_job`, which
the workers import from here; :func:`tolerate_full_disk` is applied in both.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

log = logging.getLogger("bench")

#: job summaries handed back by the workers in this process: {job number (str): summary}
RETURNED: dict[str, dict] = {}


def tolerate_full_disk() -> None:
    """Hydra saves each job's config under its output folder before the job runs; on a full disk
    that raised out of Hydra's ``run_job`` and ended the whole sweep. The copy is for reference
    only: a failure to write it is logged and the job runs (and meets the full disk itself, which
    it reports in its summary)."""
    import hydra.core.utils as hcu

    original = hcu._save_config
    if getattr(original, "_bench", False):
        return

    def _save_config(cfg, filename, output_dir):
        try:
            original(cfg, filename, output_dir)
        except OSError as exc:
            log.error("could not save %s under %s (%s); the job runs without it", filename, output_dir, exc)

    _save_config._bench = True
    hcu._save_config = _save_config


def fault_summary(overrides, exc: BaseException) -> dict:
    """The summary of a job that ended with ``exc`` before it could write its own."""
    given = dict(o.split("=", 1) for o in overrides if "=" in o)
    pick = lambda k: given.get(k) or given.get(f"+{k}") or given.get(f"++{k}")  # noqa: E731
    if isinstance(exc, KeyboardInterrupt):
        what = "KeyboardInterrupt: the job's process was interrupted; run the sweep again to compute its splits"
    else:
        what = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, OSError):
            what += "; the job stopped (disk full? permissions?)"
    return {"dataset": pick("data"), "algo": pick("algo"), "protocol": pick("protocol"), "seed": pick("seed"),
            "n_ok": 0, "n_failed": 1, "errors": [what], "job_error": what}


def execute_job(idx, overrides, hydra_context, config, task_function, singleton_state):
    """The joblib launcher's ``execute_job`` in a worker, with every way a job can end made the
    job's: the job's result, or a completed job whose summary names the fault (written into the
    job's folder where that still fits, and returned)."""
    import hydra_plugins.hydra_joblib_launcher._core as core
    from hydra.core.utils import JobReturn, JobStatus

    original = getattr(core, "_bench_original", core.execute_job)  # patched where joblib runs jobs in-process

    tolerate_full_disk()
    # a log file on the full disk (Hydra's per-job log) must not print logging's own traceback for every
    # message; the job's summary names the error
    logging.raiseExceptions = False
    try:
        ret = original(idx, overrides, hydra_context, config, task_function, singleton_state)
        if ret.status == JobStatus.COMPLETED:
            return ret
        exc = ret._return_value
    except BaseException as caught:  # noqa: BLE001 (a worker's fault is this job's, whatever it is)
        exc = caught
    summary = fault_summary(overrides, exc)
    log.error("job %s (%s) failed: %s", idx, " ".join(overrides), summary["job_error"])
    try:
        job_dir = Path(str(config.hydra.sweep.dir)) / str(idx)
        job_dir.mkdir(parents=True, exist_ok=True)
        (job_dir / "bench_summary.json").write_text(json.dumps(summary, indent=1, default=str))
    except Exception as werr:  # noqa: BLE001 (the sweep's process gets the summary through the return value)
        log.error("could not write job %s's summary (%s)", idx, werr)
    ret = JobReturn(overrides=list(overrides), status=JobStatus.COMPLETED)
    ret.return_value = summary
    return ret


def _launch(original):
    def launch(launcher, job_overrides, initial_job_idx):
        runs = original(launcher, job_overrides, initial_job_idx)
        for i, run in enumerate(runs):
            value = getattr(run, "_return_value", None)
            if isinstance(value, dict) and "n_ok" in value:
                RETURNED[str(initial_job_idx + i)] = value
        return runs

    launch._bench = True
    return launch


def install() -> None:
    """Route the joblib launcher's jobs through :func:`execute_job` (this process only decides
    which function the workers run; they import it from this module)."""
    try:
        import hydra_plugins.hydra_joblib_launcher._core as core
    except ImportError:
        return
    if core.execute_job is not execute_job:
        core._bench_original = core.execute_job
        core.execute_job = execute_job
    if not getattr(core.launch, "_bench", False):
        core.launch = _launch(core.launch)
    tolerate_full_disk()


def stop_workers() -> None:
    """End every joblib worker process of this sweep now (after an interrupt)."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:
        return
    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        try:
            executor.shutdown(wait=True, kill_workers=True)
        except Exception:  # noqa: BLE001 (already gone)
            pass
