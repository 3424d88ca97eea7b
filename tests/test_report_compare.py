"""Generic builders: published beside ours, and WDL against published tables (sign tests and the
two-standard-error test)."""

import numpy as np
import pandas as pd
import pytest

from bench import published
from bench.report.compare import beside_published, display_beside, wdl_vs_published

KEYS = ["paper", "table", "dataset", "algorithm", "measure"]


def test_beside_published_keeps_order_and_says_what_is_missing():
    pub = pd.DataFrame([{"paper": "p", "table": 1, "dataset": "d", "algorithm": a, "measure": "RMSE",
                         "published": v, "printed": f"{v:.4f}"} for a, v in (("Z", 0.3), ("A", 0.2), ("M", 0.1))])
    ours = pd.DataFrame([{"paper": "p", "table": 1, "dataset": "d", "algorithm": "Z", "measure": "RMSE",
                          "ours": 0.25, "ours_se": 0.01},
                         {"paper": "p", "table": 1, "dataset": "d", "algorithm": "extra", "measure": "RMSE",
                          "ours": 0.5, "ours_se": np.nan}])
    reasons = pd.DataFrame([{"paper": "p", "table": 1, "dataset": "d", "algorithm": "A", "measure": "RMSE",
                             "reason": "algorithm not implemented yet"}])
    out = beside_published(pub, ours, KEYS, reasons)
    assert list(out["algorithm"]) == ["Z", "A", "M", "extra"]
    assert out.loc[0, "diff"] == pytest.approx(-0.05)
    assert out.loc[1, "reason"] == "algorithm not implemented yet" and out.loc[2, "reason"] == "not computed"
    assert out.loc[3, "reason"] == "" and np.isnan(out.loc[3, "published"])
    disp = display_beside(out, ["algorithm"])
    assert disp.loc[0, "ours"] == "0.2500 ± 0.0100" and disp.loc[0, "published"] == "0.3000"


def test_wdl_against_massbayes_table4_with_the_two_se_test():
    pub = published.wdl("massbayes", 4)
    pub = pub[(pub["row_algorithm"] == "MassBayes") & (pub["col_algorithm"].isin(["A1DE", "J48"]))]
    rng = np.random.default_rng(0)
    rows = []
    # d1: MassBayes clearly more accurate than A1DE; d2: within noise; d3: clearly less accurate
    for ds, shift in (("d1", 0.05), ("d2", 0.0), ("d3", -0.05)):
        base = 0.8 + rng.normal(0, 0.002, 10)
        for f in range(10):
            rows.append({"dataset": ds, "seed": 0, "repeat": 0, "fold": f, "massbayes": base[f] + shift,
                         "a1de": base[f] + rng.normal(0, 0.001), "j48": np.nan})
    splits = pd.DataFrame(rows).set_index(["dataset", "seed", "repeat", "fold"])
    long = wdl_vs_published(pub, {}, {"MassBayes": "massbayes", "A1DE": "a1de", "J48": "j48"},
                            {"accuracy": "accuracy"}, {"all datasets (Table 2)": None}, test="two_se",
                            splits={"accuracy": splits})
    a1 = long[long["col"] == "A1DE"].iloc[0]
    assert a1["ours"] == "1/1/1" and a1["published"] == "7/3/0"
    j48 = long[long["col"] == "J48"].iloc[0]
    assert j48["ours"] == "" and j48["ours_n"] == 0
