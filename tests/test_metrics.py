import math

import numpy as np
import pytest

from bench import metrics as M

Y = np.array([0, 1, 1])
P = np.array([[0.8, 0.2], [0.4, 0.6], [0.7, 0.3]])


def test_error_rate_hand_computed():
    assert M.error_rate(Y, M.predict_from_proba(P)) == pytest.approx(1 / 3)


def test_rmse_hand_computed():
    # squared residuals: (0.2^2 + 0.2^2) + (0.4^2 + 0.4^2) + (0.7^2 + 0.7^2) = 1.38 over N*C = 6
    assert M.rmse(Y, P) == pytest.approx(math.sqrt(1.38 / 6))


def test_log_loss_hand_computed_and_clipped():
    assert M.log_loss(Y, P) == pytest.approx(-(math.log(0.8) + math.log(0.6) + math.log(0.3)) / 3)
    zero = np.array([[1.0, 0.0]])
    assert M.log_loss(np.array([1]), zero) == pytest.approx(-math.log(M.LOG_LOSS_EPS))


def test_ties_go_to_lowest_class():
    assert M.predict_from_proba(np.array([[0.5, 0.5]]))[0] == 0


def test_perfect_predictions():
    y = np.array([0, 1, 2])
    p = np.eye(3)
    out = M.all_metrics(y, p)
    assert out["error"] == 0 and out["rmse"] == 0 and out["log_loss"] == pytest.approx(0, abs=1e-12)
