"""bench._deferred: the command line imports scipy.stats, scipy.linalg, ... on first use only."""

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


def test_scipy_linalg_and_sparse_linalg_deferred_until_first_use_and_then_real():
    """scikit-learn's imports leave scipy.linalg and scipy.sparse.linalg unimported; their first use
    imports them, and what scikit-learn computes with them is what numpy computes on its own."""
    code = textwrap.dedent("""
        import sys
        from bench._deferred import defer
        defer()
        import numpy as np
        import sklearn.base, sklearn.pipeline  # noqa: F401
        import sklearn.utils.extmath as extmath
        from sklearn.utils import fixes
        assert "scipy.linalg._basic" not in sys.modules, "scipy.linalg imported eagerly"
        assert "scipy.sparse.linalg._isolve" not in sys.modules, "scipy.sparse.linalg imported in full"
        import numba.np.arraymath  # noqa: F401  (Numba's BLAS check imports scipy.linalg.cython_blas)
        assert "scipy.linalg.cython_blas" in sys.modules and "scipy.linalg._basic" not in sys.modules
        rng = np.random.default_rng(0)
        a = rng.normal(size=(6, 6)); a = a @ a.T + 6 * np.eye(6); b = rng.normal(size=6)
        from numba import njit  # Numba's LAPACK (scipy.linalg.cython_lapack) through the stand-in
        assert np.allclose(njit(lambda m, v: np.linalg.solve(m, v))(a, b), np.linalg.solve(a, b))
        assert "scipy.linalg._basic" not in sys.modules
        # sparse_cg through scikit-learn's handle on scipy.sparse.linalg.cg, taken while it was deferred
        x, info = fixes._sparse_linalg_cg(a, b, rtol=1e-12, atol=0.0)
        assert info == 0 and np.allclose(x, np.linalg.solve(a, b), rtol=1e-9, atol=1e-12)
        assert type(sys.modules["scipy.sparse.linalg"]).__name__ == "module"
        import scipy.sparse.linalg
        assert scipy.sparse.linalg.LinearOperator is fixes.laplacian.__globals__["LinearOperator"]
        assert callable(scipy.sparse.linalg.spsolve)
        # extmath's ``linalg`` (from scipy import linalg) forwards to the real scipy.linalg
        u, s, vt = extmath.randomized_svd(a, n_components=3, random_state=0, n_iter=8)
        assert np.allclose(s, np.linalg.svd(a, compute_uv=False)[:3], rtol=1e-8)
        import scipy.linalg
        assert type(sys.modules["scipy.linalg"]).__name__ == "module"
        assert np.allclose(scipy.linalg.solve(a, b), np.linalg.solve(a, b))
        assert scipy.linalg.cython_blas is sys.modules["scipy.linalg.cython_blas"]
        from sklearn.linear_model import Ridge
        X = rng.normal(size=(40, 5)); y = X @ np.arange(5.0) + rng.normal(size=40)
        cg = Ridge(alpha=1.0, fit_intercept=False, solver="sparse_cg", tol=1e-12).fit(X, y).coef_
        assert np.allclose(cg, np.linalg.solve(X.T @ X + np.eye(5), X.T @ y), rtol=1e-8)
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
