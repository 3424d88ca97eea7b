"""Time ratios decided beyond timing noise: the one rule every time-ratio verdict uses.

A time ratio that decides a verdict is never one ratio of two means. It is built from the per-split CPU
times the records hold, on the same folds:

* per unit (a data set; or a split, for a claim about one data set) the ratio of the two learners'
  CPU seconds summed over the splits both ran (:func:`unit_ratios`);
* summarised by the median and the geometric mean of the per-unit ratios, each with a percentile
  bootstrap interval over the units (:data:`RESAMPLES` resamples, level :data:`LEVEL`, seed
  :data:`SEED`: the same evidence gives the same interval, :func:`interval`);
* decided on the geometric mean's interval (:func:`decide`): the claim's band holds when the whole
  interval lies inside it, fails when the whole interval lies outside it, and is otherwise
  "not checkable: within timing noise", with the interval. The geometric mean weighs every data set
  once and is symmetric in the ratio's direction (x2 and x0.5 cancel); a ratio of mean times is carried
  by the few largest data sets, and is shown beside, never decided on.

How the times were taken is stated on every such verdict (:func:`how_timed`): CPU time per split, each
learner in its own job over the same folds, not interleaved: what the records are. Two learners whose
code is not one code base with the same engineering measure the engineering as much as the algorithm;
such a ratio is decided only where no engineering factor up to :data:`ENGINEERING_FACTOR` either way
could change the conclusion, else "not checkable: different implementations" (:data:`DIFFERENT_IMPL`),
with the measured ratio shown and the difference named (:func:`different`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import BOOT_LEVEL, BOOT_RESAMPLES, BOOT_SEED, ENGINEERING_FACTOR
from ._common import DIFFERENT_IMPL, TIMING_NOISE, Check

#: bootstrap resamples over the units (data sets or splits), the interval's level, the seed of numpy's default
#: generator (stated once, in the rules: bench.report.verdicts)
RESAMPLES, LEVEL, SEED = BOOT_RESAMPLES, BOOT_LEVEL, BOOT_SEED
SPLIT_KEYS = ["seed", "repeat", "fold"]
#: the columns of a split-times fact table (:func:`split_times`)
SPLIT_TIME_COLUMNS = ["dataset", "seed", "repeat", "fold", "algorithm", "seconds"]


def how_timed(column: str = "times.train_cpu_s") -> str:
    """What the records' times are, as every time verdict states it."""
    return (f"timed as CPU time per split ({column}), each learner in its own job over the same folds, "
            "not interleaved")


def rule_text(unit: str = "datasets", stat: str = "gmean") -> str:
    """The rule, as a verdict's test column and the rules table state it."""
    over = "data sets" if unit == "datasets" else "splits"
    which = "geometric mean" if stat == "gmean" else "median"
    return (f"per-{'data-set' if unit == 'datasets' else 'split'} time ratios on the same folds; decided when the "
            f"{LEVEL:.0%} bootstrap interval of their {which} ({RESAMPLES} resamples over the {over}, seed {SEED}) "
            f"lies wholly inside the band or wholly outside it, else not checkable: {TIMING_NOISE}")


# ------------------------------------------------------------------ the per-split times (recorded as facts)
def split_times(splits: pd.DataFrame, algos: dict[str, str]) -> pd.DataFrame:
    """The per-split seconds of ``algos`` (label -> column of ``splits``) as a long table of plain values,
    :data:`SPLIT_TIME_COLUMNS`; ``splits`` is indexed (dataset, seed, repeat, fold) with one column per
    config (:func:`bench.stats.collect.split_values`). Splits without a value are left out."""
    rows = []
    if splits is not None and not splits.empty:
        for label, col in algos.items():
            if col not in splits.columns:
                continue
            s = splits[col].dropna()
            for (ds, seed, rep, fold), v in s.items():
                rows.append([ds, int(seed), int(rep), int(fold), label, float(v)])
    df = pd.DataFrame(rows, columns=SPLIT_TIME_COLUMNS, dtype=object)
    return df.sort_values(["algorithm", "dataset", "seed", "repeat", "fold"], kind="stable").reset_index(drop=True) \
        if rows else df


def unit_ratios(times: pd.DataFrame, num: str, den: str, unit: str = "datasets") -> pd.Series:
    """Per data set (``unit="datasets"``), or per split (``"splits"``), the ratio of ``num``'s seconds to
    ``den``'s, summed over the splits both have (the same folds); units where ``den`` sums to zero or
    either misses every split are left out. ``times`` is a :func:`split_times` table."""
    keys = ["dataset", *SPLIT_KEYS]
    t = times[times["algorithm"].isin([num, den])]
    if t.empty:
        return pd.Series(dtype=float)
    p = t.pivot_table(index=keys, columns="algorithm", values="seconds", aggfunc="first")
    if num not in p.columns or den not in p.columns:
        return pd.Series(dtype=float)
    p = p[[num, den]].astype(float).dropna()
    if unit == "datasets":
        p = p.groupby(level="dataset").sum()
    r = p[num] / p[den].where(p[den] > 0)
    return r[np.isfinite(r) & (r > 0)]


# ------------------------------------------------------------------ the interval and the decision
@dataclass(frozen=True)
class Interval:
    """The per-unit ratios' median and geometric mean, each with its bootstrap interval."""

    n: int
    unit: str
    median: float
    median_lo: float
    median_hi: float
    gmean: float
    gmean_lo: float
    gmean_hi: float

    def text(self) -> str:
        return (f"geometric mean {self.gmean:.2f}x [{self.gmean_lo:.2f}, {self.gmean_hi:.2f}], median "
                f"{self.median:.2f}x [{self.median_lo:.2f}, {self.median_hi:.2f}] over {self.n} {self.unit} "
                f"({LEVEL:.0%} bootstrap intervals)")


def interval(ratios, unit: str = "datasets", resamples: int = RESAMPLES, level: float = LEVEL,
             seed: int = SEED) -> Interval | None:
    """Median and geometric mean of the positive finite ``ratios`` with percentile bootstrap intervals
    over them (resampled with replacement, ``resamples`` times, numpy's generator seeded ``seed``);
    None without any ratio."""
    r = np.asarray(pd.Series(ratios, dtype=float), dtype=float)
    r = r[np.isfinite(r) & (r > 0)]
    n = len(r)
    if n == 0:
        return None
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    logs = np.log(r)
    gm = np.exp(logs[idx].mean(axis=1))
    med = np.median(r[idx], axis=1)
    q = [100 * (1 - level) / 2, 100 * (1 + level) / 2]
    glo, ghi = np.percentile(gm, q)
    mlo, mhi = np.percentile(med, q)
    return Interval(n, unit, float(np.median(r)), float(mlo), float(mhi), float(np.exp(logs.mean())), float(glo),
                    float(ghi))


def slope_interval(x, splits, resamples: int = RESAMPLES, level: float = LEVEL,
                   seed: int = SEED) -> tuple[float, float] | None:
    """The percentile bootstrap interval of a timed curve's log-log slope: ``splits`` holds one row per
    split and one column per point ``x`` (the same splits at every point); each resample draws the splits
    with replacement (numpy's generator seeded ``seed``), sums them per point and takes the least-squares
    slope of log(sum) on log x. None with fewer than two splits or two points."""
    y = np.asarray(splits, dtype=float)
    lx = np.log(np.asarray(x, dtype=float))
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2 or y.shape[1] != len(lx) or not np.all(y > 0):
        return None
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, y.shape[0], size=(resamples, y.shape[0]))
    ly = np.log(y[idx].sum(axis=1))                      # (resamples, points)
    cx = lx - lx.mean()
    slopes = (ly - ly.mean(axis=1, keepdims=True)) @ cx / (cx @ cx)
    lo, hi = np.percentile(slopes, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    return float(lo), float(hi)


def decide(iv: Interval, lo: float | None = None, hi: float | None = None, stat: str = "gmean") -> bool | None:
    """Whether the claim's band [lo, hi] (either end open when None) holds on the interval of ``stat``
    (the geometric mean; "median" for a claim about the typical data set): True when the interval lies
    inside it, False when it lies wholly outside (above ``hi`` or below ``lo``), None when it straddles an
    end (within timing noise)."""
    a, b = (iv.gmean_lo, iv.gmean_hi) if stat == "gmean" else (iv.median_lo, iv.median_hi)
    inside = (lo is None or a >= lo) and (hi is None or b <= hi)
    outside = (lo is not None and b < lo) or (hi is not None and a > hi)
    return True if inside else (False if outside else None)


def _band(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"[{lo:.2f}, {hi:.2f}]"
    return f">= {lo:.2f}" if lo is not None else f"<= {hi:.2f}"


def check(iv: Interval | None, label: str, lo: float | None = None, hi: float | None = None,
          no_value: str = "", stat: str = "gmean") -> Check:
    """One time-ratio comparison of a claim, decided by :func:`decide` on ``iv``: its text names the
    interval and the band; straddling the band is not checkable: within timing noise."""
    if iv is None:
        from ._common import NOT_AT_SCALE

        return Check(None, f"{NOT_AT_SCALE}: {label}: {no_value or 'no per-split times'}")
    ok = decide(iv, lo, hi, stat)
    which = "geometric mean" if stat == "gmean" else "median"
    text = f"{label}: {iv.text()}; band {_band(lo, hi)} (decided on the {which})"
    if ok is None:
        return Check(None, f"{TIMING_NOISE}: {text}: the {which}'s interval straddles the band")
    return Check(ok, text + ("" if ok else " (the whole interval outside it)"))


def different(label: str, difference: str, iv: Interval | float | None, lo: float | None = None,
              hi: float | None = None, factor: float = ENGINEERING_FACTOR) -> Check:
    """A ratio of two learners that are not one code base (``difference`` names how): decided only where no
    engineering factor up to ``factor`` either way could change the conclusion, i.e. it holds when the
    (interval of the) ratio lies inside [lo x factor, hi / factor] and fails when it lies wholly outside
    [lo / factor, hi x factor]; otherwise not checkable: different implementations, the measured ratio shown."""
    if iv is None:
        return Check(None, f"{DIFFERENT_IMPL}: {label}: {difference}")
    a, b = (iv.gmean_lo, iv.gmean_hi) if isinstance(iv, Interval) else (float(iv), float(iv))
    shown = iv.text() if isinstance(iv, Interval) else f"{float(iv):.2f}x"
    if lo is not None or hi is not None:
        holds = (lo is None or a >= lo * factor) and (hi is None or b <= hi / factor)
        fails = (lo is not None and b < lo / factor) or (hi is not None and a > hi * factor)
        if holds or fails:
            return Check(holds, f"{label}: {shown}; band {_band(lo, hi)}, decided across implementations ({difference}): "
                                f"beyond any engineering factor up to x{factor:g}")
    return Check(None, f"{DIFFERENT_IMPL}: {label}: {difference}; measured {shown}, within an engineering factor of "
                       f"x{factor:g} of the band {_band(lo, hi)}")


__all__ = ["ENGINEERING_FACTOR", "RESAMPLES", "LEVEL", "SEED", "Interval", "interval", "slope_interval", "decide", "check", "different", "unit_ratios",
           "split_times", "how_timed", "rule_text", "SPLIT_TIME_COLUMNS"]
