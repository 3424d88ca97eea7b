"""The evidence shipped with the reports (bench/report/evidence.py): the records round-trip through
Parquet, bias and variance come from the stored predictions, files are checked against their
manifest, and a rebuild from the evidence alone is byte-identical to the build from the records."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from bench.paths import shipped_reports_dir
from bench.report import build
from bench.report import evidence as E
from bench.report.context import ReportContext
from bench.report.synthetic import write_fake_run
from bench.stats.biasvar import bias_variance_table
from bench.store import load


def _runs(res):
    for ds in ("iris", "zoo"):
        for algo in ("rf10", "a2de_sw"):
            write_fake_run(res, "ande_sr", ds, algo, n=40, protocol="cv5x2", quality=0.8,
                           fail_splits=[(1, 0)] if (ds, algo) == ("zoo", "rf10") else ())
    write_fake_run(res, "smoke", "sk_iris", "gnb", n=30, protocol="cv2", quality=0.8)


def test_records_round_trip_through_parquet(tmp_path):
    res = tmp_path / "res"
    _runs(res)
    files = E.export_experiment(res, "ande_sr", tmp_path / "ev", ReportContext(res).experiment("ande_sr"))
    assert [f.name for f in files] == ["ande_sr.records.parquet", "ande_sr.biasvar.parquet"]
    E.write_manifest(tmp_path / "ev")
    got = E.Evidence(tmp_path / "ev").records("ande_sr")
    # ``config`` is derived from the other columns on reading (bench.store.config_column): not exported
    want = load(res, experiment="ande_sr").sort_values("path", kind="stable").reset_index(drop=True)
    assert "config" in want.columns
    want = want.drop(columns=["config"])
    assert list(got.columns) == list(want.columns) and len(got) == len(want) == 4 * 10
    for c in want.columns:
        if c == "path":
            assert all(str(w).endswith(g) and not g.startswith("/") for g, w in zip(got[c], want[c]))
            continue
        for g, w in zip(got[c], want[c]):      # dicts back as dicts, None as None, numbers exact
            assert g == w or (pd.isna(g) and pd.isna(w)), (c, g, w)
    assert got["algo_config"].map(type).eq(dict).all()


def test_bias_variance_facts_equal_the_records(tmp_path):
    res = tmp_path / "res"
    _runs(res)
    E.export_experiment(res, "ande_sr", tmp_path / "ev", ReportContext(res).experiment("ande_sr"))
    E.write_manifest(tmp_path / "ev")
    view = ReportContext(res).experiment("ande_sr")
    want = bias_variance_table(view.records)
    ctx = ReportContext(tmp_path / "nothing", evidence=E.Evidence(tmp_path / "ev"))
    got = ctx.bias_variance("ande_sr", ctx.experiment("ande_sr").records)
    assert len(got) == 4
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)
    # only the groups of the records asked about
    part = ctx.experiment("ande_sr").records
    part = part[part["dataset"] == "iris"]
    assert set(ctx.bias_variance("ande_sr", part)["dataset"]) == {"iris"}


def test_a_changed_evidence_file_is_refused(tmp_path):
    res = tmp_path / "res"
    _runs(res)
    E.export_experiment(res, "smoke", tmp_path / "ev", ReportContext(res).experiment("smoke"))
    E.write_manifest(tmp_path / "ev")
    path = tmp_path / "ev" / "smoke.records.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(E.EvidenceError, match="smoke.records.parquet has sha256"):
        E.Evidence(tmp_path / "ev").records("smoke")
    (tmp_path / "ev" / "MANIFEST.json").unlink()
    with pytest.raises(E.EvidenceError, match="MANIFEST.json is missing"):
        E.Evidence(tmp_path / "ev").records("smoke")


def test_the_rebuild_from_evidence_is_byte_identical(tmp_path):
    res, out = tmp_path / "res", tmp_path / "reports"
    _runs(res)
    build.build_reports(str(res), str(out), scale="smoke")
    # a second build: the papers with nothing stored are now kept from the first (the steady state
    # of a committed reports/, which always has an earlier build)
    build.build_reports(str(res), str(out), scale="smoke")
    man = json.loads((out / "evidence" / "MANIFEST.json").read_text())
    assert man["experiments"]["ande_sr"]["records"] == 40 and "Kohavi-Wolpert" in man["experiments"]["ande_sr"]["biasvar"]
    assert man["experiments"]["smoke"]["records"] == 2

    shutil.rmtree(res)                                   # no records anywhere now
    into, rebuilt, kept = build.rebuild_from_evidence(out, tmp_path / "again", scale="smoke")
    assert rebuilt == ["ande_sr", "smoke"]
    assert E.compare_trees(out, into) == []
    # a changed table is found
    (into / "ande_sr" / "table4_wdl_01loss_all.md").write_text("tampered\n")
    assert E.compare_trees(out, into) == ["differs: ande_sr/table4_wdl_01loss_all.md"]


def test_compare_trees_masks_only_build_time_lines(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "index.md").write_text("Generated 2026-11-25 14:30:30 on vm (AMD EPYC, 2 CPUs), bench 0.1.0 at commit "
                                "cee955d553f7dd7d0e421e20cb96bb62e6e9166b-dirty, requested scale medium.\n"
                                "- built: 2026-11-25 12:45:07 on vm at commit cc0bc258c6b8, from 5 stored records\n")
    (b / "index.md").write_text("Generated 2026-11-26 09:00:00 on ci (x, 2 CPUs), bench 0.1.0 at commit "
                                "0123456789ab, requested scale medium.\n"
                                "- built: 2026-11-26 09:00:01 on ci at commit 0123456789ab, from 5 stored records\n")
    assert E.compare_trees(a, b) == []
    (b / "index.md").write_text((b / "index.md").read_text().replace("from 5", "from 6"))
    assert E.compare_trees(a, b) == ["differs: index.md"]


def test_concurrent_builds_give_the_single_build(tmp_path):
    """Two report builds started together into one folder: the second waits for the first (a lock
    per output folder), and the result is the single build's, file for file."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    res = tmp_path / "res"
    _runs(res)
    single = tmp_path / "single"
    build.build_reports(str(res), str(single), scale="smoke")
    build.build_reports(str(res), str(single), scale="smoke")
    both = tmp_path / "both"
    shutil.copytree(single, both)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "bench.report", "--results-dir", str(res), "--out", str(both), "--scale", "smoke"]
    procs = [subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1][-2000:] for o in outs]
    assert any("another report build is writing" in o[1] for o in outs)
    assert E.compare_trees(single, both) == []


def test_evidence_names_no_place_of_the_machine_that_ran_it():
    """An exported record keeps the portable part of what names a place: the data file's name, and
    tracebacks from the package on (checked on a made-up row and on every shipped evidence file)."""
    row = pd.DataFrame({
        "dataset_source": ["/somewhere/checkout/datasets/iris.csv.gz", "synthetic:onebig", None],
        "traceback": ['Traceback (most recent call last):\n  File "/a/b/bench/runner.py", line 3, in f\n'
                      '  File "/x/lib/python3.11/site-packages/numpy/core.py", line 9, in g\n'
                      '  File "/opt/py/lib/python3.11/concurrent/futures/thread.py", line 1, in h\n'
                      '  File "/elsewhere/script.py", line 2\nValueError: /keep/this/message', None, None]})
    out = E.portable(row)
    assert list(out["dataset_source"][:2]) == ["iris.csv.gz", "synthetic:onebig"] and pd.isna(out["dataset_source"][2])
    tb = out["traceback"][0]
    for want in ('File "bench/runner.py"', 'File "numpy/core.py"', 'File "concurrent/futures/thread.py"',
                 'File "script.py"', "ValueError: /keep/this/message"):
        assert want in tb
    assert pd.isna(out["traceback"][1])
    shipped = shipped_reports_dir() / "evidence"
    for f in sorted(shipped.glob("*.records.parquet")):
        recs = E.Evidence(shipped).records(f.name[: -len(".records.parquet")])
        for col in ("dataset_source", "traceback"):
            if col in recs:
                vals = recs[col].dropna().astype(str)
                assert not vals.str.startswith("/").any() and not vals.str.contains('File "/', regex=False).any(), \
                    (f.name, col)
