"""Registry of synthetic data generators.

A generator is a function ``gen(n_instances, seed, **params)`` returning a
:class:`Generated` (dense X with NaN for missing values, integer y, names).
Generators must be deterministic given ``seed`` and should build their data
with vectorised NumPy. Modules named ``bench/data/synthetic_*.py`` register more generators with
:func:`register` (the MassBayes synthetic sets, for example); they are imported
on first use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .dataset import DataError


@dataclass
class Generated:
    X: np.ndarray
    y: np.ndarray
    feature_names: list
    classes: list
    categorical: np.ndarray
    categories: list = field(default_factory=list)


GENERATORS: dict[str, Callable[..., Generated]] = {}


def register(name: str):
    """Decorator: register ``fn`` as synthetic generator ``name``."""

    def deco(fn):
        if name in GENERATORS and GENERATORS[name] is not fn:
            raise ValueError(f"synthetic generator {name!r} registered twice")
        GENERATORS[name] = fn
        return fn

    return deco


def generate(name: str, n_instances: int | None, seed: int, **params) -> Generated:
    _import_plugins()
    if name not in GENERATORS:
        raise DataError(
            f"unknown synthetic generator {name!r}; available: {', '.join(sorted(GENERATORS))}"
        )
    fn = GENERATORS[name]
    return fn(n_instances, seed, **params) if n_instances is not None else fn(seed=seed, **params)


def _import_plugins() -> None:
    """Import every ``bench/data/synthetic_*.py`` module so its generators register."""
    import importlib
    import pkgutil

    # this module's own folder (not ``bench.data.__path__``: importing the package from here
    # would close an import cycle, bench.data -> registry -> synthetic -> bench.data)
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("synthetic_"):
            importlib.import_module(f"{__package__}.{info.name}")


@register("mixed")
def mixed(n_instances: int = 600, seed: int = 0, n_numeric: int = 3, n_nominal: int = 3,
          n_classes: int = 3, missing_rate: float = 0.05) -> Generated:
    """A small mixed nominal/numeric problem with missing values, for smoke tests.

    Class y is uniform on ``n_classes``. Numeric attribute j ~ N(mu_{y,j}, 1) with
    mu_{y,j} = 1.5 * ((y + j) mod n_classes); nominal attribute j has 4 values and
    takes value (y + j) mod 4 with probability 0.6, otherwise a uniform value.
    Each cell is missing (NaN) with probability ``missing_rate``.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_instances)
    cols = []
    for j in range(n_numeric):
        cols.append(rng.normal(1.5 * ((y + j) % n_classes), 1.0))
    for j in range(n_nominal):
        informative = rng.random(n_instances) < 0.6
        cols.append(np.where(informative, (y + j) % 4, rng.integers(0, 4, n_instances)).astype(float))
    X = np.column_stack(cols)
    X[rng.random(X.shape) < missing_rate] = np.nan
    names = [f"num{j}" for j in range(n_numeric)] + [f"nom{j}" for j in range(n_nominal)]
    categorical = np.array([False] * n_numeric + [True] * n_nominal)
    categories = [None] * n_numeric + [["a", "b", "c", "d"]] * n_nominal
    return Generated(X, y, names, [f"c{k}" for k in range(n_classes)], categorical, categories)


@register("many_classes")
def many_classes(n_instances: int = 360, seed: int = 0, n_classes: int = 12, n_numeric: int = 4,
                 n_nominal: int = 4, n_values: int = 5, missing_rate: float = 0.02) -> Generated:
    """A small mixed problem with many classes, so that every ECOC code of the harness applies
    (``synth_many_classes``, for smoke runs).

    A BCH code of n bits needs ``2^(k-1) - 1 >= n`` valid columns and at most ``2^m`` classes
    (``algorithms.ecoc.bch_code_matrix``): the 1023-bit code needs k >= 11 and the 15-bit one
    k <= 32. At k = 11 every one of the 1023 possible columns must appear, and finding random
    BCH(1023, 11) codewords that do so took about 25 s of draws per matrix (still within the
    paper's 100000 draws); at k = 12 one is found at once, hence 12 classes.

    The classes are balanced (``n_instances // n_classes`` rows each, the remainder to the first
    classes), so every fold of a stratified 2-fold CV holds every class. Numeric attribute j of
    class c ~ N(mu_cj, 1) with mu_cj ~ N(0, 2.5^2) drawn once; nominal attribute j has
    ``n_values`` values and takes the class's own value (drawn once) with probability 0.7,
    otherwise a uniform one. Each cell is missing (NaN) with probability ``missing_rate``.
    """
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.arange(n_instances) % n_classes)
    mu = rng.normal(0.0, 2.5, size=(n_classes, n_numeric))
    own = rng.integers(0, n_values, size=(n_classes, n_nominal))
    num = mu[y] + rng.normal(size=(n_instances, n_numeric))
    keep = rng.random((n_instances, n_nominal)) < 0.7
    nom = np.where(keep, own[y], rng.integers(0, n_values, size=(n_instances, n_nominal))).astype(float)
    X = np.column_stack([num, nom])
    X[rng.random(X.shape) < missing_rate] = np.nan
    names = [f"num{j}" for j in range(n_numeric)] + [f"nom{j}" for j in range(n_nominal)]
    categorical = np.array([False] * n_numeric + [True] * n_nominal)
    values = [f"v{v}" for v in range(n_values)]
    categories = [None] * n_numeric + [values] * n_nominal
    return Generated(X, y, names, [f"c{k:02d}" for k in range(n_classes)], categorical, categories)


@register("gaussians")
def gaussians(n_instances: int = 1000, seed: int = 0, n_features: int = 5, n_classes: int = 2,
              separation: float = 1.0) -> Generated:
    """Isotropic Gaussian classes: class k has mean ``separation * e_(k mod d)``, unit variance."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_instances)
    means = np.zeros((n_classes, n_features))
    means[np.arange(n_classes), np.arange(n_classes) % n_features] = separation
    X = means[y] + rng.normal(size=(n_instances, n_features))
    return Generated(X, y, [f"x{j}" for j in range(n_features)], [f"c{k}" for k in range(n_classes)],
                     np.zeros(n_features, dtype=bool))


def warm_table(n: int, seed: int = 0):
    """A small table whose dtypes match real data, for loading an algorithm's kernels (``bench.warm``,
    ``bench.runner``): ``n`` rows, 6 numeric and 4 nominal attributes (3-5 values), 3 classes,
    ~2% missing."""
    import numpy as np

    from .dataset import Dataset

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    num = rng.normal(size=(n, 6)) + y[:, None] * np.linspace(0.2, 1.0, 6)
    card = np.array([3, 4, 5, 3])
    nom = (rng.integers(0, 1 << 30, size=(n, 4)) + y[:, None]) % card
    X = np.hstack([num, nom.astype(np.float64)])
    X[rng.random(X.shape) < 0.02] = np.nan
    cat = np.array([False] * 6 + [True] * 4)
    return Dataset("warm", X, y.astype(np.int64), ["a", "b", "c"], [f"x{j}" for j in range(10)], cat,
                   [None] * 6 + [[str(v) for v in range(k)] for k in card])
