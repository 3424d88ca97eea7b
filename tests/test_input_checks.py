"""No silent wrong input: a non-number in a numeric column, a continuous class
column, classes too small for the folds, a bad seed, an unknown config key, a YAML syntax error and
unknown algo/data names each stop the command with a message naming the problem (exit status 2),
or warn where the run is still sound."""

import logging

import numpy as np
import pytest

from bench.data import DataError, registry
from bench.data.readers import read_arff
from bench.runner import SetupError, check_class_sizes, check_seed, run_job
from bench.store import data_identity
from tests.conftest import run_bench

ALGO = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
CV10 = {"name": "cv10", "kind": "kfold", "n_splits": 10}


def _load(tmp_path, monkeypatch, fname, text, **cfg):
    (tmp_path / fname).write_text(text)
    monkeypatch.setenv("BENCH_DATA_DIR", str(tmp_path))
    return registry.load({"name": "t", "sources": [{"file": fname}], **cfg}, use_memo=False)


def test_arff_numeric_attribute_holding_text_names_column_row_and_value(tmp_path, monkeypatch):
    text = "@relation t\n@attribute x numeric\n@attribute class {a,b}\n@data\n1.5,a\n2,b\nfoo,a\n?,b\n"
    with pytest.raises(DataError, match=r"numeric attribute 'x' holds a value that is not a number: 'foo' in data row 3"):
        _load(tmp_path, monkeypatch, "t.arff", text)
    sparse = "@relation t\n@attribute x numeric\n@attribute class {a,b}\n@data\n{0 1.5,1 a}\n{0 bar,1 b}\n"
    (tmp_path / "s.arff").write_text(sparse)
    with pytest.raises(DataError, match=r"numeric attribute 'x' holds a value that is not a number: 'bar' in data row 2"):
        read_arff(tmp_path / "s.arff")


def test_csv_numeric_column_with_a_stray_value_is_an_error_not_a_nominal_column(tmp_path, monkeypatch):
    rows = [f"{i * 0.37:.2f},{'ab'[i % 2]}" for i in range(200)]
    rows[57] = "foo,b"
    text = "x,class\n" + "\n".join(rows) + "\n"
    with pytest.raises(DataError, match=r"column 'x' holds numbers \(199 distinct\) except in 1 row\(s\): 'foo' in "
                                        r"data row 58.*nominal: \[x\]"):
        _load(tmp_path, monkeypatch, "t.csv", text)
    ds = _load(tmp_path, monkeypatch, "t.csv", text, nominal=["x"])  # declared nominal: the user's choice
    assert ds.categorical.tolist() == [True]
    with pytest.raises(DataError, match=r"column 'x', declared numeric, holds a value that is not a number: 'foo' "
                                        r"in data row 58"):
        _load(tmp_path, monkeypatch, "t.csv", text, numeric=["x"])
    # a nominal column with a few numeric codes (car's doors: 2, 3, 4, 5more) stays nominal
    doors = "doors,class\n" + "\n".join(f"{['2', '3', '4', '5more'][i % 4]},{'ab'[i % 2]}" for i in range(40)) + "\n"
    assert _load(tmp_path, monkeypatch, "d.csv", doors).categories[0] == ["2", "3", "4", "5more"]


def test_a_continuous_class_column_is_an_error_unless_declared_a_class(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    text = "x,y\n" + "\n".join(f"{v:.3f},{w:.4f}" for v, w in rng.random((60, 2))) + "\n"
    with pytest.raises(DataError, match=r"class column 'y' looks continuous.*60 distinct numeric values in 60 rows, "
                                        r"60 of them in a single row.*target_is_class: true"):
        _load(tmp_path, monkeypatch, "t.csv", text)
    ds = _load(tmp_path, monkeypatch, "t.csv", text, target_is_class=True)
    assert ds.n_classes == 60
    ident = data_identity({"name": "t", "sources": [], "target_is_class": True}, ds.meta)
    assert "target_is_class" not in ident["transforms"]  # a check, not a transform: in no key


def test_classes_too_small_for_the_folds(tmp_path, caplog):
    from bench.data.dataset import Dataset

    y = np.repeat(np.arange(500), 2)
    tiny = Dataset("tiny", np.arange(1000.0)[:, None], y, [f"c{i}" for i in range(500)], ["x"], [False])
    with pytest.raises(SetupError, match=r"every class of dataset 'tiny' has fewer rows than the 10 folds.*"
                                         r"use fewer folds \(protocol.n_splits=2 or less\)"):
        check_class_sizes(tiny, CV10)
    y = np.r_[np.zeros(50, int), np.ones(50, int), [2, 2, 3]]
    mixed = Dataset("mixed", np.arange(103.0)[:, None], y, ["a", "b", "c", "d"], ["x"], [False])
    with caplog.at_level(logging.WARNING, logger="bench"):
        assert check_class_sizes(mixed, CV10) == ["c", "d"]
    assert "2 of 4 classes have fewer rows than the 10 folds" in caplog.text and "'d' (1 row)" in caplog.text
    assert check_class_sizes(mixed, {"name": "cv2", "kind": "kfold", "n_splits": 2}) == ["d"]


def test_seed_must_be_a_non_negative_integer():
    for bad in (1.5, "abc", "1.5", None, float("nan")):
        with pytest.raises(SetupError, match=rf"^seed={bad} is not an integer; seeds must be integers >= 0"):
            check_seed(bad)
    assert check_seed(3) == 3 and check_seed("7") == 7


def test_command_line_setup_errors_exit_2_with_a_short_message(tmp_path):
    conf = tmp_path / "conf" / "data"
    conf.mkdir(parents=True)
    (conf / "broken.yaml").write_text("name: broken\nsources:\n  - file: x.csv\n   target: [a, b\n")
    cases = [
        (["seed=1.5"], "error: seed=1.5 is not an integer"),
        (["seed=abc"], "error: seed=abc is not an integer"),
        (["+protocl=cv5x2"], "unknown config key 'protocl' (did you mean 'protocol'?)"),
        (["-m", "seed=0,1", "+protocl=cv5x2"], "unknown config key 'protocl'"),
        (["algo=nope"], "unknown algorithm algo=nope (Could not find 'algo/nope')"),
        (["data=nosuch"], "unknown dataset data=nosuch (Could not find 'data/nosuch')"),
        (["data=broken", f"hydra.searchpath=[file://{tmp_path / 'conf'}]"],
         f"YAML syntax error in {conf / 'broken.yaml'}, line 4, column 4"),
    ]
    for args, expect in cases:
        out = run_bench(["algo=gnb", "data=sk_iris", "protocol=cv2", "progress=false", *args], tmp_path / "r",
                        check=False)
        assert out.returncode == 2, (args, out.stderr[-2000:])
        assert expect in out.stderr, (args, out.stderr[-2000:])
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) <= 4, out.stderr
    assert not list((tmp_path / "r").rglob("*.json"))  # nothing ran


def test_a_dataset_config_with_a_yaml_error_is_a_data_error_with_its_place(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "broken.yaml").write_text("name: broken\nsources:\n  - file: x.csv\n   target: [a, b\n")
    monkeypatch.setenv("BENCH_CONF_DIR", str(tmp_path))
    with pytest.raises(DataError, match=r"dataset 'broken': YAML syntax error in .*broken\.yaml, line 4, column 4"):
        registry.dataset_config("broken")
