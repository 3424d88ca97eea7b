"""Bias-variance decomposition of 0-1 loss (Kohavi and Wolpert 1996), estimated by
repeated cross-validation (Webb 2000), from the stored per-instance predictions.

Definitions (Kohavi and Wolpert 1996, Eqs. 2-4). For a test instance x with target
distribution P(Y_F = y | x) and learner distribution P(Y_H = y | x) over training sets:

    bias^2_x   = 1/2 * sum_y [P(Y_F = y | x) - P(Y_H = y | x)]^2
    variance_x = 1/2 * (1 - sum_y P(Y_H = y | x)^2)
    sigma^2_x  = 1/2 * (1 - sum_y P(Y_F = y | x)^2)        (intrinsic noise)

and the expected 0-1 loss at x is sigma^2_x + bias^2_x + variance_x. The reported
terms are averages over the instances of the data.

Estimation (Webb 2000, MultiBoosting, Sec. 5; Zaidi and Webb 2013 used 20 rounds of 2-fold CV):
every round of k-fold cross-validation tests each instance exactly once, so after L
rounds each instance has L predictions, each from a model trained on a different
random training set. P(Y_H = y | x) is estimated by the fraction of those L
predictions that are y.

Noise. Each instance has a single observed label, so P(Y_F | x) is estimated as the
indicator of that label and sigma^2_x = 0: the intrinsic noise cannot be separated
from the data and is folded into the bias term, as Webb (2000) does. Then, for every
instance, bias^2_x + variance_x = 1 - P(Y_H = y_x | x), the fraction of its L
predictions that are wrong; averaged over the instances, bias + variance equals the
mean 0-1 loss of the repeated cross-validation exactly (tested).

``correction="unbiased"`` uses Kohavi and Wolpert's unbiased estimate of bias^2
(subtracting sum_y p_y (1 - p_y) / (2 (L - 1)), as Weka's BVDecompose does) together with
the matching unbiased estimate of variance (the plug-in variance times L / (L - 1)), so the
two terms still sum to the loss. (Weka corrects the bias term only, so its bias and
variance do not sum to its error.) The default is the plug-in estimate.

Webb (2000) also defines bias and variance through the central tendency of the predictions (as
Weka's BVDecomposeSegCVSub reports beside Kohavi and Wolpert's); Zaidi and Webb 2013 use Kohavi and
Wolpert's definitions, so only those are computed here.

Predictions are the argmax of the stored class probabilities, ties to the lowest class
code (as :func:`bench.metrics.predict_from_proba`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

CORRECTIONS = ("none", "unbiased")


@dataclass(frozen=True)
class BiasVariance:
    """Instance-averaged decomposition of one learner on one dataset."""

    bias: float          #: mean bias^2 (noise folded in, see the module docstring)
    variance: float      #: mean variance
    noise: float         #: 0: not separable with one label per instance
    loss: float          #: mean 0-1 loss = bias + variance + noise
    n_instances: int     #: instances with at least one prediction
    rounds_min: int      #: fewest predictions of any instance
    rounds_max: int      #: most predictions of any instance
    correction: str = "none"

    def as_dict(self) -> dict:
        return asdict(self)


def prediction_counts(predictions, n_instances: int, n_classes: int) -> np.ndarray:
    """How often each instance was predicted as each class.

    ``predictions`` yields ``(test_index, y_pred)`` pairs, one per split. Returns an
    (n_instances, n_classes) int array (vectorised per split: no loop over instances).
    """
    counts = np.zeros((n_instances, n_classes), dtype=np.int64)
    for test_index, y_pred in predictions:
        test_index = np.asarray(test_index, dtype=np.int64)
        y_pred = np.asarray(y_pred, dtype=np.int64)
        if test_index.shape != y_pred.shape:
            raise ValueError(f"{test_index.size} test indices but {y_pred.size} predictions")
        np.add.at(counts, (test_index, y_pred), 1)
    return counts


def kohavi_wolpert_terms(counts: np.ndarray, y_true: np.ndarray, correction: str = "none"):
    """Per-instance (bias^2, variance, loss) from prediction counts and the true labels.

    Instances never predicted are dropped; returns ``(bias, variance, loss, rounds)`` arrays
    over the predicted instances.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {correction!r}")
    counts = np.asarray(counts, dtype=np.float64)
    y_true = np.asarray(y_true, dtype=np.int64)
    if counts.ndim != 2 or counts.shape[0] != y_true.shape[0]:
        raise ValueError(f"counts {counts.shape} do not match {y_true.shape[0]} labels")
    rounds = counts.sum(axis=1)
    keep = rounds > 0
    counts, y_true, rounds = counts[keep], y_true[keep], rounds[keep]
    p_h = counts / rounds[:, None]                        # P(Y_H = y | x)
    p_f = np.zeros_like(p_h)
    p_f[np.arange(len(y_true)), y_true] = 1.0             # P(Y_F = y | x): the one label
    sum_sq = np.sum(p_h ** 2, axis=1)
    bias = 0.5 * np.sum((p_f - p_h) ** 2, axis=1)         # K&W Eq. 3 (noise folded in)
    variance = 0.5 * (1.0 - sum_sq)                       # K&W Eq. 4
    loss = 1.0 - p_h[np.arange(len(y_true)), y_true]
    if correction == "unbiased":
        if np.any(rounds < 2):
            raise ValueError("the unbiased correction needs at least 2 predictions of every instance")
        shift = 0.5 * (1.0 - sum_sq) / (rounds - 1.0)     # = sum_y p(1-p) / (2 (L-1))
        bias = bias - shift
        variance = variance + shift
    return bias, variance, loss, rounds.astype(np.int64)


def decompose(predictions, y_true: np.ndarray, n_classes: int, correction: str = "none") -> BiasVariance:
    """Decompose from ``(test_index, y_pred)`` pairs of every split and the labels of all instances."""
    y_true = np.asarray(y_true, dtype=np.int64)
    counts = prediction_counts(predictions, len(y_true), n_classes)
    bias, variance, loss, rounds = kohavi_wolpert_terms(counts, y_true, correction)
    if rounds.size == 0:
        raise ValueError("no predictions to decompose")
    return BiasVariance(bias=float(bias.mean()), variance=float(variance.mean()), noise=0.0,
                        loss=float(loss.mean()), n_instances=int(rounds.size), rounds_min=int(rounds.min()),
                        rounds_max=int(rounds.max()), correction=correction)


def decompose_records(records: pd.DataFrame, correction: str = "none") -> BiasVariance:
    """Decompose the stored splits of one learner on one dataset.

    ``records`` are rows of :func:`bench.store.load` (status ``ok``) of one (dataset, algo,
    protocol); every (seed, repeat) is one round. The true labels come from the stored
    ``y_true`` of each split, and are checked to agree between rounds.
    """
    from ..metrics import predict_from_proba
    from ..store import load_predictions

    ok = records[records["status"] == "ok"] if "status" in records else records
    if ok.empty:
        raise ValueError("no successful splits to decompose")
    if ok["dataset"].nunique() != 1 or ok["algo"].nunique() != 1:
        raise ValueError("decompose_records needs the records of one dataset and one algorithm")
    n = int(ok["n_instances"].iloc[0])
    n_classes = int(ok["n_classes"].iloc[0])
    y_all = np.full(n, -1, dtype=np.int64)
    pairs = []
    for rec in ok.to_dict("records"):
        arr = load_predictions(rec)
        idx = arr["test_index"].astype(np.int64)
        y = arr["y_true"].astype(np.int64)
        seen = y_all[idx]
        if np.any((seen >= 0) & (seen != y)):
            raise ValueError(f"stored labels disagree between splits ({rec.get('path')})")
        y_all[idx] = y
        pairs.append((idx, predict_from_proba(arr["proba"])))
    rounds = ok.groupby(["seed", "repeat"]).ngroups if {"seed", "repeat"} <= set(ok.columns) else None
    if rounds is not None and rounds < 2:
        raise ValueError("bias-variance estimation needs at least 2 rounds of cross-validation "
                         f"(got {rounds}); use a repeated protocol such as cv5x2 or cv20x2")
    return decompose(pairs, np.where(y_all < 0, 0, y_all), n_classes, correction)


def bias_variance_table(records: pd.DataFrame, correction: str = "none",
                        by=("dataset", "algo", "protocol")) -> pd.DataFrame:
    """One row per (dataset, algo, protocol): bias, variance, noise, loss, instances and rounds.

    Groups that cannot be decomposed (a single round, no successful split) are left out.
    """
    rows = []
    ok = records[records["status"] == "ok"]
    for key, g in ok.groupby(list(by), sort=True):
        try:
            bv = decompose_records(g, correction)
        except (ValueError, FileNotFoundError):
            continue
        rows.append({**dict(zip(by, key)), **bv.as_dict()})
    return pd.DataFrame(rows, columns=list(by) + list(BiasVariance.__dataclass_fields__))
