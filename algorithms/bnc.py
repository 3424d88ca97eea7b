"""Bayesian network classifiers with the class as a parent of every attribute:
TAN, KDB-k, SKDB and KDF, on the count engine of :mod:`algorithms._counts` and
the smoothing of :mod:`algorithms.hdp` (Zhang, Petitjean and Buntine 2020,
"Bayesian network classifiers using ensembles and smoothing", Sects. 2.1-2.4, 4.1).

Learners
--------
* :class:`TAN` (Friedman et al. 1997): a maximum spanning tree over the attributes
  weighted by the conditional mutual information ``I(X_i; X_j | Y)`` (Chow and Liu);
  each attribute gets its tree parent as second parent. ``root`` says how the edges
  are directed: an attribute index grows the tree with Prim's algorithm from that
  attribute and directs every edge away from it (``root=0`` is the ESKDB code's
  ``learnStructureTAN``: ``findMST`` from attribute 0); ``root="weka"`` reproduces
  Weka 3.6's ``search.local.TAN`` with ``-S ENTROPY`` exactly: edge weights are
  Weka's log-likelihood gains computed with Weka's arithmetic, the tree is grown from
  the strongest edge, and edges are directed by Weka's rule (read from the 3.6.14
  bytecode; see :func:`weka_tan_parents`).
* :class:`KDB` (Sahami 1996): attributes ordered by ``I(X_i; Y)`` (descending); the
  attribute at position ``u`` takes as parents the ``min(u, k)`` earlier attributes with
  the highest ``I(X_i; X_j | Y)``, listed by decreasing CMI (the order of the back-off
  levels). Ties: ``tie_order="stable"`` = lower index / earlier position first;
  ``"weka"`` = the ESKDB code's reversed Weka quicksort (:func:`descending_order`).
* :class:`SKDB` (Martinez, Webb, Chen and Zaidi 2016, JMLR 17(44)): pass 1 learns the
  KDB structure for ``max_k``; pass 2 counts every family with its ``max_k`` parents
  (the counts of every KDB-k, k <= max_k, are the prefixes of these tries); pass 3 is
  an incremental leave-one-out cross-validation over the training data that scores
  every model (k, n') -- the first n' attributes of the order, each with its first
  min(k, .) parents -- at once, subtracting each instance's own counts. The loss is
  the RMSE of the LOO posteriors; the class-prior-only model is the starting best;
  (n*, k*) is the first strict improvement scanning n' = 1..n outer and k = 0..max_k
  inner (the ESKDB code's ``learnStructureSKDB`` order). ``selection="attributes"`` keeps
  k = max_k and selects n* alone, as Petal's ``selective-kdb`` does by default; see
  :class:`SKDB` for the rules Petal uses.
* :class:`KDF` (Duan and Wang 2017): one KDB per attribute, with that attribute first;
  the class posteriors of the members are averaged. The member order and parents
  follow the ESKDB code's ``learnStructureKDBForest`` (which produced Zhang et al. 2020's KDF
  numbers): after the root, the next attribute maximises ``sum_i I(Y; X_j | X_i)`` over
  the attributes already placed; an attribute's first parent is the earlier attribute
  with the highest ``I(X_u; X_p | Y)`` and the others are that parent's own ancestors
  (parent, grand-parent, ...), up to k.

Parameter estimation (Zhang et al. 2020 Sects. 2.4 and 4.1)
--------------------------------------------------
Every family (attribute ``X`` with parents ``Pa_1..Pa_k``) is a probability tree with
the class as first level, as in Petitjean et al. (2018): node ``(y, pa_1..pa_d)`` at
depth ``d`` holds the counts ``#(X, y, pa_1..pa_d)``.

* ``smoothing="m_estimate"``: ``P(x | node) = (#(x, node) + M/|X|) / (#(node) + M)``
  (base rate ``1/|X|``) and ``P(y) = (#y + M/C) / (N + M)``. With ``backoff=True``
  (Zhang et al. 2020 Sect. 4.1: "when the leaf node has no data, back off the probability
  estimates to its nearest non-empty ancestor") the estimate comes from the deepest
  node on the instance's path that has training data for that class; the root
  (``P(x)`` over all classes) is used only for a class without training data. This is
  the estimate and query of :func:`algorithms.hdp.m_estimate_family`.
  With ``backoff="seen_parents"`` (Petal's ``kdb.cpp`` and ``selective-kdb``, through
  ``distributionCatTree::updateClassDistribution``) the node is the deepest one on the path
  whose parent values were seen in training with any class, the same for every class:
  a class without rows there gets ``(0 + M/|X|) / (0 + M) = 1/|X|`` instead of backing off.
  ``m``: Zhang et al. 2020 Sect. 2.4 says M "is usually set to 1" with base rate ``b = 1/C``;
  its Table 2 prints ``M = 1/C``. The ESKDB code uses M = 1 (``SUtils.m_MEsti = 1.0``
  in ``MEsti(n, N, k) = (n + M/k) / (N + M)``), i.e. a class count receives the
  pseudo-count ``M b = 1/C`` that Table 2 names; the configs use ``m=1.0``.
  ``m="1/C"`` is the literal reading of Table 2 (M = 1/C, so a class count receives
  ``1/C^2`` and an attribute value ``1/(C |X|)``).
* ``smoothing="laplace"``: ``(#(x, node) + alpha) / (#(node) + alpha |X|)`` (Lidstone;
  Laplace for ``alpha=1``, "a special case of M-estimation where M = C"), class prior
  ``(#y + alpha) / (N + alpha C)``. With ``backoff=False`` this is Weka's
  ``SimpleEstimator -A alpha`` (an unseen parent configuration gets ``1/|X|``).
* ``smoothing="hdp"``: the HDP estimates of :mod:`algorithms.hdp` (collapsed Gibbs
  sampler over table counts, Zhang et al. 2020 Sects. 2.5 and 3.3) on the same trees, with the
  settings of ``hdp_settings`` (a dict of :class:`algorithms.hdp.HDPSettings` fields:
  1000 iterations, burn-in 100, LEVEL tying, Gamma(2, 1) prior by default); the class
  prior is the M-estimate; queries back off to the deepest existing node. SKDB's
  selection pass always scores with M-estimates (the ESKDB code learns SKDB's structure
  with ``MEsti`` and smooths the selected families afterwards).

Data
----
Nominal attributes only (numeric columns raise an error that says to discretise them;
the configs run the MDL discretiser first). ``missing="value"`` (default; Zhang et al. 2020
Sect. 4.1: "A missing value is treated as a separate attribute value") gives an
attribute one more value where missing values can occur (``missing_slot="observed"``:
seen missing in the training data, or declared); complete attributes keep ``|X|``
values, so the M-estimate's base rate is ``1/|X|`` as in the ESKDB code (which codes a
missing value as 0); ``missing_slot="always"`` restores the extra value everywhere; ``missing="mode"`` replaces a missing value by the most
frequent training value of its column (ties to the lower code), as Weka's BayesNet does
with ``ReplaceMissingValues``; the modes come from the first ``fit``/``partial_fit``
chunk.

Passes, ``partial_fit`` and the fast path
-----------------------------------------
Pass 1 (the pair tables for MI and CMI) and pass 2 (the families) each read the data
once; SKDB's pass 3 reads it once more (a Numba kernel over the instances, in chunks).
The Numba kernels (MI/CMI, Weka's sort and TAN scores, run sums, the family walk and the
leave-one-out) live in :mod:`algorithms._bnc_kernels`.
The structure depends on all the data, so ``partial_fit`` learns the structure
(passes 1-3) on its first chunk and later chunks only add their counts to the fixed
families (pass 2). ``partial_fit`` over chunks therefore equals ``fit`` when the
structure from the first chunk equals the structure from all data; the counts are
integers, so splitting the later chunks differently never changes the model.
``fit_encoded`` / ``predict_proba_encoded`` skip validation and encoding for callers
that already hold int codes (ESKDB's members on their own discretisation).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Integral, Interval, Real, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._base import (NOMINAL_COLUMNS_CONSTRAINTS, RANDOM_STATE_CONSTRAINT, AllowNanTagsMixin, PredictFromLogJointMixin,
                    ProbaFromLogJointMixin, first_batch_classes, logsumexp_rows)
from ._bnc_kernels import (BACKOFF_CLASS, BACKOFF_NONE, BACKOFF_SEEN_PARENTS, _family_log_prob, _information_kernel,
                           _loo_attribute, _loo_attribute_authors, _loo_attribute_min_count, _loo_prior,
                           _petal_information_kernel, _sum_runs_kernel, _walk_tree, _weka_sort_kernel,
                           _weka_tan_scores)
from . import hdp as H
from ._counts import (BLOCK_ROWS, MAX_TABLE_BYTES_CONSTRAINT, AllSubsetCounts, CountTableTooLarge, class_codes,
                      code_dtype, encode, encode_classes, grown_values, value_maps)
from ._nominal import declared_values

SMOOTHINGS = ("m_estimate", "laplace", "hdp")
MISSING_MODES = ("value", "mode")
MISSING_SLOTS = ("observed", "always")
LOO_LOSSES = ("true_class", "all_classes")
TIE_ORDERS = ("stable", "weka", "float_std_sort")
LOO_RULES = ("exact", "authors", "min_count")
#: SKDB: what pass 3 selects
SELECTIONS = ("k_and_attributes", "attributes")
#: ``backoff`` values besides True / False
BACKOFF_RULES = ("seen_parents",)
#: rows per block in prediction and in SKDB's selection pass
CHUNK_ROWS = 1 << 16
#: mixed-radix keys of a family (parent path x child value x class) must stay below this
KEY_LIMIT = 1 << 62


# =========================================================================== pass 1: MI and CMI


@dataclass
class PairInformation:
    """Pass 1 of the KDB family: the attribute-pair x class counts and the information
    measures read from them (bits).

    Attributes
    ----------
    counts : AllSubsetCounts (order <= 2)
    mi : (d,) ``I(X_i; Y)``
    cmi : (d, d) ``I(X_i; X_j | Y)``, symmetric, zero diagonal
    cmi_class : (d, d) ``I(Y; X_j | X_i)`` at ``[i, j]`` (KDF)
    """
    counts: AllSubsetCounts
    mi: np.ndarray
    cmi: np.ndarray
    cmi_class: np.ndarray


def pairwise_information(codes, y, n_values, n_classes: int, max_table_bytes="auto",
                         block_rows: int = BLOCK_ROWS) -> PairInformation:
    """Count ``#(x_i, y)`` and ``#(x_i, x_j, y)`` for all attributes and pairs in one pass
    (``codes`` from :func:`algorithms._counts.encode`, no negative codes; ``y`` class codes)
    and return MI and CMI. Public so that ESKDB can sample its attribute orders from ``mi``
    and hand the same object to :meth:`SKDB.fit_encoded`."""
    n_values = np.asarray(n_values, dtype=np.int64)
    d = n_values.size
    counts = AllSubsetCounts.allocate(n_values, n_classes, 2, max_table_bytes, what="pair tables (MI, CMI)",
                                      expected_rows=codes.shape[0])
    if codes.shape[0]:
        counts.add(np.asfortranarray(codes), encode_classes(y, n_classes), block_rows)
    mi = np.zeros(d)
    cmi = np.zeros((d, d))
    cmi_class = np.zeros((d, d))
    pair_sets = counts.tables[2].attribute_sets if 2 in counts.tables else np.zeros((0, 2), np.int64)
    if counts.n_rows:
        _information_kernel(pair_sets, counts.set_offsets, int(counts.set_start[1]),
                            int(counts.set_start[2]) if 2 in counts.tables else 0, n_values, int(n_classes),
                            counts.counts, counts.n_rows, mi, cmi, cmi_class)
    return PairInformation(counts, mi, cmi, cmi_class)


def petal_information(info: PairInformation) -> tuple[np.ndarray, np.ndarray]:
    """``(mi, cmi)`` as float32, computed from ``info``'s counts as Petal computes them (see
    :func:`algorithms._bnc_kernels._petal_information_kernel`): values equal in float are equal,
    and near-equal values keep Petal's rounding (what ``tie_order="float_std_sort"`` orders)."""
    counts = info.counts
    d = info.mi.size
    mi = np.zeros(d, dtype=np.float32)
    cmi = np.zeros((d, d), dtype=np.float32)
    pair_sets = counts.tables[2].attribute_sets if 2 in counts.tables else np.zeros((0, 2), np.int64)
    if counts.n_rows and d:
        _petal_information_kernel(pair_sets, counts.set_offsets, int(counts.set_start[1]),
                                  int(counts.set_start[2]) if 2 in counts.tables else 0,
                                  np.asarray(counts.n_values, dtype=np.int64), int(counts.n_classes), counts.counts,
                                  counts.n_rows, mi, cmi)
    return mi, cmi


# =========================================================================== structures


def weka_sort(values) -> np.ndarray:
    """The index permutation of Weka 3.6.14's ``weka.core.Utils.sort(double[])``: ascending,
    equal values in the (unstable) order its quicksort leaves them."""
    v = np.ascontiguousarray(values, dtype=np.float64)
    index = np.arange(v.size, dtype=np.int64)
    _weka_sort_kernel(v, index)
    return index


def std_sort(keys, greater: bool = True) -> np.ndarray:
    """The permutation ``std::sort(idx.begin(), idx.end(), cmp)`` of libstdc++ (GCC 4.9 to 14) leaves
    in ``idx = 0..n-1``, with ``cmp(a, b) = keys[a] > keys[b]`` (``greater``) or ``<``: introsort
    (median of three moved to the front, unguarded partition, heapsort past ``2 floor(log2 n)``
    levels) down to ranges of 16, then insertion sort. Not stable for n > 16 (for n <= 16 it is
    one insertion sort, which is). Petal's KDB orders its attributes with it."""
    key = [float(v) for v in np.asarray(keys).ravel()]
    idx = list(range(len(key)))
    comp = (lambda a, b: key[a] > key[b]) if greater else (lambda a, b: key[a] < key[b])

    def adjust_heap(first, hole, length, value):
        top, child = hole, hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if comp(idx[first + child], idx[first + child - 1]):
                child -= 1
            idx[first + hole] = idx[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            idx[first + hole] = idx[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and comp(idx[first + parent], value):
            idx[first + hole] = idx[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        idx[first + hole] = value

    def heap_sort(first, last):               # std::__partial_sort(first, last, last)
        length = last - first
        if length >= 2:
            parent = (length - 2) // 2
            while True:
                adjust_heap(first, parent, length, idx[first + parent])
                if parent == 0:
                    break
                parent -= 1
        while last - first > 1:
            last -= 1
            value = idx[last]
            idx[last] = idx[first]
            adjust_heap(first, 0, last - first, value)

    def introsort(first, last, depth):
        while last - first > 16:
            if depth == 0:
                heap_sort(first, last)
                return
            depth -= 1
            a, b, c = first + 1, first + (last - first) // 2, last - 1
            if comp(idx[a], idx[b]):
                m = b if comp(idx[b], idx[c]) else (c if comp(idx[a], idx[c]) else a)
            else:
                m = a if comp(idx[a], idx[c]) else (c if comp(idx[b], idx[c]) else b)
            idx[first], idx[m] = idx[m], idx[first]
            lo, hi = first + 1, last
            while True:
                while comp(idx[lo], idx[first]):
                    lo += 1
                hi -= 1
                while comp(idx[first], idx[hi]):
                    hi -= 1
                if not lo < hi:
                    break
                idx[lo], idx[hi] = idx[hi], idx[lo]
                lo += 1
            introsort(lo, last, depth)
            last = lo

    def linear_insert(i):
        val = idx[i]
        j = i - 1
        while comp(val, idx[j]):
            idx[j + 1] = idx[j]
            j -= 1
        idx[j + 1] = val

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            if comp(idx[i], idx[first]):
                val = idx[i]
                idx[first + 1:i + 1] = idx[first:i]
                idx[first] = val
            else:
                linear_insert(i)

    n = len(idx)
    if n > 1:
        introsort(0, n, 2 * (n.bit_length() - 1))
        if n > 16:
            insertion_sort(0, 16)
            for i in range(16, n):
                linear_insert(i)
        else:
            insertion_sort(0, n)
    return np.asarray(idx, dtype=np.int64)


def descending_order(values, tie_order: str = "stable") -> np.ndarray:
    """Indices of ``values`` from largest to smallest.

    ``tie_order="stable"``: equal values keep the lower index first (this implementation's rule).
    ``tie_order="weka"``: the ESKDB code's ``SUtils.sort``, i.e. Weka 3.6's ascending
    ``Utils.sort`` read backwards; as that quicksort mostly leaves equal values in index
    order, the higher index then tends to come first among equal values (not always: the
    quicksort is not stable, and :func:`weka_sort` reproduces it exactly).
    ``tie_order="float_std_sort"``: the values rounded to float32, in the order of libstdc++'s
    ``std::sort`` with ``>`` (:func:`std_sort`), as Petal's ``kdb.cpp`` orders the attributes by MI."""
    if tie_order == "float_std_sort":
        return std_sort(np.asarray(values, dtype=np.float32), greater=True)
    if tie_order == "stable":
        return np.argsort(-np.asarray(values, dtype=np.float64), kind="stable").astype(np.int64)
    if tie_order == "weka":
        return weka_sort(values)[::-1].copy()
    raise ValueError(f"tie_order must be one of {TIE_ORDERS}, got {tie_order!r}")


def mi_order(mi, tie_order: str = "stable") -> np.ndarray:
    """Attributes by decreasing ``I(X; Y)``; ties as :func:`descending_order` says
    (``"stable"``: the lower index first)."""
    return descending_order(mi, tie_order)


def kdb_parents(order, cmi, k: int, tie_order: str = "stable") -> dict:
    """KDB (Sahami 1996): ``{attribute: parents}``; the attribute at position ``u`` of
    ``order`` takes the ``min(u, k)`` earlier attributes with the highest ``cmi[a, .]``,
    listed by decreasing CMI (ties: ``"stable"`` = earlier in the order first; ``"weka"`` =
    the ESKDB code's reversed Weka sort of ``cmi[a, order[:u]]``, see :func:`descending_order`;
    ``"float_std_sort"`` = ``"stable"`` on the CMI rounded to float32, which is what Petal's
    ``kdb.cpp`` insertion of each earlier attribute into the parent list, by strictly greater
    float CMI, gives)."""
    order = np.asarray(order, dtype=np.int64)
    if tie_order == "float_std_sort":
        cmi, tie_order = np.asarray(cmi, dtype=np.float32), "stable"
    out = {}
    for u, a in enumerate(order):
        before = order[:u]
        take = min(u, int(k))
        if take == 0:
            out[int(a)] = ()
            continue
        rank = descending_order(cmi[a, before], tie_order)[:take]
        out[int(a)] = tuple(int(p) for p in before[rank])
    return out


def prim_tree_parents(weight, root: int) -> np.ndarray:
    """Maximum spanning tree by Prim's algorithm from ``root``, edges directed away from
    it: ``parent[i]`` (-1 at the root). The node with the largest weight to the tree joins
    next (ties: lowest index), and a node's parent is the tree node that first gave it its
    largest weight (the ESKDB code's ``CorrelationMeasures.findMST``)."""
    w = np.asarray(weight, dtype=np.float64)
    d = w.shape[0]
    parent = np.full(d, -1, dtype=np.int64)
    if d == 0:
        return parent
    in_tree = np.zeros(d, dtype=bool)
    in_tree[root] = True
    best = w[root].copy()
    parent[:] = root
    parent[root] = -1
    for _ in range(d - 1):
        cand = np.where(in_tree, -np.inf, best)
        nxt = int(np.argmax(cand))
        in_tree[nxt] = True
        better = (~in_tree) & (best < w[nxt])
        best = np.where(better, w[nxt], best)
        parent[better] = nxt
    return parent


def weka_tan_parents(info: PairInformation) -> np.ndarray:
    """The tree of Weka 3.6's ``search.local.TAN -S ENTROPY`` (``parent[i]``, -1 at the root).

    1. the strongest link: the first (head i, tail j), i outer and j inner, with the
       largest gain ``delta[i, j]`` (Weka's strict ``>`` scan);
    2. each further link joins exactly one linked and one unlinked attribute, chosen the
       same way;
    3. links are directed in the order found: link (head i, tail j) makes ``i`` the parent
       of ``j`` when ``j`` has no parent yet, else ``j`` the parent of ``i``.
    """
    cnt = info.counts
    d = cnt.n_values.size
    parent = np.full(d, -1, dtype=np.int64)
    if d < 2:
        return parent
    delta = np.full((d, d), -np.inf)
    _weka_tan_scores(cnt.tables[2].attribute_sets, cnt.set_offsets, int(cnt.set_start[1]), int(cnt.set_start[2]),
                     cnt.n_values, cnt.n_classes, cnt.counts, delta)
    linked = np.zeros(d, dtype=bool)
    links = []
    flat = int(np.argmax(delta))                        # first maximum in row-major order
    head, tail = divmod(flat, d)
    links.append((tail, head))
    linked[[head, tail]] = True
    for _ in range(d - 2):
        cand = np.where(linked[:, None] ^ linked[None, :], delta, -np.inf)
        head, tail = divmod(int(np.argmax(cand)), d)
        links.append((tail, head))
        linked[[head, tail]] = True
    has_parent = np.zeros(d, dtype=bool)
    for link1, link2 in links:
        if not has_parent[link1]:
            parent[link1] = link2
            has_parent[link1] = True
        else:
            parent[link2] = link1
            has_parent[link2] = True
    return parent


def kdf_member(root: int, cmi, cmi_class, k: int) -> tuple[np.ndarray, dict]:
    """One KDF member (the ESKDB code's ``learnStructureKDBForest``): ``(order, parents)``.

    Order: ``root`` first; then repeatedly the unplaced attribute with the largest
    ``sum_{i placed} I(Y; X_j | X_i)`` (ties: lowest index). Parents of the attribute at
    position u >= 1: its first parent p is the earlier attribute with the largest
    ``I(X_u; X_p | Y)`` (ties: earliest); its ancestor list is ``[p] + ancestors(p)``
    and its parents are the first ``min(len, k)`` of that list."""
    d = cmi.shape[0]
    order = [int(root)]
    placed = np.zeros(d, dtype=bool)
    placed[root] = True
    score = np.zeros(d)
    while len(order) < d:
        score += cmi_class[order[-1]]
        nxt = int(np.argmax(np.where(placed, -np.inf, score)))
        order.append(nxt)
        placed[nxt] = True
    ancestors = {order[0]: []}
    parents = {order[0]: ()}
    for u in range(1, d):
        a = order[u]
        before = np.asarray(order[:u])
        p = int(before[int(np.argmax(cmi[a, before]))])
        anc = [p] + ancestors[p]
        ancestors[a] = anc
        parents[a] = tuple(anc[:int(k)])
    return np.asarray(order, dtype=np.int64), parents


# =========================================================================== families
@dataclass
class FamilyLevels:
    """The probability tree of a family down to ``depth`` parents, flattened for the kernels.

    Depth ``d`` (0..depth) holds the nodes ``(pa_1..pa_d)`` seen in training with their
    class counts ``#(y, pa_1..pa_d)`` and the cells ``(pa_1..pa_d, x)`` with ``#(x, y, pa..)``;
    keys are mixed-radix codes (``pa_1`` most significant; a cell is ``node * |X| + x``),
    sorted. All depths are stacked: depth d's nodes are rows ``node_offset[d]:node_offset[d+1]``
    of ``node_keys`` / ``node_counts`` (cells likewise).

    Navigation: ``child[child_offset[d] + i * |Pa_d| + v]`` is the depth-d node under node i of
    depth d-1 for parent value v (-1: none), and ``cell_map[cell_map_offset[d] + i * |X| + x]``
    the cell of node i of depth d with value x; an offset of -1 means that table would be
    sparse (more than 8 slots per entry) and the kernel binary-searches the keys instead.
    """
    node_keys: np.ndarray
    cell_keys: np.ndarray
    node_counts: np.ndarray
    cell_counts: np.ndarray
    node_offset: np.ndarray
    cell_offset: np.ndarray
    child: np.ndarray
    child_offset: np.ndarray
    cell_map: np.ndarray
    cell_map_offset: np.ndarray
    root_x: np.ndarray        # (|X|,) #(x) over all classes
    root_total: int           # rows counted


class FamilyTable:
    """Counts of one family: attribute ``attribute`` given the class and ``parents`` (in
    back-off order). Sparse: the observed leaf cells ``(pa_1..pa_k, x)`` as sorted keys
    ``path * |X| + x`` with their class-count vectors ``counts`` (m, C); every shallower
    level is derived from them (:meth:`levels`), so one table serves every k' <= k."""

    def __init__(self, attribute: int, parents, n_values, n_classes: int):
        self.attribute = int(attribute)
        self.parents = tuple(int(p) for p in parents)
        n_values = np.asarray(n_values, dtype=np.int64)
        self.arities = tuple(int(n_values[p]) for p in self.parents)
        self.n_child = int(n_values[self.attribute])
        self.n_classes = int(n_classes)
        paths = 1
        for a in self.arities:
            paths *= a
        self.n_paths = paths
        if paths * self.n_child * self.n_classes >= KEY_LIMIT:
            raise CountTableTooLarge(
                f"the family of attribute {self.attribute} with parents {list(self.parents)} has "
                f"{paths * self.n_child * self.n_classes:.3g} possible cells, too many for 63-bit keys; "
                f"use fewer parents or coarser attributes")
        self.keys = np.zeros(0, dtype=np.int64)
        self.counts = np.zeros((0, self.n_classes), dtype=np.int64)
        self.n_rows = 0

    @property
    def key(self) -> tuple:
        return (self.attribute, self.parents)

    def regrow(self, n_values, maps) -> None:
        """The same counts over more values per attribute (``maps[a][v]``: the new index of value
        ``v`` of attribute ``a``; see ``algorithms._counts.value_maps``): every key re-coded."""
        n_values = np.asarray(n_values, dtype=np.int64)
        x = self.keys % self.n_child
        path = self.keys // self.n_child
        digits = []
        for a in reversed(self.arities):
            digits.append(path % a)
            path = path // a
        arities = tuple(int(n_values[p]) for p in self.parents)
        n_child = int(n_values[self.attribute])
        paths = 1
        for a in arities:
            paths *= a
        if paths * n_child * self.n_classes >= KEY_LIMIT:
            raise CountTableTooLarge(f"the family of attribute {self.attribute} with parents {list(self.parents)} "
                                     f"grew to {paths * n_child * self.n_classes:.3g} possible cells, too many for "
                                     f"63-bit keys; declare n_categories, or use fewer parents")
        new_path = np.zeros(self.keys.size, dtype=np.int64)
        for p, dgt, a in zip(self.parents, reversed(digits), arities):
            new_path = new_path * a + maps[p][dgt]
        keys = new_path * n_child + maps[self.attribute][x]
        order = np.argsort(keys, kind="stable")
        self.keys, self.counts = keys[order], self.counts[order]
        self.arities, self.n_child, self.n_paths = arities, n_child, paths

    def path_codes(self, codes: np.ndarray, depth: int | None = None) -> np.ndarray:
        """Mixed-radix code of each row's values of the first ``depth`` parents."""
        depth = len(self.parents) if depth is None else depth
        path = np.zeros(codes.shape[0], dtype=np.int64)
        for p, a in zip(self.parents[:depth], self.arities[:depth]):
            path *= a
            path += codes[:, p]
        return path

    def add(self, codes: np.ndarray, y: np.ndarray) -> None:
        """Count rows (int codes, no negative values) with class codes ``y``."""
        n = codes.shape[0]
        if n == 0:
            return
        V, C = self.n_child, self.n_classes
        key = (self.path_codes(codes) * V + codes[:, self.attribute]) * C + np.asarray(y, dtype=np.int64)
        size = self.n_paths * V * C
        if size <= max(1 << 16, 4 * n):
            dense = np.bincount(key, minlength=size)
            uniq = np.flatnonzero(dense)
            cnt = dense[uniq]
        else:
            uniq, cnt = np.unique(key, return_counts=True)
        cells = uniq // C
        start = np.r_[True, cells[1:] != cells[:-1]]
        row = np.cumsum(start) - 1
        keys = cells[start]
        counts = np.zeros((keys.size, C), dtype=np.int64)
        counts[row, uniq % C] = cnt
        if self.keys.size:
            keys = np.concatenate([self.keys, keys])
            counts = np.concatenate([self.counts, counts])
            order = np.argsort(keys, kind="stable")
            keys, counts = keys[order], counts[order]
            first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
            keys, counts = keys[first], _sum_runs(counts, first)
        self.keys, self.counts = keys, counts
        self.n_rows += n

    def truncated(self, depth: int) -> "FamilyTable":
        """The same family with only its first ``depth`` parents (counts summed)."""
        out = FamilyTable.__new__(FamilyTable)
        out.attribute, out.parents = self.attribute, self.parents[:depth]
        out.arities, out.n_child, out.n_classes = self.arities[:depth], self.n_child, self.n_classes
        out.n_paths = int(np.prod(out.arities, dtype=object)) if depth else 1
        out.n_rows = self.n_rows
        div = int(np.prod(self.arities[depth:], dtype=object)) if depth < len(self.parents) else 1
        if div == 1:
            out.keys, out.counts = self.keys.copy(), self.counts.copy()
        else:
            cell = (self.keys // self.n_child) // div * self.n_child + self.keys % self.n_child
            out.keys, out.counts = _sum_by_key(cell, self.counts)
        return out

    def levels(self, depth: int | None = None) -> FamilyLevels:
        """Node and cell counts at every depth 0..depth (default: all parents)."""
        k = len(self.parents) if depth is None else depth
        V = self.n_child
        path = self.keys // V
        x = self.keys % V
        full = len(self.parents)
        node_keys, cell_keys, node_counts, cell_counts = [], [], [], []
        for d in range(k + 1):
            div = int(np.prod(self.arities[d:], dtype=object)) if d < full else 1
            node = path // div if div > 1 else path
            if node.size:
                first = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])   # node is non-decreasing
                node_keys.append(node[first])
                node_counts.append(_sum_runs(self.counts, first))
            else:
                node_keys.append(node)
                node_counts.append(self.counts)
            if d == full:
                cell_keys.append(self.keys)
                cell_counts.append(self.counts)
            else:
                ck, cc = _sum_by_key(node * V + x, self.counts)
                cell_keys.append(ck)
                cell_counts.append(cc)
        node_offset = np.concatenate([[0], np.cumsum([a.size for a in node_keys])]).astype(np.int64)
        cell_offset = np.concatenate([[0], np.cumsum([a.size for a in cell_keys])]).astype(np.int64)
        child, child_offset, cell_map, cell_map_offset, used = [], np.full(k + 1, -1, np.int64), [], \
            np.full(k + 1, -1, np.int64), 0
        for d in range(1, k + 1):
            A = self.arities[d - 1]
            m_prev, m_d = node_keys[d - 1].size, node_keys[d].size
            if m_prev * A <= max(8 * m_d, 1 << 12):
                tbl = np.full(m_prev * A, -1, dtype=np.int64)
                up = np.searchsorted(node_keys[d - 1], node_keys[d] // A)
                tbl[up * A + node_keys[d] % A] = np.arange(m_d)
                child.append(tbl)
                child_offset[d] = used
                used += tbl.size
        used = 0
        for d in range(k + 1):
            m_d, c_d = node_keys[d].size, cell_keys[d].size
            if m_d * V <= max(8 * c_d, 1 << 12):
                tbl = np.full(m_d * V, -1, dtype=np.int64)
                up = np.searchsorted(node_keys[d], cell_keys[d] // V)
                tbl[up * V + cell_keys[d] % V] = np.arange(c_d)
                cell_map.append(tbl)
                cell_map_offset[d] = used
                used += tbl.size
        root_x = np.bincount(x, weights=self.counts.sum(axis=1), minlength=V).astype(np.int64) if x.size else \
            np.zeros(V, dtype=np.int64)
        cat = lambda parts: np.concatenate(parts) if parts else np.zeros(0, np.int64)
        return FamilyLevels(cat(node_keys), cat(cell_keys), np.ascontiguousarray(np.concatenate(node_counts)),
                            np.ascontiguousarray(np.concatenate(cell_counts)), node_offset, cell_offset,
                            cat(child), child_offset, cat(cell_map), cell_map_offset, root_x, int(self.counts.sum()))

    def lookup(self, lv: FamilyLevels, codes: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Per row and depth 0..depth: the row of its node and of its cell in ``lv``'s stacked
        counts, -1 where training never saw them (one Numba walk down the tree per row)."""
        n = codes.shape[0]
        node_idx = np.empty((n, depth + 1), dtype=np.int64)
        cell_idx = np.empty((n, depth + 1), dtype=np.int64)
        _walk_tree(codes, self.attribute, np.asarray(self.parents[:depth], dtype=np.int64),
                   np.asarray(self.arities[:depth], dtype=np.int64), self.n_child, lv.node_keys, lv.node_offset,
                   lv.cell_keys, lv.cell_offset, lv.child, lv.child_offset, lv.cell_map, lv.cell_map_offset,
                   node_idx, cell_idx)
        return node_idx, cell_idx

    def family_counts(self, depth: int | None = None) -> H.FamilyCounts:
        """The counts as :class:`algorithms.hdp.FamilyCounts` (paths ``[y, pa_1..pa_d]``) for HDP smoothing."""
        tbl = self if depth is None or depth == len(self.parents) else self.truncated(depth)
        V, C = tbl.n_child, tbl.n_classes
        rows, ys = np.nonzero(tbl.counts)
        cells = tbl.keys[rows]
        path = cells // V
        if tbl.parents:
            pv = np.stack(np.unravel_index(path, tbl.arities), axis=1)
        else:
            pv = np.zeros((rows.size, 0), dtype=np.int64)
        paths = np.column_stack([ys, pv]).astype(np.int64)
        counts = np.zeros((rows.size, V), dtype=np.int64)
        counts[np.arange(rows.size), cells % V] = tbl.counts[rows, ys]
        return H.FamilyCounts(paths, counts, (C,) + tbl.arities, V, tbl.attribute, tbl.parents)


def _sum_runs(counts: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Row sums of ``counts`` over the runs of rows starting at ``first`` (``np.add.reduceat``
    along axis 0, which is slow for 2-D arrays)."""
    out = np.zeros((first.size, counts.shape[1]), dtype=np.int64)
    _sum_runs_kernel(np.ascontiguousarray(counts), first.astype(np.int64), out)
    return out


def _sum_by_key(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique keys and the summed count rows."""
    if keys.size == 0:
        return keys.copy(), counts.copy()
    order = np.argsort(keys, kind="stable")
    ks = keys[order]
    first = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
    return ks[first], _sum_runs(counts[order], first)


# =========================================================================== the estimator base
class _BNCBase(PredictFromLogJointMixin, ProbaFromLogJointMixin, AllowNanTagsMixin, ClassifierMixin, BaseEstimator):
    """Shared machinery: validation, coding, counting, estimation and prediction.

    Subclasses implement ``_learn(codes, y)``, which sets ``self._members`` (a list of
    ``{attribute: parents}`` dicts, one per member of the model; attributes left out of a
    member are absent) and returns nothing; the base counts the families afterwards unless
    ``_learn`` already did (``self._families`` filled).
    """

    def __init__(self, *, smoothing, m, alpha, backoff, hdp_settings, missing, random_state, categorical_features,
                 n_categories, max_table_bytes):
        """The parameters every subclass has (a subclass's ``__init__`` sets its own, declaring all
        of them with their defaults, as scikit-learn reads a class's parameters from its ``__init__``)."""
        self.smoothing = smoothing
        self.m = m
        self.alpha = alpha
        self.backoff = backoff
        self.hdp_settings = hdp_settings
        self.missing = missing
        self.random_state = random_state
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.max_table_bytes = max_table_bytes

    # ------------------------------------------------------------------ parameters
    _parameter_constraints: dict = {
        "smoothing": [StrOptions(set(SMOOTHINGS))],
        "m": [Interval(Real, 0, None, closed="neither"), StrOptions({"1/C"})],
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "backoff": ["boolean", StrOptions(set(BACKOFF_RULES))],
        "hdp_settings": [dict, None],
        "missing": [StrOptions(set(MISSING_MODES))],
        "random_state": RANDOM_STATE_CONSTRAINT,
        **NOMINAL_COLUMNS_CONSTRAINTS,
        "max_table_bytes": MAX_TABLE_BYTES_CONSTRAINT,
    }
    #: of the subclasses that have a ``missing_slot``
    _slot_constraints: dict = {"missing_slot": [StrOptions(set(MISSING_SLOTS)), "array-like"]}
    #: of the KDB structures (KDB, SKDB): the above, a given ``order`` and the tie rule of MI / CMI
    _kdb_constraints: dict = {**_parameter_constraints, **_slot_constraints, "order": ["array-like", None],
                              "tie_order": [StrOptions(set(TIE_ORDERS))]}

    def _check_params(self):
        """The declared constraints (:attr:`_parameter_constraints`, a subclass adds its own), then
        what they cannot say: a ``missing_slot`` list holds column indices (or is a boolean mask),
        ``hdp_settings`` are fields of :class:`algorithms.hdp.HDPSettings`."""
        self._validate_params()
        ms = getattr(self, "missing_slot", "observed")
        if not isinstance(ms, str):
            arr = np.asarray(ms)
            if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iub"):
                raise ValueError(f"missing_slot must be one of {MISSING_SLOTS} or a list of column indices "
                                 f"(or a boolean mask), got {ms!r}")
        self._hdp_settings()

    def _hdp_settings(self) -> H.HDPSettings:
        try:
            return H.HDPSettings(**(self.hdp_settings or {}))
        except TypeError as exc:
            raise ValueError(f"hdp_settings: {exc}") from None

    def _backoff_code(self) -> int:
        """``backoff`` as the kernels' code (:data:`algorithms._bnc_kernels.BACKOFF_CLASS` ...)."""
        if isinstance(self.backoff, str):
            return BACKOFF_SEEN_PARENTS
        return BACKOFF_CLASS if self.backoff else BACKOFF_NONE

    def _m_value(self) -> float:
        C = self.classes_.size
        return 1.0 / C if self.m == "1/C" else float(self.m)

    def _terms(self, n_values: int, smoothing: str | None = None) -> tuple[float, float]:
        """``(a, b)`` of ``(count + a) / (total + b)`` for a variable with ``n_values`` values."""
        smoothing = smoothing or self.smoothing
        if smoothing == "laplace":
            return float(self.alpha), float(self.alpha) * n_values
        m = self._m_value()
        return m / n_values, m

    def _class_prior(self) -> np.ndarray:
        a0, b0 = self._terms(self.classes_.size)
        return (self.class_counts_ + a0) / (self.class_counts_.sum() + b0)

    # ------------------------------------------------------------------ data
    def _slot_mask(self, X) -> np.ndarray:
        """Columns that get a missing-value slot (``missing="value"``): ``missing_slot="observed"``
        those with a missing value in the first training chunk, ``"always"`` every column (this
        implementation's earlier rule), a list of indices (or a boolean mask) = those declared plus the observed."""
        d = X.shape[1]
        observed = np.isnan(X).any(axis=0) if X.shape[0] else np.zeros(d, dtype=bool)
        ms = getattr(self, "missing_slot", "observed")
        if isinstance(ms, str):
            return np.ones(d, dtype=bool) if ms == "always" else observed
        arr = np.asarray(ms)
        if arr.dtype == bool:
            if arr.shape != (d,):
                raise ValueError(f"missing_slot has {arr.size} entries for {d} columns")
            return observed | arr
        declared = np.zeros(d, dtype=bool)
        if arr.size and (arr.min() < 0 or arr.max() >= d):
            raise ValueError(f"missing_slot lists columns outside 0..{d - 1}: {arr.tolist()}")
        declared[arr.astype(np.int64)] = True
        return observed | declared

    def _encode(self, X) -> np.ndarray:
        """Int codes (column-major) with missing values coded as ``missing`` says: with
        ``"value"``, the column's slot (code ``declared values``) where it has one, else code 0
        (the ESKDB code's ``(int)`` of a missing value)."""
        codes = encode(X, self._declared_, "skip", what="X")
        if self.missing == "value":
            miss = codes < 0
            if miss.any():
                fill = np.where(self.missing_slot_, self._declared_, 0).astype(codes.dtype)
                codes = np.asfortranarray(np.where(miss, fill[None, :], codes))
            return codes
        if not hasattr(self, "modes_"):
            modes = np.zeros(codes.shape[1], dtype=np.int64)
            for j in range(codes.shape[1]):
                col = codes[:, j]
                col = col[col >= 0].astype(np.int64)
                if col.size:
                    modes[j] = int(np.argmax(np.bincount(col, minlength=int(self._declared_[j]))))
            self.modes_ = modes
        miss = codes < 0
        if miss.any():
            codes = np.where(miss, self.modes_[None, :].astype(codes.dtype), codes)
            codes = np.asfortranarray(codes)
        return codes

    # ------------------------------------------------------------------ training
    def fit(self, X, y):
        """Learn the structure and count its families (see the module docstring for the passes)."""
        self._reset()
        self._partial_fit(X, y, classes=None, first=True)
        self._finalise()
        return self

    def partial_fit(self, X, y, classes=None):
        """First call: learn the structure from this chunk; later calls: add the chunk's
        counts to the fixed families (a nominal code first seen in a later chunk grows them, when
        ``n_categories`` is not declared). ``classes`` (all labels) is needed on the first call
        unless that chunk holds them all."""
        first = not hasattr(self, "_families")
        if getattr(self, "_encoded_only", False):
            raise ValueError(f"{type(self).__name__} was fitted with fit_encoded; partial_fit needs fit or partial_fit")
        self._partial_fit(X, y, classes=classes, first=first)
        self._model = None
        return self

    def _reset(self):
        for attr in ("_families", "_members", "classes_", "_model", "modes_", "_encoded_only", "missing_slot_"):
            if hasattr(self, attr):
                delattr(self, attr)

    def _partial_fit(self, X, y, classes, first: bool):
        self._check_params()
        X, y = validate_data(self, X, y, reset=first, ensure_all_finite="allow-nan", dtype=np.float64)
        if y.dtype.kind not in "iub":
            check_classification_targets(y)
        if first:
            first_batch_classes(self, y, classes)
            declared = declared_values(self, X)
            self._declared_ = declared
            self.missing_slot_ = self._slot_mask(X) if self.missing == "value" else np.zeros(declared.size, bool)
            self.n_values_ = declared + self.missing_slot_.astype(np.int64)
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes {np.unique(classes)!r} differ from the first call's {self.classes_!r}")
        elif self.n_categories is None:
            grown = grown_values(self._declared_, X)
            if grown is not None:  # a code above those seen so far: the families' tables grow to it
                maps = value_maps(self._declared_, grown, self.missing_slot_)
                n_values = grown + self.missing_slot_.astype(np.int64)
                for tbl in self._families.values():
                    tbl.regrow(n_values, maps)
                self._declared_, self.n_values_ = grown, n_values
        yc = class_codes(y, self.classes_)[1].astype(np.int64)
        codes = self._encode(X)
        self._train_codes(codes, yc, first)

    def _train_codes(self, codes, yc, first: bool, **learn_kw):
        C = self.classes_.size
        if first:
            self.class_counts_ = np.zeros(C, dtype=np.int64)
            self._families = {}
            self._learn(codes, yc, **learn_kw)
            if not self._families:
                for member in self._members:
                    for a, pa in member.items():
                        if (a, pa) not in self._families:
                            self._families[(a, pa)] = FamilyTable(a, pa, self.n_values_, C)
                for tbl in self._families.values():
                    tbl.add(codes, yc)
        else:
            for tbl in self._families.values():
                tbl.add(codes, yc)
        self.class_counts_ += np.bincount(yc, minlength=C)

    def fit_encoded(self, codes, y, n_values, classes=None, **learn_kw):
        """Fit on int codes without validation (the fast path for ensembles).

        ``codes``: (n, d) ints ``0 .. n_values[j] - 1`` (missing values already coded);
        ``y``: (n,) class codes ``0 .. C - 1``; ``classes``: the labels (default
        ``arange(C)`` with ``C = max(y) + 1``). Extra keywords go to the structure learner
        (SKDB: ``order``, ``information``)."""
        self._check_params()
        self._reset()
        self._encoded_only = True
        y = np.asarray(y, dtype=np.int64)
        self.classes_ = np.arange(int(y.max()) + 1) if classes is None else np.asarray(classes)
        self.n_values_ = np.asarray(n_values, dtype=np.int64)
        self._declared_ = self.n_values_.copy()
        self.missing_slot_ = np.zeros(self.n_values_.size, dtype=bool)
        self.n_features_in_ = int(self.n_values_.size)
        codes = np.asfortranarray(np.asarray(codes).astype(code_dtype(int(self.n_values_.max(initial=1))),
                                                            copy=False))
        self._train_codes(codes, y, True, **learn_kw)
        self._finalise()
        return self

    # ------------------------------------------------------------------ estimation
    def _finalise(self):
        """Turn counts into the prediction model (levels for M/Laplace, HDP estimates)."""
        model = {"prior": self._class_prior(), "levels": {}, "hdp": {}}
        if self.smoothing == "hdp":
            keys = sorted(self._families)
            fams = [self._families[k].family_counts() for k in keys]
            ests = H.smooth_network(fams, self._hdp_settings(), self.random_state)
            model["hdp"] = dict(zip(keys, ests))
        else:
            for key, tbl in self._families.items():
                model["levels"][key] = tbl.levels()
        self._model = model
        self.diagnostics_ = {**getattr(self, "_extra", {}),
                             "n_families": len(self._families),
                             "family_cells": int(sum(t.keys.size for t in self._families.values()))}

    def _member_log_joint(self, member: dict, codes: np.ndarray) -> np.ndarray:
        """``log P(y) + sum_a log P(x_a | y, pa_a)`` for one member, shape (n, C)."""
        mdl = self._model
        n = codes.shape[0]
        out = np.tile(np.log(mdl["prior"]), (n, 1))
        if self.smoothing == "hdp":
            ests = [mdl["hdp"][(a, pa)] for a, pa in member.items()]
            if ests:
                out += H.joint_log_likelihood(codes, mdl["prior"], ests) - np.log(mdl["prior"])[None, :]
            return out
        backoff = self._backoff_code()
        for a, pa in member.items():
            tbl = self._families[(a, pa)]
            lv = mdl["levels"][(a, pa)]
            ta, tb = self._terms(tbl.n_child)
            node_idx, cell_idx = tbl.lookup(lv, codes, len(pa))
            _family_log_prob(node_idx, cell_idx, lv.node_counts, lv.cell_counts,
                             codes[:, a].astype(np.int64), lv.root_x, lv.root_total, ta, tb, backoff, out)
        return out

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        if getattr(self, "_model", None) is None:
            self._finalise()
        n = codes.shape[0]
        C = self.classes_.size
        out = np.zeros((n, C))
        for lo in range(0, n, CHUNK_ROWS):
            chunk = codes[lo:lo + CHUNK_ROWS]
            acc = np.zeros((chunk.shape[0], C))
            for member in self._members:
                lj = self._member_log_joint(member, chunk)
                acc += np.exp(lj - logsumexp_rows(lj))
            out[lo:lo + CHUNK_ROWS] = acc / len(self._members)
        return out

    def predict_proba_encoded(self, codes) -> np.ndarray:
        """Class probabilities for int codes ``0 .. n_values_[j] - 1`` (see :meth:`fit_encoded`;
        only the range of the codes is checked)."""
        check_is_fitted(self, "_families")
        codes = np.asfortranarray(np.asarray(codes))
        if codes.ndim != 2 or codes.shape[1] != self.n_values_.size:
            raise ValueError(f"codes must have shape (n, {self.n_values_.size}), got {codes.shape}")
        if codes.shape[0] and (codes.min() < 0 or np.any(codes.max(axis=0) >= self.n_values_)):
            bad = int(np.flatnonzero((codes.min(axis=0) < 0) | (codes.max(axis=0) >= self.n_values_))[0])
            raise ValueError(f"codes of column {bad} fall outside 0..{self.n_values_[bad] - 1}")
        return self._proba_codes(codes)

    def predict_log_joint(self, X):
        """``log P(y, x)`` per row and class (up to a per-row constant) for single-network
        models; for ensembles, the log of the averaged posterior."""
        check_is_fitted(self, "_families")
        if getattr(self, "_encoded_only", False):
            raise ValueError(f"{type(self).__name__} was fitted with fit_encoded: predict with predict_proba_encoded")
        X = validate_data(self, X, reset=False, ensure_all_finite="allow-nan", dtype=np.float64)
        codes = self._encode(X)
        if len(self._members) == 1:
            if getattr(self, "_model", None) is None:
                self._finalise()
            return np.concatenate([self._member_log_joint(self._members[0], codes[lo:lo + CHUNK_ROWS])
                                   for lo in range(0, codes.shape[0], CHUNK_ROWS)] or
                                  [np.zeros((0, self.classes_.size))])
        with np.errstate(divide="ignore"):
            return np.log(self._proba_codes(codes))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True
        return tags

    # ------------------------------------------------------------------ inspection
    @property
    def families_(self) -> dict:
        """``{(attribute, parents): FamilyTable}`` of the fitted model."""
        check_is_fitted(self, "_families")
        return self._families

    def _parents_list(self, member: dict) -> list:
        return [member.get(a) for a in range(self.n_values_.size)]

    def _kdb_structure(self, codes, y, order, information, k: int) -> dict:
        """KDB's structure (KDB and SKDB's pass 1): sets ``information_`` (``information``, else
        computed from the data) and ``order_`` (``order`` or the ``order`` parameter, else by
        decreasing MI); returns ``{attribute: parents}``, each with its k earlier attributes of
        highest CMI (ties by ``tie_order``)."""
        info = information or pairwise_information(codes, y, self.n_values_, self.classes_.size,
                                                   self.max_table_bytes)
        self.information_ = info
        given = _check_order(self.order if order is None else order, codes.shape[1])
        mi, cmi = _ordering_information(info, self.tie_order)
        self.order_ = mi_order(mi, self.tie_order) if given is None else given
        return kdb_parents(self.order_, cmi, k, self.tie_order)


_COMMON_DOC = """
    smoothing : {"m_estimate", "laplace", "hdp"}, default="m_estimate"
        Parameter estimates (module docstring). Zhang, Petitjean and Buntine 2020 use M-estimation with back-off
        for every BNC and HDP for ESKDB_HDP.
    m : float or "1/C", default=1.0
        M of the M-estimate (base rate ``1/|X|`` for attributes, ``1/C`` for the class).
    alpha : float, default=1.0
        Pseudo-count per value for ``smoothing="laplace"`` (Weka's ``-A``).
    backoff : bool or "seen_parents", default=True
        True: back off, class by class, to the nearest ancestor with data for the class (Zhang
        et al. 2020 Sect. 4.1); False uses the leaf, ``1/|X|`` when it is empty (Weka's
        SimpleEstimator); ``"seen_parents"``: the deepest node whose parent values (a prefix of
        the row's) were seen in training with any class and value, the same node for every
        class, so a class without rows there gets the base rate ``a / b`` (``1/|X|`` for the
        M-estimate) instead of backing off, as Petal's ``kdb.cpp`` does
        (``distributionCatTree::updateClassDistribution``). Ignored by HDP.
    hdp_settings : dict or None, default=None
        Fields of :class:`algorithms.hdp.HDPSettings` for ``smoothing="hdp"``.
    missing : {"value", "mode"}, default="value"
        A missing value as a value of its own (Zhang et al. 2020) or replaced by the column's
        training mode (Weka's BayesNet).
    missing_slot : {"observed", "always"} or list of column indices, default="observed"
        With ``missing="value"``, which columns get the extra value: ``"observed"`` only
        those with a missing value in the (first) training data, so that complete columns
        keep ``|X|`` values and the M-estimate's base rate ``1/|X|`` of the ESKDB code;
        ``"always"`` every column (this implementation's earlier rule: base rate ``1/(|X| + 1)`` even on
        complete data); a list (or boolean mask) declares columns that may have missing
        values, in addition to the observed ones. A missing value in a column without a
        slot (only possible at prediction or in a later ``partial_fit`` chunk) is coded 0,
        as the ESKDB code's ``(int) instance.value(u)`` does.
    random_state : int, Generator or None
        Seeds the HDP sampler (one generator per family).
    categorical_features, n_categories :
        Injected by the runner; every column must be nominal.
    max_table_bytes : int or "auto"
        Memory guard for the pair tables of pass 1.
"""


def _ordering_information(info: PairInformation, tie_order: str) -> tuple[np.ndarray, np.ndarray]:
    """The MI and CMI that order the attributes and choose the parents: Petal's float values
    (:func:`petal_information`) for ``tie_order="float_std_sort"``, else ``info``'s."""
    if tie_order == "float_std_sort":
        return petal_information(info)
    return info.mi, info.cmi


def _check_order(order, d: int) -> np.ndarray | None:
    if order is None:
        return None
    arr = np.asarray(order)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu" and not np.all(arr == np.round(arr)):
        raise ValueError(f"order must be a non-empty sequence of attribute indices, got {order!r}")
    arr = arr.astype(np.int64)
    if arr.min() < 0 or arr.max() >= d or np.unique(arr).size != arr.size:
        raise ValueError(f"order must list distinct attribute indices in 0..{d - 1}, got {arr.tolist()}")
    return arr


# =========================================================================== TAN
class TAN(_BNCBase):
    """Tree-augmented naive Bayes (Friedman, Geiger and Goldszmidt 1997).

    Parameters
    ----------
    root : int or "weka", default=0
        How the maximum spanning tree over ``I(X_i; X_j | Y)`` is grown and directed: an
        attribute index = Prim's algorithm from that attribute, every edge directed away
        from it (``0``: the ESKDB code's TAN); ``"weka"`` = Weka 3.6's ``search.local.TAN``
        with ``-S ENTROPY`` (its gains, tie-breaks and edge directions; the root is
        whichever attribute Weka's rule leaves without a parent).
    """ + _COMMON_DOC + """
    Attributes
    ----------
    classes_, class_counts_, n_values_
    tree_parent_ : (d,) the tree parent of each attribute (-1 at the root)
    parents_ : list of parent tuples (class implicit)
    information_ : PairInformation (MI, CMI)
    """

    def __init__(self, *, root=0, smoothing="m_estimate", m=1.0, alpha=1.0, backoff=True, hdp_settings=None,
                 missing="value", missing_slot="observed", random_state=None, categorical_features=None,
                 n_categories=None, max_table_bytes="auto"):
        self.root = root
        self.missing_slot = missing_slot
        super().__init__(smoothing=smoothing, m=m, alpha=alpha, backoff=backoff, hdp_settings=hdp_settings,
                         missing=missing, random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, max_table_bytes=max_table_bytes)

    _parameter_constraints: dict = {
        **_BNCBase._parameter_constraints,
        **_BNCBase._slot_constraints,
        "root": [Interval(Integral, 0, None, closed="left"), StrOptions({"weka"})],
    }

    def _learn(self, codes, y):
        d = codes.shape[1]
        info = pairwise_information(codes, y, self.n_values_, self.classes_.size, self.max_table_bytes)
        self.information_ = info
        if self.root == "weka":
            parent = weka_tan_parents(info)
        else:
            if d and self.root >= d:
                raise ValueError(f"root={self.root} but the data has {d} attributes")
            parent = prim_tree_parents(info.cmi, int(self.root)) if d else np.zeros(0, np.int64)
        self.tree_parent_ = parent
        self._members = [{a: ((int(parent[a]),) if parent[a] >= 0 else ()) for a in range(d)}]
        self.parents_ = self._parents_list(self._members[0])


# =========================================================================== KDB
class KDB(_BNCBase):
    """k-dependence Bayesian classifier (Sahami 1996).

    Parameters
    ----------
    k : int, default=1
        Maximum number of attribute parents.
    order : sequence of int or None, default=None
        Attribute order; None = by decreasing ``I(X; Y)``. Attributes left out of a given
        order are not used.
    tie_order : {"stable", "weka", "float_std_sort"}, default="stable"
        How equal MI (attribute order) and equal CMI (parent choice and back-off order)
        are ordered: ``"stable"`` = the lower index (earlier position) first, this
        implementation's rule; ``"weka"`` = the ESKDB code's ``SUtils.sort``, Weka 3.6's unstable quicksort
        read backwards (the higher index tends to come first), which changes
        probabilities on some data (seen up to 0.04), rarely predictions. The paper's
        configs use ``"weka"``. ``"float_std_sort"`` = Petal's ``kdb.cpp``: MI and CMI computed
        and kept in float (:func:`petal_information`, so values that differ only by rounding
        are equal), the attributes in the order libstdc++'s ``std::sort`` leaves them
        (:func:`std_sort`; for up to 16 attributes, equal MI in index order), the parents by
        decreasing float CMI, the earlier attribute first on equal values. See
        :func:`descending_order`.

    Petal's ``kdb +kK`` (``kdb.cpp``) is ``k=K, backoff="seen_parents", tie_order="float_std_sort"``
    (the M-estimate M = 1 of the deepest node whose parent values were seen in training).
    """ + _COMMON_DOC + """
    Attributes
    ----------
    order_ : (d',) attribute order
    parents_ : list (d) of parent tuples in back-off order (None for unused attributes)
    information_ : PairInformation
    """

    def __init__(self, *, k=1, order=None, tie_order="stable", smoothing="m_estimate", m=1.0, alpha=1.0,
                 backoff=True, hdp_settings=None, missing="value", missing_slot="observed", random_state=None,
                 categorical_features=None, n_categories=None, max_table_bytes="auto"):
        self.k = k
        self.tie_order = tie_order
        self.missing_slot = missing_slot
        self.order = order
        super().__init__(smoothing=smoothing, m=m, alpha=alpha, backoff=backoff, hdp_settings=hdp_settings,
                         missing=missing, random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, max_table_bytes=max_table_bytes)

    _parameter_constraints: dict = {
        **_BNCBase._kdb_constraints,
        "k": [Interval(Integral, 0, None, closed="left")],
    }

    def _learn(self, codes, y, order=None, information=None):
        self._members = [self._kdb_structure(codes, y, order, information, int(self.k))]
        self.parents_ = self._parents_list(self._members[0])


# =========================================================================== SKDB
class SKDB(_BNCBase):
    """Selective KDB (Martinez, Webb, Chen and Zaidi 2016, JMLR 17(44)), the base learner
    of ESKDB (Zhang et al. 2020 Sect. 2.1 and Algorithm 1 line 6).

    Pass 1: MI and CMI; the KDB structure for ``max_k`` on ``order`` (given, or by MI).
    Pass 2: every family's counts with its ``max_k`` parents.
    Pass 3: leave-one-out over the training rows (a Numba kernel over row blocks): for
    each row, the class prior and then each attribute in order update the LOO posterior
    of every model k = 0..max_k at once, with the row's own counts subtracted from every
    count it reads (Pazzani's trick); after attribute u the squared error of model
    (k, u + 1 attributes) is accumulated. RMSE = sqrt(sum / N) (``loo_loss="true_class"``:
    ``(1 - P(y_i | x_i))^2``, as Petal's ``selective-kdb`` and the ESKDB code;
    ``"all_classes"``: ``sum_y (1[y = y_i] - P(y | x_i))^2``, the RMSE of the reports).
    Selection (``selection="k_and_attributes"``): the prior-only model is the starting best;
    scanning n' = 1..n (outer) and k = 0..max_k (inner), a model replaces the best only when
    strictly better (the ESKDB code's order, and that of Petal's ``selective-kdb +selectiveK``).
    n* = 0 leaves the class prior alone (k* = 0). ``selection="attributes"``: k* = max_k
    and only n' is scanned, as Petal's ``selective-kdb +kK`` does without ``+selectiveK``
    (``kdbSelectiveClean.cpp``, which the name ``selective-kdb`` runs; ``kdbSelective.cpp``
    is not registered).

    ``loo_rule="exact"`` (this implementation's rule): the LOO estimates are exactly those of the final
    model refitted without the row: the node is the deepest one on the row's path with
    data for the class once the row is removed, the M-estimate (or Laplace) of that node,
    the root when the class has no other row.
    ``loo_rule="authors"`` (the ESKDB code's ``updateClassDistributionloocv``,
    which produced Zhang et al. 2020's SKDB and ESKDB numbers; the paper's configs use it): model d
    takes the LOO estimate of depth d without per-class back-off, the walk down the path
    stops before a node holding fewer than 2 rows with the row's value of the attribute
    (all classes, the row included), the next model then takes the shallower node's
    estimate, and every deeper model's posterior is overwritten by that model's (dropping
    the factors of their earlier attributes); see :func:`_loo_attribute_authors`. The
    two rules pick a different (k*, n*) on some data.
    ``loo_rule="min_count"`` (Petal's ``selective-kdb``: ``updateClassDistributionloocv`` and
    ``updateClassDistributionloocvWithNB`` of ``distributionTree.cpp``): the same walk, which
    stops before a node holding fewer than 2 rows with the row's value of the attribute;
    with s the depth reached, model k takes the LOO estimate of depth ``min(k, s)`` for every
    class, and no posterior is overwritten; see :func:`_loo_attribute_min_count`.
    Petal's ``selective-kdb +k5`` is ``selection="attributes", loo_rule="min_count",
    backoff="seen_parents", tie_order="float_std_sort"``.

    Parameters
    ----------
    max_k : int, default=5
        Maximum number of parents (Zhang et al. 2020 Table 2: maxK = 5).
    order : sequence of int or None, default=None
        Attribute order (ESKDB passes its MI-sampled order, Algorithm 3); None = by
        decreasing MI. Attributes absent from the order are never used.
    loo_loss : {"true_class", "all_classes"}, default="true_class"
    loo_rule : {"exact", "authors", "min_count"}, default="exact"
        The leave-one-out estimates of pass 3 (above); ``"authors"`` in the paper's configs,
        ``"min_count"`` Petal's.
    selection : {"k_and_attributes", "attributes"}, default="k_and_attributes"
        What pass 3 selects: (k*, n*), or n* alone with k* = max_k (Petal's ``selective-kdb``
        without ``+selectiveK``).
    tie_order : {"stable", "weka", "float_std_sort"}, default="stable"
        Order of equal MI / CMI values in the KDB structure (see :class:`KDB`).
    """ + _COMMON_DOC + """
    Attributes
    ----------
    order_ : (d',) attribute order used
    max_parents_ : list (d) of the pass-1 parent tuples for ``max_k`` (None if unused)
    k_ : int, selected k* (0 when n* = 0)
    n_selected_ : int, selected n*
    selected_ : (n*,) the attributes in the model, ``order_[:n*]``
    parents_ : list (d) of the selected parent tuples (first k* of ``max_parents_``), None
        for attributes not in the model
    loo_rmse_ : (max_k + 1, d') LOO RMSE of model (k, first u + 1 attributes)
    loo_rmse_prior_ : float, LOO RMSE of the class prior alone
    information_ : PairInformation (MI, CMI of pass 1)
    diagnostics_ : dict with k*, n*
    """

    def __init__(self, *, max_k=5, order=None, loo_loss="true_class", loo_rule="exact", selection="k_and_attributes",
                 tie_order="stable", smoothing="m_estimate", m=1.0, alpha=1.0, backoff=True, hdp_settings=None,
                 missing="value", missing_slot="observed", random_state=None, categorical_features=None,
                 n_categories=None, max_table_bytes="auto"):
        self.max_k = max_k
        self.loo_rule = loo_rule
        self.selection = selection
        self.tie_order = tie_order
        self.missing_slot = missing_slot
        self.order = order
        self.loo_loss = loo_loss
        super().__init__(smoothing=smoothing, m=m, alpha=alpha, backoff=backoff, hdp_settings=hdp_settings,
                         missing=missing, random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, max_table_bytes=max_table_bytes)

    _parameter_constraints: dict = {
        **_BNCBase._kdb_constraints,
        "max_k": [Interval(Integral, 0, None, closed="left")],
        "loo_loss": [StrOptions(set(LOO_LOSSES))],
        "loo_rule": [StrOptions(set(LOO_RULES))],
        "selection": [StrOptions(set(SELECTIONS))],
    }

    def _learn(self, codes, y, order=None, information=None):
        d = codes.shape[1]
        C = self.classes_.size
        K = int(self.max_k)
        full = self._kdb_structure(codes, y, order, information, K)   # pass 1: structure for max_k
        self.max_parents_ = [full.get(a) for a in range(d)]
        # pass 2: the max_k families
        tables = [FamilyTable(a, full[int(a)], self.n_values_, C) for a in self.order_]
        for t in tables:
            t.add(codes, y)
        # pass 3: incremental LOO
        loss, prior_loss = self._loo(tables, codes, y)
        n = max(codes.shape[0], 1)
        denom = n * (C if self.loo_loss == "all_classes" else 1)
        self.loo_rmse_ = np.sqrt(loss / denom)
        self.loo_rmse_prior_ = float(np.sqrt(prior_loss / denom))
        best, n_sel, k_sel = self.loo_rmse_prior_, 0, 0
        ks = range(K + 1) if self.selection == "k_and_attributes" else (K,)
        for u in range(self.order_.size):
            for k in ks:
                if self.loo_rmse_[k, u] < best:
                    best, n_sel, k_sel = self.loo_rmse_[k, u], u + 1, k
        self.n_selected_ = n_sel
        self.k_ = k_sel
        self.selected_ = self.order_[:n_sel].copy()
        member = {}
        for t in tables[:n_sel]:
            depth = min(k_sel, len(t.parents))
            tt = t if depth == len(t.parents) else t.truncated(depth)
            member[t.attribute] = tt.parents
            self._families[tt.key] = tt
        self._members = [member]
        self.parents_ = self._parents_list(member)
        self._extra = {"k": int(k_sel), "n_selected": int(n_sel), "n_attributes": int(d),
                       "loo_rmse": float(best)}

    def _loo(self, tables, codes, y) -> tuple[np.ndarray, float]:
        """Pass 3: summed squared LOO errors of every model (k, first u+1 attributes)."""
        K1 = int(self.max_k) + 1
        C = self.classes_.size
        n = codes.shape[0]
        loss = np.zeros((K1, len(tables)))
        if n == 0:
            return loss, 0.0
        counts = np.bincount(y, minlength=C).astype(np.float64)
        smoothing = "laplace" if self.smoothing == "laplace" else "m_estimate"
        a0, b0 = self._terms(C, smoothing)
        all_classes = self.loo_loss == "all_classes"
        levels = [t.levels() for t in tables]
        terms = [self._terms(t.n_child, smoothing) for t in tables]
        prior_loss = 0.0
        block = max(1024, min(CHUNK_ROWS, (1 << 22) // (K1 * C)))   # posteriors of a block: <= 32 MB
        for lo in range(0, n, block):
            chunk = codes[lo:lo + block]
            yc = y[lo:lo + block]
            post = np.empty((chunk.shape[0], K1, C))
            prior_loss += _loo_prior(yc, counts, float(n), a0, b0, all_classes, post)
            for u, (t, lv, (ta, tb)) in enumerate(zip(tables, levels, terms)):
                node_idx, cell_idx = t.lookup(lv, chunk, len(t.parents))
                acc = np.zeros(K1)
                if self.loo_rule == "authors":
                    _loo_attribute_authors(node_idx, cell_idx, lv.node_counts, lv.cell_counts, yc, ta, tb,
                                           all_classes, post, acc)
                elif self.loo_rule == "min_count":
                    _loo_attribute_min_count(node_idx, cell_idx, lv.node_counts, lv.cell_counts, yc, ta, tb,
                                             all_classes, post, acc)
                else:
                    _loo_attribute(node_idx, cell_idx, lv.node_counts, lv.cell_counts,
                                   chunk[:, t.attribute].astype(np.int64), yc, lv.root_x, lv.root_total, ta, tb,
                                   self._backoff_code(), all_classes, post, acc)
                loss[:, u] += acc
        return loss, prior_loss


# =========================================================================== KDF
class KDF(_BNCBase):
    """k-dependence forest (Duan and Wang 2017): one KDB per attribute, that attribute
    first; prediction averages the members' class posteriors. Order and parents of a
    member: :func:`kdf_member` (the ESKDB code's ``learnStructureKDBForest``). Families
    shared by several members are counted once. (The ESKDB code's switch falls through
    from ``KDBF`` into ``SKDB_R`` and appends one SKDB with a random order to the forest;
    that is not reproduced.)

    Parameters
    ----------
    k : int, default=5
    """ + _COMMON_DOC + """
    Attributes
    ----------
    orders_ : list of (d,) member orders
    member_parents_ : list of per-member parent lists
    information_ : PairInformation
    """

    def __init__(self, *, k=5, smoothing="m_estimate", m=1.0, alpha=1.0, backoff=True, hdp_settings=None,
                 missing="value", missing_slot="observed", random_state=None, categorical_features=None,
                 n_categories=None, max_table_bytes="auto"):
        self.k = k
        self.missing_slot = missing_slot
        super().__init__(smoothing=smoothing, m=m, alpha=alpha, backoff=backoff, hdp_settings=hdp_settings,
                         missing=missing, random_state=random_state, categorical_features=categorical_features,
                         n_categories=n_categories, max_table_bytes=max_table_bytes)

    _parameter_constraints: dict = {
        **_BNCBase._parameter_constraints,
        **_BNCBase._slot_constraints,
        "k": [Interval(Integral, 0, None, closed="left")],
    }

    def _learn(self, codes, y):
        d = codes.shape[1]
        info = pairwise_information(codes, y, self.n_values_, self.classes_.size, self.max_table_bytes)
        self.information_ = info
        self.orders_, members = [], []
        for root in range(d):
            order, parents = kdf_member(root, info.cmi, info.cmi_class, int(self.k))
            self.orders_.append(order)
            members.append(parents)
        self._members = members if members else [{}]
        self.member_parents_ = [self._parents_list(m) for m in self._members]
