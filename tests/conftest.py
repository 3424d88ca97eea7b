import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Every test gets its own user cache, so no test sees another's downloads."""
    monkeypatch.setenv("BENCH_CACHE_DIR", str(tmp_path / "cache"))
    from bench.data import registry

    registry._MEMO.clear()
    yield
    registry._MEMO.clear()


def run_bench(args, results_dir, env_extra=None, timeout=300, check=True):
    """Run ``python -m bench <args>`` as a subprocess from the project root."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(results_dir), **(env_extra or {})}
    proc = subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"bench failed ({proc.returncode}):\nSTDOUT:\n{proc.stdout[-3000:]}\n"
                             f"STDERR:\n{proc.stderr[-3000:]}")
    return proc
