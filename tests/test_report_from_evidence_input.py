"""``python -m bench.report --from-evidence``: a changed evidence file is named before anything is
rebuilt (exit 1, no traceback, no temporary folder left); ``--out`` takes a reports folder with its
evidence, or a new or empty folder to fill from ``reports/evidence``, and refuses anything else."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import pytest

from bench.report.__main__ import _evidence_source, main

ROOT = Path(__file__).resolve().parents[1]


def test_a_changed_evidence_file_is_named_before_the_rebuild(tmp_path, monkeypatch, capsys):
    reports = tmp_path / "reports"
    shutil.copytree(ROOT / "reports", reports)
    victim = sorted((reports / "evidence").glob("*.records.parquet"))[0]
    with victim.open("ab") as fh:
        fh.write(b"x")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    assert main(["--from-evidence", "--check", "--out", str(reports)]) == 1
    err = capsys.readouterr().err
    assert f"{victim} has sha256" in err and "the file was changed or is corrupt" in err and "Traceback" not in err
    assert list(scratch.iterdir()) == []  # no temporary copy was made
    (reports / "evidence" / "MANIFEST.json").unlink()
    assert main(["--from-evidence", "--out", str(reports)]) == 1
    assert "MANIFEST.json is missing" in capsys.readouterr().err


def test_out_without_evidence_is_refused_or_filled(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    full = tmp_path / "full"
    full.mkdir()
    (full / "note.txt").write_text("mine")
    assert main(["--from-evidence", "--out", str(full)]) == 2
    assert "holds no evidence" in capsys.readouterr().err and (full / "note.txt").read_text() == "mine"
    assert main(["--from-evidence", "--check", "--out", str(tmp_path / "missing")]) == 2
    assert "--check compares a reports folder with its own evidence" in capsys.readouterr().err
    assert not (tmp_path / "missing").exists()
    ns = argparse.Namespace(out=str(tmp_path / "new"), check=False)
    assert _evidence_source(ns) == ("reports", str(tmp_path / "new"), None)  # filled from reports/evidence
    (tmp_path / "empty").mkdir()
    ns = argparse.Namespace(out=str(tmp_path / "empty"), check=False)
    assert _evidence_source(ns) == ("reports", str(tmp_path / "empty"), None)
    ns = argparse.Namespace(out="reports", check=True)
    assert _evidence_source(ns) == ("reports", None, None)
