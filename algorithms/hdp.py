"""HDP smoothing of Bayesian-network conditional probability tables.

Petitjean, Buntine, Webb and Zaidi (2018), "Accurate parameter estimation for
Bayesian network classifiers using hierarchical Dirichlet processes", Machine
Learning 107; with the improved concentration prior of Zhang, Petitjean and Buntine
(2020, ESKDB), Sections 2.5 and 3.3 and Algorithm 4.

The model
---------
One probability tree per family (attribute X with its parents Pa_1..Pa_k, in
the order given). The root holds phi_X; its children split on the class y
(level 1), their children on Pa_1 (level 2), and so on; the leaves (level
k + 1) hold theta_{X | y, pa_1..pa_k}. Each node's distribution is Dirichlet
around its parent's with a concentration alpha (Zhang et al. 2020 Sect. 2.5):

    theta_{X|y,pa_1..pa_k} ~ Dir(phi_{X|y,pa_1..pa_{k-1}}, alpha_{k+1}),  ...,
    phi_{X|y} ~ Dir(phi_X, alpha_1),  phi_X ~ Dir(uniform, alpha_0).

Inference is the collapsed Gibbs sampler over table counts of the Chinese
restaurant franchise (Petitjean et al. 2018 Sect. 4; the reference Java
library fpetitjean/HDP, used by the ESKDB code icesky0125/ESKDB-on-numerical-data):
a node's customers for value k are its data counts (leaf) or the sum of its
children's table counts (inner node); the sampler draws every t_k in turn from
its conditional, which involves unsigned Stirling numbers of the first kind
S(n, t) (cached in log form, grown on demand). The concentrations are sampled
every ``concentration_every`` iterations by Zhang et al. 2020's Algorithm 4 with a
Gamma(2, 1) prior (``prior="gamma"``) or the uniform prior that Zhang et al. 2020
attributes to Petitjean et al. 2018 (``prior="uniform"``, the ablation of its
Fig. 7), or held fixed (``prior="fixed"``). The estimate of each
node is p_k = (n_k + alpha p^parent_k) / (N + alpha) (Zhang et al. 2020 Sect. 2.5),
averaged over the iterations after the burn-in.

Choices where the papers are silent or disagree (each is a setting)
-------------------------------------------------------------------
- ``n_iterations=1000``: Zhang et al. 2020 Sect. 3.3 and Table 2.
- ``burn_in=100``: Zhang et al. 2020 Table 2 gives 100 while its description column
  says "collect counts after sampling for 500 times"; the ESKDB Java code uses
  min(1000, n_iterations / 10) = 100 for 1000 iterations. 100 is the default;
  set 500 for the text's reading.
- ``concentration_every=5``: the reference samples the concentrations at
  iterations 3, 8, 13, ... (frequencySamplingC = 5).
- ``window=10`` and ``max_tables=1000``: t_k is drawn among t_k - 10 .. t_k + 10
  (windowForSamplingTk), never above 1000 (ProbabilityNode.MAX_TK). When
  n_k <= 11 the window covers every allowed value, so the draw is an exact
  Gibbs step; for larger counts it is the reference's windowed step.
- The root keeps one table per value it has data for ("GEM" root of the
  reference) and a concentration of ``root_concentration=2.0``: the reference
  overwrites the root's concentration with a fresh, never-sampled one of value
  2 after tying. ``root_concentration=None`` samples it instead (in its own
  group, or in the single group with ``tying="single"``).
- ``initial_concentration=2.0`` (the reference's Concentration()), also the
  fixed value with ``prior="fixed"``.
- ``prior="uniform"``: the flat prior p(alpha) ~ 1, i.e. Algorithm 4 with
  priorShape = 1 and priorRate = 0. Sampled concentrations are capped at 4000
  (the reference's cap).
- Tying (Zhang et al. 2020 Sect. 2.5): ``"none"`` one concentration per node;
  ``"parent"`` siblings share one; ``"level"`` (default, Zhang et al. 2020 Sect. 4.5)
  one per tree level; ``"single"`` one for all non-root nodes.
- log S(n, t) comes from the cached exact table for n < 16384 and from a
  corrected saddle-point approximation above (error < 1e-3 in log; see
  ``_hdp_kernels.log_stirling_asymptotic``), so memory stays bounded on large
  data. The choice depends on (n, t) only, so results never depend on what the
  process smoothed before.

Interface
---------
- :class:`FamilyCounts`: the count table of one family. Sparse: ``paths``
  (m, 1 + k) int rows ``[y, pa_1, ..., pa_k]`` of the observed parent paths and
  ``counts`` (m, |X|) their per-value counts; ``arities = (n_classes, |Pa_1|, ...,
  |Pa_k|)``. Build it from a dense array (``from_dense``, shape
  (n_classes, |Pa_1|, ..., |Pa_k|, |X|)) or from coded data (``from_data``).
- :func:`smooth_family` -> :class:`FamilyEstimate`, whose ``query(paths)``
  returns P(X | y, pa) for any paths: the leaf's estimate when the path was
  observed, else the estimate of the deepest node on the path that exists (the
  nearest ancestor: back-off as in the reference ProbabilityTree.query).
- :func:`m_estimate_family` gives M-estimates with the same back-off and interface
  (ESKDB_M).
- :func:`smooth_network` smooths every family of a classifier (one seeded
  generator per family), :func:`class_prior` is the class prior, and
  :func:`joint_log_likelihood` gives log P(y) + sum_i log P(x_i | y, pa_i).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from . import _hdp_kernels as K
from ._libm_exp import exp_table as exp_table_for_sampler

TYINGS = ("none", "parent", "level", "single")
PRIORS = ("gamma", "uniform", "fixed")


# ----------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class HDPSettings:
    """Settings of the sampler (module docstring: where each default comes from).

    Parameters
    ----------
    n_iterations : int, default=1000
        Gibbs iterations (Zhang et al. 2020 Table 2).
    burn_in : int, default=100
        Iterations discarded before the estimates are averaged (Table 2: 100; its
        text: 500).
    tying : {"none", "parent", "level", "single"}, default="level"
    prior : {"gamma", "uniform", "fixed"}, default="gamma"
        Concentration prior: Gamma(``gamma_shape``, ``gamma_rate``) (Zhang et al. 2020
        Sect. 3.3), flat (Petitjean et al. 2018), or no sampling.
    gamma_shape, gamma_rate : float, default=2.0, 1.0
    initial_concentration : float, default=2.0
    root_concentration : float or None, default=2.0
        Fixed concentration of the root; None samples it.
    concentration_every : int, default=5
        Sample the concentrations every this many iterations.
    window : int, default=10
        Half-width of the candidate window for a table count.
    max_tables : int, default=1000
        Upper bound on a table count.
    """

    n_iterations: int = 1000
    burn_in: int = 100
    tying: str = "level"
    prior: str = "gamma"
    gamma_shape: float = 2.0
    gamma_rate: float = 1.0
    initial_concentration: float = 2.0
    root_concentration: float | None = 2.0
    concentration_every: int = 5
    window: int = 10
    max_tables: int = 1000

    def __post_init__(self):
        if self.tying not in TYINGS:
            raise ValueError(f"tying must be one of {TYINGS}; got {self.tying!r}")
        if self.prior not in PRIORS:
            raise ValueError(f"prior must be one of {PRIORS}; got {self.prior!r}")
        if int(self.n_iterations) != self.n_iterations or self.n_iterations < 1:
            raise ValueError(f"n_iterations must be a positive integer; got {self.n_iterations!r}")
        if int(self.burn_in) != self.burn_in or not 0 <= self.burn_in < self.n_iterations:
            raise ValueError(f"burn_in must be an integer in [0, n_iterations); got {self.burn_in!r} "
                             f"with n_iterations={self.n_iterations}")
        for name in ("gamma_shape", "initial_concentration"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0; got {getattr(self, name)!r}")
        if not self.gamma_rate >= 0:
            raise ValueError(f"gamma_rate must be >= 0; got {self.gamma_rate!r}")
        if self.root_concentration is not None and not self.root_concentration > 0:
            raise ValueError(f"root_concentration must be > 0 or None; got {self.root_concentration!r}")
        if int(self.concentration_every) != self.concentration_every or self.concentration_every < 1:
            raise ValueError(f"concentration_every must be a positive integer; got {self.concentration_every!r}")
        if int(self.window) != self.window or self.window < 1:
            raise ValueError(f"window must be a positive integer; got {self.window!r}")
        if int(self.max_tables) != self.max_tables or self.max_tables < 1:
            raise ValueError(f"max_tables must be a positive integer; got {self.max_tables!r}")

    @property
    def prior_shape_rate(self) -> tuple[float, float]:
        """(priorShape, priorRate) of Algorithm 4."""
        return (1.0, 0.0) if self.prior == "uniform" else (float(self.gamma_shape), float(self.gamma_rate))


# ----------------------------------------------------------------------------- counts
def _as_int_array(a, name: str, ndim: int) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional; got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(f"{name} must hold integers (no NaN, no fractions)")
    return arr.astype(np.int64, copy=False)


@dataclass
class FamilyCounts:
    """Counts of one family: attribute X given the class and its parents.

    Attributes
    ----------
    paths : (m, 1 + k) int64
        Observed parent paths ``[y, pa_1, ..., pa_k]``, unique, sorted
        lexicographically, each with a non-zero total count.
    counts : (m, n_values) int64
        ``counts[i, v]`` = number of training instances with path ``paths[i]`` and X = v.
    arities : tuple of int
        ``(n_classes, |Pa_1|, ..., |Pa_k|)``.
    n_values : int
        |X|.
    attribute : int or None
        Column of X in the coded data (used by :func:`joint_log_likelihood`).
    parents : tuple of int
        Columns of Pa_1..Pa_k, in the tree's order.

    The constructor sums duplicate paths, drops all-zero rows and sorts.
    """

    paths: np.ndarray
    counts: np.ndarray
    arities: tuple
    n_values: int
    attribute: int | None = None
    parents: tuple = field(default_factory=tuple)

    def __post_init__(self):
        self.arities = tuple(int(a) for a in self.arities)
        self.parents = tuple(int(p) for p in self.parents)
        self.n_values = int(self.n_values)
        if not self.arities or any(a < 1 for a in self.arities):
            raise ValueError(f"arities must be a non-empty tuple of positive ints (n_classes first); "
                             f"got {self.arities}")
        if self.n_values < 1:
            raise ValueError(f"n_values must be >= 1; got {self.n_values}")
        if self.attribute is not None and len(self.parents) != len(self.arities) - 1:
            raise ValueError(f"{len(self.parents)} parent columns given for {len(self.arities) - 1} parent levels")
        depth = len(self.arities)
        paths = _as_int_array(self.paths, "paths", 2) if np.size(self.paths) else np.zeros((0, depth), np.int64)
        counts = _as_int_array(self.counts, "counts", 2) if np.size(self.counts) else np.zeros((0, self.n_values),
                                                                                                 np.int64)
        if paths.shape[1] != depth:
            raise ValueError(f"paths has {paths.shape[1]} columns; arities {self.arities} need {depth} "
                             f"(class then parents)")
        if counts.shape != (paths.shape[0], self.n_values):
            raise ValueError(f"counts must have shape ({paths.shape[0]}, {self.n_values}); got {counts.shape}")
        if counts.size and counts.min() < 0:
            raise ValueError("counts must be non-negative")
        bad = (paths < 0) | (paths >= np.asarray(self.arities))
        if bad.any():
            i, d = np.argwhere(bad)[0]
            level = "class" if d == 0 else f"parent {d}"
            raise ValueError(f"path value {paths[i, d]} of the {level} is outside 0..{self.arities[d] - 1}")
        keep = counts.sum(axis=1) > 0
        paths, counts = paths[keep], counts[keep]
        codes = _path_codes(paths, self.arities)
        if codes is None:  # arities too large for one int64 code: sort rows directly
            uniq, inverse = np.unique(paths, axis=0, return_inverse=True)
        elif codes.size and not np.all(codes[1:] > codes[:-1]):
            uniq_codes, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
            uniq = paths[first]
        else:  # already unique and sorted
            uniq, inverse = paths, None
        if inverse is not None:
            summed = np.zeros((uniq.shape[0], self.n_values), np.int64)
            np.add.at(summed, inverse.ravel(), counts)
            paths, counts = uniq, summed
        self.paths = np.ascontiguousarray(paths)
        self.counts = np.ascontiguousarray(counts)

    @property
    def n_classes(self) -> int:
        return self.arities[0]

    @property
    def total(self) -> int:
        return int(self.counts.sum())

    @classmethod
    def from_dense(cls, table, attribute: int | None = None, parents: Sequence[int] = ()) -> "FamilyCounts":
        """From a dense count array of shape (n_classes, |Pa_1|, ..., |Pa_k|, |X|)."""
        arr = _as_int_array(table, "table", np.ndim(table))
        if arr.ndim < 2:
            raise ValueError(f"a dense family table needs >= 2 axes (class, ..., value); got shape {arr.shape}")
        arities, n_values = arr.shape[:-1], arr.shape[-1]
        flat = arr.reshape(-1, n_values)
        observed = np.flatnonzero(flat.sum(axis=1) > 0)
        paths = np.stack(np.unravel_index(observed, arities), axis=1) if observed.size else np.zeros(
            (0, len(arities)), np.int64)
        return cls(paths, flat[observed], arities, n_values, attribute, tuple(parents))

    @classmethod
    def from_data(cls, x, y, parent_values=None, *, n_values: int, arities: Sequence[int],
                  attribute: int | None = None, parents: Sequence[int] = ()) -> "FamilyCounts":
        """Count coded data: ``x`` (n,) values of X, ``y`` (n,) class codes,
        ``parent_values`` (n, k) parent codes in the tree's order (None when k = 0)."""
        x = _as_int_array(x, "x", 1)
        y = _as_int_array(y, "y", 1)
        n = x.shape[0]
        if y.shape[0] != n:
            raise ValueError(f"x has {n} rows but y has {y.shape[0]}")
        pv = np.zeros((n, 0), np.int64) if parent_values is None else _as_int_array(parent_values,
                                                                                     "parent_values", 2)
        if pv.shape[0] != n:
            raise ValueError(f"parent_values has {pv.shape[0]} rows; x has {n}")
        if x.size and (x.min() < 0 or x.max() >= n_values):
            raise ValueError(f"x has values outside 0..{n_values - 1}")
        paths = np.column_stack([y, pv]) if n else np.zeros((0, 1 + pv.shape[1]), np.int64)
        if paths.shape[1] != len(arities):
            raise ValueError(f"{paths.shape[1]} path columns (class + parents) for arities {tuple(arities)}")
        if n == 0:
            return cls(paths, np.zeros((0, n_values), np.int64), arities, n_values, attribute, tuple(parents))
        bad = (paths < 0) | (paths >= np.asarray(arities))
        if bad.any():
            i, d = np.argwhere(bad)[0]
            raise ValueError(f"path value {paths[i, d]} in column {d} is outside 0..{arities[d] - 1}")
        codes = _path_codes(paths, arities)
        if codes is None:
            uniq, inverse = np.unique(paths, axis=0, return_inverse=True)
        else:
            _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
            uniq = paths[first]
        counts = np.bincount(inverse.ravel() * n_values + x, minlength=uniq.shape[0] * n_values)
        return cls(uniq, counts.reshape(uniq.shape[0], n_values), arities, n_values, attribute, tuple(parents))


def _path_codes(paths: np.ndarray, arities) -> np.ndarray | None:
    """Mixed-radix int64 code of each path (its rank in lexicographic order), or None
    when the product of the arities does not fit."""
    if float(np.prod(np.asarray(arities, dtype=float))) >= 2.0 ** 62:
        return None
    if paths.shape[0] == 0:
        return np.zeros(0, np.int64)
    return np.ravel_multi_index(tuple(paths.T), tuple(arities)).astype(np.int64)


# ----------------------------------------------------------------------------- tree
@dataclass
class _Tree:
    parent: np.ndarray       # (n_nodes,) parent id, -1 at the root
    level_start: np.ndarray  # (depth + 2,) node id ranges per level
    child_slot: np.ndarray   # (n_nodes,) offset into child_table, -1 at the leaves
    child_table: np.ndarray  # child id per (node, value of the next variable), -1 when absent

    @property
    def n_nodes(self) -> int:
        return self.parent.shape[0]

    def level_of(self) -> np.ndarray:
        return np.repeat(np.arange(self.level_start.shape[0] - 1), np.diff(self.level_start))


def _build_tree(family: FamilyCounts) -> _Tree:
    """Nodes for the root, every observed prefix of the sorted paths, and the paths (leaves)."""
    paths, arities = family.paths, family.arities
    m, depth = paths.shape
    differs = np.ones((m, depth), bool)
    if m > 1:
        differs[1:] = paths[1:] != paths[:-1]
    new_prefix = np.logical_or.accumulate(differs, axis=1)  # [i, d]: prefix of length d+1 starts at row i
    sizes = new_prefix.sum(axis=0)
    level_start = np.concatenate([[0, 1], 1 + np.cumsum(sizes)]).astype(np.int64)
    n_nodes = int(level_start[-1])
    parent = np.full(n_nodes, -1, np.int64)
    branch = np.zeros(n_nodes, np.int64)
    row_node_above = np.zeros(m, np.int64)  # node of each row at the level above (root for level 1)
    for d in range(1, depth + 1):
        starts = np.flatnonzero(new_prefix[:, d - 1])
        ids = level_start[d] + np.arange(starts.shape[0])
        parent[ids] = row_node_above[starts]
        branch[ids] = paths[starts, d - 1]
        row_node_above = level_start[d] + np.cumsum(new_prefix[:, d - 1]) - 1
    child_slot = np.full(n_nodes, -1, np.int64)
    inner_end = int(level_start[depth])  # levels 0..depth-1 have children
    slot_sizes = np.zeros(inner_end, np.int64)
    for d in range(depth):
        slot_sizes[level_start[d]:level_start[d + 1]] = arities[d]
    child_slot[:inner_end] = np.concatenate([[0], np.cumsum(slot_sizes)[:-1]]) if inner_end else []
    child_table = np.full(int(slot_sizes.sum()), -1, np.int64)
    if n_nodes > 1:
        child_table[child_slot[parent[1:]] + branch[1:]] = np.arange(1, n_nodes)
    return _Tree(parent, level_start, child_slot, child_table)


def _concentration_groups(tree: _Tree, settings: HDPSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Group id per node, initial alpha per group and a fixed flag per group (Zhang et al. 2020 Sect. 2.5 tyings)."""
    n = tree.n_nodes
    level = tree.level_of()
    if settings.tying == "none":
        raw = np.arange(n)
    elif settings.tying == "parent":
        raw = tree.parent + 1  # siblings share their parent's id; the root gets 0
    elif settings.tying == "level":
        raw = level
    else:  # single
        raw = np.minimum(level, 1)
    raw = raw.copy()
    sample_root = settings.root_concentration is None
    if sample_root and settings.tying == "single" and n > 1:
        raw[0] = raw[1]  # the root joins the single group
    else:
        raw[0] = -1  # the root alone
    _, group = np.unique(raw, return_inverse=True)
    group = group.ravel().astype(np.int64)
    n_groups = int(group.max()) + 1
    alpha = np.full(n_groups, float(settings.initial_concentration))
    fixed = np.full(n_groups, settings.prior == "fixed")
    if not sample_root:
        alpha[group[0]] = float(settings.root_concentration)
        fixed[group[0]] = True
    return group, alpha, fixed


def _customer_bounds(tree: _Tree, customers: np.ndarray, max_tables: int) -> np.ndarray:
    """Largest customer count each node and value can ever reach: a leaf's data
    count; for an inner node, the sum over its children of min(bound, max_tables)
    (a child never has more tables than customers, nor more than max_tables)."""
    bound = customers.copy()
    ls = tree.level_start
    for d in range(ls.shape[0] - 2, 0, -1):
        ids = np.arange(ls[d], ls[d + 1])
        if not ids.size:
            continue
        par = tree.parent[ids]
        cuts = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
        bound[par[cuts]] = np.add.reduceat(np.minimum(bound[ids], max_tables), cuts, axis=0)
    return bound


def _rising_offsets(tree: _Tree, group: np.ndarray, n_groups: int, bound: np.ndarray) -> np.ndarray:
    """Offsets of each group's slice of the log rising-factorial cache: a group needs
    entries 0..max total customers of its inner nodes (the parents being sampled under)."""
    inner = np.arange(int(tree.level_start[-2]))
    length = np.zeros(n_groups, np.int64)
    np.maximum.at(length, group[inner], bound[inner].sum(axis=1) + 1)
    return np.concatenate([[0], np.cumsum(length)]).astype(np.int64)


# ----------------------------------------------------------------------------- log Stirling cache
class LogStirlingCache:
    """Process-wide table of log S(n, t) (unsigned Stirling numbers of the first
    kind), filled once by the recurrence and grown on demand (by 1.618x, as the
    reference LogStirlingGenerator). Rows stop at ``STIRLING_ROW_LIMIT``; larger
    n use the closed forms and the saddle-point approximation."""

    GROWTH = 1.618

    def __init__(self):
        self.table = np.zeros((0, 0))

    def ensure(self, rows: int, cols: int) -> np.ndarray:
        rows = min(int(rows), K.STIRLING_ROW_LIMIT)
        old_rows, old_cols = self.table.shape
        if rows <= old_rows and cols <= old_cols:
            return self.table
        new_rows = old_rows if rows <= old_rows else max(rows, min(int(old_rows * self.GROWTH),
                                                                   K.STIRLING_ROW_LIMIT))
        new_cols = old_cols if cols <= old_cols else max(int(cols), int(old_cols * self.GROWTH))
        grown = np.empty((new_rows, new_cols))
        grown[:old_rows, :old_cols] = self.table
        K.fill_log_stirling(grown, old_rows, old_cols)
        self.table = grown
        return grown

    def clear(self):
        self.table = np.zeros((0, 0))


LOG_STIRLING = LogStirlingCache()


def log_stirling_numbers(n_max: int) -> np.ndarray:
    """log S(n, t) for 0 <= n, t <= n_max (-inf where S = 0), a copy from the cache."""
    return LOG_STIRLING.ensure(n_max + 1, n_max + 1)[: n_max + 1, : n_max + 1].copy()


# ----------------------------------------------------------------------------- estimates
@dataclass
class FamilyEstimate:
    """Smoothed P(X | y, pa) of one family.

    Attributes
    ----------
    family : FamilyCounts
        The counts it was learned from (``family.paths`` are the leaves).
    node_probs : (n_nodes, n_values) float64
        Post-burn-in mean estimate at every node: row 0 is the root (P(X)),
        rows ``level_start[1]:level_start[2]`` the class level, ..., the last
        level the leaves, in the order of ``family.paths``.
    level_start : (depth + 2,) int64
    node_concentration : (n_nodes,) float64
        Each node's concentration, averaged over the recorded iterations.
    """

    family: FamilyCounts
    node_probs: np.ndarray
    level_start: np.ndarray
    node_concentration: np.ndarray
    _tree: _Tree = field(repr=False)

    @property
    def leaf_probs(self) -> np.ndarray:
        """P(X | path) for each row of ``family.paths``."""
        return self.node_probs[self.level_start[-2]:self.level_start[-1]]

    def deepest_node(self, paths) -> np.ndarray:
        """Node used for each path: the leaf if observed, else its nearest existing ancestor."""
        q = _as_int_array(paths, "paths", 2)
        if q.shape[1] != len(self.family.arities):
            raise ValueError(f"query paths need {len(self.family.arities)} columns (class then parents); "
                             f"got {q.shape[1]}")
        nodes = K.deepest_nodes(np.ascontiguousarray(q), self._tree.child_slot, self._tree.child_table,
                                np.asarray(self.family.arities, np.int64))
        if (nodes < 0).any():
            i = int(np.flatnonzero(nodes < 0)[0])
            raise ValueError(f"query path {q[i].tolist()} has a value outside the arities {self.family.arities}")
        return nodes

    def query(self, paths) -> np.ndarray:
        """P(X | y, pa) for each query path, shape (n, n_values), with back-off."""
        return self.node_probs[self.deepest_node(paths)]

    def probability(self, paths, values) -> np.ndarray:
        """P(X = values[i] | paths[i]), shape (n,)."""
        v = _as_int_array(values, "values", 1)
        if v.size and (v.min() < 0 or v.max() >= self.family.n_values):
            raise ValueError(f"values outside 0..{self.family.n_values - 1}")
        return self.node_probs[self.deepest_node(paths), v]

    def to_dense(self, max_cells: int = 50_000_000) -> np.ndarray:
        """The full table, shape (n_classes, |Pa_1|, ..., |Pa_k|, n_values), unseen paths backed off."""
        ar = self.family.arities
        cells = int(np.prod(ar, dtype=np.int64)) * self.family.n_values
        if cells > max_cells:
            raise ValueError(f"dense table would have {cells} cells (> max_cells={max_cells}); query paths instead")
        grid = np.stack(np.unravel_index(np.arange(int(np.prod(ar))), ar), axis=1)
        return self.query(grid).reshape(*ar, self.family.n_values)


def _empty_estimate(family: FamilyCounts, tree: _Tree, settings: HDPSettings) -> FamilyEstimate:
    probs = np.full((tree.n_nodes, family.n_values), 1.0 / family.n_values)
    alpha = settings.root_concentration or settings.initial_concentration
    return FamilyEstimate(family, probs, tree.level_start, np.full(tree.n_nodes, float(alpha)), tree)


def _generator(random_state) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


def smooth_family(family: FamilyCounts, settings: HDPSettings | None = None, random_state=None) -> FamilyEstimate:
    """Run the HDP sampler on one family's tree and return its smoothed estimates.

    ``random_state``: None, an int, a SeedSequence or a ``numpy.random.Generator``
    (advanced in place). The same seed gives bit-identical estimates.
    """
    return _smooth(family, settings or HDPSettings(), _generator(random_state))


def _smooth(family: FamilyCounts, settings: HDPSettings, rng: np.random.Generator,
            allow_cached_path: bool = True, allow_inline_exp: bool = True) -> FamilyEstimate:
    """smooth_family's work; ``allow_cached_path=False`` forces the general log-Stirling
    path of the kernel, ``allow_inline_exp=False`` its ``math.exp`` calls (for tests: every
    path gives the same draws)."""
    tree = _build_tree(family)
    if family.total == 0 or family.n_values == 1:
        return _empty_estimate(family, tree, settings)
    n_values = family.n_values
    customers = np.zeros((tree.n_nodes, n_values), np.int64)
    customers[tree.level_start[-2]:] = family.counts
    tables = np.zeros_like(customers)
    customers_total = np.zeros(tree.n_nodes, np.int64)
    tables_total = np.zeros(tree.n_nodes, np.int64)
    group, alpha, fixed = _concentration_groups(tree, settings)
    log_alpha = np.log(alpha)
    group_nodes = np.argsort(group, kind="stable").astype(np.int64)
    group_ptr = np.concatenate([[0], np.cumsum(np.bincount(group, minlength=alpha.shape[0]))]).astype(np.int64)
    bound = _customer_bounds(tree, customers, settings.max_tables)
    active = K.active_values(tree.level_start, bound)
    rows = int(bound.max()) + 1  # including the root, whose S(n, 1) the class level reads
    rising_offset = _rising_offsets(tree, group, alpha.shape[0], bound)
    log_rising = np.empty(int(rising_offset[-1]))
    rising_filled = np.zeros(alpha.shape[0], np.int64)  # filled on demand by the sampler
    rising_acc = np.zeros(alpha.shape[0])
    K.init_tables(customers, tables, customers_total, tables_total, tree.parent, tree.level_start, group, alpha,
                  settings.max_tables)
    largest = np.array([int(tables[1:].max())], np.int64)
    col_limit = settings.max_tables + settings.window + 1
    stirling = LOG_STIRLING.ensure(rows, min(int(largest[0]) + settings.window + 1, col_limit))
    probs = np.zeros((tree.n_nodes, n_values))
    prob_sum = np.zeros_like(probs)
    alpha_sum = np.zeros_like(alpha)
    misses = np.zeros(1, np.int64)
    shape, rate = settings.prior_shape_rate
    exp_table = exp_table_for_sampler() if allow_inline_exp else np.zeros(0, np.uint64)
    it = 0
    while it < settings.n_iterations:
        it = K.run_sampler(it, settings.n_iterations, settings.burn_in, settings.concentration_every, customers,
                           tables, customers_total, tables_total, tree.parent, active, group, alpha,
                           log_alpha, fixed, group_ptr, group_nodes, shape, rate, rising_offset, log_rising,
                           rising_filled, rising_acc, settings.window, settings.max_tables, stirling,
                           allow_cached_path and rows <= stirling.shape[0], probs,
                           prob_sum, alpha_sum, largest, misses, rng, exp_table)
        if it < settings.n_iterations:
            stirling = LOG_STIRLING.ensure(rows, min(int(largest[0]) + settings.window + 1, col_limit))
    if misses[0]:
        raise RuntimeError(f"internal error: {misses[0]} log-Stirling lookups fell outside the cached table")
    recorded = settings.n_iterations - settings.burn_in
    node_probs = prob_sum / prob_sum.sum(axis=1, keepdims=True)
    return FamilyEstimate(family, node_probs, tree.level_start, (alpha_sum / recorded)[group], tree)


def m_estimate_family(family: FamilyCounts, m: float = 1.0) -> FamilyEstimate:
    """M-estimates on the same tree, for ESKDB_M (Zhang et al. 2020 Sects. 2.4 and 4.1):
    p_k = (n_k + m / |X|) / (N + m) from the data counts aggregated at each node; a
    query backs off to the deepest node that exists on its path, i.e. the nearest
    ancestor with data (the ESKDB code's convertCountToProbsBackOff with
    SUtils.MEsti). ``m=1`` is Sect. 2.4's usual M; Table 2 lists M = 1/C."""
    if not m > 0:
        raise ValueError(f"m must be > 0; got {m}")
    tree = _build_tree(family)
    data = np.zeros((tree.n_nodes, family.n_values))
    data[tree.level_start[-2]:] = family.counts
    ls = tree.level_start
    for d in range(ls.shape[0] - 2, 0, -1):  # inner nodes: the data below them
        ids = np.arange(ls[d], ls[d + 1])
        if ids.size:
            par = tree.parent[ids]
            cuts = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
            data[par[cuts]] = np.add.reduceat(data[ids], cuts, axis=0)
    probs = (data + m / family.n_values) / (data.sum(axis=1, keepdims=True) + m)
    return FamilyEstimate(family, probs, tree.level_start, np.full(tree.n_nodes, float(m)), tree)


def smooth_network(families: Sequence[FamilyCounts], settings: HDPSettings | None = None,
                   random_state=None) -> list[FamilyEstimate]:
    """Smooth every family of a Bayesian network classifier.

    Family i draws from its own generator, seeded by the i-th of ``len(families)``
    integers drawn from ``numpy.random.default_rng(random_state)`` up front, so its
    estimate does not depend on the families before it.
    """
    seeds = _generator(random_state).integers(0, 2 ** 63 - 1, size=len(families))
    return [smooth_family(f, settings, np.random.default_rng(int(seed))) for f, seed in zip(families, seeds)]


def class_prior(class_counts, m: float = 1.0) -> np.ndarray:
    """M-estimate of P(y): (n_y + m / C) / (N + m), the class prior of the ESKDB
    code (xyDist.countsToProbs, SUtils.MEsti with M = 1 and base rate 1/C)."""
    counts = np.asarray(class_counts, dtype=float)
    if counts.ndim != 1 or counts.size == 0 or (counts < 0).any() or not np.isfinite(counts).all():
        raise ValueError("class_counts must be a non-empty 1-d array of non-negative counts")
    if m < 0 or (m == 0 and counts.sum() == 0):
        raise ValueError(f"m must be > 0 (or >= 0 with data); got {m}")
    return (counts + m / counts.size) / (counts.sum() + m)


def joint_log_likelihood(X, prior, estimates: Sequence[FamilyEstimate], chunk_rows: int = 1 << 16) -> np.ndarray:
    """log P(y) + sum over families of log P(x_attr | y, x_parents), shape (n, n_classes).

    ``X``: (n, d) int codes; each estimate's family must name its ``attribute`` and
    ``parents`` columns. ``prior``: P(y), shape (n_classes,). Instances are processed
    ``chunk_rows`` at a time (n_classes query paths each).
    """
    Xc = _as_int_array(X, "X", 2)
    prior = np.asarray(prior, float)
    n, n_classes = Xc.shape[0], prior.shape[0]
    for est in estimates:
        fam = est.family
        if fam.attribute is None:
            raise ValueError("joint_log_likelihood needs families built with attribute= and parents=")
        if fam.n_classes != n_classes:
            raise ValueError(f"family of attribute {fam.attribute} has {fam.n_classes} classes; prior has "
                             f"{n_classes}")
    out = np.tile(np.log(prior), (n, 1))
    for lo in range(0, n, chunk_rows):
        rows = Xc[lo:lo + chunk_rows]
        m = rows.shape[0]
        classes = np.tile(np.arange(n_classes, dtype=np.int64), m)
        for est in estimates:
            fam = est.family
            paths = np.column_stack([classes, np.repeat(rows[:, list(fam.parents)], n_classes, axis=0)])
            values = np.repeat(rows[:, fam.attribute], n_classes)
            out[lo:lo + m] += np.log(est.probability(paths, values)).reshape(m, n_classes)
    return out
