"""Weka 3.6's normal estimator (``weka.estimators.NormalEstimator`` as ``NaiveBayes`` uses it).

Weka's NaiveBayes (without ``-K``/``-D``) does not evaluate a normal *density*. Read from the
bytecode of Weka 3.6.14 (``NaiveBayes.buildClassifier`` / ``distributionForInstance``,
``NormalEstimator``, ``Statistics.normalProbability``):

* **Precision** (one per numeric attribute, from the whole training set, every class): the
  rows are sorted by the attribute (missing values last); walking the sorted non-missing
  values, every change of value adds ``current - previous`` to a running sum (sequential
  double additions) and counts one gap; ``precision = sum / gaps``. With no gap (fewer than
  two distinct values, or the attribute missing everywhere) the precision is 0.01. There is
  no lower floor (Weka's KernelEstimator has one; the NormalEstimator has none).
* **Rounding**: every value, training or test, becomes ``Math.rint(x / p) * p`` (ties to
  even, like ``np.rint``).
* **Training** (per attribute and class): the sums ``n = sum w``, ``s1 = sum w r`` and
  ``s2 = sum w r^2`` of the rounded values ``r`` (missing values skipped). After each value
  Weka sets ``mean = s1 / n`` and ``sd = sqrt(|s2 - mean * s1| / n)`` and, only when
  ``sd > 1e-10``, ``std = max(p / 6, sd)``; the initial ``std`` is ``p / 6`` and the initial
  mean 0 (a class that never saw the attribute keeps mean 0 and ``std = p / 6``). From the
  final sums this is :func:`weka_normal_params`. (Weka updates ``std`` value by value; the
  final-sum rule differs only if rounding noise made ``sd`` exceed 1e-10 and ``p / 6`` at an
  earlier step and fall below 1e-10 at the last one, which needs values about 1e7 grid
  cells from zero; this module does not model that.) Weka adds the values in the order its
  precision pass left the rows in (sorted by the last numeric attribute, by an unstable
  quicksort); this module adds them in row order, so ``s1`` and ``s2`` differ in the last bits and
  ``s2 - mean s1`` amplifies that: probabilities differ by up to ~1e-10 on magic (1e-12 to
  1e-14 once the rows are sorted like Weka's), far below the 1e-9 agreement tested.
* **Probability** of a test value ``x`` (rounded to ``r``): the mass of its grid cell,
  ``Phi((r - mean + p/2) / std) - Phi((r - mean - p/2) / std)``, with Weka's ``Phi``
  (Cephes' ``ndtr``: ``0.5 + 0.5 erf(x/sqrt 2)`` near 0, ``0.5 erfc(|x|/sqrt 2)`` or one minus
  it in the tails, each by Cephes' rational approximations). In the upper tail both terms are
  ``1 - tiny`` and the difference loses every digit below ~1e-16 (it is often exactly 0);
  NaiveBayes then floors each factor at 1e-75.

:func:`weka_ndtr` reproduces Weka's ``Phi`` operation by operation (the public Cephes
coefficients; only ``exp`` comes from the platform library, whose last bit can differ from
Java's ``Math.exp``), so :func:`weka_normal_logprob` with ``mode="weka"`` gives Weka's double
arithmetic including its upper-tail cancellation. ``mode="stable"`` instead computes the cell
mass accurately in both tails through ``log_ndtr`` (finite logs far from the mean); use it
where a model *should* be accurate rather than equal to Weka.

Weka's NaiveBayes combines the factors as a running product per class, starting from the
Laplace prior ``(n_y + 1) / (N + C)``: attribute by attribute, each class's product is
multiplied by ``max(1e-75, P)``; when the largest product falls below 1e-75 every product
is multiplied by 1e75; at the end they are divided by their sum. :func:`weka_nb_product`
is that loop (Numba), for the nominal (count) and numeric (cell) factors together.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["WEKA_DEFAULT_PRECISION", "WEKA_NB_FLOOR", "weka_precision", "weka_round", "weka_normal_params",
           "weka_normal_logprob", "weka_normal_sums", "weka_ndtr", "weka_cell_prob", "weka_nb_product"]

WEKA_DEFAULT_PRECISION = 0.01   # NaiveBayes' precision of an attribute with fewer than 2 distinct values
WEKA_NB_FLOOR = 1e-75           # NaiveBayes: each factor is at least this; products rescaled by 1/this
_SD_ZERO = 1e-10                # NormalEstimator: a standard deviation at most this means "no scale yet"
_SQRTH = 0.7071067811865476     # sqrt(1/2)
_MAXLOG = 709.782712893384

# Cephes ndtr.c rational approximations (public domain; the coefficients Weka's Statistics uses)
_ERF_T = np.array([9.604973739870516, 90.02601972038427, 2232.005345946843, 7003.325141128051,
                   55592.30130103949])
_ERF_U = np.array([33.56171416475031, 521.3579497801527, 4594.323829709801, 22629.000061389095,
                   49267.39426086359])
_ERFC_P = np.array([2.461969814735305e-10, 0.5641895648310689, 7.463210564422699, 48.63719709856814,
                    196.5208329560771, 526.4451949954773, 934.5285271719576, 1027.5518868951572,
                    557.5353353693994])
_ERFC_Q = np.array([13.228195115474499, 86.70721408859897, 354.9377788878199, 975.7085017432055,
                    1823.9091668790973, 2246.3376081871097, 1656.6630919416134, 557.5353408177277])
_ERFC_R = np.array([0.5641895835477551, 1.275366707599781, 5.019050422511805, 6.160210979930536,
                    7.4097426995044895, 2.9788666537210022])
_ERFC_S = np.array([2.2605286322011726, 9.396035249380015, 12.048953980809666, 17.08144507475659,
                    9.608968090632859, 3.369076451000815])


# --------------------------------------------------------------------------- Weka's Phi
@njit(cache=True, inline="always")
def _polevl(x, coef):
    """c0 x^N + ... + cN (Horner, Cephes polevl)."""
    ans = coef[0]
    for i in range(1, coef.shape[0]):
        ans = ans * x + coef[i]
    return ans


@njit(cache=True, inline="always")
def _p1evl(x, coef):
    """x^N + c0 x^(N-1) + ... + c(N-1) (leading coefficient 1, Cephes p1evl)."""
    ans = x + coef[0]
    for i in range(1, coef.shape[0]):
        ans = ans * x + coef[i]
    return ans


@njit(cache=True)
def _erf_poly(x):
    """erf for |x| <= 1 (Cephes T/U)."""
    z = x * x
    return x * _polevl(z, _ERF_T) / _p1evl(z, _ERF_U)


@njit(cache=True)
def _erfc_tail(a):
    """erfc for |a| >= 1 (Cephes P/Q below 8, R/S above; 0 or 2 on underflow)."""
    x = -a if a < 0.0 else a
    z = -a * a
    if z < -_MAXLOG:
        return 2.0 if a < 0.0 else 0.0
    z = math.exp(z)
    if x < 8.0:
        p = _polevl(x, _ERFC_P)
        q = _p1evl(x, _ERFC_Q)
    else:
        p = _polevl(x, _ERFC_R)
        q = _p1evl(x, _ERFC_S)
    y = (z * p) / q
    if a < 0.0:
        y = 2.0 - y
    if y == 0.0:
        return 2.0 if a < 0.0 else 0.0
    return y


@njit(cache=True)
def _erf(x):
    """Cephes erf: the T/U approximation up to |x| = 1, else 1 - erfc(x)."""
    return 1.0 - _erfc_tail(x) if abs(x) > 1.0 else _erf_poly(x)


@njit(cache=True)
def _erfc(a):
    """Cephes erfc: 1 - erf(a) below |a| = 1, else the P/Q or R/S approximation."""
    return 1.0 - _erf_poly(a) if abs(a) < 1.0 else _erfc_tail(a)


@njit(cache=True)
def weka_ndtr(a):
    """Standard normal CDF exactly as Weka 3.6's ``Statistics.normalProbability`` (Cephes ndtr)."""
    x = a * _SQRTH
    z = abs(x)
    if z < _SQRTH:
        return 0.5 + 0.5 * _erf(x)
    y = 0.5 * _erfc(z)
    if x > 0.0:
        y = 1.0 - y
    return y


@njit(cache=True)
def weka_cell_prob(r, mean, std, precision):
    """NormalEstimator.getProbability of an already rounded value ``r`` (Weka's operation order)."""
    half = precision / 2.0
    z_lo = (r - mean - half) / std
    z_hi = (r - mean + half) / std
    return weka_ndtr(z_hi) - weka_ndtr(z_lo)


@njit(cache=True)
def _cell_prob_flat(r, mean, std, precision, out):
    for i in range(r.shape[0]):
        out[i] = weka_cell_prob(r[i], mean[i], std[i], precision[i])


# --------------------------------------------------------------------------- public API
def weka_precision(X, nominal_mask=None) -> np.ndarray:
    """Per-column precision of Weka 3.6 NaiveBayes from the training matrix ``X`` (NaN = missing).

    ``precision = (sum of the gaps between consecutive distinct sorted values) / (number of
    gaps)``, the gaps added one by one in ascending order as Weka does; 0.01 for a column with
    fewer than two distinct non-missing values. Columns flagged in ``nominal_mask`` get NaN
    (Weka gives nominal attributes no precision). A 1-d ``X`` is one column.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2:
        raise ValueError(f"weka_precision needs a 2-d array (rows x columns), got shape {X.shape}")
    d = X.shape[1]
    nominal = np.zeros(d, dtype=bool) if nominal_mask is None else np.asarray(nominal_mask, dtype=bool)
    if nominal.shape != (d,):
        raise ValueError(f"nominal_mask has {nominal.size} entries for {d} columns")
    out = np.full(d, np.nan)
    S = np.sort(X, axis=0)                       # NaN sorts last, as Weka puts missing values last
    for j in np.flatnonzero(~nominal):           # a loop over columns, not rows
        col = S[:, j]
        col = col[~np.isnan(col)]
        if col.size == 0:
            out[j] = WEKA_DEFAULT_PRECISION
            continue
        change = np.flatnonzero(col[1:] != col[:-1])
        if change.size == 0:
            out[j] = WEKA_DEFAULT_PRECISION
            continue
        distinct = col[np.concatenate(([0], change + 1))]
        gaps = distinct[1:] - distinct[:-1]
        out[j] = np.add.accumulate(gaps)[-1] / gaps.size   # sequential sum, Weka's order
    return out


def weka_round(X, precision) -> np.ndarray:
    """``rint(x / p) * p`` per column (Weka's NormalEstimator/KernelEstimator ``round``).

    ``precision`` broadcasts against ``X``'s last axis; columns whose precision is NaN
    (nominal) and missing values are returned unchanged.
    """
    X = np.asarray(X, dtype=np.float64)
    p = np.asarray(precision, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        r = np.rint(X / p) * p
    return np.where(np.isnan(p), X, r)


def weka_normal_sums(X_rounded, y, n_classes):
    """Per (column, class): ``n``, ``s1 = sum r``, ``s2 = sum r^2`` of the non-missing rounded values
    (unit weights), each a (d, C) array, added in row order like Weka's ``addValue``."""
    Xr = np.ascontiguousarray(X_rounded, dtype=np.float64)
    if Xr.ndim != 2:
        raise ValueError(f"weka_normal_sums needs a 2-d array, got shape {Xr.shape}")
    yc = np.ascontiguousarray(y, dtype=np.int64)
    if yc.shape != (Xr.shape[0],):
        raise ValueError(f"y has {yc.size} entries for {Xr.shape[0]} rows")
    if yc.size and (yc.min() < 0 or yc.max() >= n_classes):
        raise ValueError(f"class codes must lie in 0..{n_classes - 1}")
    n = np.zeros((Xr.shape[1], n_classes))
    s1 = np.zeros_like(n)
    s2 = np.zeros_like(n)
    _sums(Xr, yc, n, s1, s2)
    return n, s1, s2


@njit(cache=True)
def _sums(X, y, n, s1, s2):
    rows, d = X.shape
    for i in range(rows):
        c = y[i]
        for j in range(d):
            v = X[i, j]
            if v == v:
                n[j, c] += 1.0
                s1[j, c] += v
                s2[j, c] += v * v


def weka_normal_params(n, s1, s2, precision):
    """(mean, std) of Weka's NormalEstimator from the weight sum ``n`` and the sums ``s1``, ``s2`` of
    the rounded values and their squares (arrays broadcast; ``precision`` e.g. shape (d, 1)).

    ``mean = s1 / n`` (0 when ``n = 0``); ``sd = sqrt(|s2 - mean s1| / n)``; ``std = max(p / 6, sd)``
    when ``sd > 1e-10``, else ``p / 6``.
    """
    n, s1, s2, p = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in (n, s1, s2, precision)))
    pos = n > 0
    safe_n = np.where(pos, n, 1.0)
    mean = np.where(pos, s1 / safe_n, 0.0)
    sd = np.sqrt(np.abs(s2 - mean * s1) / safe_n)
    floor = p / 6.0
    std = np.where(pos & (sd > _SD_ZERO), np.maximum(floor, sd), floor)
    return mean, std


def weka_normal_logprob(x_rounded, mean, std, precision, mode="weka", floor=0.0):
    """log P(grid cell of ``x_rounded``) under N(mean, std^2), arrays broadcast (NaN x gives NaN).

    ``mode="weka"``: ``log(max(floor, Phi(hi) - Phi(lo)))`` with Weka's ``Phi`` in double
    arithmetic (upper-tail cancellation included; ``-inf`` where Weka's difference is 0 and
    ``floor`` is 0). Pass ``floor=WEKA_NB_FLOOR`` for the factor Weka's NaiveBayes multiplies.
    ``mode="stable"``: the accurate log mass through ``log_ndtr``, mirrored into the lower
    tail, finite far from the mean (``floor`` still applies).
    """
    x, m, s, p = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in (x_rounded, mean, std, precision)))
    shape = x.shape
    if mode == "weka":
        flat = [np.ascontiguousarray(a).ravel() for a in (x, m, s, p)]
        prob = np.empty(flat[0].size)
        _cell_prob_flat(*flat, prob)
        prob = prob.reshape(shape)
        with np.errstate(divide="ignore"):
            out = np.log(np.maximum(prob, floor)) if floor > 0 else np.log(prob)
        return np.where(np.isnan(x), np.nan, out)
    if mode != "stable":
        raise ValueError(f"mode must be 'weka' or 'stable', got {mode!r}")
    half = p / 2.0
    lo = (x - m - half) / s
    hi = (x - m + half) / s
    upper = lo > 0                      # both ends above the mean: mirror, P = Phi(-lo) - Phi(-hi)
    a = np.where(upper, -hi, lo)
    b = np.where(upper, -lo, hi)
    from scipy.special import log_ndtr  # here, not at import: scipy.special costs ~0.1 s

    la, lb = log_ndtr(a), log_ndtr(b)   # a <= b
    with np.errstate(divide="ignore", invalid="ignore"):
        out = lb + np.log1p(-np.exp(la - lb))
    if floor > 0:
        out = np.maximum(out, math.log(floor))
    return np.where(np.isnan(x), np.nan, out)


@njit(cache=True)
def weka_nb_product(X, kind, col_slot, nom_offsets, nom_prob, mean, std, precision, prior, floor, out_log):
    """Weka NaiveBayes.distributionForInstance for every row, as log joint probabilities.

    X (n, d) raw values (NaN = missing; nominal columns hold codes 0..k-1); ``kind[j]`` 1 for a
    nominal column, 0 for a numeric one, -1 for a column to skip; ``col_slot[j]`` its index among
    the nominal (into ``nom_offsets``) or the numeric columns (rows of ``mean``/``std``, entries of
    ``precision``). ``nom_prob[nom_offsets[q] + v * C + y]`` = P(value v | y) as Weka's
    DiscreteEstimator returns it. Per row: the product starts at ``prior``; each non-missing
    attribute, in column order, multiplies class y's product by ``max(floor, P)``; when the
    largest product is in (0, floor) all are multiplied by 1/floor. ``out_log[r, y]`` gets
    ``log(product) - (number of rescalings) log(1/floor)`` (``-inf`` where Weka's product
    underflowed to 0), so normalising it gives Weka's distribution.
    """
    n, d = X.shape
    C = prior.shape[0]
    scale = 1.0 / floor
    log_scale = math.log(scale)
    prod = np.empty(C)
    for r in range(n):
        for c in range(C):
            prod[c] = prior[c]
        rescaled = 0
        for j in range(d):
            v = X[r, j]
            if v != v or kind[j] < 0:
                continue
            q = col_slot[j]
            top = 0.0
            if kind[j] == 1:
                base = nom_offsets[q] + int(v) * C
                for c in range(C):
                    prod[c] *= max(floor, nom_prob[base + c])
                    if prod[c] > top:
                        top = prod[c]
            else:
                p = precision[q]
                rv = np.rint(v / p) * p
                for c in range(C):
                    prod[c] *= max(floor, weka_cell_prob(rv, mean[q, c], std[q, c], p))
                    if prod[c] > top:
                        top = prod[c]
            if top > 0.0 and top < floor:
                for c in range(C):
                    prod[c] *= scale
                rescaled += 1
        for c in range(C):
            out_log[r, c] = (math.log(prod[c]) if prod[c] > 0.0 else -np.inf) - rescaled * log_scale
