"""Post-hoc tests after Friedman's, and the multiple-testing corrections they use.

* :func:`holm`, :func:`hochberg`, :func:`bonferroni` - adjusted p-values of a family of tests
  (Holm 1979 step-down, Hochberg 1988 step-up, Bonferroni). A hypothesis is rejected at ``alpha``
  when its adjusted p-value is <= alpha, decided on the raw p-values as each procedure states it
  (Holm: reject H_(i) while p_(i) <= alpha / (m - i + 1)), the rule of statsmodels' ``multipletests``,
  against which ``tests/test_compare_beyond.py`` checks all three, the boundary included (:func:`rejects`).
* :func:`control_tests` - every learner against a control (Demsar 2006, Sec. 3.2.2): the Friedman
  z statistic z = (R_i - R_control) / sqrt(k (k+1) / (6 N)) of the mean ranks, its two-sided normal
  p-value, adjusted by Bonferroni-Dunn, Holm and Hochberg over the k - 1 comparisons; and
  :func:`bonferroni_dunn_cd`, the critical difference of mean ranks against the control.
* :func:`conover_friedman` - Conover's post-hoc test for the Friedman design (Conover 1999),
  every pair, by :func:`scikit_posthocs.posthoc_conover_friedman`, p-values Holm-adjusted by
  default; more powerful than Nemenyi's.
* :func:`wilcoxon_pairs` - the Wilcoxon signed-rank test of every pair over the datasets
  (:func:`bench.stats.ttests.wilcoxon_signed_rank`, method stated), Holm-adjusted over the
  k (k-1) / 2 pairs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

ALPHA = 0.05


def _valid(pvalues):
    p = np.asarray(pvalues, dtype=np.float64)
    ok = np.flatnonzero(~np.isnan(p))
    return p, ok


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values: with the m p-values sorted ascending,
    p_adj(i) = max_{j <= i} min(1, (m - j + 1) p(j)). NaN stays NaN and is not counted in m."""
    p, ok = _valid(pvalues)
    out = np.full(p.shape, np.nan)
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    out[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return out


def hochberg(pvalues) -> np.ndarray:
    """Hochberg's step-up adjusted p-values: sorted ascending, p_adj(i) = min_{j >= i} min(1, (m - j + 1) p(j))."""
    p, ok = _valid(pvalues)
    out = np.full(p.shape, np.nan)
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.minimum.accumulate(adj[::-1])[::-1]
    return out


def bonferroni(pvalues) -> np.ndarray:
    p, ok = _valid(pvalues)
    out = np.full(p.shape, np.nan)
    out[ok] = np.minimum(1.0, ok.size * p[ok])
    return out


#: the corrections :func:`rejects` decides by
METHODS = ("holm", "hochberg", "bonferroni")


def rejects(pvalues, method: str = "holm", alpha: float = ALPHA) -> np.ndarray:
    """Which hypotheses of the family ``pvalues`` (the raw p-values; NaN: not tested, never rejected)
    ``method`` rejects at ``alpha``, by the procedure's own rule on the raw p-values, with the m valid
    p-values sorted ascending (p_(1) <= ... <= p_(m)):

    * ``holm`` (step-down): reject H_(1), ..., H_(k-1), where k is the first i with p_(i) > alpha / (m - i + 1);
    * ``hochberg`` (step-up): reject H_(1), ..., H_(k), where k is the last i with p_(i) <= alpha / (m - i + 1);
    * ``bonferroni``: reject H_i when p_i <= alpha / m.

    At equality the hypothesis is rejected (``<=``: Holm 1979's rule, and statsmodels' ``multipletests``,
    which decides the same way on the raw p-values). Mathematically this is "adjusted p <= alpha"; in
    floating point the adjusted p-value (m - i + 1) p_(i) of a p-value exactly at its threshold can round
    to just above alpha (e.g. p = 0.05 / 11 gives 11 p = 0.05000000000000001), so the decision is taken on
    the raw p-values, never on the rounded product."""
    if method not in METHODS:
        raise ValueError(f"unknown correction {method!r}; known: {', '.join(METHODS)}")
    p, ok = _valid(pvalues)
    out = np.zeros(p.shape, dtype=bool)
    m = ok.size
    if m == 0:
        return out
    if method == "bonferroni":
        out[ok] = p[ok] <= alpha / m
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    below = p[order] <= alpha / (m - np.arange(m))
    if method == "holm":
        k = int(np.argmin(below)) if not below.all() else m     # the first p above its threshold
    else:
        k = int(np.flatnonzero(below)[-1]) + 1 if below.any() else 0
    out[order[:k]] = True
    return out


# ---------------------------------------------------------------- against a control
def bonferroni_dunn_q(k: int, alpha: float = ALPHA) -> float:
    """q_alpha of the Bonferroni-Dunn test, z_{1 - alpha / (2 (k - 1))}: Demsar's Table 5b
    (1.960, 2.241, 2.394, 2.498, ... for k = 2, 3, 4, 5 at alpha = 0.05)."""
    from scipy import stats

    if k < 2:
        raise ValueError(f"need k >= 2 learners, got {k}")
    return float(stats.norm.isf(alpha / (2.0 * (k - 1))))


def bonferroni_dunn_cd(k: int, n: int, alpha: float = ALPHA) -> float:
    """Critical difference of mean ranks against a control: q_alpha sqrt(k (k+1) / (6 N))."""
    return bonferroni_dunn_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n)))


def control_tests(average_ranks: dict, n: int, control: str, alpha: float = ALPHA) -> pd.DataFrame:
    """Each learner's mean rank against the control's: z, p and the Bonferroni-Dunn, Holm and
    Hochberg adjusted p-values over the k - 1 comparisons, with whether each rejects at ``alpha``."""
    from scipy import stats

    names = list(average_ranks)
    if control not in average_ranks:
        raise ValueError(f"control {control!r} is not among {names}")
    k = len(names)
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    others = [a for a in names if a != control]
    z = np.array([(average_ranks[a] - average_ranks[control]) / se for a in others])
    p = 2.0 * stats.norm.sf(np.abs(z))
    out = pd.DataFrame({"algorithm": others, "rank": [average_ranks[a] for a in others],
                        "control rank": average_ranks[control], "z": z, "p": p,
                        "p_bonferroni_dunn": bonferroni(p), "p_holm": holm(p), "p_hochberg": hochberg(p)})
    for m, method in (("bonferroni_dunn", "bonferroni"), ("holm", "holm"), ("hochberg", "hochberg")):
        out[f"rejects_{m}"] = rejects(p, method, alpha)
    return out


# ---------------------------------------------------------------- every pair
def conover_friedman(values: pd.DataFrame, p_adjust: str | None = "holm") -> pd.DataFrame:
    """Conover's Friedman post-hoc p-values of every pair (learners x learners) on ``values``
    (datasets x learners, complete rows); ``p_adjust`` as statsmodels' ``multipletests`` names it."""
    import scikit_posthocs as sp

    v = values.dropna(axis=0, how="any")
    if v.shape[0] < 2 or v.shape[1] < 2:
        raise ValueError(f"Conover's test needs >= 2 datasets and >= 2 learners, got {v.shape}")
    with np.errstate(divide="ignore", invalid="ignore"):   # identical rankings on every dataset: t infinite, p 0
        p = sp.posthoc_conover_friedman(v.to_numpy(dtype=float), p_adjust=p_adjust)
    return pd.DataFrame(p.to_numpy(), index=list(v.columns), columns=list(v.columns))


def wilcoxon_pairs(values: pd.DataFrame, zero_method: str = "demsar", method: str = "auto") -> pd.DataFrame:
    """Wilcoxon signed-rank test of every pair of learners (columns) over the datasets (rows),
    Holm-adjusted over the pairs: a long table (a, b, n, T, p, method, p_holm, rejects_holm)."""
    from .ttests import wilcoxon_signed_rank

    v = values.dropna(axis=0, how="any")
    cols = list(v.columns)
    rows = []
    for i, a in enumerate(cols):
        for b in cols[i + 1:]:
            w = wilcoxon_signed_rank(v[a].to_numpy(), v[b].to_numpy(), zero_method=zero_method, method=method)
            rows.append({"a": a, "b": b, "n": w.n, "T": w.statistic, "p": w.p, "method": w.method})
    out = pd.DataFrame(rows, columns=["a", "b", "n", "T", "p", "method"])
    out["p_holm"] = holm(out["p"]) if len(out) else []
    out["rejects_holm"] = rejects(out["p"], "holm") if len(out) else []
    return out


def pair_matrix(long: pd.DataFrame, learners: list, col: str = "p_holm") -> pd.DataFrame:
    """The symmetric learners x learners matrix of ``col`` from :func:`wilcoxon_pairs`' table."""
    out = pd.DataFrame(np.nan, index=learners, columns=learners)
    for r in long.itertuples():
        out.loc[r.a, r.b] = out.loc[r.b, r.a] = getattr(r, col)
    return out
