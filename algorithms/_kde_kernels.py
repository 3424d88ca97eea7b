"""What the kernel density evaluations of NaiveBayes and ECOC-NB (``_ecoc_kernels``) share: the
insertion point of a query among the sorted kernel values, and the step of a density summed in
log space outward from it, which stops a side once no kernel further out can matter; and Weka's
step of a kernel's mass on the precision cell (:func:`weka_cell_add`). The insertion
point is also the one lower-bound search of the other kernels (the discretisers' bin codes, the
sorted keys of BNC's count trees)."""

from __future__ import annotations

import math

from numba import njit

KDE_CUTOFF = 40.0   # stop adding kernels worth less than e^-40 of the running sum


@njit(cache=True, inline="always")
def insertion_point(values, lo, hi, x):
    """The first index in ``values[lo:hi]`` (sorted) whose value is not below ``x``."""
    a, b = lo, hi
    while a < b:
        mid = (a + b) // 2
        if values[mid] < x:
            a = mid + 1
        else:
            b = mid
    return a


@njit(cache=True, inline="always")
def kde_add(z, w, log_wmax, top, acc):
    """Add the kernel at standardised distance ``z`` with weight ``w`` to the sum ``exp(top) * acc``
    (``top``: the largest log term so far). Returns ``(stop, top, acc)``: ``stop`` (the sum unchanged)
    when even the largest weight (``log_wmax``, its log) at this distance adds less than
    e^-KDE_CUTOFF of the sum, so that no kernel further out can."""
    t = -0.5 * z * z
    if t + log_wmax < top - KDE_CUTOFF:
        return True, top, acc
    t += math.log(w)
    if t > top:
        return False, t, acc * math.exp(top - t) + 1.0
    return False, top, acc + math.exp(t - top)


@njit(cache=True, inline="always")
def _normal_cdf(a):
    return 0.5 * math.erfc(-a * 0.7071067811865476)


@njit(cache=True, inline="always")
def weka_cell_add(delta, w, half, h, total, acc, seen):
    """One kernel (at distance ``delta`` from x, weight ``w``) of Weka's KernelEstimator.getProbability:
    its mass on the precision cell around x added to ``acc``, its weight to ``seen``. Returns
    ``(stop, acc, seen)``; ``stop``: the kernels left (weight ``total - seen``) cannot add 1% more."""
    cur = _normal_cdf((delta + half) / h) - _normal_cdf((delta - half) / h)
    acc += cur * w
    seen += w
    return cur * (total - seen) < acc * 0.01, acc, seen
