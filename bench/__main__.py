"""``python -m bench algo=X data=Y protocol=Z seed=S`` (Hydra app; ``-m`` sweeps)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

log = logging.getLogger("bench")


@hydra.main(version_base="1.3", config_path="../conf", config_name="config")
def main(cfg: DictConfig) -> dict:
    from .data import DataError
    from .runner import run_job
    from .summary import job_summary_dict, job_table
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
                         warmup=bool(cfg.get("warmup", True)))
    except DataError as exc:
        if not _in_sweep():
            print(f"error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        # in a sweep one unavailable dataset must not stop the other jobs
        log.error("%s", exc)
        summary = {"dataset": OmegaConf.select(cfg, "data.name"), "algo": algo.get("name"),
                   "protocol": protocol.get("name"), "seed": int(cfg.seed), "n_ok": 0, "n_failed": 1,
                   "errors": [f"DataError: {exc}"]}
        _write_job_summary(summary)
        return summary
    print(job_table(result), flush=True)
    summary = job_summary_dict(result)
    _write_job_summary(summary)
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


if __name__ == "__main__":
    main()
