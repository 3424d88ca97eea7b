"""Verdicts on the A2DE paper's claims (AN01..AN15; Zaidi and Webb, 2013).

Reads only the facts :mod:`bench.papers.ande_sr.build` recorded (``reports/ande_sr/facts.json``,
:mod:`bench.report.facts`), never its display tables: the W/D/L cells of Tables 2-5 (the fact tables
``table{2..5}_wdl_*_long``, shown in the CSVs of the same names) and of the same RF10 cells with
scikit-learn's forest (``wdl_rf10_sklearn_long``), the plotted values of Figs. 1-4 (``fig*_values``),
the per-dataset classification times (``classification_time``, shown in ``summary_long.csv``), the
configuration behind "RF10" (``rf10_config``) and the scale. A verdict's evidence is the source of
every fact it quotes (:meth:`Facts.sources`).

Each claim below is encoded as its *stated parts*, each a list of comparisons; the wording of a
claim decides the expectation ("significantly more often" -> the paper's two-tailed sign test at
p < 0.05 must reject, "more often" -> wins > losses). The same rule applied to the paper's own
counts gives ``extra["paper_own"]``. For every claim involving RF10, ``extra["rf10_sklearn"]`` holds
the verdict with scikit-learn's forest in RF10's place.

Thresholds of the figure claims (the paper prints no numbers for Figs. 1-4; ratios to NB, so no
absolute time is compared across machines): "greatly reduce" (AN12) = at most :data:`GREATLY` of
A2DE's classification time; "only slightly less" (AN13) = between :data:`SLIGHTLY` and 1 times RF10's
training time; "substantially more" (AN14) = at least :data:`SUBSTANTIALLY` times RF10's
classification time; "super-linear vs linear" (AN13) = RF10's training-time ratio to NB grows from
all to large data, and by more than A2DE-S's and A2DE-SW's do.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench.report.facts import Facts
from bench.report.verdicts import Verdict
from bench.report.verdicts._common import Check, check_one, combine, fmt_p, test_text, unknown, verdict, wdl_expect, wdl_p

PAPER = "ande_sr"
TEST, ALPHA = "sign2", 0.05          # as bench.report.ande_sr.TEST / ALPHA (checked in the tests)
RF, RF_SK = "RF10", "RF10-sklearn"
SKLEARN_FILE = "wdl_rf10_sklearn_long.csv"
ANDE = ["A1DE", "A1DE-S", "A1DE-W", "A1DE-SW", "A2DE", "A2DE-S", "A2DE-W", "A2DE-SW"]
#: the fact tables read (:mod:`bench.report.facts`; each shown in the report CSV of the same name)
SKLEARN_FACT = Path(SKLEARN_FILE).stem
TABLE_FACTS = {"bias": "table2_wdl_bias_long", "variance": "table3_wdl_variance_long",
               "0-1 loss": "table4_wdl_01loss_long", "RMSE": "table5_wdl_rmse_long"}
FIG_FACTS = {"Bias": "fig1_bias_variance_values", "Variance": "fig1_bias_variance_values",
             "0-1 loss": "fig2_01loss_values", "RMSE": "fig3_rmse_values",
             "Learning time": "fig4_time_values", "Classification time": "fig4_time_values"}
TIME_FACT = "classification_time"
GREATLY, SLIGHTLY, SUBSTANTIALLY = 0.75, 0.5, 2.0

#: the test column of the figure claims (mean ratios to NB over the datasets, Figs. 1-4) and the counts
FIG_TESTS = {
    "AN08": "mean ratio to NB, all data (Fig. 1): RF10's bias below and its variance above every AnDE's",
    "AN11": "A2DE-SW's mean ratio to NB (Figs. 2, 3) at most every other AnDE's and RF10's on small, medium and "
            "large data, for 0-1 loss and RMSE",
    "AN12": f"A2DE-S's classification time at most {GREATLY:g} x A2DE's, both as the mean over datasets of the "
            f"times / NB (Fig. 4) and as the per-dataset median of A2DE-S / A2DE",
    "AN13": f"slightly less: {SLIGHTLY:g} x RF10's <= A2DE-S's, A2DE-SW's training time (x NB) < RF10's; "
            f"super-linear: RF10's large / all data ratio > 1 and above A2DE-S's and A2DE-SW's",
    "AN14": f"classification time (x NB) of A2DE, A2DE-S, A2DE-W, A2DE-SW >= {SUBSTANTIALLY:g} x RF10's",
}
COUNT_TEST = "our count equals the paper's"

_SW = [("A1DE-S", "A1DE"), ("A1DE-W", "A1DE"), ("A2DE-S", "A2DE"), ("A2DE-W", "A2DE")]
_JOINT = [("A1DE-SW", "A1DE-S"), ("A1DE-SW", "A1DE-W"), ("A2DE-SW", "A2DE-S"), ("A2DE-SW", "A2DE-W")]
_MEASURES = ("0-1 loss", "RMSE")

#: claim id -> stated parts: (part name, [(row, col, table measure, subset, expectation)])
WDL_SPECS: dict[str, list[tuple[str, list[tuple]]]] = {
    "AN03": [("", [(r, c, "bias", "all", "win_sig") for r, c in _SW])],
    "AN04": [("", [(r, c, "bias", "all", "win_sig") for r, c in _JOINT])],
    "AN05": [("", [(r, c, "variance", "all", "loss") for r, c in _SW])],
    "AN06": [("", [(r, c, "variance", "all", "loss") for r, c in _JOINT])],
    "AN07": [("lower bias", [(RF, a, "bias", "all", "win_sig") for a in ANDE]),
             ("higher variance", [(RF, a, "variance", "all", "loss_sig") for a in ANDE])],
    # the paper's named exceptions (A1DE 0-1 loss medium, A2DE 0-1 loss small) are draws: not a loss there
    "AN09": [("", [(r, c, m, s, "not_loss" if (r, m, s) in {("A1DE-S", "0-1 loss", "medium"),
                                                             ("A2DE-S", "0-1 loss", "small")} else "win")
                   for m in _MEASURES for s in ("all", "large", "medium", "small")
                   for r, c in (("A1DE-S", "A1DE"), ("A2DE-S", "A2DE"))])],
    "AN10": [("all and small data: A1DE-SW and A2DE-SW win significantly", [
                 (RF, a, m, s, "loss_sig") for s in ("all", "small") for m in _MEASURES for a in ("A1DE-SW", "A2DE-SW")]),
             ("medium data: A2DE-SW wins significantly", [(RF, "A2DE-SW", m, "medium", "loss_sig") for m in _MEASURES]),
             ("medium data: A1DE-SW wins, not significantly",
              [(RF, "A1DE-SW", m, "medium", "loss_nonsig") for m in _MEASURES]),
             ("large data: both lose to RF10, not significantly",
              [(RF, a, m, "large", "win_nonsig") for m in _MEASURES for a in ("A1DE-SW", "A2DE-SW")])],
    "AN15": [("", [(RF, "A2DE-SW", "0-1 loss", "large", "loss_nonsig")])],
}
#: count claims: claim id -> (row, col, measure, subset, which count: 0 = the row's wins, 2 = its losses)
COUNT_SPECS = {"AN01": (RF, "A2DE-SW", "RMSE", "large", 0), "AN02": (RF, "A2DE-SW", "RMSE", "large", 2)}
FIG_CLAIMS = {"AN08", "AN11", "AN12", "AN13", "AN14"}
RF_CLAIMS = {"AN01", "AN02", "AN07", "AN08", "AN10", "AN11", "AN13", "AN14", "AN15"}
_WORD = {"win": "row wins more often", "loss": "row loses more often", "not_loss": "row does not lose more often",
         "win_sig": "row wins significantly more often", "loss_sig": "row loses significantly more often",
         "win_nonsig": "row wins more often, not significantly",
         "loss_nonsig": "row loses more often, not significantly"}


class _Data:
    """The facts of one ``ande_sr`` build (read back from facts.json, or in the build itself)."""

    def __init__(self, facts: Facts):
        self.facts = facts
        self.wdl: dict[tuple, dict] = {}
        for name in (*TABLE_FACTS.values(), SKLEARN_FACT):
            self._add(name)
        self.figs = {k: facts.table(name) for k, name in FIG_FACTS.items()}
        self.times = facts.table(TIME_FACT)      # per (dataset, config) classification seconds: AN12's median
        self.rf_config = str(facts.value("rf10_config") or "")
        self.has_sklearn = any(RF_SK in (k[0], k[1]) for k in self.wdl) or any(
            f is not None and RF_SK in set(f["algo"]) for f in self.figs.values())
        n = facts.value("datasets_compared")
        self.scale = "" if n is None else \
            f"scale {facts.value('scale', '?')}, protocol {facts.value('protocol', '?')}, {n} datasets"

    def _add(self, name: str):
        df = self.facts.table(name)
        if df is None:
            return
        for r in df.to_dict("records"):
            key = (r["row"], r["col"], r["measure"], r["subset"])
            self.wdl[key] = {"ours": _counts(r, "ours"), "published": _counts(r, "published"),
                             "n": 0 if pd.isna(r["ours_n"]) else int(r["ours_n"]), "note": r["note"] or "",
                             "fact": name}

    def fig(self, panel: str, group: str, algo: str) -> float | None:
        df = self.figs.get(panel)
        if df is None:
            return None
        sel = df[(df["panel"] == panel) & (df["group"] == group) & (df["algo"] == algo)]
        if sel.empty or pd.isna(sel["mean"].iloc[0]):
            return None
        return float(sel["mean"].iloc[0])

    def sources(self, *names: str) -> str:
        """The evidence of a verdict that read the facts ``names`` (those the build recorded)."""
        return self.facts.sources(*[n for n in names if n in self.facts.tables or n in self.facts.values])

    def rf_is_sklearn(self) -> bool:
        """True for builds whose RF10 is scikit-learn's forest (made before rf10_weka was the paper's RF10)."""
        return self.rf_config == "rf10"


def _counts(r: dict, side: str) -> tuple[int, int, int] | None:
    """The (wins, draws, losses) of one side of a W/D/L fact row; None where that side has no record."""
    v = [r[f"{side}_{k}"] for k in ("wins", "draws", "losses")]
    return None if any(x is None or pd.isna(x) for x in v) else tuple(int(x) for x in v)


def _sub(rf: str, name: str) -> str:
    return rf if name == RF else name


def _wdl_checks(data: _Data, parts, rf: str, side: str):
    out, shown, files = [], [], []
    for pname, comps in parts:
        checks = []
        for row, col, measure, subset, kind in comps:
            row, col = _sub(rf, row), _sub(rf, col)
            cell = data.wdl.get((row, col, measure, subset))
            w = cell[side] if cell else None
            ok = wdl_expect(w, kind, TEST, ALPHA)
            label = f"{row} vs {col} {measure} {subset}"
            if w is None:
                why = (cell or {}).get("note") or ("no table" if cell is None else "no complete runs")
                checks.append(Check(None, f"protocol not run at this scale: {label}: {why}"))
                continue
            p = wdl_p(w, TEST)
            txt = f"{label} {w[0]}/{w[1]}/{w[2]} ({fmt_p(p)})"
            checks.append(Check(ok, txt + ("" if ok else f", expected: {_WORD[kind]}")))
            shown.append(txt)
            files.append(cell["fact"])
        out.append((pname, checks))
    return out, shown, files


def _count(data: _Data, row: dict, spec, rf: str):
    r, c, m, s, which = spec
    r = _sub(rf, r)
    cell = data.wdl.get((r, c, m, s))
    pub_value = int(float(row["value"]))
    if cell is None or cell["ours"] is None:
        return [("", [Check(None, f"protocol not run at this scale: {r} vs {c} {m} {s}: " + ((cell or {}).get("note") or "no table"))])], "", ""
    o, p = cell["ours"], cell["published"]
    ours = f"{o[which]} ({r} vs {c}, {m}, {s} data: {o[0]}/{o[1]}/{o[2]})"
    if cell["n"] < sum(p):
        return [("", [Check(None, f"dataset absent: a count over the paper's {sum(p)} {s} datasets; ours covers {cell['n']} "
                                  f"(the others are not here)")])], ours, cell["fact"]
    return [("", [Check(o[which] == pub_value, f"ours {o[which]} vs paper {pub_value}")])], ours, cell["fact"]


def _fig_parts(data: _Data, cid: str, rf: str):
    """Stated parts of the figure claims (AN08, AN11-AN14), and the values shown."""
    f = data.fig
    if cid == "AN08":
        parts = []
        for name, panel, better in (("better bias", "Bias", True), ("worse variance", "Variance", False)):
            rv = f(panel, "All", rf)
            cs = []
            for a in ANDE:
                av = f(panel, "All", a)
                if rv is None or av is None:
                    cs.append(Check(None, f"protocol not run at this scale: {panel}: {rf if rv is None else a} not plotted"))
                else:
                    ok = rv < av if better else rv > av
                    cs.append(Check(ok, f"{panel}: {rf} {rv:.3f} vs {a} {av:.3f}"))
            parts.append((name, cs))
        shown = f"mean ratio to NB: bias {rf} {_f(f('Bias', 'All', rf))}, variance {rf} {_f(f('Variance', 'All', rf))}"
        return parts, shown, [FIG_FACTS["Bias"]]
    if cid == "AN11":
        parts, shown = [], []
        for panel in _MEASURES:
            cs = []
            for g in ("Small", "Medium", "Large"):
                sw = f(panel, g, "A2DE-SW")
                for a in [x for x in ANDE if x != "A2DE-SW"] + [rf]:
                    av = f(panel, g, a)
                    if sw is None or av is None:
                        cs.append(Check(None, f"protocol not run at this scale: {panel} {g}: {'A2DE-SW' if sw is None else a} not plotted"))
                    else:
                        cs.append(Check(sw <= av, f"{panel} {g}: A2DE-SW {sw:.3f} vs {a} {av:.3f}"))
                shown.append(f"{panel} {g} A2DE-SW {_f(sw)}")
            parts.append((panel, cs))
        return parts, "; ".join(shown), [FIG_FACTS[m] for m in _MEASURES]
    if cid == "AN12":
        s, a = f("Classification time", "All", "A2DE-S"), f("Classification time", "All", "A2DE")
        if s is None or a is None:
            return [("", [Check(None, "protocol not run at this scale: A2DE / A2DE-S classification time not plotted")])], "", [FIG_FACTS["Classification time"]]
        mean = Check(s <= GREATLY * a, f"mean over datasets of time / NB: A2DE-S {s:.2f} vs A2DE {a:.2f}; greatly = "
                                       f"at most {GREATLY} x A2DE's")
        med = _an12_median(data)
        ev = [FIG_FACTS["Classification time"]] + ([TIME_FACT] if med.ok is not None else [])
        return [("mean of the ratios to NB (Fig. 4)", [mean]),
                ("per-dataset median of A2DE-S / A2DE", [med])], \
            f"classification time / NB: A2DE-S {s:.2f}, A2DE {a:.2f}; {med.text}", ev
    if cid == "AN13":
        r_all, r_large = f("Learning time", "All", rf), f("Learning time", "Large", rf)
        slight, lin = [], []
        for a in ("A2DE-S", "A2DE-SW"):
            va, vl = f("Learning time", "All", a), f("Learning time", "Large", a)
            if va is None or r_all is None:
                slight.append(Check(None, f"protocol not run at this scale: {a} or {rf} training time not plotted"))
            else:
                slight.append(Check(SLIGHTLY * r_all <= va < r_all, f"{a} {va:.2f} vs {rf} {r_all:.2f} (x NB, all data)"))
            if None in (va, vl, r_all, r_large):
                lin.append(Check(None, f"protocol not run at this scale: {a} or {rf} training time on large data not plotted"))
            else:
                g_rf, g_a = r_large / r_all, vl / va
                lin.append(Check(g_rf > 1 and g_rf > g_a, f"large / all data: {rf} {g_rf:.2f}, {a} {g_a:.2f}"))
        shown = f"training time / NB, all (large) data: {rf} {_f(r_all)} ({_f(r_large)}), " + ", ".join(
            f"{a} {_f(f('Learning time', 'All', a))} ({_f(f('Learning time', 'Large', a))})" for a in ("A2DE-S", "A2DE-SW"))
        return [("slightly less training time than RF10", slight),
                ("RF10 super-linear, AnDE linear", lin)], shown, [FIG_FACTS["Learning time"]]
    if cid == "AN14":
        r = f("Classification time", "All", rf)
        cs = []
        for a in ("A2DE", "A2DE-S", "A2DE-W", "A2DE-SW"):
            v = f("Classification time", "All", a)
            if v is None or r is None:
                cs.append(Check(None, f"protocol not run at this scale: {a} or {rf} classification time not plotted"))
            else:
                cs.append(Check(v >= SUBSTANTIALLY * r, f"{a} {v:.2f} vs {rf} {r:.2f} (x NB)"))
        shown = f"classification time / NB: {rf} {_f(r)}, " + ", ".join(
            f"{a} {_f(f('Classification time', 'All', a))}" for a in ("A2DE", "A2DE-S", "A2DE-W", "A2DE-SW"))
        return [("", cs)], shown, [FIG_FACTS["Classification time"]]
    raise KeyError(cid)


def _an12_median(data) -> Check:
    """AN12's second part: the median over the datasets of A2DE-S's classification time / A2DE's (per-dataset
    mean test seconds, the fact table classification_time, shown in summary_long.csv), at most GREATLY; a mean
    of ratios to NB can be carried by one dataset (musk1), the median cannot."""
    t = data.times
    if t is None or not {"a2de", "a2de_s"} <= set(t["algo"]):
        return Check(None, "protocol not run at this scale: no per-dataset a2de / a2de_s classification times")
    p = t[t["algo"].isin(["a2de", "a2de_s"])].pivot_table(index="dataset", columns="algo", values="test_s").dropna()
    p = p[p["a2de"] > 0]
    if p.empty:
        return Check(None, "protocol not run at this scale: no dataset with both classification times")
    r = p["a2de_s"] / p["a2de"]
    m = float(r.median())
    return Check(m <= GREATLY, f"median A2DE-S / A2DE over {len(r)} datasets {m:.2f} ({int((r > 1).sum())} slower); "
                               f"greatly = at most {GREATLY}")


def _f(v) -> str:
    return "–" if v is None else f"{v:.3f}"


def _one(data: _Data, row: dict, rf: str) -> tuple:
    """(parts, ours, published, evidence file, test) of one claim with ``rf`` as RF10's label."""
    cid = row["claim_id"]
    if cid in WDL_SPECS:
        parts, shown, files = _wdl_checks(data, WDL_SPECS[cid], rf, "ours")
        pparts, pshown, _ = _wdl_checks(data, WDL_SPECS[cid], RF, "published")
        # every file a number of the verdict comes from (AN10 reads the 0-1 loss and the RMSE tables); with no
        # number, the tables it looked in
        ev = data.sources(*files) if files else \
            data.sources(*dict.fromkeys(TABLE_FACTS[c[2]] for _, comps in WDL_SPECS[cid] for c in comps))
        return parts, "; ".join(shown), "; ".join(pshown), ev, test_text(TEST, ALPHA), pparts
    if cid in COUNT_SPECS:
        parts, ours, ev = _count(data, row, COUNT_SPECS[cid], rf)
        r, c, m, s, _ = COUNT_SPECS[cid]
        cell = data.wdl.get((r, c, m, s))
        pub = f"{row['value']} ({r} vs {c}, {m}, {s} data: " + (
            "/".join(map(str, cell["published"])) if cell and cell["published"] else "?") + ")"
        own = None
        if cell and cell["published"]:
            own = [("", [Check(cell["published"][COUNT_SPECS[cid][4]] == int(float(row["value"])), "paper's cell")])]
        return parts, ours, pub, data.sources(ev or TABLE_FACTS[m]), COUNT_TEST, own
    parts, shown, names = _fig_parts(data, cid, rf)
    return parts, shown, "figure only (no values printed)", data.sources(*names), FIG_TESTS.get(cid, ""), None


def evaluate_facts(facts: Facts, claims: pd.DataFrame) -> list[Verdict]:
    """Verdicts from the facts of an ``ande_sr`` build; the evidence is the source of the facts read."""
    data = _Data(facts)
    out = []
    for row in claims.to_dict("records"):
        cid = row["claim_id"]
        if cid not in WDL_SPECS and cid not in COUNT_SPECS and cid not in FIG_CLAIMS:
            out.append(unknown(row, PAPER))
            continue
        parts, ours, pub, ev, test, pparts = _one(data, row, RF)
        extra = {}
        extra["paper_own"] = combine(pparts)[0] if pparts is not None else \
            ("figure only (no values printed)" if cid in FIG_CLAIMS else "")
        note = ""
        if cid in RF_CLAIMS:
            if data.rf_is_sklearn():
                note = "this build's RF10 is scikit-learn's rf10 (built before rf10_weka)"
                extra["rf10_sklearn"] = f"{combine(parts)[0]} (this build's RF10 column is scikit-learn's)"
            elif data.has_sklearn:
                sp, sours, *_ = _one(data, row, RF_SK)
                sv, sr = combine(sp)
                extra["rf10_sklearn"] = sv + (f": {sr}" if sr else "")
                extra["rf10_sklearn_ours"] = sours
            else:
                extra["rf10_sklearn"] = "not in this build"
        out.append(verdict(row, PAPER, parts, ours=ours, published=pub, test=test, evidence=ev,
                           scale=data.scale, extra=extra, note=note))
    return check_one(out, claims)


def evaluate(reports_dir: Path, claims: pd.DataFrame) -> list[Verdict]:
    return evaluate_facts(Facts.of_paper(Path(reports_dir), PAPER), claims)


__all__ = ["evaluate", "evaluate_facts", "WDL_SPECS", "COUNT_SPECS"]
