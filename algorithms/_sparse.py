"""Sparse input shared by ECOC-NB and the sparse discretiser: canonical CSR and its parts."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def as_csr(X) -> sp.csr_matrix:
    """CSR float64 in canonical form (sorted, summed duplicates); dense input keeps NaN and drops zeros."""
    Xc = X.tocsr() if sp.issparse(X) else sp.csr_matrix(X)
    if Xc.dtype != np.float64:
        Xc = Xc.astype(np.float64)
    if not Xc.has_canonical_format:
        Xc = Xc.copy()
        Xc.sum_duplicates()
    return Xc


def _csr_parts(Xc):
    return (Xc.indptr.astype(np.int64, copy=False), Xc.indices.astype(np.int64, copy=False), Xc.data)
