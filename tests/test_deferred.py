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


def test_pandas_hidden_numpy_submodules_and_sklearn_preprocessing_deferred():
    code = textwrap.dedent("""
        import sys
        from bench._deferred import defer
        defer()
        import numpy as np
        import sklearn.base, sklearn.pipeline  # noqa: F401
        from sklearn.utils.validation import check_array
        check_array(np.zeros((2, 2)))
        assert "pandas" not in sys.modules, "pandas imported"
        assert "numpy.f2py.crackfortran" not in sys.modules and "numpy.testing._private" not in sys.modules
        assert "scipy.interpolate" not in sys.modules, "sklearn.preprocessing imported in full"
        np.testing.assert_array_equal(np.zeros(2), np.zeros(2))   # the stand-in imports the real one
        assert type(sys.modules["numpy.testing"]).__name__ == "module"
        from sklearn.preprocessing import StandardScaler, FunctionTransformer
        import sklearn.preprocessing as pre
        assert pre.FunctionTransformer is FunctionTransformer and pre._function_transformer is not None
        from sklearn.pipeline import Pipeline
        Pipeline([("s", StandardScaler())]).fit(np.zeros((3, 2)))
        from sklearn.utils import fixes
        import pandas
        assert fixes.pd.DataFrame is pandas.DataFrame   # the hidden stand-in forwards to the real pandas
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
