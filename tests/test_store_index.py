"""The consolidated results index (``<root>/_index.parquet``): ``bench.store.load`` gives through it
exactly the DataFrame the JSON records give, keeps it up to date when records are added, replaced or
removed, and rebuilds it when it is missing or damaged; the JSON records stay the source of truth."""

from __future__ import annotations

import json
import math
import os

import pandas as pd
import pytest

from bench import store as S
from bench.store import RunKey, Store, load


def _put(root, exp="exp", ds="ds", algo="algo", ahash="abc123", seed=0, fold=0, **fields):
    rec = {"repeat": 0, "fold": fold, "status": "ok", "experiment": exp, "dataset": ds, "algo": algo,
           "algo_hash": ahash, "seed": seed, "data_key": "d1", "protocol_key": "p1", **fields}
    Store(root, RunKey(exp, ds, algo, ahash, "cv2", seed, "setup1")).put(rec, None)


def _varied(root):
    """Records whose fields differ in type and presence from one record to the next."""
    _put(root, fold=0, metrics={"error": 0.25, "rmse": float("nan")}, model_bytes=10, warmup=True,
         algo_config={"name": "algo", "estimator": {"t": 1}}, extra={"k": 3, "lst": [1, 2]}, train_size=None)
    _put(root, fold=1, metrics={"error": 0.5}, model_bytes=None, warmup=False,
         algo_config={"name": "algo", "estimator": {"t": 1}}, extra={"k": 2.5}, train_size=None, error="x")
    _put(root, algo="other", ahash="def456", fold=0, metrics={"error": 0.1, "rmse": 0.2},
         algo_config={"name": "other"}, status="failed", note=["a", 1, None])
    _put(root, exp="exp2", fold=0, metrics={"error": 1.0}, seed=3)


def _same(a: pd.DataFrame, b: pd.DataFrame):
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert list(a.columns) == list(b.columns) and (a.dtypes == b.dtypes).all()
    for c in a.columns:
        x, y = a[c].tolist(), b[c].tolist()
        assert [type(v) for v in x] == [type(v) for v in y], c
        assert all(u == v or (isinstance(u, float) and math.isnan(u) and math.isnan(v)) for u, v in zip(x, y)), c


@pytest.fixture
def settled(monkeypatch):
    """Trust folders at once (the index normally waits 2 s after a folder last changed)."""
    monkeypatch.setattr(S, "_INDEX_SETTLE_S", -1.0)


def test_indexed_frame_equals_the_json_records(tmp_path, settled):
    _varied(tmp_path)
    ref = load(tmp_path, use_index=False)
    _same(ref, load(tmp_path))                       # builds the index
    assert (tmp_path / S.INDEX_NAME).exists()
    _same(ref, load(tmp_path))                       # read from it
    for kw in ({"experiment": "exp"}, {"algo": "other"}, {"experiment": "exp", "dataset": "ds", "algo": "algo"},
               {"status": "failed"}, {"seed": 3}, {"algo": "none"}):
        _same(load(tmp_path, use_index=False, **kw), load(tmp_path, **kw))


def test_the_index_is_read_not_the_records(tmp_path, settled, monkeypatch):
    _varied(tmp_path)
    ref = load(tmp_path)
    monkeypatch.setattr(S, "read_record", lambda *a, **k: pytest.fail("a record file was read"))
    _same(ref, load(tmp_path))


def test_added_replaced_and_removed_records_are_seen(tmp_path, settled):
    _varied(tmp_path)
    load(tmp_path)
    _put(tmp_path, fold=2, metrics={"error": 0.75})                       # added to an indexed folder
    _put(tmp_path, fold=0, metrics={"error": 0.0}, status="ok")           # replaced
    os.unlink(Store(tmp_path, RunKey("exp", "ds", "other", "def456", "cv2", 0, "setup1")).record_path(0, 0))
    _put(tmp_path, ds="ds2", fold=0, metrics={"error": 0.3})              # a new folder
    ref = load(tmp_path, use_index=False)
    _same(ref, load(tmp_path))
    mine = ref[(ref["experiment"] == "exp") & (ref["dataset"] == "ds")]
    assert sorted(mine["fold"]) == [0, 1, 2] and "other" not in set(ref["algo"])
    assert mine.loc[mine["fold"] == 0, "metrics.error"].item() == 0.0


def test_a_folder_changed_just_now_is_read_again(tmp_path):
    _put(tmp_path, fold=0, metrics={"error": 0.5})
    load(tmp_path)
    table = S._read_index(tmp_path)
    assert table.column("_dir_mtime_ns").to_pylist() == [-1]  # not trusted yet: read from its files


def test_missing_or_damaged_index_is_rebuilt(tmp_path, settled):
    _varied(tmp_path)
    ref = load(tmp_path, use_index=False)
    load(tmp_path)
    (tmp_path / S.INDEX_NAME).write_bytes(b"not parquet")
    _same(ref, load(tmp_path))
    assert S._read_index(tmp_path) is not None
    assert S.rebuild_index(tmp_path) == len(ref)
    _same(ref, load(tmp_path))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # atomic writes leave nothing


def test_unreadable_record_still_raises_through_the_index(tmp_path, settled):
    _varied(tmp_path)
    load(tmp_path)
    path = Store(tmp_path, RunKey("exp", "ds", "algo", "abc123", "cv2", 0, "setup1")).record_path(0, 1)
    tmp = path.with_name("x.tmp")
    tmp.write_text('{"repeat": 0, "fold"')
    os.replace(tmp, path)
    with pytest.raises(S.RecordError, match="unreadable"):
        load(tmp_path)


def test_read_only_results_are_loaded_without_an_index(tmp_path, settled, monkeypatch):
    _varied(tmp_path)

    def refuse(path, data):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(S, "atomic_write_bytes", refuse)
    _same(load(tmp_path, use_index=False), load(tmp_path))
    assert not (tmp_path / S.INDEX_NAME).exists()


def test_the_index_holds_the_record_fields(tmp_path, settled):
    _varied(tmp_path)
    load(tmp_path)
    meta = json.loads(S._read_index(tmp_path).schema.metadata[b"bench_index"])
    assert meta["kinds"]["metrics.error"] == "float" and meta["kinds"]["algo_config"] == "json"
    assert meta["kinds"]["extra.k"] == "json"  # int in one record, float in another: kept as written


def test_folders_without_records_do_not_rewrite_the_index(tmp_path, settled):
    _varied(tmp_path)
    (tmp_path / ".runs" / "2026-01-01" / "12-00-00-__main__" / ".hydra").mkdir(parents=True)
    load(tmp_path)
    before = (tmp_path / S.INDEX_NAME).stat().st_mtime_ns
    load(tmp_path)
    assert (tmp_path / S.INDEX_NAME).stat().st_mtime_ns == before
