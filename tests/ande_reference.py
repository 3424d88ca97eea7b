"""A small reference A1DE with subsumption resolution and MI weighting, written from Zaidi and Webb 2013's
equations alone (Eq. 1 with n = 1, Eq. 2, section 2's subsumption resolution) in plain NumPy arrays and
Python loops, sharing no code with :mod:`algorithms.ande` (no count engine, no kernels, no Weka tables).

Used by ``tests/test_ande_reference_folds.py`` (the ``ande_sr`` folds of real datasets) and by
``scripts/ande_sr_subsumption_check.py``. Slow by design: every count is a NumPy reduction over the
training rows, every test row a Python loop over parents and children, products in log space.

Conventions (those of the paper's text, each stated where used):

* nominal codes ``0..k_j-1`` with ``NaN`` for a missing value, which is left out of every count and,
  at test time, out of the instance (as parent and as child);
* ``delta(x_p) = 1`` when ``x_p`` occurs in the training data; no qualifying parent: naive Bayes;
* m-estimates with m = 1: ``P(y, x_p) = (#(y, x_p) + m / (C k_p)) / (N_p + m)`` with ``N_p`` the rows
  where attribute p is observed, ``P(x_c | y, x_p) = (#(y, x_p, x_c) + m / k_c) / (#(y, x_p, c observed) + m)``;
* MI weight ``w_p = sum_{x, y} P(x, y) log2(P(x, y) / (P(x) P(y)))`` on the rows where p is observed
  (unsmoothed; non-empty cells), floored at 1e-100 so that a zero-information parent drops out;
* subsumption resolution: ``x_i`` is deleted when another value ``x_j`` of the instance has
  ``#(x_j) = #(x_i, x_j) > threshold`` (x_j is the specialisation, x_i the generalisation) and
  ``#(x_i) > #(x_j)``, or ``#(x_i) = #(x_j)`` and ``j < i`` ("we delete the one with the higher index").
"""

from __future__ import annotations

import math

import numpy as np

WEIGHT_FLOOR = 1e-100


class ReferenceA1DE:
    """A1DE (optionally -S, -W, -SW) from the paper's equations; ``k`` = values per attribute."""

    def __init__(self, X, y, k, n_classes, *, m=1.0, subsumption=False, threshold=100, weighting=False):
        X = np.asarray(X, dtype=float)
        self.X, self.y = X, np.asarray(y, dtype=np.int64)
        self.k = [int(v) for v in k]
        self.C, self.m = int(n_classes), float(m)
        self.subsumption, self.threshold, self.weighting = subsumption, threshold, weighting
        self.N = X.shape[0]
        self.d = X.shape[1]
        self.obs = ~np.isnan(X)
        codes = np.where(self.obs, X, -1).astype(np.int64)
        self.codes = codes
        # one-hot per attribute: onehot[j][r, v] = 1 when row r has x_j = v
        self.onehot = [(codes[:, j][:, None] == np.arange(self.k[j])[None, :]).astype(np.int64)
                       for j in range(self.d)]
        self.ycode = (self.y[:, None] == np.arange(self.C)[None, :]).astype(np.int64)   # (N, C)
        self.weights = np.array([self.mutual_information(j) for j in range(self.d)]) if weighting \
            else np.ones(self.d)

    # ---------------------------------------------------------------- counts
    def count(self, j, v):
        """#(x_j = v) over the training rows."""
        return int(np.sum(self.codes[:, j] == v))

    def count_pair(self, i, vi, j, vj):
        """#(x_i = vi, x_j = vj)."""
        return int(np.sum((self.codes[:, i] == vi) & (self.codes[:, j] == vj)))

    def mutual_information(self, j):
        rows = self.obs[:, j]
        n = rows.sum()
        if n == 0:
            return 0.0
        table = self.onehot[j][rows].T @ self.ycode[rows]           # (k_j, C) counts
        px = table.sum(1)
        py = table.sum(0)
        mi = 0.0
        for v in range(self.k[j]):
            for c in range(self.C):
                if table[v, c] > 0:
                    mi += table[v, c] / n * math.log2(table[v, c] * n / (px[v] * py[c]))
        return mi

    # ---------------------------------------------------------------- one instance
    def deleted(self, x):
        """Attributes subsumption resolution deletes from instance ``x`` (a set of indices)."""
        present = [j for j in range(self.d) if not math.isnan(x[j])]
        out = set()
        if not self.subsumption:
            return out
        for i in present:
            fi = self.count(i, int(x[i]))
            for j in present:
                if j == i:
                    continue
                fj = self.count(j, int(x[j]))
                if fj > self.threshold and self.count_pair(i, int(x[i]), j, int(x[j])) == fj and \
                        (fi > fj or (fi == fj and j < i)):
                    out.add(i)
                    break
        return out

    def log_joint(self, x):
        """``log P(y, x)`` per class (Eq. 1, n = 1; naive Bayes when no parent qualifies)."""
        dele = self.deleted(x)
        attrs = [j for j in range(self.d) if not math.isnan(x[j]) and j not in dele]
        terms, logw = [], []
        for p in attrs:
            xp = int(x[p])
            rows_p = self.codes[:, p] == xp
            if not rows_p.any():            # delta(x_p) = 0
                continue
            n_p = self.obs[:, p].sum()
            cy = self.ycode[rows_p].sum(0)                              # #(y, x_p)
            lp = np.log((cy + self.m / (self.C * self.k[p])) / (n_p + self.m))
            for c in attrs:
                if c == p:
                    continue
                both = rows_p & self.obs[:, c]
                den = self.ycode[both].sum(0)                           # #(y, x_p, c observed)
                num = self.ycode[both & (self.codes[:, c] == int(x[c]))].sum(0)
                lp = lp + np.log((num + self.m / self.k[c]) / (den + self.m))
            terms.append(lp)
            logw.append(math.log(max(self.weights[p], WEIGHT_FLOOR)))
        if not terms:
            cy = self.ycode.sum(0)
            lp = np.log((cy + self.m / self.C) / (self.N + self.m))
            for c in attrs:
                obs = self.obs[:, c]
                den = self.ycode[obs].sum(0)
                num = self.ycode[obs & (self.codes[:, c] == int(x[c]))].sum(0)
                lp = lp + np.log((num + self.m / self.k[c]) / (den + self.m))
            return lp
        T = np.array(terms) + np.array(logw)[:, None]
        hi = T.max(0)
        return hi + np.log(np.exp(T - hi).sum(0)) - _logsumexp(np.array(logw))

    def predict_proba(self, X):
        L = np.array([self.log_joint(x) for x in np.asarray(X, dtype=float)])
        L -= L.max(1, keepdims=True)
        P = np.exp(L)
        return P / P.sum(1, keepdims=True)


def _logsumexp(a):
    hi = a.max()
    return hi + math.log(np.exp(a - hi).sum())
