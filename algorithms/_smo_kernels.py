"""Numba kernels of :mod:`algorithms.smo`: Weka 3.6's ``SMO.BinarySMO`` for the linear kernel,
the pairwise vote, the statistics of ``ReplaceMissingValues`` and the shuffle of each pair's
data by ``java.util.Random``.

Every arithmetic expression is written in the order Weka evaluates it (Java evaluates ``a * b * c``
as ``(a * b) * c`` and sums in attribute order), so that the multipliers, the weight vector and
hence the votes follow Weka's double-precision arithmetic step for step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# java.util.Random: the 48-bit linear congruential generator of the Java API specification
_JAVA_MULT = np.uint64(0x5DEECE66D)
_JAVA_ADD = np.uint64(0xB)
_JAVA_MASK = np.uint64((1 << 48) - 1)
_INT31 = 2 ** 31

#: Weka's ``SMO.m_Del`` = 1000 * Double.MIN_VALUE, the precision margin when an alpha reaches 0 or C
WEKA_DEL = 1000 * 5e-324

# return codes of binary_smo
OK = 0
NO_BOUND_INDEX = 1   # Weka's "This should never happen!" (no i_up or i_low after a step)


@njit(cache=True)
def java_random_state(seed):
    """The state of ``new java.util.Random(seed)`` (``(seed ^ 0x5DEECE66D) & (2^48 - 1)``),
    as a one-element uint64 array that :func:`java_next_int` advances."""
    st = np.empty(1, dtype=np.uint64)
    st[0] = (np.uint64(seed) ^ _JAVA_MULT) & _JAVA_MASK
    return st


@njit(cache=True)
def _java_next31(st):
    """``Random.next(31)``."""
    s = (st[0] * _JAVA_MULT + _JAVA_ADD) & _JAVA_MASK
    st[0] = s
    return np.int64(s >> np.uint64(17))


@njit(cache=True)
def java_next_int(st, bound):
    """``Random.nextInt(bound)`` (bound > 0), rejection of the biased top range included."""
    r = _java_next31(st)
    m = bound - 1
    if (bound & m) == 0:
        return (bound * r) >> 31
    u = r
    r = u % bound
    while u - r + m >= _INT31:   # Java: u - r + m < 0 in 32-bit arithmetic (overflow)
        u = _java_next31(st)
        r = u % bound
    return r


@njit(cache=True)
def java_randomize(idx, st):
    """``Instances.randomize(random)`` on the row order ``idx`` (in place): for j = n-1 .. 1,
    swap j with ``random.nextInt(j + 1)``."""
    for j in range(idx.shape[0] - 1, 0, -1):
        k = java_next_int(st, j + 1)
        t = idx[j]
        idx[j] = idx[k]
        idx[k] = t


@njit(cache=True)
def column_means_sequential(X):
    """Weka's ``ReplaceMissingValues`` mean of each column: the known values summed in row order,
    divided by their number; 0 for a column with no known value. Returns (means, n_known)."""
    n, d = X.shape
    sums = np.zeros(d)
    known = np.zeros(d, dtype=np.int64)
    for i in range(n):
        for j in range(d):
            v = X[i, j]
            if not np.isnan(v):
                sums[j] += v
                known[j] += 1
    means = np.zeros(d)
    for j in range(d):
        if known[j] > 0:
            means[j] = sums[j] / known[j]
    return means, known


@njit(cache=True)
def _dot(X, i, j):
    """PolyKernel with exponent 1 (``Kernel.dotProd``): the attributes summed in order."""
    s = 0.0
    for k in range(X.shape[1]):
        s += X[i, k] * X[j, k]
    return s


@njit(cache=True)
def _output(w, X, i, b):
    """``BinarySMO.SVMOutput`` of training row i with the dense weight vector: sum - b."""
    s = 0.0
    for k in range(X.shape[1]):
        s += w[k] * X[i, k]
    return s - b


@njit(cache=True)
def _up_side(i, alpha, y, C):
    """i in I1 or I2: (y = +1, alpha = 0) or (y = -1, alpha = C)."""
    return (y[i] == 1.0 and alpha[i] == 0.0) or (y[i] == -1.0 and alpha[i] == C)


@njit(cache=True)
def _low_side(i, alpha, y, C):
    """i in I3 or I4: (y = +1, alpha = C) or (y = -1, alpha = 0)."""
    return (y[i] == 1.0 and alpha[i] == C) or (y[i] == -1.0 and alpha[i] == 0.0)


@njit(cache=True)
def _set_insert(i, in0, nxt, prv, head):
    """``SMOset.insert``: a new element goes to the front of the list."""
    if not in0[i]:
        if head[1] == 0:
            head[0] = i
            nxt[i] = -1
            prv[i] = -1
        else:
            prv[head[0]] = i
            nxt[i] = head[0]
            prv[i] = -1
            head[0] = i
        in0[i] = True
        head[1] += 1


@njit(cache=True)
def _set_delete(i, in0, nxt, prv, head):
    """``SMOset.delete``."""
    if in0[i]:
        if head[0] == i:
            head[0] = nxt[i]
        else:
            nxt[prv[i]] = nxt[i]
        if nxt[i] != -1:
            prv[nxt[i]] = prv[i]
        in0[i] = False
        head[1] -= 1


@njit(cache=True)
def _take_step(i1, i2, F2, X, y, alpha, err, w, C, eps, delta, in0, nxt, prv, head, th, ib):
    """``BinarySMO.takeStep``: optimise alpha[i1], alpha[i2] jointly (Platt's analytic step,
    Keerthi et al.'s threshold bookkeeping). ``th`` = [b_up, b_low, b], ``ib`` = [i_up, i_low].
    Returns 1 on progress, 0 when no step was taken, -1 on Weka's "should never happen"."""
    C1 = C * 1.0   # m_C * weight (unit instance weights)
    C2 = C * 1.0
    if i1 == i2:
        return 0
    alph1 = alpha[i1]
    alph2 = alpha[i2]
    y1 = y[i1]
    y2 = y[i2]
    F1 = err[i1]
    s = y1 * y2
    # the box constraints on a2 (Platt 1998, eqs. 12.3-12.4)
    if y1 != y2:
        L = max(0.0, alph2 - alph1)
        H = min(C2, C1 + alph2 - alph1)
    else:
        L = max(0.0, alph1 + alph2 - C1)
        H = min(C2, alph1 + alph2)
    if L >= H:
        return 0
    k11 = _dot(X, i1, i1)
    k12 = _dot(X, i1, i2)
    k22 = _dot(X, i2, i2)
    eta = 2 * k12 - k11 - k22
    if eta < 0:
        # unconstrained maximum along the constraint line, then clipped (Platt eqs. 12.6-12.7)
        a2 = alph2 - y2 * (F1 - F2) / eta
        if a2 < L:
            a2 = L
        elif a2 > H:
            a2 = H
    else:
        # objective at both ends of the segment (Platt eq. 12.8)
        b = th[2]
        f1 = _output(w, X, i1, b)
        f2 = _output(w, X, i2, b)
        v1 = f1 + b - y1 * alph1 * k11 - y2 * alph2 * k12
        v2 = f2 + b - y1 * alph1 * k12 - y2 * alph2 * k22
        gamma = alph1 + s * alph2
        Lobj = (gamma - s * L) + L - 0.5 * k11 * (gamma - s * L) * (gamma - s * L) - \
            0.5 * k22 * L * L - s * k12 * (gamma - s * L) * L - \
            y1 * (gamma - s * L) * v1 - y2 * L * v2
        Hobj = (gamma - s * H) + H - 0.5 * k11 * (gamma - s * H) * (gamma - s * H) - \
            0.5 * k22 * H * H - s * k12 * (gamma - s * H) * H - \
            y1 * (gamma - s * H) * v1 - y2 * H * v2
        if Lobj > Hobj + eps:
            a2 = L
        elif Lobj < Hobj - eps:
            a2 = H
        else:
            a2 = alph2
    if abs(a2 - alph2) < eps * (a2 + alph2 + eps):
        return 0
    if a2 > C2 - delta * C2:
        a2 = C2
    elif a2 <= delta * C2:
        a2 = 0.0
    a1 = alph1 + s * (alph2 - a2)
    if a1 > C1 - delta * C1:
        a1 = C1
    elif a1 <= delta * C1:
        a1 = 0.0
    # the sets: only I0 = {0 < alpha < C} is kept as a list (its order decides ties below)
    if a1 > 0 and a1 < C1:
        _set_insert(i1, in0, nxt, prv, head)
    else:
        _set_delete(i1, in0, nxt, prv, head)
    if a2 > 0 and a2 < C2:
        _set_insert(i2, in0, nxt, prv, head)
    else:
        _set_delete(i2, in0, nxt, prv, head)
    # the weight vector of the linear machine
    d = X.shape[1]
    for k in range(d):
        w[k] += y1 * (a1 - alph1) * X[i1, k]
    for k in range(d):
        w[k] += y2 * (a2 - alph2) * X[i2, k]
    # the error cache of the unbound rows (Keerthi et al. 2001: F_i kept for i in I0)
    j = head[0] if head[1] > 0 else -1
    while j != -1:
        if j != i1 and j != i2:
            err[j] += y1 * (a1 - alph1) * _dot(X, i1, j) + y2 * (a2 - alph2) * _dot(X, i2, j)
        j = nxt[j]
    err[i1] += y1 * (a1 - alph1) * k11 + y2 * (a2 - alph2) * k12
    err[i2] += y1 * (a1 - alph1) * k12 + y2 * (a2 - alph2) * k22
    alpha[i1] = a1
    alpha[i2] = a2
    # b_up, b_low over I0 and the two changed rows (Keerthi et al. 2001, Sect. 4)
    b_low = -1.7976931348623157e308
    b_up = 1.7976931348623157e308
    i_low = -1
    i_up = -1
    j = head[0] if head[1] > 0 else -1
    while j != -1:
        if err[j] < b_up:
            b_up = err[j]
            i_up = j
        if err[j] > b_low:
            b_low = err[j]
            i_low = j
        j = nxt[j]
    for i in (i1, i2):
        if not in0[i]:
            if _low_side(i, alpha, y, C1):
                if err[i] > b_low:
                    b_low = err[i]
                    i_low = i
            else:
                if err[i] < b_up:
                    b_up = err[i]
                    i_up = i
    th[0] = b_up
    th[1] = b_low
    ib[0] = i_up
    ib[1] = i_low
    if i_low == -1 or i_up == -1:
        return -1
    return 1


@njit(cache=True)
def _examine(i2, X, y, alpha, err, w, C, tol, eps, delta, in0, nxt, prv, head, th, ib):
    """``BinarySMO.examineExample``: check row i2 against the current b_up / b_low and, when it
    violates optimality by more than 2 tol, take a step with i_low or i_up."""
    y2 = y[i2]
    if in0[i2]:
        F2 = err[i2]
    else:
        F2 = _output(w, X, i2, th[2]) + th[2] - y2
        err[i2] = F2
        if _up_side(i2, alpha, y, C) and F2 < th[0]:
            th[0] = F2
            ib[0] = i2
        elif _low_side(i2, alpha, y, C) and F2 > th[1]:
            th[1] = F2
            ib[1] = i2
    optimal = True
    i1 = -1
    if in0[i2] or _up_side(i2, alpha, y, C):
        if th[1] - F2 > 2 * tol:
            optimal = False
            i1 = ib[1]
    if in0[i2] or _low_side(i2, alpha, y, C):
        if F2 - th[0] > 2 * tol:
            optimal = False
            i1 = ib[0]
    if optimal:
        return 0
    if in0[i2]:
        # for an unbound i2 the better of the two (Keerthi et al.'s modification)
        if th[1] - F2 > F2 - th[0]:
            i1 = ib[1]
        else:
            i1 = ib[0]
    if i1 == -1:
        return -1
    return _take_step(i1, i2, F2, X, y, alpha, err, w, C, eps, delta, in0, nxt, prv, head, th, ib)


@njit(cache=True)
def binary_smo(X, y, C, tol, eps, delta):
    """``BinarySMO.buildClassifier`` for the linear kernel: rows ``X`` (in Weka's shuffled order),
    labels ``y`` in {-1, +1} (both present). Returns (w, b, alpha, n_steps, status): the weight
    vector and threshold of f(x) = w.x - b, the multipliers, the number of successful steps and
    0 (or :data:`NO_BOUND_INDEX` when Weka would have thrown "This should never happen!")."""
    m, d = X.shape
    alpha = np.zeros(m)
    err = np.zeros(m)
    w = np.zeros(d)
    in0 = np.zeros(m, dtype=np.bool_)
    nxt = np.full(m, -1, dtype=np.int64)
    prv = np.full(m, -1, dtype=np.int64)
    head = np.array([-1, 0], dtype=np.int64)          # first element of I0, its size
    th = np.array([-1.0, 1.0, 0.0])                   # b_up, b_low, b (b stays 0 until the end)
    ib = np.array([-1, -1], dtype=np.int64)           # i_up, i_low: the last row of each class
    for i in range(m):
        if y[i] == -1.0:
            ib[1] = i
        else:
            ib[0] = i
    err[ib[1]] = 1.0
    err[ib[0]] = -1.0
    n_steps = 0
    num_changed = 0
    examine_all = True
    while num_changed > 0 or examine_all:
        num_changed = 0
        if examine_all:
            for i in range(m):
                r = _examine(i, X, y, alpha, err, w, C, tol, eps, delta, in0, nxt, prv, head, th, ib)
                if r < 0:
                    return w, 0.0, alpha, n_steps, NO_BOUND_INDEX
                if r > 0:
                    num_changed += 1
                    n_steps += 1
        else:
            # Keerthi et al.'s modification 1: loop over the unbound rows until b_up and b_low meet
            for i in range(m):
                if alpha[i] > 0 and alpha[i] < C * 1.0:
                    r = _examine(i, X, y, alpha, err, w, C, tol, eps, delta, in0, nxt, prv, head, th, ib)
                    if r < 0:
                        return w, 0.0, alpha, n_steps, NO_BOUND_INDEX
                    if r > 0:
                        num_changed += 1
                        n_steps += 1
                    if th[0] > th[1] - 2 * tol:
                        num_changed = 0
                        break
        if examine_all:
            examine_all = False
        elif num_changed == 0:
            examine_all = True
    b = (th[1] + th[0]) / 2.0
    return w, b, alpha, n_steps, OK


@njit(cache=True)
def pairwise_votes(X, W, B, pair_i, pair_j, n_classes):
    """Votes of the pairwise machines (``SMO.distributionForInstance`` without logistic models):
    machine p votes for class pair_j[p] when sum_k x_k w_pk - b_p > 0 (the sum over the nonzero
    weights in attribute order, as Weka's sparse weight vector), else for pair_i[p]."""
    n, d = X.shape
    votes = np.zeros((n, n_classes))
    for r in range(n):
        for p in range(W.shape[0]):
            s = 0.0
            for k in range(d):
                if W[p, k] != 0.0:
                    s += X[r, k] * W[p, k]
            if s - B[p] > 0:
                votes[r, pair_j[p]] += 1.0
            else:
                votes[r, pair_i[p]] += 1.0
    return votes
