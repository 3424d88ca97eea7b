"""Console tables: the per-job summary and the summary of a sweep."""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .measures import MEASURES
from .stats.spread import mean_se

#: the rows of a job's console summary: (row name, record group, field, format), from the registry
JOB_ROWS = [(m.console, m.group, m.key, m.fmt) for m in MEASURES.values() if m.console]
_DIVISOR = {(m.group, m.key): m.divisor for m in MEASURES.values()}


def _value(rec: dict, group: str | None, key: str):
    v = rec.get(key) if group is None else (rec.get(group) or {}).get(key)
    d = _DIVISOR.get((group, key), 1.0)
    return v / d if (v is not None and d != 1.0) else v


def format_table(header: Sequence[str], rows: Iterable[Sequence], align: str | None = None) -> str:
    rows = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    align = align or "<" + ">" * (len(header) - 1)
    fmt = "  ".join(f"{{:{a}{w}}}" for a, w in zip(align, widths))
    lines = [fmt.format(*header), "  ".join("-" * w for w in widths)]
    lines += [fmt.format(*r) for r in rows]
    return "\n".join(lines)


def job_table(result) -> str:
    ok = [r for r in result.records if r.get("status") == "ok"]
    k = result.key
    pc = next((r.get("protocol_config") for r in result.records if isinstance(r.get("protocol_config"), dict)), {})
    setting = ", ".join(f"{n}={pc[n]}" for n in ("n_splits", "n_repeats", "test_size", "train_sizes") if n in pc)
    head = (f"{getattr(result, 'display', k.algo)} on {k.dataset} | protocol {k.protocol}" + (f" ({setting})" if setting else "")
            + f" | seed {k.seed} | {result.n_splits} splits: "
            f"{result.computed} computed, {result.reused} reused, {len(result.failed)} failed"
            + _timed_out(sum(r.get("status") == "timeout" for r in result.failed))
            + (f", {len(result.not_applicable)} not applicable" if result.not_applicable else ""))
    rows = []
    for label, group, key, fmt in JOB_ROWS:
        vals = [_value(r, group, key) for r in ok]
        vals = [v for v in vals if v is not None]
        if not vals:
            continue
        m, se = mean_se(vals)
        rows.append([label, fmt.format(m), fmt.format(se)])
    out = [head, format_table(["", "mean", "+- s.e."], rows)]
    if result.failed:
        out.append("failed splits:")
        for r in result.failed[:10]:
            out.append(f"  repeat {r['repeat']} fold {r['fold']}: {r.get('error', '')[:200]}")
    if result.not_applicable:
        out.append(f"not applicable to this dataset (not a failure): {result.not_applicable[0].get('error', '')[:200]}")
    out.append(f"records: {result.directory}")
    return "\n".join(out)


def job_line(result) -> str:
    """One line for a job of a sweep: its name, the splits computed, reused and failed, the mean
    error (the sweep's table at its end has the rest)."""
    ok = [r for r in result.records if r.get("status") == "ok"]
    errs = [v for v in ((r.get("metrics") or {}).get("error") for r in ok) if v is not None]
    err = ""
    if errs:
        m, se = mean_se(errs)
        err = f", error {m:.4f} +- {se:.4f}"
    n_timeout = sum(r.get("status") == "timeout" for r in result.failed)
    return (f"{getattr(result, 'display', result.key.algo)} on {result.key.dataset} (seed {result.key.seed}): "
            f"{result.n_splits} splits, {result.computed} computed, {result.reused} reused, "
            f"{len(result.failed)} failed{_timed_out(n_timeout)}"
            + (f", {len(result.not_applicable)} not applicable" if result.not_applicable else "") + err)


def sweep_table(summaries: list[dict]) -> str:
    """One line per job of a sweep (dataset, algorithm): error, RMSE, times, failures."""
    rows = []
    for s in sorted(summaries, key=lambda s: (s["dataset"], s.get("config") or s["algo"])):
        rows.append([
            s["dataset"], s.get("config") or s["algo"], s["protocol"], s["n_ok"],
            _pm(s.get("error")), _pm(s.get("rmse")),
            _fmt(s.get("train_cpu_s"), "{:.3f}"), _fmt(s.get("test_cpu_s"), "{:.3f}"),
            s["n_failed"] or "", s.get("n_not_applicable") or "",
        ])
    return format_table(["dataset", "algorithm", "protocol", "splits", "error", "RMSE",
                         "train s", "test s", "failed", "n/a"], rows, align="<<<>>>>>>>")


def job_summary_dict(result) -> dict:
    ok = [r for r in result.records if r.get("status") == "ok"]
    out = {"dataset": result.key.dataset, "algo": result.key.algo,
           "config": getattr(result, "display", result.key.algo), "protocol": result.key.protocol,
           "seed": result.key.seed, "directory": result.directory, "n_ok": len(ok),
           "n_failed": len(result.failed), "errors": [r.get("error") for r in result.failed][:5],
           "n_timeout": sum(r.get("status") == "timeout" for r in result.failed),
           "n_not_applicable": len(result.not_applicable), "n_splits": result.n_splits,
           "failed_records": [r.get("path") for r in result.failed][:5],
           "not_applicable": (result.not_applicable[0].get("error") if result.not_applicable else None)}
    for label, group, key, _ in JOB_ROWS:
        vals = [v for v in (_value(r, group, key) for r in ok) if v is not None]
        out[key] = list(mean_se(vals)) if vals else None
    return out


def failure_line(s: dict) -> str | None:
    """The closing line of a job that did not fully succeed: what failed and where the
    traceback is stored (the ``traceback`` field of the failed split's record); None when
    every split is ok or not applicable."""
    if s.get("job_error"):
        return f"FAILED: {s.get('config') or s.get('algo')} on {s.get('dataset')}: {s['job_error']}"
    if not s.get("n_failed"):
        return None
    first = (s.get("errors") or [""])[0] or ""
    where = (s.get("failed_records") or [None])[0]
    n = s.get("n_splits") or (s.get("n_ok", 0) + s["n_failed"] + (s.get("n_not_applicable") or 0))
    errors = s.get("errors") or []
    hint = ""
    if s["n_failed"] == n and errors and len(set(errors)) == 1:
        if "memory limit of" in errors[0] or "time limit of" in errors[0]:
            hint = "\n  every split failed with the same error: the limit it names is too tight for this job"
        else:
            hint = ("\n  every split failed with the same error: most likely a setting, not the data; check the "
                    "algo.* overrides named in it")
    return (f"FAILED: {s['n_failed']} of {n} splits of {s.get('config') or s.get('algo')} on {s.get('dataset')} failed"
            f"{_timed_out(s.get('n_timeout'))}; first: "
            f"{first[:240]}" + (f"\n  traceback: field `traceback` of {where}" if where and not
                                  first.startswith("TimeoutError: the split ran longer") else "") + hint)


def _timed_out(n) -> str:
    return f" ({n} timed out)" if n else ""


def _pm(v) -> str:
    if not v or v[0] is None or not np.isfinite(v[0]):
        return "-"
    return f"{v[0]:.4f} +- {v[1]:.4f}"


def _fmt(v, fmt) -> str:
    if not v or v[0] is None or not np.isfinite(v[0]):
        return "-"
    return fmt.format(v[0])
