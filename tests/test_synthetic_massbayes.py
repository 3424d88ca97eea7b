"""The MassBayes synthetic data sets: Table 2 shapes and class counts, determinism, chunking."""

from __future__ import annotations

import numpy as np
import pytest

from bench.data import load
from bench.data.synthetic_massbayes import (
    onebig,
    ringcurve,
    ringcurve_wave_trigaussian,
    ringcurve_wave_trigaussian_chunks,
    wave,
)


@pytest.mark.parametrize("name,rows,features,classes", [
    ("ringcurve", 20000, 2, 2), ("wave", 20000, 2, 2), ("onebig", 68000, 20, 10),
    ("ringcurve_wave_trigaussian", 7000, 48, 7),
])
def test_registered_with_table2_shapes(name, rows, features, classes):
    ds = load(name)
    assert (ds.n_instances, ds.n_features, ds.n_classes) == (rows, features, classes)
    assert not np.isnan(ds.X).any()
    assert np.bincount(ds.y).min() > 0


def test_class_counts():
    assert np.bincount(ringcurve().y).tolist() == [10000, 10000]
    assert np.bincount(wave().y).tolist() == [10000, 10000]
    assert np.bincount(onebig().y).tolist() == [50000] + [2000] * 9


@pytest.mark.parametrize("gen", [ringcurve, wave, onebig])
def test_deterministic_by_seed(gen):
    a, b, c = gen(seed=3), gen(seed=3), gen(seed=4)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)


def test_ringcurve_shapes():
    g = ringcurve()
    r = np.hypot(g.X[:, 0], g.X[:, 1])
    ring = g.y == 0
    assert r[ring].min() >= 0.9 and r[ring].max() <= 1.1  # an annulus
    assert r[~ring].min() > 1.2  # the curve never touches it
    x, y = g.X[~ring].T
    assert np.all(np.abs(y - (-1.5 + 0.35 * (x - 2) ** 2)) <= 0.05)


def test_wave_bands_are_apart():
    g = wave()
    base = np.sin(g.X[:, 0])
    offset = g.X[:, 1] - base
    assert offset[g.y == 0].max() <= 0.25 and offset[g.y == 1].min() >= 0.95


def test_trigaussian_48d_layout():
    g = ringcurve_wave_trigaussian(7000, seed=1)
    assert np.all(g.X[:, 6:] == 0)  # 42 constant attributes
    assert np.ptp(g.X[:, :6], axis=0).min() > 1  # 6 informative ones
    ring = g.y == 0
    r = np.hypot(g.X[ring, 0], g.X[ring, 1])
    assert r.min() >= 0.9 and r.max() <= 1.1


def test_trigaussian_chunks_are_prefixes():
    small = ringcurve_wave_trigaussian(7000, seed=2, chunk_size=3000)
    big = ringcurve_wave_trigaussian(10000, seed=2, chunk_size=3000)
    assert np.array_equal(small.X, big.X[:7000]) and np.array_equal(small.y, big.y[:7000])
    chunks = list(ringcurve_wave_trigaussian_chunks(10000, seed=2, chunk_size=3000))
    assert [c[0].shape[0] for c in chunks] == [3000, 3000, 3000, 1000]
    assert np.array_equal(np.concatenate([c[0] for c in chunks]), big.X)


def test_plot_draws_the_informative_pairs(tmp_path):
    """`python -m bench.data plot`: the 48-d set shows its 6 informative attributes (3 panels);
    a dataset without two numeric attributes is refused with a clear message."""
    from bench.data import load
    from bench.data.plot import informative_columns, plot_dataset

    ds = load("ringcurve_wave_trigaussian")
    assert informative_columns(ds) == [0, 1, 2, 3, 4, 5]
    paths = plot_dataset(ds, tmp_path / "rcwt", max_rows=500)
    assert [p.name for p in paths] == ["rcwt.png", "rcwt.pdf", "rcwt.caption.md"]
    assert all(p.stat().st_size > 1000 for p in paths[:2]) and "first 500 of" in paths[2].read_text()
    import numpy as np
    from bench.data.dataset import Dataset

    one = Dataset("one", np.c_[np.arange(4.0), np.zeros(4)], np.array([0, 1, 0, 1]), ["a", "b"], ["u", "v"],
                  np.zeros(2, bool))
    with pytest.raises(ValueError, match="fewer than two non-constant numeric attributes"):
        plot_dataset(one, tmp_path / "one")
