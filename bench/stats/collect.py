"""From stored records (``bench.store.load``) to the per-dataset numbers the tests compare.

* :func:`latest_runs` keeps, for every (experiment, dataset, algo, protocol), the records of the
  most recent algorithm config (an algo whose config changed has several hashes in the store);
* :func:`run_status` says per (dataset, algo) how many splits succeeded, failed and were expected;
* :func:`split_values` and :func:`dataset_means` give a measure per split or per dataset, over
  complete runs only, so every comparison is paired on identical folds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..measures import MEASURES as _REGISTRY

#: measure name -> record column (from the registry, :mod:`bench.measures`)
MEASURES = {m.name: m.column for m in _REGISTRY.values()}

SPLIT_KEYS = ["seed", "repeat", "fold"]


def base_algo(name: str) -> str:
    """The algorithm name without a variant label: ``ecocnb[code_length=15]`` -> ``ecocnb``."""
    return str(name).split("[", 1)[0]


def variant_params(name: str) -> dict[str, str]:
    """The parameters of a variant label: ``ecocnb[code_length=15]`` -> {"code_length": "15"}."""
    if "[" not in str(name):
        return {}
    inner = str(name).split("[", 1)[1].rstrip("]")
    return dict(p.split("=", 1) for p in inner.split(",") if "=" in p)


def latest_runs(df: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, dataset, algo, protocol), only the records of the newest ``algo_hash``
    (the one with the latest ``finished_at``)."""
    if df.empty or "algo_hash" not in df.columns:
        return df
    keys = [k for k in ("experiment", "dataset", "algo", "protocol") if k in df.columns]
    stamp = df["finished_at"].fillna("") if "finished_at" in df.columns else pd.Series("", index=df.index)
    newest = (df.assign(_stamp=stamp).groupby(keys + ["algo_hash"], sort=False)["_stamp"].max()
              .reset_index().sort_values("_stamp").groupby(keys, sort=False).tail(1))
    keep = df.merge(newest[keys + ["algo_hash"]], on=keys + ["algo_hash"], how="inner")
    return keep.reset_index(drop=True)


def expected_splits(protocol_config: dict, n_seeds: int = 1) -> int:
    from ..protocols import n_splits

    return n_splits(protocol_config) * int(n_seeds)


def run_status(df: pd.DataFrame, seeds: list[int] | None = None) -> pd.DataFrame:
    """One row per (dataset, algo, protocol): ``n_ok``, ``n_failed``, ``n_expected``, ``complete``,
    ``error`` (the first failure message), ``n_instances``."""
    cols = ["dataset", "algo", "protocol", "n_ok", "n_failed", "n_expected", "complete", "error", "n_instances"]
    if df.empty:
        return pd.DataFrame(columns=cols)
    rows = []
    for (ds, algo, prot), g in df.groupby(["dataset", "algo", "protocol"], sort=True):
        n_seeds = len(seeds) if seeds else g["seed"].nunique()
        # one record per split: the stored record of a split that was retried is its latest
        last = g.drop_duplicates(SPLIT_KEYS, keep="last")
        ok = last["status"] == "ok"
        pcfg = last["protocol_config"].iloc[0] if "protocol_config" in last else None
        try:
            n_exp = expected_splits(pcfg, n_seeds) if isinstance(pcfg, dict) else int(len(last))
        except Exception:
            n_exp = int(len(last))
        err = last.loc[~ok, "error"].astype(str).iloc[0] if (~ok).any() and "error" in last else ""
        if (~ok).any() and (last.loc[~ok, "status"] == "not_applicable").all():
            err = f"not applicable: {err}"
        rows.append({"dataset": ds, "algo": algo, "protocol": prot, "n_ok": int(ok.sum()),
                     "n_failed": int((~ok).sum()), "n_expected": n_exp,
                     "complete": bool(ok.sum() >= n_exp and n_exp > 0), "error": err,
                     "n_instances": int(last["n_instances"].iloc[0]) if "n_instances" in last else np.nan})
    return pd.DataFrame(rows, columns=cols)


def _complete_ok(df: pd.DataFrame, seeds=None) -> pd.DataFrame:
    status = run_status(df, seeds)
    good = status[status["complete"]][["dataset", "algo", "protocol"]]
    ok = df[df["status"] == "ok"]
    return ok.merge(good, on=["dataset", "algo", "protocol"], how="inner")


def measure_column(measure: str) -> str:
    if measure not in MEASURES:
        raise KeyError(f"unknown measure {measure!r}; known: {', '.join(MEASURES)}")
    return MEASURES[measure]


def split_values(df: pd.DataFrame, measure: str, complete_only: bool = True, seeds=None) -> pd.DataFrame:
    """The measure per split: index (dataset, seed, repeat, fold), one column per algo."""
    col = measure_column(measure)
    ok = _complete_ok(df, seeds) if complete_only else df[df["status"] == "ok"]
    if ok.empty or col not in ok.columns:
        return pd.DataFrame()
    ok = ok.drop_duplicates(["dataset", "algo"] + SPLIT_KEYS, keep="last")
    return ok.pivot_table(index=["dataset"] + SPLIT_KEYS, columns="algo", values=col, aggfunc="first").astype(float)


def dataset_means(df: pd.DataFrame, measure: str, complete_only: bool = True, seeds=None) -> pd.DataFrame:
    """The measure averaged over the splits of each (dataset, algo): datasets x algos."""
    sv = split_values(df, measure, complete_only, seeds)
    if sv.empty:
        return pd.DataFrame()
    return sv.groupby(level="dataset").mean()
