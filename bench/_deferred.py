"""Deferred imports for the command line (a run pays only for what it uses).

scikit-learn's ``sklearn.base`` imports ``sklearn.utils.fixes``, which runs ``import
scipy.stats`` (about 1 s of CPU: distributions, ndimage, spatial, constants) for helpers
that a bench job rarely calls. :func:`defer` puts a stand-in module under that name
before scikit-learn is imported: ``import scipy.stats`` then costs nothing, and the first
attribute read from the stand-in (``scipy.stats.norm``, ``from scipy.stats import x``,
a submodule import) imports the real module, which replaces the stand-in in
``sys.modules`` and on the ``scipy`` package; the stand-in forwards to it from then on.
Nothing changes for code that uses scipy.stats, only when the import is paid.
(``importlib.util.LazyLoader`` does not help here: Python 3.11's import statement reads
``__spec__`` of a module found in ``sys.modules``, which makes a lazy module load.)

The same stand-ins defer ``scipy.special`` (imported by ``sklearn.utils._array_api`` for
``expit``/``logit``), and ``numpy.f2py`` and ``numpy.testing``, which scipy's bundled
array-API layer pulls in by copying every attribute of numpy (``clone_module``); for numpy's
submodules the stand-in is also set as the attribute of the package, because ``numpy.__getattr__``
would import them. pandas is *hidden* instead (:data:`HIDDEN`): ``sklearn.utils.fixes`` runs
``import pandas`` (about 0.4 s), but scikit-learn and narwhals decide whether an input may be a
DataFrame by looking for ``pandas`` in ``sys.modules``, so a stand-in must not stay there (the
first ``check_array`` would import pandas to test ``isinstance``). :func:`defer` therefore imports
``sklearn.utils.fixes`` with a stand-in for pandas in ``sys.modules`` and removes it afterwards:
the module keeps a ``pd`` that imports pandas when used, and no object can be a DataFrame while
pandas was never imported. ``sklearn.pipeline`` (which bench needs to measure a model's pickled
size) runs ``from sklearn.preprocessing import FunctionTransformer``, and that package imports
all its transformers, scipy.interpolate and scipy.optimize with them (about 0.3 s): a package
stand-in (:data:`PARTIAL`) holds ``FunctionTransformer`` from its own submodule and has the
package's ``__path__``, so submodules import without the package's ``__init__``; any other
attribute imports the real package. ``sklearn.utils.fixes`` also runs ``import scipy.sparse.linalg``
(and ``scipy.sparse.csgraph``, which takes ``LinearOperator`` from it) and reads
``scipy.sparse.linalg.cg``; the package imports ``scipy.linalg`` (LAPACK wrappers, decompositions:
about 0.1 s) for its solvers, and ``sklearn.utils.extmath`` runs ``from scipy import linalg``. Neither
is called by a job of bench's own learners. Both get package stand-ins (:data:`EARLY_PARTIAL`,
installed before ``hidden`` since scikit-learn reads them): ``scipy.linalg``'s holds no name but has
the package's ``__path__``, so Numba's ``import scipy.linalg.cython_blas`` (its BLAS check, run when
a kernel is first loaded) imports that extension alone; ``scipy.sparse.linalg``'s holds
``LinearOperator`` from its submodule and a ``cg`` that imports the real package when called
(:data:`ON_CALL`). :class:`LazyModule` is the same idea for bench's own modules: a
module-level ``pd`` that imports pandas on first use.

Only the ``python -m bench`` entry point calls :func:`defer`; library imports are untouched.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

#: modules deferred by :func:`defer`
DEFERRED = ("scipy.stats", "scipy.special", "numpy.f2py", "numpy.testing")
#: module -> the modules imported while it is hidden behind a stand-in (see the module docstring)
HIDDEN = {"pandas": ("sklearn.utils.fixes",)}
#: a name of a package stand-in's ``{name: submodule}`` that is a function imported on first call:
#: the stand-in holds a function that imports the real package and calls the package's own
ON_CALL = None
#: package -> {name: submodule or ON_CALL}: a package stand-in that already holds these names, taken
#: from their submodules alone (see the module docstring); installed after ``hidden``
PARTIAL = {"sklearn.preprocessing": {"FunctionTransformer": "_function_transformer"}}
#: the same, installed before ``hidden`` (the modules of ``hidden`` read these names when imported)
EARLY_PARTIAL = {"scipy.linalg": {}, "scipy.sparse.linalg": {"LinearOperator": "_interface", "cg": ON_CALL}}


class _Deferred(types.ModuleType):
    """Stand-in for a module not imported yet: the first attribute read imports it."""

    def __init__(self, name: str):
        super().__init__(name)
        self.__spec__ = None  # read by the import statement; must not trigger the import
        self._bench_real = None

    def _bench_load(self):
        real = self.__dict__.get("_bench_real")
        if real is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = importlib.import_module(self.__name__)
            self.__dict__["_bench_real"] = real
            # submodules imported through a package stand-in (its __path__) were set on the stand-in
            # and are already in sys.modules, so the real package's import did not set them on it
            prefix = self.__name__ + "."
            for mod_name, mod in list(sys.modules.items()):
                child = mod_name[len(prefix):]
                if mod_name.startswith(prefix) and "." not in child and not hasattr(real, child):
                    setattr(real, child, mod)
        return real

    def __getattr__(self, attr):  # only for attributes the stand-in does not have
        return getattr(self._bench_load(), attr)

    def __dir__(self):
        return dir(self._bench_load())


def _install(name: str) -> "_Deferred | None":
    if name in sys.modules:
        return None
    parent, _, child = name.rpartition(".")
    stand_in = _Deferred(name)
    sys.modules[name] = stand_in
    if parent:
        package = importlib.import_module(parent)  # the package itself is cheap (scipy: lazy submodules)
        if parent == "numpy":  # numpy.__getattr__ would import the submodule: answer with the stand-in
            setattr(package, child, stand_in)
    return stand_in


def _install_partial(name: str, names: dict) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)  # imports the parent package, not this one
    if spec is None or spec.submodule_search_locations is None:
        return
    stand_in = _Deferred(name)
    stand_in.__path__ = list(spec.submodule_search_locations)  # its submodules import without its __init__
    sys.modules[name] = stand_in
    try:
        for attr, sub in names.items():
            if sub is ON_CALL:
                setattr(stand_in, attr, _on_call(stand_in, attr))
            else:
                setattr(stand_in, attr, getattr(importlib.import_module(f"{name}.{sub}"), attr))
    except Exception:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        raise


def _on_call(stand_in: _Deferred, attr: str):
    """A function standing for ``attr`` of the package behind ``stand_in``: its first call imports the
    package, and every call is the package's own function with the same arguments."""

    def call(*args, **kwargs):
        return getattr(stand_in._bench_load(), attr)(*args, **kwargs)

    call.__name__ = call.__qualname__ = attr
    call.__module__ = stand_in.__name__
    return call


def defer(names=DEFERRED, hidden=HIDDEN, partial=PARTIAL, early=EARLY_PARTIAL) -> None:
    """Install the stand-ins (no-op for a module already imported) and the package stand-ins of
    ``early``, import the modules of ``hidden`` with their module hidden, and install the package
    stand-ins of ``partial``."""
    for name in names:
        _install(name)
    for name, attrs in early.items():
        _install_partial(name, attrs)
    for name, importers in hidden.items():
        stand_in = _install(name)
        try:
            for mod in importers:
                try:
                    importlib.import_module(mod)
                except ImportError:
                    pass
        finally:
            if stand_in is not None and sys.modules.get(name) is stand_in:
                del sys.modules[name]
    for name, attrs in partial.items():  # after ``hidden``: these import scikit-learn
        _install_partial(name, attrs)


class LazyModule:
    """A module-level name for module ``name`` that imports it on first attribute read
    (``pd = LazyModule("pandas")``). Unlike :func:`defer`'s stand-ins it never enters
    ``sys.modules``, so it is safe in library code."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_module", None)

    def __getattr__(self, attr):
        mod = object.__getattribute__(self, "_module")
        if mod is None:
            mod = importlib.import_module(object.__getattribute__(self, "_name"))
            object.__setattr__(self, "_module", mod)
        return getattr(mod, attr)

    def __repr__(self) -> str:
        return f"<lazy module {object.__getattribute__(self, '_name')!r}>"
