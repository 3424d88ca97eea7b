"""Hydra callbacks: the table printed when a sweep ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig


class SweepSummary(Callback):
    """After ``-m``: one table over every job of the sweep, plus any failures."""

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        """Print the sweep's table; exit with status 1 when a job failed (an error before its
        splits, no summary at all, or failed splits unless ``allow_failures=true``)."""
        from .summary import failure_line, sweep_table

        sweep_dir = Path(config.hydra.sweep.dir)
        summaries, missing = [], []
        job_dirs = sorted((p for p in sweep_dir.iterdir() if p.is_dir() and p.name.isdigit()),
                          key=lambda p: int(p.name)) if sweep_dir.is_dir() else []
        from .sweep import RETURNED

        for d in job_dirs:
            p = d / "bench_summary.json"
            try:
                summaries.append(json.loads(p.read_text()))
            except (OSError, ValueError):
                if d.name in RETURNED:  # the worker handed it back: its folder could not take it
                    summaries.append(RETURNED[d.name])
                else:
                    missing.append(d)
        seen = {d.name for d in job_dirs}
        summaries += [s for n, s in sorted(RETURNED.items(), key=lambda kv: int(kv[0])) if n not in seen]
        allowed = bool(config.get("allow_failures", False))
        if not summaries:
            print(f"\nsweep finished; no job summaries found under {sweep_dir} "
                  f"(see the job logs there)", flush=True)
            raise SystemExit(1)
        print(f"\n=== sweep summary: {len(summaries)} jobs (mean +- s.e. over splits) ===")
        print(sweep_table(summaries))
        failed = [s for s in summaries if s.get("n_failed")]
        if failed:
            print(f"\n{len(failed)} jobs had failed splits:")
            for s in failed:
                print(f"  {s.get('config') or s['algo']} on {s['dataset']}: {s['n_failed']} failed; first: "
                      f"{(s['errors'] or [''])[0]}")
        na = [s for s in summaries if s.get("n_not_applicable")]
        if na:
            print(f"\n{len(na)} jobs do not apply to their dataset (not failures; the papers' empty cells):")
            for s in na:
                print(f"  {s.get('config') or s['algo']} on {s['dataset']}: {str(s.get('not_applicable') or '')[:160]}")
        print(f"sweep outputs: {sweep_dir}; records under {config.results_dir}", flush=True)
        lines = [failure_line(s) for s in summaries]
        job_errors = [s for s in summaries if s.get("job_error")]
        split_failures = [s for s in summaries if s.get("n_failed") and not s.get("job_error")]
        unwritable = _unwritable(sweep_dir) if missing else None
        for d in missing:
            why = (f"the sweep folder cannot be written ({unwritable}), so the job could not leave its summary; "
                   f"its error is in the sweep's output above" if unwritable else "it crashed; see its log there")
            lines.append(f"FAILED: job {d.name} left no summary: {why} ({d})")
        lines = [ln for ln in lines if ln]
        if lines:
            print("\n".join(lines), flush=True)
        if missing or job_errors or (split_failures and not allowed):
            print(f"sweep FAILED: {len(job_errors) + len(missing)} jobs could not run, {len(split_failures)} "
                  f"jobs had failed splits" + (" (allowed)" if allowed else "")
                  + "; exit status 1", flush=True)
            raise SystemExit(1)


def _unwritable(folder: Path) -> str | None:
    """Why ``folder`` cannot take a small file now (a full disk, permissions), or None when it can."""
    import os
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".write-test.")
        try:
            os.write(fd, b"x" * 4096)
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(tmp)
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    return None
