"""``java.util.Random`` in Python and Numba: the same numbers as Java for the same seed.

Java's generator is a 48-bit linear congruential generator (Knuth, TAOCP vol. 2, 3.2.1),
specified in the ``java.util.Random`` API documentation:

* ``new Random(seed)`` / ``setSeed(seed)``: the state is ``(seed XOR 0x5DEECE66D) mod 2**48``
  (the seed is a Java ``long``, so negative seeds are taken in two's complement);
* ``next(bits)``: ``state = (state * 0x5DEECE66D + 0xB) mod 2**48``, then the top ``bits``
  bits of the 48-bit state, as a Java ``int`` (signed for ``bits = 32``);
* ``nextInt()`` = ``next(32)``; ``nextLong()`` = ``(next(32) << 32) + next(32)`` (signed
  64-bit arithmetic); ``nextBoolean()`` = ``next(1) != 0``;
* ``nextInt(bound)``: for a power of two, ``(bound * next(31)) >> 31``; otherwise
  ``bits = next(31)``, ``val = bits % bound``, redrawn while ``bits - val + (bound - 1)``
  overflows a Java ``int`` (the rejection step that removes the modulo bias);
* ``nextDouble()`` = ``((next(26) << 27) + next(27)) * 2**-53``.

The ESKDB reference code (icesky0125/ESKDB-on-numerical-data) draws its random cut points
with ``new Random(seed).nextDouble()`` on consecutive seeds; :func:`first_double` is that
number (Numba, for the discretisation kernel of :mod:`algorithms.eskdb`) and
:func:`first_doubles` its vectorised NumPy form.

Tested against the output of a real JVM (``tests/test_java_random.py``, fixture
``tests/data/java_random_expected.txt``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

MULTIPLIER = 0x5DEECE66D
ADDEND = 0xB
MASK48 = (1 << 48) - 1
DOUBLE_UNIT = 1.0 / (1 << 53)
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_INT_MAX = (1 << 31) - 1


def _as_java_long(seed) -> int:
    """``seed`` as a Python int in Java's ``long`` range (ValueError otherwise)."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"a java.util.Random seed must be an integer; got {seed!r}")
    seed = int(seed)
    if not _LONG_MIN <= seed <= _LONG_MAX:
        raise ValueError(f"a java.util.Random seed must fit a Java long (64-bit signed); got {seed}")
    return seed


def _to_int32(v: int) -> int:
    """Two's complement reading of the low 32 bits (Java's ``(int)`` cast)."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= (1 << 31) else v


def _to_int64(v: int) -> int:
    """Two's complement reading of the low 64 bits (Java ``long`` arithmetic)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= (1 << 63) else v


class JavaRandom:
    """``java.util.Random``: the same sequence as Java for the same seed (module docstring).

    Parameters
    ----------
    seed : int
        A Java ``long`` (``-2**63 <= seed < 2**63``), as passed to ``new Random(seed)``.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int):
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        """``setSeed(seed)``: the scrambled 48-bit state ``(seed ^ 0x5DEECE66D) & (2**48 - 1)``."""
        self._state = (_as_java_long(seed) ^ MULTIPLIER) & MASK48

    @property
    def state(self) -> int:
        """The current 48-bit state."""
        return self._state

    def next(self, bits: int) -> int:
        """``next(bits)``: advance the LCG and return its top ``bits`` bits as a Java ``int``."""
        if not 1 <= bits <= 32:
            raise ValueError(f"bits must be in 1..32; got {bits}")
        self._state = (self._state * MULTIPLIER + ADDEND) & MASK48
        return _to_int32(self._state >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any Java ``int``) or ``nextInt(bound)`` (uniform on ``0..bound-1``)."""
        if bound is None:
            return self.next(32)
        if isinstance(bound, (bool, np.bool_)) or not isinstance(bound, (int, np.integer)):
            raise ValueError(f"bound must be an integer; got {bound!r}")
        bound = int(bound)
        if not 0 < bound <= _INT_MAX:
            raise ValueError(f"bound must be positive and fit a Java int; got {bound}")
        if bound & -bound == bound:  # a power of two: the high bits, no rejection
            return (bound * self.next(31)) >> 31
        while True:
            bits = self.next(31)
            val = bits % bound
            if bits - val + (bound - 1) <= _INT_MAX:  # else the int sum overflows: reject, redraw
                return val

    def next_long(self) -> int:
        """``nextLong()``: ``((long) next(32) << 32) + next(32)`` in signed 64-bit arithmetic."""
        hi = self.next(32)
        lo = self.next(32)
        return _to_int64((hi << 32) + lo)

    def next_boolean(self) -> bool:
        """``nextBoolean()``: ``next(1) != 0``."""
        return self.next(1) != 0

    def next_double(self) -> float:
        """``nextDouble()``: 53 random bits (26 then 27) times ``2**-53``, in [0, 1)."""
        hi = self.next(26)
        lo = self.next(27)
        return ((hi << 27) + lo) * DOUBLE_UNIT


# ---------------------------------------------------------------- Numba: the state as a uint64
@njit(cache=True)
def scramble(seed):
    """``new Random(seed)``'s 48-bit state for an int64 ``seed`` (Numba; a uint64)."""
    return (np.uint64(seed) ^ np.uint64(MULTIPLIER)) & np.uint64(MASK48)


@njit(cache=True)
def next_double_state(state):
    """``nextDouble()`` from a 48-bit ``state`` (Numba): returns ``(value, new state)``.
    Unsigned arithmetic wraps modulo 2**64, which is exact modulo 2**48."""
    mask = np.uint64(MASK48)
    mult = np.uint64(MULTIPLIER)
    add = np.uint64(ADDEND)
    s = (state * mult + add) & mask
    hi = s >> np.uint64(22)  # next(26)
    s = (s * mult + add) & mask
    lo = s >> np.uint64(21)  # next(27)
    return float((hi << np.uint64(27)) + lo) * DOUBLE_UNIT, s


@njit(cache=True)
def first_double(seed):
    """``new Random(seed).nextDouble()`` for an int64 ``seed`` (Numba)."""
    value, _ = next_double_state(scramble(seed))
    return value


def first_doubles(seeds) -> np.ndarray:
    """``new Random(s).nextDouble()`` for every Java ``long`` in ``seeds`` (vectorised)."""
    seeds = np.asarray(seeds)
    if seeds.dtype.kind not in "iu":
        raise ValueError(f"seeds must be integers; got dtype {seeds.dtype}")
    s = seeds.astype(np.int64).view(np.uint64) if seeds.dtype.kind == "i" else seeds.astype(np.uint64)
    mask, mult, add = np.uint64(MASK48), np.uint64(MULTIPLIER), np.uint64(ADDEND)
    with np.errstate(over="ignore"):
        s = (s ^ mult) & mask
        s = (s * mult + add) & mask
        hi = s >> np.uint64(22)
        s = (s * mult + add) & mask
        lo = s >> np.uint64(21)
    return ((hi << np.uint64(27)) + lo).astype(np.float64) * DOUBLE_UNIT
