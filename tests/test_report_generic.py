"""The generic per-experiment summary of bench/report/build.py."""

import pandas as pd

from bench.report.labels import variant_labels
from bench.report.tables import summarise


def _rec(algo, cfg, h, err, fold):
    return {"algo": algo, "algo_hash": h, "algo_config": cfg, "dataset": "d", "protocol": "cv2", "status": "ok",
            "fold": fold, "metrics.error": err, "metrics.rmse": err, "metrics.log_loss": err,
            "times.train_cpu_s": 0.1, "times.test_cpu_s": 0.1, "model_bytes": 10}


def test_swept_variants_are_kept_apart_and_labelled():
    a = {"name": "mb", "estimator": {"_target_": "x", "psi": 500, "t": 100}}
    b = {"name": "mb", "estimator": {"_target_": "x", "psi": 5000, "t": 100}}
    c = {"name": "nb", "estimator": {"_target_": "y"}}
    df = pd.DataFrame([_rec("mb", a, "h1", 0.2, 0), _rec("mb", a, "h1", 0.4, 1), _rec("mb", b, "h2", 0.1, 0),
                       _rec("mb", b, "h2", 0.1, 1), _rec("nb", c, "h3", 0.5, 0)])
    assert set(variant_labels(df)) == {"mb[psi=500]", "mb[psi=5000]", "nb"}
    s = summarise(df).set_index("algo")
    assert abs(s.loc["mb[psi=500]", "error"] - 0.3) < 1e-12
    assert s.loc["mb[psi=5000]", "error"] == 0.1
