"""``bench data add`` names the columns that may describe the file rather than the instances (an
identifier, a date, the row order) and reports the missing values of each column."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.data.__main__ import main as data_main
from bench.data.add import leak_warnings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def conf(tmp_path, monkeypatch):
    c = tmp_path / "conf"
    (c / "data").mkdir(parents=True)
    shutil.copytree(ROOT / "conf" / "protocol", c / "protocol")
    monkeypatch.setenv("BENCH_CONF_DIR", str(c))
    monkeypatch.setenv("BENCH_CACHE_DIR", str(tmp_path / "cache"))
    return c


def sorted_by_class(n=120, seed=0) -> pd.DataFrame:
    """A class-sorted file, as the one whose date column let a classifier learn the row order."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "patient": rng.permutation(np.arange(5000, 5000 + n)),               # an identifier, in no order
        "visit": pd.date_range("2021-03-01", periods=n, freq="D").strftime("%d/%m/%Y"),  # dates
        "row": np.arange(n) * 0.5 + rng.normal(0, 0.01, n),                 # follows the row order
        "x": rng.normal(size=n),                                             # a measurement
        "grade": rng.integers(0, 4, n).astype(float),
    })
    df.loc[[3, 50, 77], "x"] = np.nan
    df.loc[[10], "grade"] = np.nan
    df["class"] = np.repeat(["a", "b", "c"], n // 3)
    return df


def test_identifier_date_and_row_order_columns_are_named():
    df = sorted_by_class()
    found = {w.split("'")[1]: w for w in leak_warnings(df, "class", [], "trial")}
    assert set(found) == {"patient", "visit", "row"}
    assert "distinct value in every row" in found["patient"] and "row order" not in found["patient"]
    assert "date-like values (100% of them, e.g. '01/03/2021')" in found["visit"]
    assert "rise with the row order" in found["row"] and "--drop row" in found["row"]
    # dropped columns and the class are not warned about
    assert leak_warnings(df, "class", ["patient", "visit", "row"], "trial") == []


def test_a_measurement_in_random_order_is_not_named():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"x": rng.normal(size=200), "k": rng.integers(0, 1000, 200), "class": rng.choice(["a", "b"], 200)})
    assert all("'x'" not in w for w in leak_warnings(df, "class", [], "t"))  # unique floats: a measurement
    falling = pd.DataFrame({"t": np.arange(200.0)[::-1], "class": ["a", "b"] * 100})
    assert "fall with the row order" in leak_warnings(falling, "class", [], "t")[0]


def test_data_add_prints_the_warnings_and_the_missing_values(tmp_path, conf, capsys):
    p = tmp_path / "trial.csv"
    sorted_by_class().to_csv(p, index=False)
    assert data_main(["add", str(p), "--protocol", "cv2"]) == 0
    out = capsys.readouterr().out
    assert "missing values: x 3 (2.5%), grade 1 (0.8%)" in out
    assert out.count("  warning: column") == 3
    assert data_main(["add", str(p), "--protocol", "cv2", "--drop", "patient,visit,row", "--force"]) == 0
    out = capsys.readouterr().out
    assert "warning: column" not in out and "120 rows x 2 features" in out
    from bench.data.registry import load

    assert load("trial", use_memo=False).feature_names == ["x", "grade"]


def test_a_file_without_missing_values_says_so(tmp_path, conf, capsys):
    p = tmp_path / "full.csv"
    pd.DataFrame({"x": np.arange(40) % 7, "class": ["a", "b"] * 20}).to_csv(p, index=False)
    assert data_main(["add", str(p), "--protocol", "cv2"]) == 0
    assert "missing values: none" in capsys.readouterr().out
