"""Error-correcting output codes with naive Bayes in a single pass (Park and Fuernkranz
2014, "Efficient implementation of class-based decomposition schemes for Naive Bayes").

Every binary problem of a class-based decomposition (a column ``b`` of a code matrix
``M in {-1, 0, +1}^(k x n)``) is a naive Bayes classifier whose positive class is the union
``C_b^+`` of the classes with ``M[:, b] = +1`` and whose negative class is ``C_b^-``. Its
parameters follow from the per-class statistics of one ordinary NB pass (Sect. 4.1):

* Eq. 1: ``Pr(C_b^+) = sum_{c in C_b^+} Pr(c)``;
* Eq. 2: ``Pr(a_j | C_b^+) = sum_{c in C_b^+} Pr(a_j and c) / sum_{c in C_b^+} Pr(c)``.

:class:`ECOCNaiveBayes` (ECOC-NB) makes that one pass and then *precalculates* (Sect. 4.3) the
positive and negative distribution of every column, for all columns at once: each is a sum of
per-class sufficient statistics, so all ``2n`` of them are one matrix product
``statistics (attributes x k) @ membership (k x 2n)`` followed by element-wise work. Training costs
O(t g) for the pass plus O(n g k) for the precalculation (the paper's O((n + t) g)), and prediction
costs what the straightforward ECOC's does. :class:`StraightforwardECOC` is the reference: n
independent NB trainings on relabelled data, O(n t g). :class:`OnePassNaiveBayes` is plain NB on
the same statistics (the groups are the classes), the baseline of the paper's Tables 2-4.

How the precalculation runs. Eqs. 1-2 are the product ``S @ A`` of the per-class
statistics ``S`` (rows x k) and the membership ``A`` (k x 2n). :class:`GroupModel` computes it in
blocks of attributes with BLAS (float64), so each block of group sums is turned into parameters
while it is in the cache; for a binary code (every column splits all classes) only the positive
half ``S @ A+`` is multiplied and ``C_b^-`` is the complement (row total minus ``C_b^+``; exact for
counts); for the normal and discrete estimators ECOC-NB keeps per column only the log-odds
tables (positive minus negative group), one logarithm per (attribute, column). No dense copy of
sparse data is made. The kernel and Weka-normal estimators' values at 0 (the start of every sparse
prediction) are evaluated on the first prediction, as Weka evaluates its estimators at prediction
time. The floor is then the product itself plus one pass of element-wise work over the
(attributes x n) tables: with sparse text NB is a pass over the stored counts, O(nnz), far below
O(n g k) at 1023 bits, so the ratio to NB cannot approach 1 there (the harness's ECOC
timing benchmark, ``ecoc_text``, measures both). ``precalculation="reference"`` keeps the
unblocked product over all 2n groups (the earlier implementation) for the tests and the timings.

Estimators (per numeric attribute; nominal attributes always use counts)
-----------------------------------------------------------------------
* ``numeric="normal"`` (Table 2, Sect. 4.3.2): per class the number of observed values, their
  sum and their sum of squares about the class mean (the numerically stable form of the paper's
  ``sum x^2``: ``sum x^2 = M2 + (sum x)^2 / t``). A group's statistics are sums of its classes'
  (Chan et al.'s pooling, computed about the attribute's overall mean); ``sigma^2 = M2 / t``
  (the paper's ``sigma``, ``ddof = 0``), plus ``var_smoothing`` times the largest variance of
  the binary problem's attributes (scikit-learn's floor, as :class:`~algorithms.naive_bayes.NaiveBayes`).
* ``numeric="normal_weka"`` (Table 2 as the paper ran it: Weka 3.6 NaiveBayes' normal estimator,
  :mod:`algorithms._weka_normal`): every value is rounded to its attribute's precision
  grid (the mean gap between the sorted distinct training values, 0 included where a row has
  no entry; from CSR without densifying); per class the count, sum and sum of squares of the
  rounded values, which add over classes like the plain normal's, so a group's statistics are
  one product with the membership; ``weka_normal_params`` gives each group's mean and standard
  deviation (floored at precision / 6) and a value's factor is the mass of its grid cell,
  ``Phi(up) - Phi(lo)`` in Weka's arithmetic, floored at 1e-75 as NaiveBayes floors it. The
  straightforward ECOC and the NB of the tables use the same estimator (the precision of a
  dense code's binary problems is that of all rows, as in a relabelled Weka NB).
* ``numeric="kernel"`` (Table 3): Gaussian kernels on the *unique values with their counts*
  (Sect. 4.3.2: "maintain a list of all unique values of an attribute together with its number
  of occurrences", as Weka). A group's list is the merge of its classes' lists: on the sorted
  grid of an attribute's unique values, its weights are the sums of the classes' counts (one
  product with the membership matrix). Weka 3.6 NaiveBayes ``-K`` rules (read from its bytecode,
  as :class:`~algorithms.naive_bayes.NaiveBayes`): the precision ``p`` of an attribute is the mean
  gap between its distinct training values; values are rounded to multiples of ``p``; a merged
  estimator's bandwidth is ``max(range / sqrt(W), p / 6)``; ``kde_evaluation="weka_cell"`` returns
  Weka's kernel mass of the cell ``[x - p/2, x + p/2]`` (with its 1% early stop and 1e-75 floor),
  ``"density"`` the density itself.
* discrete (Table 4): nominal attributes (``categorical_features``, e.g. after
  :class:`algorithms.discretize.SparseEqualFrequencyDiscretizer`) use counts with the Laplace
  correction of Sect. 4.3.1: ``Pr(a_j | C_b^+) = (sum_i |a_j and c_i| + 1) / (sum_i |c_i| + |A_j|)``, where
  ``|c_i|`` counts the instances of class ``c_i`` with ``A_j`` observed.
* ``numeric="multinomial"`` / ``"bernoulli"``: the usual text event models (word counts, and
  boolean word presence), Laplace-smoothed (``alpha``): not what the paper ran (see below), but
  additive in the same way, so ECOC-NB covers them too.

Class priors are Laplace-corrected within each problem: ``(N_g + 1) / (N + number of groups)``
(``C`` classes for NB, 2 sides for a binary problem), which is what an NB trained on the
relabelled data uses, so ECOC-NB and the straightforward ECOC agree (tests/test_ecoc.py).

Which NB the paper ran on text (Sect. 5.1). The 19MclassTextWc sets hold word *counts* as
numeric attributes; the paper extended Weka 3.7.1's NaiveBayes, whose numeric estimators are the
normal and the kernel one (Tables 2 and 3), and Table 4 discretises "each numerical attribute into
a 10-valued discrete attribute". Table 1's diversity counts the distinct values *including the
zeros* over instances x features, and the text says the KDE merge costs O(w) of "all unique
values of an attribute": so every word is an attribute whose value (0 included) enters every
document's product, as in Weka's NaiveBayes, which loops over all attributes of a SparseInstance.
We do the same: ``numeric="normal"`` / ``"kernel"`` on the counts, every zero a value. We do it
on CSR input without densifying: the log factor at 0 of every (attribute, group) is summed once
into a starting point, and each stored entry adds ``log f(x) - log f(0)``.

Decoding (Sect. 5.1, Fig. 2). The binary NB of column b gives ``p_b = Pr(C_b^+ | x)``,
``makeTernary`` maps it to ``f_b = 2 (p_b - 0.5)``. ``decoding="weighted"`` (the paper's choice,
Dietterich and Bakiri 1995: the L1 distance between the outputs and the codeword) ranks classes
by the distance ``sum_b (1 - M_ib f_b) / 2``; ``"hamming"`` uses ``sign(f_b)`` instead of
``f_b``. A zero entry costs 1/2 whatever the output (Allwein et al. 2000), so every row has the
same n bits and ``predict_proba`` is the agreement ``n - distance``, normalised to sum to 1
(Weka's MultiClassClassifier normalises the same sums); ``predict`` is its argmax (ties: the
first class).

Code matrices (Sect. 5.1): BCH codes (15,5,7), (31,6,15), (63,7,31), (127,8,63), (255,9,127),
(511,10,255), (1023,11,511) from ``galois.BCH``; "each of the k classes is initialized with a
randomly selected vector which is then multiplied with the generator polynomial", i.e. k distinct
codewords drawn at random, redrawn until every column has a +1 and a -1 and no two columns are
equal or complementary, giving up after 100000 draws (:class:`CodeMatrixInfeasible`). With k
classes only ``2^(k-1) - 1`` such columns exist, so a longer code is refused at once. Also
one-vs-all, one-vs-one (ternary: the other classes are 0 and ignored in training) and random dense
/ sparse codes (Allwein et al. 2000), and any given matrix.

Choices where the paper is silent:

* the KDE precision of an attribute comes from all training values, also for a ternary code
  (a column's binary NB trained alone would see only its nonzero classes' values): ECOC-NB merges
  per-class estimators built once, as Weka's NaiveBayes-based implementation would; for the paper's
  dense BCH codes every binary problem sees all rows, so this is exactly the straightforward ECOC;
* a group without any observed value of an attribute (all missing) uses its problem's pooled
  estimate, as :class:`~algorithms.naive_bayes.NaiveBayes` does for an empty class;
* merged KDE weights are stored as float32 (exact: integer counts below 2^24), which halves the
  memory of the (grid values x 2n) table (wap at 1023 bits: about 240 MB);
* the code matrix is drawn from ``numpy.random.default_rng(random_state)``: k codewords with
  replacement, draws with a repeated codeword or an invalid column rejected (Sect. 5.1's loop),
  in batches checked by a Numba kernel.

Missing values (NaN) are skipped: left out of the statistics and of the product at prediction (as
Weka). Sparse input: CSR (other formats are converted); an entry that is not stored is 0. Dense
input gives the same model: it is converted to CSR (zeros dropped, NaN kept), except that dense
all-numeric data under ``numeric="normal"`` is summed column by column directly (faster).
"""

from __future__ import annotations

import math
import os
import time

import numpy as np
import scipy.sparse as sp
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _ecoc_kernels as K
from ._counts import class_codes, grown_values
from ._nominal import nominal_columns_values
from ._base import (NOMINAL_COLUMNS_CONSTRAINTS, RANDOM_STATE_CONSTRAINT, AllowNanTagsMixin, NotApplicableError,
                    PredictFromLogJointMixin, ProbaFromLogJointMixin, SparseAllowNanTagsMixin, first_batch_classes)
from ._code_cache import BCH_CODES, BCH_FIELD_DEGREE, _min_weight, bch_codebook  # noqa: F401 (re-exported)
from ._sparse import _csr_parts, as_csr
from .discretize import SparseEqualFrequencyDiscretizer  # noqa: F401 (re-exported: configs name algorithms.ecoc.SparseEqualFrequencyDiscretizer)

# --------------------------------------------------------------------------- code matrices
#: Sect. 5.1: "The code generation process is aborted after 100,000 iterations."
MAX_TRIES = 100_000
CODES = ("bch", "ova", "ovo", "random_dense", "random_sparse")
DRAW_BATCH = 2048


class CodeMatrixInfeasible(NotApplicableError):
    """No valid code matrix of the requested kind and length exists (or none was found): the
    algorithm does not apply to the dataset (the paper's blank table cells)."""


def max_distinct_columns(n_classes: int, ternary: bool = False) -> int:
    """Valid columns (both symbols present; a column and its complement counted once) for k
    classes: ``2^(k-1) - 1`` binary ones; ``(3^k - 2^(k+1) + 1) / 2`` ternary ones."""
    k = int(n_classes)
    if ternary:
        return (3 ** k - 2 ** (k + 1) + 1) // 2
    return 2 ** (k - 1) - 1


def column_problems(M: np.ndarray) -> list[str]:
    """What makes ``M`` (k x n in {-1, 0, 1}) an invalid ECOC matrix; [] when it is valid."""
    M = np.asarray(M)
    out = []
    one_sided = np.flatnonzero(~((M == 1).any(axis=0) & (M == -1).any(axis=0)))
    if one_sided.size:
        out.append(f"columns {one_sided[:10].tolist()} lack a +1 or a -1")
    # canonical sign: the first nonzero entry of every column is +1
    first = M[np.argmax(M != 0, axis=0), np.arange(M.shape[1])]
    canon = M * np.where(first < 0, -1, 1)[None, :]
    _, counts = np.unique(canon.T, axis=0, return_counts=True)
    if (counts > 1).any():
        out.append(f"{int((counts - 1).sum())} columns equal or complementary to another")
    _, rcounts = np.unique(M, axis=0, return_counts=True)
    if (rcounts > 1).any():
        out.append("two classes share a codeword")
    return out


def _infeasible(kind: str, k: int, n: int, limit: int, ternary=False) -> CodeMatrixInfeasible:
    return CodeMatrixInfeasible(
        f"no valid {n}-bit {kind} code matrix for {k} classes: with {k} classes at most {limit} distinct "
        f"{'ternary' if ternary else 'binary'} columns exist (every column needs a +1 and a -1, and no two "
        f"columns may be equal or complementary; Park and Fuernkranz 2014 Sect. 5.1 leaves these cells empty)")


def bch_code_matrix(n_classes: int, length: int, rng: np.random.Generator, max_tries: int = MAX_TRIES,
                    cache_dir=None) -> np.ndarray:
    """A k x length matrix in {-1, +1} of k distinct BCH codewords drawn at random (Park and
    Fuernkranz 2014 Sect. 5.1), redrawn until valid; :class:`CodeMatrixInfeasible` when no valid
    matrix can exist or none was found in ``max_tries`` draws. ``cache_dir``: where the codebook
    is kept (:func:`algorithms._code_cache.bch_codebook`)."""
    k = int(n_classes)
    if length not in BCH_CODES:
        raise ValueError(f"code_length must be one of the BCH lengths {sorted(BCH_CODES)}, got {length!r}")
    m = BCH_CODES[length][0]
    limit = max_distinct_columns(k)
    if length > limit:
        raise _infeasible(f"BCH({length},{m})", k, length, limit)
    if k > 2 ** m:
        raise CodeMatrixInfeasible(f"BCH({length},{m}) has {2 ** m} codewords, fewer than the {k} classes")
    book = bch_codebook(length, cache_dir)
    N = book.shape[0]
    # k codewords with replacement, draws with a repeat rejected (a uniform draw of k distinct
    # codewords); when repeats are too frequent (expected repeated pairs k(k-1)/2N > 8, e.g. 26
    # classes on the 32 codewords of BCH(15,5)) k distinct codewords are drawn directly
    if k * (k - 1) / (2 * N) <= 8:
        draw = lambda size: rng.integers(0, N, size=(size, k))                       # noqa: E731
    else:                       # random keys, the k smallest
        draw = lambda size: np.argsort(rng.random((min(size, 64), N)), axis=1)[:, :k]  # noqa: E731
    rows = _draw_valid(draw, book, k, max_tries, f"BCH({length},{m})")
    return np.where(book[rows] > 0, 1, -1).astype(np.int8)


def _draw_valid(draw, book, k, max_tries, what) -> np.ndarray:
    """Rows of ``book`` of the first valid draw (batches of codeword indices from ``draw(size)``)."""
    if k > 24:  # the bitset of the kernel would be too large: check each draw with numpy
        for _ in range(max_tries):
            rows = draw(1)[0]
            if not column_problems(np.where(book[rows] > 0, 1, -1)):
                return rows
        raise CodeMatrixInfeasible(f"no valid {what} code matrix for {k} classes in {max_tries} random draws")
    full = np.uint64((1 << k) - 1)
    seen = np.zeros(1 << (k - 1), dtype=np.bool_)
    done = 0
    while done < max_tries:
        picks = np.ascontiguousarray(draw(min(DRAW_BATCH, max_tries - done)), dtype=np.int64)
        t = K.first_valid_draw(book, picks, full, seen)
        if t >= 0:
            return picks[t]
        done += picks.shape[0]
    raise CodeMatrixInfeasible(f"no valid {what} code matrix for {k} classes in {max_tries} random draws "
                               f"(Park and Fuernkranz 2014 Sect. 5.1 gives up after 100,000)")


def one_vs_all(n_classes: int) -> np.ndarray:
    """Column c: class c positive, all others negative (one column for 2 classes)."""
    k = int(n_classes)
    M = np.where(np.eye(k, dtype=bool), 1, -1).astype(np.int8)
    return M[:, :1] if k == 2 else M


def one_vs_one(n_classes: int) -> np.ndarray:
    """Ternary: a column per pair (i < j), +1 for i, -1 for j, 0 (ignored) for the others."""
    k = int(n_classes)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    M = np.zeros((k, len(pairs)), dtype=np.int8)
    for b, (i, j) in enumerate(pairs):
        M[i, b], M[j, b] = 1, -1
    return M


def random_code_matrix(n_classes: int, length: int, rng: np.random.Generator, sparse: bool = False,
                       max_tries: int = MAX_TRIES) -> np.ndarray:
    """Random dense ({-1, +1} equiprobable) or sparse (0 with probability 1/2, else +-1) codes
    (Allwein et al. 2000), redrawn until valid (:func:`column_problems`)."""
    k, n = int(n_classes), int(length)
    limit = max_distinct_columns(k, ternary=sparse)
    if n > limit:
        raise _infeasible("random sparse" if sparse else "random dense", k, n, limit, ternary=sparse)
    if not sparse and n == limit and k <= 24:
        # every valid column once (Dietterich and Bakiri's exhaustive code), in random order
        cols = np.arange(0, 2 ** (k - 1) - 1) | (1 << (k - 1))   # class k-1 is +1; not all classes +1
        bits = ((cols[None, :] >> np.arange(k)[:, None]) & 1).astype(bool)
        M = np.where(bits, 1, -1).astype(np.int8)[:, rng.permutation(n)]
        return M * np.where(rng.random(n) < 0.5, -1, 1).astype(np.int8)[None, :]
    if not sparse and k <= 24:
        done = 0
        while done < max_tries:   # draws of k random rows, checked by the kernel, then for equal rows
            size = min(DRAW_BATCH, max_tries - done)
            book = (rng.random((size * k, n)) < 0.5).astype(np.uint8)
            picks = np.arange(size * k, dtype=np.int64).reshape(size, k)
            seen = np.zeros(1 << (k - 1), dtype=np.bool_)
            start = 0
            while start < size:
                t = K.first_valid_draw(book, picks[start:], np.uint64((1 << k) - 1), seen)
                if t < 0:
                    break
                M = np.where(book[picks[start + t]] > 0, 1, -1).astype(np.int8)
                if not column_problems(M):
                    return M
                start += t + 1
            done += size
        raise CodeMatrixInfeasible(f"no valid random dense {n}-bit code matrix for {k} classes in {max_tries} "
                                   f"random draws")
    for _ in range(max_tries):
        if sparse:
            M = rng.choice(np.array([-1, 0, 0, 1], dtype=np.int8), size=(k, n))
        else:
            M = np.where(rng.random((k, n)) < 0.5, -1, 1).astype(np.int8)
        if not column_problems(M):
            return M
    raise CodeMatrixInfeasible(f"no valid random {'sparse' if sparse else 'dense'} {n}-bit code matrix for "
                               f"{k} classes in {max_tries} random draws")


def default_length(code: str, n_classes: int) -> int:
    """Allwein et al.'s lengths for random codes: 10 log2 k (dense), 15 log2 k (sparse), capped at
    the number of valid columns."""
    k = int(n_classes)
    if code == "random_sparse":   # at most half the valid ternary columns, so that random draws succeed
        return int(min(math.ceil(15 * math.log2(k)), max(1, max_distinct_columns(k, True) // 2)))
    return int(min(math.ceil(10 * math.log2(k)), max_distinct_columns(k)))


def make_code_matrix(code, n_classes: int, code_length=None, rng=None, max_tries: int = MAX_TRIES,
                     cache_dir=None) -> np.ndarray:
    """The k x n code matrix of ``code`` ("bch", "ova", "ovo", "random_dense", "random_sparse", or
    a k x n array in {-1, 0, 1}, checked). ``cache_dir``: where a BCH codebook is kept
    (:func:`algorithms._code_cache.bch_codebook`; None: the user cache)."""
    k = int(n_classes)
    rng = rng if rng is not None else np.random.default_rng(0)
    if not isinstance(code, str):
        M = np.asarray(code)
        if M.ndim != 2 or M.shape[0] != k or not np.isin(M, (-1, 0, 1)).all():
            raise ValueError(f"a code matrix must be {k} x n with entries in {{-1, 0, 1}}; got shape {M.shape}")
        bad = [p for p in column_problems(M) if "codeword" not in p]   # the paper's column rules
        if bad:
            raise ValueError("invalid code matrix: " + "; ".join(bad))
        return M.astype(np.int8)
    if code == "bch":
        return bch_code_matrix(k, int(code_length), rng, max_tries, cache_dir)
    if code == "ova":
        return one_vs_all(k)
    if code == "ovo":
        return one_vs_one(k)
    if code in ("random_dense", "random_sparse"):
        n = default_length(code, k) if code_length is None else int(code_length)
        return random_code_matrix(k, n, rng, sparse=code == "random_sparse", max_tries=max_tries)
    raise ValueError(f"code must be one of {CODES} or a matrix, got {code!r}")


# --------------------------------------------------------------------------- input
NUMERIC = ("normal", "normal_weka", "kernel", "multinomial", "bernoulli")


def _columns(Xc, cols, d):
    return Xc if cols.size == d else Xc[:, cols].tocsr()


def _nan_indicator(Xc):
    """(zero-filled copy, CSR indicator of the NaN entries or None)."""
    nan = np.isnan(Xc.data)
    if not nan.any():
        return Xc, None
    Z = Xc.copy()
    Z.data = np.where(nan, 0.0, Z.data)
    Mn = sp.csr_matrix((nan.astype(np.float64), Xc.indices.copy(), Xc.indptr.copy()), shape=Xc.shape)
    Mn.eliminate_zeros()
    return Z, Mn


# --------------------------------------------------------------------------- the one pass
class NBStatistics:
    """Per-class naive Bayes statistics of one pass (additive over chunks and over classes).

    ``nominal`` columns: attribute-value x class counts; numeric columns, by ``numeric``:
    ``"normal"``: observed count, sum and M2 (centred sum of squares); ``"kernel"``: the sorted unique
    (column, value) grid with per-class counts (raw values; rounding to Weka's precision happens
    when the distributions are built); ``"multinomial"``: value sums; ``"bernoulli"``: counts of
    values > 0. The counts of observed values per (column, class) are kept for every kind.
    """

    def __init__(self, nominal, n_values, n_classes: int, numeric: str):
        self.nominal = np.asarray(nominal, dtype=bool)
        self.nom = np.flatnonzero(self.nominal)
        self.num = np.flatnonzero(~self.nominal)
        self.n_values = np.asarray(n_values, dtype=np.int64)          # per nominal column
        self.n_classes = C = int(n_classes)
        self.numeric = numeric
        self.class_counts = np.zeros(C, dtype=np.int64)
        self.offsets = np.zeros(self.nom.size + 1, dtype=np.int64)
        np.cumsum(self.n_values * C, out=self.offsets[1:])
        self.nominal_counts = np.zeros(int(self.offsets[-1]), dtype=np.int64)
        dn = self.num.size
        self.observed = np.zeros((dn, C))           # observed (non-missing) values per numeric column
        self.value_sum = np.zeros((dn, C))          # normal: sum; multinomial: sum; bernoulli: #(x > 0)
        self.mean = np.zeros((dn, C))
        self.m2 = np.zeros((dn, C))
        self.grid_cols = np.zeros(0, dtype=np.int64)
        self.grid_vals = np.zeros(0)
        self.grid_counts = np.zeros((0, C))
        self.sq_sum = np.zeros((dn, C))             # normal_weka: sum of squared rounded values
        self.precision = None                       # normal_weka: Weka's precision per numeric column

    def grow(self, n_values) -> None:
        """More values per nominal column (a later chunk's new codes): each column's block of
        counts is copied into a larger one; the new values' counts start at 0."""
        n_values = np.asarray(n_values, dtype=np.int64)
        C = self.n_classes
        offsets = np.zeros(self.nom.size + 1, dtype=np.int64)
        np.cumsum(n_values * C, out=offsets[1:])
        counts = np.zeros(int(offsets[-1]), dtype=np.int64)
        for j, k in enumerate(self.n_values):
            counts[offsets[j]:offsets[j] + k * C] = self.nominal_counts[self.offsets[j]:self.offsets[j + 1]]
        self.n_values, self.offsets, self.nominal_counts = n_values, offsets, counts

    def add(self, Xc, y: np.ndarray) -> None:
        """Add the rows of ``Xc`` (CSR or dense) with class codes ``y`` (one pass per statistic kind)."""
        C = self.n_classes
        y = np.ascontiguousarray(y, dtype=np.int64)
        cc = np.bincount(y, minlength=C)
        d = Xc.shape[1]
        if not sp.issparse(Xc):
            if self.numeric == "normal" and not self.nom.size:
                # dense numeric data: count, mean and M2 per (column, class) in a column-major pass
                # (the kernel of algorithms.naive_bayes), no sparse structure to build
                from .naive_bayes import _moments

                dn = self.num.size
                cnt, mean, m2 = np.zeros((dn, C)), np.zeros((dn, C)), np.zeros((dn, C))
                _moments(np.asfortranarray(Xc), y, C, cnt, mean, m2)
                self.class_counts += cc
                self.observed, self.mean, self.m2 = _chan_merge(self.observed, self.mean, self.m2, cnt, mean, m2)
                return
            Xc = as_csr(Xc)
        self.class_counts += cc
        if self.nom.size:
            Xn = _columns(Xc, self.nom, d)
            ip, ix, dt = _csr_parts(Xn)
            stored = np.zeros((self.nom.size, C), dtype=np.int64)
            missing = np.zeros_like(stored)
            K.stored_and_missing(ip, ix, dt, y, stored, missing)
            n_bad, r, j = K.nominal_counts(ip, ix, dt, y, self.offsets, self.n_values, C, self.nominal_counts)
            if n_bad:
                col = int(self.nom[j])
                raise ValueError(f"X[{r}, {col}] = {Xn[r, j]!r} is not a nominal code of column {col}, which has "
                                 f"{self.n_values[j]} values (0..{self.n_values[j] - 1}): an unseen category, or a "
                                 f"numeric column that needs discretising first ({n_bad} such cells)")
            # entries that are not stored are the value 0 (code 0)
            self.nominal_counts[self.offsets[:-1, None] + np.arange(C)[None, :]] += cc[None, :] - stored
        if self.num.size:
            Xn = _columns(Xc, self.num, d)
            ip, ix, dt = _csr_parts(Xn)
            dn = self.num.size
            stored = np.zeros((dn, C), dtype=np.int64)
            missing = np.zeros_like(stored)
            K.stored_and_missing(ip, ix, dt, y, stored, missing)
            observed = (cc[None, :] - missing).astype(np.float64)
            zeros = (cc[None, :] - stored).astype(np.float64)        # values 0 that are not stored
            if self.numeric in ("multinomial", "bernoulli") and (dt < 0).any():
                raise ValueError(f"numeric={self.numeric!r} needs non-negative word counts; X has negative values")
            if self.numeric == "normal_weka":
                # Weka 3.6 NaiveBayes' normal estimator (algorithms._weka_normal): values rounded to
                # the attribute's precision grid; per class the count, sum and sum of squares of the
                # rounded values (zeros add nothing to the sums). The precision comes from the
                # first chunk's distinct values (all of them for ``fit``), 0 included when a row
                # has no entry, as NaiveBayesUpdateable fixes it on its first batch.
                if self.precision is None:
                    self.precision = _weka_precision_csr(ix, dt, stored.sum(axis=1) < Xn.shape[0], dn)
                from ._weka_normal import weka_round

                r = weka_round(dt, self.precision[ix])
                s1 = np.zeros((dn, C))
                s2 = np.zeros((dn, C))
                K.value_sums(ip, ix, r, y, s1)
                K.value_sums(ip, ix, r * r, y, s2)
                self.observed += observed
                self.value_sum += s1
                self.sq_sum += s2
            elif self.numeric == "normal":
                s = np.zeros((dn, C))
                K.value_sums(ip, ix, dt, y, s)
                with np.errstate(invalid="ignore", divide="ignore"):
                    mean = np.where(observed > 0, s / np.where(observed > 0, observed, 1), 0.0)
                m2 = zeros * mean * mean
                K.centred_squares(ip, ix, dt, y, mean, m2)
                self.observed, self.mean, self.m2 = _chan_merge(self.observed, self.mean, self.m2, observed, mean, m2)
            elif self.numeric == "multinomial":
                K.value_sums(ip, ix, dt, y, self.value_sum)
                self.observed += observed
            elif self.numeric == "bernoulli":
                pos = np.zeros((dn, C))
                K.positive_counts(ip, ix, dt, y, pos)
                self.value_sum += pos
                self.observed += observed
            else:  # kernel: unique (column, value) entries with class counts
                self.observed += observed
                keep = ~np.isnan(dt)
                rows = np.repeat(np.arange(Xn.shape[0]), np.diff(ip))[keep]
                cols = np.concatenate([ix[keep], np.arange(dn), self.grid_cols])
                vals = np.concatenate([dt[keep], np.zeros(dn), self.grid_vals])
                cnt = np.zeros((keep.sum(), C))
                cnt[np.arange(cnt.shape[0]), y[rows]] = 1.0
                cnt = np.concatenate([cnt, zeros, self.grid_counts])
                order = np.lexsort((vals, cols))
                cols, vals, cnt = cols[order], vals[order], np.ascontiguousarray(cnt[order])
                oc, ov, ocnt = np.empty_like(cols), np.empty_like(vals), np.empty_like(cnt)
                u = K.merge_sorted_grid(cols, vals, cnt, oc, ov, ocnt)
                keep_u = ocnt[:u].sum(axis=1) > 0
                self.grid_cols, self.grid_vals, self.grid_counts = oc[:u][keep_u], ov[:u][keep_u], ocnt[:u][keep_u]


def _weka_precision_csr(indices, data, has_zero, d):
    """Weka NaiveBayes' precision of every column (:func:`algorithms._weka_normal.weka_precision`)
    from CSR entries without densifying: the column's distinct stored values, plus 0 where some row
    stores nothing (``has_zero``), laid out as a NaN-padded (distinct values x columns) matrix."""
    from ._weka_normal import weka_precision

    keep = ~np.isnan(data)
    extra = np.flatnonzero(has_zero)
    cols = np.concatenate([indices[keep], extra])
    vals = np.concatenate([data[keep], np.zeros(extra.size)])
    order = np.lexsort((vals, cols))
    cols, vals = cols[order], vals[order]
    first = np.ones(cols.size, dtype=bool)
    first[1:] = (cols[1:] != cols[:-1]) | (vals[1:] != vals[:-1])
    cols, vals = cols[first], vals[first]
    start = np.searchsorted(cols, np.arange(d))
    rank = np.arange(cols.size) - start[cols]
    out = np.full(d, np.nan)
    width = int(rank.max()) + 1 if rank.size else 0
    step = max(1, (1 << 22) // max(width, 1))       # column blocks of at most ~4M padded cells
    for j0 in range(0, d, step):
        j1 = min(j0 + step, d)
        sel = (cols >= j0) & (cols < j1)
        pad = np.full((max(width, 1), j1 - j0), np.nan)
        pad[rank[sel], cols[sel] - j0] = vals[sel]
        out[j0:j1] = weka_precision(pad)
    return out


def _chan_merge(n_a, mean_a, m2_a, n_b, mean_b, m2_b):
    """Combine (count, mean, M2) of two samples (Chan, Golub and LeVeque)."""
    n = n_a + n_b
    safe = np.where(n > 0, n, 1)
    delta = mean_b - mean_a
    mean = np.where(n > 0, mean_a + delta * n_b / safe, 0.0)
    m2 = m2_a + m2_b + delta * delta * n_a * n_b / safe
    return n, mean, m2


# --------------------------------------------------------------------------- precalculation
#: Weka's NaiveBayes floors every factor of its product at 1e-75 (``numeric="normal_weka"``)
WEKA_FACTOR_FLOOR = 1e-75
#: target size (bytes) of one block of group sums in the blocked precalculation: about the L2 cache
BLOCK_BYTES = 1 << 20


class _GroupSums:
    """Eq. 2's sums ``S @ A`` (S: per-class statistics, rows x k; A: k x m membership) computed in
    blocks of rows, so that each block of group sums is turned into distributions while it is in
    the cache and the (rows x m) product is never stored (Park and Fuernkranz 2014 Sect. 4.3's precalculation).

    When every problem is a pair of complementary groups ``(2b, 2b + 1)`` over all classes (a binary
    code: BCH, one-vs-all, random dense), only the positive half is a product (BLAS, float64) and
    the negative half is ``row total - positive``: half the arithmetic of ``S @ A``. Otherwise (plain
    NB, ternary codes) the block is ``S_block @ A``.
    """

    def __init__(self, A, problem):
        self.A = np.ascontiguousarray(A, dtype=np.float64)
        m = self.A.shape[1]
        self.binary = bool(m % 2 == 0 and m >= 2 and np.array_equal(problem, np.repeat(np.arange(m // 2), 2))
                           and np.array_equal(self.A[:, 0::2] + self.A[:, 1::2], np.ones((self.A.shape[0], m // 2))))
        self.A_pos = np.ascontiguousarray(self.A[:, 0::2]) if self.binary else None
        self.m = m

    def block_rows(self, per_row: int = 1) -> int:
        return max(1, BLOCK_BYTES // (8 * self.m * per_row))

    def __call__(self, S, out=None):
        """``S @ A`` for one block ``S`` (rows x k, float64)."""
        S = np.ascontiguousarray(S, dtype=np.float64)
        G = np.empty((S.shape[0], self.m)) if out is None else out[:S.shape[0]]
        if not self.binary:
            return np.matmul(S, self.A, out=G) if G.flags.c_contiguous else S @ self.A
        pos = S @ self.A_pos
        G[:, 0::2] = pos
        np.subtract(S.sum(axis=1)[:, None], pos, out=G[:, 1::2])
        return G


class GroupModel:
    """The precalculated naive Bayes distributions of ``m`` class groups (Park and Fuernkranz 2014 Sect. 4.3).

    ``membership`` (k x m, 0/1): the classes of each group (Eqs. 1-2 sum their statistics);
    ``problem`` (m,): the binary (or multi-class) problem each group belongs to; a problem's
    groups compete with each other (priors, the variance floor and the fallback of a group that
    has no observed value of an attribute are per problem). Plain NB: one problem whose groups
    are the classes. ECOC-NB: problem b = column b, groups 2b (C_b^+) and 2b+1 (C_b^-).

    The precalculation is the product (per-class statistics) @ membership of Eqs. 1-2, computed
    in row blocks (:class:`_GroupSums`: BLAS, the negative group of a binary column as the
    complement of the positive one) and turned into each distribution's parameters block by
    block. With ``log_odds=True`` (ECOC-NB) and a binary code (every column splits all classes in
    two: BCH, one-vs-all, random dense), the normal and discrete estimators keep per column only
    the difference of its two groups' tables (``pairs``): :meth:`log_joint` then returns each
    column's log-odds, half the tables and one logarithm per (attribute, column) instead of two.
    ``fused=False`` is the unblocked reference (the whole product ``S @ A`` first, then the
    distributions; the earlier implementation), kept for the tests, which check that both
    give the same model.

    The kernel estimator's values at 0 (``numeric_log0``; what sparse prediction starts from) are
    a prediction-time quantity: every row of a prediction needs them, and Weka evaluates its
    kernel estimators at prediction time (Sect. 4.3.2's precalculation is the merge of the value
    lists). They are computed on the first :meth:`log_joint` call (or by :meth:`finish`) and
    kept; ``fit`` times therefore hold the merge, the bandwidths and not these evaluations.

    :meth:`log_joint` gives ``log Pr(group) + sum_j log Pr(x_j | group)`` for every row and group.
    """

    def __init__(self, stats: NBStatistics, membership, problem, *, var_smoothing=1e-9, alpha=1.0,
                 kde_evaluation="weka_cell", fused=True, log_odds=False):
        A = np.asarray(membership, dtype=np.float64)
        problem = np.asarray(problem, dtype=np.int64)
        P = int(problem.max()) + 1
        AP = np.zeros((A.shape[0], P))
        np.add.at(AP.T, problem, A.T)                               # classes of each problem
        size = np.bincount(problem, minlength=P).astype(np.float64)  # groups per problem
        self.m, self.n_problems = A.shape[1], P
        self.numeric = stats.numeric
        self.nom, self.num = stats.nom, stats.num
        self.n_features = stats.nominal.size
        self.fused = bool(fused)
        self._sums = _GroupSums(A, problem)
        # every problem over the same classes (binary dense codes, plain NB): its pooled
        # statistics are one column, shared
        self._same_pool = bool((AP == AP[:, :1]).all())
        # binary columns, fused: keep each column's log-odds tables (positive minus negative group)
        self.pairs = bool(log_odds and self.fused and self._sums.binary
                          and (not stats.num.size or stats.numeric == "normal"))
        self.width = self.m // 2 if self.pairs else self.m
        cc = stats.class_counts.astype(np.float64)
        # Eq. 1 with Laplace's correction within the problem
        n_g = cc @ A
        self.log_prior = np.log(n_g + 1.0) - np.log((cc @ AP)[problem] + size[problem])
        if self.pairs:
            self.log_prior = self.log_prior[0::2] - self.log_prior[1::2]
        self.base = np.zeros(self.width)
        self._pending = False
        if stats.nom.size:
            self._nominal(stats, A)
        if stats.num.size:
            getattr(self, f"_{stats.numeric}")(stats, A, AP, problem, var_smoothing=var_smoothing, alpha=alpha,
                                               kde_evaluation=kde_evaluation)

    def _pool(self, S, AP):
        """``S @ AP`` (the problems' pooled statistics); its one column (rows x 1) when every problem
        pools the same classes (the fused path only)."""
        if self._same_pool and self.fused:
            return S @ AP[:, :1]
        return S @ AP

    # ---------------------------------------------------------- nominal (Sect. 4.3.1)
    def _nominal(self, stats, A):
        C = stats.n_classes
        k = stats.n_values
        counts = stats.nominal_counts.reshape(-1, C).astype(np.float64)              # (values, classes)
        first = stats.offsets[:-1] // C                                              # row of value 0
        block_start = stats.offsets // C
        log_table = np.log(np.maximum(np.arange(int(stats.class_counts.sum()) + 2, dtype=np.float64), 1.0))
        self.nominal_log0 = np.empty((k.size, self.width))
        self.nominal_delta = np.empty((counts.shape[0], self.width))                 # log P(v) - log P(0)
        if self.pairs:          # blocks of attributes: positive counts (BLAS), negatives = totals - them
            step = self._sums.block_rows(max(1, int(np.ceil(counts.shape[0] / max(k.size, 1)))))
            for j0 in range(0, k.size, step):
                j1 = min(j0 + step, k.size)
                r0, r1 = block_start[j0], block_start[j1]
                blk = counts[r0:r1]
                K.nominal_pairs(blk @ self._sums.A_pos, blk.sum(axis=1), block_start[j0:j1 + 1] - r0, k[j0:j1],
                                log_table, self.nominal_log0[j0:j1], self.nominal_delta[r0:r1], self.base)
            self.nominal_first = first
            self.nominal_n_values = k
            return
        if not self.fused:
            cnt = counts @ A                                                         # Eq. 2 numerators
            K.nominal_groups(cnt, block_start, k, log_table, self.nominal_log0, self.nominal_delta)
        else:   # blocks of attributes: their value rows' group counts, then the logs, while cached
            step = self._sums.block_rows(max(1, int(np.ceil(counts.shape[0] / max(k.size, 1)))))
            buf = np.empty((0, self.m))
            for j0 in range(0, k.size, step):
                j1 = min(j0 + step, k.size)
                r0, r1 = block_start[j0], block_start[j1]
                if buf.shape[0] < r1 - r0:
                    buf = np.empty((r1 - r0, self.m))
                cnt = self._sums(counts[r0:r1], buf)
                K.nominal_groups(cnt, block_start[j0:j1 + 1] - r0, k[j0:j1], log_table, self.nominal_log0[j0:j1],
                                 self.nominal_delta[r0:r1])
        self.nominal_first = first
        self.nominal_n_values = k
        self.base += self.nominal_log0.sum(axis=0)

    # ---------------------------------------------------------- normal (Sect. 4.3.2)
    def _normal(self, stats, A, AP, problem, var_smoothing, **_):
        n, mean, m2 = stats.observed, stats.mean, stats.m2
        n_all = n.sum(axis=1)
        mu = np.where(n_all > 0, (n * mean).sum(axis=1) / np.where(n_all > 0, n_all, 1), 0.0)
        delta = np.where(n > 0, mean - mu[:, None], 0.0)
        dn = n.shape[0]
        # Eq. 2 for the sufficient statistics, about the column mean mu (Chan et al.'s pooling):
        # count, sum of (x - mu) and sum of (x - mu)^2 of every class union, one matrix product
        stat3 = (n, n * delta, m2 + n * delta * delta)
        per_class = np.concatenate(stat3)                                          # (3 d, k)
        p = self._pool(per_class, AP)          # (3 d, P), or (3 d, 1) when all problems pool alike
        n_p, s_p, q_p = p[:dn], p[dn:2 * dn], p[2 * dn:]
        safe = np.where(n_p > 0, n_p, 1)
        mean_p = mu[:, None] + s_p / safe
        var_p = np.where(n_p > 0, np.maximum(q_p - s_p * s_p / safe, 0.0) / safe, 0.0)
        eps = var_smoothing * (var_p.max(axis=0) if dn else np.zeros(p.shape[1]))    # floor per problem
        if p.shape[1] != AP.shape[1]:     # one pooled column, read through a zero stride
            mean_p = np.broadcast_to(mean_p, (dn, AP.shape[1]))
            var_p = np.broadcast_to(var_p, (dn, AP.shape[1]))
            eps = np.full(AP.shape[1], eps[0])
        self.normal_lin = np.empty((dn, self.width))
        self.normal_quad = np.empty((dn, self.width))
        log0 = np.empty((dn, self.width))
        if self.pairs:          # blocks of attributes: positive sums (BLAS), negatives = totals - them
            step = self._sums.block_rows(3)
            for j0 in range(0, dn, step):
                j1 = min(j0 + step, dn)
                blk = np.concatenate([st[j0:j1] for st in stat3])
                K.normal_pairs(mu[j0:j1], blk @ self._sums.A_pos, blk.sum(axis=1), mean_p[j0:j1], var_p[j0:j1], eps,
                               self.normal_lin[j0:j1], self.normal_quad[j0:j1], log0[j0:j1], self.base)
        elif not self.fused:
            g = per_class @ A
            K.normal_groups(mu, np.ascontiguousarray(g[:dn]), np.ascontiguousarray(g[dn:2 * dn]),
                            np.ascontiguousarray(g[2 * dn:]), problem, mean_p, var_p, eps, self.normal_lin,
                            self.normal_quad, log0)
            self.base += log0.sum(axis=0)
        else:   # blocks of attributes: their 3 statistics per group, then the parameters, while cached
            step = self._sums.block_rows(3)
            buf = np.empty((3 * min(step, dn), self.m))
            for j0 in range(0, dn, step):
                j1 = min(j0 + step, dn)
                bj = j1 - j0
                g = self._sums(np.concatenate([st[j0:j1] for st in stat3]), buf)
                K.normal_groups(mu[j0:j1], g[:bj], g[bj:2 * bj], g[2 * bj:], problem, mean_p[j0:j1],
                                var_p[j0:j1], eps, self.normal_lin[j0:j1], self.normal_quad[j0:j1], log0[j0:j1])
                self.base += log0[j0:j1].sum(axis=0)
        self.numeric_log0 = log0

    def normal_parameters(self):
        """(mean, variance) of every (numeric column, group) normal distribution."""
        if self.pairs:
            raise ValueError("a fused binary-code model keeps log-odds tables, not each group's normal "
                             "parameters; build the GroupModel with fused=False to read them")
        var = 0.5 / self.normal_quad
        return self.normal_lin * var, var

    # ---------------------------------------------------------- Weka's normal estimator
    def _normal_weka(self, stats, A, AP, problem, **_):
        """Weka 3.6 NaiveBayes' normal estimator per group (:mod:`algorithms._weka_normal`): Eq. 2 for
        its sufficient statistics (count, sum and sum of squares of the rounded values: one product
        with the membership, in blocks), then ``weka_normal_params`` of every (column, group)."""
        from ._weka_normal import weka_normal_params

        dn = stats.num.size
        stat3 = (stats.observed, stats.value_sum, stats.sq_sum)
        prec = stats.precision
        self.weka_mean = np.empty((dn, self.m))
        self.weka_std = np.empty((dn, self.m))
        step = self._sums.block_rows(3) if self.fused else max(dn, 1)
        buf = np.empty((3 * min(step, dn), self.m)) if self.fused else None
        for j0 in range(0, dn, step):
            j1 = min(j0 + step, dn)
            bj = j1 - j0
            blk = np.concatenate([st[j0:j1] for st in stat3])
            g = self._sums(blk, buf) if self.fused else blk @ A
            self.weka_mean[j0:j1], self.weka_std[j0:j1] = weka_normal_params(g[:bj], g[bj:2 * bj], g[2 * bj:],
                                                                             prec[j0:j1, None])
        self.weka_precision = np.ascontiguousarray(prec)
        self._pending = True
        if not self.fused:
            self.finish()

    # ---------------------------------------------------------- text event models
    def _multinomial(self, stats, A, AP, problem, alpha, **_):
        words = stats.value_sum @ A                                  # word occurrences per group
        V = words.shape[0]
        self.word_log = np.log(words + alpha) - np.log(words.sum(axis=0) + alpha * V)
        self.numeric_log0 = np.zeros_like(self.word_log)

    def _bernoulli(self, stats, A, AP, problem, alpha, **_):
        present = stats.value_sum @ A
        obs = stats.observed @ A
        logp = np.log(present + alpha) - np.log(obs + 2 * alpha)
        log1m = np.log(obs - present + alpha) - np.log(obs + 2 * alpha)
        self.numeric_log0 = log1m
        self.word_log = logp - log1m
        self.base += log1m.sum(axis=0)

    # ---------------------------------------------------------- kernel density (Sect. 4.3.2)
    def _kernel(self, stats, A, AP, problem, kde_evaluation, **_):
        dn = stats.num.size
        C = stats.n_classes
        cols, vals, cnt = stats.grid_cols, stats.grid_vals, stats.grid_counts
        offsets = np.zeros(dn + 1, dtype=np.int64)
        np.cumsum(np.bincount(cols, minlength=dn), out=offsets[1:])
        precision = np.empty(dn)
        K.weka_precisions(offsets, vals, precision)
        # Weka rounds every value to its attribute's precision grid, then re-merges equal values
        vals = np.rint(vals / precision[cols]) * precision[cols]
        oc, ov, ocnt = np.empty_like(cols), np.empty_like(vals), np.empty((cols.size, C))
        u = K.merge_sorted_grid(cols, vals, np.ascontiguousarray(cnt), oc, ov, ocnt)
        cols, vals, cnt = oc[:u], ov[:u], ocnt[:u]
        offsets[1:] = np.cumsum(np.bincount(cols, minlength=dn))
        # Eq. 2 for value lists: a group's list is the merge (sum of counts) of its classes' lists
        weights = cnt.astype(np.float32) @ A.astype(np.float32)     # exact: integer counts < 2^24
        if self.fused:
            # a group's total weight and value range from its classes' (one product; min / max of
            # the classes' extremes), without a pass over the (grid x groups) weights
            cmin, cmax, class_total = np.empty((dn, C)), np.empty((dn, C)), np.empty((dn, C))
            K.class_extrema(offsets, vals, np.ascontiguousarray(cnt), cmin, cmax, class_total)
            total = class_total @ A
            bandwidth = np.empty((dn, self.m))
            K.group_bandwidths(cmin, cmax, np.argsort(cmin, axis=1, kind="stable"),
                               np.argsort(-cmax, axis=1, kind="stable"), np.ascontiguousarray(A > 0), total,
                               precision, bandwidth)
        else:
            total = np.empty((dn, self.m))
            bandwidth = np.empty((dn, self.m))
            K.kde_bandwidths(offsets, vals, weights, precision, total, bandwidth)
        # group g reads its own weights (a zero-stride view: no (columns x groups) copy)
        source = np.broadcast_to(np.arange(self.m, dtype=np.int64), (dn, self.m))
        if not self.fused:
            source = source.copy()
        empty = total <= 0
        if empty.any():  # a group without values of a column uses its problem's pooled list
            pooled = cnt.astype(np.float32) @ AP.astype(np.float32)
            weights = np.ascontiguousarray(np.concatenate([weights, pooled], axis=1))
            total = np.empty((dn, weights.shape[1]))
            bandwidth = np.empty_like(total)
            K.kde_bandwidths(offsets, vals, weights, precision, total, bandwidth)
            source = np.where(empty, self.m + problem[None, :], source)
        self.kde = dict(offsets=offsets, values=np.ascontiguousarray(vals), weights=np.ascontiguousarray(weights),
                        source=source, bandwidth=bandwidth, total=total, log_wmax=None, precision=precision,
                        weka_cell=kde_evaluation == "weka_cell")
        self._pending = True
        if not self.fused:
            self.finish()

    def finish(self):
        """The kernel estimators' log values at 0 of every (column, group) (and, for the density
        evaluation, the largest weights of its cutoff): the start of every sparse prediction,
        computed once, on the first prediction (see the class docstring)."""
        if not self._pending:
            return self
        if self.numeric == "normal_weka":   # the cell of 0 of every (column, group), floored as Weka's NB
            log0 = np.empty_like(self.weka_mean)
            K.weka_normal_log_at(self.weka_mean, self.weka_std, self.weka_precision, np.zeros(log0.shape[0]),
                                 WEKA_FACTOR_FLOOR, log0)
            self.numeric_log0 = log0
            self.base = self.base + log0.sum(axis=0)    # new arrays: a fitted model may be read-only
            self._pending = False
            return self
        kd = self.kde
        dn = kd["offsets"].size - 1
        if kd["weka_cell"]:
            kd["log_wmax"] = np.zeros((1, 1))          # not read by the cell evaluation
        else:
            kd["log_wmax"] = np.empty_like(kd["total"])
            K.column_max_weights(kd["offsets"], kd["weights"], kd["log_wmax"])
        log0 = np.empty((dn, self.m))
        K.kde_log_at(kd["offsets"], kd["values"], kd["weights"], kd["source"], kd["bandwidth"], kd["total"],
                     kd["log_wmax"], kd["precision"], np.zeros(dn), kd["weka_cell"], log0)
        self.numeric_log0 = log0
        self.base = self.base + log0.sum(axis=0)
        self._pending = False
        return self

    # ---------------------------------------------------------- prediction
    def log_joint(self, Xc: sp.csr_matrix) -> np.ndarray:
        """``log Pr(g) + sum_j log Pr(x_j | g)``, shape (rows, m); NaN entries leave their factor out.
        With ``pairs`` (a fused model of binary columns) the log-odds of each column's positive
        group against its negative one, shape (rows, m / 2)."""
        self.finish()
        t = Xc.shape[0]
        out = np.empty((t, self.width))
        out[:] = self.log_prior + self.base
        d = self.n_features
        if self.nom.size:
            Xn = _columns(Xc, self.nom, d)
            Z, Mn = _nan_indicator(Xn)
            codes = Z.data.astype(np.int64)     # a stored 0 reads row "value 0", whose delta is 0
            k = self.nominal_n_values[Z.indices]
            bad = (codes < 0) | (codes >= k) | (codes != Z.data)
            if bad.any():
                p = int(np.flatnonzero(bad)[0])
                row = int(np.searchsorted(Z.indptr, p, side="right") - 1)
                col = int(self.nom[Z.indices[p]])
                raise ValueError(f"X[{row}, {col}] = {Z.data[p]!r} is not a nominal code of column {col}, which has "
                                 f"{k[p]} values (0..{k[p] - 1}): an unseen category")
            onehot = sp.csr_matrix((np.ones(codes.size), self.nominal_first[Z.indices] + codes, Z.indptr),
                                   shape=(t, self.nominal_delta.shape[0]))
            out += onehot @ self.nominal_delta
            if Mn is not None:
                out -= Mn @ self.nominal_log0
        if self.num.size:
            Xn = _columns(Xc, self.num, d)
            Z, Mn = _nan_indicator(Xn)
            if self.numeric == "normal":
                out += Z @ self.normal_lin
                Z2 = Z.copy()
                Z2.data = Z2.data * Z2.data
                out -= Z2 @ self.normal_quad
            elif self.numeric == "normal_weka":
                ip, ix, dt = _csr_parts(Xn)
                K.weka_normal_log_joint(ip, ix, dt, self.weka_mean, self.weka_std, self.weka_precision,
                                        self.numeric_log0, WEKA_FACTOR_FLOOR, out)
                Mn = None  # the kernel removed the factors of missing entries
            elif self.numeric == "multinomial":
                out += Z @ self.word_log
            elif self.numeric == "bernoulli":
                B = Z.copy()
                B.data = (B.data > 0).astype(np.float64)
                out += B @ self.word_log
            else:
                kd = self.kde
                ip, ix, dt = _csr_parts(Xn)
                K.kde_log_joint(ip, ix, dt, kd["offsets"], kd["values"], kd["weights"], kd["source"],
                                kd["bandwidth"], kd["total"], kd["log_wmax"], kd["precision"], self.numeric_log0,
                                kd["weka_cell"], out)
                Mn = None  # the kernel removed the factors of missing entries
            if Mn is not None:
                out -= Mn @ self.numeric_log0
        return out


# --------------------------------------------------------------------------- estimators
class _OnePassNB(SparseAllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Shared parameters, input checks and the one pass of NB statistics."""

    _parameter_constraints: dict = {
        "numeric": [StrOptions(set(NUMERIC))],
        "kde_evaluation": [StrOptions({"density", "weka_cell"})],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "alpha": [Interval(Real, 0, None, closed="neither")],
        **NOMINAL_COLUMNS_CONSTRAINTS,
    }

    def _validate(self, X, y=None, reset=False, fitting=False):
        kw = dict(accept_sparse=("csr", "csc", "coo"), dtype=np.float64, ensure_all_finite="allow-nan")
        if fitting and y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        if y is None:
            return as_csr(validate_data(self, X, reset=reset, **kw))
        X, y = validate_data(self, X, y, reset=reset, **kw)
        if y.dtype.kind not in "iub":
            check_classification_targets(y)
        return (as_csr(X) if sp.issparse(X) else X), y    # dense training data stays dense (faster pass)

    def _start(self, Xc, y, classes=None):
        labels = first_batch_classes(self, y, classes)
        cat, n_values = nominal_columns_values(self.categorical_features, self.n_categories, Xc)
        self.nominal_ = cat
        self.statistics_ = NBStatistics(cat, n_values, labels.size, self.numeric)

    def _add(self, Xc, y):
        st = self.statistics_
        if self.n_categories is None and st.nom.size:  # a later chunk's new codes: grow as one fit would have
            grown = grown_values(st.n_values, Xc, st.nom)
            if grown is not None:
                st.grow(grown)
        st.add(Xc, class_codes(y, self.classes_)[1])

    def fit(self, X, y):
        """One pass of NB statistics (ECOC-NB, Fig. 1 lines 1-6; its code matrix is drawn first), then
        the model (``_finalise``; ECOC-NB: Eqs. 1-2 for every column)."""
        self._validate_params()
        Xc, y = self._validate(X, y, reset=True, fitting=True)
        self._start(Xc, y)
        self._add(Xc, y)
        self._finalise()
        return self

    def partial_fit(self, X, y, classes=None):
        """Add a chunk (ECOC-NB draws its code matrix on the first call); the statistics equal those
        of one ``fit`` on all chunks."""
        self._validate_params()
        first = not hasattr(self, "classes_")
        Xc, y = self._validate(X, y, reset=first, fitting=True)
        if first:
            self._start(Xc, y, classes)
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes {np.unique(classes)!r} differ from the first call's {self.classes_!r}")
        self._add(Xc, y)
        self._finalise()
        return self


def _nb_model(est, stats: NBStatistics) -> GroupModel:
    """NB's model from the statistics of its pass (the groups are the classes), with ``est``'s parameters."""
    C = est.classes_.size
    return GroupModel(stats, np.eye(C), np.zeros(C, dtype=np.int64), var_smoothing=est.var_smoothing,
                      alpha=est.alpha, kde_evaluation=est.kde_evaluation)


class OnePassNaiveBayes(PredictFromLogJointMixin, ProbaFromLogJointMixin, _OnePassNB):
    """Naive Bayes on the ECOC-NB statistics (the groups are the classes): the NB of Park and Fuernkranz 2014's
    Tables 2-4, with the same estimators, sparse handling and cost model as :class:`ECOCNaiveBayes`.

    On dense data it equals :class:`algorithms.naive_bayes.NaiveBayes` (``numeric="normal"`` =
    ``"gaussian"``, ``"kernel"`` = ``"kde"`` with Weka's bandwidth and precision rounding), which
    tests/test_ecoc.py checks; it also takes CSR input and the text event models.

    Parameters
    ----------
    numeric : {"normal", "kernel", "multinomial", "bernoulli"}, default="normal"
    kde_evaluation : {"weka_cell", "density"}, default="weka_cell"
    var_smoothing : float, default=1e-9
    alpha : float, default=1.0
        Laplace pseudo-count of the multinomial and Bernoulli word models.
    categorical_features, n_categories : injected by the runner (nominal columns, declared values)

    Attributes
    ----------
    classes_, nominal_, statistics_ (:class:`NBStatistics`), model_ (:class:`GroupModel`)
    """

    def __init__(self, *, numeric="normal", kde_evaluation="weka_cell", var_smoothing=1e-9, alpha=1.0,
                 categorical_features=None, n_categories=None):
        self.numeric = numeric
        self.kde_evaluation = kde_evaluation
        self.var_smoothing = var_smoothing
        self.alpha = alpha
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    def _finalise(self):
        self.model_ = _nb_model(self, self.statistics_)

    def predict_log_joint(self, X):
        check_is_fitted(self, "model_")
        return self.model_.log_joint(as_csr(self._validate(X)))


def _decode(p_pos: np.ndarray, M: np.ndarray, decoding: str) -> np.ndarray:
    """Agreement of every class's codeword with the outputs (n - distance, Sect. 5.1 / Fig. 2).

    ``f = makeTernary(p) = 2 (p - 0.5)``; weighted: distance ``sum_b (1 - M_ib f_b) / 2``;
    Hamming: the same with ``sign(f_b)``. Zero entries cost 1/2 (Allwein et al. 2000)."""
    f = 2.0 * (p_pos - 0.5)                     # makeTernary
    if decoding == "hamming":
        f = np.sign(f)
    n = M.shape[1]
    return 0.5 * (n + f @ M.T.astype(np.float64))


def _proba_from_agreement(agree):
    tot = agree.sum(axis=1, keepdims=True)
    return np.where(tot > 0, agree / np.where(tot > 0, tot, 1), 1.0 / agree.shape[1])


class _ECOCMixin:
    #: constraints of the code parameters, added to the NB ones by each ECOC estimator
    _code_constraints: dict = {
        "code": [StrOptions(set(CODES)), "array-like"],
        "code_length": [Interval(Integral, 1, None, closed="left"), None],
        "decoding": [StrOptions({"weighted", "hamming"})],
        "max_tries": [Interval(Integral, 1, None, closed="left")],
        "random_state": RANDOM_STATE_CONSTRAINT,
        "cache_dir": [str, os.PathLike, None],
    }

    def __init__(self, *, code, code_length, decoding, numeric, kde_evaluation, var_smoothing, alpha, max_tries,
                 random_state, categorical_features, n_categories, cache_dir):
        """Store the parameters both ECOC estimators share, unchanged (their own ``__init__`` names
        the defaults and stores the parameters of its own)."""
        self.code = code
        self.code_length = code_length
        self.decoding = decoding
        self.numeric = numeric
        self.kde_evaluation = kde_evaluation
        self.var_smoothing = var_smoothing
        self.alpha = alpha
        self.max_tries = max_tries
        self.random_state = random_state
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.cache_dir = cache_dir

    def _draw_code(self):
        rng = np.random.default_rng(self.random_state)
        self.code_matrix_ = make_code_matrix(self.code, self.classes_.size, self.code_length, rng, self.max_tries,
                                             self.cache_dir)
        self.n_bits_ = self.code_matrix_.shape[1]

    def decoding_scores(self, X):
        """Agreement (n bits - decoding distance) of every class, shape (rows, classes)."""
        return _decode(self.predict_binary_proba(X), self.code_matrix_, self.decoding)

    def predict_proba(self, X):
        return _proba_from_agreement(self.decoding_scores(X))

    def predict(self, X):
        scores = self.decoding_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]


class ECOCNaiveBayes(_ECOCMixin, _OnePassNB):
    """ECOC-NB (Park and Fuernkranz 2014): all binary NBs of a code matrix from one pass of NB statistics.

    Training (Fig. 1): one pass collects the per-class statistics (lines 1-6, as NB); then the
    positive and negative distributions of every column are precalculated by Eqs. 1-2 (Sect.
    4.3) for all columns at once. Testing (Fig. 2): every binary NB gives ``p_b``, makeTernary
    maps it to ``2 (p_b - 0.5)``, and the codewords are decoded (weighted by default, the paper's
    choice). See the module docstring for the estimators, the decoding and the code matrices.

    Parameters
    ----------
    code : {"bch", "ova", "ovo", "random_dense", "random_sparse"} or array (k x n), default="bch"
    code_length : int or None, default=15
        BCH: one of 15, 31, 63, 127, 255, 511, 1023. Random codes: n (None: Allwein et al.'s
        10 log2 k / 15 log2 k). Ignored by "ova" / "ovo" / a given matrix.
    decoding : {"weighted", "hamming"}, default="weighted"
    max_tries : int, default=100000
        Random draws of a code matrix before :class:`CodeMatrixInfeasible` (Sect. 5.1).
    random_state : int, Generator seed or None
        The draw of the code matrix (the runner injects one per split).
    numeric, kde_evaluation, var_smoothing, alpha, categorical_features, n_categories
        As :class:`OnePassNaiveBayes`.
    cache_dir : str, path or None, default=None
        The folder where BCH codebooks are kept between processes
        (:func:`algorithms._code_cache.bch_codebook`); None: the user cache
        ``$XDG_CACHE_HOME/algorithms/bch``. A harness may point it at its own cache. It changes where
        the codebook is read from, never the model.
    precalculation : {"fused", "reference"}, default="fused"
        How Eqs. 1-2 are precalculated (:class:`GroupModel`): "fused" computes the group sums in
        blocks of attributes (BLAS; a binary column's negative group as the complement of its
        positive one) and keeps per column the log-odds tables (normal, discrete); "reference"
        is the unblocked product over all 2n groups (the earlier implementation), kept to
        test and to time against. Both give the same predictions (tests/test_ecoc.py).
    shared_pass_repeats : int, default=0
        Timing only, never a change of the model: after each ``fit`` / ``partial_fit``, on the data of that
        call, the one pass NB and ECOC-NB share (the per-class statistics), NB's model from those statistics
        and ECOC-NB's extra step (the code matrix draw and Eqs. 1-2 for every column, from the same
        statistics) are each run this many times, interleaved, and their CPU seconds
        (``time.process_time``, one list entry per repeat) kept in ``diagnostics_`` as ``shared_pass_cpu_s``,
        ``nb_model_cpu_s`` and ``ecoc_model_cpu_s``. NB's training is pass + NB model, ECOC-NB's pass +
        ECOC-NB model, so ECOC-NB's extra time over NB is ``ecoc_model_cpu_s - nb_model_cpu_s`` of the same
        repeat, measured without two separate passes' noise. 0: not timed (no ``diagnostics_``).

    Attributes
    ----------
    classes_, code_matrix_ (k x n int8), n_bits_, statistics_, model_ (:class:`GroupModel` of the
    2n groups: 2b = C_b^+, 2b+1 = C_b^-), diagnostics_ (with ``shared_pass_repeats``)
    """

    _parameter_constraints: dict = {
        **_OnePassNB._parameter_constraints,
        **_ECOCMixin._code_constraints,
        "precalculation": [StrOptions({"fused", "reference"})],
        "shared_pass_repeats": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, *, code="bch", code_length=15, decoding="weighted", numeric="normal", kde_evaluation="weka_cell",
                 var_smoothing=1e-9, alpha=1.0, max_tries=MAX_TRIES, random_state=None, categorical_features=None,
                 n_categories=None, precalculation="fused", cache_dir=None, shared_pass_repeats=0):
        super().__init__(code=code, code_length=code_length, decoding=decoding, numeric=numeric,
                         kde_evaluation=kde_evaluation, var_smoothing=var_smoothing, alpha=alpha, max_tries=max_tries,
                         random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, cache_dir=cache_dir)
        self.precalculation = precalculation
        self.shared_pass_repeats = shared_pass_repeats

    def _start(self, Xc, y, classes=None):
        super()._start(Xc, y, classes)
        self._draw_code()                   # before the pass: an infeasible code fails at once

    def fit(self, X, y):
        super().fit(X, y)
        self._time_shared_pass(X, y)
        return self

    def partial_fit(self, X, y, classes=None):
        super().partial_fit(X, y, classes)
        self._time_shared_pass(X, y)
        return self

    def _time_shared_pass(self, X, y) -> None:
        """``shared_pass_repeats`` interleaved timings of the shared pass, NB's model and ECOC-NB's extra step
        on the data of this call; the fitted model is kept as it was."""
        if not self.shared_pass_repeats:
            return
        Xc, y = self._validate(X, y, fitting=True)
        codes = class_codes(y, self.classes_)[1]
        n_values = self.statistics_.n_values
        kept = self.statistics_, self.model_, self.code_matrix_
        out = {"shared_pass_cpu_s": [], "nb_model_cpu_s": [], "ecoc_model_cpu_s": []}
        for _ in range(self.shared_pass_repeats):
            t0 = time.process_time()
            stats = NBStatistics(self.nominal_, n_values, self.classes_.size, self.numeric)
            stats.add(Xc, codes)
            t1 = time.process_time()
            _nb_model(self, stats)
            t2 = time.process_time()
            self.statistics_ = stats
            self._draw_code()
            self._finalise()
            t3 = time.process_time()
            for k, v in zip(out, (t1 - t0, t2 - t1, t3 - t2)):
                out[k].append(v)
        self.statistics_, self.model_, self.code_matrix_ = kept
        self.diagnostics_ = {**out, "shared_pass_rows": int(codes.size)}

    def _finalise(self):
        if self.precalculation not in ("fused", "reference"):
            raise ValueError(f"precalculation must be 'fused' or 'reference', got {self.precalculation!r}")
        M = self.code_matrix_
        n = M.shape[1]
        membership = np.empty((M.shape[0], 2 * n))
        membership[:, 0::2] = M == 1        # C_b^+
        membership[:, 1::2] = M == -1       # C_b^-
        self.model_ = GroupModel(self.statistics_, membership, np.repeat(np.arange(n), 2),
                                 var_smoothing=self.var_smoothing, alpha=self.alpha,
                                 kde_evaluation=self.kde_evaluation, log_odds=True,
                                 fused=self.precalculation == "fused")

    def predict_binary_proba(self, X):
        """``Pr(C_b^+ | x)`` of every column's binary NB, shape (rows, n)."""
        check_is_fitted(self, "model_")
        lj = self.model_.log_joint(as_csr(self._validate(X)))
        return expit(lj if self.model_.pairs else lj[:, 0::2] - lj[:, 1::2])


class StraightforwardECOC(_ECOCMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """The straightforward ECOC (Park and Fuernkranz 2014's reference): one NB per column, each trained on the
    relabelled instances of its nonzero classes (n passes over the data, O(n t g)).

    ``base="onepass"``: :class:`OnePassNaiveBayes` with this estimator's NB parameters (takes CSR);
    ``base="naive_bayes"``: :class:`algorithms.naive_bayes.NaiveBayes` (dense only; ``normal`` ->
    ``gaussian``, ``kernel`` -> ``kde`` with Weka's bandwidth and precision rounding), an
    implementation that shares no code with ECOC-NB. The code matrix is drawn exactly as
    :class:`ECOCNaiveBayes` draws it (same ``random_state`` -> same matrix), and decoding is the same.

    Parameters
    ----------
    base : {"onepass", "naive_bayes"}, default="onepass"
    code, code_length, decoding, max_tries, random_state, cache_dir
        As :class:`ECOCNaiveBayes` (``cache_dir``: the folder of the BCH codebooks, None = the user cache).
    numeric, kde_evaluation, var_smoothing, alpha, categorical_features, n_categories
        As :class:`OnePassNaiveBayes`.
    """

    _parameter_constraints: dict = {
        **_OnePassNB._parameter_constraints,
        **_ECOCMixin._code_constraints,
        "base": [StrOptions({"onepass", "naive_bayes"})],  # base="naive_bayes" and numeric: _base_estimator
    }

    def __init__(self, *, code="bch", code_length=15, decoding="weighted", base="onepass", numeric="normal",
                 kde_evaluation="weka_cell", var_smoothing=1e-9, alpha=1.0, max_tries=MAX_TRIES, random_state=None,
                 categorical_features=None, n_categories=None, cache_dir=None):
        super().__init__(code=code, code_length=code_length, decoding=decoding, numeric=numeric,
                         kde_evaluation=kde_evaluation, var_smoothing=var_smoothing, alpha=alpha, max_tries=max_tries,
                         random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, cache_dir=cache_dir)
        self.base = base

    def _base_estimator(self):
        if self.base == "onepass":
            return OnePassNaiveBayes(numeric=self.numeric, kde_evaluation=self.kde_evaluation,
                                     var_smoothing=self.var_smoothing, alpha=self.alpha,
                                     categorical_features=self.categorical_features, n_categories=self.n_categories)
        if self.base == "naive_bayes":
            from .naive_bayes import NaiveBayes

            kinds = {"normal": "gaussian", "kernel": "kde"}
            if self.numeric not in kinds:
                raise ValueError(f"base='naive_bayes' has no {self.numeric!r} estimator")
            return NaiveBayes(numeric=kinds[self.numeric], kde_evaluation=self.kde_evaluation, bandwidth="weka",
                              precision_rounding=True, smoothing="laplace", var_smoothing=self.var_smoothing,
                              missing="skip", categorical_features=self.categorical_features,
                              n_categories=self.n_categories)
        raise ValueError(f"base must be 'onepass' or 'naive_bayes', got {self.base!r}")

    def fit(self, X, y):
        self._validate_params()
        if y is None:
            raise ValueError("StraightforwardECOC requires y to be passed, but the target y is None")
        proto = self._base_estimator()
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc", "coo") if self.base == "onepass" else False,
                             dtype=np.float64, ensure_all_finite="allow-nan")
        if y.dtype.kind not in "iub":
            check_classification_targets(y)
        if sp.issparse(X):
            X = as_csr(X)
        self.classes_, yc = class_codes(y)
        if self.classes_.size < 2:
            raise ValueError(f"StraightforwardECOC needs at least 2 classes to learn from; got 1 class "
                             f"({self.classes_[0].tolist()!r})")
        self._draw_code()
        self.estimators_ = []
        for b in range(self.n_bits_):           # n independent trainings on relabelled data
            sign = self.code_matrix_[yc, b]
            rows = np.flatnonzero(sign != 0)
            self.estimators_.append(clone(proto).fit(X[rows], (sign[rows] > 0).astype(np.int64)))
        return self

    def predict_binary_proba(self, X):
        check_is_fitted(self, "estimators_")
        X = validate_data(self, X, reset=False, accept_sparse=("csr", "csc", "coo") if self.base == "onepass"
                          else False, dtype=np.float64, ensure_all_finite="allow-nan")
        if sp.issparse(X):
            X = as_csr(X)
        return np.column_stack([est.predict_proba(X)[:, 1] for est in self.estimators_])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self.base == "onepass"
        return tags
