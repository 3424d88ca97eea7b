"""C4.5 decision tree with the defaults of Weka 3.6's J48 (``-C 0.25 -M 2``).

J48 is the decision-tree contender of the MassBayes paper (Aryal and Ting 2013, "decision tree J48
(i.e., the WEKA version of C4.5)", run with default settings) and the static C4.5 baseline
of the MC-Tree paper (Kranen et al. 2010, "C4.5 implementation from Weka"). This module implements
the algorithm of Quinlan's C4.5 as Weka's ``weka.classifiers.trees.J48`` does it, so that
both papers' J48 columns can be rerun here. The Numba kernels are in
:mod:`algorithms._c45_kernels`.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, Real

from . import _c45_kernels as K
from ._nominal import NominalCodesMixin, normalised_rows
from ._base import NOMINAL_COLUMNS_CONSTRAINTS, PredictFromProbaMixin, fit_class_codes


class J48(PredictFromProbaMixin, NominalCodesMixin, ClassifierMixin, BaseEstimator):
    """C4.5 decision tree as Weka 3.6's J48 builds it (J48 defaults: ``-C 0.25 -M 2``).

    Growing (``C45ModelSelection`` / ``C45Split``):

    - a node becomes a leaf when its weight is below ``2 * min_instances`` or it is pure;
    - every attribute is evaluated; among the candidates whose information gain is at least
      the average gain of the valid candidates (minus 1e-3, as J48), the highest *gain ratio*
      wins (the first attribute on ties). Nominal attributes with >= 0.3 * N values are left
      out of that average unless all attributes are such;
    - a nominal attribute splits multiway, one branch per declared value (``n_categories``),
      and is valid when at least two branches hold ``min_instances`` weight;
    - a numeric attribute splits in two at the cut with the best information gain among the
      cuts between sorted known values more than 1e-5 apart that leave at least
      ``max(min_instances, min(25, 0.1 * known weight / n_classes))`` weight on each side; its
      gain is then reduced by log2(number of such cuts) / node weight (C4.5's MDL correction,
      ``use_mdl_correction``; C4.5 release 8 counts the distinct values minus one, Weka counts
      the cuts that pass the minimum-weight test, and we follow Weka) and the cut is moved down
      to the largest training value below the midpoint (C4.5's ``setSplitPoint``);
    - information gain and the split information are computed on the known values and scaled
      by their share of the weight; the split information counts the unknown weight as a branch.

    Missing values (NaN), as C4.5: in training, a row with a missing split value goes down
    every branch with its weight times that branch's share of the known weight (fractional
    instances); in prediction it follows every non-empty branch with that share, and the
    class distributions reached are summed.

    Pruning (``C45PruneableClassifierTree``): after growing, ``collapse`` turns into a leaf
    every subtree that makes no fewer training errors than its root would (always done, as in
    J48 3.6); then pessimistic-error pruning with confidence ``confidence`` (``Stats.addErrs``:
    the upper limit of the binomial error rate) replaces a subtree by a leaf, or, with
    ``subtree_raising``, by its largest branch with all the node's training data sent down it
    (distributions recomputed), whenever that does not raise the estimated errors by more than
    0.1; pruning runs bottom-up and a raised node is pruned again.

    Probabilities are J48's ``distributionForInstance``: the leaf's class frequencies (with
    ``use_laplace``, (count + 1) / (weight + n_classes)); a value that reaches an empty
    branch gets the parent's distribution for that branch (or the parent's overall
    distribution when the branch has no weight). Weka's rows can sum to slightly less than 1
    when a missing value skips an empty branch that still has a tiny weight; rows are
    renormalised here (the predicted class is unchanged).

    Where this can differ from Weka: floating-point sums of fractional weights are taken in a
    different order (Weka's ties within 1e-6 are reproduced, so only near-exact ties can go
    the other way); ``n_classes`` is the number of classes seen in training, while Weka uses
    the number declared in the ARFF header (it enters the numeric minimum-split size and the
    Laplace correction).

    Parameters
    ----------
    confidence : float, default=0.25
        Confidence factor CF of pessimistic pruning (J48 ``-C``); Weka stores it as a float32.
    min_instances : int, default=2
        Minimum weight per branch for a valid split (J48 ``-M``).
    unpruned : bool, default=False
        Grow without pessimistic pruning (J48 ``-U``); collapsing is still done, as in Weka 3.6.
    subtree_raising : bool, default=True
        Consider raising the largest branch when pruning (J48 ``-S`` turns it off).
    use_laplace : bool, default=False
        Laplace-corrected leaf probabilities (J48 ``-A``).
    use_mdl_correction : bool, default=True
        C4.5's log2(#cuts) / N penalty on numeric gain (always on in Weka 3.6).
    relocate_split_point : bool, default=True
        Move a numeric cut to the largest training value below the midpoint (always done in 3.6).
    categorical_features : array-like of bool (n_features,) or of int indices, default=None
        Nominal columns (codes 0..k-1, NaN missing); the rest are numeric. The runner sets it.
    n_categories : array-like of int (n_features,), default=None
        Declared number of values of each nominal column (the number of branches of its
        split, as Weka's ARFF header gives); None: max code in training + 1. The runner sets it.

    Attributes
    ----------
    classes_ : ndarray of class labels
    n_features_in_ : int
    n_leaves_ : int
        Number of leaves, as J48's ``measureNumLeaves`` (empty leaves included).
    tree_size_ : int
        Number of nodes, as J48's ``measureTreeSize``.
    feature_, threshold_, nominal_, first_child_, n_children_, branch_share_, empty_, value_ : ndarray
        The fitted tree as flat arrays in preorder (node 0 is the root; ``feature_ = -1`` at
        leaves; node k's branches are ``first_child_[k] + b``; ``value_`` holds each leaf's
        class distribution).
    diagnostics_ : dict
        ``n_leaves`` and ``tree_size``, per-fit diagnostics (a harness may store them with each split).
    """

    def __init__(self, *, confidence=0.25, min_instances=2, unpruned=False, subtree_raising=True, use_laplace=False,
                 use_mdl_correction=True, relocate_split_point=True, categorical_features=None, n_categories=None):
        self.confidence = confidence
        self.min_instances = min_instances
        self.unpruned = unpruned
        self.subtree_raising = subtree_raising
        self.use_laplace = use_laplace
        self.use_mdl_correction = use_mdl_correction
        self.relocate_split_point = relocate_split_point
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    _parameter_constraints: dict = {
        "confidence": [Real],  # in (0, 0.5] unless unpruned (fit)
        "min_instances": [Interval(Real, 1, None, closed="left")],
        "unpruned": ["boolean"],
        "subtree_raising": ["boolean"],
        "use_laplace": ["boolean"],
        "use_mdl_correction": ["boolean"],
        "relocate_split_point": ["boolean"],
        **NOMINAL_COLUMNS_CONSTRAINTS,
    }

    # ------------------------------------------------------------------ fit
    def fit(self, X, y):
        self._validate_params()
        X, y_codes = fit_class_codes(self, X, y)
        if not (0 < float(self.confidence) <= 0.5) and not self.unpruned:
            raise ValueError(f"confidence must be in (0, 0.5]; got {self.confidence!r}")
        self._set_nominal(X)
        self._check_codes(X, "fit")
        self._grow_and_prune(np.ascontiguousarray(X), y_codes)
        self.diagnostics_ = {"n_leaves": int(self.n_leaves_), "tree_size": int(self.tree_size_)}
        return self

    def _grow_and_prune(self, X, y):
        n_classes = self.classes_.size
        cf = float(np.float32(self.confidence))  # J48 keeps CF as a float
        from scipy.special import ndtri  # here, not at import: scipy.special costs ~0.1 s

        z = float(ndtri(float(np.float32(1) - np.float32(cf))))
        nominal = self.nominal_
        n_values = self.n_values_
        keep_data = self.subtree_raising and not self.unpruned
        columns = np.ascontiguousarray(X.T)  # one attribute per row: the kernels read columns
        numeric = np.flatnonzero(~nominal)
        numeric_slot = np.full(X.shape[1], -1, dtype=np.int64)
        numeric_slot[numeric] = np.arange(numeric.size)
        # sort every numeric column once (stable, missing values last); nodes inherit the order
        order = np.empty((numeric.size, X.shape[0]), dtype=np.int32)
        n_known = np.empty(numeric.size, dtype=np.int64)
        distinct_parts, distinct_start = [], np.zeros(X.shape[1] + 1, dtype=np.int64)
        for slot, a in enumerate(numeric):
            order[slot] = np.argsort(columns[a], kind="stable")
            n_known[slot] = np.count_nonzero(~np.isnan(columns[a]))
            distinct_parts.append(np.unique(columns[a, order[slot, :n_known[slot]]]))
        for a in range(X.shape[1]):
            size = distinct_parts[numeric_slot[a]].size if numeric_slot[a] >= 0 else 0
            distinct_start[a + 1] = distinct_start[a] + size
        distinct = np.concatenate(distinct_parts) if distinct_parts else np.zeros(0)
        tree = _GrownTree(n_classes)
        # C45PruneableClassifierTree.buildTree, depth first (children get consecutive ids)
        stack = [(tree.add_node(), np.arange(X.shape[0], dtype=np.int64), np.ones(X.shape[0]), order, n_known)]
        while stack:
            node, rows, w, order, n_known = stack.pop()
            (attr, threshold, class_total, bag_class, bag_total, node_class, node_total, child_rows, child_w, offsets,
             child_order, child_known) = K.grow_node(columns, y, rows, w, order, n_known, numeric_slot, nominal,
                                                     n_values, distinct, distinct_start, n_classes,
                                                     int(self.min_instances), X.shape[0],
                                                     bool(self.use_mdl_correction), bool(self.relocate_split_point))
            if attr < 0:
                tree.make_leaf(node, class_total, float(w.sum()))
                continue
            first = tree.make_split(node, attr, threshold, bool(nominal[attr]), bag_class, bag_total, node_class,
                                    node_total, (rows, w) if keep_data else None)
            for b in range(bag_total.shape[0] - 1, -1, -1):
                lo, hi = offsets[b], offsets[b + 1]
                stack.append((first + b, child_rows[lo:hi], child_w[lo:hi], child_order[:, lo:hi], child_known[b]))
        t = tree.to_arrays()
        K.collapse(t["is_leaf"], t["n_bags"], t["first_child"], t["class_total"])
        if not self.unpruned:
            K.prune(columns, y, n_classes, cf, z, bool(self.subtree_raising), t["is_leaf"], t["attr"], t["threshold"],
                    t["nominal"], t["n_bags"], t["first_child"], t["bag_start"], t["bag_class"], t["bag_total"],
                    t["class_total"], t["node_total"], t["is_empty"], t["data_start"], t["data_len"],
                    t["data_rows"], t["data_w"])
        self._compact(t, n_classes)

    def _compact(self, t, n_classes):
        """Keep the nodes reachable from the root as flat prediction arrays (branches of a node
        get consecutive ids)."""
        reachable = 0
        stack = [0]
        while stack:
            node = stack.pop()
            reachable += 1
            if not t["is_leaf"][node]:
                stack.extend(int(t["first_child"][node]) + b for b in range(int(t["n_bags"][node])))
        m = reachable
        feature = np.full(m, -1, dtype=np.int64)
        threshold = np.zeros(m)
        nominal = np.zeros(m, dtype=bool)
        first_child = np.zeros(m, dtype=np.int64)
        n_children = np.zeros(m, dtype=np.int64)
        share = np.ones(m)
        empty = np.zeros(m, dtype=bool)
        value = np.zeros((m, n_classes))
        stack, next_id = [(0, 0)], 1  # (old id, new id)
        while stack:
            old, k = stack.pop()
            if t["is_leaf"][old]:
                empty[k] = t["is_empty"][old]
                if not empty[k]:
                    value[k] = self._leaf_value(t, old, n_classes)
                continue
            nb = int(t["n_bags"][old])
            feature[k], threshold[k], nominal[k] = t["attr"][old], t["threshold"][old], t["nominal"][old]
            first_child[k], n_children[k] = next_id, nb
            b0 = int(t["bag_start"][old])
            for b in range(nb):
                child = int(t["first_child"][old]) + b
                share[next_id + b] = t["bag_total"][b0 + b] / t["node_total"][old]
                if t["is_leaf"][child] and t["is_empty"][child]:
                    # ClassifierTree.getProbs: an empty branch answers with the parent's distribution for it
                    value[next_id + b] = self._empty_branch_value(t, old, b, n_classes)
            stack.extend((int(t["first_child"][old]) + b, next_id + b) for b in range(nb - 1, -1, -1))
            next_id += nb
        self.feature_, self.threshold_, self.nominal_split_ = feature, threshold, nominal
        self.first_child_, self.n_children_, self.branch_share_ = first_child, n_children, share
        self.empty_, self.value_ = empty, value
        self.n_leaves_ = int(np.sum(feature < 0))
        self.tree_size_ = int(m)

    def _leaf_value(self, t, node, n_classes):
        counts = t["class_total"][node]
        total = counts.sum()
        if self.use_laplace:
            return (counts + 1.0) / (total + n_classes)
        return counts / total if abs(total) >= K.SMALL else np.zeros(n_classes)

    def _empty_branch_value(self, t, parent, b, n_classes):
        b0 = int(t["bag_start"][parent])
        bag = t["bag_class"][b0 + b]
        bag_weight = t["bag_total"][b0 + b]
        if bag_weight > K.SMALL:
            counts, total = bag, bag_weight
        else:
            counts, total = t["class_total"][parent], t["node_total"][parent]
        if self.use_laplace:
            return (counts + 1.0) / (total + n_classes)
        return counts / total if abs(total) >= K.SMALL else np.zeros(n_classes)

    # ------------------------------------------------------------------ predict
    def predict_proba(self, X):
        X = self._predict_input(X)
        return normalised_rows(K.predict_proba(X, self.feature_, self.threshold_, self.nominal_split_,
                                               self.first_child_, self.n_children_, self.branch_share_,
                                               self.empty_, self.value_))


class _GrownTree:
    """The tree while it grows: one entry per node in Python lists (nodes are few; the work per
    node is in the kernels), packed into flat arrays for collapsing, pruning and prediction."""

    def __init__(self, n_classes):
        self.n_classes = n_classes
        self.is_leaf, self.attr, self.threshold, self.nominal = [], [], [], []
        self.n_bags, self.first_child, self.is_empty = [], [], []
        self.class_total, self.node_total = [], []
        self.bag_class, self.bag_total, self.bag_start = [], [], []
        self.data = {}
        self.n_bag_slots = 0

    def add_node(self):
        self.is_leaf.append(True)
        self.attr.append(-1)
        self.threshold.append(0.0)
        self.nominal.append(False)
        self.n_bags.append(0)
        self.first_child.append(-1)
        self.is_empty.append(False)
        self.class_total.append(None)
        self.node_total.append(0.0)
        self.bag_start.append(0)
        return len(self.is_leaf) - 1

    def make_leaf(self, node, class_total, total):
        self.class_total[node] = class_total
        self.node_total[node] = total
        self.is_empty[node] = abs(total) < K.SMALL  # ClassifierTree.buildTree: m_isEmpty

    def make_split(self, node, attr, threshold, is_nominal, bag_class, bag_total, class_total, total, data):
        self.is_leaf[node] = False
        self.attr[node] = attr
        self.threshold[node] = threshold
        self.nominal[node] = is_nominal
        self.n_bags[node] = bag_total.shape[0]
        self.class_total[node] = class_total
        self.node_total[node] = total
        self.bag_start[node] = self.n_bag_slots
        self.bag_class.append(bag_class)
        self.bag_total.append(bag_total)
        self.n_bag_slots += bag_total.shape[0]
        if data is not None:
            self.data[node] = data
        first = len(self.is_leaf)
        for _ in range(bag_total.shape[0]):
            self.add_node()
        self.first_child[node] = first
        return first

    def to_arrays(self):
        n = len(self.is_leaf)
        starts = np.zeros(n, dtype=np.int64)
        lengths = np.zeros(n, dtype=np.int64)
        chunks_rows, chunks_w, used = [], [], 0
        for node, (rows, w) in self.data.items():
            starts[node], lengths[node] = used, rows.shape[0]
            chunks_rows.append(rows)
            chunks_w.append(w)
            used += rows.shape[0]
        c = self.n_classes
        return {
            "is_leaf": np.array(self.is_leaf, dtype=bool),
            "attr": np.array(self.attr, dtype=np.int64),
            "threshold": np.array(self.threshold, dtype=np.float64),
            "nominal": np.array(self.nominal, dtype=bool),
            "n_bags": np.array(self.n_bags, dtype=np.int64),
            "first_child": np.array(self.first_child, dtype=np.int64),
            "is_empty": np.array(self.is_empty, dtype=bool),
            "class_total": np.array(self.class_total, dtype=np.float64).reshape(n, c),
            "node_total": np.array(self.node_total, dtype=np.float64),
            "bag_start": np.array(self.bag_start, dtype=np.int64),
            "bag_class": (np.concatenate(self.bag_class) if self.bag_class else np.zeros((0, c))),
            "bag_total": (np.concatenate(self.bag_total) if self.bag_total else np.zeros(0)),
            "data_start": starts,
            "data_len": lengths,
            "data_rows": np.concatenate(chunks_rows) if chunks_rows else np.zeros(0, dtype=np.int64),
            "data_w": np.concatenate(chunks_w) if chunks_w else np.zeros(0),
        }
