"""bench.resources.timed_without_jit: Numba compilation inside a timed block is taken off the clocks
(the MassBayes Fig. 3 spike was a kernel compiled at the first size needing int32 counts)."""

import time
from types import SimpleNamespace

import numpy as np
from numba import njit

from bench.resources import Timing, _compile_seconds, timed, timed_without_jit


def _ev(start: bool):
    return SimpleNamespace(is_start=start, is_end=not start)


def test_nested_compiles_count_once():
    buf = [(0.0, _ev(True)), (0.5, _ev(True)), (1.5, _ev(False)), (2.0, _ev(False)),   # outer 0-2 holds 0.5-1.5
           (5.0, _ev(True)), (5.25, _ev(False))]
    assert _compile_seconds(buf) == 2.25
    assert _compile_seconds([]) == 0.0


def test_first_call_compile_is_taken_off_and_kept_apart():
    @njit  # no cache: compiled on the first call of each signature
    def total(x):
        s = 0.0
        for v in x:
            s += v * v
        return s

    x = np.arange(1000.0)
    first, plain = Timing(), Timing()
    with timed_without_jit(first):
        total(x)
    assert first.jit_s > 0.01                          # a real compile happened and was measured
    assert first.wall_s < first.jit_s                  # ... and is not in the algorithm's time
    with timed(plain):
        total(x.astype(np.float32))                    # a new signature, the old clock: compile counted
    assert plain.wall_s > first.wall_s
    again = Timing()
    with timed_without_jit(again):
        total(x)                                       # compiled already: nothing to take off
    assert again.jit_s == 0.0
    assert again.wall_s > 0.0


def test_work_outside_numba_is_still_counted():
    t = Timing()
    with timed_without_jit(t):
        time.sleep(0.05)
    assert t.wall_s >= 0.05 and t.jit_s == 0.0
