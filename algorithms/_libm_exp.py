"""exp(x) for -500 < x <= 0 written out in Numba, bit for bit the C library's ``exp``.

The HDP sampler (``algorithms._hdp_kernels.run_sampler``) spends most of its time in
``math.exp``: Numba compiles it to a call of the C library's ``exp`` (through glibc's
errno wrapper and its ifunc), which the compiler can neither inline nor overlap with
the rest of the loop. glibc >= 2.28 computes exp with a fixed sequence of operations
(Szabolcs Nagy's algorithm, also in ARM's optimized-routines and musl):
x = k ln2/128 + r, exp(x) = 2^(k/128) (1 + tail_k) exp(r), 2^(k/128) and tail_k from a
128-entry table, exp(r) - 1 by a degree-5 polynomial. On x86-64 CPUs with FMA and AVX2
glibc runs the build of that code compiled with ``-mfma``, in which the compiler fused
the products and sums into the FMAs that :func:`exp_nonpositive` performs explicitly
(``llvm.fma.f64``), in the same order. The table is derived here from its definition
(the correctly rounded 2^(k/128) and the rounded relative error of it) with 60-digit
decimals.

Equality with ``math.exp`` is not assumed: :func:`exp_table` compares the two on a fixed
set of inputs (every case below, a dense grid and 2^17 pseudo-random points of
(-500, 0]) the first time it is called in a process, and returns an empty table when a
single result differs (another C library, a CPU without FMA, a glibc built differently);
the sampler then calls ``math.exp`` as before. Either way its draws are the same.
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: the constants of glibc's exp (sysdeps/ieee754/dbl-64/e_exp_data.c), EXP_TABLE_BITS = 7
INV_LN2_N = float.fromhex("0x1.71547652b82fep7")  # 128 / ln 2
SHIFT = float.fromhex("0x1.8p52")
NEG_LN2_HI_N = float.fromhex("-0x1.62e42fefa0000p-8")
NEG_LN2_LO_N = float.fromhex("-0x1.cf79abc9e3b3ap-47")
C2 = float.fromhex("0x1.ffffffffffdbdp-2")
C3 = float.fromhex("0x1.555555555543cp-3")
C4 = float.fromhex("0x1.55555cf172b91p-5")
C5 = float.fromhex("0x1.1111167a4d017p-7")
#: below this (in absolute value) glibc returns 1 + x, i.e. exactly 1.0 for x <= 0
TINY = 2.0 ** -54
#: exp_nonpositive is valid on (-LOWER, 0]
LOWER = 500.0


@intrinsic
def _fma(typingctx, a, b, c):
    """a * b + c rounded once (``llvm.fma.f64``)."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.DoubleType(), [ir.DoubleType()] * 3)
        return builder.call(cgutils.get_or_insert_function(builder.module, fnty, "llvm.fma.f64"), args)

    return types.float64(types.float64, types.float64, types.float64), codegen


@intrinsic
def _bits(typingctx, x):
    """The IEEE bits of a float64 as uint64."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.uint64(types.float64), codegen


@intrinsic
def _from_bits(typingctx, x):
    """The float64 with these IEEE bits."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.uint64), codegen


@njit(cache=True, inline="always")
def exp_nonpositive(x, tab):
    """glibc's exp(x) for -LOWER < x <= 0 (its main path, branch-free; 1.0 for |x| < 2^-54
    as glibc's 1 + x). ``tab``: :func:`exp_table`'s non-empty table."""
    kd = _fma(x, INV_LN2_N, SHIFT)  # glibc: z = InvLn2N * x; kd = z + Shift (fused)
    ki = _bits(kd)
    kd = kd - SHIFT
    r = _fma(kd, NEG_LN2_HI_N, x)
    r = _fma(kd, NEG_LN2_LO_N, r)
    idx = (ki & np.uint64(127)) << np.uint64(1)
    tail = _from_bits(tab[idx])
    scale = _from_bits(tab[idx + np.uint64(1)] + (ki << np.uint64(45)))
    r2 = r * r
    tmp = _fma(r2 * r2, _fma(r, C5, C4), _fma(_fma(r, C3, C2), r2, tail + r))
    e = _fma(scale, tmp, scale)
    return 1.0 if x > -TINY else e


def _derive_table() -> np.ndarray:
    """glibc's __exp_data.tab: [2k] the bits of tail_k = (2^(k/128) - H_k) / H_k rounded, [2k+1] the
    bits of H_k = 2^(k/128) rounded, minus k << 45 (the exponent the caller adds back)."""
    getcontext().prec = 60
    n = 128
    ln2 = Decimal(2).ln()
    tab = np.zeros(2 * n, np.uint64)
    for k in range(n):
        exact = (ln2 * k / n).exp()
        h = float(exact)  # correctly rounded
        tail = float((exact - Decimal(h)) / Decimal(h))
        tab[2 * k] = np.float64(tail).view(np.uint64)
        tab[2 * k + 1] = np.uint64((int(np.float64(h).view(np.uint64)) - (k << 45)) % (1 << 64))
    return tab


@njit(cache=True)
def _mismatches(x, tab):
    bad = 0
    for i in range(x.shape[0]):
        if exp_nonpositive(x[i], tab) != math.exp(x[i]):
            bad += 1
    return bad


def _check_points() -> np.ndarray:
    edges = [0.0, -0.0, -TINY, -TINY / 2, -2 * TINY, -5e-324, -1e-300, -1e-17, -1e-16, -LOWER + 1e-9,
             -math.log(2) / 256, -math.log(2) / 128, -math.log(2), -1.0, -37.5, -100.0, -450.0]
    grid = -np.linspace(0.0, LOWER, 1 << 16, endpoint=False)
    rand = -np.random.default_rng(20260401).random(1 << 17) * LOWER
    small = -np.random.default_rng(20260402).random(1 << 14) * 1e-3
    return np.concatenate([edges, grid, rand, small, rand * 1e-6])


_TABLE: np.ndarray | None = None


def exp_table() -> np.ndarray:
    """The table for :func:`exp_nonpositive` when it agrees with ``math.exp`` (as Numba
    compiles it) on every checked point in this process, else an empty array (use math.exp)."""
    global _TABLE
    if _TABLE is None:
        tab = _derive_table()
        try:
            ok = _mismatches(_check_points(), tab) == 0
        except Exception:  # no FMA lowering etc.: keep math.exp
            ok = False
        _TABLE = tab if ok else np.zeros(0, np.uint64)
    return _TABLE
