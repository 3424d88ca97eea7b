"""Anytime nearest-neighbour classification (Ueno, Xi, Keogh and Lee, ICDM 2006): the
training objects are ranked once by SimpleRank and a query scans them in that order for as
long as its budget allows (Kranen et al. 2010, Sec. 2 and 4.2)."""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, Real, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._base import fit_class_codes
from ._common import check_budgets, check_unit, fit_standardised_view
from ._kernels import monotonic_ns
from .._base import RANDOM_STATE_CONSTRAINT, AllowNanTagsMixin, PredictFromProbaMixin


RERANK = {"none": 0, "forward": 1, "backward": 2}


@njit(cache=True)
def _sq_dist(Z, a, b):
    s = 0.0
    for j in range(Z.shape[1]):
        t = Z[a, j] - Z[b, j]
        s += t * t
    return s


@njit(cache=True)
def _nearest_alive(Z, i, alive):
    """Nearest other living object of i (ties: the lowest index); -1 if none."""
    best, bd = -1, np.inf
    for j in range(Z.shape[0]):
        if j == i or not alive[j]:
            continue
        dist = _sq_dist(Z, i, j)
        if dist < bd:
            best, bd = j, dist
    return best


@njit(cache=True)
def simple_rank_order(Z, y, n_classes, tie_priority, rerank):
    """SimpleRank (Ueno et al. 2006): with leave-one-out 1-NN on the training set, an object x
    scores, for every object whose nearest neighbour it is, +1 if that object has x's class
    and -2/(m-1) otherwise (m classes). The object of highest score comes first (ties: lowest
    ``tie_priority``).

    ``rerank`` = 1 ("forward", Ueno et al.'s SimpleRank loop as we read it): after the best
    object is placed it is removed from the training set, the objects whose nearest neighbour
    it was vote for their next nearest living neighbour, and the best of the rest is placed
    next. 2 ("backward"): the worst object is removed and placed last, repeatedly. 0
    ("none"): the objects are sorted once by their initial scores.

    Returns (order, initial scores)."""
    n = Z.shape[0]
    penalty = 2.0 / (n_classes - 1) if n_classes > 1 else 0.0
    alive = np.ones(n, dtype=np.bool_)
    nn = np.empty(n, dtype=np.int64)
    for i in range(n):
        nn[i] = _nearest_alive(Z, i, alive)
    score = np.zeros(n)
    head = np.full(n, -1, dtype=np.int64)  # voters of each object, as linked lists
    nxt = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        j = nn[i]
        if j < 0:
            continue
        score[j] += 1.0 if y[i] == y[j] else -penalty
        nxt[i] = head[j]
        head[j] = i
    initial = score.copy()
    order = np.empty(n, dtype=np.int64)
    if rerank == 0:
        # sort by tie_priority, then stably by -score: ties keep the tie_priority order
        order = np.argsort(tie_priority, kind="mergesort")
        srt = np.argsort(-score[order], kind="mergesort")
        return order[srt], initial
    voters = np.empty(n, dtype=np.int64)
    backward = rerank == 2
    for t in range(n):
        pick = -1
        for i in range(n):
            if not alive[i]:
                continue
            if pick < 0:
                pick = i
            elif backward:  # the worst object leaves first and goes to the end of the order
                if score[i] < score[pick] or (score[i] == score[pick] and tie_priority[i] > tie_priority[pick]):
                    pick = i
            elif score[i] > score[pick] or (score[i] == score[pick] and tie_priority[i] < tie_priority[pick]):
                pick = i
        order[n - 1 - t if backward else t] = pick
        alive[pick] = False
        # its own vote disappears
        j = nn[pick]
        if j >= 0 and alive[j]:
            score[j] -= 1.0 if y[pick] == y[j] else -penalty
        # the objects it was nearest to vote for their next nearest living neighbour
        nv = 0
        v = head[pick]
        while v >= 0:
            voters[nv] = v
            nv += 1
            v = nxt[v]
        for a in range(nv):
            i = voters[a]
            if not alive[i]:
                continue
            q = _nearest_alive(Z, i, alive)
            nn[i] = q
            if q < 0:
                continue
            score[q] += 1.0 if y[i] == y[q] else -penalty
            nxt[i] = head[q]
            head[q] = i
    return order, initial


@njit(cache=True)
def anytime_nn_predictions(Xq, ranked, ranked_class, budgets, use_clock):
    """For every query, the class of the nearest object among the first b ranked objects
    (b = instances compared; exact) or among those compared before b seconds passed (checked
    before each comparison); -1 before the first comparison.

    Returns (classes (B, n), compared (B, n), seconds (B, n)): the answer at each budget, the
    objects compared and the seconds elapsed when it was given."""
    nq = Xq.shape[0]
    B = budgets.shape[0]
    n = ranked.shape[0]
    d = ranked.shape[1]
    out = np.full((B, nq), -1, dtype=np.int64)
    cmp_at = np.zeros((B, nq))
    secs_at = np.zeros((B, nq))
    for q in range(nq):
        t0 = monotonic_ns()
        best_c, best_d = -1, np.inf
        bi = 0
        for done in range(n + 1):
            # ``done`` objects compared: the budgets that cannot afford one more get this answer
            if use_clock:
                now = (monotonic_ns() - t0) * 1e-9
                while bi < B and budgets[bi] < now:
                    out[bi, q], cmp_at[bi, q], secs_at[bi, q] = best_c, done, now
                    bi += 1
            elif bi < B and (budgets[bi] < done + 1 or done == n):
                now = (monotonic_ns() - t0) * 1e-9
                while bi < B and (budgets[bi] < done + 1 or done == n):
                    out[bi, q], cmp_at[bi, q], secs_at[bi, q] = best_c, done, now
                    bi += 1
            if bi >= B or done == n:
                break
            s = 0.0
            for j in range(d):
                t = Xq[q, j] - ranked[done, j]
                s += t * t
            if s < best_d:
                best_d, best_c = s, ranked_class[done]
        if bi < B:
            now = (monotonic_ns() - t0) * 1e-9
            while bi < B:
                out[bi, q], cmp_at[bi, q], secs_at[bi, q] = best_c, n, now
                bi += 1
    return out, cmp_at, secs_at


class AnytimeNN(PredictFromProbaMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Anytime 1-nearest-neighbour classifier with the SimpleRank ordering (Ueno et al. 2006).

    Training ranks the objects by SimpleRank on leave-one-out 1-NN (+1 for being the nearest
    neighbour of an object of the same class, -2/(m-1) for one of another class, m classes;
    MC-Tree Sec. 2). A query compares itself with the ranked objects in order; when
    interrupted after b comparisons it answers the class of the nearest object seen so far
    (the class prior before the first comparison). The budget unit is instances compared;
    "seconds" interrupts by wall-clock time per query.

    Choices: Euclidean distance on standardised attributes (z-scores of the training fold);
    ties in distance go to the earlier object; ties in score to a random priority drawn from
    ``random_state`` (``tie_break="random"``) or to the lower index (``"index"``);
    ``rerank="forward"`` rebuilds the scores after every placed object (SimpleRank's loop as
    we read Ueno et al.; the seed paper only gives the scoring), ``"backward"`` removes the
    worst object first and places it last, ``"none"`` sorts once by the initial scores. Probabilities are one-hot on the answered
    class (1-NN gives no graded probability).

    Missing values are replaced by the training mean of the attribute; nominal attributes are
    dropped (``nominal="drop"``).

    Parameters
    ----------
    rerank : {"forward", "backward", "none"}, default="forward"
    tie_break : {"random", "index"}, default="random"
    budget : float or None, default=None
        Instances compared per query for ``predict_proba``; None = all (exact 1-NN).
    nominal : {"drop", "code"}, default="drop"
    categorical_features : bool array or None
    random_state : int or None

    Attributes
    ----------
    classes_, order_ (training row ids in rank order), rank_score_ (initial SimpleRank scores,
    per training row), ranked_ (standardised objects in rank order)
    """

    def __init__(self, *, rerank="forward", tie_break="random", budget=None, nominal="drop", categorical_features=None,
                 random_state=None):
        self.rerank = rerank
        self.tie_break = tie_break
        self.budget = budget
        self.nominal = nominal
        self.categorical_features = categorical_features
        self.random_state = random_state

    _parameter_constraints: dict = {
        "rerank": [StrOptions(set(RERANK))],
        "tie_break": [StrOptions({"random", "index"})],
        "budget": [Interval(Real, 0, None, closed="left"), None],
        "nominal": [StrOptions({"drop", "code"})],
        "categorical_features": ["array-like", None],
        "random_state": RANDOM_STATE_CONSTRAINT,
    }

    def fit(self, X, y):
        t_start = time.process_time()
        self._validate_params()
        X, codes = fit_class_codes(self, X, y)
        Z = np.ascontiguousarray(fit_standardised_view(self, X))
        n = Z.shape[0]
        if self.tie_break == "random":
            priority = np.random.default_rng(self.random_state).permutation(n).astype(np.float64)
        else:
            priority = np.arange(n, dtype=np.float64)
        order, score = simple_rank_order(Z, codes, self.classes_.size, priority, RERANK[self.rerank])
        self.order_ = order
        self.rank_score_ = score
        self.ranked_ = np.ascontiguousarray(Z[order])
        self.ranked_class_ = codes[order]
        self.class_prior_ = np.bincount(codes, minlength=self.classes_.size) / n
        self.diagnostics_ = {"n_ranked": int(n), "fit_cpu_s": time.process_time() - t_start,
                             "positive_score_share": float(np.mean(score > 0))}
        return self

    def _transform(self, X):
        check_is_fitted(self, "ranked_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        return np.ascontiguousarray((self.view_.transform(X) - self.center_) / self.scale_)

    def predict_proba_anytime(self, X, budgets, unit="instances", return_cost=False):
        """Class probabilities after each budget (instances compared, or seconds per query).

        Returns an array (len(budgets), n, n_classes); with ``return_cost`` also the instances
        compared and seconds elapsed at each budget."""
        Z = self._transform(X)
        arr = check_budgets(budgets)
        use_clock = check_unit(unit)
        srt = np.argsort(arr, kind="stable")
        cls, cmp_at, secs = anytime_nn_predictions(Z, self.ranked_, self.ranked_class_, arr[srt], use_clock)
        inv = np.empty_like(srt)
        inv[srt] = np.arange(srt.size)
        cls, cmp_at, secs = cls[inv], cmp_at[inv], secs[inv]
        C = self.classes_.size
        proba = np.zeros(cls.shape + (C,))
        known = cls >= 0
        b_idx, q_idx = np.nonzero(known)
        proba[b_idx, q_idx, cls[known]] = 1.0
        proba[~known] = self.class_prior_
        return (proba, cmp_at, secs) if return_cost else proba

    def predict_proba(self, X):
        budget = math.inf if self.budget is None else self.budget
        return self.predict_proba_anytime(X, [budget])[0]
