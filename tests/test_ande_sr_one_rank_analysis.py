"""ande_sr's folder is shared by the paper's build and its experiment's generic summary: one rank analysis
(the paper's ranks_*, over the per-dataset values its tables compare), not a second one from the generic
summary; other experiments keep theirs. The build writes the paper's facts.json beside it."""

import json

from bench.report import build
from bench.report.facts import Facts
from bench.report.synthetic import write_fake_run


def test_one_rank_analysis_in_the_folder_shared_with_the_paper(tmp_path):
    res, out = tmp_path / "res", tmp_path / "reports"
    for i, ds in enumerate(["iris", "zoo", "car"]):
        for j, algo in enumerate(["rf10", "a2de_sw", "nb"]):
            write_fake_run(res, "ande_sr", ds, algo, n=40, protocol="cv5x2", quality=0.6 + 0.1 * j, rng_seed=i)
    plan = {"experiment": "ande_sr", "paper": "ande_sr", "scale": "smoke", "algos": ["rf10", "a2de_sw", "nb"],
            "missing_algos": {}, "datasets": ["iris", "zoo", "car"], "missing_datasets": {}, "protocol": "cv5x2",
            "seeds": [0], "finished_at": "2026-01-01 00:00:00"}
    (res / "ande_sr" / "_plan.json").write_text(json.dumps(plan))
    for ds in ("sk_iris", "synth_mixed"):
        for algo in ("gnb", "rf10", "xgb"):
            write_fake_run(res, "smoke", ds, algo, n=30, protocol="cv2", quality=0.8)
    build.build_reports(str(res), str(out), scale="smoke")
    ande = out / "ande_sr"
    assert (ande / "ranks_error_ranks.md").exists() and (ande / "ranks_rmse_ranks.md").exists()
    assert (ande / "summary_error.md").exists() and (ande / "summary_long.csv").exists()
    assert not list(ande.glob("summary_*_ranks.*")) and not list(ande.glob("summary_*_cd.*")) \
        and not list(ande.glob("summary_*_wilcoxon.*"))
    assert (out / "smoke" / "summary_error_ranks.md").exists()          # an experiment of its own keeps its ranks
    manifest = json.loads((ande / "manifest.json").read_text())
    assert not [f for f in manifest["files"] if "_ranks" in f or "_cd" in f or "_wilcoxon" in f]
    facts = Facts.of_paper(out, "ande_sr")
    assert facts.table("table4_wdl_01loss_long") is not None and facts.table("key_cells") is not None
    # every fact's source is a file of the build
    for name in [*facts.tables, *facts.values]:
        for src in facts.source(name).split(";"):
            assert (out / src).exists(), (name, src)
