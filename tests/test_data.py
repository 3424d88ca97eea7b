import gzip
import hashlib
import json

import numpy as np
import pytest

from bench.data import DataError, dataset_names, load
from bench.data.cache import write_checksummed
from bench.data.registry import _openml_cache_path, dataset_config

CSV = """a,b,c,class
1.5,x,10,yes
2.5,y,,no
?,x,30,yes
4.0,z,40,no
"""

ARFF = """% comment
@relation toy
@attribute 'num' numeric
@attribute colour {red,green,blue}
@attribute class {neg,pos}
@data
1.0,green,pos
?,blue,neg
3.5,red,pos
"""

SPARSE_ARFF = """@relation text
@attribute w0 integer
@attribute w1 integer
@attribute w2 integer
@attribute class {sport,politics,art}
@data
{0 2,2 1,3 politics}
{1 5}
{0 1,1 1,2 1,3 art}
"""


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    d.mkdir()
    monkeypatch.setenv("BENCH_DATA_DIR", str(d))
    return d


def _cfg(name, file, **kw):
    return {"name": name, "sources": [{"file": file}], **kw}


def test_csv_nominal_detection_and_missing(data_dir):
    (data_dir / "toy.csv").write_text(CSV)
    ds = load(_cfg("toy", "toy.csv"))
    assert ds.X.shape == (4, 3) and ds.X.dtype == np.float64
    assert list(ds.categorical) == [False, True, False]
    assert ds.categories[1] == ["x", "y", "z"]
    assert np.isnan(ds.X[2, 0]) and np.isnan(ds.X[1, 2])
    assert ds.classes == ["no", "yes"] and list(ds.y) == [1, 0, 1, 0]
    assert ds.meta["sha256"] == hashlib.sha256(CSV.encode()).hexdigest()


def test_csv_gz_and_declared_nominal_numbers(data_dir):
    with gzip.open(data_dir / "toy.csv.gz", "wt") as fh:
        fh.write(CSV)
    ds = load(_cfg("toy", "toy.csv.gz", nominal=["c"]))
    assert ds.categorical[2]
    assert ds.categories[2] == ["10", "30", "40"]
    assert np.isnan(ds.X[1, 2])


def test_select_drop_and_class_groups(data_dir):
    (data_dir / "rings.csv").write_text("sex,len,id,rings\nM,1,a,3\nF,2,b,9\nI,3,c,10\nM,4,d,11\nF,5,e,20\n")
    ds = load(_cfg("rings", "rings.csv", drop=["id"], select=["len", "sex"],
                   class_groups={"bins": [8, 10], "labels": ["1-8", "9-10", "11+"]}))
    assert ds.feature_names == ["len", "sex"]
    assert ds.classes == ["1-8", "9-10", "11+"]
    assert list(ds.y) == [0, 1, 1, 2, 2]


def test_arff_dense_keeps_declared_order(data_dir):
    (data_dir / "toy.arff").write_text(ARFF)
    ds = load(_cfg("toy", "toy.arff"))
    assert ds.categories[1] == ["red", "green", "blue"]
    assert list(ds.X[:, 1]) == [1.0, 2.0, 0.0]
    assert np.isnan(ds.X[1, 0])
    assert ds.classes == ["neg", "pos"] and list(ds.y) == [1, 0, 1]


def test_sparse_arff(data_dir):
    with gzip.open(data_dir / "text.arff.gz", "wt") as fh:
        fh.write(SPARSE_ARFF)
    ds = load(_cfg("text", "text.arff.gz"))
    assert ds.is_sparse
    assert ds.X.toarray().tolist() == [[2, 0, 1], [0, 5, 0], [1, 1, 1]]
    # an absent class entry is the first declared value (ARFF sparse rule); unused declared classes drop
    assert ds.classes == ["sport", "politics", "art"]
    assert list(ds.y) == [1, 0, 2]


def test_checksum_mismatch_names_the_file(data_dir):
    (data_dir / "toy.csv").write_text(CSV)
    with pytest.raises(DataError, match=r"toy\.csv has sha256 .* expects"):
        load({"name": "toy", "sources": [{"file": "toy.csv", "sha256": "0" * 64}]})


def test_truncated_gzip_is_a_clear_error(data_dir):
    raw = gzip.compress(CSV.encode() * 50)
    (data_dir / "bad.csv.gz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(DataError, match=r"could not parse data file .*bad\.csv\.gz"):
        load(_cfg("bad", "bad.csv.gz"))


def test_nan_label_is_a_clear_error(data_dir):
    (data_dir / "toy.csv").write_text("a,class\n1,yes\n2,\n3,no\n")
    with pytest.raises(DataError, match="class label is missing in 1 rows"):
        load(_cfg("toy", "toy.csv"))
    ds = load(_cfg("toy", "toy.csv", drop_missing_target=True))
    assert ds.n_instances == 2


def test_expected_shape_mismatch(data_dir):
    (data_dir / "toy.csv").write_text(CSV)
    with pytest.raises(DataError, match="has 4 rows, but its config expects 5"):
        load(_cfg("toy", "toy.csv", expected={"rows": 5}))


def test_unknown_dataset_suggests_names():
    with pytest.raises(DataError, match=r"unknown dataset 'leter'.*Did you mean letter"):
        dataset_config("leter")


def test_missing_everywhere_names_data_dir_and_file(data_dir, monkeypatch):
    import openml

    def offline(*a, **k):
        raise ConnectionError("no network")

    monkeypatch.setattr(openml.datasets, "get_dataset", offline)
    cfg = {"name": "gone", "sources": [{"file": "gone.csv.gz"}, {"openml": 99999}]}
    with pytest.raises(DataError) as info:
        load(cfg)
    msg = str(info.value)
    assert "gone.csv.gz" in msg and "BENCH_DATA_DIR" in msg and "OpenML dataset 99999" in msg
    assert str(_openml_cache_path(99999)) in msg


def test_unavailable_suggests_fetch_only_with_an_openml_source(data_dir, monkeypatch):
    """`python -m bench.data fetch NAME` is suggested only for a dataset with an OpenML source; a
    file-only dataset is told where its file goes, and a shipped one how to restore datasets/."""
    from bench.data import DatasetUnavailable

    with pytest.raises(DatasetUnavailable) as info:
        load(_cfg("gone", "gone.csv.gz"))
    msg = str(info.value)
    assert "put gone.csv.gz in a directory named by BENCH_DATA_DIR" in msg and "bench.data fetch" not in msg
    with pytest.raises(DatasetUnavailable) as info:
        load({"name": "gone", "sources": [{"file": "gone.csv.gz"}, {"openml": 99999}]})
    assert "`python -m bench.data fetch gone`" in str(info.value)

    monkeypatch.setenv("BENCH_DATASETS_DIR", "")          # the shipped datasets/ turned off
    with pytest.raises(DatasetUnavailable) as info:
        load("covtype_head20k")                            # shipped, no OpenML source
    msg = str(info.value)
    assert "covtype_head20k.csv.gz is in the repository's datasets/" in msg and "unset BENCH_DATASETS_DIR" in msg
    assert "bench.data fetch" not in msg and "data=covtype_head20k_numeric" in msg


def test_fetch_without_openml_source_says_where_the_file_is(monkeypatch, capsys):
    from bench.data.__main__ import main

    assert main(["fetch", "covtype_head20k"]) == 1
    err = capsys.readouterr().err
    assert "no OpenML source" in err and "It is read from" in err and "covtype_head20k.csv.gz" in err
    monkeypatch.setenv("BENCH_DATASETS_DIR", "")
    assert main(["fetch", "covtype_head20k"]) == 1
    err = capsys.readouterr().err
    assert "unset BENCH_DATASETS_DIR" in err and "BENCH_DATA_DIR" in err


def test_openml_cache_roundtrip_and_corruption(tmp_path):
    import io

    import pandas as pd

    frame = pd.DataFrame({"f": [1.0, 2.0, 3.0, 4.0], "g": ["a", "b", "a", None], "class": ["p", "q", "p", "q"]})
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    path = _openml_cache_path(4242)
    write_checksummed(path, buf.getvalue(), {"declared": {"g": ["b", "a"]}, "version": 1})
    ds = load({"name": "om", "sources": [{"openml": 4242}]})
    assert ds.meta["source"] == "openml:4242" and ds.meta["openml_id"] == 4242
    assert ds.categories[1] == ["b", "a"] and np.isnan(ds.X[3, 1])
    # corrupt the cached file: a clear error naming it and the fetch command
    data = bytearray(path.read_bytes())
    data[10] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(DataError, match=r"4242\.parquet is corrupt.*fetch"):
        load({"name": "om", "sources": [{"openml": 4242}]}, use_memo=False)


def test_sklearn_and_synthetic_sources():
    ds = load("sk_iris")
    assert ds.X.shape == (150, 4) and ds.n_classes == 3
    a = load("synth_mixed", use_memo=False)
    b = load("synth_mixed", use_memo=False)
    assert np.array_equal(a.X, b.X, equal_nan=True) and a.meta["sha256"] == b.meta["sha256"]
    assert a.categorical.sum() == 3 and np.isnan(a.X).any()


def test_every_config_parses_and_names_match():
    names = dataset_names()
    assert len(names) >= 90
    for n in names:
        cfg = dataset_config(n)
        assert cfg["name"] == n, n
        assert cfg.get("sources"), n


def test_cli_list_runs():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "bench.data", "list"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0
    assert "sk_iris" in out.stdout and "available" in out.stdout
