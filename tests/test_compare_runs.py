"""A comparison runs many jobs in one process (bench.compare.runs.run): no split may leave a file
descriptor open, or select() in bench.resources.run_limited fails once they pass 1024 (it did, after
about 1000 computed splits of a 12-algorithm comparison)."""

from __future__ import annotations

import os

from bench.resources import run_limited


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_run_limited_closes_its_pipes():
    before = _open_fds()
    for i in range(50):
        out = run_limited(lambda: i * 2, mem_limit_bytes=None, time_limit_s=30.0)
        assert out.value == i * 2
    assert _open_fds() == before
