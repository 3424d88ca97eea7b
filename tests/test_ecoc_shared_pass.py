"""ECOC-NB's shared-pass timing (``shared_pass_repeats``, claims EC01/EC07): it times the pass, NB's model and
ECOC-NB's extra step on the same statistics, and never changes the model."""

import numpy as np
import pytest
import scipy.sparse as sp

from algorithms.ecoc import ECOCNaiveBayes, OnePassNaiveBayes
from tests.test_ecoc import assert_same_ecoc, gaussian_data, text_data


@pytest.mark.parametrize("data", [gaussian_data, text_data])
def test_timing_leaves_the_model_as_it_was(data):
    X, y = data()
    kw = dict(code_length=31, random_state=3, numeric="normal")
    plain = ECOCNaiveBayes(**kw).fit(X, y)
    timed = ECOCNaiveBayes(shared_pass_repeats=3, **kw).fit(X, y)
    assert_same_ecoc(plain, timed, X)
    assert np.array_equal(plain.code_matrix_, timed.code_matrix_)
    assert not hasattr(plain, "diagnostics_")
    d = timed.diagnostics_
    assert d["shared_pass_rows"] == len(y)
    for k in ("shared_pass_cpu_s", "nb_model_cpu_s", "ecoc_model_cpu_s"):
        assert len(d[k]) == 3 and all(v >= 0 for v in d[k])


def test_partial_fit_keeps_the_statistics_of_all_chunks():
    """The timing of a chunk's call uses that chunk alone; the model still holds every chunk."""
    X, y = gaussian_data(n=600)
    kw = dict(code_length=31, random_state=3)
    whole = ECOCNaiveBayes(**kw).fit(X, y)
    parts = ECOCNaiveBayes(shared_pass_repeats=2, **kw)
    parts.partial_fit(X[:300], y[:300], classes=np.arange(12)).partial_fit(X[300:], y[300:])
    assert_same_ecoc(whole, parts, X, tol=1e-8)
    assert parts.diagnostics_["shared_pass_rows"] == 300


def test_the_timed_nb_model_is_nbs_own():
    """The NB model timed is the one OnePassNaiveBayes fits on the same statistics (same log joint)."""
    from algorithms.ecoc import _nb_model

    X, y = gaussian_data()
    nb = OnePassNaiveBayes(numeric="normal").fit(X, y)
    e = ECOCNaiveBayes(code_length=31, random_state=3, numeric="normal").fit(X, y)
    np.testing.assert_allclose(_nb_model(e, e.statistics_).log_joint(sp.csr_matrix(X)), nb.predict_log_joint(X), rtol=1e-12)


def test_negative_repeats_are_refused():
    X, y = gaussian_data(n=100)
    with pytest.raises(ValueError, match="shared_pass_repeats"):
        ECOCNaiveBayes(shared_pass_repeats=-1).fit(X, y)
