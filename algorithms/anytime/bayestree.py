"""The Bayes tree (Seidl, Assent, Kranen, Krieger and Herrmann, EDBT 2009): the anytime
Bayesian classifier that MC-Tree is compared with (Kranen et al. 2010, Sec. 4.2)."""

from __future__ import annotations

import time
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ._common import KernelDensityTreeBase
from ._model import build_model, flatten_tree, tree_stats
from ._rtree import rtree_insert_all
from .mctree import PAGE_BYTES, page_fanout, page_leaf_capacity


class BayesTree(KernelDensityTreeBase):
    """Bayes tree anytime classifier (Seidl et al. 2009, as MC-Tree Secs. 2 and 4.2 use it).

    **Structure.** One R-tree per class, built by the standard R-tree insert (Guttman 1984:
    ChooseLeaf by least volume enlargement, quadratic split; "no optimization is done with
    respect to overlapping or effectiveness in terms of density estimation", MC-Tree Sec. 2).
    A directory entry holds a child pointer, a minimum bounding rectangle and the cluster
    feature (n, LS, SS) of its subtree; a leaf holds the Gaussian kernels of its objects.
    Node capacities come from 2 KB pages (:func:`.mctree.page_fanout` for directory nodes,
    :func:`.mctree.page_leaf_capacity` for leaves); the minimum fill is ``min_fill`` of the
    capacity (R*-tree's 40 %).

    **Classification.** The frontier starts with the root entries of every class tree. The
    improvement strategy qbk picks the k classes with the highest current posterior and
    refines them in turn, one refinement each; within a class the descent strategy "global
    best" refines the frontier entry with the highest density n_e g(x; e) (the two settings
    MC-Tree Sec. 4.2 uses, "as they were reported to yield the best results"). Densities are
    updated incrementally as in MC-Tree Def. 6 (one engine serves both,
    :mod:`._frontier`).

    Choices where the sources are silent here: the insertion order is a random permutation
    of each class's training objects (``insert_order="random"``; "given" keeps the fold
    order); a round of qbk refines the k classes ranked at its start (the ranking is redone
    after each round); entry Gaussians and kernel bandwidths are those of MC-Tree
    (``entry_variance``, Silverman bandwidths per class), so that with an unlimited budget
    both trees are the same kernel-density classifier (MC-Tree Sec. 4.2). One Gaussian is
    counted per entry or kernel evaluated.

    Missing values are replaced by the training mean of the attribute; nominal attributes are
    dropped (``nominal="drop"``).

    Parameters
    ----------
    strategy : {"qbk", "first-best", "k-best", "k-class"}, default="qbk"
    k : int, default=2
        Classes per qbk round.
    budget : float or None, default=None
        Gaussians per query for ``predict_proba``; None = all kernels.
    entry_variance : {"kde", "cf"}, default="kde"
    bandwidth_scope, bandwidth_scale : as :class:`.mctree.MCTree`
    page_bytes, value_bytes : int, default 2048 and 8
    min_fill : float in (0, 0.5], default=0.4
    insert_order : {"random", "given"}, default="random"
    nominal : {"drop", "code"}, default="drop"
    categorical_features : bool array or None
    random_state : int or None
    """

    alpha = 0.0  # global best descent orders by density only (quality_alpha with alpha = 0)

    def __init__(self, *, strategy="qbk", k=2, budget=None, entry_variance="kde", bandwidth_scope="class",
                 bandwidth_scale=1.0, page_bytes=PAGE_BYTES, value_bytes=8, min_fill=0.4, insert_order="random",
                 nominal="drop", categorical_features=None, random_state=None):
        self.strategy = strategy
        self.k = k
        self.budget = budget
        self.entry_variance = entry_variance
        self.bandwidth_scope = bandwidth_scope
        self.bandwidth_scale = bandwidth_scale
        self.page_bytes = page_bytes
        self.value_bytes = value_bytes
        self.min_fill = min_fill
        self.insert_order = insert_order
        self.nominal = nominal
        self.categorical_features = categorical_features
        self.random_state = random_state

    _parameter_constraints: dict = {
        **KernelDensityTreeBase._parameter_constraints,
        "min_fill": [Interval(Real, 0, 0.5, closed="right")],
        "insert_order": [StrOptions({"random", "given"})],
    }

    def fit(self, X, y):
        t_start = time.process_time()
        self._validate_params()
        Z, codes = self._fit_common(X, y)
        C = self.classes_.size
        d = Z.shape[1]
        self.dir_capacity_ = page_fanout(d, int(self.page_bytes), int(self.value_bytes))
        self.leaf_capacity_ = page_leaf_capacity(d, int(self.page_bytes), int(self.value_bytes))
        rng = np.random.default_rng(self.random_state)
        leaf_points, children, roots = [], [], []
        for c in range(C):  # one R-tree per class
            pts = np.flatnonzero(codes == c)
            if self.insert_order == "random":
                pts = pts[rng.permutation(pts.size)]
            is_leaf, count, child, _, _, _, n_nodes, root = rtree_insert_all(
                Z, pts.astype(np.int64), self.leaf_capacity_, self.dir_capacity_,
                max(1, int(self.min_fill * self.leaf_capacity_)), max(1, int(self.min_fill * self.dir_capacity_)),
                1e-3)
            base = len(leaf_points)
            for v in range(n_nodes):  # nodes, not instances
                kids = child[v, :count[v]]
                if is_leaf[v]:
                    leaf_points.append(kids.copy())
                    children.append(None)
                else:
                    leaf_points.append(None)
                    children.append([int(base + ch) for ch in kids])
            roots.append(base + int(root))
        tree = flatten_tree(leaf_points, children, roots)
        self.model_ = build_model(Z, codes, C, tree, self.kernel_var_, pooled=False,
                                  kde_moment=self.entry_variance == "kde")
        order = self.model_["order"]
        self.kernels_ = np.ascontiguousarray(Z[order])
        self.kernel_class_ = codes[order]
        self.diagnostics_ = {"dir_capacity": int(self.dir_capacity_), "leaf_capacity": int(self.leaf_capacity_),
                             **tree_stats(self.model_), "fit_cpu_s": time.process_time() - t_start}
        return self
