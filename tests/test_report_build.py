"""The report framework: the experiment driver's missing algorithms, reports/index.md, stale files,
the LaTeX writer, and the paper modules' registration."""

import json
import shutil

import pandas as pd
import pytest

from bench import experiments
from bench.report import build
from bench.report.synthetic import FAKE_HOST, write_fake_run
from bench.report.tables import latex_escape, to_latex
from tests.conftest import ROOT

ANDE_ALGOS = ["nb", "a1de", "a1de_s", "a1de_w", "a1de_sw", "a2de", "a2de_s", "a2de_w", "a2de_sw", "rf10_weka", "rf10"]


@pytest.fixture
def conf_copy(tmp_path, monkeypatch):
    """A private copy of conf/ (BENCH_CONF_DIR) to add experiments to."""
    conf = tmp_path / "conf"
    shutil.copytree(ROOT / "conf", conf)
    monkeypatch.setenv("BENCH_CONF_DIR", str(conf))
    experiments_dir = conf / "experiment"
    return experiments_dir


def test_plan_skips_unregistered_algorithms(conf_copy):
    (conf_copy / "mixed.yaml").write_text("paper: demo\nalgos: [gnb, not_yet_there]\ndatasets: [sk_iris]\n"
                                          "protocol: cv2\n")
    p = experiments.plan("mixed", "smoke")
    assert p["algos"] == ["gnb"]
    assert set(p["missing_algos"]) == {"not_yet_there"} and "not implemented yet" in p["missing_algos"]["not_yet_there"]


def test_run_with_every_algorithm_missing_records_the_plan(conf_copy, tmp_path, capsys):
    (conf_copy / "future.yaml").write_text("paper: demo\nalgos: [later_a, later_b]\ndatasets: [sk_iris]\n"
                                           "protocol: cv2\n")
    rc = experiments.run("future", "smoke", results_dir=str(tmp_path / "res"))
    assert rc == 2                       # zero jobs is an error (tests/test_experiment_plan.py) ...
    out = capsys.readouterr()
    assert "skipped, not implemented yet: later_a, later_b" in out.out
    assert "no algorithm: later_a, later_b (not implemented yet" in out.err
    plan = json.loads((tmp_path / "res" / "future" / "_plan.json").read_text())
    assert plan["algos"] == [] and set(plan["missing_algos"]) == {"later_a", "later_b"}   # ... still recorded
    assert experiments.run("future", "smoke", results_dir=str(tmp_path / "res"), allow_empty=True) == 0


def test_ande_sr_experiment_plan_lists_what_is_not_registered_yet():
    p = experiments.plan("ande_sr", "full")
    registered = set(experiments.algo_names())
    assert set(p["algos"]) == set(ANDE_ALGOS) & registered
    assert set(p["missing_algos"]) == set(ANDE_ALGOS) - registered
    assert p["protocol"] == "cv20x2" and p["paper"] == "ande_sr"
    assert experiments.plan("ande_sr", "medium")["protocol"] == "cv5x2"
    assert experiments.plan("ande_sr", "smoke")["protocol"] == "cv5x2"
    assert "ande_sr" in experiments.experiment_names(paper_only=True)


def test_build_reports_writes_index_papers_and_experiments(tmp_path):
    res, out = tmp_path / "res", tmp_path / "reports"
    for i, ds in enumerate(["iris", "zoo", "car"]):
        for j, algo in enumerate(["rf10", "a2de_sw"]):
            write_fake_run(res, "ande_sr", ds, algo, n=40, protocol="cv5x2", quality=0.7 + 0.1 * j, rng_seed=i)
    plan = {"experiment": "ande_sr", "paper": "ande_sr", "scale": "smoke", "algos": ["rf10"],
            "missing_algos": {"a1de": "not implemented yet (no conf/algo/a1de.yaml)"},
            "datasets": ["iris", "zoo", "car"], "missing_datasets": {}, "protocol": "cv5x2", "seeds": [0],
            "finished_at": "2026-01-01 00:00:00"}
    (res / "ande_sr" / "_plan.json").write_text(json.dumps(plan))
    for ds in ("sk_iris", "synth_mixed"):
        for algo in ("gnb", "rf10", "xgb"):
            write_fake_run(res, "smoke", ds, algo, n=30, protocol="cv2", quality=0.8)
    stale = out / "ande_sr" / "old_table.md"
    stale.parent.mkdir(parents=True)
    stale.write_text("stale")
    written = build.build_reports(str(res), str(out), scale="smoke")
    index = (out / "index.md").read_text()
    assert not stale.exists()
    assert set(build.BUILDS) >= {"ande_sr", "eskdb", "ecocnb"}
    assert "### A2DE with subsumption resolution" in index
    assert "experiment `ande_sr`: scale smoke, protocol cv5x2, 60 stored records (0 failed), run on " \
           f"{FAKE_HOST}" in index
    assert "skipped (not implemented yet): a1de" in index
    assert "dataset not in the data directory:" in index
    assert "- skipped, not implemented yet (no conf/algo/<name>.yaml): a1de" in index
    assert "### smoke" in index and "60 stored records" in index
    # every Markdown link of the index points at a written file
    for link in pd.Series(index.split("](")[1:]).str.split(")").str[0]:
        assert (out / link).exists(), link
    assert (out / "ande_sr" / "table4_wdl_01loss_all.md").exists()
    assert (out / "smoke" / "summary_error.md").exists() and (out / "smoke" / "summary_error_ranks.md").exists()
    assert all(p.exists() for p in written)


def test_a_build_keeps_sections_it_cannot_remake(tmp_path):
    """A later build from a results directory without the ande_sr and smoke runs rebuilds their
    reports from the evidence the first build exported (same tables); without that evidence it keeps
    their reports and index sections (marked as kept, with the first build's date); a fresh build
    (keep_earlier=False) rewrites the ande_sr paper from what is stored, i.e. nothing."""
    import shutil

    res, out = tmp_path / "res", tmp_path / "reports"
    for ds in ("iris", "zoo"):
        for algo in ("rf10", "a2de_sw"):
            write_fake_run(res, "ande_sr", ds, algo, n=40, protocol="cv5x2", quality=0.8)
    write_fake_run(res, "smoke", "sk_iris", "gnb", n=30, protocol="cv2", quality=0.8)
    build.build_reports(str(res), str(out), scale="smoke")
    first = (out / "index.md").read_text()
    table = out / "ande_sr" / "table4_wdl_01loss_all.md"
    before = table.read_text()
    assert "- built: " in first and "from 40 stored records" in first
    assert (out / "evidence" / "ande_sr.records.parquet").exists() and (out / "evidence" / "MANIFEST.json").exists()

    build.build_reports(str(tmp_path / "empty"), str(out), scale="smoke")     # from the evidence
    second = (out / "index.md").read_text()
    assert table.read_text() == before and (out / "smoke" / "summary_error.md").exists()
    ande = second.split("### A2DE with subsumption resolution")[1].split("\n### ")[0]
    assert "from 40 stored records" in ande and "kept from an earlier build" not in ande

    shutil.rmtree(out / "evidence")                                            # no evidence: kept
    build.build_reports(str(tmp_path / "empty"), str(out), scale="smoke")
    third = (out / "index.md").read_text()
    assert table.read_text() == before
    ande = third.split("### A2DE with subsumption resolution")[1].split("\n### ")[0]
    assert "from 40 stored records" in ande and "kept from an earlier build" in ande
    assert "### smoke" in third and "kept from an earlier build" in third.split("### smoke")[1]
    # a fourth build does not mark a kept section twice
    build.build_reports(str(tmp_path / "empty"), str(out), scale="smoke")
    assert (out / "index.md").read_text().count("kept from an earlier build") == third.count("kept from an earlier build")

    build.build_reports(str(tmp_path / "empty"), str(out), scale="smoke", keep_earlier=False)
    fresh = (out / "index.md").read_text()
    assert "from 0 stored records" in fresh.split("### A2DE with subsumption resolution")[1].split("\n### ")[0]


def test_a_failing_paper_module_does_not_stop_the_others(tmp_path, monkeypatch):
    def broken(ctx, out):
        raise RuntimeError("boom")

    monkeypatch.setitem(build.BUILDS, "zz_broken", broken)
    with pytest.raises(build.ReportBuildError, match="paper zz_broken: RuntimeError: boom"):
        build.build_reports(str(tmp_path / "res"), str(tmp_path / "rep"), papers=["zz_broken", "ecocnb"])
    index = (tmp_path / "rep" / "index.md").read_text()
    assert "**the report module failed**: RuntimeError: boom" in index
    assert "ECOC" in index


def test_a_partial_build_lists_every_paper_with_its_page(tmp_path):
    """A --paper build still lists every paper under Papers (the per-experiment papers MassBayes and
    MC-Tree too), each with its page link; a later partial build keeps them."""
    from bench.report.paper_pages import TITLES

    out = tmp_path / "rep"
    for only in (["ecocnb"], ["ande_sr"]):
        build.build_reports(str(tmp_path / "res"), str(out), papers=only)
        index = (out / "index.md").read_text()
        papers = index.split("\n## Papers\n")[1].split("\n## ")[0]
        for paper, title in TITLES.items():
            assert f"### {title}" in papers, (only, paper)
            section = papers.split(f"### {title}")[1].split("\n### ")[0]
            assert f"- page (verdicts, tables, figures): [{paper}/README.md]({paper}/README.md)" in section
        assert papers.count("### MassBayes") == 1 and papers.count("### MC-Tree") == 1


@pytest.mark.parametrize("paper", ["ecocnb", "eskdb", "ande_sr"])
def test_published_cells_are_the_cells_a_build_lists(paper, tmp_path, monkeypatch):
    """With nothing stored and no data every cell is missing (ECOC-NB's Table 1 is filled from the data
    alone): the cell rows (those naming a dataset) of the missing list are exactly the module's
    published_cells(), the denominator of the index's "cells filled"."""
    import importlib

    from bench.report.context import ReportContext

    monkeypatch.setenv("BENCH_DATA_DIR", str(tmp_path / "no_data"))
    monkeypatch.setenv("BENCH_DATASETS_DIR", "")   # nor the shipped datasets/: a machine with no data

    mod = importlib.import_module(f"bench.papers.{paper}.build")
    (tmp_path / "out").mkdir()
    res = mod.build(ReportContext(str(tmp_path / "none"), None), tmp_path / "out")
    cells = [m for m in res.missing if m.dataset]
    assert len(cells) == mod.published_cells() > 0
    df = pd.DataFrame([{"dataset": m.dataset, "algorithm": m.algorithm, "category": m.category} for m in res.missing])
    assert mod.published_cells(df) == mod.published_cells()


def test_latex_bold_and_escapes():
    assert latex_escape("**3/0/1** (5/1/6)") == r"\textbf{3/0/1} (5/1/6)"
    assert latex_escape("a_b 5% ± –") == r"a\_b 5\% $\pm$ --"
    tex = to_latex(pd.DataFrame({"x": ["**1/2/3**"]}), caption="c_d")
    assert r"\textbf{1/2/3}" in tex and r"\caption{c\_d}" in tex


def test_failed_and_incomplete_runs_are_named(tmp_path):
    from bench.report.context import ReportContext

    res = tmp_path / "res"
    write_fake_run(res, "ande_sr", "iris", "rf10", n=40, protocol="cv5x2", quality=0.8)
    every = [(r, f) for r in range(5) for f in range(2)]
    write_fake_run(res, "ande_sr", "zoo", "rf10", n=40, protocol="cv5x2", fail_splits=every)
    write_fake_run(res, "ande_sr", "car", "rf10", n=40, protocol="cv5x2", fail_splits=[(2, 1)])
    view = ReportContext(res).experiment("ande_sr")
    assert view.reason("iris", "rf10") is None
    assert view.reason("zoo", "rf10").startswith("run failed: RuntimeError: deliberate fake failure")
    assert view.reason("car", "rf10").startswith("incomplete: 9 of 10 splits; 1 failed")
    assert view.reason("wine", "rf10") in ("not run yet", "not run at this scale: wine is not in the medium list") \
        or view.reason("wine", "rf10").startswith("dataset not available here")
    means = view.means("error")
    assert list(means.index) == ["iris"]          # only complete runs enter the comparisons


@pytest.mark.slow
def test_make_paper_tables_smoke_end_to_end(tmp_path):
    """`make paper-tables SCALE=smoke` in a private results and reports directory."""
    import os
    import subprocess
    import sys

    from bench.report.context import ReportContext

    if ReportContext.dataset_reason("iris"):
        pytest.skip("the papers' datasets are not here: they ship in datasets/ (restore it with `git checkout datasets/`)")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(tmp_path / "res")}
    run = subprocess.run([sys.executable, "-m", "bench.experiments", "run-all", "--scale", "smoke", "--jobs", "2"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-2000:]
    rep = subprocess.run([sys.executable, "-m", "bench.report", "--scale", "smoke", "--out", str(tmp_path / "rep")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert rep.returncode == 0, rep.stderr[-2000:]
    index = (tmp_path / "rep" / "index.md").read_text()
    assert "experiment `ande_sr`: scale smoke, protocol cv5x2" in index
    bv = pd.read_csv(tmp_path / "rep" / "ande_sr" / "bias_variance_per_dataset.csv")
    assert len(bv) >= 5 and (bv["bias + variance - loss"].abs() < 1e-12).all()


def test_perf_runs_become_a_report_table(tmp_path):
    """results/perf/perf-*.json (python -m bench.perf) -> reports/perf/perf.md with the newest run of
    each benchmark, and a Speed section in the index; not a 'stored experiment'."""
    perf = tmp_path / "res" / "perf"
    perf.mkdir(parents=True)
    prov = {"host": "h1", "cpu": "cpu", "git_commit": "abc"}
    old = {"provenance": prov, "threads": 1, "rows": [
        {"benchmark": "counts", "case": "letter", "ours": "NB fit", "ours_s": 2.0, "peer": "sk", "peer_s": 4.0,
         "ratio": 2.0, "note": "old"}]}
    new = {"provenance": {**prov, "git_commit": "def"}, "threads": 1, "rows": [
        {"benchmark": "counts", "case": "letter", "ours": "NB fit", "ours_s": 1.0, "peer": "sk", "peer_s": 4.0,
         "ratio": 4.0, "note": "new"}]}
    (perf / "perf-20260101-000000.json").write_text(json.dumps(old))
    (perf / "perf-20260102-000000.json").write_text(json.dumps(new))
    out = tmp_path / "rep"
    build.build_reports(str(tmp_path / "res"), str(out), scale="smoke")
    table = (out / "perf" / "perf.md").read_text()
    assert "4.00x" in table and "new" in table and "old" not in table and "commit def" in table
    index = (out / "index.md").read_text()
    assert "## Speed (make bench-perf)" in index and "## Stored experiments" in index
    assert "### perf" not in index.split("## Stored experiments")[1]
    assert sorted(p.name for p in (out / "evidence" / "perf").iterdir()) == ["perf-20260101-000000.json",
                                                                             "perf-20260102-000000.json"]
    # a later build without perf runs rebuilds the table from the shipped runs; without them it keeps it
    build.build_reports(str(tmp_path / "none"), str(out), scale="smoke")
    assert (out / "perf" / "perf.md").read_text() == table
    shutil.rmtree(out / "evidence")
    build.build_reports(str(tmp_path / "none"), str(out), scale="smoke")
    assert (out / "perf" / "perf.md").exists()
    assert "kept from an earlier build" in (out / "index.md").read_text().split("## Speed (make bench-perf)")[1]


def test_max_rows_and_datasets_restrict_an_experiment_and_the_report_says_why(conf_copy, tmp_path):
    (conf_copy / "sized.yaml").write_text("paper: demo\nalgos: [gnb]\ndatasets: [sk_iris, sk_digits, sk_wine]\n"
                                          "protocol: cv2\n")
    p = experiments.plan("sized", "smoke", max_rows=1000)
    assert p["datasets"] == ["sk_iris", "sk_wine"]
    assert "1797 rows, more than --max-rows 1000" in p["skipped_datasets"]["sk_digits"]
    q = experiments.plan("sized", "smoke", only=["sk_wine"])
    assert q["datasets"] == ["sk_wine"] and set(q["skipped_datasets"]) == {"sk_iris", "sk_digits"}
    with pytest.raises(SystemExit, match="no dataset\\(s\\) nope"):
        experiments.plan("sized", "smoke", only=["nope"])
    from bench.report.context import ReportContext

    res = tmp_path / "res"
    (res / "sized").mkdir(parents=True)
    (res / "sized" / "_plan.json").write_text(json.dumps(p))
    why = ReportContext(res).experiment("sized").reason("sk_digits", "gnb")
    assert why.startswith("not run at this scale: 1797 rows")


def test_index_counts_not_applicable_splits_apart_from_failures(tmp_path):
    res, out = tmp_path / "res", tmp_path / "reports"
    write_fake_run(res, "mixed", "iris", "gnb", n=30, protocol="cv2", fail_splits=[(0, 0)])
    write_fake_run(res, "mixed", "iris", "ecoc_long", n=30, protocol="cv2", fail_splits=[(0, 0), (0, 1)],
                   fail_status="not_applicable")
    build.build_reports(str(res), str(out), scale="smoke")
    index = (out / "index.md").read_text()
    assert "1 stored records (1 failed, 2 not applicable)" in index
    assert "- failed: gnb on iris, 1 splits" in index
    assert "- not applicable: ecoc_long on iris, 2 splits" in index


def test_a_kept_section_says_why_and_replaces_an_earlier_reason():
    from bench.report import page as P
    from bench.report.build import KEPT_NOTE, NOTHING_STORED, _kept
    from bench.report.sections import section

    block = section("x", [P.Item("built: then", role="built"), P.Item(f"{KEPT_NOTE}earlier reason", role="kept")])
    out = _kept(block, "Generated now.", NOTHING_STORED)
    assert out == section("x", [P.Item("built: then", role="built"), P.Item(f"{KEPT_NOTE}{NOTHING_STORED}", role="kept")])
    assert P.to_markdown(_kept(section("y", []), "Generated 2026 on vm.")).split("\n")[2:4] == [
        "- built: 2026 on vm", f"- {KEPT_NOTE}{NOTHING_STORED}"]
