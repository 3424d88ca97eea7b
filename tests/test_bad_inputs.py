"""Careless or hostile input is refused with a message naming the problem and the fix (exit status 2,
nothing left behind), or handled as documented: files for ``bench data add``, command-line keys,
limits, read-only results and records edited with their checksum recomputed."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench import store as S
from bench.data import DataError
from bench.data.__main__ import main as data_main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def conf(tmp_path, monkeypatch):
    """A private conf/ (protocols, no datasets) and user cache."""
    c = tmp_path / "conf"
    (c / "data").mkdir(parents=True)
    shutil.copytree(ROOT / "conf" / "protocol", c / "protocol")
    monkeypatch.setenv("BENCH_CONF_DIR", str(c))
    monkeypatch.setenv("BENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BENCH_DATA_DIR", raising=False)
    return c


def rows(n=40) -> str:
    return "".join(f"{i % 3},{i % 5},{'xy'[i % 2]}\n" for i in range(n))


def _nothing_written(conf, tmp_path):
    assert list((conf / "data").iterdir()) == []
    files = tmp_path / "cache" / "files"
    assert not files.exists() or list(files.iterdir()) == []


def _add(args, capsys):
    rc = data_main(["add", *args, "--protocol", "cv2"])
    out = capsys.readouterr()
    return rc, out.out, out.err


# ------------------------------------------------------------------ bench data add
def test_a_csv_with_a_header_and_no_rows_is_refused(tmp_path, conf, capsys):
    p = tmp_path / "empty.csv"
    p.write_text("a,b,class\n")
    rc, _, err = _add([str(p)], capsys)
    assert rc == 2 and "holds no rows (only the header: a, b, class)" in err and "Traceback" not in err
    _nothing_written(conf, tmp_path)


def test_interpolation_syntax_in_column_and_file_names_is_kept_literally(tmp_path, conf, capsys):
    from bench.data.registry import load

    p = tmp_path / "dollar.csv"
    p.write_text("${nope},b,class\n" + rows())
    rc, out, err = _add([str(p)], capsys)
    assert rc == 0, err
    assert load("dollar", use_memo=False).feature_names == ["${nope}", "b"]
    q = tmp_path / "x${oc.env:HOME}.csv"
    q.write_text("a,b,class\n" + rows())
    rc, out, err = _add([str(q), "--name", "homeless"], capsys)
    assert rc == 0, err
    cfg = load("homeless", use_memo=False)
    assert cfg.meta["source"].endswith("x${oc.env:HOME}.csv") and os.environ["HOME"] not in cfg.meta["source"]
    assert data_main(["list"]) == 0 and "homeless" in capsys.readouterr().out


def test_one_broken_config_does_not_stop_list_and_check(tmp_path, conf, capsys):
    p = tmp_path / "good.csv"
    p.write_text("a,b,class\n" + rows())
    assert _add([str(p)], capsys)[0] == 0
    (conf / "data" / "bad.yaml").write_text("name: bad\nsources: [{file: '${nope}'}]\n")
    assert data_main(["list"]) == 1
    out = capsys.readouterr()
    assert "good" in out.out and "bad" in out.out and "conf/data/bad.yaml cannot be read" in out.err
    assert data_main(["check"]) == 1
    out = capsys.readouterr().out
    assert "good" in out and "ok" in out and "config error" in out and "Interpolation" in out


def test_duplicate_csv_column_names_are_refused(tmp_path, conf, capsys):
    p = tmp_path / "dup.csv"
    p.write_text("a,a,class\n" + rows())
    rc, _, err = _add([str(p)], capsys)
    assert rc == 2 and "names column(s) ['a'] more than once" in err
    _nothing_written(conf, tmp_path)


@pytest.mark.parametrize("token", ["inf", "-inf", "1e400"])
def test_infinite_values_are_refused_naming_column_and_row(tmp_path, conf, capsys, token):
    p = tmp_path / "inf.csv"
    p.write_text("a,b,class\n" + "".join(f"{i % 3},{token if i == 7 else i % 5},{'xy'[i % 2]}\n" for i in range(40)))
    rc, _, err = _add([str(p)], capsys)
    assert rc == 2 and "column 'b' holds 1 infinite value(s)" in err and "data row 8, line 9" in err
    _nothing_written(conf, tmp_path)


def test_a_utf16_file_gets_utf16_advice(tmp_path, conf, capsys):
    p = tmp_path / "wide.csv"
    p.write_bytes(("a,b,class\n" + rows()).encode("utf-16"))
    rc, _, err = _add([str(p)], capsys)
    assert rc == 2 and "utf-16 text, not UTF-8" in err and "iconv -f utf-16 -t utf-8" in err and "latin1" not in err
    q = tmp_path / "wide_nobom.csv"
    q.write_bytes(("a,b,class\n" + rows()).encode("utf-16-le"))
    rc, _, err = _add([str(q)], capsys)
    assert rc == 2 and "iconv -f utf-16le" in err
    _nothing_written(conf, tmp_path)


def test_the_file_is_copied_not_linked(tmp_path, conf, capsys):
    p = tmp_path / "mine.csv"
    p.write_text("a,b,class\n" + rows())
    assert _add([str(p)], capsys)[0] == 0
    copy = tmp_path / "cache" / "files" / "mine.csv"
    before = copy.read_bytes()
    with p.open("a") as fh:  # appending to the original leaves the pinned copy as it was
        fh.write("1,1,x\n")
    assert copy.read_bytes() == before and copy.stat().st_nlink == 1
    from bench.data.registry import load

    assert load("mine", use_memo=False).n_instances == 40


def test_a_config_that_appears_meanwhile_is_not_replaced(tmp_path, conf, capsys, monkeypatch):
    """Two `bench data add --name same` at once: the second to write finds the first's config and
    refuses (exit 2), leaving it as it is."""
    import bench.data.add as A

    p = tmp_path / "mine.csv"
    p.write_text("a,b,class\n" + rows())
    real = A._place

    def other_writer_first(*args):
        (conf / "data" / "same.yaml").write_text("the other writer's config\n")
        return real(*args)

    monkeypatch.setattr(A, "_place", other_writer_first)
    rc, _, err = _add([str(p), "--name", "same"], capsys)
    assert rc == 2 and "conf/data/same.yaml appeared while this ran" in err
    assert (conf / "data" / "same.yaml").read_text() == "the other writer's config\n"
    assert [f.name for f in (conf / "data").iterdir()] == ["same.yaml"]  # no temporary file left


def test_a_name_with_yaml_suffix_is_refused(tmp_path, conf, capsys):
    p = tmp_path / "mine.csv"
    p.write_text("a,b,class\n" + rows())
    rc, _, err = _add([str(p), "--name", "x.yaml"], capsys)
    assert rc == 2 and "without .yaml (--name x)" in err
    _nothing_written(conf, tmp_path)


def test_the_size_cap_of_data_add_is_its_own_option(tmp_path, conf, capsys):
    p = tmp_path / "mine.csv"
    p.write_text("a,b,class\n" + rows())
    rc, _, err = _add([str(p), "--max-gb", "0.0000001"], capsys)
    assert rc == 2 and "raise the cap with --max-gb <GiB>" in err and "data_max_gb" not in err
    _nothing_written(conf, tmp_path)


def test_a_parquet_file_is_checked_on_what_it_decodes_to(tmp_path):
    """Dictionary and run-length encoding make a column of one long repeated string tiny in the
    file, and in the sizes its metadata declares; decoded it is 30 MB."""
    from bench.data.readers import decompressed_size, read_table, size_limit

    p = tmp_path / "bomb.parquet"
    pd.DataFrame({"s": ["x" * 100] * 300_000, "class": ["a", "b"] * 150_000}).to_parquet(p)
    cap = 8 * 2**20
    assert p.stat().st_size < 2**20 and decompressed_size(p) < cap  # what the file declares passes
    with size_limit(cap), pytest.raises(DataError, match="once decoded"):
        read_table(p)
    with size_limit(64 * 2**20):
        assert read_table(p).frame.shape == (300_000, 2)


def test_drop_of_a_column_the_file_lacks_is_refused():
    from bench.data.registry import dataset_config, load

    cfg = {**dataset_config("zoo"), "drop": ["no_such_column"]}
    with pytest.raises(DataError, match=r"drop names columns the file does not have: \['no_such_column'\]"):
        load(cfg, use_memo=False)
    ds = load({**dataset_config("zoo"), "drop": ["hair"]}, use_memo=False)  # an existing column: fine
    assert "hair" not in ds.feature_names and ds.n_features == load("zoo").n_features - 1


def test_select_on_a_registered_dataset_keeps_the_shape_check():
    from bench.data.registry import dataset_config, load

    cfg = dataset_config("zoo")
    assert load({**cfg, "select": [0]}, use_memo=False).n_features == 1  # the README's +data.select=[0]
    wrong = {**cfg, "select": [0], "expected": {**cfg["expected"], "features": cfg["expected"]["features"] + 1}}
    with pytest.raises(DataError, match="different version"):
        load(wrong, use_memo=False)


# ------------------------------------------------------------------ the command line
@pytest.mark.parametrize("arg,words", [
    ("+protocol.n_split=5", "unknown key protocol.n_split in '+protocol.n_split=5' (did you mean protocol.n_splits?)"),
    ("+data.selct=[0]", "unknown key data.selct in '+data.selct=[0]' (did you mean data.select?)"),
    ("algo=../data/iris", "algo=../data/iris is a path"),
    ("data=/etc/passwd", "data=/etc/passwd is a path"),
])
def test_misspelled_nested_keys_and_paths_are_refused(arg, words, capsys):
    from bench.__main__ import _check_overrides

    with pytest.raises(SystemExit) as info:
        _check_overrides(["algo=nb", "data=sk_iris", arg])
    assert info.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize("argv,words", [
    (["compare", "--help"], "'compare' is a command of `bench`, not a setting of a job: run `bench compare ...`"),
    (["algo=nb", "report"], "'report' is a command of `bench`"),
    (["algo=nb", "data"], "'data' is a command of `bench`"),
    (["algo=nb", "irs"], "'irs' is not a setting: a job is set with key=value"),
])
def test_a_bare_word_is_refused_naming_the_command_or_the_form(argv, words, capsys):
    from bench.__main__ import _check_overrides

    with pytest.raises(SystemExit) as info:
        _check_overrides(argv)
    assert info.value.code == 2 and words in capsys.readouterr().err


def test_flag_values_are_no_bare_words(capsys):
    from bench.__main__ import _check_overrides

    _check_overrides(["--cfg", "job", "algo=nb", "--info", "searchpath", "-m", "data=sk_iris,iris", "~algo.estimator.x"])
    assert capsys.readouterr().err == ""


def test_known_nested_keys_pass(capsys):
    from bench.__main__ import _check_overrides

    _check_overrides(["+data.select=[0]", "+protocol.n_splits=5", "++data.whatever=1", "+algo.estimator.delay=1"])
    assert capsys.readouterr().err == ""


def test_an_absurdly_small_memory_limit_is_refused(tmp_path):
    from bench.resources import resolve_mem_limit
    from bench.runner import SetupError, run_job

    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    with pytest.raises(SetupError, match=r"mem_limit_gb=1e-09 is below 0.01 GiB"):
        run_job(algo, "sk_iris", {"name": "cv2", "kind": "kfold", "n_splits": 2}, 0, "e", str(tmp_path),
                progress=False, mem_limit_gb=1e-9)
    assert resolve_mem_limit(0.5) == 2**29 and resolve_mem_limit(0) is None
    assert not (tmp_path / "e").exists()


# ------------------------------------------------------------------ stored records
ALGO = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
CV4 = {"name": "cv4", "kind": "kfold", "n_splits": 4}


def _run(root, **kw):
    from bench.runner import run_job

    return run_job(ALGO, "sk_iris", CV4, 0, "e", str(root), progress=False, warmup=False, **kw)


def test_a_read_only_results_folder_serves_the_splits_it_holds(tmp_path, monkeypatch):
    import bench.runner as R

    first = _run(tmp_path)

    def read_only(directory, results_dir):
        raise R.SetupError(f"cannot write records under the results directory {results_dir} (Read-only file system)")

    def refuse(path, data):
        raise OSError(30, "Read-only file system", str(path))

    monkeypatch.setattr(R, "check_writable", read_only)
    monkeypatch.setattr(S, "atomic_write_bytes", refuse)
    again = _run(tmp_path)
    assert (again.reused, again.computed) == (4, 0)
    assert len(S.load(tmp_path)) == 4
    monkeypatch.undo()
    os.unlink(first.records[1]["path"])  # one split missing: it would have to be written
    monkeypatch.setattr(R, "check_writable", read_only)
    with pytest.raises(R.SetupError, match="1 of the job's 4 splits are not stored there"):
        _run(tmp_path)


def _rewrite(path: Path, edit) -> None:
    raw = json.loads(path.read_text())
    edit(raw)
    raw.pop("record_sha256")
    path.write_bytes(S.encode_record(raw))  # the checksum recomputed, as a careful forger would


def test_an_edited_log_loss_is_found_even_with_the_checksum_recomputed(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "_INDEX_SETTLE_S", -1.0)
    first = _run(tmp_path)
    p = Path(first.records[0]["path"])
    _rewrite(p, lambda r: r["metrics"].__setitem__("log_loss", r["metrics"]["log_loss"] / 2))
    with pytest.raises(S.RecordError, match="log_loss .* the predictions give"):
        S.load(tmp_path)
    again = _run(tmp_path)
    assert again.computed == 1 and again.reused == 3
    assert len(S.load(tmp_path)) == 4


def test_an_edited_time_with_the_checksum_recomputed_is_not_detectable(tmp_path, monkeypatch):
    """What the README says: times and memory are not determined by the predictions, so only the
    record's checksum covers them; an edit that recomputes it is accepted."""
    monkeypatch.setattr(S, "_INDEX_SETTLE_S", -1.0)
    first = _run(tmp_path)
    _rewrite(Path(first.records[0]["path"]), lambda r: r["times"].__setitem__("fit_cpu_s", 123.0))
    df = S.load(tmp_path)
    assert sorted(df["times.fit_cpu_s"])[-1] == 123.0
    assert _run(tmp_path).reused == 4
    assert np.isfinite(df["metrics.log_loss"]).all()
