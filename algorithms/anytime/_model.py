"""Flattening a tree of entries into the arrays the anytime query engine reads.

A tree is given as nodes: a leaf node holds training instances (its entries are kernels, one
per instance), an inner node holds child nodes (one entry per child, Def. 3). Several root
nodes are allowed (the Bayes tree has one per class); the initial frontier is the union of
their entries.

Layout: the instances are permuted into a depth-first ``order`` so that every entry covers a
contiguous range ``order[lo:hi]`` (the objects O(e) of Def. 3), and the entries are numbered
breadth-first so that the root entries are ``0 .. n_roots-1`` and the entries of every node
are contiguous (``child_lo .. child_hi`` of the entry pointing to it).
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from ._kernels import entry_class_counts, entry_gaussians


def flatten_tree(leaf_points: list, children: list, roots: list[int]) -> dict:
    """Arrays of a tree: ``order``, ``ent_lo``/``ent_hi`` (object range), ``ent_child_lo``/
    ``ent_child_hi`` (entry range of the subnode, -1 for kernels), ``ent_depth``, ``n_roots``.

    ``leaf_points[v]`` is the instance array of leaf node v (None for inner nodes) and
    ``children[v]`` the child node list of inner node v (None for leaves)."""
    n_nodes = len(leaf_points)
    node_lo = np.zeros(n_nodes, dtype=np.int64)
    node_hi = np.zeros(n_nodes, dtype=np.int64)
    pieces = []
    pos = 0
    # depth-first placement of the instances (iterative post-order over nodes)
    stack = [(r, False) for r in reversed(roots)]
    while stack:
        v, done = stack.pop()
        if leaf_points[v] is not None:
            pts = np.asarray(leaf_points[v], dtype=np.int64)
            node_lo[v], node_hi[v] = pos, pos + pts.size
            pieces.append(pts)
            pos += pts.size
            continue
        if done:
            kids = children[v]
            node_lo[v], node_hi[v] = node_lo[kids[0]], node_hi[kids[-1]]
            continue
        stack.append((v, True))
        for ch in reversed(children[v]):
            stack.append((ch, False))
    order = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)

    # breadth-first numbering of entries
    first_entry = np.full(n_nodes, -1, dtype=np.int64)
    node_depth = np.zeros(n_nodes, dtype=np.int64)
    queue = deque(roots)
    bfs = []
    nxt = 0
    while queue:
        v = queue.popleft()
        bfs.append(v)
        first_entry[v] = nxt
        if leaf_points[v] is not None:
            nxt += len(leaf_points[v])
        else:
            nxt += len(children[v])
            for ch in children[v]:
                node_depth[ch] = node_depth[v] + 1
                queue.append(ch)
    E = nxt
    ent_lo = np.empty(E, dtype=np.int64)
    ent_hi = np.empty(E, dtype=np.int64)
    ent_child_lo = np.full(E, -1, dtype=np.int64)
    ent_child_hi = np.full(E, -1, dtype=np.int64)
    ent_depth = np.empty(E, dtype=np.int64)
    for v in bfs:
        f = first_entry[v]
        if leaf_points[v] is not None:
            m = len(leaf_points[v])
            ent_lo[f:f + m] = np.arange(node_lo[v], node_lo[v] + m)
            ent_hi[f:f + m] = ent_lo[f:f + m] + 1
        else:
            kids = np.asarray(children[v], dtype=np.int64)
            m = kids.size
            ent_lo[f:f + m] = node_lo[kids]
            ent_hi[f:f + m] = node_hi[kids]
            ent_child_lo[f:f + m] = first_entry[kids]
            sizes = np.array([len(leaf_points[c]) if leaf_points[c] is not None else len(children[c])
                              for c in kids], dtype=np.int64)
            ent_child_hi[f:f + m] = first_entry[kids] + sizes
        ent_depth[f:f + m] = node_depth[v]
    n_roots = int(sum(len(leaf_points[r]) if leaf_points[r] is not None else len(children[r]) for r in roots))
    return {"order": order, "ent_lo": ent_lo, "ent_hi": ent_hi, "ent_child_lo": ent_child_lo,
            "ent_child_hi": ent_child_hi, "ent_depth": ent_depth, "n_roots": n_roots}


def build_model(Z: np.ndarray, y: np.ndarray, n_classes: int, tree: dict, class_var: np.ndarray,
                pooled: bool, kde_moment: bool, cost: str = "class_gaussians", collapse_single: bool = True) -> dict:
    """The query-time arrays of a flattened tree: per-entry class counts, Gaussians (Defs. 1-2,
    5), information gain (Sec. 3.4) and strongest class, and the candidate-heap offsets.

    ``cost`` is what one budget unit counts when an entry enters the frontier:
    ``"class_gaussians"`` = every Gaussian evaluated (one per class present in the entry, plus
    the entry's overall Gaussian when it holds several classes, which Def. 7 needs);
    ``"entries"`` = one per entry (or kernel) read, i.e. an entry is one mixture component, as
    the paper draws it (Fig. 1: "Gaussians that comprise objects from several classes"). The two
    coincide on single-class entries (the Bayes tree; MC-Tree with delta = infinity below the
    class level)."""
    if cost not in ("class_gaussians", "entries"):
        raise ValueError(f"cost must be 'class_gaussians' or 'entries', got {cost!r}")
    if collapse_single:
        # an entry of one object is its kernel (same mean; variance 0 + h with "kde", floored at h
        # with "cf"): refining it to its one-kernel leaf changes no density but would spend a unit
        # and a step, so it is made final, as a kernel is
        one = (tree["ent_child_lo"] >= 0) & (tree["ent_hi"] - tree["ent_lo"] == 1)
        if one.any():
            tree = dict(tree)
            tree["ent_child_lo"] = np.where(one, -1, tree["ent_child_lo"])
            tree["ent_child_hi"] = np.where(one, -1, tree["ent_child_hi"])
    order = tree["order"]
    Zo = np.ascontiguousarray(Z[order])
    yo = np.ascontiguousarray(y[order]).astype(np.int64)
    counts = entry_class_counts(yo, tree["ent_lo"], tree["ent_hi"], n_classes)
    (comp_lo, comp_class, comp_logw, comp_mean, comp_ivar, comp_lognorm,
     ent_logw, ent_mean, ent_ivar, ent_lognorm) = entry_gaussians(
        Zo, yo, tree["ent_lo"], tree["ent_hi"], counts, class_var, float(len(y)), pooled, kde_moment)
    n_e = counts.sum(axis=1).astype(np.float64)
    p = counts / n_e[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.sum(np.where(p > 0, p * np.log(p), 0.0), axis=1)
    # IG(e) = entropy(e) - sum_i n_{e_i}/n_e entropy(e_i)  (Sec. 3.4), normalised by log|C| (Def. 7)
    weighted = np.concatenate([[0.0], np.cumsum(n_e * entropy)])
    inner = tree["ent_child_lo"] >= 0
    ig = np.zeros(len(n_e))
    lo, hi = tree["ent_child_lo"][inner], tree["ent_child_hi"][inner]
    ig[inner] = entropy[inner] - (weighted[hi] - weighted[lo]) / n_e[inner]
    ig = np.maximum(ig, 0.0) / math.log(n_classes) if n_classes > 1 else np.zeros_like(ig)
    strongest = np.argmax(counts, axis=1).astype(np.int64)  # ties: the lowest class code
    single = (counts > 0).sum(axis=1) == 1
    # Gaussians evaluated when an entry enters the frontier: one per class present, plus the
    # overall Gaussian of a mixed entry; refining e costs the sum over its child entries
    if cost == "entries":
        unit_cost = np.ones(len(n_e))
    else:
        unit_cost = np.where(single, 1.0, (counts > 0).sum(axis=1) + 1.0)
    unit_prefix = np.concatenate([[0.0], np.cumsum(unit_cost)])
    refine_cost = np.zeros(len(n_e))
    refine_cost[inner] = unit_prefix[hi] - unit_prefix[lo]
    root_cost = float(unit_prefix[int(tree["n_roots"])])
    cand_off = np.zeros(n_classes + 1, dtype=np.int64)
    cand_off[1:] = np.cumsum(np.bincount(strongest[inner], minlength=n_classes))
    return {
        "n_roots": int(tree["n_roots"]), "root_cost": root_cost,
        "ent_child_lo": tree["ent_child_lo"], "ent_child_hi": tree["ent_child_hi"],
        "ent_comp_lo": comp_lo, "comp_class": comp_class, "comp_logw": comp_logw, "comp_mean": comp_mean,
        "comp_ivar": comp_ivar, "comp_lognorm": comp_lognorm, "ent_logw": ent_logw, "ent_mean": ent_mean,
        "ent_ivar": ent_ivar, "ent_lognorm": ent_lognorm, "ent_single": single, "ent_ig": ig,
        "ent_strong": strongest, "ent_refine_cost": refine_cost, "cand_off": cand_off,
        # kept for inspection and tests (not read by the engine)
        "order": order, "ent_lo": tree["ent_lo"], "ent_hi": tree["ent_hi"], "ent_depth": tree["ent_depth"],
        "ent_counts": counts.astype(np.int32),
    }


ENGINE_KEYS = ("ent_child_lo", "ent_child_hi", "ent_comp_lo", "comp_class", "comp_logw", "comp_mean", "comp_ivar",
               "comp_lognorm", "ent_logw", "ent_mean", "ent_ivar", "ent_lognorm", "ent_single", "ent_ig",
               "ent_strong", "ent_refine_cost", "cand_off")


def tree_stats(model: dict) -> dict:
    inner = model["ent_child_lo"] >= 0
    return {"entries": int(len(inner)), "inner_entries": int(inner.sum()), "kernels": int((~inner).sum()),
            "root_entries": int(model["n_roots"]), "depth": int(model["ent_depth"].max()) + 1 if len(inner) else 0,
            "components": int(len(model["comp_class"])),
            "mean_root_entry_purity": float(np.mean(model["ent_counts"][:model["n_roots"]].max(axis=1)
                                                    / model["ent_counts"][:model["n_roots"]].sum(axis=1)))
            if model["n_roots"] else 0.0,
            **_structure_stats(model)}


def _structure_stats(model: dict, max_depth: int = 4) -> dict:
    """How many entries each inner entry's subnode holds (the EM clusters that were non-empty),
    and the class purity (largest class share, object-weighted) of the entries at each depth."""
    inner = model["ent_child_lo"] >= 0
    if not inner.any():
        return {}
    kids = (model["ent_child_hi"] - model["ent_child_lo"])[inner]
    counts = model["ent_counts"].astype(np.float64)
    n = counts.sum(axis=1)
    pure = counts.max(axis=1)
    out = {"mean_children_per_inner_entry": float(kids.mean()), "min_children_per_inner_entry": int(kids.min())}
    for dep in range(max_depth):
        sel = model["ent_depth"] == dep
        if sel.any():
            out[f"purity_depth{dep}"] = round(float(pure[sel].sum() / n[sel].sum()), 4)
    return out
