"""The step of a kernel density evaluated in log space, shared by NaiveBayes' ``_kde_log_density``
and ECOC-NB's ``_log_density`` (``_ecoc_kernels``): both sum the kernels outward from the query's
insertion point and stop a side once no kernel further out can matter."""

from __future__ import annotations

import math

from numba import njit

KDE_CUTOFF = 40.0   # stop adding kernels worth less than e^-40 of the running sum


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
