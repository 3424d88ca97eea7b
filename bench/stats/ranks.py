"""Multiple learners over many datasets: average ranks, the Friedman test and the Nemenyi
post-hoc test with its critical difference (Demsar 2006, JMLR 7:1-30, Sec. 3.2.2).

* ranks per dataset, 1 = best, ties get the average of the ranks they span;
* Friedman's statistic chi2_F = 12 N / (k (k+1)) [sum_j R_j^2 - k (k+1)^2 / 4] (Demsar Eq. after
  Table 5), optionally with the tie correction that ``scipy.stats.friedmanchisquare`` applies;
* Iman and Davenport's F_F = (N-1) chi2_F / (N (k-1) - chi2_F) ~ F(k-1, (k-1)(N-1)), the
  statistic Demsar recommends;
* the Nemenyi critical difference CD = q_alpha sqrt(k (k+1) / (6 N)), with q_alpha the
  studentised range quantile for k groups and infinite degrees of freedom divided by sqrt(2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats


def ranks(values, lower_is_better: bool = True) -> np.ndarray:
    """Rank the learners (columns) on every dataset (row); 1 = best; ties share the mean rank."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise ValueError(f"values must be datasets x learners, got shape {v.shape}")
    if np.isnan(v).any():
        raise ValueError("ranks need a value for every learner on every dataset (found NaN)")
    return np.apply_along_axis(stats.rankdata, 1, v if lower_is_better else -v)


@dataclass(frozen=True)
class FriedmanResult:
    n_datasets: int
    n_learners: int
    average_ranks: np.ndarray
    chi2: float                 #: Friedman's chi2_F
    p_chi2: float               #: its p-value (chi-square, k-1 df)
    f: float                    #: Iman-Davenport F_F
    p_f: float                  #: its p-value (F with k-1, (k-1)(N-1) df)
    tie_correction: bool = False
    df: tuple = field(default=(0, 0))

    def rejects(self, alpha: float = 0.05, statistic: str = "iman_davenport") -> bool:
        p = self.p_f if statistic == "iman_davenport" else self.p_chi2
        return bool(p < alpha)


def friedman(values, lower_is_better: bool = True, tie_correction: bool = False) -> FriedmanResult:
    """Friedman test over ``values`` (datasets x learners). Demsar's chi2_F has no tie correction;
    ``tie_correction=True`` divides by 1 - sum(t^3 - t) / (N k (k^2 - 1)) as scipy does."""
    r = ranks(values, lower_is_better)
    n, k = r.shape
    if k < 2 or n < 2:
        raise ValueError(f"the Friedman test needs >= 2 learners and >= 2 datasets, got {k} and {n}")
    avg = r.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(avg ** 2) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        ties = 0.0
        for row in r:
            _, t = np.unique(row, return_counts=True)
            ties += np.sum(t ** 3 - t)
        c = 1.0 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / c if c > 0 else 0.0
    p_chi2 = float(stats.chi2.sf(chi2, k - 1))
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denom = n * (k - 1) - chi2
    f = (n - 1) * chi2 / denom if denom > 0 else np.inf
    p_f = float(stats.f.sf(f, df1, df2)) if np.isfinite(f) else 0.0
    return FriedmanResult(n, k, avg, float(chi2), p_chi2, float(f), p_f, tie_correction, (df1, df2))


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_alpha of the Nemenyi test: the studentised range quantile (k groups, infinite df) / sqrt(2).
    Demsar's Table 5a: 1.960, 2.343, 2.569, ... for k = 2, 3, 4, ... at alpha = 0.05."""
    if k < 2:
        raise ValueError(f"need k >= 2 learners, got {k}")
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference of average ranks for k learners on n datasets."""
    return nemenyi_q(k, alpha) * np.sqrt(k * (k + 1) / (6.0 * n))


def nemenyi_cliques(average_ranks, cd: float) -> list[tuple[int, ...]]:
    """Maximal groups of learners (indices) whose average ranks all lie within ``cd`` of each other,
    i.e. no pair in the group differs significantly; the bars of a critical-difference diagram.
    Groups of one learner are left out."""
    r = np.asarray(average_ranks, dtype=np.float64)
    order = np.argsort(r, kind="stable")
    sr = r[order]
    groups = []
    for i in range(len(sr)):
        j = i
        while j + 1 < len(sr) and sr[j + 1] - sr[i] < cd:
            j += 1
        if j > i:
            groups.append(tuple(int(x) for x in order[i:j + 1]))
    # keep only groups not contained in another
    maximal = [g for g in groups if not any(set(g) < set(h) for h in groups)]
    out = []
    for g in maximal:
        if g not in out:
            out.append(g)
    return out


def pairwise_nemenyi(average_ranks, n: int, alpha: float = 0.05) -> np.ndarray:
    """Boolean k x k matrix: True where two learners' average ranks differ by at least the CD."""
    r = np.asarray(average_ranks, dtype=np.float64)
    cd = critical_difference(len(r), n, alpha)
    return np.abs(r[:, None] - r[None, :]) >= cd
