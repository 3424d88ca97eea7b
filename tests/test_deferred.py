"""bench._deferred: the command line imports scipy.stats on first use only."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_scipy_stats_deferred_until_first_use_and_then_real():
    code = textwrap.dedent("""
        import sys
        from bench._deferred import defer
        defer()
        import sklearn.base, sklearn.pipeline  # noqa: F401  (sklearn.utils.fixes imports scipy.stats)
        assert "scipy.stats._stats_py" not in sys.modules, "scipy.stats was imported eagerly"
        from scipy import stats as early  # the stand-in
        import scipy.stats
        assert scipy.stats.norm.cdf(0.0) == 0.5  # first use imports the real module
        assert "scipy.stats._stats_py" in sys.modules
        assert type(sys.modules["scipy.stats"]).__name__ == "module"
        assert early.rankdata([3, 1, 2]).tolist() == [3.0, 1.0, 2.0]  # the stand-in forwards
        from scipy.stats import rankdata  # noqa: F401
        import scipy.stats.distributions  # noqa: F401
        from sklearn.utils.fixes import _mode
        import numpy as np
        assert _mode(np.array([1, 1, 2])).mode.tolist() == [1]
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_defer_leaves_an_imported_module_alone():
    code = ("import sys, scipy.stats; real = sys.modules['scipy.stats']; from bench._deferred import defer; "
            "defer(); assert sys.modules['scipy.stats'] is real; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
