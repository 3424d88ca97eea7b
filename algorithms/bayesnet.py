"""BayesNet with K2 structure search, as Weka 3.6 runs it (Aryal and Ting 2013, MassBayes, Sect. 5:
``weka.classifiers.bayes.BayesNet -D -Q weka.classifiers.bayes.net.search.local.K2 --
-P 100 -N -S BAYES -E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5``).

K2 (Cooper and Herskovits 1992), as Weka's ``search.local.K2`` (3.6.14 bytecode):

* the node order is the class first, then the attributes in data order (Weka's default,
  ``-R`` off);
* the initial network is empty (``init_as_naive_bayes=False``, Weka's ``-N``, Aryal and Ting 2013's
  "initialise as Naive Bayes = false") or naive Bayes (the class a parent of every attribute);
* each node in turn, greedily: among the nodes before it in the order, the candidate
  parent whose addition gives the highest local score is added while that score is strictly
  higher than the current one (ties: the earliest candidate) and the node has fewer than
  ``max_parents`` parents (Aryal and Ting 2013: 100);
* the local score (``structure_score="bayes"``, Weka's default ``-S BAYES``) is the Bayesian
  Dirichlet score with a prior count ``score_alpha = 0.5`` per cell (Weka's ``m_fAlpha``,
  not an option): for every parent configuration ``sum_v lnG(a + n_v) - lnG(sum_v (a + n_v))
  - |X| lnG(a) + lnG(|X| a)``, accumulated in Weka's order (configurations in mixed radix
  over the parents in the order they were added, the node's values innermost) with
  Cephes' ``lgamma`` (Weka's ``Statistics.lnGamma`` is Cephes ``lgam``; scipy's ``gammaln``
  is the same code). ``"entropy"``, ``"mdl"`` and ``"aic"`` are Weka's other local scores.
  Counts are dense up to ``max(4 n, 65536)`` cells and sparse (observed configurations)
  beyond; an unobserved configuration adds 0 in exact arithmetic but rounding residues of
  ~1e-16 in Weka's, which decide exact ties (mushroom has some), so the score walks every
  configuration as Weka does. Weka holds the counts in one int array, so it cannot score a
  parent set with 2^31 cells or more; such a set is scored over its observed configurations.

Parameters are then estimated on the learned structure. Weka's SimpleEstimator is
``smoothing="laplace", alpha=0.5, backoff=False``: ``P(x | cfg) = (n + 0.5) / (N + 0.5 |X|)``
for every configuration, seen or not. Since the class is first in the order it has no
parents, and ``P(y | x)`` only involves the class prior and the families that contain the
class; the other families are constant across classes and are left out of the prediction.
The families with the class are the count tables of :mod:`algorithms.bnc` (class as the first
level), so ``smoothing="m_estimate"`` (with back-off) and ``"hdp"`` work as for the other
BNCs. Missing values: ``missing="mode"`` (default) replaces them by the training mode, as
Weka's BayesNet does with ``ReplaceMissingValues``; ``"value"`` makes them a value.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from scipy.special import gammaln
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions

from .bnc import _COMMON_DOC, _BNCBase

SCORES = ("bayes", "entropy", "mdl", "aic")


@njit(cache=True)
def _sequential_totals(counts, a):
    """``sum_v (a + n_cv)`` per configuration, added in Weka's order (exact as Weka's double)."""
    out = np.empty(counts.shape[0])
    for c in range(counts.shape[0]):
        t = 0.0
        for v in range(counts.shape[1]):
            t += a + counts[c, v]
        out[c] = t
    return out


@njit(cache=True)
def _weka_bayes_score(observed, lg_cells, lg_totals, n_configs, n_values, lg_alpha, lg_empty_total, lg_k_alpha):
    """Weka's BAYES local score, accumulated in Weka's order over all ``n_configs`` parent
    configurations: ``observed`` (sorted configuration codes, or empty when ``lg_cells`` has a
    row for every configuration) with ``lg_cells[c, v] = lnG(a + n_cv)`` and
    ``lg_totals[c] = lnG(sum_v (a + n_cv))``; an unobserved configuration adds ``lnG(a)``
    per value and ``-lnG(|X| a)`` (``lg_empty_total``), then ``-|X| lnG(a) + lnG(|X| a)``
    like every configuration, so its rounding residue is Weka's."""
    s = 0.0
    dense = observed.shape[0] == 0
    j = 0
    for c in range(n_configs):
        if dense or (j < observed.shape[0] and observed[j] == c):
            row = c if dense else j
            for v in range(lg_cells.shape[1]):
                s += lg_cells[row, v]
            s -= lg_totals[row]
            j += 1
        else:
            for v in range(n_values):
                s += lg_alpha
            s -= lg_empty_total
        s -= n_values * lg_alpha
        s += lg_k_alpha
    return s


@njit(cache=True)
def _weka_entropy_score(counts):
    """``sum_c sum_v n_cv log(n_cv / n_c)`` in Weka's order (unobserved configurations add nothing)."""
    s = 0.0
    for c in range(counts.shape[0]):
        nsum = 0.0
        for v in range(counts.shape[1]):
            nsum += counts[c, v]
        for v in range(counts.shape[1]):
            n = counts[c, v]
            if n > 0:
                s += n * math.log(n / nsum)
    return s


#: Weka counts a parent set in an int array of (configurations x values) cells, so it cannot
#: score a larger one; beyond this the BAYES score runs over the observed configurations only
WEKA_MAX_CELLS = (1 << 31) - 1


def _config_counts(cfg: np.ndarray, n_cfg: int, x: np.ndarray, n_values: int, dense_limit: int):
    """Counts per (configuration, value). Dense ``(n_cfg, |X|)`` when small enough (then the
    returned configuration codes are empty), else the observed configurations: (codes, counts)."""
    cells = n_cfg * n_values
    if cells <= dense_limit:
        return np.zeros(0, np.int64), np.bincount(cfg * n_values + x, minlength=cells).reshape(n_cfg, n_values)
    key = cfg * n_values + x
    uk, cnt = np.unique(key, return_counts=True)
    rows = uk // n_values
    first = np.r_[True, rows[1:] != rows[:-1]]
    out = np.zeros((int(first.sum()), n_values), dtype=np.int64)
    out[np.cumsum(first) - 1, uk % n_values] = cnt
    return rows[first], out


class BayesNetK2(_BNCBase):
    """Weka's BayesNet with K2 search (module docstring).

    Parameters
    ----------
    max_parents : int, default=100
        Weka K2's ``-P`` (Aryal and Ting 2013: 100).
    init_as_naive_bayes : bool, default=False
        False = Weka's ``-N`` (an empty initial network, Aryal and Ting 2013).
    structure_score : {"bayes", "entropy", "mdl", "aic"}, default="bayes"
        K2's local score (Weka's ``-S``).
    score_alpha : float, default=0.5
        Prior count of the BAYES score (Weka's fixed ``m_fAlpha``).
    smoothing, m, alpha, backoff :
        Default: Weka's SimpleEstimator with ``-A 0.5``.
    """ + _COMMON_DOC.replace('missing : {"value", "mode"}, default="value"', 'missing : {"value", "mode"}, default="mode"') + """
    Attributes
    ----------
    parent_sets_ : list (d + 1) of every node's parents in the order K2 added them (nodes are
        attribute indices, the class is node d), for comparison with Weka's structure
    parents_ : list (d) of the attribute parents of the attributes whose family contains the
        class (None for the others), in the order added
    order_ : node order of the search
    """

    def __init__(self, *, max_parents=100, init_as_naive_bayes=False, structure_score="bayes", score_alpha=0.5,
                 smoothing="laplace", m=1.0, alpha=0.5, backoff=False, hdp_settings=None, missing="mode",
                 random_state=None, categorical_features=None, n_categories=None, max_table_bytes="auto"):
        self.max_parents = max_parents
        self.init_as_naive_bayes = init_as_naive_bayes
        self.structure_score = structure_score
        self.score_alpha = score_alpha
        super().__init__(smoothing=smoothing, m=m, alpha=alpha, backoff=backoff, hdp_settings=hdp_settings,
                         missing=missing, random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, max_table_bytes=max_table_bytes)

    _parameter_constraints: dict = {
        **_BNCBase._parameter_constraints,
        "max_parents": [Interval(Integral, 0, None, closed="left")],
        "init_as_naive_bayes": ["boolean"],
        "structure_score": [StrOptions(set(SCORES))],
        "score_alpha": [Interval(Real, 0, None, closed="neither")],
    }

    # ------------------------------------------------------------------ K2
    def _local_score(self, cfg, n_cfg: int, ranked: bool, x, n_values: int, n_rows: int) -> float:
        """Local score of a node whose parent configurations are ``cfg``: mixed-radix codes below
        ``n_cfg`` (the number of configurations), or, when ``ranked``, ranks of the observed
        configurations (parent sets too large for 63-bit codes; ``n_cfg`` is then the true count)."""
        dense_limit = 0 if ranked else max(4 * n_rows, 1 << 16)
        observed, counts = _config_counts(cfg, int(cfg.max(initial=0)) + 1 if ranked else n_cfg, x, n_values,
                                          dense_limit)
        if self.structure_score == "bayes":
            a = float(self.score_alpha)
            lg_cells = gammaln(a + counts)
            lg_totals = gammaln(_sequential_totals(counts, a))
            empty = 0.0
            for _ in range(n_values):
                empty += a
            exact = not ranked and n_cfg * n_values <= WEKA_MAX_CELLS
            n_configs = n_cfg if (exact or observed.size == 0) else observed.size
            obs = observed if exact else np.zeros(0, np.int64)
            return _weka_bayes_score(obs, lg_cells, lg_totals, n_configs, n_values, float(gammaln(a)),
                                     float(gammaln(empty)), float(gammaln(n_values * a)))
        ll = _weka_entropy_score(counts.astype(np.float64))
        if self.structure_score == "mdl":
            ll -= 0.5 * n_cfg * (n_values - 1) * math.log(n_rows)
        elif self.structure_score == "aic":
            ll -= n_cfg * (n_values - 1)
        return ll

    def _learn(self, codes, y):
        n, d = codes.shape
        C = self.classes_.size
        cls = d
        arity = np.concatenate([self.n_values_, [C]]).astype(np.int64)
        col = lambda q: (y if q == cls else codes[:, q]).astype(np.int64)
        order = [cls] + list(range(d))
        parents = {q: [] for q in order}
        if self.init_as_naive_bayes:
            for a in range(d):
                parents[a].append(cls)
        for pos in range(1, len(order)):
            node = order[pos]
            x = col(node)
            V = int(arity[node])
            cfg = np.zeros(n, dtype=np.int64)
            n_cfg, ranked = 1, False
            for q in parents[node]:
                cfg, ranked = self._extend(cfg, n_cfg, ranked, col(q), int(arity[q]), V)
                n_cfg *= int(arity[q])
            best = self._local_score(cfg, n_cfg, ranked, x, V, n)
            progress = len(parents[node]) < self.max_parents
            while progress:
                best_q, best_cfg = -1, None
                for q in order[:pos]:
                    if q in parents[node]:
                        continue
                    cand, cand_ranked = self._extend(cfg, n_cfg, ranked, col(q), int(arity[q]), V)
                    sc = self._local_score(cand, n_cfg * int(arity[q]), cand_ranked, x, V, n)
                    if sc > best:
                        best, best_q, best_cfg = sc, q, (cand, cand_ranked)
                if best_q >= 0:
                    parents[node].append(best_q)
                    cfg, ranked = best_cfg
                    n_cfg *= int(arity[best_q])
                    progress = len(parents[node]) < self.max_parents
                else:
                    progress = False
        self.order_ = np.asarray(order, dtype=np.int64)
        self.parent_sets_ = [list(parents[q]) for q in range(d + 1)]
        member = {a: tuple(p for p in parents[a] if p != cls) for a in range(d) if cls in parents[a]}
        self._members = [member]
        self.parents_ = self._parents_list(member)

    @staticmethod
    def _extend(cfg, n_cfg: int, ranked: bool, values, arity: int, n_values: int):
        """Configuration codes with one more parent (Weka's mixed radix: the new parent least
        significant). Codes that would not fit 63 bits are replaced by the ranks of the
        observed configurations (``ranked``)."""
        if not ranked and n_cfg * arity * n_values < (1 << 62):
            return cfg * arity + values, False
        base = np.unique(cfg, return_inverse=True)[1].ravel().astype(np.int64)
        return np.unique(base * arity + values, return_inverse=True)[1].ravel().astype(np.int64), True
