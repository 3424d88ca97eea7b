"""A report build never replaces the shipped evidence with a smaller or different run unless the
user names the experiment (``--replace-evidence``): the README's sequence ``make paper-tables
SCALE=smoke`` then ``python -m bench.report --paper ande_sr`` leaves every committed file as it was."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")
            and not p.relative_to(folder).parts[0].startswith("scale-")}


def _run(*args, results: Path, timeout=900):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(results)}
    env.pop("SCALE", None)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def smoke_results(tmp_path_factory):
    """The A2DE paper's experiment at smoke scale, as ``make paper-tables SCALE=smoke`` stores it."""
    res = tmp_path_factory.mktemp("guard") / "results"
    proc = _run("-m", "bench.experiments", "run", "ande_sr", "--scale", "smoke", "--jobs", "1", results=res)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return res


@pytest.fixture()
def reports(tmp_path):
    """A copy of the committed reports."""
    out = tmp_path / "reports"
    shutil.copytree(ROOT / "reports", out, ignore=shutil.ignore_patterns("scale-*", ".*"))
    return out


def test_the_readme_sequence_leaves_the_committed_reports_untouched(smoke_results, reports):
    before = _snapshot(reports)
    proc = _run("-m", "bench.report", "--out", str(reports), "--paper", "ande_sr", results=smoke_results)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"writes to {reports}/scale-smoke/" in proc.stdout
    assert "--replace-evidence ande_sr" in proc.stdout
    assert _snapshot(reports) == before
    beside = reports / "scale-smoke"
    assert json.loads((beside / "evidence" / "MANIFEST.json").read_text())["experiments"]["ande_sr"]["scale"] == "smoke"
    # a --paper build exports only that paper's experiments
    assert sorted(json.loads((beside / "evidence" / "MANIFEST.json").read_text())["experiments"]) == ["ande_sr"]
    # --force-scale is about the index's scale; it never replaces shipped evidence
    proc = _run("-m", "bench.report", "--out", str(reports), "--paper", "ande_sr", "--force-scale",
                results=smoke_results)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert _snapshot(reports) == before


def _pretend_shipped_at_smoke(reports: Path, records: int) -> None:
    """Make the shipped ande_sr evidence claim a smoke run of ``records`` records (same scale and
    protocol as the stored one), so that only the record count and datasets tell them apart."""
    man_path = reports / "evidence" / "MANIFEST.json"
    man = json.loads(man_path.read_text())
    man["experiments"]["ande_sr"].update(scale="smoke", protocol="cv5x2", records=records)
    man_path.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")


def test_a_same_scale_smaller_run_is_refused_unless_named(smoke_results, reports):
    _pretend_shipped_at_smoke(reports, records=10**6)
    before = _snapshot(reports)
    proc = _run("-m", "bench.report", "--out", str(reports), "--paper", "ande_sr", results=smoke_results)
    assert proc.returncode == 2, proc.stdout[-2000:]
    err = proc.stderr
    assert "ande_sr: fewer records" in err and "--replace-evidence ande_sr" in err and "Nothing was written" in err
    assert "Traceback" not in err
    assert _snapshot(reports) == before and not (reports / "scale-smoke").exists()
    proc = _run("-m", "bench.report", "--out", str(reports), "--paper", "ande_sr", "--replace-evidence", "ande_sr",
                results=smoke_results)
    assert proc.returncode == 0, proc.stderr[-3000:]
    after = json.loads((reports / "evidence" / "MANIFEST.json").read_text())["experiments"]
    assert after["ande_sr"]["records"] == 550 and after["eskdb_main"]["scale"] == "full"   # others untouched


def test_fresh_would_drop_the_evidence_of_what_is_not_stored(smoke_results, reports):
    before = _snapshot(reports)
    proc = _run("-m", "bench.report", "--out", str(reports), "--fresh", results=smoke_results)
    assert proc.returncode == 2, proc.stdout[-2000:]
    assert "eskdb_main: --fresh would drop its evidence" in proc.stderr
    assert _snapshot(reports) == before


def test_decide_by_kind_of_shortfall(tmp_path):
    from bench.report.guard import Shortfall, decide

    smoke = Shortfall("a", "s", "f", ("a smaller scale (smoke < full)", "fewer records (1 < 2)"), "smoke")
    fewer = Shortfall("b", "s", "f", ("fewer records (1 < 2)",), "full")
    assert decide(tmp_path, [], None) == (tmp_path, None)
    where, note = decide(tmp_path, [smoke], None)
    assert where == tmp_path / "scale-smoke" and "--replace-evidence a" in note
    where, note = decide(tmp_path, [smoke, fewer], None)
    assert where is None and "--replace-evidence b" in note
    assert decide(tmp_path, [smoke, fewer], ["a", "b"]) == (tmp_path, None)
    where, _ = decide(tmp_path, [smoke, fewer], ["b"])
    assert where == tmp_path / "scale-smoke"
