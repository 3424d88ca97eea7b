"""Reports never destroy what they cannot rebuild: a paper whose build fails keeps its earlier
files, the failure names the file at fault and `python -m bench.report` exits 1; a smaller-scale
build does not overwrite reports built at a larger scale."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.report import build
from bench.report.synthetic import write_fake_run
from tests.conftest import ROOT


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_corrupt_predictions_file_keeps_the_earlier_paper_and_exits_1(tmp_path):
    res, out = tmp_path / "res", tmp_path / "reports"
    for i, ds in enumerate(["iris", "zoo"]):
        for j, algo in enumerate(["rf10", "a2de_sw"]):
            write_fake_run(res, "ande_sr", ds, algo, n=40, protocol="cv5x2", quality=0.7 + 0.1 * j, rng_seed=i)
    build.build_reports(str(res), str(out), scale="smoke", papers=["ande_sr"])
    before = _snapshot(out / "ande_sr")
    assert any(k.startswith("bias_variance") for k in before), sorted(before)
    npz = sorted(res.rglob("r*-f*.npz"))[3]
    npz.write_bytes(npz.read_bytes()[:100])  # truncated
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "bench.report", "--results-dir", str(res), "--out", str(out),
                           "--paper", "ande_sr", "--scale", "smoke"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert str(npz) in proc.stderr and "could not be rebuilt" in proc.stderr
    assert _snapshot(out / "ande_sr") == before  # nothing deleted, nothing half-written
    index = (out / "index.md").read_text()
    assert "**the report module failed**" in index and str(npz) in index
    assert "the files of the earlier build were kept" in index
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [".build.lock"]   # no staging left


def test_a_smaller_scale_build_writes_beside_larger_scale_reports(tmp_path):
    out = tmp_path / "reports"
    out.mkdir()
    from bench.report.sections import IndexSections

    IndexSections(generated="Generated 2026-01-01 on vm (x, 2 CPUs), bench 0.1.0 at commit abc, requested scale "
                  "medium.", scale="medium").write(out)
    assert build.committed_scale(out) == "medium"
    where, note = build.output_dir_for(out, "smoke")
    assert where == out / "scale-smoke" and "--force-scale" in note
    assert build.output_dir_for(out, "smoke", force=True) == (out, None)
    assert build.output_dir_for(out, "medium") == (out, None)
    assert build.output_dir_for(out, "full") == (out, None)
    assert build.output_dir_for(tmp_path / "none", "smoke") == (tmp_path / "none", None)


@pytest.mark.parametrize("scale", ["smoke"])
def test_report_cli_smoke_over_medium_leaves_the_medium_files(tmp_path, scale):
    out = tmp_path / "reports"
    (out / "eskdb").mkdir(parents=True)
    (out / "eskdb" / "table.md").write_text("medium numbers")
    (out / "index.md").write_text("# bench reports\n\nGenerated 2026-01-01 on vm, requested scale medium.\n")
    from bench.report.sections import IndexSections   # what the build reads: the sections as data

    IndexSections(generated="Generated 2026-01-01 on vm, requested scale medium.", scale="medium").write(out)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    (tmp_path / "empty").mkdir()
    proc = subprocess.run([sys.executable, "-m", "bench.report", "--results-dir", str(tmp_path / "empty"),
                           "--out", str(out), "--scale", scale, "--paper", "eskdb"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"writes to {out}/scale-smoke/" in proc.stdout
    assert (out / "eskdb" / "table.md").read_text() == "medium numbers"
    assert "requested scale medium" in (out / "index.md").read_text()
    assert (out / "scale-smoke" / "index.md").exists()


@pytest.mark.parametrize("argv, says", [
    (["--paper", "nosuch"], "unknown paper 'nosuch'; the papers are massbayes, ecocnb, eskdb, ande_sr, mctree"),
    (["--experiment", "nosuch"], "unknown experiment 'nosuch': no conf/experiment/<name>.yaml and nothing stored"),
    (["--results-dir", "{tmp}/nowhere"], "no such folder"),
])
def test_report_cli_refuses_what_names_nothing_before_writing(tmp_path, capsys, argv, says):
    """A paper that is not ours, an experiment with neither a config nor stored runs, a --results-dir that
    is no folder: exit 2 with the fix, and nothing written (they used to rewrite the earlier reports and
    exit 0 as if the named thing had been built)."""
    from bench.report.__main__ import main

    out = tmp_path / "reports"
    res = tmp_path / "results"
    res.mkdir()
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "--results-dir" not in args:
        args += ["--results-dir", str(res)]
    assert main(args + ["--out", str(out)]) == 2
    assert says in capsys.readouterr().err
    assert not out.exists()
    (res / "nosuch").mkdir()            # an experiment stored here but not configured is a user's: allowed
    import argparse

    from bench.report.__main__ import _bad_arguments

    assert _bad_arguments(argparse.Namespace(paper=None, results_dir=str(res), experiment=["nosuch"],
                                             from_evidence=False, verdicts_only=False)) is None
