"""The warm-up's view of which Numba kernels a job needs: the kernel modules it reads from the
sources are exactly those that importing the estimator loads; the first-use message shows until
the algorithm was warmed here, and again once Numba's cache is emptied."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import warm
from bench.experiment_plan import algo_config

ROOT = Path(__file__).resolve().parents[1]

LOADED = """
import importlib, json, sys
from pathlib import Path
for m in sys.argv[1:]:
    importlib.import_module(m)
out = sorted(str(Path(mod.__file__).resolve()) for name, mod in list(sys.modules.items())
             if name.partition('.')[0] == 'algorithms' and getattr(mod, '__file__', None)
             and 'njit' in Path(mod.__file__).read_text())
print(json.dumps(out))
"""


@pytest.mark.parametrize("algo", ["massbayes", "nb", "kdb", "mctree"])
def test_kernel_modules_are_those_the_estimator_imports(algo):
    modules = warm._targets(algo_config(algo))
    proc = subprocess.run([sys.executable, "-c", LOADED, *modules], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [str(p.resolve()) for p in warm._kernel_files(modules)] == json.loads(proc.stdout)


def test_first_use_message_until_warmed(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCH_CACHE_DIR", str(tmp_path / "cache"))
    numba_cache = tmp_path / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(numba_cache))
    cfg = algo_config("massbayes")
    warm.notice_if_cold(cfg)
    assert "compiling the Numba kernels of massbayes" in capsys.readouterr().err
    numba_cache.mkdir()
    (numba_cache / "massbayes._kernel-1.py311.nbi").write_bytes(b"")   # Numba's index of a compiled kernel
    warm.notice_if_cold(cfg)
    assert "compiling" in capsys.readouterr().err           # compiled, but never warmed or run here
    warm.mark_warm(cfg)
    warm.notice_if_cold(cfg)
    assert capsys.readouterr().err == ""
    (numba_cache / "massbayes._kernel-1.py311.nbi").unlink()  # Numba's cache emptied (make clean)
    warm.notice_if_cold(cfg)
    assert "compiling" in capsys.readouterr().err
    warm.notice_if_cold(algo_config("gnb"))                 # scikit-learn's: no kernel, no message
    assert capsys.readouterr().err == ""
