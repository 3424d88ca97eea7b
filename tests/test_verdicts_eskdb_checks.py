"""ESKDB's claims declared with the one claim checker (bench.report.verdicts.kinds, ): CHECKS
covers exactly the paper's claim ids, each claim a generic kind where one states it, and the generic
options the declarations use (kinds.py) do what they say on a small synthetic adapter."""

import inspect
import re

import pandas as pd

from bench import published
from bench.report.facts import Facts
from bench.report.verdicts import kinds
from bench.papers.eskdb import verdicts as eskdb
from bench.report.verdicts.kinds import (WDL, AlsoOn, AvgCell, Bespoke, Cmp, NotHere, Outcome, Ratio, Shown,
                                         WdlCell)


def test_checks_cover_exactly_the_papers_claims():
    assert sorted(eskdb.CHECKS) == sorted(published.claims("eskdb")["claim_id"])


def test_each_claim_is_a_generic_kind_where_one_states_it():
    kind = kinds.describe(eskdb.CHECKS)
    by = {}
    for cid, k in kind.items():
        by.setdefault(k.split(":")[0], set()).add(cid)
    # W/D/L under the paper's sign test: the ablation's Figs. 3-4 and Tables 3, 4, 7 (ES36 reads Table 6's
    # averages, as its words say: a bespoke check)
    assert by["wdl"] == {"ES05", "ES06", "ES33", "ES34", "ES35"}
    assert by["average"] == {"ES01", "ES02", "ES03", "ES04", "ES07", "ES08"}
    assert by["ratio"] == {"ES09", "ES14", "ES16", "ES17", "ES18", "ES19", "ES20"}
    # absolute seconds on the paper's machine, and statements about runs not made here
    assert by["not_here"] == {"ES10", "ES11", "ES12", "ES13", "ES15"}
    assert set(by) == {"wdl", "average", "ratio", "not_here", "bespoke"}
    for cid in by["bespoke"]:     # a bespoke check is a named function stating its reading
        c = eskdb.CHECKS[cid]
        assert isinstance(c, Bespoke) and c.fn.__name__.strip("_") and inspect.getdoc(c.fn), cid
        assert cid in inspect.getdoc(c.fn), f"{cid}: the docstring of {c.fn.__name__} names the claim it reads"


def test_no_dispatch_on_claim_ids():
    src = inspect.getsource(eskdb)
    assert not re.search(r"\bif\b[^\n]*\b(cid|claim_id)\b", src)
    assert "def evaluate(" in src and "kinds.run(PAPER, CHECKS" in src


def _time_facts(tmp_path):
    """Times of ESKDB_HDP in Table 5's facts, XGBoost_tuned's only in Table 6's."""
    f = Facts("eskdb")

    def rows(*algos):
        return pd.DataFrame([{"algorithm": a, "measure": "training time", "published": p, "published_text": str(p),
                              "published_pm_text": None, "ours": o, "ours_se": None, "n_datasets": 60,
                              "time_ref": None, "published_time_ratio": None, "ours_time_ratio": None}
                             for a, p, o in algos])

    f.add_table("table5_averages", rows(("ESKDB_HDP", 190, 3.0)), "eskdb/table5_averages.csv")
    f.add_table("table6_averages", rows(("XGBoost_tuned", 60, 5.0)), "eskdb/table6_averages.csv")
    (tmp_path / "eskdb").mkdir()
    f.write(tmp_path / "eskdb")
    return tmp_path


def test_a_ratio_names_the_tables_of_both_its_times(tmp_path):
    claims = published.claims("eskdb")
    v = eskdb.evaluate(_time_facts(tmp_path), claims[claims["claim_id"] == "ES19"])[0]
    assert v.evidence == "eskdb/table5_averages.csv;eskdb/table6_averages.csv"
    assert v.ours.startswith("0.60x (ESKDB_HDP 3 s / XGBoost_tuned 5 s")       # 3.0 / 5.0
    assert v.published == "3x (Table 9: 190 s / 60 s = 3.17x)" and v.verdict == "not reproduced"


# ------------------------------------------------------------------ the generic options of kinds.py
class _Ev(kinds.Evidence):
    paper, test, alpha, n_paper = "x", "sign1", 0.05, 10

    def __init__(self, cells, variant=None):
        self.cells, self._variant = cells, variant

    def wdl(self, c):
        return self.cells.get((c.row, c.col, c.measure))

    def average(self, algo, measure):
        return self.cells.get((algo, measure))

    def sources(self, *facts):
        return ";".join(f"x/{f}.csv" for f in facts)

    def variant(self, name):
        return self._variant

    def shown(self, key):
        return f"ours of {key}", ["t1", "t2"]

    def finish(self, check, row, o):
        o.scale = "scale of " + row["claim_id"]
        return o


def _row(cid="X1", value=""):
    return pd.Series({"claim_id": cid, "value": value, "quote": "q"})


def test_wdl_options():
    ev = _Ev({("A", "B", "RMSE"): WdlCell((9, 0, 1), (5, 0, 5), n=10, fact="t"),
              ("A", "C", "RMSE"): WdlCell((9, 0, 1), (1, 0, 9), n=10, fact="t")})
    check = WDL((("p", (Cmp("A", "B", "RMSE", "nonsig", label="{measure} {row} vs {col}"),
                        Cmp("A", "C", "RMSE", "win_sig"))),), paper_own=True, say="significant", datasets=True)
    o = check.run(ev, _row())
    assert o.ours.startswith("RMSE A vs B 9/0/1 (p = 0.0107), significant; A vs C RMSE 9/0/1") and o.ours.endswith(
        " (10 datasets)")
    assert o.published.startswith("RMSE A vs B 5/0/5 (p = 0.6230); A vs C RMSE 1/0/9")
    assert o.extra["paper_own"] == "not reproduced" and "expected" not in o.parts[0][1][0].text
    # the default words a failing comparison by its expectation, shows no count and no paper's side
    o = WDL((("p", (Cmp("A", "B", "RMSE", "nonsig"),)),)).run(ev, _row())
    assert o.parts[0][1][0].text.endswith(", expected: no significant difference") and o.published == ""
    assert "datasets" not in o.ours and "paper_own" not in o.extra


def test_shown_alsoon_notehere_bespoke_ratio_and_scale_hooks():
    other = _Ev({("A", "m"): AvgCell(0.5, n=10, fact="t")})
    ev = _Ev({("A", "m"): AvgCell(1.0, n=10, fact="t"), ("B", "m"): AvgCell(4.0, n=10, fact="u")}, variant=other)

    def two(ev_, row, k):
        """X3: a bespoke check with an argument."""
        return Outcome([("", [kinds.Check(k == 2, "k")])], ours=str(k))

    checks = {"X1": Shown(AlsoOn(kinds.Average("A", "m"), "v", "on the variant"), published="fig", test="t"),
              "X2": AlsoOn(kinds.Average("A", "m"), "v"),
              "X3": Bespoke(two, (2,)),
              "X4": NotHere("quantity not measurable", "why", show="k"),
              "X5": Ratio("B", "A", "m")}
    assert kinds.describe(checks) == {"X1": "average", "X2": "average", "X3": "bespoke:two", "X4": "not_here",
                                      "X5": "ratio"}
    claims = pd.DataFrame([{"claim_id": c, "value": v, "quote": "q"}
                           for c, v in (("X1", "1.0"), ("X2", "1.0"), ("X3", ""), ("X4", ""), ("X5", "4"))])
    vs = {v.claim_id: v for v in kinds.run("x", checks, ev, claims)}
    assert vs["X1"].verdict == "reproduced" and (vs["X1"].published, vs["X1"].test) == ("fig", "t")
    assert vs["X1"].reason == "on the variant: not reproduced: 0.5000 over 10 datasets"     # 0.5 vs 1.0
    assert vs["X2"].reason == "" and vs["X2"].extra["v"].startswith("not reproduced: fails: A mean m")
    assert vs["X3"].verdict == "reproduced" and vs["X3"].ours == "2"
    assert vs["X4"].ours == "ours of k" and vs["X4"].evidence == "x/t1.csv;x/t2.csv"
    assert vs["X5"].evidence == "x/u.csv;x/t.csv" and vs["X5"].verdict == "reproduced"      # 4.0 / 1.0 vs 4
    assert all(v.scale == f"scale of {v.claim_id}" for v in vs.values())
    # an adapter's ratio wording
    ev.ratio_shown = lambda r, a, b, ours, pub: (f"{ours:g} here", f"{pub:g} there")
    v = kinds.run("x", {"X5": Ratio("B", "A", "m")}, ev, claims[claims["claim_id"] == "X5"])[0]
    assert (v.ours, v.published) == ("4 here", "4 there")


def test_each_verdict_names_the_experiment_its_numbers_come_from():
    """The scale gate holds an ESKDB claim to its own experiment (eskdb_main for the paper's tables), not
    to every experiment of the paper: a medium-scale sensitivity sweep must not gate Table 5's averages."""
    from pathlib import Path

    from bench import published

    root = Path(__file__).resolve().parents[1] / "reports"
    vs = {v.claim_id: v for v in eskdb.evaluate(root, published.claims("eskdb"))}
    assert vs["ES07"].extra["experiments"] == ["eskdb_main"]
    assert vs["ES31"].extra["experiments"] == ["eskdb_ensemble_size"]
    assert vs["ES05"].extra["experiments"] == ["eskdb_ablation"]
    assert "experiments" not in vs["ES27"].extra        # a config's prior: no run behind it


def test_selected_k_reports_a_tie_as_a_tie(tmp_path):
    """ES22: the standalone SKDB's choices 2, 2, 3, 5, 5 on tic-tac-toe: the table's most frequent k is
    "2 and 5" and the verdict's reason names the tie; a single mode stays a single k."""
    from types import SimpleNamespace

    from bench.papers.eskdb import build

    recs = pd.DataFrame([{"algo": "skdb", "status": "ok", "dataset": "tic_tac_toe", "extra.k": k}
                         for k in (2, 5, 3, 2, 5)]
                        + [{"algo": "eskdb_m", "status": "ok", "dataset": "tic_tac_toe", "extra.k_star": [2, 2, 4]}])
    out = tmp_path / "eskdb"
    out.mkdir()
    facts = Facts("eskdb")
    build.selected_k_table(SimpleNamespace(records=recs), {"ESKDB_M": "eskdb_m", "SKDB": "skdb"}, out, facts)
    t = facts.table("selected_k").set_index("algorithm")
    assert t.loc["SKDB", "most frequent k"] == "2 and 5" and t.loc["ESKDB_M", "most frequent k"] == "2"
    facts.write(out)
    v = eskdb.evaluate(tmp_path, published.claims("eskdb").query("claim_id == 'ES22'"))[0]
    assert v.verdict == "partly reproduced"       # 2 of 3 members hold; 2 of 5 (SKDB) is not a majority
    assert "standalone SKDB: k = 2 in 2 of 5 (40%); most frequent: k = 2 and k = 5 tie (2 each)" in v.reason
    assert "ESKDB_M's SKDB members: k = 2 in 2 of 3 (67%); most frequent: k = 2;" in v.ours


def _gibbs_exp(rmse: dict, planned: int = 50):
    """A stand-in for eskdb_gibbs_iterations: per iteration count, RMSE per dataset (error = RMSE / 2)."""
    from types import SimpleNamespace

    cols = {f"eskdb_hdp[n_iterations={k}]": v for k, v in rmse.items()}
    vals = pd.DataFrame(cols, index=[f"d{i}" for i in range(len(next(iter(rmse.values()))))])
    vals.index.name = "dataset"
    return SimpleNamespace(name="eskdb_gibbs_iterations", algos=lambda: list(cols), algo_reason=lambda a: None,
                           means=lambda m: vals if m == "rmse" else vals / 2, n_records=10 * len(vals) * len(cols),
                           plan={"experiment": "eskdb_gibbs_iterations", "scale": "full", "protocol": "cv5x2_eskdb",
                                 "datasets": [f"d{i}" for i in range(planned)], "seeds": [0]},
                           records=pd.DataFrame())


def test_gibbs_iterations_table_and_es25_rule(tmp_path):
    """ES25: the build's comparisons of 250 vs 1000 and 1000 vs 5000 (hand-counted W/D/L and mean difference,
    Wilcoxon p as scipy's); the verdict holds when 1000 vs 5000 on RMSE is not significant by the
    Wilcoxon test, and its reason names the subset of datasets."""
    from scipy import stats

    from bench.papers.eskdb import build
    from bench.report.context import PaperResult

    r5000 = [0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.70]
    r1000 = [0.11, 0.19, 0.30, 0.42, 0.47, 0.61, 0.70]      # 1000 vs 5000: W/D/L 2/2/3, near-equal
    r250 = [x + 0.01 * (i + 1) for i, x in enumerate(r1000)]  # always worse than 1000, by 0.01 .. 0.07
    out = tmp_path / "eskdb"
    out.mkdir()
    res = PaperResult("eskdb", experiments=[])
    files = build.gibbs_iterations(_gibbs_exp({250: r250, 1000: r1000, 5000: r5000}), out, res)
    assert out / "gibbs_iterations_tests.csv" in files and out / "gibbs_iterations.png" in files
    t = res.facts.table("gibbs_iterations_tests").set_index(["measure", "fewer"])
    a = t.loc[("RMSE", 1000)]
    assert (a["wins"], a["draws"], a["losses"]) == (2, 2, 3) and a["n_datasets"] == 7
    assert abs(a["mean_difference"] - (sum(r1000) - sum(r5000)) / 7) < 1e-12
    nz = [(x, y) for x, y in zip(r1000, r5000) if x != y]
    assert abs(a["wilcoxon_p"] - stats.wilcoxon([x for x, _ in nz], [y for _, y in nz]).pvalue) < 1e-12
    b = t.loc[("RMSE", 250)]
    assert (b["wins"], b["draws"], b["losses"]) == (0, 0, 7) and abs(b["mean_difference"] - 0.04) < 1e-12
    res.facts.add_value("eskdb_main_scale", {"protocols": ["cv5x2_eskdb"], "datasets": 67},
                        "eskdb_main/summary_long.csv")
    res.facts.write(out)
    claim = published.claims("eskdb").query("claim_id == 'ES25'")
    v = eskdb.evaluate(tmp_path, claim)[0]
    assert v.verdict == "reproduced" and v.evidence == "eskdb/gibbs_iterations_tests.csv"
    assert "the 7 datasets with complete runs at all three counts, of the 50 cheapest of eskdb_main's 67 (the 17 " \
           "largest not run)" in v.reason
    assert "RMSE 250 vs 1000: mean difference +0.040000, W/D/L 0/0/7" in v.ours
    # 1000 always worse than 5000 by a margin: the Wilcoxon test rejects, the claim fails
    res = PaperResult("eskdb", experiments=[])
    build.gibbs_iterations(_gibbs_exp({250: r250, 1000: [x + 0.02 for x in r5000], 5000: r5000}), out, res)
    res.facts.write(out)
    assert eskdb.evaluate(tmp_path, claim)[0].verdict == "not reproduced"
    (out / "facts.json").unlink()
    assert eskdb.evaluate(tmp_path, claim)[0].verdict == "not checkable"


def _uniform_exps(uniform: dict, gamma: list):
    """Stand-ins for eskdb_uniform_prior (uniform prior, RMSE per dataset by iterations) and eskdb_main
    (eskdb_hdp, Gamma(2,1) at 1000); error = RMSE / 2."""
    from types import SimpleNamespace

    idx = pd.Index([f"d{i}" for i in range(len(gamma))], name="dataset")
    u = pd.DataFrame({f"eskdb_hdp[n_iterations={k},prior=uniform]": v for k, v in uniform.items()}, index=idx)
    g = pd.DataFrame({"eskdb_hdp": gamma, "kdb": gamma}, index=idx)

    def exp(name, vals):
        splits = vals.assign(seed=0, repeat=0, fold=0).set_index(["seed", "repeat", "fold"], append=True)
        return SimpleNamespace(name=name, algos=lambda: list(vals.columns), algo_reason=lambda a: None,
                               means=lambda m: vals if m == "rmse" else vals / 2,
                               splits=lambda m: splits if m == "rmse" else splits / 2,
                               records=pd.DataFrame({"dataset": idx, "n_instances": 10}))
    return exp("eskdb_uniform_prior", u), exp("eskdb_main", g)


def test_uniform_prior_tables_and_es24_es26_rules(tmp_path):
    """ES24 holds when the uniform prior's 50000 iterations beat 10000 significantly (Wilcoxon), ES26 when
    Gamma(2,1) at 1000 is not significantly worse than the uniform prior at 10000; the reason names the datasets."""
    from bench.papers.eskdb import build
    from bench.report.context import PaperResult

    g = [0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.70, 0.80]
    u50k = [x + 0.001 * (i % 3 - 1) for i, x in enumerate(g)]          # about Gamma's
    u10k = [x + 0.01 + 0.001 * i for i, x in enumerate(u50k)]            # always worse than 50000
    out = tmp_path / "eskdb"
    out.mkdir()
    claims = published.claims("eskdb").query("claim_id in ['ES24', 'ES26']")
    res = PaperResult("eskdb", experiments=[])
    files = build.uniform_prior(*_uniform_exps({1000: u10k, 10000: u10k, 50000: u50k}, g), out, res)
    assert out / "uniform_prior_tests.csv" in files
    t = res.facts.table("uniform_prior_tests").set_index(["measure", "row", "col"])
    a = t.loc[("RMSE", "uniform 10000", "uniform 50000")]
    assert (a["wins"], a["draws"], a["losses"]) == (0, 0, 8) and abs(a["wilcoxon_p"] - 2 / 2 ** 8) < 1e-12
    assert abs(a["mean_difference"] - (sum(u10k) - sum(u50k)) / 8) < 1e-12
    res.facts.write(out)
    v = {x.claim_id: x for x in eskdb.evaluate(tmp_path, claims)}
    assert v["ES24"].verdict == "reproduced" and v["ES26"].verdict == "reproduced"
    assert "on the 8 datasets where 50000 iterations cost least (of eskdb_main's): d0, d1, d2, d3, d4, d5, d6, " \
           "d7" in v["ES26"].reason
    assert "RMSE Gamma(2,1) 1000 vs uniform 50000" in v["ES26"].ours
    # no gain from 50000 (ES24 fails); Gamma(2,1) worse than the uniform prior at 10000 (ES26 fails)
    res = PaperResult("eskdb", experiments=[])
    build.uniform_prior(*_uniform_exps({10000: u50k, 50000: u50k}, [x + 0.05 for x in g]), out, res)
    res.facts.write(out)
    v = {x.claim_id: x for x in eskdb.evaluate(tmp_path, claims)}
    assert v["ES24"].verdict == "not reproduced" and v["ES26"].verdict == "not reproduced"
    (out / "facts.json").unlink()
    assert {x.verdict for x in eskdb.evaluate(tmp_path, claims)} == {"not checkable"}
