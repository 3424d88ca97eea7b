"""bench.data.built: the binary copy of a dataset built from a local file gives back the same
dataset, and a changed file, config or corrupt copy never gives an old one."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.data import built, load
from bench.data.cache import cache_dir

ROOT = Path(__file__).resolve().parents[1]

ARFF = """@relation toy
@attribute 'num' numeric
@attribute colour {red,green,blue}
@attribute n2 numeric
@attribute class {neg,pos}
@data
1.0,green,5,pos
?,blue,6,neg
3.5,red,?,pos
2.0,red,7,neg
"""


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    d.mkdir()
    monkeypatch.setenv("BENCH_DATA_DIR", str(d))
    (d / "toy.arff").write_text(ARFF)
    return d


def _cfg(**kw):
    return {"name": "toy", "sources": [{"file": "toy.arff"}], "notes": "n", **kw}


def _same(a, b):
    for f in dataclasses.fields(a):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if isinstance(va, np.ndarray):
            assert va.dtype == vb.dtype and va.shape == vb.shape and va.flags.c_contiguous == vb.flags.c_contiguous
            np.testing.assert_array_equal(va, vb)
        else:
            assert va == vb, f.name


def _copies():
    return sorted((cache_dir() / "built").glob("*.npz"))


def test_built_copy_gives_back_the_same_dataset(data_dir):
    parsed = load(_cfg(), use_memo=False)
    assert len(_copies()) == 1
    again = load(_cfg(), use_memo=False)
    _same(parsed, again)
    sel = load(_cfg(select=["n2", "colour"]), use_memo=False)   # another config: another copy
    assert len(_copies()) == 2
    _same(sel, load(_cfg(select=["n2", "colour"]), use_memo=False))


def test_changed_file_or_corrupt_copy_is_rebuilt(data_dir, monkeypatch):
    load(_cfg(), use_memo=False)
    (data_dir / "toy.arff").write_text(ARFF.replace("1.0,green", "9.0,green"))
    ds = load(_cfg(), use_memo=False)
    assert ds.X[0, 0] == 9.0 and len(_copies()) == 2
    copy = _copies()[0] if _copies()[0].stat().st_mtime >= _copies()[1].stat().st_mtime else _copies()[1]
    for p in _copies():
        p.write_bytes(p.read_bytes()[:-7] + b"garbage")   # fails its checksum
    ds2 = load(_cfg(), use_memo=False)
    assert ds2.X[0, 0] == 9.0
    monkeypatch.setenv("BENCH_DATA_BUILT_CACHE", "0")
    _same(ds2, load(_cfg(), use_memo=False))
    assert copy.exists()


def test_source_is_where_the_file_was_found(data_dir, tmp_path, monkeypatch):
    load(_cfg(), use_memo=False)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "toy.arff").write_text(ARFF)
    monkeypatch.setenv("BENCH_DATA_DIR", str(other))
    ds = load(_cfg(), use_memo=False)
    assert ds.meta["source"] == str(other / "toy.arff") and len(_copies()) == 1
    assert list(ds.meta) == ["source", "sha256", "openml_id", "notes"]


def test_a_job_reading_the_copy_does_not_import_pandas(data_dir):
    load(_cfg(), use_memo=False)
    code = ("import sys; from bench._deferred import defer; defer(); import bench.runner, bench.summary; "
            "from bench.data import load; "
            f"ds = load({_cfg()!r}); assert ds.X.shape == (4, 3); "
            "assert 'pandas' not in sys.modules, 'pandas imported'; print('ok')")
    import os

    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert built.enabled()


@pytest.mark.parametrize("name", ["sk_iris", "sk_wine", "sk_breast_cancer", "sk_digits"])
def test_sklearn_source_kept_and_given_back_the_same(name, monkeypatch):
    """A dataset bundled with scikit-learn is kept like a file's: the copy gives back what scikit-learn's
    loader builds (BENCH_DATA_BUILT_CACHE=0 reads it afresh), and a job reading the copy imports
    neither sklearn.datasets nor pandas."""
    first = load(name, use_memo=False)
    assert len(_copies()) == 1
    again = load(name, use_memo=False)
    assert len(_copies()) == 1
    monkeypatch.setenv("BENCH_DATA_BUILT_CACHE", "0")
    fresh = load(name, use_memo=False)
    _same(first, fresh)
    _same(again, fresh)
    assert fresh.meta["source"] == again.meta["source"] == f"sklearn:{name[3:]}"
    monkeypatch.delenv("BENCH_DATA_BUILT_CACHE")
    if name != "sk_iris":
        return
    code = ("import sys; from bench._deferred import defer; defer(); import bench.runner, bench.summary; "
            f"from bench.data import load; ds = load({name!r}); assert ds.X.shape == (150, 4), ds.X.shape; "
            "bad = [m for m in ('pandas', 'sklearn.datasets') if m in sys.modules]; assert not bad, bad; print('ok')")
    import os

    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_sklearn_copy_keyed_by_the_bundled_files(monkeypatch, tmp_path):
    """Other bundled data (another scikit-learn) gets its own copy, never the old one."""
    load("sk_iris", use_memo=False)
    real = built.sklearn_data_digest()
    assert real is not None and real == built.sklearn_data_digest()
    monkeypatch.setattr(built, "sklearn_data_digest", lambda: real + "-other")
    load("sk_iris", use_memo=False)
    assert len(_copies()) == 2
