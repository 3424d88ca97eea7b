"""Build reports/: a summary per stored experiment and reports/index.md.

Paper-specific tables (published numbers beside ours) register themselves in
:data:`PAPER_REPORTS`; every experiment also gets the generic summary (mean and
standard error over splits per dataset and algorithm).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..provenance import provenance
from ..store import load
from .tables import write_table

#: experiment name -> function(records DataFrame, plan dict, out_dir Path) -> list of written paths
PAPER_REPORTS: dict[str, Callable] = {}


def discover_paper_reports() -> dict[str, Callable]:
    """Import every paper-report module (``bench/report/<name>.py`` other than the core ones)
    so that it registers its tables in :data:`PAPER_REPORTS`."""
    import importlib
    import pkgutil

    import bench.report as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name not in ("build", "tables", "__main__") and not info.name.startswith("_"):
            importlib.import_module(f"bench.report.{info.name}")
    return PAPER_REPORTS


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard error over splits per (dataset, algo, protocol)."""
    ok = df[df["status"] == "ok"]
    rows = []
    for (ds, algo, prot), g in ok.groupby(["dataset", "algo", "protocol"], sort=True):
        row = {"dataset": ds, "algo": algo, "protocol": prot, "splits": len(g)}
        for col, label in (("metrics.error", "error"), ("metrics.rmse", "rmse"),
                           ("metrics.log_loss", "log_loss"), ("times.train_cpu_s", "train_s"),
                           ("times.test_cpu_s", "test_s")):
            v = g[col].astype(float).to_numpy()
            row[label] = v.mean()
            row[f"{label}_se"] = v.std(ddof=1) / np.sqrt(v.size) if v.size > 1 else 0.0
        row["model_mb"] = g["model_bytes"].astype(float).mean() / 2**20
        rows.append(row)
    return pd.DataFrame(rows)


def _pm(m, se, digits=4):
    return f"{m:.{digits}f} ± {se:.{digits}f}"


def generic_report(name: str, df: pd.DataFrame, plan: dict, out: Path) -> list[Path]:
    s = summarise(df)
    if s.empty:
        return []
    written = []
    s.to_csv(out / "summary_long.csv", index=False)
    written.append(out / "summary_long.csv")
    for metric in ("error", "rmse"):
        piv = s.pivot_table(index="dataset", columns="algo", values=metric, aggfunc="first")
        se = s.pivot_table(index="dataset", columns="algo", values=f"{metric}_se", aggfunc="first")
        cells = piv.copy().astype(object)
        for c in piv.columns:
            cells[c] = [_pm(m, e) if pd.notna(m) else "" for m, e in zip(piv[c], se[c])]
        written += write_table(cells, out / f"summary_{metric}",
                               caption=f"{name}: {metric} (mean ± standard error over splits)")
    t = s.pivot_table(index="dataset", columns="algo", values="train_s", aggfunc="first").round(4)
    written += write_table(t, out / "summary_train_time", caption=f"{name}: training CPU seconds per split (mean)")
    return written


def build_reports(results_dir: str | None = None, out_dir: str = "reports",
                  experiments: list[str] | None = None) -> list[Path]:
    discover_paper_reports()
    root = Path(results_dir or os.environ.get("BENCH_RESULTS_DIR", "results"))
    out_root = Path(out_dir)
    out_root.mkdir(parents=True, exist_ok=True)
    names = experiments or sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")) \
        if root.exists() else []
    written: list[Path] = []
    index = ["# bench reports", "",
             f"Generated {time.strftime('%Y-%m-%d %H:%M:%S')} on {provenance()['host']} "
             f"({provenance()['cpu']}, {provenance()['n_cpus']} CPUs), bench {provenance()['bench_version']} "
             f"at commit {provenance()['git_commit']}.", ""]
    for name in names:
        df = load(root, experiment=name)
        plan_path = root / name / "_plan.json"
        plan = json.loads(plan_path.read_text()) if plan_path.exists() else {}
        out = out_root / name
        out.mkdir(parents=True, exist_ok=True)
        files = generic_report(name, df, plan, out) if not df.empty else []
        if name in PAPER_REPORTS and not df.empty:
            files += PAPER_REPORTS[name](df, plan, out)
        written += files
        n_ok = int((df["status"] == "ok").sum()) if not df.empty else 0
        n_failed = int((df["status"] != "ok").sum()) if not df.empty else 0
        index += [f"## {name}", "",
                  f"- scale: {plan.get('scale', 'ad hoc')}; protocol {plan.get('protocol', '-')}; "
                  f"{n_ok} stored records ({n_failed} failed)",
                  f"- files: " + ", ".join(f"[{f.name}]({f.relative_to(out_root)})" for f in files
                                           if f.suffix == ".md") or "- files: none"]
        skipped = plan.get("missing_algos") or {}
        if skipped:
            index.append(f"- algorithms not run (no config here): " + ", ".join(sorted(skipped)))
        missing = plan.get("missing_datasets") or {}
        if missing:
            index.append(f"- missing datasets: " + "; ".join(f"{k} ({v})" for k, v in missing.items()))
        if n_failed:
            bad = df[df["status"] != "ok"]
            for (a, d), g in bad.groupby(["algo", "dataset"]):
                index.append(f"- failed: {a} on {d}, {len(g)} splits: {str(g['error'].iloc[0])[:160]}")
        index.append("")
    (out_root / "index.md").write_text("\n".join(index) + "\n")
    written.append(out_root / "index.md")
    return written
