"""``reports/perf/trend``: the headline speed figures (``bench.perf.history.headline``: the harness's
cost per split, the start-up and whole-run ratios, the learners against Petal) across the stored
``make bench-perf`` runs of one machine, oldest to newest, one column per run labelled with its
date and commit. Figures of other machines are not mixed in (speed moves with the machine): the
machine of the newest run is shown, the others are named."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from . import page as P
from .tables import write_table

#: the most runs the trend shows (the newest ones)
TREND_RUNS = 12


def trend_frame(runs: list[dict]) -> tuple[pd.DataFrame, str, list[str]]:
    """(table: one row per headline figure, one column per run of the newest run's machine; that
    machine; the other machines with stored runs). ``runs`` are stored perf runs, oldest first."""
    from ..perf.history import entry

    items = [entry(run, run.get("file", "")) for run in runs]
    items = [i for i in items if i["headline"]]
    if not items:
        return pd.DataFrame(), "", []
    here = items[-1]["machine"]
    others = sorted({i["machine"] for i in items} - {here})
    mine = [i for i in items if i["machine"] == here][-TREND_RUNS:]
    names = list(dict.fromkeys(n for i in mine for n in i["headline"]))
    columns = {}
    for i in mine:
        label = f"{i['file'].removeprefix('perf-').removesuffix('.json')} {str(i['commit'])[:8]}" + \
                (" quick" if i["quick"] else "")
        columns[label] = [f"{i['headline'][n]:.3g}" if n in i["headline"] else "" for n in names]
    df = pd.DataFrame({"figure": names, **columns})
    return df, here, others


def write_trend(runs: list[dict], out: Path) -> tuple[list[Path], list]:
    """Write ``trend.md|tex|csv`` under ``out`` and return the files and the page's bullet items
    (nothing when no run has a headline figure)."""
    df, here, others = trend_frame(runs)
    if df.empty:
        return [], []
    files = write_table(df, out / "trend", index=False, key_columns=1,
                        caption=f"Headline speed figures across the stored runs on {here}, oldest to newest: "
                                "peer/ours ratios (> 1: bench is faster) and the harness's own ms per split")
    elsewhere = f"; runs of {', '.join(others)} not mixed in" if others else ""
    return files, [P.Item((f"trend of the headline figures over {df.shape[1] - 1} runs on {here}{elsewhere}: ",
                           P.link("trend", "perf/trend.md")))]
