"""MC-Tree: Bayesian anytime classification on a multi-class hierarchy of mixture densities
(Kranen, Günnemann, Fries and Seidl, SSDBM 2010; Kranen et al. 2010)."""

from __future__ import annotations

import math
import time
from collections import deque
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ._common import KernelDensityTreeBase
from ._kernels import class_penalised_distances, em_diag_gmm, kmeanspp_seeds, mds_out_of_sample, smacof
from ._model import build_model, flatten_tree, tree_stats

#: Seidl et al. (2009) store 2 KB pages; MC-Tree Sec. 4.2 uses the same fanout
PAGE_BYTES = 2048


def page_fanout(n_features: int, page_bytes: int = PAGE_BYTES, value_bytes: int = 8) -> int:
    """Entries per 2 KB page of a Bayes tree directory node: an entry holds a child pointer,
    a minimum bounding rectangle (2d values) and a cluster feature (n, LS, SS: 1 + 2d values),
    all stored as ``value_bytes``-byte numbers (Seidl et al. 2009; MC-Tree Sec. 4.2). At least 2."""
    entry = value_bytes * (1 + 2 * n_features + 1 + 2 * n_features)
    return max(2, page_bytes // entry)


def page_leaf_capacity(n_features: int, page_bytes: int = PAGE_BYTES, value_bytes: int = 8) -> int:
    """Kernels per 2 KB leaf page: a kernel is one stored object (d values). At least 2."""
    return max(2, page_bytes // (value_bytes * max(n_features, 1)))


def resolve_delta(delta) -> float:
    if isinstance(delta, str):
        if delta.strip().lower() in ("inf", "infinity", "+inf"):
            return math.inf
        delta = float(delta)
    if not isinstance(delta, Real) or not delta >= 1.0:
        raise ValueError(f"delta must be a number >= 1 or 'inf', got {delta!r}")
    return float(delta)


class MCTree(KernelDensityTreeBase):
    """MC-Tree anytime classifier (Kranen et al. 2010, Sec. 3).

    **Structure** (Defs. 1-3). Inner nodes hold at most ``fanout`` entries; an entry stores,
    per class c, the cluster feature CF_c = (n_{e,c}, LS_{e,c}, SS_{e,c}) of its objects of
    class c (type "A", Def. 1) or the per-class (n, LS) with one pooled squared sum (type "B",
    Def. 2). Leaf nodes hold at most ``fanout`` Gaussian kernels, one per training object.

    **Construction** (Sec. 3.2), top down: the objects of a node are clustered by EM into
    ``fanout`` Gaussian clusters (diagonal covariances, k-means++ start), one entry per
    non-empty cluster, recursively until a node holds at most ``fanout`` objects (a leaf).
    Before clustering a node with several classes, the objects are moved by metric MDS
    (SMACOF, same dimensionality, started at the original coordinates) towards the class-aware
    distance d_delta (delta x Euclidean across classes); this is redone for every subtree. The
    entries' Gaussians are always computed in the original space. ``delta = 1`` is the plain
    EM tree (no transformation); ``delta = inf`` (Sec. 4.1) separates the classes: the root
    holds one entry per class and each class is clustered on its own.

    **Classification** (Secs. 3.3-3.4). The frontier starts at the root entries; each step
    replaces one entry by its child entries and updates pdq(x|c, F) incrementally (Def. 6).
    The entry is chosen by quality_alpha (Def. 7: alpha IG(e)/log|C| + (1 - alpha) n_e
    g(x; e) / max_w n_w g(x; w)) with the meta strategy first-best, k-best or k-class.

    Choices where the paper is silent (each a parameter where it matters):

    - ``fanout``: "page" (default) = the Bayes tree's directory fanout for 2 KB pages
      (Sec. 4.2, :func:`page_fanout`); "n_classes" = the number of classes (Sec. 4.1); or an
      integer. The paper uses both settings in different sections.
    - Attributes are standardised (z-scores of the training fold) before construction; the
      posteriors do not depend on this (every density changes by the same factor), but the
      Euclidean distances of d_delta and the EM start do.
    - ``entry_variance="kde"``: an entry's class Gaussian has variance SS/n - mean^2 + h_c
      (h_c the class's kernel variance), i.e. it is the moment-matched Gaussian of the
      kernels below it; a one-object entry equals its kernel. ``"cf"`` uses the literal
      SS/n - mean^2 of Def. 1 with h_c as a lower bound (a one-object cluster has variance 0).
    - Kernel bandwidths: Silverman's normal-reference rule per class and attribute
      (see :func:`._common.silverman_variances`).
    - MDS on large nodes: SMACOF runs on at most ``mds_max_points`` randomly chosen landmark
      objects; every other object is placed by the single-point majorization update against
      the fixed landmark configuration (:func:`._kernels.mds_out_of_sample`), started at its
      original coordinates. This keeps a node's MDS at O(m^2 d) per iteration with m <=
      ``mds_max_points`` instead of O(n^2 d) time and memory.
    - EM: at most ``em_max_iter`` iterations, variance floor ``1e-6`` x the mean variance; if EM
      leaves fewer than two non-empty clusters, the node is split into ``fanout`` equal parts
      along its attribute of largest variance (so the construction always terminates).
    - k-means++, EM and SMACOF are our own Numba kernels, not scikit-learn's: scikit-learn's give
      other clusters and configurations (measured figures in :mod:`._kernels`), so switching
      would change every tree.
    - k-class (and qbk) choose among entries that can still be refined; kernels stay in the
      frontier but cannot be refined. Ties go to the lower entry number.
    - Budget (``cost``): "class_gaussians" = one unit per Gaussian evaluated, an entry with
      several classes costing one Gaussian per class present plus one for its overall Gaussian
      (needed by Def. 7); "entries" = one unit per entry read (an entry is one mixture
      component, as Fig. 1 draws it). A kernel costs one either way, and single-class entries
      (all of them below the root with delta = inf) cost one either way. The first result
      (root entries) costs the root's units.

    Missing values are replaced by the training mean of the attribute; nominal attributes are
    dropped (``nominal="drop"``; see :class:`._common.NumericView`).

    Parameters
    ----------
    fanout : "page", "n_classes" or int, default="page"
    delta : float >= 1 or "inf", default="inf"
        MDS penalty of d_delta (Sec. 3.2); Sec. 4.2 uses infinity.
    entry_type : {"A", "B"}, default="A"
    entry_variance : {"kde", "cf"}, default="kde"
    strategy : {"k-class", "k-best", "first-best"}, default="k-class"
    k : int, default=2
        Entries marked per round of k-best / k-class (Fig. 6 uses k = 2).
    alpha : float in [0, 1], default=0.0
        Weight of the information gain in quality_alpha (Sec. 4.1 finds alpha = 0 best).
    budget : float or None, default=None
        Gaussians per query for ``predict_proba``; None = the full model (all kernels).
    bandwidth_scope : {"class", "global"}, default="class"
    bandwidth_scale : float, default=1.0
    page_bytes, value_bytes : int, default 2048 and 8
        Page layout for ``fanout="page"``.
    em_max_iter : int, default=100
    mds_max_points : int, default=500
    mds_max_iter : int, default=100
    nominal : {"drop", "code"}, default="drop"
    categorical_features : bool array or None
    random_state : int or None
    leaf_capacity : "fanout", "page" or int, default="fanout"
        Kernels per leaf node: "fanout" = Def. 3 (at most theta kernels); "page" = the Bayes
        tree's 2 KB leaf page (:func:`page_leaf_capacity`, 16 kernels for 16 attributes).
    cost : {"class_gaussians", "entries"}, default="entries"
        What one budget unit counts (see the budget note above and
        :func:`._model.build_model`): every Gaussian evaluated, or one per entry read.
    root : {"classes", "fanout"}, default="classes"
        delta = inf only: "classes" = the root holds one entry per class (Sec. 1: "a very fast
        first result after evaluating just one Gaussian normal distribution per class at the
        root level"), even when there are more classes than ``fanout``; "fanout" = Def. 3
        strictly (at most ``fanout`` entries per node): the class entries are grouped under
        mixed upper entries by EM on the class means.

    Attributes
    ----------
    classes_, model_ (flattened tree arrays), fanout_, delta_, kernel_var_, diagnostics_
    """

    def __init__(self, *, fanout="page", delta="inf", entry_type="A", entry_variance="kde", strategy="k-class", k=2,
                 alpha=0.0, budget=None, bandwidth_scope="class", bandwidth_scale=1.0, page_bytes=PAGE_BYTES,
                 value_bytes=8, em_max_iter=100, mds_max_points=500, mds_max_iter=100, nominal="drop",
                 categorical_features=None, random_state=None, cost="entries", root="classes",
                 leaf_capacity="fanout"):
        self.leaf_capacity = leaf_capacity
        self.cost = cost
        self.root = root
        self.fanout = fanout
        self.delta = delta
        self.entry_type = entry_type
        self.entry_variance = entry_variance
        self.strategy = strategy
        self.k = k
        self.alpha = alpha
        self.budget = budget
        self.bandwidth_scope = bandwidth_scope
        self.bandwidth_scale = bandwidth_scale
        self.page_bytes = page_bytes
        self.value_bytes = value_bytes
        self.em_max_iter = em_max_iter
        self.mds_max_points = mds_max_points
        self.mds_max_iter = mds_max_iter
        self.nominal = nominal
        self.categorical_features = categorical_features
        self.random_state = random_state

    _parameter_constraints: dict = {
        **KernelDensityTreeBase._parameter_constraints,
        "fanout": [StrOptions({"page", "n_classes"}), Interval(Integral, 2, None, closed="left")],
        "delta": [Interval(Real, 1, None, closed="left"), StrOptions({"inf"})],
        "entry_type": [StrOptions({"A", "B"})],
        "alpha": [Interval(Real, 0, 1, closed="both")],
        "em_max_iter": [Interval(Integral, 0, None, closed="left")],
        "mds_max_points": [Interval(Integral, 0, None, closed="left")],
        "mds_max_iter": [Interval(Integral, 0, None, closed="left")],
        "cost": [StrOptions({"class_gaussians", "entries"})],
        "root": [StrOptions({"classes", "fanout"})],
        "leaf_capacity": [StrOptions({"fanout", "page"}), Interval(Integral, 1, None, closed="left")],
    }

    # ---------------------------------------------------------------- fit
    def fit(self, X, y):
        t_start = time.process_time()
        self._validate_params()
        if self.strategy == "qbk":
            raise ValueError("strategy 'qbk' belongs to the Bayes tree; MC-Tree uses first-best, k-best or k-class")
        Z, codes = self._fit_common(X, y)
        C = self.classes_.size
        self.delta_ = resolve_delta(self.delta)
        self.fanout_ = self._resolve_fanout(Z.shape[1], C)
        lc = self.leaf_capacity
        if lc == "fanout":
            lc = self.fanout_
        elif lc == "page":
            lc = page_leaf_capacity(Z.shape[1], int(self.page_bytes), int(self.value_bytes))
        if not isinstance(lc, Integral) or isinstance(lc, bool) or lc < 1:
            raise ValueError(f"leaf_capacity must be 'fanout', 'page' or a positive integer, got {self.leaf_capacity!r}")
        self.leaf_capacity_ = int(lc)
        rng = np.random.default_rng(self.random_state)
        self._timing = {"mds_s": 0.0, "em_s": 0.0}
        leaf_points, children, roots = self._construct(Z, codes, rng)
        tree = flatten_tree(leaf_points, children, roots)
        self.model_ = build_model(Z, codes, C, tree, self.kernel_var_, pooled=self.entry_type == "B",
                                  kde_moment=self.entry_variance == "kde", cost=self.cost)
        order = self.model_["order"]
        self.kernels_ = np.ascontiguousarray(Z[order])
        self.kernel_class_ = codes[order]
        self.diagnostics_ = {"fanout": int(self.fanout_), "leaf_capacity": self.leaf_capacity_, "delta": "inf" if math.isinf(self.delta_) else self.delta_,
                             **tree_stats(self.model_), "mds_cpu_s": self._timing["mds_s"],
                             "em_cpu_s": self._timing["em_s"], "fit_cpu_s": time.process_time() - t_start}
        del self._timing
        return self

    def _resolve_fanout(self, d: int, n_classes: int) -> int:
        f = self.fanout
        if f == "page":
            f = page_fanout(d, int(self.page_bytes), int(self.value_bytes))
        elif f == "n_classes":
            f = n_classes
        if not isinstance(f, Integral) or isinstance(f, bool) or f < 2:
            raise ValueError(f"fanout must be 'page', 'n_classes' or an integer >= 2, got {self.fanout!r}")
        return int(f)

    def _construct(self, Z, y, rng):
        """Top-down construction (Sec. 3.2) over a work queue of nodes (never recursion)."""
        theta = self.fanout_
        leaf_points: list = []
        children: list = []

        def new_node():
            leaf_points.append(None)
            children.append(None)
            return len(leaf_points) - 1

        root = new_node()
        queue = deque()
        all_idx = np.arange(len(y))
        if math.isinf(self.delta_):
            # delta = inf (Sec. 4.1): the database is divided by class, then each class is clustered
            present = np.flatnonzero(np.bincount(y, minlength=self.classes_.size))
            if self.root == "classes" or present.size <= theta:
                children[root] = []
                for c in present:
                    v = new_node()
                    children[root].append(v)
                    queue.append((v, all_idx[y == c]))
            else:
                # Def. 3 taken strictly: no node holds more than theta entries, so the classes are
                # grouped above the class level by clustering their mean vectors (EM, theta groups)
                cents = np.stack([Z[y == c].mean(axis=0) for c in present])
                cqueue = deque([(root, np.arange(present.size))])
                while cqueue:
                    v, cls = cqueue.popleft()
                    children[v] = []
                    if cls.size <= theta:
                        for ci in cls:
                            ch = new_node()
                            children[v].append(ch)
                            queue.append((ch, all_idx[y == present[ci]]))
                        continue
                    for grp in self._split(cents, np.zeros(present.size, dtype=np.int64), cls, theta, rng):
                        ch = new_node()
                        children[v].append(ch)
                        cqueue.append((ch, grp))
        else:
            queue.append((root, all_idx))
        while queue:
            v, idx = queue.popleft()
            if idx.size <= self.leaf_capacity_:
                leaf_points[v] = idx  # a leaf node: one kernel per object
                continue
            children[v] = []
            for group in self._split(Z, y, idx, theta, rng):
                ch = new_node()
                children[v].append(ch)
                queue.append((ch, group))
        return leaf_points, children, [root]

    def _split(self, Z, y, idx, theta, rng):
        """Partition a node's objects into at most theta non-empty clusters."""
        Zs = np.ascontiguousarray(Z[idx])
        ys = y[idx]
        Y = Zs
        if not math.isinf(self.delta_) and self.delta_ > 1.0 and np.unique(ys).size > 1:
            t0 = time.process_time()
            Y = self._mds(Zs, ys, rng)
            self._timing["mds_s"] += time.process_time() - t0
        t0 = time.process_time()
        seeds = kmeanspp_seeds(Y, theta, rng.random(theta))
        var = Y.var(axis=0).mean() if Y.shape[1] else 0.0
        labels = em_diag_gmm(Y, np.ascontiguousarray(Y[seeds]), int(self.em_max_iter), 1e-4,
                             1e-6 * var + 1e-12)
        self._timing["em_s"] += time.process_time() - t0
        groups = [idx[labels == m] for m in range(theta)]
        groups = [g for g in groups if g.size]
        if len(groups) < 2:
            # EM found no structure (e.g. identical objects): equal parts along the widest attribute
            j = int(np.argmax(Zs.var(axis=0))) if Zs.shape[1] else 0
            srt = idx[np.argsort(Zs[:, j], kind="stable")] if Zs.shape[1] else idx
            groups = [g for g in np.array_split(srt, theta) if g.size]
        return groups

    def _mds(self, Zs, ys, rng):
        """The class-aware transformation of Sec. 3.2 (SMACOF towards d_delta, started at the
        original coordinates), with landmarks on large nodes."""
        m = Zs.shape[0]
        cap = int(self.mds_max_points)
        if m <= cap:
            target = class_penalised_distances(Zs, ys.astype(np.int64), self.delta_)
            X, _, _ = smacof(target, Zs, int(self.mds_max_iter), 1e-5)
            return X
        lm = np.sort(rng.choice(m, size=cap, replace=False))
        Lz, Ly = np.ascontiguousarray(Zs[lm]), ys[lm].astype(np.int64)
        target = class_penalised_distances(Lz, Ly, self.delta_)
        LX, _, _ = smacof(target, Lz, int(self.mds_max_iter), 1e-5)
        Y = mds_out_of_sample(Zs, ys.astype(np.int64), Lz, Ly, LX, self.delta_, 10)
        Y[lm] = LX
        return Y
