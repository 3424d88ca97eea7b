"""Tamper-evident records (cases 1, 2 and 7): a record carries the checksum of its own
content beside its ``.npz``'s; reuse verifies both and recomputes the split on a mismatch, ``load``
refuses it; the index is a validated cache that notices records rewritten in place and rebuilds
itself when it lacks columns; lock files follow the umask."""

import json
import os
import stat
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bench import store as S
from bench.runner import run_job
from bench.store import RecordError, RunKey, Store, load

ALGO = {"name": "rec", "estimator": {"_target_": "tests.helpers.RecordingClassifier"}}
CV4 = {"name": "cv4", "kind": "kfold", "n_splits": 4, "n_repeats": 1}


def _run(root, **kw):
    return run_job(ALGO, "sk_iris", CV4, 0, "e", str(root), progress=False, warmup=False, **kw)


def _sed(path: Path, old: str, new: str) -> None:
    """What ``sed -i`` does: write a new file and rename it over the old one."""
    text = path.read_text()
    assert old in text
    tmp = path.with_name(path.name + ".sed")
    tmp.write_text(text.replace(old, new, 1))
    os.replace(tmp, path)


@pytest.fixture
def settled(monkeypatch):
    monkeypatch.setattr(S, "_INDEX_SETTLE_S", -1.0)


def test_every_record_carries_a_checksum_of_its_content(tmp_path):
    res = _run(tmp_path)
    for r in res.records:
        raw = json.loads(Path(r["path"]).read_text())
        assert raw["record_sha256"] == S.record_checksum(raw) and len(raw["record_sha256"]) == 64
        assert raw["predictions_sha256"]


def test_a_hand_edited_metric_is_named_and_recomputed_on_reuse_and_refused_by_load(tmp_path, caplog, settled):
    first = _run(tmp_path)
    load(tmp_path)  # an index that holds the original value
    path = Path(first.records[1]["path"])
    err = json.loads(path.read_text())["metrics"]["error"]
    _sed(path, f'"error": {err},', '"error": 0.9,')
    with pytest.raises(RecordError, match=rf"{path.name} does not match its checksum"):
        load(tmp_path)
    with pytest.raises(RecordError, match="does not match its checksum"):
        load(tmp_path, use_index=False)
    again = _run(tmp_path)
    assert (again.computed, again.reused) == (1, 3)
    assert "does not match its checksum" in caplog.text and path.name in caplog.text
    df = load(tmp_path)
    assert df["metrics.error"].tolist() == [r["metrics"]["error"] for r in first.records]


def test_metrics_that_disagree_with_the_predictions_are_recomputed(tmp_path, caplog):
    """Even a record re-signed after the edit (or a legacy one, without a checksum) is checked
    against its .npz: the error and RMSE are computed again from the stored probabilities."""
    first = _run(tmp_path)
    path = Path(first.records[0]["path"])
    rec = json.loads(path.read_text())
    rec["metrics"]["error"] = rec["metrics"]["error"] + 0.25
    rec["metrics"]["accuracy"] = 1.0 - rec["metrics"]["error"]
    path.write_bytes(S.encode_record(rec))
    assert S.read_record(path, strict=True)["metrics"]["error"] == rec["metrics"]["error"]
    again = _run(tmp_path)
    assert (again.computed, again.reused) == (1, 3)
    assert "disagrees with its predictions file" in caplog.text
    # sound records pass the same check
    assert all(S.metrics_problem(r) is None for r in again.records)


def test_legacy_records_without_a_checksum_stay_readable_and_reusable(tmp_path, settled):
    first = _run(tmp_path)
    for r in first.records:  # as written before record_sha256 existed
        p = Path(r["path"])
        raw = json.loads(p.read_text())
        raw.pop("record_sha256")
        p.write_text(json.dumps(raw, indent=1, sort_keys=True))
    df = load(tmp_path)
    assert len(df) == 4 and "record_sha256" not in df
    again = _run(tmp_path)
    assert (again.computed, again.reused) == (0, 4)
    assert not any("record_sha256" in json.loads(Path(r["path"]).read_text()) for r in first.records)  # not rewritten
    # a legacy record's metric edited by hand is still caught on reuse, through its .npz
    p = Path(first.records[2]["path"])
    raw = json.loads(p.read_text())
    raw["metrics"]["error"] = 0.9
    p.write_text(json.dumps(raw))
    assert _run(tmp_path).computed == 1


def test_a_truncated_npz_is_refused_by_load(tmp_path, settled):
    first = _run(tmp_path)
    npz = Path(first.records[0]["path"]).with_suffix(".npz")
    npz.write_bytes(npz.read_bytes()[:50])
    with pytest.raises(RecordError, match="corrupt or altered"):
        load(tmp_path)


def _put(root, fold, error):
    rec = {"repeat": 0, "fold": fold, "status": "ok", "experiment": "exp", "dataset": "ds", "algo": "a",
           "algo_hash": "h", "seed": 0, "data_key": "d", "protocol_key": "p", "metrics": {"error": error}}
    Store(root, RunKey("exp", "ds", "a", "h", "cv2", 0, "s")).put(rec, None)
    return Store(root, RunKey("exp", "ds", "a", "h", "cv2", 0, "s")).record_path(0, fold)


def test_a_record_rewritten_in_place_is_read_again(tmp_path, settled):
    path = _put(tmp_path, 0, 0.25)
    _put(tmp_path, 1, 0.5)
    assert load(tmp_path)["metrics.error"].tolist() == [0.25, 0.5]
    folder_mtime = path.parent.stat().st_mtime_ns
    rec = json.loads(path.read_text())
    rec["metrics"]["error"] = 0.125
    with open(path, "r+b") as fh:  # in place: no rename, the folder does not change
        fh.write(S.encode_record(rec))
        fh.truncate()
    assert path.parent.stat().st_mtime_ns == folder_mtime
    assert load(tmp_path)["metrics.error"].tolist() == [0.125, 0.5]
    assert Store(tmp_path, RunKey("exp", "ds", "a", "h", "cv2", 0, "s")).get(0, 0)["metrics"]["error"] == 0.125


def test_an_index_missing_a_column_is_rebuilt_by_itself(tmp_path, settled):
    _put(tmp_path, 0, 0.25)
    _put(tmp_path, 1, 0.5)
    ref = load(tmp_path, use_index=False)
    load(tmp_path)
    idx = tmp_path / S.INDEX_NAME
    table = pq.read_table(idx)
    meta = table.schema.metadata
    cut = table.drop_columns(["c:metrics.error"]).replace_schema_metadata(meta)
    pq.write_table(cut, idx)
    df = load(tmp_path)  # used to raise KeyError 'Field "c:metrics.error" does not exist'
    assert df["metrics.error"].tolist() == ref["metrics.error"].tolist()
    assert "c:metrics.error" in pq.read_table(idx).column_names
    # rows of records that are gone, and records the index lacks, are noticed too (stale / partial)
    os.unlink(_put(tmp_path, 1, 0.5))
    assert load(tmp_path)["fold"].tolist() == [0]
    pq.write_table(pa.table({"_dir": pa.array([], pa.string())}).replace_schema_metadata(meta), idx)
    assert load(tmp_path)["fold"].tolist() == [0]


def test_lock_files_follow_the_umask(tmp_path):
    st = Store(tmp_path, RunKey("exp", "ds", "a", "h", "cv2", 0, "s"))
    old = os.umask(0o027)
    try:
        with st.claim(0, 0, wait=True) as held:
            assert held
            lock = st.dir / ".r00-f00.lock"
            mode = stat.S_IMODE(lock.stat().st_mode)
    finally:
        os.umask(old)
    assert mode == 0o640, oct(mode)


def test_record_checksum_is_stable_through_json():
    rec = {"repeat": 0, "fold": 1, "x": np.float32(0.1), "n": np.int64(3), "t": (1, 2), "extra": {10: 1, 2: 2},
           "nan": float("nan")}
    blob = S.encode_record(rec)
    back = json.loads(blob)
    assert S.checksum_problem({**back, "path": "p"}) is None


def test_stored_predictions_give_the_records_metrics_exactly(tmp_path):
    """The .npz holds the float64 probabilities the metrics were computed from: the error and RMSE
    recomputed from it equal the record's exactly, and so does the Kohavi-Wolpert loss over the
    splits. A 10-tree forest gives many near-ties (sums of tree votes) that float32 would merge."""
    import numpy as np

    from bench.runner import run_job
    from bench.stats.biasvar import bias_variance_table
    from bench.store import load, load_predictions
    from bench import metrics as M

    algo = {"name": "rf10", "estimator": {"_target_": "algorithms.baselines.RandomForest", "n_estimators": 10}}
    cv = {"name": "cv5x2", "kind": "kfold", "n_splits": 2, "n_repeats": 5}
    run_job(algo, "sk_wine", cv, 0, "e", str(tmp_path), progress=False)
    df = load(tmp_path, experiment="e")
    assert len(df) == 10 and (df["status"] == "ok").all()
    for _, r in df.iterrows():
        z = load_predictions(r.to_dict())
        assert z["proba"].dtype == np.float64
        assert M.error_rate(z["y_true"], M.predict_from_proba(z["proba"])) == r["metrics.error"]
        assert M.rmse(z["y_true"], z["proba"]) == r["metrics.rmse"]
    bv = bias_variance_table(df)
    assert abs(float(bv["loss"].iloc[0]) - df["metrics.error"].mean()) < 1e-12
