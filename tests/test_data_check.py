"""``python -m bench.data check`` (``bench data check``): every dataset file located, checked against
its sha256 pin and built; a shipped file (datasets/MANIFEST.csv) that is not ok fails the command."""

import gzip
import shutil

import pytest

from bench.data import check
from bench.data.cache import shipped_dir


def _run(names=None):
    lines = []
    status = check.run(names, out=lines.append)
    return status, {ln.split()[0]: ln for ln in lines if ln and not ln.startswith(("FAILED", "\n"))}, lines


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A checkout whose datasets/ lost every file but iris (intact) and zoo (altered)."""
    import bench.data.cache as cache

    d = tmp_path / "datasets"
    d.mkdir()
    shutil.copy(shipped_dir() / "MANIFEST.csv", d)
    shutil.copy(shipped_dir() / "iris.csv.gz", d)
    rows = gzip.decompress((shipped_dir() / "zoo.csv.gz").read_bytes())
    (d / "zoo.csv.gz").write_bytes(gzip.compress(rows.replace(b"\n", b"\r\n", 1)))
    monkeypatch.setattr(cache, "shipped_dir", lambda: d)
    monkeypatch.delenv("BENCH_DATASETS_DIR", raising=False)
    monkeypatch.delenv("BENCH_DATA_DIR", raising=False)
    return d


def test_named_shipped_datasets_are_ok():
    status, lines, _ = _run(["iris", "abalone", "abalone_rings", "sk_iris"])
    assert status == 0
    assert lines["iris"].split()[1] == "ok" and "(150 x 4, 3 classes)" in lines["iris"]
    assert "28 classes" in lines["abalone_rings"] and "3 classes" in lines["abalone"]
    assert "no file source (sklearn)" in lines["sk_iris"]


def test_every_status_and_the_exit_code(checkout):
    status, lines, out = _run()
    assert status == 1
    assert "  ok  " in lines["iris"] and str(checkout / "iris.csv.gz") in lines["iris"]
    assert "checksum mismatch" in lines["zoo"] and "conf/data/zoo.yaml pins" in lines["zoo"]
    # a shipped file absent here: missing, and the way back is git, not a download
    line = lines["covtype_head20k"]
    assert "missing" in line and "git checkout -- datasets/covtype_head20k.csv.gz" in line
    assert "BENCH_DATA_DIR" in line and "bench.data fetch" not in line     # no OpenML source: no fetch
    assert "git checkout -- datasets/letter.csv.gz" in lines["letter"] and "bench.data fetch letter" in lines["letter"]
    # not shipped: missing is allowed and said so
    assert "not shipped in datasets/ (optional here)" in lines["covtype"]
    assert out[-1].startswith("FAILED: ")
    failed = out[-1].split(": ", 1)[1].split(", ")
    assert {"zoo", "covtype_head20k", "letter"} <= set(failed) and not {"iris", "covtype", "miniboone"} & set(failed)
    # named: only those count; a named dataset that is missing fails
    assert _run(["iris"])[0] == 0
    assert _run(["covtype"])[0] == 1


def test_parse_error(tmp_path, monkeypatch):
    conf = tmp_path / "conf" / "data"
    conf.mkdir(parents=True)
    (conf / "broken.yaml").write_text("name: broken\nsources:\n- file: broken.csv.gz\n")
    (conf / "fine.yaml").write_text("name: fine\nsources:\n- file: fine.csv\nexpected:\n  rows: 2\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "broken.csv.gz").write_bytes(gzip.compress(b"a,class\n1,x\n")[:-6])   # truncated gzip
    (data / "fine.csv").write_text("a,class\n1,x\n2,y\n")
    monkeypatch.setenv("BENCH_CONF_DIR", str(tmp_path / "conf"))
    monkeypatch.setenv("BENCH_DATA_DIR", str(data))
    status, lines, _ = _run(["broken", "fine"])
    assert status == 1
    assert "parse error" in lines["broken"] and "broken.csv.gz" in lines["broken"]
    assert "  ok  " in lines["fine"] and "no sha256 pin" in lines["fine"]


def test_cli_check_is_a_bench_command(tmp_path):
    import subprocess
    import sys

    from bench.cli import usage

    assert "check" in usage()
    out = subprocess.run([sys.executable, "-m", "bench.cli", "data", "check", "iris", "nope_nope"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "unknown dataset 'nope_nope'" in out.stderr
    out = subprocess.run([sys.executable, "-m", "bench.cli", "data", "check", "iris", "zoo"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("  ok  ") == 2 and "2 datasets checked: 2 ok" in out.stdout
