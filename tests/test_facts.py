"""bench.report.facts: the numbers a paper build records as data."""

import json

import numpy as np
import pandas as pd
import pytest

from bench.report.facts import Facts


def test_round_trip_keeps_types_order_and_maps_nan_to_null(tmp_path):
    f = Facts("p")
    df = pd.DataFrame({"algo": ["b", "a"], "wins": np.array([3, 1], dtype=np.int64),
                       "mean": [0.1 + 0.2, np.nan], "ok": [True, False]})
    f.add_table("t", df, "p/t.csv", about="a table")
    f.add_value("n", np.int32(7), "p/t.csv")
    path = f.write(tmp_path)
    doc = json.loads(path.read_text())
    assert doc["tables"]["t"]["rows"][1] == ["a", 1, None, False]
    g = Facts.read(path)
    back = g.table("t")
    assert list(back.columns) == ["algo", "wins", "mean", "ok"]
    assert back["wins"].tolist() == [3, 1] and back["mean"].iloc[0] == 0.1 + 0.2   # exact float
    assert np.isnan(back["mean"].iloc[1])
    assert g.value("n") == 7 and g.value("absent", 5) == 5
    assert f.to_json() == g.to_json()              # deterministic bytes


def test_sources_once_each_and_unknown_fact_raises():
    f = Facts("p")
    f.add_table("a", pd.DataFrame({"x": [1]}), "p/a.csv")
    f.add_table("b", pd.DataFrame({"x": [1]}), "p/b.csv")
    f.add_value("c", 1, "p/a.csv")
    assert f.sources("a", "c", "b") == "p/a.csv;p/b.csv"
    with pytest.raises(KeyError):
        f.source("zzz")
    with pytest.raises(ValueError):
        f.add_table("a", pd.DataFrame({"x": [1]}), "p/a.csv")


def test_of_paper_without_file_is_empty(tmp_path):
    f = Facts.of_paper(tmp_path, "eskdb")
    assert not f and f.table("anything") is None
