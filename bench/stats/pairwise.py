"""Pairwise comparison of two learners over many datasets: win/draw/loss counts and their tests.

The papers count, for a pair (row algorithm A, column algorithm B), the datasets on which
A is better (win), equal (draw) or worse (loss), and test the record:

* ``raw`` - the counts by the raw difference of the mean measure, no test;
* ``sign2`` - two-tailed binomial sign test, draws left out, wins and losses equiprobable,
  significant when p < alpha (Zaidi and Webb 2013: "less than 0.05");
* ``sign1`` - one-tailed binomial sign test in the direction of the majority, significant when
  p <= alpha (Zhang, Petitjean and Buntine 2020: "p <= 0.05");
* ``two_se`` - Aryal and Ting 2013's two-standard-error test: a win or loss is counted on a dataset only
  when the difference of the means exceeds two standard errors, otherwise a draw (see
  :func:`two_se_outcome` for the standard error used).

Datasets are split by size as Zaidi and Webb 2013 do (:func:`size_category`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from ..measures import MEASURES as _REGISTRY
from .spread import pooled_standard_error, standard_error

TESTS = ("raw", "sign1", "sign2", "two_se")

#: measures where a lower value is better (everything else: higher is better): the registry's
#: (:mod:`bench.measures`, by name and by label) and the papers' names for their measures
LOWER_IS_BETTER = {**{m.name: m.lower_is_better for m in _REGISTRY.values()},
                   **{m.label: m.lower_is_better for m in _REGISTRY.values()},
                   "0-1 loss": True, "RMSE": True, "bias": True, "variance": True, "training time": True,
                   "error rate": True, "accuracy": False, "auc": False}

#: relative tolerance under which two means count as equal (a draw): float noise only
DRAW_RTOL = 1e-12

#: Zaidi and Webb 2013's dataset collections and how they are labelled in reports
SIZE_SUBSETS = ("all", "large", "medium", "small")
SIZE_LABELS = {"all": "all", "large": "> 10000 instances", "medium": "1000-10000 instances",
               "small": "<= 1000 instances"}


# ---------------------------------------------------------------- sign test
def sign_test(wins: int, losses: int, alternative: str = "two-sided") -> float:
    """p-value of the binomial sign test on ``wins`` against ``losses`` (draws excluded):
    :func:`scipy.stats.binomtest` with success probability 1/2.

    ``alternative``: ``two-sided`` (the outcomes no more likely than the observed one; for
    p = 1/2 that is 2 x the smaller tail, at most 1), ``greater`` (P(X >= wins)), or ``less``
    (P(X <= wins)). With no wins and no losses the p-value is 1. (``tests/test_stats_pairwise.py``
    checks it against the exact tail sums in rational arithmetic.)
    """
    wins, losses = int(wins), int(losses)
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError(f"alternative must be two-sided, greater or less, got {alternative!r}")
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses must be >= 0, got {wins} and {losses}")
    n = wins + losses
    if n == 0:
        return 1.0
    return float(binomtest(wins, n, 0.5, alternative=alternative).pvalue)


# ---------------------------------------------------------------- outcomes per dataset
def outcomes(a, b, lower_is_better: bool = True, rtol: float = DRAW_RTOL) -> np.ndarray:
    """Per dataset: +1 when ``a`` is better than ``b``, -1 when worse, 0 when equal (NaN pairs give NaN)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    diff = (b - a) if lower_is_better else (a - b)
    out = np.sign(diff)
    equal = np.abs(a - b) <= rtol * np.maximum(np.abs(a), np.abs(b))
    out[equal] = 0.0
    out[np.isnan(a) | np.isnan(b)] = np.nan
    return out


def two_se_outcome(a_splits, b_splits, lower_is_better: bool = True, se: str = "paired",
                   k: float = 2.0) -> int:
    """Aryal and Ting 2013's two-standard-error test on one dataset: +1 / -1 when the difference of the means
    exceeds ``k`` standard errors, else 0 (a draw).

    The paper does not say which standard error. ``se="paired"`` (default) uses the standard error
    of the per-split differences, sd(a_i - b_i) / sqrt(n), since all learners see the same folds;
    ``se="pooled"`` uses sqrt(se_a^2 + se_b^2) from each learner's own split values.
    """
    a = np.asarray(a_splits, dtype=np.float64)
    b = np.asarray(b_splits, dtype=np.float64)
    if a.shape != b.shape or a.size < 2:
        raise ValueError(f"two-SE test needs paired split values (>= 2 each), got {a.shape} and {b.shape}")
    if se == "paired":
        d = a - b
        s = standard_error(d)
        diff = d.mean()
    elif se == "pooled":
        s = pooled_standard_error(a, b)
        diff = a.mean() - b.mean()
    else:
        raise ValueError(f"se must be 'paired' or 'pooled', got {se!r}")
    if not abs(diff) > k * s:
        return 0
    better = diff < 0 if lower_is_better else diff > 0
    return 1 if better else -1


# ---------------------------------------------------------------- a WDL record
@dataclass(frozen=True)
class WDL:
    """A win/draw/loss record of a row algorithm against a column algorithm."""

    wins: int
    draws: int
    losses: int
    test: str = "raw"
    p: float = float("nan")          #: p-value of the test (NaN for raw / two_se)
    significant: bool = False        #: the test rejects "wins and losses are equiprobable"
    alpha: float = 0.05

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_share(self) -> float:
        """wins / (wins + losses), NaN without decided datasets."""
        d = self.wins + self.losses
        return self.wins / d if d else float("nan")

    def __str__(self) -> str:
        return f"{self.wins}/{self.draws}/{self.losses}"

    def markdown(self) -> str:
        """``w/d/l`` in bold when significant (the papers' convention)."""
        return f"**{self}**" if self.significant else str(self)


def significance(wins: int, losses: int, test: str, alpha: float = 0.05) -> tuple[float, bool]:
    """(p, significant) of a win/loss record under ``test``: ``sign2`` two-tailed sign test, p < alpha;
    ``sign1`` one-tailed in the direction of the record, p <= alpha (a tie is never significant); any other
    test (``raw``, ``two_se``: the counts are already decided per dataset) ``(nan, False)``."""
    if test == "sign2":
        p = sign_test(wins, losses, "two-sided")
        return p, p < alpha
    if test == "sign1":
        p = sign_test(wins, losses, "greater" if wins >= losses else "less")
        return p, wins != losses and p <= alpha
    return float("nan"), False


def wdl_from_outcomes(outs, test: str = "sign2", alpha: float = 0.05) -> WDL:
    """Count +1/0/-1 outcomes (NaN ignored) and apply ``test`` to the record."""
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}")
    o = np.asarray(outs, dtype=np.float64)
    o = o[~np.isnan(o)]
    w, d, l_ = int(np.sum(o > 0)), int(np.sum(o == 0)), int(np.sum(o < 0))
    return WDL(w, d, l_, test, *significance(w, l_, test, alpha), alpha)


def wdl(a, b, lower_is_better: bool = True, test: str = "sign2", alpha: float = 0.05) -> WDL:
    """WDL of ``a`` against ``b`` from their per-dataset means (aligned arrays; NaN pairs skipped)."""
    if test == "two_se":
        raise ValueError("the two-SE test needs split values: use wdl_two_se")
    return wdl_from_outcomes(outcomes(a, b, lower_is_better), test, alpha)


def wdl_two_se(a_splits: list, b_splits: list, lower_is_better: bool = True, se: str = "paired") -> WDL:
    """WDL by the two-standard-error test: one list entry (an array of split values) per dataset."""
    outs = [two_se_outcome(a, b, lower_is_better, se) for a, b in zip(a_splits, b_splits)]
    return wdl_from_outcomes(outs, "two_se")


def wdl_matrix(values: pd.DataFrame, algos: list[str], lower_is_better: bool = True, test: str = "sign2",
               alpha: float = 0.05, layout: str = "lower") -> pd.DataFrame:
    """WDL matrix of ``values`` (datasets x algorithms, per-dataset means).

    ``layout="lower"`` gives the papers' triangle: row ``algos[i]`` against column ``algos[j]``
    for every j < i (Zaidi and Webb 2013, Tables 2-5); ``"full"`` fills every off-diagonal cell. Cells are
    :class:`WDL` objects (None where not compared); only datasets where both have a value count.
    """
    present = [a for a in algos if a in values.columns]
    rows = algos[1:] if layout == "lower" else algos
    cols = algos[:-1] if layout == "lower" else algos
    out = pd.DataFrame(index=rows, columns=cols, dtype=object)
    for i, r in enumerate(algos):
        for j, c in enumerate(algos):
            if r not in out.index or c not in out.columns or i == j or (layout == "lower" and j >= i):
                continue
            if r in present and c in present:
                out.loc[r, c] = wdl(values[r].to_numpy(), values[c].to_numpy(), lower_is_better, test, alpha)
            else:
                out.loc[r, c] = None
    return out


# ---------------------------------------------------------------- dataset sizes
def size_category(n_instances: float) -> str:
    """Zaidi and Webb 2013's collections: ``large`` (> 10000 instances), ``medium`` (> 1000 and <= 10000),
    ``small`` (<= 1000).

    The paper says "> 1000 and < 10,000" and "< 1000", which leaves exactly 1000 undefined;
    its WDL totals (40 small datasets) show German and LED (1000 instances each) counted as
    small, so small is <= 1000. No dataset of the paper has exactly 10000 instances; it is
    counted as medium here.
    """
    n = float(n_instances)
    if n > 10000:
        return "large"
    if n > 1000:
        return "medium"
    return "small"


def in_subset(n_instances, subset: str) -> np.ndarray:
    """Boolean mask of the datasets (by instance count) that belong to ``subset``."""
    if subset not in SIZE_SUBSETS:
        raise ValueError(f"subset must be one of {SIZE_SUBSETS}, got {subset!r}")
    ns = np.atleast_1d(np.asarray(n_instances, dtype=np.float64))
    if subset == "all":
        return np.ones(ns.shape, dtype=bool)
    return np.array([size_category(n) == subset for n in ns], dtype=bool)
