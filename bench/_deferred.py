"""Deferred imports for the command line (issue 18: a run pays only for what it uses).

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

Only the ``python -m bench`` entry point calls :func:`defer`; library imports are untouched.
"""

from __future__ import annotations

import importlib
import sys
import types

#: modules deferred by :func:`defer`
DEFERRED = ("scipy.stats",)


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
        return real

    def __getattr__(self, attr):  # only for attributes the stand-in does not have
        return getattr(self._bench_load(), attr)

    def __dir__(self):
        return dir(self._bench_load())


def defer(names=DEFERRED) -> None:
    """Install the stand-ins (no-op for a module already imported)."""
    for name in names:
        if name not in sys.modules:
            parent, _, _ = name.rpartition(".")
            if parent:
                importlib.import_module(parent)  # the package itself is cheap (scipy: lazy submodules)
            sys.modules[name] = _Deferred(name)
