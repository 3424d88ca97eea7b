"""Figures and tables as a paper would print them: a caption file per figure, the papers'
algorithm names (never config names) in legends, CD diagrams and rank tables, square scatter axes
with equal limits, p-values as "p < 1e-4", wide Markdown tables split."""

import json
import re

import matplotlib.figure
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from bench.papers.eskdb import build as eskdb  # noqa: F401  (registers the ESKDB display names)
from bench.report.build import build_reports
from bench.report.compare import fmt_p
from bench.report.figures import Caption, caption_path, save, scatter_vs
from bench.report.labels import DISPLAY_NAMES, unique_display, variant_labels
from bench.report.synthetic import write_fake_run
from bench.report.tables import MAX_MD_COLUMNS, to_markdown, write_table

QUALITY = {"nb_disc": 0.6, "tan": 0.64, "kdb": 0.66, "skdb": 0.7, "kdf": 0.67, "aode": 0.68, "eskdb_m": 0.75,
           "eskdb_hdp": 0.8, "rf100_weka": 0.74, "xgb": 0.73, "xgb_tuned": 0.78}
DATASETS = ["iris", "zoo", "car", "wine", "glass", "labor"]
CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2, "n_repeats": 1}


def _plan(root, name, protocol):
    (root / name).mkdir(parents=True, exist_ok=True)
    (root / name / "_plan.json").write_text(json.dumps({"experiment": name, "paper": "eskdb", "scale": "medium",
                                                        "protocol": protocol, "seeds": [0], "sweep": {}}))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A build of the ESKDB paper and its experiments' generic summaries from synthetic records,
    recording every text drawn on every figure saved."""
    root = tmp_path_factory.mktemp("res")
    for i, ds in enumerate(DATASETS):
        for j, (algo, q) in enumerate(QUALITY.items()):
            write_fake_run(root, "eskdb_main", ds, algo, n=40, protocol="cv5x2", quality=q, rng_seed=31 * i + j)
        for j, algo in enumerate(["eskdb_m", "eskdb_random_o", "eskdb_random_cp"]):
            write_fake_run(root, "eskdb_ablation", ds, algo, n=40, protocol=CV2, quality=0.6 + 0.05 * j,
                           rng_seed=i * 7 + j)
    _plan(root, "eskdb_main", "cv5x2")
    _plan(root, "eskdb_ablation", "cv2")
    texts: dict[str, list[str]] = {}
    orig = matplotlib.figure.Figure.savefig

    def spy(fig, fname, *a, **k):
        texts[str(fname)] = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
        return orig(fig, fname, *a, **k)

    mp = pytest.MonkeyPatch()
    mp.setattr(matplotlib.figure.Figure, "savefig", spy)
    try:
        out = tmp_path_factory.mktemp("rep")
        written = build_reports(str(root), str(out), ["eskdb_main", "eskdb_ablation"], papers=["eskdb"],
                                keep_earlier=False)
    finally:
        mp.undo()
    return out, written, texts


def test_p_values_are_never_printed_as_zero():
    assert fmt_p(3e-9) == "< 1e-4" and fmt_p(3e-9, prefix=True) == "p < 1e-4"
    assert fmt_p(1e-4) == "0.0001" and fmt_p(0.04567) == "0.0457" and fmt_p(0.5, True) == "p = 0.5000"
    assert fmt_p(float("nan")) == "" and fmt_p(None) == ""


def test_save_writes_a_caption_and_refuses_a_figure_without_one(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    paths = save(fig, tmp_path / "f", Caption("y against x", "d1, d2", "cv5x2", "medium", 40, "a note"))
    assert [p.name for p in paths] == ["f.png", "f.pdf", "f.caption.md"]
    text = paths[2].read_text()
    for part in ("y against x", "data: d1, d2", "protocol: cv5x2", "scale: medium", "40 stored records", "a note"):
        assert part in text
    fig, ax = plt.subplots()
    with pytest.raises(TypeError, match="Caption"):
        save(fig, tmp_path / "g", "just a string")
    assert not (tmp_path / "g.png").exists()


def test_scatter_axes_are_square_with_equal_limits():
    x = pd.Series([0.10, 0.20, 0.30], index=list("abc"))
    y = pd.Series([0.50, 0.90, 0.40], index=list("abc"))
    fig, ax = plt.subplots(figsize=(8, 3))          # a wide figure must still give a square plot
    scatter_vs(x, y, "A", "B", None, ax=ax)
    fig.canvas.draw()
    assert ax.get_xlim() == ax.get_ylim()
    lo, hi = ax.get_xlim()
    assert lo <= 0.10 and hi >= 0.90                  # both series inside the one range
    bbox = ax.get_window_extent()
    assert abs(bbox.width - bbox.height) < 1.0
    plt.close(fig)


def test_wide_markdown_tables_are_split_and_the_csv_keeps_every_column(tmp_path):
    df = pd.DataFrame(np.arange(48).reshape(3, 16), columns=[f"c{i}" for i in range(16)])
    df.insert(0, "dataset", ["a", "b", "c"])
    md = to_markdown(df, index=False)
    tables = [b for b in md.split("\n\n") if b.startswith("|")]
    assert len(tables) >= 2
    for t in tables:
        header = t.splitlines()[0]
        assert header.count("|") - 1 <= MAX_MD_COLUMNS and header.startswith("| dataset")
    shown = {c.strip() for t in tables for c in t.splitlines()[0].strip("|").split("|")}
    assert shown == set(df.columns)
    assert to_markdown(df.iloc[:, :MAX_MD_COLUMNS], index=False).count("| dataset") == 1
    files = write_table(df, tmp_path / "wide", index=False)
    assert list(pd.read_csv(files[2]).columns) == list(df.columns)


def test_one_labeller_with_display_names():
    a = {"name": "eskdb_hdp", "estimator": {"_target_": "x", "tying": "none"}}
    b = {"name": "eskdb_hdp", "estimator": {"_target_": "x", "tying": "level"}}
    df = pd.DataFrame([{"algo": "eskdb_hdp", "algo_hash": "h1", "algo_config": a},
                       {"algo": "eskdb_hdp", "algo_hash": "h2", "algo_config": b},
                       {"algo": "kdb0", "algo_hash": "h3", "algo_config": {"name": "kdb0"}}])
    assert list(variant_labels(df)) == ["eskdb_hdp[tying=none]", "eskdb_hdp[tying=level]", "kdb0"]
    assert list(variant_labels(df, DISPLAY_NAMES["eskdb"])) == ["ESKDB_HDP[tying=none]", "ESKDB_HDP[tying=level]",
                                                                "NB"]
    # two configs with one paper name stay apart
    assert unique_display(["kdb", "kdb5"], DISPLAY_NAMES["eskdb"]) == {"kdb": "KDB (kdb)", "kdb5": "KDB (kdb5)"}


def test_the_labeller_names_an_experiments_swept_variants():
    """``sweep=``: the experiment's ``algo.`` sweep keys in sorted order (whatever the order of the
    sweep, so that a plan read from the results and one read from the evidence give one label), on
    every record whose config has them, whether or not they vary; the ``name[k=v]`` names the report
    context keeps variants apart by (``eskdb_hdp[prior=uniform,tying=none]`` in reports/)."""
    hdp = {"name": "eskdb_hdp", "estimator": {"tying": "none", "prior": "uniform"}}
    df = pd.DataFrame([{"algo": "eskdb_hdp", "algo_hash": "h1", "algo_config": hdp},
                       {"algo": "eskdb_hdp", "algo_hash": "h1", "algo_config": hdp},
                       {"algo": "nb", "algo_hash": "h2", "algo_config": {"name": "nb"}},
                       {"algo": "nb", "algo_hash": "h3", "algo_config": None}], index=[5, 6, 7, 8])
    sweep = ["algo.estimator.tying", "algo.estimator.prior", "seed"]
    labels = variant_labels(df, sweep=sweep)
    assert list(labels) == ["eskdb_hdp[prior=uniform,tying=none]"] * 2 + ["nb", "nb"]
    assert list(variant_labels(df, sweep=sweep[::-1])) == list(labels)
    assert list(labels.index) == [5, 6, 7, 8]
    assert list(variant_labels(df, sweep=["seed"])) == ["eskdb_hdp", "eskdb_hdp", "nb", "nb"]
    assert variant_labels(df, sweep=sweep[:1], style="parens").iloc[0] == "eskdb_hdp (tying=none)"


def test_every_figure_has_a_caption_file(built):
    out, written, texts = built
    # the key figures (bench.report.keyfig: published vs ours of the paper's tables, the verdict bar) are
    # drawn from the tables and verdicts, whose own captions name protocol, scale and records
    pngs = [p for p in written if p.suffix == ".png" and p.name != "key_figure.png"]
    assert len(pngs) >= 4                              # Figs 1, 3, 4, 5, 8 and the CD diagrams
    for p in pngs:
        cap = caption_path(p.with_suffix(""))
        assert cap.exists(), f"no caption for {p.name}"
        text = cap.read_text()
        assert "protocol: " in text and "scale: medium" in text and "stored records" in text


def _config_names():
    return sorted({c for c, d in DISPLAY_NAMES["eskdb"].items() if c != d and c in set(QUALITY) |
                   {"eskdb_random_o", "eskdb_random_cp"}})


def _has(text: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


def test_no_config_name_in_any_figure_or_rank_table(built):
    out, written, texts = built
    assert any("_cd.png" in f for f in texts), "the synthetic build should draw a CD diagram"
    drawn = " | ".join(t for ts in texts.values() for t in ts)
    assert "ESKDB_HDP" in drawn and "XGBoost_tuned" in drawn
    for name in _config_names():
        assert not _has(drawn, name), f"config name {name} drawn on a figure"
    for p in written:
        if p.suffix == ".md" and ("_ranks" in p.name or "_wilcoxon" in p.name or p.name.startswith("summary_")):
            body = p.read_text()
            for name in _config_names():
                assert not _has(body, name), f"config name {name} in {p.name}"
    wil = (out / "eskdb_main" / "summary_error_wilcoxon.md").read_text()
    assert "0.0000" not in wil


def test_csv_keeps_config_names_for_programs_markdown_shows_the_papers(built):
    out, written, texts = built
    csv = pd.read_csv(out / "eskdb_main" / "summary_error.csv")
    assert {"eskdb_hdp", "nb_disc", "xgb_tuned"} <= set(csv.columns)
    md = (out / "eskdb_main" / "summary_error.md").read_text()
    assert "ESKDB_HDP" in md and "XGBoost_tuned" in md and not _has(md, "eskdb_hdp")
    long = pd.read_csv(out / "eskdb_main" / "summary_long.csv")
    assert dict(zip(long["algo"], long["learner"]))["eskdb_hdp"] == "ESKDB_HDP"


def test_every_figure_goes_through_the_one_saver():
    """No module of bench/ but bench/report/figures.py writes a figure itself (so none lacks its caption);
    the key figure (report/keyfig.py) is the page's own figure, drawn from tables that have captions."""
    from pathlib import Path

    import bench

    root = Path(bench.__file__).parent
    writers = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
               if ".savefig(" in p.read_text()
               and p.relative_to(root).as_posix() not in ("report/figures.py", "report/keyfig.py")]
    assert writers == []
