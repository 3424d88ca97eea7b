"""The A2DE paper's report on synthetic stored records: all ten algorithms on eleven datasets
(tables, figures, conclusions, missing cells), and the state before the AnDE family lands
(RF10 only)."""

from tests.helpers import table_cells
import json

import numpy as np
import pandas as pd
import pytest

from bench import published
from bench.papers.ande_sr import build as ande_sr
from bench.report.context import ReportContext
from bench.report.synthetic import write_fake_run
from bench.store import load

SMALL, MEDIUM, LARGE = ["iris", "zoo", "labor", "wine", "glass"], ["car", "segment", "abalone"], \
    ["adult", "letter", "magic"]
QUALITY = {"nb": 0.60, "a1de": 0.64, "a1de_s": 0.66, "a1de_w": 0.67, "a1de_sw": 0.69, "a2de": 0.71,
           "a2de_s": 0.73, "a2de_w": 0.74, "a2de_sw": 0.76, "rf10_weka": 0.80, "rf10": 0.81}
TRAIN_S = {"nb": 0.01, "rf10_weka": 0.3, "rf10": 0.2}
TEST_S = {"nb": 0.001, "a2de": 0.05, "a2de_s": 0.02, "rf10_weka": 0.004, "rf10": 0.004}


def _plan(root, datasets, algos, scale="medium"):
    p = {"experiment": "ande_sr", "paper": "ande_sr", "scale": scale, "algos": algos, "missing_algos": {},
         "datasets": datasets, "missing_datasets": {}, "protocol": "cv5x2", "seeds": [0], "finished_at": "now"}
    (root / "ande_sr").mkdir(parents=True, exist_ok=True)
    (root / "ande_sr" / "_plan.json").write_text(json.dumps(p))


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("res")
    datasets = SMALL + MEDIUM + LARGE
    for i, ds in enumerate(datasets):
        for j, (algo, q) in enumerate(QUALITY.items()):
            write_fake_run(root, "ande_sr", ds, algo, n=60, n_classes=3, protocol="cv5x2", quality=q,
                           rng_seed=100 * i + j, train_s=TRAIN_S.get(algo, 0.1), test_s=TEST_S.get(algo, 0.03))
    _plan(root, datasets, list(QUALITY))
    out = tmp_path_factory.mktemp("rep") / "ande_sr"     # reports/ande_sr, as the build writes it
    out.mkdir()
    res = ande_sr.build(ReportContext(root), out)
    res.facts.write(out)                                  # as bench.report.build does after the paper's build
    return root, out, res


def test_every_table_and_figure_is_written(full_run):
    root, out, res = full_run
    names = {p.name for p in res.files}
    for n in (2, 3):
        assert {f"table{n}_wdl_{'bias' if n == 2 else 'variance'}_all.{e}" for e in ("md", "tex", "csv")} <= names
    for label in ("01loss", "rmse"):
        for s in ("all", "large", "medium", "small", "long"):
            assert f"table{4 if label == '01loss' else 5}_wdl_{label}_{s}.md" in names
    for stem in ("fig1_bias_variance", "fig2_01loss", "fig3_rmse", "fig4_time"):
        assert f"{stem}.png" in names and f"{stem}.pdf" in names and f"{stem}_values.csv" in names
        assert (out / f"{stem}.png").stat().st_size > 10000
        cap = (out / f"{stem}.caption.md").read_text()      # what, data, protocol, scale, records
        assert "normalised" in cap.lower() and "protocol: cv5x2" in cap and "scale: medium" in cap
        assert f"{len(SMALL + MEDIUM + LARGE) * len(QUALITY) * 10} stored records" in cap
    assert "conclusions.md" in names and "per_dataset_error.md" in names and "bias_variance_per_dataset.md" in names
    assert "\\textbf{" in (out / "table4_wdl_01loss_all.tex").read_text()


def test_wdl_cells_equal_an_independent_count(full_run):
    root, out, _ = full_run
    df = load(root, experiment="ande_sr")
    means = df.groupby(["dataset", "algo"])["metrics.error"].mean().unstack()
    long = pd.read_csv(out / "table4_wdl_01loss_long.csv", keep_default_na=False)
    for (row, col, subset, dsets) in (("RF10", "A2DE-SW", "all", SMALL + MEDIUM + LARGE),
                                       ("A2DE-SW", "NB", "large", LARGE), ("A1DE-S", "A1DE", "small", SMALL)):
        a, b = means.loc[dsets, ande_sr.ALGOS[row]], means.loc[dsets, ande_sr.ALGOS[col]]
        expect = f"{int((a < b).sum())}/{int((a == b).sum())}/{int((a > b).sum())}"
        got = long[(long["row"] == row) & (long["col"] == col) & (long["subset"] == subset)]
        assert got["ours"].iloc[0] == expect
        assert int(got["ours_n"].iloc[0]) == len(dsets)
    # the published record of the same cell is carried unchanged
    assert long[(long["row"] == "RF10") & (long["col"] == "A2DE-SW") & (long["subset"] == "large")][
        "published"].iloc[0] == "5/1/6"


def test_bias_plus_variance_is_the_loss_and_matches_the_split_errors(full_run):
    root, out, _ = full_run
    bv = pd.read_csv(out / "bias_variance_per_dataset.csv")
    assert len(bv) == 11 * 11
    assert (bv["bias + variance - loss"].abs() < 1e-12).all()
    df = load(root, experiment="ande_sr")
    g = df[(df["dataset"] == "car") & (df["algo"] == "rf10_weka")]   # the paper's RF10 is Weka's
    pooled = (g["metrics.error"] * g["n_test"]).sum() / g["n_test"].sum()
    row = bv[(bv["dataset"] == "Car Evaluation") & (bv["algorithm"] == "RF10")]
    assert row["0-1 loss"].iloc[0] == pytest.approx(pooled, abs=1e-4)
    assert (bv["rounds"] == 5).all()


def test_figure_values_are_ratios_to_nb(full_run):
    root, out, _ = full_run
    vals = pd.read_csv(out / "fig4_time_values.csv")
    learn = vals[(vals["panel"] == "Learning time") & (vals["group"] == "All")].set_index("algo")
    assert learn.loc["RF10", "mean"] == pytest.approx(0.3 / 0.01)
    assert learn.loc["A2DE", "mean"] == pytest.approx(0.1 / 0.01) and learn.loc["A2DE", "n"] == 11
    err = pd.read_csv(out / "fig2_01loss_values.csv")
    assert set(err["group"]) == {"All", "Large", "Medium", "Small"}
    assert err[err["group"] == "Large"]["n"].max() == 3


def test_conclusions_and_missing_cells(full_run):
    _, out, res = full_run
    concl = pd.read_csv(out / "conclusions.csv", keep_default_na=False).set_index("claim")
    # one row per published claim, the statement taken from the claim data
    claims = published.claims("ande_sr")
    assert list(concl.index) == list(claims["claim_id"])
    assert concl.loc["AN03", "statement"] == claims.set_index("claim_id").loc["AN03", "quote"]
    assert set(concl["verdict"]) <= {"reproduced", "partly reproduced", "not reproduced", "not checkable"}
    # the fake classification times make SR faster than A2DE (AN12); RF10 is 7.5x faster than A2DE in ratios to NB (AN14), within
    # the engineering factor between two code bases of the claim's 2x: not checkable, different implementations
    assert concl.loc["AN12", "verdict"] == "reproduced"
    assert concl.loc["AN14", "verdict"] == "not checkable"
    assert concl.loc["AN14", "reason"].startswith("different implementations")
    # the paper's own counts: RF10 vs A2DE-SW on large data, RMSE 5/0/7 contradicts "both lose to RF10"
    assert concl.loc["AN10", "paper's own table"] == "partly reproduced"
    # RF10 claims carry the verdict with scikit-learn's forest (stored beside rf10_weka here)
    assert concl.loc["AN07", "with RF10-sklearn"].split(":")[0] in {"reproduced", "partly reproduced",
                                                                     "not reproduced", "not checkable"}
    sk = pd.read_csv(out / "wdl_rf10_sklearn_long.csv", keep_default_na=False)
    assert set(sk["row"]) | set(sk["col"]) >= {"RF10-sklearn"} and "RF10" not in set(sk["row"]) | set(sk["col"])
    cats = {(m.dataset, m.algorithm): m.category for m in res.missing}
    assert cats[("Census-Income (KDD)", "RF10")] == "dataset not in the data directory"
    assert ("Letter Recognition", "A2DE-SW") not in cats          # complete run: not missing
    assert cats[("Sonar Classification", "RF10")] in {"not run at this scale", "dataset not available here"}
    assert cats[("Sonar Classification", "NB")] in {"not run at this scale", "dataset not available here",
                                                    "algorithm not implemented yet"}


def test_only_rf10_stored_still_builds(tmp_path):
    root = tmp_path / "res"
    for i, ds in enumerate(["iris", "zoo", "car"]):
        write_fake_run(root, "ande_sr", ds, "rf10_weka", n=40, n_classes=2, protocol="cv5x2", quality=0.8,
                       rng_seed=i)
    _plan(root, ["iris", "zoo", "car"], ["rf10_weka"], scale="smoke")
    out = tmp_path / "rep"
    res = ande_sr.build(ReportContext(root), out)
    assert (out / "table4_wdl_01loss_all.md").exists() and not list(out.glob("fig*.png"))
    figs = [m for m in res.missing if m.item.startswith("Fig.")]
    assert len(figs) == 4 and all(m.algorithm == "NB" for m in figs)
    concl = pd.read_csv(out / "conclusions.csv", keep_default_na=False)
    assert (concl["verdict"] == "not checkable").all() and (concl["reason"] != "").all()
    bv = pd.read_csv(out / "bias_variance_per_dataset.csv")
    assert set(bv["algorithm"]) == {"RF10"} and np.allclose(bv["bias + variance - loss"], 0)


# ------------------------------------------------------------------ facts
def test_the_verdicts_read_only_the_facts(full_run, tmp_path):
    """The verdicts from facts.json alone (no report table beside it) equal the conclusions the build wrote,
    verdict, numbers and evidence; each evidence file is one the build writes."""
    from bench.papers.ande_sr import verdicts as verdicts

    _, out, _ = full_run
    alone = tmp_path / "ande_sr"
    alone.mkdir()
    (alone / "facts.json").write_bytes((out / "facts.json").read_bytes())
    vs = verdicts.evaluate(tmp_path, published.claims("ande_sr"))
    concl = pd.read_csv(out / "conclusions.csv", keep_default_na=False).set_index("claim")
    for v in vs:
        row = concl.loc[v.claim_id]
        files = lambda text: [e.strip() for e in str(text).split(";") if e.strip()]  # noqa: E731 - the table spaces them
        assert (v.verdict, v.ours, v.reason, files(v.evidence)) == (row["verdict"], row["ours"], row["reason"],
                                                                    files(row["evidence"])), v.claim_id
        for e in v.evidence.split(";") if v.evidence else []:
            # summary_long.csv is the experiment's generic summary, written beside the paper's files by a full build
            assert e.startswith("ande_sr/") and ((out / e.split("/", 1)[1]).exists() or e == "ande_sr/summary_long.csv"), e
    assert {v.verdict for v in vs} != {"not checkable"}
    # AN12's per-dataset ratios are checked in the build too (it read summary_long.csv, written after it, before)
    assert "median 0.40x [0.40, 0.40] over 11 datasets" in concl.loc["AN12", "ours"]


def test_wdl_claims_carry_the_bayesian_note_and_keep_their_verdicts(full_run, monkeypatch):
    """The per-dataset values the build records (fact ``wdl_values``) are the ones Tables 2-5 count on (their raw
    W/D/L is every cell's count); each W/D/L claim with counts gets the Bayesian signed-rank note, baycomp's
    numbers on those values, on the paper's page after the claim's test; without the values every verdict
    is the same."""
    from baycomp import SignedRankTest

    from bench.papers.ande_sr import verdicts as V
    from bench.report import page as P
    from bench.report.facts import Facts
    from bench.report.paper_pages import paper_blocks
    from bench.stats.pairwise import wdl

    _, out, _ = full_run
    facts = Facts.of_paper(out.parent, "ande_sr")
    vals = facts.table("wdl_values")
    size = dict(zip(vals["dataset"], vals["size"]))
    assert set(size.values()) == {"small", "medium", "large"} and len(size) == 11
    checked = 0
    for fact in V.TABLE_FACTS.values():
        for r in facts.table(fact).to_dict("records"):
            if r["ours_wins"] is None or pd.isna(r["ours_wins"]):
                continue
            t = vals[(vals["measure"] == r["measure"]) & vals["algo"].isin([r["row"], r["col"]])]
            if r["subset"] != "all":
                t = t[t["size"] == r["subset"]]
            v = t.pivot_table(index="dataset", columns="algo", values="value", aggfunc="first")[[r["row"], r["col"]]]
            w = wdl(v[r["row"]].to_numpy(float), v[r["col"]].to_numpy(float), True, "raw")
            assert (w.wins, w.draws, w.losses) == (r["ours_wins"], r["ours_draws"], r["ours_losses"]), r
            checked += 1
    assert checked > 50
    claims = published.claims("ande_sr")
    vs = V.evaluate_facts(facts, claims)
    by = {v.claim_id: v for v in vs}
    # AN03's first comparison: A1DE-S vs A1DE bias over all datasets, as baycomp computes it (seed 0, ROPE 0.01)
    b = vals[vals["measure"] == "bias"].pivot_table(index="dataset", columns="algo", values="value")
    s = SignedRankTest.sample(b["A1DE-S"].to_numpy(float), b["A1DE"].to_numpy(float), 0.01, nsamples=50000,
                              random_state=0)
    left, eq, right = np.bincount(np.argmax(s, axis=1), minlength=3) / len(s)
    assert f"A1DE-S vs A1DE bias all {right:.2f}/{eq:.2f}/{left:.2f}" in by["AN03"].extra["bayes"]
    wdl_claims = [c for c, k in V.CHECKS.items() if isinstance(k, V.WDL)]
    noted = [c for c in wdl_claims if by[c].extra.get("bayes")]
    assert {"AN03", "AN05", "AN07", "AN10"} <= set(noted)
    assert not any(by[c].extra.get("bayes") for c in V.CHECKS if c not in wdl_claims)
    # the verdicts without the values: the same, field by field
    monkeypatch.setattr(V.Evidence, "paired_values", lambda self, *a: None)
    plain = V.evaluate_facts(facts, claims)
    assert [v.row() for v in plain] == [v.row() for v in vs]
    assert not any(v.extra.get("bayes") for v in plain)
    # the paper's page: the claim's row shows its own test, then the note
    md = P.to_markdown(paper_blocks(out.parent, "ande_sr", vs))
    row = next(line for line in md.splitlines() if line.startswith("| AN03 "))
    assert f"{by['AN03'].test}; Bayesian signed-rank (ROPE 0.01, information only;" in row


def test_the_wdl_and_figure_facts_are_the_numbers_the_tables_show(full_run):
    from bench.report.compare import fmt
    from bench.report.facts import Facts

    _, out, _ = full_run
    facts = Facts.of_paper(out.parent, "ande_sr")
    for name in ("table2_wdl_bias_long", "table3_wdl_variance_long", "table4_wdl_01loss_long",
                 "table5_wdl_rmse_long", "wdl_rf10_sklearn_long"):
        assert facts.source(name) == f"ande_sr/{name}.csv"
        shown = pd.read_csv(out / f"{name}.csv", keep_default_na=False, dtype=str)
        fact = facts.tables[name]
        rows = [dict(zip(fact["columns"], r)) for r in fact["rows"]]
        assert len(rows) == len(shown) > 0
        for r, s in zip(rows, shown.to_dict("records")):
            assert (r["row"], r["col"], r["subset"], r["measure"]) == (s["row"], s["col"], s["subset"], s["measure"])
            assert f"{r['published_wins']}/{r['published_draws']}/{r['published_losses']}" == s["published"]
            ours = "" if r["ours_wins"] is None else f"{r['ours_wins']}/{r['ours_draws']}/{r['ours_losses']}"
            assert ours == s["ours"] and str(r["ours_n"]) == s["ours_n"]
            assert all(isinstance(r[k], int) for k in ("published_wins", "published_draws", "published_losses"))
            assert isinstance(r["published_significant"], bool)
    for stem in ("fig1_bias_variance", "fig2_01loss", "fig3_rmse", "fig4_time"):
        fact, shown = facts.table(f"{stem}_values"), pd.read_csv(out / f"{stem}_values.csv", keep_default_na=False,
                                                                  dtype=str)
        assert [fmt(v) for v in fact["mean"]] == list(shown["mean"]) and list(fact["algo"]) == list(shown["algo"])
    t = facts.table("classification_time").set_index(["dataset", "algo"])["test_s"]
    assert t.loc[("adult", "a2de")] == pytest.approx(TEST_S["a2de"]) and len(t) == 11 * 11
    assert (facts.value("scale"), facts.value("protocol"), facts.value("datasets_compared")) == ("medium", "cv5x2",
                                                                                                 "11")


def test_key_cells_are_the_key_figures_cells(full_run):
    """The fact table key_cells holds exactly the cells keyfig.cells reads from the long tables today."""
    from bench.report import keyfig
    from bench.report.facts import Facts

    _, out, _ = full_run
    want = table_cells(out.parent, "ande_sr")
    got = Facts.of_paper(out.parent, "ande_sr").table("key_cells")
    assert list(got.columns) == ["kind", "table", "published", "ours"] and len(got) == len(want) > 0
    assert got[["kind", "table"]].values.tolist() == want[["kind", "table"]].values.tolist()
    for c in ("published", "ours"):
        assert np.array_equal(got[c].to_numpy(float), want[c].to_numpy(float), equal_nan=True), c
