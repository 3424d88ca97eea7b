"""Per-split metrics computed from class probabilities (docs/DESIGN.md)."""

from __future__ import annotations

import numpy as np

LOG_LOSS_EPS = 1e-15


def error_rate(y: np.ndarray, y_pred: np.ndarray) -> float:
    """Fraction of misclassified instances (0-1 loss)."""
    return float(np.mean(np.asarray(y) != np.asarray(y_pred)))


def rmse(y: np.ndarray, proba: np.ndarray) -> float:
    """Root mean squared error over all classes, as the AnDE and ESKDB code bases compute it:
    sqrt( sum_i sum_c (1[y_i = c] - p_c(x_i))^2 / (N * C) )."""
    proba = np.asarray(proba, dtype=np.float64)
    n, c = proba.shape
    onehot = np.zeros_like(proba)
    onehot[np.arange(n), y] = 1.0
    return float(np.sqrt(np.sum((onehot - proba) ** 2) / (n * c)))


def log_loss(y: np.ndarray, proba: np.ndarray, eps: float = LOG_LOSS_EPS) -> float:
    """Mean negative log probability of the true class; probabilities are clipped
    to [eps, 1] so a zero probability costs -log(eps) instead of infinity."""
    p = np.asarray(proba, dtype=np.float64)[np.arange(len(y)), y]
    return float(-np.mean(np.log(np.clip(p, eps, 1.0))))


def predict_from_proba(proba: np.ndarray) -> np.ndarray:
    """Most probable class; ties go to the lowest class code (as Weka's Utils.maxIndex)."""
    return np.argmax(proba, axis=1)


def all_metrics(y: np.ndarray, proba: np.ndarray) -> dict:
    y = np.asarray(y)
    pred = predict_from_proba(proba)
    return {
        "error": error_rate(y, pred),
        "accuracy": 1.0 - error_rate(y, pred),
        "rmse": rmse(y, proba),
        "log_loss": log_loss(y, proba),
    }
