"""Hand implementations the statistics tests compare bench's instruments with: written from the
papers' formulas, by enumeration or brute force, with no code of bench."""

from __future__ import annotations

import itertools

import numpy as np
from scipy.stats import rankdata


def signflip_p(d) -> float:
    """Two-sided exact p-value of Wilcoxon's signed-rank statistic by enumerating every sign
    assignment of the nonzero differences: mid-ranks of |d| over all differences, zeros ranked but on
    neither side (split), statistic R+ - R-, p = share of assignments with |S| >= |S_observed|."""
    d = np.asarray(d, dtype=float)
    r = rankdata(np.abs(d))
    nz = np.flatnonzero(d != 0)
    observed = abs(np.sum(np.sign(d) * r))
    count = total = 0
    for signs in itertools.product((-1.0, 1.0), repeat=nz.size):
        s = abs(np.dot(signs, r[nz]))
        count += s >= observed - 1e-9
        total += 1
    return count / total
