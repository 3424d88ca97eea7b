"""bench.scaleup.chunk_source on a real dataset: slices, and with ``replicate`` rows repeated past the end
(the ECOC-NB instances experiment, EC01/EC07); sparse datasets stack as CSR."""

import numpy as np
import pytest
import scipy.sparse as sp

from bench.data import load
from bench.scaleup import _materialise, chunk_source


def test_replicate_repeats_rows_in_file_order():
    ds = load("iris")
    chunks, info = chunk_source("iris", 40, replicate=True)
    X, y = _materialise(chunks(400, 0))
    assert X.shape == (400, ds.n_features) and info["replicated_from_rows"] == 150
    idx = np.arange(400) % 150
    np.testing.assert_array_equal(X, ds.X[idx])
    np.testing.assert_array_equal(y, ds.y[idx])


def test_without_replicate_n_past_the_data_is_refused():
    chunks, info = chunk_source("iris", 40)
    assert "replicated_from_rows" not in info
    with pytest.raises(ValueError, match="replicate: true"):
        _materialise(chunks(151, 0))
    X, _ = _materialise(chunks(150, 0))
    assert X.shape[0] == 150


def test_sparse_chunks_stack_as_csr():
    chunks, _ = chunk_source("fbis", 1000, replicate=True)
    X, y = _materialise(chunks(3000, 0))
    assert sp.issparse(X) and X.shape[0] == 3000 and y.shape == (3000,)
    full = load("fbis").X
    assert (X[2463:2500] != full[:37]).nnz == 0
