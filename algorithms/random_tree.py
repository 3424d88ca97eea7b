"""Weka 3.6's RandomForest: bagging of RandomTree, reimplemented in Numba.

The A2DE paper's RF10 and the ESKDB paper's RF are Weka's ``RandomForest -I 10`` / ``-I 100``.
scikit-learn's forest (``algorithms.baselines.RandomForest``) splits nominal codes in two and
handles missing values its own way; this module builds the trees Weka builds. Written from the
behaviour of Weka 3.6.14's ``weka.classifiers.trees.RandomTree`` (revision 10993, inner class
``Tree``), ``RandomForest`` (1.13) and ``meta.Bagging`` (11572); the kernels are in
:mod:`algorithms._random_tree_kernels`.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Integral, Interval, Real, RealNotInt, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from . import _random_tree_kernels as K
from ._nominal import NominalCodesMixin, normalised_rows
from ._base import NOMINAL_COLUMNS_CONSTRAINTS, RANDOM_STATE_CONSTRAINT, PredictFromProbaMixin


def weka_k(n_features: int) -> int:
    """Weka's default number of attributes tried per node: ``(int) Utils.log2(M) + 1`` with M the
    number of attributes without the class (``RandomForest.buildClassifier`` when ``-K 0``)."""
    return int(math.log(n_features) / math.log(2)) + 1 if n_features > 0 else 1


class RandomForestWeka(PredictFromProbaMixin, NominalCodesMixin, ClassifierMixin, BaseEstimator):
    """Random forest as Weka 3.6's ``RandomForest -I <n_estimators> -K 0 -S <seed>``.

    Bagging (``meta.Bagging``, bag size 100 %): every tree is grown on a bootstrap sample of the
    n training rows (n draws with replacement; a row drawn c times enters with weight c, which
    grows the same tree as Weka's c unit-weight copies). The forest's class distribution is the
    sum of the trees' distributions, normalised (``Bagging.distributionForInstance``).

    Each tree is Weka's ``RandomTree`` (``-K k -M min_instances``, no depth limit, no
    backfitting), grown depth first:

    - a node is a leaf when its weight is below ``2 * min_instances`` or when its majority class
      holds all but 1e-6 of its weight (``Utils.eq``), or at ``max_depth`` when that is > 0;
    - attributes are drawn at random without replacement, K of them (``max_features``; Weka's
      ``int(log2(M)) + 1`` by default); if none of the K has a gain above 1e-6, drawing goes on,
      one attribute at a time, until one does or all M were tried;
    - the criterion is the information gain in bits, ``H(class) - H(class | branch)`` of the
      (branch x class) weight table, not the gain ratio (``ContingencyTables.entropyOverColumns``
      minus ``entropyConditionedOnRows``); the largest gain wins, ties to the lowest attribute
      index; the node becomes a leaf unless the best gain exceeds 1e-6 (``Utils.gr``);
    - a nominal attribute splits multiway, one branch per declared value (``n_categories``;
      branches without training weight become empty leaves);
    - a numeric attribute splits in two at the best cut between adjacent distinct known values
      (first best on ties), at their midpoint (the upper value when the midpoint rounds onto the
      lower); value < split point goes left. No minimum weight per branch is imposed (Weka's
      ``-M`` enters only the leaf test above);
    - missing values (NaN): the gain of an attribute is computed after each row with a missing
      value was added to every branch with its weight times the branch's share of the known
      weight (uniform shares when the known weight is ~0); a numeric cut is chosen on the
      known rows alone. Growing sends such a row down every branch with a positive share, with
      its weight times that share (fractional instances);
    - prediction (``distributionForInstance``): a leaf answers its normalised class weights; an
      empty branch answers its parent's; a missing value follows every branch, and the answers
      are added weighted by the branch shares.

    Where this differs from Weka: the random numbers (Weka's ``java.util.Random`` seeded from
    the seed and a hash of an instance's text; here splitmix64 streams seeded from
    ``random_state``), so single forests differ and agreement is statistical (measured by the
    harness's forest agreement benchmark); summation order of floating-point weights; numeric
    cuts whose gains differ by less than 1e-12 (relative) count as ties (Weka compares exactly);
    attributes' gains are compared exactly, as Weka does, so two attributes with the same gain in
    exact arithmetic (e.g. inducing the same partition) may break the tie differently when the
    two implementations' sums differ in the last bit;
    the number of classes is that of the training labels (Weka's ARFF header may declare more,
    which only adds zero columns); instance weights are not supported (the runner passes none).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees (Weka ``-I``).
    max_features : "weka", int, float or None, default="weka"
        Attributes tried per node, K. "weka": int(log2(M)) + 1; an int K (Weka ``-K``: above M
        means M, below 1 means the Weka default); a float in (0, 1]: max(1, int(f * M)); None: M.
    min_instances : float, default=1.0
        Weka's ``-M``: a node with less than twice this weight is a leaf.
    max_depth : int, default=0
        Weka's ``-depth`` (0: unlimited).
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample (Bagging); False grows every tree on all rows
        (with ``n_estimators=1``: a single Weka ``RandomTree``).
    categorical_features : array-like of bool (n_features,) or of int indices, default=None
        Nominal columns (codes 0..k-1, NaN missing); the rest are numeric. The runner sets it.
    n_categories : array-like of int (n_features,), default=None
        Declared number of values of each nominal column (its number of branches);
        None: max code in training + 1. The runner sets it.
    n_jobs : int, default=1
        Threads growing trees (the kernels release the GIL); results do not depend on it.
    random_state : int or None, default=None
        Seed of the bootstrap samples and of every tree's attribute draws.

    Attributes
    ----------
    classes_ : ndarray
    n_features_in_ : int
    k_ : int
        The K used.
    roots_ : ndarray of int
        Each tree's root in the concatenated node arrays ``feature_``, ``threshold_``,
        ``first_child_``, ``n_children_``, ``prop_``, ``value_`` (``feature_ = -1`` at leaves;
        branch b of node k is node ``child_[first_child_[k] + b]``, or -1 for an empty branch,
        which answers node k's distribution; ``prop_`` is a node's share of its parent's known
        training weight; ``value_`` the normalised distribution a node answers; ``nodes_`` packs
        feature, first child slot, split point and nominal flag for prediction).
    child_ : ndarray of int32
        The branch slots. Empty branches (no training weight and a zero share) are not stored
        as nodes: on attributes with hundreds of declared values they are almost all of a
        Weka tree's nodes (97 % on diabetes130), and dropping them changes no prediction.
    n_nodes_ : ndarray of int
        Nodes per tree as grown (Weka's count: every branch of a multiway split, empty or not).
    n_stored_nodes_ : ndarray of int
        Nodes per tree kept in the arrays above.
    node_weight_ : ndarray
        Training weight that reached each stored node (0 only for an empty branch with a
        positive share, which is kept).
    diagnostics_ : dict
        ``n_nodes`` (mean nodes per tree), per-fit diagnostics (a harness may store them with each split).
    """

    def __init__(self, *, n_estimators=100, max_features="weka", min_instances=1.0, max_depth=0, bootstrap=True,
                 categorical_features=None, n_categories=None, n_jobs=1, random_state=None):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.min_instances = min_instances
        self.max_depth = max_depth
        self.bootstrap = bootstrap
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.n_jobs = n_jobs
        self.random_state = random_state

    # ------------------------------------------------------------------ validation
    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_features": [StrOptions({"weka"}), Integral, Interval(RealNotInt, 0, 1, closed="right"), None],
        "min_instances": [Interval(Real, 0, None, closed="neither")],
        "max_depth": [Interval(Integral, 0, None, closed="left")],
        "bootstrap": ["boolean"],
        **NOMINAL_COLUMNS_CONSTRAINTS,
        "n_jobs": [Integral, None],
        "random_state": RANDOM_STATE_CONSTRAINT,
    }

    def _k(self, d):
        """Attributes tried per node from ``max_features`` (validated by its constraint)."""
        mf = self.max_features
        if mf is None:
            return d
        if isinstance(mf, str):
            return weka_k(d)
        if isinstance(mf, (int, np.integer)):
            k = int(mf)
            return d if k > d else (weka_k(d) if k < 1 else k)
        return max(1, int(mf * d))

    # ------------------------------------------------------------------ fit
    def fit(self, X, y):
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        n, d = X.shape
        self._set_nominal(X)
        self._check_codes(X, "fit")
        self.k_ = self._k(d)
        Xc = np.ascontiguousarray(X.T)
        Xr, n_distinct, dstart, distinct = K.ranks(Xc, self.nominal_)
        y_codes = y_codes.astype(np.int64)
        n_classes = self.classes_.size

        # bags and tree seeds drawn up front, so the forest does not depend on n_jobs
        rng = np.random.default_rng(self.random_state)
        bags, seeds = [], []
        for _ in range(int(self.n_estimators)):
            if self.bootstrap:
                bags.append(np.bincount(rng.integers(0, n, n), minlength=n).astype(np.float64))
            else:
                bags.append(np.ones(n))
            seeds.append(int(rng.integers(0, 2**63 - 1, dtype=np.int64)))

        def grow(t):
            return K.build_tree(Xc, Xr, n_distinct, dstart, distinct, y_codes, bags[t], self.nominal_, self.n_values_,
                                n_classes, int(self.k_),
                                float(self.min_instances), int(self.max_depth), np.uint64(seeds[t]))

        jobs = int(self.n_jobs or 1)
        if jobs == 1:
            trees = [grow(t) for t in range(len(bags))]
        else:
            if jobs < 0:
                import os
                jobs = os.cpu_count() or 1
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                trees = list(pool.map(grow, range(len(bags))))
        self._pack(trees)
        return self

    def _pack(self, trees):
        """Concatenate the trees' arrays into preallocated forest arrays, releasing each tree as it
        is copied (``trees`` is emptied), so packing needs the forest plus one tree, not twice the
        forest."""
        sizes = np.array([t[0].shape[0] for t in trees], dtype=np.int64)
        slots = np.array([t[7].shape[0] for t in trees], dtype=np.int64)
        grown = np.array([t[8] for t in trees], dtype=np.int64)
        if sizes.sum() >= 2**31:
            raise ValueError(f"the forest has {int(sizes.sum())} non-empty nodes, more than int32 child indices hold; "
                             "grow fewer trees or limit max_depth")
        m, q, C = int(sizes.sum()), int(slots.sum()), trees[0][5].shape[1]
        self.roots_ = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.feature_ = np.empty(m, dtype=np.int64)
        self.threshold_ = np.empty(m)
        self.first_child_ = np.empty(m, dtype=np.int64)
        self.n_children_ = np.empty(m, dtype=np.int64)
        self.prop_ = np.empty(m)
        self.value_ = np.empty((m, C))
        self.node_weight_ = np.empty(m)
        self.child_ = np.empty(q, dtype=np.int32)
        o = so = 0
        trees.reverse()
        while trees:
            f, th, fs, nc, pr, val, w, ch, _ = trees.pop()
            k = f.shape[0]
            self.feature_[o:o + k] = f
            self.threshold_[o:o + k] = th
            self.first_child_[o:o + k] = fs + so
            self.n_children_[o:o + k] = nc
            self.prop_[o:o + k] = pr
            self.value_[o:o + k] = val
            self.node_weight_[o:o + k] = w
            self.child_[so:so + ch.shape[0]] = np.where(ch >= 0, ch + o, -1)
            o += k
            so += ch.shape[0]
            del f, th, fs, nc, pr, val, w, ch
        self.n_nodes_ = grown
        self.n_stored_nodes_ = sizes
        self.nodes_ = K.pack_nodes(self.feature_, self.first_child_, self.threshold_, self.nominal_)
        self.diagnostics_ = {"n_nodes": float(self.n_nodes_.mean())}

    # ------------------------------------------------------------------ predict
    def predict_proba(self, X):
        X = self._predict_input(X)
        return normalised_rows(K.predict_forest(X, self.roots_, self.nodes_, self.n_children_, self.prop_,
                                                self.value_, self.child_))

