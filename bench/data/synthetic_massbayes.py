"""Synthetic data of the MassBayes paper (Aryal and Ting 2013, Table 2 and the Fig. 3 scale-up test).

The paper gives no formulas. RingCurve and Wave are "subsets of the RingCurve-Wave-TriGaussian
data set used in [Ting and Wells 2010]", and the scale-up test uses "the 48-dimensional (42
irrelevant attributes with constant values) RingCurve-Wave-TriGaussian data set"; OneBig is
"the data set used in [Nanopoulos et al. 2006]". The definitions below are reconstructions
from those descriptions (the shapes the names say, Table 2's sizes and class counts, and the
accuracies of Table 3, which show that the classes are separable by MassBayes and nearly so by
axis-wise methods); each generator's docstring states its definition exactly.

Everything is deterministic given ``seed``. The 48-dimensional set is generated chunk by
chunk from ``SeedSequence([seed, chunk_index])``, so any N can be produced with bounded memory
and the data set of size N is a prefix of every larger one.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .synthetic import Generated, register

#: the three 2-D subspaces of RingCurve-Wave-TriGaussian and their classes
RCWT_CLASSES = ["ring", "curve", "wave_lower", "wave_upper", "gauss_1", "gauss_2", "gauss_3"]
RCWT_SUBSPACE = np.array([0, 0, 1, 1, 2, 2, 2])  # subspace of each class
#: where an instance sits in the two subspaces that are not its own (below-left of every shape)
RCWT_IDLE = np.array([[-2.5, -3.0], [-1.5, -2.5], [-3.0, -3.0]])
RCWT_IDLE_SD = 0.3
RCWT_INFORMATIVE = 6
RCWT_DIMENSIONS = 48
TRIGAUSS_CENTRES = np.array([[0.0, 0.0], [3.0, 0.0], [1.5, 2.6]])
TRIGAUSS_SD = 0.45


# ---------------------------------------------------------------- the 2-D shapes
def _ring(rng: np.random.Generator, n: int) -> np.ndarray:
    """Annulus around (0, 0): angle ~ U[0, 2 pi), radius ~ U[0.9, 1.1]."""
    theta = rng.uniform(0.0, 2 * np.pi, n)
    rho = rng.uniform(0.9, 1.1, n)
    return np.column_stack([rho * np.cos(theta), rho * np.sin(theta)])


def _curve(rng: np.random.Generator, n: int) -> np.ndarray:
    """Parabolic arc below and to the right of the ring: x ~ U[0.8, 3.5],
    y = -1.5 + 0.35 (x - 2)^2 + U[-0.05, 0.05]. Its nearest point to the origin is at
    distance 1.23, so a gap of at least 0.13 separates it from the ring; its start lies
    inside the ring's bounding box, where axis-wise (naive Bayes) models err."""
    x = rng.uniform(0.8, 3.5, n)
    y = -1.5 + 0.35 * (x - 2.0) ** 2 + rng.uniform(-0.05, 0.05, n)
    return np.column_stack([x, y])


def _wave(rng: np.random.Generator, n: int, upper: bool) -> np.ndarray:
    """Two periods of a sine band: x ~ U[0, 4 pi], y = sin(x) + U[-0.25, 0.25], shifted
    up by 1.2 for the upper wave. The bands are 0.7 apart vertically everywhere, but
    their y ranges overlap: y alone classifies about 79% correctly (Bayes rule), which is
    what the discretised AnDE/BayesNet models of Table 3 (78.51%) achieve."""
    x = rng.uniform(0.0, 4 * np.pi, n)
    y = np.sin(x) + rng.uniform(-0.25, 0.25, n) + (1.2 if upper else 0.0)
    return np.column_stack([x, y])


def _gauss(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """Isotropic Gaussian with centre TRIGAUSS_CENTRES[k] and standard deviation 0.45."""
    return TRIGAUSS_CENTRES[k] + TRIGAUSS_SD * rng.normal(size=(n, 2))


def _shape(rng: np.random.Generator, label: int, n: int) -> np.ndarray:
    if label == 0:
        return _ring(rng, n)
    if label == 1:
        return _curve(rng, n)
    if label in (2, 3):
        return _wave(rng, n, upper=label == 3)
    return _gauss(rng, n, label - 4)


def _balanced_labels(rng: np.random.Generator, n: int, n_classes: int) -> np.ndarray:
    """Class codes with counts as equal as possible (the first n mod c classes get one more), shuffled."""
    return rng.permutation(np.arange(n) % n_classes)


def _two_class_2d(n_instances: int, seed: int, labels: tuple[int, int], names: list[str]) -> Generated:
    rng = np.random.default_rng(seed)
    y = _balanced_labels(rng, n_instances, 2)
    X = np.empty((n_instances, 2))
    for k, label in enumerate(labels):
        rows = np.flatnonzero(y == k)
        X[rows] = _shape(rng, label, rows.size)
    return Generated(X, y, ["x1", "x2"], names, np.zeros(2, dtype=bool))


@register("ringcurve")
def ringcurve(n_instances: int = 20000, seed: int = 0) -> Generated:
    """RingCurve (Table 2: 20000 x 2, 2 classes): the ring/curve subspace of RingCurve-Wave-TriGaussian.

    Classes ``ring`` and ``curve`` have n/2 instances each. ring: angle ~ U[0, 2 pi),
    radius ~ U[0.9, 1.1] around (0, 0). curve: x ~ U[0.8, 3.5], y = -1.5 + 0.35 (x - 2)^2
    + U[-0.05, 0.05]. The shapes do not touch (gap >= 0.13).
    """
    return _two_class_2d(n_instances, seed, (0, 1), ["ring", "curve"])


@register("wave")
def wave(n_instances: int = 20000, seed: int = 0) -> Generated:
    """Wave (Table 2: 20000 x 2, 2 classes): the wave subspace of RingCurve-Wave-TriGaussian.

    Classes ``wave_lower`` and ``wave_upper`` have n/2 instances each: x ~ U[0, 4 pi],
    y = sin(x) + U[-0.25, 0.25], plus 1.2 for the upper wave.
    """
    return _two_class_2d(n_instances, seed, (2, 3), ["wave_lower", "wave_upper"])


# ---------------------------------------------------------------- the 48-d scale-up set
def _rcwt_chunk(seed: int, index: int, size: int, n_constant: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(index), 0x4C57]))
    y = rng.integers(0, len(RCWT_CLASSES), size)
    X = np.zeros((size, RCWT_INFORMATIVE + n_constant))
    for s in range(3):  # every subspace starts at its idle spot...
        X[:, 2 * s:2 * s + 2] = RCWT_IDLE[s] + RCWT_IDLE_SD * rng.normal(size=(size, 2))
    for label in range(len(RCWT_CLASSES)):  # ...replaced by the class's shape in its own subspace
        rows = np.flatnonzero(y == label)
        s = RCWT_SUBSPACE[label]
        X[rows, 2 * s:2 * s + 2] = _shape(rng, label, rows.size)
    return X, y


def ringcurve_wave_trigaussian_chunks(n_instances: int, seed: int = 0, chunk_size: int = 50_000,
                                      n_constant: int = RCWT_DIMENSIONS - RCWT_INFORMATIVE
                                      ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(X, y)`` chunks of RingCurve-Wave-TriGaussian, ``chunk_size`` rows each (the last
    one shorter). Chunk i is drawn from ``SeedSequence([seed, i, ...])`` at full size and cut,
    so the first N rows are the same for every total size."""
    if n_instances < 0 or chunk_size < 1:
        raise ValueError(f"n_instances must be >= 0 and chunk_size >= 1; got {n_instances}, {chunk_size}")
    done = 0
    index = 0
    while done < n_instances:
        X, y = _rcwt_chunk(seed, index, chunk_size, n_constant)
        take = min(chunk_size, n_instances - done)
        yield X[:take], y[:take]
        done += take
        index += 1


@register("ringcurve_wave_trigaussian")
def ringcurve_wave_trigaussian(n_instances: int = 7000, seed: int = 0, chunk_size: int = 50_000,
                               n_constant: int = RCWT_DIMENSIONS - RCWT_INFORMATIVE) -> Generated:
    """RingCurve-Wave-TriGaussian, 48-dimensional (the Fig. 3 scale-up set): 6 informative and
    42 constant attributes, 7 classes, any N.

    Three 2-D subspaces hold seven shapes: (x1, x2) the ring and the curve of
    :func:`ringcurve`, (x3, x4) the two waves of :func:`wave`, (x5, x6) three Gaussians
    with centres (0, 0), (3, 0), (1.5, 2.6) and standard deviation 0.45. Each instance has a
    class drawn uniformly from the seven; its own subspace holds a point of its shape, and
    each of the two other subspaces a point N(idle, 0.3^2 I) around an idle spot away from
    every shape (RCWT_IDLE: (-2.5, -3), (-1.5, -2.5), (-3, -3)): the shapes are subspace
    clusters, and the classes are separable. Attributes x7..x48 are 0. Generated in chunks
    (see :func:`ringcurve_wave_trigaussian_chunks`).
    """
    parts = list(ringcurve_wave_trigaussian_chunks(n_instances, seed, chunk_size, n_constant))
    X = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, RCWT_INFORMATIVE + n_constant))
    y = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
    d = X.shape[1]
    return Generated(X, y, [f"x{j + 1}" for j in range(d)], list(RCWT_CLASSES), np.zeros(d, dtype=bool))


# ---------------------------------------------------------------- OneBig
ONEBIG_BIG, ONEBIG_SMALL, ONEBIG_SMALL_COUNT = 50_000, 2_000, 9


@register("onebig")
def onebig(n_instances: int = 68000, seed: int = 0, n_features: int = 20, big_fraction: float = 50 / 68,
           n_small: int = ONEBIG_SMALL_COUNT, big_sd: float = 10.0, small_sd: float = 5.0) -> Generated:
    """OneBig (Table 2: 68000 x 20, 10 classes): one big cluster and nine small ones.

    Reconstructed from the name and its source (Nanopoulos et al. 2006 test clustering
    on data sets of one big and several small clusters). Cluster k is class k. Centres are
    uniform in [0, 100]^20; the big cluster (class 0) holds round(68000 * 50/68) = 50000
    instances with standard deviation 10 per attribute, each of the nine small ones holds
    2000 instances with standard deviation 5. The clusters are well apart in 20
    dimensions (Table 3: every method is above 99.6%).
    """
    rng = np.random.default_rng(seed)
    big = int(round(n_instances * big_fraction))
    small = np.full(n_small, (n_instances - big) // n_small)
    small[: (n_instances - big) - small.sum()] += 1
    counts = np.concatenate([[big], small])
    centres = rng.uniform(0.0, 100.0, size=(n_small + 1, n_features))
    sds = np.concatenate([[big_sd], np.full(n_small, small_sd)])
    y = np.repeat(np.arange(n_small + 1), counts)
    X = centres[y] + sds[y, None] * rng.normal(size=(n_instances, n_features))
    order = rng.permutation(n_instances)
    return Generated(X[order], y[order], [f"a{j + 1}" for j in range(n_features)],
                     ["big"] + [f"small_{k + 1}" for k in range(n_small)], np.zeros(n_features, dtype=bool))


#: generators that can also yield their rows in chunks (used by the scale-up driver, bench.scaleup)
CHUNKED = {"ringcurve_wave_trigaussian": ringcurve_wave_trigaussian_chunks}
