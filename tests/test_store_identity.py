"""Record identity and integrity: a changed data or protocol setting gets new records, a corrupt
record or predictions file is reported by name and recomputed, legacy records stay readable."""

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from bench.data import DataError
from bench.data.readers import read_arff
from bench.runner import SetupError, run_job
from bench.store import RecordError, load, load_predictions, protocol_identity

ALGO = {"name": "rec", "estimator": {"_target_": "tests.helpers.RecordingClassifier"}}
CV4 = {"name": "cv4", "kind": "kfold", "n_splits": 4, "n_repeats": 1}


def _run(root, data="sk_iris", protocol=CV4, **kw):
    return run_job(ALGO, data, protocol, 0, "e", str(root), progress=False, warmup=False, **kw)


def test_changed_protocol_setting_computes_new_splits_in_its_own_folder(tmp_path):
    first = _run(tmp_path)
    second = _run(tmp_path, protocol={**CV4, "n_splits": 2})  # same name, other folds
    assert (second.computed, second.reused) == (2, 0)
    assert first.directory != second.directory
    assert Path(first.directory).name.startswith("cv4-") and Path(first.directory).name.endswith("-s0")
    assert len(list(Path(first.directory).glob("*.json"))) == 4  # untouched
    again = _run(tmp_path)
    assert (again.computed, again.reused) == (0, 4)
    df = load(tmp_path)
    assert len(df) == 6 and df.groupby("protocol_key").size().sort_values().tolist() == [2, 4]
    assert df["data_key"].nunique() == 1 and not df["legacy_layout"].any()


def test_changed_data_setting_computes_new_splits(tmp_path):
    _run(tmp_path)
    from bench.data import dataset_config

    cfg = dataset_config("sk_iris")
    cfg["select"] = [0]
    cfg["expected"] = {**cfg["expected"], "features": 1}
    res = _run(tmp_path, data=cfg)
    assert (res.computed, res.reused) == (4, 0)
    df = load(tmp_path)
    assert df["data_key"].nunique() == 2
    assert set(df["n_features"]) == {1, 4}
    assert {tuple(d["transforms"].get("select", [])) for d in df["data_identity"]} == {(), (0,)}


def test_protocol_identity_fills_defaults_and_ignores_the_name():
    a = protocol_identity({"name": "cv10", "kind": "kfold", "n_splits": 10})
    b = protocol_identity({"name": "other", "kind": "kfold", "n_splits": 10, "n_repeats": 1})
    assert a == b and a["splitter"]
    assert protocol_identity({"kind": "kfold", "n_splits": 5}) != a


def test_truncated_predictions_are_reported_and_recomputed(tmp_path, caplog):
    first = _run(tmp_path)
    npz = Path(first.records[1]["path"]).with_suffix(".npz")
    npz.write_bytes(npz.read_bytes()[:40])
    with pytest.raises(RecordError, match=str(npz)):
        load_predictions(first.records[1])
    with caplog.at_level("WARNING", logger="bench"):
        second = _run(tmp_path)
    assert (second.computed, second.reused) == (1, 3)
    assert str(npz) in caplog.text
    assert load_predictions(second.records[1])["proba"].shape[0] == first.records[1]["n_test"]


def test_corrupt_record_json_is_named_recomputed_and_load_raises(tmp_path, caplog):
    first = _run(tmp_path)
    path = Path(first.records[0]["path"])
    path.write_text(path.read_text()[:50])
    with pytest.raises(RecordError, match=str(path)):
        load(tmp_path)
    with caplog.at_level("WARNING", logger="bench"):
        second = _run(tmp_path)
    assert (second.computed, second.reused) == (1, 3)
    assert str(path) in caplog.text
    assert len(load(tmp_path)) == 4


def test_every_record_carries_its_predictions_checksum(tmp_path):
    import hashlib

    res = _run(tmp_path)
    for r in res.records:
        npz = Path(r["path"]).with_suffix(".npz")
        assert r["predictions_sha256"] == hashlib.sha256(npz.read_bytes()).hexdigest()


def test_records_are_group_readable_under_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        res = _run(tmp_path)
    finally:
        os.umask(old)
    p = Path(res.records[0]["path"])
    for f in (p, p.with_suffix(".npz")):
        mode = stat.S_IMODE(f.stat().st_mode)
        assert mode == 0o640, oct(mode)


def _make_legacy(tmp_path, res):
    """Move a job's records into the earlier layout (<protocol>-s<seed>, no identity fields)."""
    new_dir = Path(res.directory)
    legacy_dir = new_dir.parent / f"{res.key.protocol}-s{res.key.seed}"
    legacy_dir.mkdir()
    for f in new_dir.glob("r*"):
        if f.suffix == ".json":
            rec = json.loads(f.read_text())
            for k in ("data_key", "data_identity", "protocol_key", "protocol_identity", "predictions_sha256",
                      "record_sha256"):  # fields the earlier layout's records did not have
                rec.pop(k, None)
            rec["record_version"] = 1
            (legacy_dir / f.name).write_text(json.dumps(rec))
        else:
            shutil.copy(f, legacy_dir / f.name)
    shutil.rmtree(new_dir)
    return legacy_dir


def test_legacy_records_are_readable_and_migrated_when_they_match(tmp_path):
    res = _run(tmp_path)
    legacy_dir = _make_legacy(tmp_path, res)
    df = load(tmp_path)
    assert len(df) == 4 and df["legacy_layout"].all() and df["data_key"].isna().all()
    assert df["protocol_key"].nunique() == 1  # computed from the stored protocol_config
    again = _run(tmp_path)
    assert (again.computed, again.reused) == (0, 4)
    assert not list(legacy_dir.glob("*.json"))  # moved, not copied: each split is listed once
    df = load(tmp_path)
    assert len(df) == 4 and not df["legacy_layout"].any()
    assert all(load_predictions(r)["proba"].shape[1] == 3 for r in again.records)


def test_legacy_records_of_another_setting_are_not_reused(tmp_path):
    res = _run(tmp_path)
    _make_legacy(tmp_path, res)
    other = _run(tmp_path, protocol={**CV4, "n_repeats": 2})  # same folder name in the old layout
    assert other.computed == 8 and other.reused == 0
    from bench.data import dataset_config

    cfg = dataset_config("sk_iris")
    cfg["select"] = [0, 1]
    cfg["expected"] = {**cfg["expected"], "features": 2}
    assert _run(tmp_path, data=cfg).computed == 4  # overridden data: a legacy record cannot vouch for it


def test_seed_and_protocol_errors_name_the_value_and_fix(tmp_path):
    with pytest.raises(SetupError, match=r"seed=-1 .*integers >= 0"):
        run_job(ALGO, "sk_iris", CV4, -1, "e", str(tmp_path), progress=False)
    with pytest.raises(SetupError, match=r"protocol.n_repeats=0 .*set protocol.n_repeats"):
        _run(tmp_path, protocol={**CV4, "n_repeats": 0})
    with pytest.raises(SetupError, match=r"protocol.n_splits=1"):
        _run(tmp_path, protocol={**CV4, "n_splits": 1})


def test_single_class_dataset_is_a_clear_error_without_fold_advice(tmp_path):
    from bench.data import dataset_config

    cfg = dataset_config("sk_iris")
    cfg["class_groups"] = {"all": ["setosa", "versicolor", "virginica"]}
    cfg["expected"] = {**cfg["expected"], "classes": 1}
    with pytest.raises(SetupError) as exc:
        _run(tmp_path, data=cfg)
    assert "single class" in str(exc.value) and "class_groups" in str(exc.value)
    assert "fewer folds" not in str(exc.value)


def test_unwritable_results_directory_is_a_clear_error(tmp_path, monkeypatch):
    def deny(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", deny)
    with pytest.raises(SetupError, match=r"cannot write records under the results directory .*results_dir=<path>"):
        _run(tmp_path / "res")


def test_arff_string_attribute_is_a_clear_error_unless_declared(tmp_path, monkeypatch):
    from bench.data import registry

    arff = tmp_path / "data" / "texty.arff"
    arff.parent.mkdir()
    arff.write_text("@relation t\n@attribute note string\n@attribute x numeric\n@attribute class {a,b}\n@data\n"
                    "'hello world',1,a\n'bye',2,b\n'hello world',3,a\n'bye',4,b\n")
    assert read_arff(arff).string_columns == ("note",)
    monkeypatch.setenv("BENCH_DATA_DIR", str(arff.parent))
    cfg = {"name": "texty", "sources": [{"file": "texty.arff"}]}
    with pytest.raises(DataError, match=r"'note'.*string/date attributes.*drop: \[note\].*nominal: \[note\]"):
        registry.load(cfg, use_memo=False)
    assert registry.load({**cfg, "drop": ["note"]}, use_memo=False).n_features == 1
    ds = registry.load({**cfg, "nominal": ["note"]}, use_memo=False)
    assert ds.categorical.tolist() == [True, False]


def test_offline_openml_is_detected_fast_and_names_the_stand_in(monkeypatch):
    import time

    from bench.data import registry

    monkeypatch.delenv("BENCH_OPENML_OFFLINE", raising=False)
    monkeypatch.setattr(registry, "openml_reachable", lambda timeout=2.0: False)
    t0 = time.perf_counter()
    with pytest.raises(DataError) as exc:
        registry.load({"name": "covtype", "sources": [{"openml": 1596}], "stand_in": "covtype_head20k"},
                      use_memo=False)
    assert time.perf_counter() - t0 < 2
    msg = str(exc.value)
    assert "cannot be reached" in msg and "data=covtype_head20k" in msg and "BENCH_OPENML_OFFLINE" in msg
    assert registry.stand_ins(registry.dataset_config("covtype")) == ["covtype_head20k"]


def test_clip_cuts_at_a_word_boundary():
    from bench.data.registry import _clip

    out = _clip("HTTPSConnectionPool(host='www.openml.org', port=443): Max retries exceeded " * 5, 60)
    assert out.endswith(" ...") and len(out) <= 64
    assert out[:-4].split()[-1] in "HTTPSConnectionPool(host='www.openml.org', port=443): Max retries exceeded"
