"""Averaged n-Dependence Estimators (AnDE, n = 0..3) with subsumption resolution
and MI weighting, after Zaidi and Webb, "Fast and Effective Single Pass Bayesian
Learning" (seed 003), on the count engine of :mod:`algorithms._counts`.

One estimator, :class:`AnDE`, covers the paper's NB (n=0), A1DE, A1DE-S, A1DE-W,
A1DE-SW, A2DE, A2DE-S, A2DE-W, A2DE-SW, and A3DE (seed 000's contender), and with
matched settings reproduces Weka 3.6's AODE (Laplace, ``-F 1``), AODE ``-M``
(m-estimate), AODEsr (``sr_threshold=50``) and WAODE (``min_parent_count=0``).

Training is one pass counting ``#(y, x_s, x_c)`` for every n-set ``s`` of parents
and child ``c`` (tables of all attribute subsets of size <= n+1). Prediction is
one Numba kernel over the test rows:

* Eq. 1: ``P(y, x) = sum_s delta(x_s) w_s P(y, x_s) prod_{i not in s} P(x_i | y, x_s)
  / sum_s delta(x_s)``; ``delta(x_s) = 1`` when ``x_s`` occurs at least
  ``min_parent_count`` times in training (the paper's "training data contains an
  object with the value x_s" is ``min_parent_count=1``, Weka's ``-F 1``); when no
  parent set of the instance qualifies, A(n-1)DE on the same instance, down to NB.
* "P(x_i | y, x_s) = 1 when i in s ... these values are not included": children
  run over the attributes not in ``s``.
* Estimates: m-estimation (the paper: m = 1) or Laplace (Weka's default):
  ``P(y, x_s) = (#(y, x_s) + a) / (N_s + b)`` with ``K = C * prod_{j in s} k_j``
  outcomes, ``P(x_i | y, x_s) = (#(y, x_s, x_i) + a) / (#(y, x_s, i observed) + b)``
  with ``K = k_i``; Laplace ``a = 1, b = K``; m-estimate ``a = m / K, b = m``.
  ``N_s`` counts the training rows with ``x_s`` observed (Weka's
  ``m_SumInstances - missing4ParentAtt``).
* Subsumption resolution (section 2): ``x_i`` is dropped when some other value
  ``x_j`` of the instance has ``#(x_j) = #(x_i, x_j) > sr_threshold`` (then
  ``P(x_i | x_j) = 1``: x_j is the specialisation, e.g. pregnant, x_i the
  generalisation, e.g. female) and ``#(x_i) > #(x_j)`` or, for a tie, ``j < i``
  ("we delete the one with the higher index"). The paper's displayed formula
  reads ``#(x_i) = #(x_i, x_j)``, which would drop the specialisation and
  contradicts its own text and Weka's AODEsr; the code follows the text and
  AODEsr. Counts are over the whole training data (class summed). The paper uses
  100, AODEsr 50.
* MI weighting (Eq. 2): ``w_s = MI(X_s; Y)`` (base 2, as WAODE) from the
  unsmoothed counts of the rows where ``x_s`` is observed. If every qualifying
  parent set of an instance has weight 0, the weights are floored at 1e-100,
  so the instance gets the unweighted average (Weka's WAODE returns NaN there).
* Arithmetic: each sub-model's product runs in linear space in Weka's order
  (joint first, then children by attribute index) with exponent tracking
  (rescaled by 1e150 whenever it drops below 1e-150), and sub-models are summed
  in linear space unless rescaled (then in log space), so any number of
  attributes is safe from underflow; ``predict_log_joint`` returns
  ``log P(y, x)`` (up to a class-independent constant).

Nominal attributes only: numeric columns must be discretised first (the configs
use the MDL discretiser as a preprocessing step); a numeric column gives an
error saying so. Missing values: ``missing="skip"`` (default, Weka's AODE and
the AnDE papers) leaves them out of every count and, at test time, leaves the
attribute out as parent and child; ``missing="value"`` treats missing as one
more value.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._counts import (BLOCK_ROWS, AllSubsetCounts, Smoothing, class_codes, encode, encode_classes,
                      infer_n_values)

TINY = 1e-150
BIG = 1e150
LOG_BIG = math.log(BIG)
WEIGHT_FLOOR = 1e-100


# --------------------------------------------------------------------------- kernels
@njit(cache=True, inline="always")
def _cell(attrs, vals, t, set_start, set_offsets, binom, n_values, n_classes):
    """(class-0 cell, flat set index) of the values ``vals[:t]`` of sorted attributes ``attrs[:t]``."""
    rank = 0
    idx = 0
    for r in range(t):
        a = attrs[r]
        rank += binom[a, r + 1]
        idx = idx * n_values[a] + vals[r]
    s = set_start[t] + rank
    return set_offsets[s] + idx * n_classes, s


@njit(cache=True, inline="always")
def _smooth(laplace, m, n_outcomes):
    if laplace:
        return 1.0, float(n_outcomes)
    return m / n_outcomes, m


@njit(cache=True)
def _subsumption_keep(row, active, n_active, kept, n_values, n_classes, set_start, set_offsets, binom,
                      free_counts, threshold):
    """Section 2: keep x_i unless some x_j has #(x_j) = #(x_i, x_j) > threshold and
    (#(x_i) > #(x_j) or, on a tie, j < i). Returns the number kept (written to ``kept``)."""
    n_kept = 0
    for ii in range(n_active):
        i = active[ii]
        vi = row[i]
        fi = free_counts[(set_offsets[set_start[1] + i] + vi * n_classes) // n_classes]
        drop = False
        for jj in range(n_active):
            if jj == ii:
                continue
            j = active[jj]
            vj = row[j]
            fj = free_counts[(set_offsets[set_start[1] + j] + vj * n_classes) // n_classes]
            if fj <= threshold:
                continue
            if i < j:
                cell = set_offsets[set_start[2] + binom[i, 1] + binom[j, 2]] + (vi * n_values[j] + vj) * n_classes
            else:
                cell = set_offsets[set_start[2] + binom[j, 1] + binom[i, 2]] + (vj * n_values[i] + vi) * n_classes
            fij = free_counts[cell // n_classes]
            if fij == fj and (fi > fj or j < i):
                drop = True
                break
        if not drop:
            kept[n_kept] = i
            n_kept += 1
    return n_kept


@njit(cache=True)
def _ande_log_joint(codes, n_parents, n_values, n_classes, missing_counts, counts, set_start, set_offsets,
                    binom, class_counts, n_rows, set_totals, order1_class_totals, free_counts, weights,
                    laplace, m, child_a, child_b, min_count, use_sr, sr_threshold, out, level_used, n_kept_out):
    """``out[r, y] = log P_AnDE(y, x_r)`` (Eq. 1, with the A(n-1)DE fall-back), for every test row.

    For a parent set s (sorted) and a child c, the table cell of s + {c} is found without
    re-sorting: with ``pos`` = number of parents below c, the colex rank is
    ``base_rank[pos] + C(c, pos + 1)`` and the cell
    ``((low[pos] * k_c + x_c) * above[pos] + high[pos]) * C`` (mixed-radix codes of the parents
    below and above c), precomputed once per parent set.
    """
    n_test, d = codes.shape
    C = n_classes
    active = np.empty(d, dtype=np.int64)
    kept = np.empty(d, dtype=np.int64)
    row = np.empty(d, dtype=np.int64)
    comb = np.empty(4, dtype=np.int64)
    attrs = np.empty(4, dtype=np.int64)
    vals = np.empty(4, dtype=np.int64)
    base_rank = np.empty(5, dtype=np.int64)
    low = np.empty(5, dtype=np.int64)
    high = np.empty(5, dtype=np.int64)
    above = np.empty(5, dtype=np.int64)
    p = np.empty(C)
    expo = np.empty(C, dtype=np.int64)
    parent_counts = np.empty(C)
    lin = np.empty(C)
    lg = np.empty(C)
    for r in range(n_test):
        n_active = 0
        for j in range(d):
            v = codes[r, j]
            row[j] = v
            if v >= 0:
                active[n_active] = j
                n_active += 1
        if use_sr:
            n_kept = _subsumption_keep(row, active, n_active, kept, n_values, C, set_start, set_offsets, binom,
                                       free_counts, sr_threshold)
        else:
            n_kept = n_active
            for q in range(n_active):
                kept[q] = active[q]
        n_kept_out[r] = n_kept
        for L in range(n_parents, -1, -1):
            if L == 0:
                # naive Bayes: P(y) prod_i P(x_i | y)
                a0, b0 = _smooth(laplace, m, C)
                for y in range(C):
                    p[y] = (class_counts[y] + a0) / (n_rows + b0)
                    expo[y] = 0
                for q in range(n_kept):
                    c = kept[q]
                    cell = set_offsets[set_start[1] + c] + row[c] * C
                    for y in range(C):
                        p[y] *= (counts[cell + y] + child_a[c]) / (order1_class_totals[c, y] + child_b[c])
                    if q % 8 == 7 or q == n_kept - 1:
                        for y in range(C):
                            while p[y] < TINY and p[y] > 0.0:
                                p[y] *= BIG
                                expo[y] -= 1
                for y in range(C):
                    out[r, y] = math.log(p[y]) + expo[y] * LOG_BIG
                level_used[r] = 0
                break
            if n_kept < L:
                continue
            # enumerate the L-subsets s of the kept attributes (Eq. 1)
            for q in range(L):
                comb[q] = q
            used = 0
            wsum = 0.0
            for y in range(C):
                lin[y] = 0.0
                lg[y] = -np.inf
            child_sets = set_start[L + 1]
            while True:
                for q in range(L):
                    attrs[q] = kept[comb[q]]
                    vals[q] = row[attrs[q]]
                pcell, s = _cell(attrs, vals, L, set_start, set_offsets, binom, n_values, C)
                if free_counts[pcell // C] >= min_count:  # delta(x_s)
                    used += 1
                    w = weights[s]
                    if w < WEIGHT_FLOOR:
                        w = WEIGHT_FLOOR
                    wsum += w
                    K = C
                    for q in range(L):
                        K *= n_values[attrs[q]]
                    aj, bj = _smooth(laplace, m, K)
                    for y in range(C):
                        parent_counts[y] = counts[pcell + y]
                        p[y] = (parent_counts[y] + aj) / (set_totals[s] + bj)
                        expo[y] = 0
                    # per insertion position of a child: colex rank part and mixed-radix codes
                    for pos in range(L + 1):
                        br = 0
                        lo = 0
                        for u in range(pos):
                            br += binom[attrs[u], u + 1]
                            lo = lo * n_values[attrs[u]] + vals[u]
                        hv = 0
                        ab = 1
                        for u in range(pos, L):
                            br += binom[attrs[u], u + 2]
                            hv = hv * n_values[attrs[u]] + vals[u]
                            ab *= n_values[attrs[u]]
                        base_rank[pos] = br
                        low[pos] = lo
                        high[pos] = hv
                        above[pos] = ab
                    # children: kept attributes not in s, in attribute order
                    nxt = 0
                    n_done = 0
                    for q in range(n_kept):
                        if nxt < L and comb[nxt] == q:
                            nxt += 1
                            continue
                        c = kept[q]
                        kc = n_values[c]
                        ccell = set_offsets[child_sets + base_rank[nxt] + binom[c, nxt + 1]] + \
                            ((low[nxt] * kc + row[c]) * above[nxt] + high[nxt]) * C
                        ac = child_a[c]
                        bc = child_b[c]
                        if missing_counts[c] == 0:
                            for y in range(C):
                                p[y] *= (counts[ccell + y] + ac) / (parent_counts[y] + bc)
                        else:
                            # denominator: #(y, x_s, child observed) = sum over the child's values
                            stride = above[nxt] * C
                            base = ccell - row[c] * stride
                            for y in range(C):
                                den = 0.0
                                for v in range(kc):
                                    den += counts[base + v * stride + y]
                                p[y] *= (counts[ccell + y] + ac) / (den + bc)
                        n_done += 1
                        if n_done % 8 == 0:
                            for y in range(C):
                                while p[y] < TINY and p[y] > 0.0:
                                    p[y] *= BIG
                                    expo[y] -= 1
                    for y in range(C):
                        while p[y] < TINY and p[y] > 0.0:
                            p[y] *= BIG
                            expo[y] -= 1
                        if expo[y] == 0:
                            lin[y] += w * p[y]
                        else:
                            t = math.log(w * p[y]) + expo[y] * LOG_BIG
                            hi = max(lg[y], t)
                            lg[y] = hi + math.log(math.exp(lg[y] - hi) + math.exp(t - hi))
                # next combination
                q = L - 1
                while q >= 0 and comb[q] == n_kept - L + q:
                    q -= 1
                if q < 0:
                    break
                comb[q] += 1
                for u in range(q + 1, L):
                    comb[u] = comb[u - 1] + 1
            if used > 0:
                lw = math.log(wsum)
                for y in range(C):
                    a_ = math.log(lin[y]) if lin[y] > 0 else -np.inf
                    hi = max(a_, lg[y])
                    if hi == -np.inf:
                        out[r, y] = -np.inf
                    else:
                        out[r, y] = hi + math.log(math.exp(a_ - hi) + math.exp(lg[y] - hi)) - lw
                level_used[r] = L
                break


@njit(cache=True)
def _mutual_information(set_offsets, first, last, n_classes, counts, out):
    """Eq. 2: MI(X_s; Y) in bits from the unsmoothed counts of each set s in [first, last)."""
    C = n_classes
    ny = np.empty(C)
    for s in range(first, last):
        total = 0.0
        for y in range(C):
            ny[y] = 0.0
        for cell in range(set_offsets[s], set_offsets[s + 1], C):
            for y in range(C):
                ny[y] += counts[cell + y]
        for y in range(C):
            total += ny[y]
        mi = 0.0
        if total > 0:
            for cell in range(set_offsets[s], set_offsets[s + 1], C):
                tx = 0.0
                for y in range(C):
                    tx += counts[cell + y]
                for y in range(C):
                    c = counts[cell + y]
                    if c > 0:
                        mi += c / total * math.log2(c * total / (tx * ny[y]))
        out[s] = mi


# --------------------------------------------------------------------------- estimator
class AnDE(ClassifierMixin, BaseEstimator):
    """Averaged n-Dependence Estimators with optional subsumption resolution and MI weighting.

    Parameters
    ----------
    n : int in 0..3, default=1
        Number of super-parents (0 = naive Bayes, 1 = AODE/A1DE, 2 = A2DE, 3 = A3DE).
    smoothing : {"m_estimate", "laplace"}, default="m_estimate"
        Seed 003: "Probability estimates were smoothed using m-estimation with m = 1".
        Weka's AODE default is Laplace.
    m : float, default=1.0
        The m of the m-estimate (Weka's ``-W``).
    subsumption : bool, default=False
        Subsumption resolution (the "-S" variants).
    sr_threshold : int, default=100
        Minimum count (exclusive) of the specialisation value: 100 in seed 003, 50 in
        Weka's AODEsr (``-C``).
    weighting : {"none", "mi"}, default="none"
        "mi": weight each parent set by its mutual information with the class (Eq. 2,
        the "-W" variants).
    min_parent_count : int, default=1
        ``delta(x_s) = 1`` when ``#(x_s) >= min_parent_count`` (Weka's ``-F``; 1 is Eq. 1).
        0 uses every parent set (Weka's WAODE).
    missing : {"skip", "value"}, default="skip"
        Missing values left out of counts and of test-time products (Weka's AODE), or
        treated as a value of their own.
    categorical_features : array of bool or None
        Injected by the runner; every column must be nominal (discretise numeric ones).
    n_categories : array of int or None
        Declared number of values per column (injected by the runner: Weka's value lists
        from the whole file, or the bins of the discretiser). None: ``max code + 1`` of the
        first batch.
    max_table_bytes : int or "auto", default="auto"
        Memory guard for the count tables ("auto": half the physical memory).
    block_rows : int, default=4096
        Rows per block of the counting kernel.

    Attributes
    ----------
    classes_ : array of class labels
    n_values_ : (d,) values per attribute as counted (plus one for ``missing="value"``)
    counts_ : :class:`algorithms._counts.AllSubsetCounts`
    weights_ : (n_sets,) MI weight per parent set (flat set index), ones when unweighted
    bench_extra_ : dict with the table size
    """

    def __init__(self, n=1, smoothing="m_estimate", m=1.0, subsumption=False, sr_threshold=100,
                 weighting="none", min_parent_count=1, missing="skip", categorical_features=None,
                 n_categories=None, max_table_bytes="auto", block_rows=BLOCK_ROWS):
        self.n = n
        self.smoothing = smoothing
        self.m = m
        self.subsumption = subsumption
        self.sr_threshold = sr_threshold
        self.weighting = weighting
        self.min_parent_count = min_parent_count
        self.missing = missing
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.max_table_bytes = max_table_bytes
        self.block_rows = block_rows

    # ------------------------------------------------------------------ checks
    def _check_params(self):
        if self.n not in (0, 1, 2, 3):
            raise ValueError(f"n must be 0, 1, 2 or 3, got {self.n!r}")
        if self.smoothing not in ("m_estimate", "laplace"):
            raise ValueError(f"smoothing must be 'm_estimate' or 'laplace', got {self.smoothing!r}")
        if self.smoothing == "m_estimate" and not (isinstance(self.m, (int, float)) and self.m > 0):
            raise ValueError(f"m must be a positive number, got {self.m!r}")
        if self.weighting not in ("none", "mi"):
            raise ValueError(f"weighting must be 'none' or 'mi', got {self.weighting!r}")
        if self.missing not in ("skip", "value"):
            raise ValueError(f"missing must be 'skip' or 'value', got {self.missing!r}")
        if int(self.min_parent_count) < 0:
            raise ValueError(f"min_parent_count must be >= 0, got {self.min_parent_count!r}")

    def _declared_values(self, X) -> np.ndarray:
        d = X.shape[1]
        cat = None if self.categorical_features is None else np.asarray(self.categorical_features, dtype=bool)
        if cat is not None and cat.shape != (d,):
            raise ValueError(f"categorical_features has {cat.size} entries for {d} columns")
        if self.n_categories is not None:
            nc = np.asarray(self.n_categories, dtype=np.int64)
            if nc.shape != (d,):
                raise ValueError(f"n_categories has {nc.size} entries for {d} columns")
            numeric = (nc <= 0) if cat is None else (~cat | (nc <= 0))
        else:
            nc = None
            numeric = np.zeros(d, dtype=bool) if cat is None else ~cat
        if numeric.any():
            cols = np.flatnonzero(numeric)
            raise ValueError(
                f"{type(self).__name__} needs nominal attributes, but columns {cols[:10].tolist()}"
                f"{' ...' if cols.size > 10 else ''} are numeric; discretise them first (e.g. the MDL "
                f"discretiser as a preprocess step: algorithms.discretize.MDLDiscretizer)")
        if nc is None:
            nc = np.maximum(infer_n_values(X), 1)
        return nc

    def _validate(self, X, reset: bool):
        X = validate_data(self, X, reset=reset, ensure_all_finite="allow-nan", dtype=np.float64)
        return X

    # ------------------------------------------------------------------ training
    def fit(self, X, y):
        """Count the training data in one pass (Eq. 1 needs counts of all subsets of size <= n+1)."""
        for attr in ("counts_", "classes_", "_model"):
            if hasattr(self, attr):
                delattr(self, attr)
        self._partial_fit(X, y, classes=None, first=True)
        self._finalise()
        return self

    def partial_fit(self, X, y, classes=None):
        """Add a chunk to the counts; the counts equal those of one ``fit`` on all chunks.

        ``classes`` (all class labels) is needed on the first call unless that chunk holds them all.
        """
        first = not hasattr(self, "counts_")
        self._partial_fit(X, y, classes=classes, first=first)
        self._model = None
        return self

    def _partial_fit(self, X, y, classes, first: bool):
        self._check_params()
        X, y = validate_data(self, X, y, reset=first, ensure_all_finite="allow-nan", dtype=np.float64)
        if y.dtype.kind not in "iub":   # integer labels are class labels; others may be continuous
            check_classification_targets(y)
        if first:
            labels = class_codes(y)[0] if classes is None else np.unique(np.asarray(classes))  # sorted
            if labels.size < 2:
                raise ValueError(f"{type(self).__name__} needs at least 2 classes to learn from; got 1 class "
                                 f"({labels[0].tolist()!r})" if labels.size else "no training rows")
            self.classes_ = labels
            declared = self._declared_values(X)
            self.n_values_ = declared + (1 if self.missing == "value" else 0)
            self._declared_ = declared
            max_order = min(self.n + 1, X.shape[1])
            if self.subsumption:
                max_order = max(max_order, min(2, X.shape[1]))
            self.counts_ = AllSubsetCounts.allocate(self.n_values_, self.classes_.size, max_order,
                                                    self.max_table_bytes, what=f"A{self.n}DE count tables",
                                                    expected_rows=X.shape[0])
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes {np.unique(classes)!r} differ from the first call's {self.classes_!r}")
        yc = class_codes(y, self.classes_)[1]
        codes = encode(X, self._declared_, self.missing, what="X")
        self.counts_.add(codes, encode_classes(yc, self.classes_.size), int(self.block_rows))

    def _finalise(self):
        """Derived arrays read by prediction: set totals, class-free counts, MI weights."""
        cnt = self.counts_
        n = self.n
        tot, cls = cnt.set_totals()
        free = cnt.class_free(max(n, 2 if self.subsumption else 1))
        weights = np.ones(tot.size)
        if self.weighting == "mi":
            for t in range(1, min(n, cnt.max_order) + 1):
                _mutual_information(cnt.set_offsets, int(cnt.set_start[t]), int(cnt.set_start[t + 1]),
                                    cnt.n_classes, cnt.counts, weights)
        o1 = cnt.set_start[1]
        child_a, child_b = Smoothing(self.smoothing, self.m).terms(cnt.n_values)
        self._model = {
            "child_a": child_a, "child_b": child_b,
            "set_totals": tot.astype(np.float64),
            "order1_class_totals": cls[o1:o1 + cnt.n_values.size].astype(np.float64),
            "free_counts": free,
            "binom": cnt.binomials(),
        }
        self.weights_ = weights
        self.bench_extra_ = {"table_bytes": int(cnt.nbytes), "table_cells": int(cnt.counts.size),
                             "max_order": int(cnt.max_order)}

    # ------------------------------------------------------------------ prediction
    def _run(self, X):
        check_is_fitted(self, "counts_")
        X = self._validate(X, reset=False)
        if getattr(self, "_model", None) is None:
            self._finalise()
        codes = encode(X, self._declared_, self.missing, what="X")
        cnt, mdl = self.counts_, self._model
        n_test = codes.shape[0]
        out = np.empty((n_test, cnt.n_classes))
        level = np.empty(n_test, dtype=np.int64)
        n_kept = np.empty(n_test, dtype=np.int64)
        _ande_log_joint(codes, int(min(self.n, cnt.n_values.size)), cnt.n_values, cnt.n_classes,
                        cnt.missing_counts, cnt.counts, cnt.set_start, cnt.set_offsets, mdl["binom"],
                        cnt.class_counts.astype(np.float64), float(cnt.n_rows), mdl["set_totals"],
                        mdl["order1_class_totals"], mdl["free_counts"], self.weights_,
                        self.smoothing == "laplace", float(self.m), mdl["child_a"], mdl["child_b"],
                        int(self.min_parent_count),
                        bool(self.subsumption), int(self.sr_threshold), out, level, n_kept)
        return out, level, n_kept

    def predict_log_joint(self, X):
        """``log P(y, x)`` per row and class (Eq. 1), up to a constant per row."""
        return self._run(X)[0]

    def explain(self, X) -> dict:
        """Per row: ``level`` = n of the AnDE level that classified it (lower = fall-back)
        and ``n_kept`` = attributes left after missing values and subsumption resolution."""
        _, level, kept = self._run(X)
        return {"level": level, "n_kept": kept}

    def predict_log_proba(self, X):
        lj = self.predict_log_joint(X)
        return lj - _logsumexp_rows(lj)

    def predict_proba(self, X):
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        joint = self.predict_log_joint(X)
        return self.classes_[np.argmax(joint, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True  # nominal codes 0..k-1
        return tags


def _logsumexp_rows(a: np.ndarray) -> np.ndarray:
    hi = np.max(a, axis=1, keepdims=True)
    hi = np.where(np.isfinite(hi), hi, 0.0)
    return hi + np.log(np.sum(np.exp(a - hi), axis=1, keepdims=True))
