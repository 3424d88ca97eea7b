"""Numba kernels of the C4.5 / J48 tree (:mod:`algorithms.c45`).

Each kernel is a small function over plain arrays. They reproduce the arithmetic
of Weka 3.6's ``weka.classifiers.trees.j48`` package, including its tolerances:
``SMALL`` is ``weka.core.Utils.SMALL`` (1e-6), used by ``Utils.eq / gr / grOrEq /
sm / smOrEq``, which decide ties exactly as Weka does.

Terminology (Weka's ``Distribution``): a node's *bags* are its branches; the
*bag distribution* is the (possibly fractional) class weight per branch,
``bag_total`` the weight per branch, ``class_total`` the weight per class.
Node data are index arrays ``rows`` into the training matrix with a weight per
entry (C4.5's fractional instances: a row with a missing split value is copied
into every branch with a part of its weight).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SMALL = 1e-6  # weka.core.Utils.SMALL
LOG2 = math.log(2.0)
NUMERIC_GAP = 1e-5  # C45Split.handleNumericAttribute: a cut needs v[i-1] + 1e-5 < v[i]


# --------------------------------------------------------------------------- entropy (EntropyBasedSplitCrit)
@njit(cache=True)
def xlog2x(v):
    """``EntropyBasedSplitCrit.logFunc``: v * log2(v), and 0 below 1e-6."""
    if v < 1e-6:
        return 0.0
    return v * math.log(v) / LOG2


@njit(cache=True)
def max_class(class_total):
    """``Distribution.maxClass``: the first class whose weight beats the running maximum by SMALL."""
    best, best_weight = 0, 0.0
    for c in range(class_total.shape[0]):
        if class_total[c] - best_weight > SMALL:
            best_weight = class_total[c]
            best = c
    return best


@njit(cache=True)
def leaf_errors(class_total, confidence, z):
    """C45PruneableClassifierTree.getEstimatedErrorsForDistribution: training errors plus
    ``Stats.addErrs`` (the pessimistic upper confidence limit); 0 for an empty leaf."""
    total = 0.0
    for c in range(class_total.shape[0]):
        total += class_total[c]
    if abs(total) < SMALL:
        return 0.0
    wrong = total - class_total[max_class(class_total)]
    return wrong + add_errs(total, wrong, confidence, z)


@njit(cache=True)
def add_errs(n, e, confidence, z):
    """``Stats.addErrs(N, e, CF)``: extra errors of the upper confidence limit of the binomial error
    rate (normal approximation with continuity correction; exact base case for e = 0 from the
    Documenta Geigy tables, linear interpolation for 0 < e < 1 and for e + 0.5 >= N, as C4.5).
    ``z`` is the standard normal quantile of 1 - CF (Statistics.normalInverse)."""
    if confidence > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - math.pow(confidence, 1 / n))
        if e == 0:
            return base
        return base + e * (_add_errs_normal(n, 1.0, z) - base)  # linear between e = 0 and e = 1
    return _add_errs_normal(n, e, z)


@njit(cache=True)
def _add_errs_normal(n, e, z):
    """Stats.addErrs for e >= 1: upper limit of the normal interval with continuity correction."""
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - e


# --------------------------------------------------------------------------- split evaluation (C45Split)
@njit(cache=True)
def _split_info(bag_total, known_total, node_total):
    """GainRatioSplitCrit.splitEnt(bags, totalnoInst) in bits * weight: the entropy of the branch
    sizes with the unknown-value weight as one more branch."""
    if known_total - 0.0 <= SMALL:  # not Utils.gr(bags.total(), 0)
        return 0.0
    value = 0.0
    for b in range(bag_total.shape[0]):
        value -= xlog2x(bag_total[b])
    value -= xlog2x(node_total - known_total)
    value += xlog2x(node_total)
    return value


@njit(cache=True)
def _gain_ratio(info_gain, bag_total, known_total, node_total):
    """GainRatioSplitCrit.splitCritValue(bags, totalnoInst, numerator)."""
    split_info = _split_info(bag_total, known_total, node_total)
    if abs(split_info) < SMALL:
        return 0.0
    return info_gain / (split_info / node_total)


@njit(cache=True)
def _nominal_split(columns, y, rows, w, a, n_values, n_classes, min_obj, node_total):
    """C45Split.handleEnumeratedAttribute: one branch per declared value, known values only.
    Returns (valid, info_gain, gain_ratio)."""
    bag_class, bag_total, class_total, known_total = _known_distribution(columns, y, rows, w, a, True, 0.0, n_values,
                                                                         n_classes)
    # Distribution.check(minNoObj): at least two branches with minNoObj weight
    big_enough = 0
    for b in range(n_values):
        if min_obj - bag_total[b] < SMALL:
            big_enough += 1
    if big_enough <= 1:
        return False, 0.0, 0.0
    # InfoGainSplitCrit.splitCritValue(bags, totalNoInst): gain on known values times their share
    old = xlog2x(known_total)
    for c in range(n_classes):
        old -= xlog2x(class_total[c])
    new = 0.0
    for b in range(n_values):
        for c in range(n_classes):
            new += xlog2x(bag_class[b, c])
        new -= xlog2x(bag_total[b])
    new = -new
    unknown_rate = (node_total - known_total) / node_total
    numerator = (1 - unknown_rate) * (old - new)
    info_gain = 0.0 if abs(numerator) < SMALL else numerator / known_total
    return True, info_gain, _gain_ratio(info_gain, bag_total, known_total, node_total)


@njit(cache=True)
def _numeric_split(sv, sc, sw, n_classes, min_obj, node_total, use_mdl):
    """C45Split.handleNumericAttribute on the known values sorted ascending (sv, with classes sc
    and weights sw): the best binary cut v <= t by information gain among the cuts between values
    more than 1e-5 apart that leave enough weight on both sides, then C4.5's MDL correction
    log2(#candidate cuts) / |D| and the gain ratio of that cut.
    Returns (valid, info_gain, gain_ratio, midpoint threshold)."""
    m = sv.shape[0]
    below = np.zeros(n_classes)  # bag 0 (v <= cut)
    above = np.zeros(n_classes)  # bag 1
    known_total = 0.0
    for k in range(m):
        above[sc[k]] += sw[k]
        known_total += sw[k]
    # minimum weight per branch: 10% of the known weight per class, within [minNoObj, 25]
    min_split = 0.1 * known_total / n_classes
    if min_split - min_obj < SMALL:
        min_split = float(min_obj)
    elif min_split - 25 > SMALL:
        min_split = 25.0
    if 2 * min_split - m > SMALL:  # Utils.sm(firstMiss, 2 * minSplit): too few known values
        return False, 0.0, 0.0, 0.0

    default_ent = xlog2x(known_total)
    for c in range(n_classes):
        default_ent -= xlog2x(above[c])
    # per-class x log x kept up to date for the classes that move (summed in class order, as newEnt)
    lx_below = np.zeros(n_classes)
    lx_above = np.empty(n_classes)
    for c in range(n_classes):
        lx_above[c] = xlog2x(above[c])
    unknown_rate = (node_total - known_total) / node_total
    below_total, above_total = 0.0, known_total
    best_gain, split_index, n_cuts, last = 0.0, -1, 0, 0
    for nxt in range(1, m):
        if sv[nxt - 1] + NUMERIC_GAP < sv[nxt]:
            for k in range(last, nxt):  # Distribution.shiftRange(1, 0, ...)
                c = sc[k]
                above[c] -= sw[k]
                below[c] += sw[k]
                above_total -= sw[k]
                below_total += sw[k]
            if nxt - last < n_classes:  # refresh x log x of the classes that moved (at most C logs)
                for k in range(last, nxt):
                    lx_above[sc[k]] = xlog2x(above[sc[k]])
                    lx_below[sc[k]] = xlog2x(below[sc[k]])
            else:
                for c in range(n_classes):
                    lx_above[c] = xlog2x(above[c])
                    lx_below[c] = xlog2x(below[c])
            if min_split - below_total < SMALL and min_split - above_total < SMALL:
                new = 0.0
                for c in range(n_classes):
                    new += lx_below[c]
                new -= xlog2x(below_total)
                for c in range(n_classes):
                    new += lx_above[c]
                new -= xlog2x(above_total)
                numerator = (1 - unknown_rate) * (default_ent + new)  # oldEnt - newEnt, newEnt = -new
                gain = 0.0 if abs(numerator) < SMALL else numerator / known_total
                if gain - best_gain > SMALL:  # Utils.gr: a later cut must win by more than SMALL
                    best_gain = gain
                    split_index = nxt - 1
                n_cuts += 1
            last = nxt
    if n_cuts == 0:
        return False, 0.0, 0.0, 0.0
    info_gain = best_gain
    if use_mdl:
        info_gain -= (math.log(n_cuts) / LOG2) / node_total  # C4.5's correction for the choice of cut
    if info_gain < SMALL:  # Utils.smOrEq(infoGain, 0)
        return False, 0.0, 0.0, 0.0
    threshold = (sv[split_index + 1] + sv[split_index]) / 2
    if threshold == sv[split_index + 1]:  # rounding put the midpoint on the upper value
        threshold = sv[split_index]
    bag_total = np.zeros(2)
    for k in range(split_index + 1):
        bag_total[0] += sw[k]
    for k in range(split_index + 1, m):
        bag_total[1] += sw[k]
    return True, info_gain, _gain_ratio(info_gain, bag_total, bag_total[0] + bag_total[1], node_total), threshold


@njit(cache=True)
def node_class_total(y, rows, w, n_classes):
    """Class weights of the data at a node (``new Distribution(data)``)."""
    out = np.zeros(n_classes)
    for i in range(rows.shape[0]):
        out[y[rows[i]]] += w[i]
    return out


@njit(cache=True)
def best_split(columns, y, rows, w, order, n_known, numeric_slot, nominal, n_values, n_classes, min_obj, n_train,
               use_mdl):
    """C45ModelSelection.selectModel. Returns (attribute, threshold, class_total, constant);
    attribute -1 means the node is a leaf; ``constant[slot]`` flags the numeric attributes whose
    known values here span at most 1e-5, so that no node below can cut them either.

    A node is a leaf when its weight is below 2 * minNoObj or it is pure. Otherwise every
    attribute is evaluated; among those whose information gain is at least the average gain of
    the valid candidates (minus 1e-3, as J48) the highest gain ratio wins, ties going to the
    first attribute. Nominal attributes with at least 0.3 * N values are left out of the
    average unless all attributes are such. Numeric attribute a reads its known values in
    sorted order from ``order[numeric_slot[a], :n_known[numeric_slot[a]]]`` (positions in rows).
    """
    class_total = node_class_total(y, rows, w, n_classes)
    constant = np.zeros(order.shape[0], np.bool_)
    node_total = 0.0
    for i in range(rows.shape[0]):
        node_total += w[i]
    if 2 * min_obj - node_total > SMALL or abs(node_total - class_total[max_class(class_total)]) < SMALL:
        return -1, 0.0, class_total, constant
    d = columns.shape[0]
    many_values = np.empty(d, np.bool_)
    all_many_valued = True
    for a in range(d):
        many_values[a] = nominal[a] and not (0.3 * n_train - n_values[a] > SMALL)
        if not many_values[a]:
            all_many_valued = False
    valid = np.zeros(d, np.bool_)
    info_gain = np.zeros(d)
    gain_ratio = np.zeros(d)
    threshold = np.zeros(d)
    sv = np.empty(rows.shape[0])
    sc = np.empty(rows.shape[0], np.int64)
    sw = np.empty(rows.shape[0])
    gain_sum, n_valid = 0.0, 0
    for a in range(d):
        if nominal[a]:
            valid[a], info_gain[a], gain_ratio[a] = _nominal_split(columns, y, rows, w, a, n_values[a], n_classes,
                                                                   min_obj, node_total)
        else:
            slot = numeric_slot[a]
            m = n_known[slot]
            if m == 0 or not (columns[a, rows[order[slot, 0]]] + NUMERIC_GAP < columns[a, rows[order[slot, m - 1]]]):
                constant[slot] = True  # no cut anywhere below: no v[i-1] + 1e-5 < v[i] within this range
                continue
            for k in range(m):
                p = order[slot, k]
                sv[k] = columns[a, rows[p]]
                sc[k] = y[rows[p]]
                sw[k] = w[p]
            valid[a], info_gain[a], gain_ratio[a], threshold[a] = _numeric_split(
                sv[:m], sc[:m], sw[:m], n_classes, min_obj, node_total, use_mdl)
        if valid[a] and (all_many_valued or not many_values[a]):
            gain_sum += info_gain[a]
            n_valid += 1
    if n_valid == 0:
        return -1, 0.0, class_total, constant
    average_gain = gain_sum / n_valid
    best, best_ratio = -1, 0.0
    for a in range(d):
        if valid[a] and info_gain[a] >= average_gain - 1e-3 and gain_ratio[a] - best_ratio > SMALL:
            best = a
            best_ratio = gain_ratio[a]
    if abs(best_ratio) < SMALL:
        return -1, 0.0, class_total, constant
    return best, threshold[best], class_total, constant


@njit(cache=True)
def relocate_threshold(column, sorted_values, threshold):
    """C45Split.setSplitPoint: the cut becomes the largest training value that is <= the midpoint,
    found as Weka does (a running maximum over all training values in their order, with
    ``Utils.gr`` / ``Utils.smOrEq``). ``sorted_values`` (the column's distinct known values,
    ascending) gives the answer by bisection unless values within SMALL of it make Weka's
    order-dependent running maximum matter; then the column is scanned as Weka scans it."""
    lo, hi = 0, sorted_values.shape[0]  # first index whose value fails v - t < SMALL
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_values[mid] - threshold < SMALL:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return -1.7976931348623157e308
    top = sorted_values[lo - 1]
    if lo == 1 or top - sorted_values[lo - 2] > SMALL:
        return top
    out = -1.7976931348623157e308
    for i in range(column.shape[0]):
        v = column[i]
        if not np.isnan(v) and v - out > SMALL and v - threshold < SMALL:
            out = v
    return out


@njit(cache=True)
def branch_of(v, is_nominal, threshold):
    """C45Split.whichSubset for a known value: the value's code, or 0 for v <= t (Utils.smOrEq)."""
    if is_nominal:
        return int(v)
    return 0 if v - threshold < SMALL else 1


# --------------------------------------------------------------------------- distributions and routing
@njit(cache=True, inline="always")
def _known_distribution(columns, y, rows, w, a, is_nominal, threshold, n_bags, n_classes):
    """The bag distribution of the rows whose value of attribute ``a`` is known (Weka's
    ``Distribution`` of a split before the unknown rows are added): (bag_class, bag_total,
    class_total, total)."""
    bag_class = np.zeros((n_bags, n_classes))
    bag_total = np.zeros(n_bags)
    class_total = np.zeros(n_classes)
    total = 0.0
    for i in range(rows.shape[0]):
        v = columns[a, rows[i]]
        if np.isnan(v):
            continue
        b = branch_of(v, is_nominal, threshold)
        c = y[rows[i]]
        bag_class[b, c] += w[i]
        bag_total[b] += w[i]
        class_total[c] += w[i]
        total += w[i]
    return bag_class, bag_total, class_total, total


@njit(cache=True)
def split_distribution(columns, y, rows, w, a, is_nominal, threshold, n_bags, n_classes):
    """C45Split.resetDistribution: the bag distribution of the known values, then every row with a
    missing value added to all bags in proportion to the known bag weights
    (Distribution.addInstWithUnknown). Returns (bag_class, bag_total, class_total, total)."""
    bag_class, bag_total, class_total, total = _known_distribution(columns, y, rows, w, a, is_nominal, threshold,
                                                                   n_bags, n_classes)
    share = np.empty(n_bags)
    for b in range(n_bags):
        share[b] = 1.0 / n_bags if abs(total) < SMALL else bag_total[b] / total
    for i in range(rows.shape[0]):
        if np.isnan(columns[a, rows[i]]):
            c = y[rows[i]]
            class_total[c] += w[i]
            total += w[i]
            for b in range(n_bags):
                part = share[b] * w[i]
                bag_class[b, c] += part
                bag_total[b] += part
    return bag_class, bag_total, class_total, total


@njit(cache=True)
def _branches(columns, rows, a, is_nominal, threshold, share):
    """Branch of each row (-1: missing) and the number of rows each branch receives."""
    n_bags = share.shape[0]
    branch = np.empty(rows.shape[0], np.int64)
    size = np.zeros(n_bags + 1, np.int64)
    for i in range(rows.shape[0]):
        v = columns[a, rows[i]]
        if np.isnan(v):
            branch[i] = -1
            for b in range(n_bags):
                if share[b] > SMALL:
                    size[b + 1] += 1
        else:
            branch[i] = branch_of(v, is_nominal, threshold)
            size[branch[i] + 1] += 1
    return branch, np.cumsum(size)


@njit(cache=True)
def split_rows(columns, rows, w, a, is_nominal, threshold, bag_total, total):
    """ClassifierSplitModel.split: each row goes to its branch; a row with a missing value goes to
    every branch b whose share bag_total[b] / total exceeds SMALL, with its weight times that
    share. Returns (rows, weights, offsets) with branch b in [offsets[b], offsets[b+1])."""
    share = bag_total / total
    branch, offsets = _branches(columns, rows, a, is_nominal, threshold, share)
    out_rows = np.empty(offsets[-1], np.int64)
    out_w = np.empty(offsets[-1])
    cursor = offsets[:-1].copy()
    for i in range(rows.shape[0]):
        b = branch[i]
        if b >= 0:
            out_rows[cursor[b]] = rows[i]
            out_w[cursor[b]] = w[i]
            cursor[b] += 1
        else:
            for b in range(share.shape[0]):
                if share[b] > SMALL:
                    out_rows[cursor[b]] = rows[i]
                    out_w[cursor[b]] = w[i] * share[b]
                    cursor[b] += 1
    return out_rows, out_w, offsets


@njit(cache=True)
def split_presorted(columns, rows, w, order, n_known, constant, a, is_nominal, threshold, bag_total, total):
    """ClassifierSplitModel.split that also carries the sorted orders down: each branch's rows
    (in the parent's order) and, per numeric attribute slot, the branch's known positions in
    sorted order (a stable partition of the parent's order, so no node sorts again). Slots
    flagged ``constant`` are dropped (0 known values below: they can never be cut again).
    Returns (rows, weights, offsets, order, n_known) with branch b in columns
    [offsets[b], offsets[b+1]) of ``order`` and n_known[b]."""
    n_bags = bag_total.shape[0]
    share = bag_total / total
    branch, offsets = _branches(columns, rows, a, is_nominal, threshold, share)
    m = rows.shape[0]
    out_rows = np.empty(offsets[-1], np.int64)
    out_w = np.empty(offsets[-1])
    local = np.empty(m, np.int64)  # position in its branch; for a missing value, its row in missing_local
    n_missing = 0
    for i in range(m):
        if branch[i] < 0:
            n_missing += 1
    missing_local = np.full((n_missing, n_bags), -1, np.int64)
    cursor = np.zeros(n_bags, np.int64)
    j = 0
    for i in range(m):
        b = branch[i]
        if b >= 0:
            out_rows[offsets[b] + cursor[b]] = rows[i]
            out_w[offsets[b] + cursor[b]] = w[i]
            local[i] = cursor[b]
            cursor[b] += 1
        else:
            local[i] = j
            for b in range(n_bags):
                if share[b] > SMALL:
                    out_rows[offsets[b] + cursor[b]] = rows[i]
                    out_w[offsets[b] + cursor[b]] = w[i] * share[b]
                    missing_local[j, b] = cursor[b]
                    cursor[b] += 1
            j += 1
    n_slots = order.shape[0]
    out_order = np.empty((n_slots, offsets[-1]), np.int32)
    out_known = np.zeros((n_bags, n_slots), np.int64)
    for s in range(n_slots):
        if constant[s]:
            continue
        for k in range(n_known[s]):
            i = order[s, k]
            b = branch[i]
            if b >= 0:
                out_order[s, offsets[b] + out_known[b, s]] = local[i]
                out_known[b, s] += 1
            else:
                for b in range(n_bags):
                    if missing_local[local[i], b] >= 0:
                        out_order[s, offsets[b] + out_known[b, s]] = missing_local[local[i], b]
                        out_known[b, s] += 1
    return out_rows, out_w, offsets, out_order, out_known


@njit(cache=True)
def grow_node(columns, y, rows, w, order, n_known, numeric_slot, nominal, n_values, distinct, distinct_start,
              n_classes, min_obj, n_train, use_mdl, relocate):
    """One node of C45PruneableClassifierTree.buildTree: choose the split (best_split), move a
    numeric cut onto a training value (setSplitPoint), compute the split's distribution with the
    missing values spread (addInstWithUnknown) and split the rows and sorted orders. A leaf
    returns attribute -1 and empty arrays."""
    attr, threshold, class_total, constant = best_split(columns, y, rows, w, order, n_known, numeric_slot, nominal,
                                                        n_values, n_classes, min_obj, n_train, use_mdl)
    if attr < 0:
        return (attr, 0.0, class_total, np.zeros((0, n_classes)), np.zeros(0), class_total, 0.0,
                np.zeros(0, np.int64), np.zeros(0), np.zeros(1, np.int64), np.zeros((order.shape[0], 0), np.int32),
                np.zeros((0, order.shape[0]), np.int64))
    is_nominal = nominal[attr]
    if not is_nominal and relocate:
        threshold = relocate_threshold(columns[attr], distinct[distinct_start[attr]:distinct_start[attr + 1]],
                                       threshold)
    n_bags = n_values[attr] if is_nominal else 2
    bag_class, bag_total, node_class, node_total = split_distribution(columns, y, rows, w, attr, is_nominal,
                                                                      threshold, n_bags, n_classes)
    child_rows, child_w, offsets, child_order, child_known = split_presorted(
        columns, rows, w, order, n_known, constant, attr, is_nominal, threshold, bag_total, node_total)
    return (attr, threshold, class_total, bag_class, bag_total, node_class, node_total, child_rows, child_w, offsets,
            child_order, child_known)


# --------------------------------------------------------------------------- collapse and pruning
@njit(cache=True)
def collapse(is_leaf, n_bags, first_child, class_total):
    """C45PruneableClassifierTree.collapse: top-down, a subtree whose leaves make at least as many
    training errors as the node itself (minus 1e-3) becomes a leaf. Node ids are in preorder
    (children after their parent), so subtree errors are summed in one reverse pass."""
    n = is_leaf.shape[0]
    subtree_errors = np.zeros(n)
    for node in range(n - 1, -1, -1):
        if is_leaf[node]:
            subtree_errors[node] = _training_errors(class_total[node])
        else:
            for k in range(n_bags[node]):
                subtree_errors[node] += subtree_errors[first_child[node] + k]
    stack = np.empty(n, np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if is_leaf[node]:
            continue
        if subtree_errors[node] >= _training_errors(class_total[node]) - 1e-3:
            is_leaf[node] = True
        else:
            for k in range(n_bags[node]):
                stack[top] = first_child[node] + k
                top += 1


@njit(cache=True)
def _training_errors(class_total):
    """Distribution.numIncorrect."""
    total = 0.0
    for c in range(class_total.shape[0]):
        total += class_total[c]
    return total - class_total[max_class(class_total)]


@njit(cache=True)
def _grow(arr, need):
    if need <= arr.shape[0]:
        return arr
    out = np.empty(max(need, 2 * arr.shape[0]), arr.dtype)
    out[:arr.shape[0]] = arr
    return out


@njit(cache=True)
def _subtree_errors(node, is_leaf, n_bags, first_child, class_total, confidence, z, stack):
    """C45PruneableClassifierTree.getEstimatedErrors: pessimistic errors summed over the leaves."""
    errors = 0.0
    stack[0] = node
    top = 1
    while top > 0:
        top -= 1
        v = stack[top]
        if is_leaf[v]:
            errors += leaf_errors(class_total[v], confidence, z)
        else:
            for k in range(n_bags[v] - 1, -1, -1):
                stack[top] = first_child[v] + k
                top += 1
    return errors


@njit(cache=True)
def _route_subtree(node, rows, w, columns, y, is_leaf, attr, threshold, nominal, n_bags, first_child, n_classes,
                   confidence, z, store, bag_start, bag_class, bag_total, class_total, node_total, is_empty,
                   data_start, data_len, data_rows, data_w, data_used):
    """Send the data (rows, w) down the subtree of ``node``, recomputing each node's distribution
    from the data that reach it (resetDistribution + split at every internal node).

    store=False: C45PruneableClassifierTree.getEstimatedErrorsForBranch -- returns the
    pessimistic errors of the leaves on these data; the tree is unchanged.
    store=True: newDistribution -- every node keeps its new distribution and every internal node
    its new data (appended to data_rows / data_w), as after subtree raising.
    Returns (errors, data_rows, data_w, data_used)."""
    seg_node = np.empty(64, np.int64)
    seg_start = np.empty(64, np.int64)
    seg_len = np.empty(64, np.int64)
    buf_rows = np.empty(max(2 * rows.shape[0], 16), np.int64)
    buf_w = np.empty(buf_rows.shape[0])
    buf_rows[:rows.shape[0]] = rows
    buf_w[:rows.shape[0]] = w
    used = rows.shape[0]
    seg_node[0], seg_start[0], seg_len[0] = node, 0, rows.shape[0]
    top = 1
    errors = 0.0
    while top > 0:
        top -= 1
        v, s, n = seg_node[top], seg_start[top], seg_len[top]
        r = buf_rows[s:s + n]
        ww = buf_w[s:s + n]
        if is_leaf[v]:
            ct = node_class_total(y, r, ww, n_classes)
            if store:
                class_total[v] = ct
                tot = 0.0
                for i in range(n):
                    tot += ww[i]
                node_total[v] = tot
                if abs(tot) >= SMALL:
                    is_empty[v] = False
            else:
                errors += leaf_errors(ct, confidence, z)
            continue
        bc, bt, ct, tot = split_distribution(columns, y, r, ww, attr[v], nominal[v], threshold[v], n_bags[v], n_classes)
        if store:
            b0 = bag_start[v]
            for b in range(n_bags[v]):
                bag_class[b0 + b] = bc[b]
                bag_total[b0 + b] = bt[b]
            class_total[v] = ct
            node_total[v] = tot
            if v != node:  # the top node keeps its own data
                data_rows = _grow(data_rows, data_used + n)
                data_w = _grow(data_w, data_used + n)
                data_rows[data_used:data_used + n] = r
                data_w[data_used:data_used + n] = ww
                data_start[v] = data_used
                data_len[v] = n
                data_used += n
        child_rows, child_w, offsets = split_rows(columns, r, ww, attr[v], nominal[v], threshold[v], bt, tot)
        buf_rows = _grow(buf_rows, used + child_rows.shape[0])
        buf_w = _grow(buf_w, used + child_rows.shape[0])
        buf_rows[used:used + child_rows.shape[0]] = child_rows
        buf_w[used:used + child_rows.shape[0]] = child_w
        seg_node = _grow(seg_node, top + n_bags[v])
        seg_start = _grow(seg_start, top + n_bags[v])
        seg_len = _grow(seg_len, top + n_bags[v])
        for b in range(n_bags[v] - 1, -1, -1):
            seg_node[top] = first_child[v] + b
            seg_start[top] = used + offsets[b]
            seg_len[top] = offsets[b + 1] - offsets[b]
            top += 1
        used += child_rows.shape[0]
    return errors, data_rows, data_w, data_used


@njit(cache=True)
def _largest_bag(bag_total, start, n):
    """Distribution.maxBag: the last branch whose weight is within SMALL of the running maximum."""
    best, best_weight = -1, 0.0
    for b in range(n):
        if best_weight - bag_total[start + b] < SMALL:
            best_weight = bag_total[start + b]
            best = b
    return best


@njit(cache=True)
def prune(columns, y, n_classes, confidence, z, subtree_raising, is_leaf, attr, threshold, nominal, n_bags, first_child,
          bag_start, bag_class, bag_total, class_total, node_total, is_empty, data_start, data_len, data_rows,
          data_w):
    """C45PruneableClassifierTree.prune, bottom-up with an explicit stack.

    At each internal node, after its subtrees are pruned, compare the pessimistic errors
    (Stats.addErrs at confidence CF) of (a) the node as a leaf, (b) the subtree, and (c) with
    subtree raising, the largest branch grown on all the node's data. The node becomes a leaf
    when (a) <= (b) + 0.1 and (a) <= (c) + 0.1; otherwise, when (c) <= (b) + 0.1, the largest
    branch replaces the node, the node's data are redistributed down it and the node is pruned
    again. The tree arrays are updated in place; returns the (possibly grown) data buffers."""
    n = is_leaf.shape[0]
    stack_node = np.empty(64, np.int64)
    stack_phase = np.empty(64, np.int64)
    scratch = np.empty(n, np.int64)
    data_used = data_rows.shape[0]
    stack_node[0], stack_phase[0] = 0, 0
    top = 1
    while top > 0:
        top -= 1
        node, phase = stack_node[top], stack_phase[top]
        if is_leaf[node]:
            continue
        if phase == 0:  # prune all subtrees first, son 0 first
            stack_node = _grow(stack_node, top + 1 + n_bags[node])
            stack_phase = _grow(stack_phase, top + 1 + n_bags[node])
            stack_node[top], stack_phase[top] = node, 1
            top += 1
            for k in range(n_bags[node] - 1, -1, -1):
                stack_node[top], stack_phase[top] = first_child[node] + k, 0
                top += 1
            continue
        largest = _largest_bag(bag_total, bag_start[node], n_bags[node])
        rows = data_rows[data_start[node]:data_start[node] + data_len[node]]
        w = data_w[data_start[node]:data_start[node] + data_len[node]]
        if subtree_raising:
            errors_branch, data_rows, data_w, data_used = _route_subtree(
                first_child[node] + largest, rows, w, columns, y, is_leaf, attr, threshold, nominal, n_bags, first_child,
                n_classes, confidence, z, False, bag_start, bag_class, bag_total, class_total, node_total, is_empty,
                data_start, data_len, data_rows, data_w, data_used)
        else:
            errors_branch = 1.7976931348623157e308
        errors_leaf = leaf_errors(class_total[node], confidence, z)
        errors_tree = _subtree_errors(node, is_leaf, n_bags, first_child, class_total, confidence, z, scratch)
        if errors_leaf - (errors_tree + 0.1) < SMALL and errors_leaf - (errors_branch + 0.1) < SMALL:
            is_leaf[node] = True
            continue
        if errors_branch - (errors_tree + 0.1) < SMALL:  # subtree raising
            son = first_child[node] + largest
            attr[node] = attr[son]
            threshold[node] = threshold[son]
            nominal[node] = nominal[son]
            n_bags[node] = n_bags[son]
            first_child[node] = first_child[son]
            bag_start[node] = bag_start[son]
            is_leaf[node] = is_leaf[son]
            rows = data_rows[data_start[node]:data_start[node] + data_len[node]].copy()
            w = data_w[data_start[node]:data_start[node] + data_len[node]].copy()
            _, data_rows, data_w, data_used = _route_subtree(
                node, rows, w, columns, y, is_leaf, attr, threshold, nominal, n_bags, first_child, n_classes,
                confidence, z, True, bag_start, bag_class, bag_total, class_total, node_total, is_empty,
                data_start, data_len, data_rows, data_w, data_used)
            stack_node[top], stack_phase[top] = node, 0
            top += 1
    return data_rows, data_w


# --------------------------------------------------------------------------- prediction
@njit(cache=True)
def predict_proba(X, feature, threshold, nominal, first_child, n_children, branch_share, empty, value):
    """ClassifierTree.getProbs for every row: a known value follows its branch; a missing value
    follows every non-empty branch with the branch's share of the node's training weight, and the
    leaf distributions reached are summed with those weights."""
    n = X.shape[0]
    n_classes = value.shape[1]
    out = np.zeros((n, n_classes))
    stack_node = np.empty(feature.shape[0] + 1, np.int64)
    stack_weight = np.empty(feature.shape[0] + 1)
    for i in range(n):
        stack_node[0], stack_weight[0] = 0, 1.0
        top = 1
        while top > 0:
            top -= 1
            node, weight = stack_node[top], stack_weight[top]
            a = feature[node]
            if a < 0:
                for c in range(n_classes):
                    out[i, c] += weight * value[node, c]
                continue
            v = X[i, a]
            if np.isnan(v):
                for k in range(n_children[node]):
                    child = first_child[node] + k
                    if not empty[child]:
                        stack_node[top], stack_weight[top] = child, weight * branch_share[child]
                        top += 1
            else:
                stack_node[top] = first_child[node] + branch_of(v, nominal[node], threshold[node])
                stack_weight[top] = weight
                top += 1
    return out
