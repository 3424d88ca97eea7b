"""bench.scaleup with ``preprocess_rows: all``: a partial_fit learner's discretiser is fitted on all N rows
(the MassBayes discretisation-time experiment, MB11), not on the first chunk; the default is unchanged."""

import numpy as np
import pytest

from algorithms.discretize import MDLDiscretizer
from bench.data import Dataset
from bench.experiment_plan import algo_config
from bench.scaleup import _fill, _materialise, _preprocess_rows, chunk_source, train_scaled


def _setup(chunk):
    chunks, _ = chunk_source("ringcurve_wave_trigaussian", chunk)
    X0, y0 = next(chunks(chunk, 0))
    classes = np.arange(7)
    meta = Dataset("rwt", X0, y0, [str(c) for c in classes], [f"x{j}" for j in range(X0.shape[1])],
                   np.zeros(X0.shape[1], bool))
    return chunks, meta, classes


@pytest.mark.parametrize("prep_all", [False, True])
def test_discretiser_fitted_on_all_rows_or_the_first_chunk(prep_all):
    n, chunk = 3000, 700
    chunks, meta, classes = _setup(chunk)
    out = train_scaled(algo_config("nb_disc"), chunks, n, 0, 0, meta, classes, 10**6, prep_all=prep_all)
    X, y = _materialise(chunks(n, 0))
    rows = slice(None) if prep_all else slice(0, chunk)
    ref = MDLDiscretizer().fit(X[rows], y[rows])    # the same discretiser, fitted directly on those rows
    got = out["steps"][0].cut_points_
    assert len(got) == len(ref.cut_points_) and all(np.array_equal(a, b) for a, b in zip(got, ref.cut_points_))
    assert out["mode"] == "partial_fit" and out["prep"].cpu_s > 0
    # the model is trained on all n rows either way: its class counts sum to n
    assert int(np.asarray(out["est"].class_counts_).sum()) == n


def test_fill_is_the_concatenation_and_checks_the_count():
    chunks, _, _ = _setup(400)
    X, y = _fill(chunks(1000, 3), 1000, 48)
    Xr, yr = _materialise(chunks(1000, 3))
    np.testing.assert_array_equal(X, Xr)
    np.testing.assert_array_equal(y, yr)
    with pytest.raises(ValueError, match="gave 1000 rows, not 1200"):
        _fill(chunks(1000, 3), 1200, 48)


def test_unknown_preprocess_rows_is_refused_with_the_choices():
    with pytest.raises(SystemExit, match="preprocess_rows is 'some'; use first_chunk"):
        _preprocess_rows("x", "some")
