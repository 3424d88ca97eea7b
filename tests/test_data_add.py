"""``bench data add FILE``: the config it writes loads as a job loads it, with the file's sha256,
shape, classes and nominal columns; a continuous target, a class that cannot be learned under the
protocol and a file that is not UTF-8 are refused with the reason (exit 2, nothing written)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from bench.data import DataError
from bench.data.__main__ import main as data_main
from bench.data.add import add_dataset, unlearnable_classes
from bench.fileio import sha256_file

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def conf(tmp_path, monkeypatch):
    """A private conf/ with the protocols and no dataset configs."""
    c = tmp_path / "conf"
    (c / "data").mkdir(parents=True)
    shutil.copytree(ROOT / "conf" / "protocol", c / "protocol")
    monkeypatch.setenv("BENCH_CONF_DIR", str(c))
    monkeypatch.delenv("BENCH_DATA_DIR", raising=False)
    return c


def frame(n=90, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.normal(size=n),
                       "colour": rng.choice(["red", "green", "blue"], n), "grade": rng.integers(1, 5, n)})
    df["outcome"] = np.where(df["x1"] + rng.normal(0, 0.5, n) > 0, "pos", "neg")
    return df


def test_csv_is_registered_and_loads(tmp_path, conf, capsys):
    path = tmp_path / "My Trial.csv"
    frame().to_csv(path, index=False)
    rc = data_main(["add", str(path)])
    out = capsys.readouterr().out
    assert rc == 0 and "data=my_trial" in out
    cfg = yaml.safe_load((conf / "data" / "my_trial.yaml").read_text())
    assert cfg["sources"][0]["sha256"] == sha256_file(path)
    assert cfg["expected"]["rows"] == 90 and cfg["expected"]["features"] == 4 and cfg["expected"]["classes"] == 2
    counts = frame()["outcome"].value_counts()
    assert cfg["expected"]["class_counts"] == {k: int(v) for k, v in counts.items()}
    assert cfg["expected"]["nominal_columns"] == ["colour"]
    assert "grade" in out and "--nominal grade" in out       # integer-coded: named as possibly nominal
    from bench.data.registry import load

    ds = load("my_trial", use_memo=False)
    assert (ds.n_instances, ds.n_features, ds.classes) == (90, 4, ["neg", "pos"])
    assert list(ds.categorical) == [False, False, True, False]
    # the name is taken: refused without --force, replaced with it
    assert data_main(["add", str(path), "--name", "my_trial"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert data_main(["add", str(path), "--name", "my_trial", "--nominal", "grade", "--force"]) == 0
    assert list(load("my_trial", use_memo=False).categorical) == [False, False, True, True]


@pytest.mark.parametrize("kind", ["csv.gz", "arff", "parquet"])
def test_other_formats(tmp_path, conf, kind):
    df = frame(seed=1)
    path = tmp_path / f"trial.{kind}"
    if kind == "csv.gz":
        with gzip.open(path, "wt") as fh:
            df.to_csv(fh, index=False)
    elif kind == "parquet":
        df.to_parquet(path)
    else:
        lines = ["@relation trial", "@attribute x1 numeric", "@attribute x2 numeric",
                 "@attribute colour {red,green,blue}", "@attribute grade numeric", "@attribute outcome {neg,pos}",
                 "@data"] + [",".join(map(str, r)) for r in df.itertuples(index=False)]
        path.write_text("\n".join(lines) + "\n")
    added = add_dataset(path, name=f"t_{kind.replace('.', '_')}")
    assert added.dataset.n_instances == 90 and added.nominal == ["colour"]
    assert added.sha256 == sha256_file(path)


def test_target_column_and_continuous_target_refused(tmp_path, conf, capsys):
    df = frame()
    df["score"] = np.random.default_rng(3).normal(size=len(df))      # continuous, last
    path = tmp_path / "cont.csv"
    df.to_csv(path, index=False)
    assert data_main(["add", str(path)]) == 2
    err = capsys.readouterr().err
    assert "looks continuous" in err and "--target" in err and "Traceback" not in err
    assert not (conf / "data" / "cont.yaml").exists()
    assert data_main(["add", str(path), "--target", "outcome"]) == 0
    cfg = yaml.safe_load((conf / "data" / "cont.yaml").read_text())
    assert cfg["target"] == "outcome" and cfg["expected"]["features"] == 5


def test_single_row_class_refused(tmp_path, conf, capsys):
    df = frame()
    df.loc[5, "outcome"] = "rare"
    path = tmp_path / "single.csv"
    df.to_csv(path, index=False)
    assert data_main(["add", str(path)]) == 2
    err = capsys.readouterr().err
    assert "'rare' (1 row)" in err and "single row" in err
    assert not (conf / "data" / "single.yaml").exists()


def test_unlearnable_under_the_protocol():
    """A class of two rows is learnable under 10-fold CV, not under a holdout that tests both."""
    from bench.data.dataset import Dataset

    y = np.array([0] * 40 + [1] * 40 + [2] * 2)
    ds = Dataset("t", np.zeros((len(y), 1)), y, ["a", "b", "c"], ["f"], np.array([False]))
    assert unlearnable_classes(ds, {"name": "cv10", "kind": "kfold", "n_splits": 10}) == []
    bad = unlearnable_classes(ds, {"name": "ho", "kind": "holdout", "test_size": 0.9})
    assert [b[0] for b in bad] == ["c"] and "no row of it in the training part" in bad[0][2]


def test_latin1_file_refused_with_line(tmp_path, conf, capsys):
    path = tmp_path / "latin.csv"
    text = frame().to_csv(index=False).replace("red", "r\u00e9d", 1)
    path.write_bytes(text.encode("latin-1"))
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "r\u00e9d" in ln)
    assert data_main(["add", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8" in err and f"line {line}" in err and "iconv" in err
    with pytest.raises(DataError, match="not UTF-8"):
        add_dataset(path)


def test_unknown_target_and_unsupported_type(tmp_path, conf):
    path = tmp_path / "t.csv"
    frame().to_csv(path, index=False)
    with pytest.raises(DataError, match="no column 'nope'"):
        add_dataset(path, target="nope")
    other = tmp_path / "t.xlsx"
    other.write_bytes(b"x")
    with pytest.raises(DataError, match="unsupported file type"):
        add_dataset(other)
