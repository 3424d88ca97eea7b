"""Hydra callbacks: the table printed when a sweep ends."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig


class SweepSummary(Callback):
    """After ``-m``: one table over every job of the sweep, plus any failures."""

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        from .summary import sweep_table

        sweep_dir = Path(config.hydra.sweep.dir)
        summaries = []
        for p in sorted(sweep_dir.glob("*/bench_summary.json")):
            try:
                summaries.append(json.loads(p.read_text()))
            except ValueError:
                continue
        if not summaries:
            print(f"\nsweep finished; no job summaries found under {sweep_dir} "
                  f"(see the job logs there)", flush=True)
            return
        print(f"\n=== sweep summary: {len(summaries)} jobs (mean +- s.e. over splits) ===")
        print(sweep_table(summaries))
        failed = [s for s in summaries if s.get("n_failed")]
        if failed:
            print(f"\n{len(failed)} jobs had failed splits:")
            for s in failed:
                print(f"  {s['algo']} on {s['dataset']}: {s['n_failed']} failed; first: {(s['errors'] or [''])[0]}")
        na = [s for s in summaries if s.get("n_not_applicable")]
        if na:
            print(f"\n{len(na)} jobs do not apply to their dataset (not failures; the papers' empty cells):")
            for s in na:
                print(f"  {s['algo']} on {s['dataset']}: {str(s.get('not_applicable') or '')[:160]}")
        print(f"sweep outputs: {sweep_dir}; records under {config.results_dir}", flush=True)
        # a sweep with a failed split exits non-zero, so schedulers, CI and `bench.experiments run`
        # see it (the failures and their tracebacks are in the records); `allow_failures=true` opts out
        from omegaconf import OmegaConf

        if failed and not OmegaConf.select(config, "allow_failures", default=False):
            print(f"sweep failed: {sum(s['n_failed'] for s in failed)} failed splits in {len(failed)} jobs "
                  f"(tracebacks stored in their records)", file=sys.stderr, flush=True)
            raise SystemExit(1)
