"""Verdicts on the A2DE paper's claims (AN01..AN15; Zaidi and Webb, 2013), on the one claim checker
(:mod:`bench.report.verdicts.kinds`).

Each claim's check kind and arguments are declared in :data:`CHECKS`: the W/D/L claims (AN03-AN07, AN09,
AN10, AN15) as :class:`~bench.report.verdicts.kinds.WDL` comparisons under the paper's two-tailed sign test
(p < 0.05), the others as the bespoke functions above it, each named after what it checks, its docstring
stating the reading of the claim's words. The wording of a claim decides the expectation ("significantly
more often" -> the paper's sign test must reject, "more often" -> wins > losses).

The paper's evidence (:class:`Evidence`, a :class:`~bench.report.verdicts.kinds.Evidence`) reads only the
facts :mod:`bench.papers.ande_sr.build` recorded (``reports/ande_sr/facts.json``, :mod:`bench.report.facts`),
never its display tables: the W/D/L cells of Tables 2-5 (the fact tables ``table{2..5}_wdl_*_long``, shown
in the CSVs of the same names) and of the same RF10 cells with scikit-learn's forest
(``wdl_rf10_sklearn_long``), the plotted values of Figs. 1-4 (``fig*_values``), the per-dataset
classification times (``classification_time``, shown in ``summary_long.csv``), the configuration behind
"RF10" (``rf10_config``) and the scale. A verdict's evidence is the source of every fact it quotes
(:meth:`Facts.sources`).

Beside each verdict (:meth:`Evidence.finish`): the same check on the paper's own counts gives
``extra["paper_own"]`` (and the published column, where the check does not show the paper's numbers
itself); for every claim whose check reads an RF10 cell, ``extra["rf10_sklearn"]`` holds the verdict of
the same check with scikit-learn's forest in RF10's place; and where the build has the same cells with Weka 3.6's own
RandomForest run by Weka on the same folds (experiment ``ande_sr_weka_rf``, :mod:`bench.papers.ande_sr.weka_rf`), the
same check with it in RF10's place (``extra["rf10_wekajar"]``), stated in the reason with its cells against NB and
the SW learners beside the paper's, those cells without the datasets whose size differs from the paper's, and the
three forests' mean 0-1 loss: the experiment behind a verdict that does not reproduce the paper's RF10 cells.

Thresholds of the figure claims (the paper prints no numbers for Figs. 1-4; ratios to NB, so no
absolute time is compared across machines): "greatly reduce" (AN12) = at most :data:`GREATLY` of
A2DE's classification time; "only slightly less" (AN13) = between :data:`SLIGHTLY` and 1 times RF10's
training time; "substantially more" (AN14) = at least :data:`SUBSTANTIALLY` times RF10's
classification time; "super-linear vs linear" (AN13) = RF10's training-time ratio to NB grows from
all to large data, and by more than A2DE-S's and A2DE-SW's do.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pandas as pd

from bench.papers.ande_sr import sr_check
from bench.report.facts import Facts
from bench.report.verdicts import Verdict, kinds, ordering, timing
from bench.report.verdicts._common import ABSENT, NOT_AT_SCALE, Check
from bench.report.verdicts.kinds import WDL, Bespoke, Cmp, Outcome, WdlCell

PAPER = "ande_sr"
TEST, ALPHA = "sign2", 0.05          # as bench.papers.ande_sr.build.TEST / ALPHA (checked in the tests)
RF, RF_SK = "RF10", "RF10-sklearn"
SKLEARN_FILE = "wdl_rf10_sklearn_long.csv"
ANDE = ["A1DE", "A1DE-S", "A1DE-W", "A1DE-SW", "A2DE", "A2DE-S", "A2DE-W", "A2DE-SW"]
#: the fact tables read (:mod:`bench.report.facts`; each shown in the report CSV of the same name)
SKLEARN_FACT = Path(SKLEARN_FILE).stem
#: the same RF10 cells of Tables 4-5 with Weka 3.6's own RandomForest, run by Weka on the same folds
#: (experiment ande_sr_weka_rf, :mod:`bench.papers.ande_sr.weka_rf`)
RF_WK, WEKA_FACT, WEKA_PER_DATASET = "RF10-Weka", "wdl_rf10_wekajar_long", "rf10_weka_itself_per_dataset"
WEKA_SIZES = "rf10_weka_itself_by_size"
TABLE_FACTS = {"bias": "table2_wdl_bias_long", "variance": "table3_wdl_variance_long",
               "0-1 loss": "table4_wdl_01loss_long", "RMSE": "table5_wdl_rmse_long"}
FIG_FACTS = {"Bias": "fig1_bias_variance_values", "Variance": "fig1_bias_variance_values",
             "0-1 loss": "fig2_01loss_values", "RMSE": "fig3_rmse_values",
             "Learning time": "fig4_time_values", "Classification time": "fig4_time_values"}
TIME_FACT = "classification_time"
RATIO_FACT = "error_ratio_to_nb"
#: RF10 and the AnDE learners are not one code base with the same engineering
DIFFERS_RF10 = ("bench's RF10 (a reimplementation of Weka's RandomForest) and its AnDE learners are separate "
                "Numba code bases, each faster than the paper's Weka code by its own factor, so their time ratio "
                "measures the engineering as much as the algorithms")
GREATLY, SLIGHTLY, SUBSTANTIALLY = 0.75, 0.5, 2.0
FIGURE_ONLY = "figure only (no values printed)"

#: AN09: the paper's named exceptions ("the exceptions are A1DE, 0-1 loss, medium data and A2DE, 0-1 loss, small
#: data, for which there are draws"): exempt from the claim exactly as the paper exempts them (shown, not decided)
_SR_EXCEPTIONS = {("A1DE-S", "0-1 loss", "medium"), ("A2DE-S", "0-1 loss", "small")}
#: the collection whose missing datasets are its largest, the ones a claim about it rests on: every comparison on
#: it with fewer datasets than the paper's is not checkable (dataset absent); on the other collections the
#: comparisons are decided on the datasets here, the collection and its count named
LARGE = "large"
#: AN12: classification times are compared only on datasets where A2DE classifies a split in at least this many
#: CPU seconds: below it the fixed per-call cost of subsumption resolution's check and the clock's resolution
#: decide the ratio, not the classification work
MEASURABLE_S = 0.01

#: the test column of the figure claims (mean ratios to NB over the datasets, Figs. 1-4) and the counts
FIG_TESTS = {
    "AN08": "mean ratio to NB, all data (Fig. 1): RF10's bias below and its variance above every AnDE's",
    "AN11": "A2DE-SW lowest on small, medium and large data, for 0-1 loss and RMSE: on the per-dataset ratios to NB "
            "(what Figs. 2, 3 average) no other AnDE nor RF10 better by the " + ordering.test_text("wilcoxon"),
    "AN12": f"A2DE-S's classification time at most {GREATLY:g} x A2DE's, on the datasets where A2DE takes >= "
            f"{MEASURABLE_S:g} s per split: " + timing.rule_text(),
    "AN13": f"slightly less: {SLIGHTLY:g} x RF10's <= A2DE-S's, A2DE-SW's training time (x NB) < RF10's, decided "
            f"across implementations only beyond an engineering factor of x{timing.ENGINEERING_FACTOR:g}; super-linear: "
            f"RF10's large / all data ratio > 1 and above A2DE-S's and A2DE-SW's",
    "AN14": f"classification time (x NB) of A2DE, A2DE-S, A2DE-W, A2DE-SW >= {SUBSTANTIALLY:g} x RF10's, decided across "
            f"implementations only beyond an engineering factor of x{timing.ENGINEERING_FACTOR:g}",
}
COUNT_TEST = "our count equals the paper's"
#: how a failed W/D/L expectation is worded in a reason (its Evidence.expected)
_WORD = {"win": "row wins more often", "loss": "row loses more often", "not_loss": "row does not lose more often",
         "win_sig": "row wins significantly more often", "loss_sig": "row loses significantly more often",
         "win_nonsig": "row wins more often, not significantly",
         "loss_nonsig": "row loses more often, not significantly", "exempt": "exempt (the claim's named exception)"}

_SW = [("A1DE-S", "A1DE"), ("A1DE-W", "A1DE"), ("A2DE-S", "A2DE"), ("A2DE-W", "A2DE")]
_JOINT = [("A1DE-SW", "A1DE-S"), ("A1DE-SW", "A1DE-W"), ("A2DE-SW", "A2DE-S"), ("A2DE-SW", "A2DE-W")]
_SR = [("A1DE-S", "A1DE"), ("A2DE-S", "A2DE")]
_MEASURES = ("0-1 loss", "RMSE")
_SUBSETS = ("all", "large", "medium", "small")


def large_absent(n: int, n_paper: int) -> str:
    """Why a comparison on the large collection is not checkable: ours covers ``n`` of its ``n_paper``
    datasets, and the paper's large datasets not here are its largest (named with their rows)."""
    from bench import published

    p = published.datasets(PAPER)
    gone = p[(p["size_category"] == LARGE) & (p["ours"] == "")].sort_values("rows", ascending=False)
    names = ", ".join(f"{r.dataset} ({int(r.rows)} rows)" for r in gone.itertuples())
    return (f"ours covers {n} of the paper's {n_paper} large datasets; not here: {names}, the largest, on which a "
            f"claim about big data rests")


def _c(row: str, col: str, measure: str, subset: str, expect: str) -> Cmp:
    """One cell of Tables 2-5: ``row`` against ``col`` on ``measure`` over the ``subset`` of datasets."""
    return Cmp(row, col, measure, expect, (subset,))


# ------------------------------------------------------------------ the bespoke checks
def rf10_wins_on_large_rmse(ev, row) -> Outcome:
    """AN01 "five wins ... over RF10": the RF10 vs A2DE-SW RMSE cell on large data (Table 5, the paper's
    5/0/7), its row's wins (RF10's) equal to the claim's count, when ours covers the paper's datasets."""
    return _count(ev, row, _c(RF, "A2DE-SW", "RMSE", "large", "win"), 0)


def rf10_losses_on_large_rmse(ev, row) -> Outcome:
    """AN02 "seven losses": the same cell as AN01, its row's losses equal to the claim's count."""
    return _count(ev, row, _c(RF, "A2DE-SW", "RMSE", "large", "loss"), 2)


def rf10_bias_below_variance_above_every_ande(ev, row) -> Outcome:
    """AN08 "RF10 has better bias than any member of the AnDE family but worse variance": on Fig. 1's mean
    ratios to NB over all data, RF10's bias below every AnDE's and its variance above every AnDE's."""
    f, rf = ev.fig, ev.rf
    parts = []
    for name, panel, better in (("better bias", "Bias", True), ("worse variance", "Variance", False)):
        rv = f(panel, "All", rf)
        cs = []
        for a in ANDE:
            av = f(panel, "All", a)
            if rv is None or av is None:
                cs.append(Check(None, f"{NOT_AT_SCALE}: {panel}: {rf if rv is None else a} not plotted"))
            else:
                cs.append(Check(rv < av if better else rv > av, f"{panel}: {rf} {rv:.3f} vs {a} {av:.3f}"))
        parts.append((name, cs))
    shown = f"mean ratio to NB: bias {rf} {_f(f('Bias', 'All', rf))}, variance {rf} {_f(f('Variance', 'All', rf))}"
    return _figure(ev, row, parts, shown, FIG_FACTS["Bias"])


def a2de_sw_lowest_error_on_every_size(ev, row) -> Outcome:
    """AN11 "A2DE-SW achieves lower average 0-1 loss and RMSE on all of small, medium and large datasets": an
    ordering of means, so decided by the paired test (:mod:`bench.report.verdicts.ordering`): in each size
    group, on the per-dataset ratios to NB that Figs. 2 and 3 average, no other AnDE nor RF10 is better than
    A2DE-SW by the two-sided Wilcoxon signed-rank test over the group's datasets (a difference the test does
    not find is a tie, not a loss); one stated part per size group. The large group is missing its largest
    datasets here: not checkable there (dataset absent, :data:`LARGE`)."""
    f, rf = ev.fig, ev.rf
    parts, shown = {g: [] for g in ("Small", "Medium", "Large")}, []
    for panel in _MEASURES:
        for g in ("Small", "Medium", "Large"):
            cs = parts[g]
            sw = f(panel, g, "A2DE-SW")
            shown.append(f"{panel} {g} A2DE-SW {_f(sw)}")
            vals = ev.ratios(panel, g)
            if g.lower() == LARGE:
                n, n_paper = ev.group_size(g)
                if n_paper and n < n_paper:
                    cs.append(Check(None, f"{ABSENT}: {panel} {g}: {large_absent(n, n_paper)}"))
                    continue
            if vals is None or "A2DE-SW" not in vals.columns:
                cs.append(Check(None, f"{NOT_AT_SCALE}: {panel} {g}: no per-dataset ratios to NB"))
                continue
            cols = ["A2DE-SW"] + [a for a in [x for x in ANDE if x != "A2DE-SW"] + [rf] if a in vals.columns]
            got = ordering.best(vals[cols], "A2DE-SW", f"{panel} {g}", digits=3)
            cs += got
            shown[-1] += f" ({ordering.tally(got)})"
    return _figure(ev, row, [(f"{g.lower()} data", cs) for g, cs in parts.items()], "; ".join(shown),
                   *[FIG_FACTS[m] for m in _MEASURES], RATIO_FACT)


def sr_greatly_reduces_a2de_classification_time(ev, row) -> Outcome:
    """AN12 "subsumption resolution can greatly reduce A2DE's classification time": a time ratio, decided by
    the timing rule (:mod:`bench.report.verdicts.timing`) on the datasets where the timing is measurable:
    the per-dataset A2DE-S / A2DE classification-time ratios (mean test CPU seconds per split over the same
    folds) on the datasets where A2DE classifies a split in at least :data:`MEASURABLE_S` seconds (below it
    the fixed per-call cost of the subsumption check and the clock's resolution decide the ratio, not the
    classification work); "greatly" = the geometric mean's 95% bootstrap interval wholly at most
    :data:`GREATLY`. Fig. 4's mean over datasets of the times / NB is shown beside, not decided on: a mean of
    ratios is carried by the few datasets with the largest ratios."""
    f = ev.fig
    s, a = f("Classification time", "All", "A2DE-S"), f("Classification time", "All", "A2DE")
    t = ev.times
    label = f"A2DE-S / A2DE classification time on the datasets where A2DE takes >= {MEASURABLE_S:g} s per split"
    if t is None or not {"a2de", "a2de_s"} <= set(t["algo"]):
        check, n_all = Check(None, f"{NOT_AT_SCALE}: no per-dataset a2de / a2de_s classification times"), 0
        iv = None
    else:
        p = t[t["algo"].isin(["a2de", "a2de_s"])].pivot_table(index="dataset", columns="algo",
                                                              values="test_s").dropna()
        n_all = len(p)
        p = p[p["a2de"] >= MEASURABLE_S]
        iv = timing.interval(p["a2de_s"] / p["a2de"])
        check = timing.check(iv, label, hi=GREATLY, no_value="no dataset above the threshold")
    fig4 = "" if s is None or a is None else \
        f"Fig. 4 (mean over all datasets of time / NB, not decided on): A2DE-S {s:.2f}, A2DE {a:.2f} ({s / a:.2f}x)"
    shown = "; ".join(x for x in (f"{iv.text()} (of {n_all} datasets)" if iv is not None else "", fig4) if x)
    o = _figure(ev, row, [("", [check])], shown, FIG_FACTS["Classification time"], TIME_FACT)
    o.note = timing.how_timed("times.test_cpu_s")
    return o


def a2de_sr_trains_slightly_faster_than_rf10_and_linearly(ev, row) -> Outcome:
    """AN13 "A2DE-S and A2DE-SW require only slightly less training time on average than RF10, [their]
    training time ... is linear ... while RF10's is super-linear": on Fig. 4 (x NB, all data) each between
    :data:`SLIGHTLY` x RF10's and RF10's; RF10's large / all data ratio above 1 and above each of theirs."""
    f, rf = ev.fig, ev.rf
    r_all, r_large = f("Learning time", "All", rf), f("Learning time", "Large", rf)
    slight, lin = [], []
    for a in ("A2DE-S", "A2DE-SW"):
        va, vl = f("Learning time", "All", a), f("Learning time", "Large", a)
        if va is None or r_all is None:
            slight.append(Check(None, f"{NOT_AT_SCALE}: {a} or {rf} training time not plotted"))
        else:
            slight.append(Check(SLIGHTLY * r_all <= va < r_all, f"{a} {va:.2f} vs {rf} {r_all:.2f} (x NB, all data)"))
        if None in (va, vl, r_all, r_large):
            lin.append(Check(None, f"{NOT_AT_SCALE}: {a} or {rf} training time on large data not plotted"))
        else:
            g_rf, g_a = r_large / r_all, vl / va
            lin.append(Check(g_rf > 1 and g_rf > g_a, f"large / all data: {rf} {g_rf:.2f}, {a} {g_a:.2f}"))
    shown = f"training time / NB, all (large) data: {rf} {_f(r_all)} ({_f(r_large)}), " + ", ".join(
        f"{a} {_f(f('Learning time', 'All', a))} ({_f(f('Learning time', 'Large', a))})" for a in ("A2DE-S", "A2DE-SW"))
    # a ratio of training times of different implementations: decided only beyond any engineering factor
    slight = [timing.different(f"{a} / {rf} training time (x NB, all data)", DIFFERS_RF10,
                               f("Learning time", "All", a) / r_all, SLIGHTLY, 1.0) if c.ok is not None else c
              for a, c in zip(("A2DE-S", "A2DE-SW"), slight)]
    # RF10's growth from all to large data rests on the large collection, whose largest datasets are not here
    n, n_paper = ev.group_size("Large")
    if n_paper and n < n_paper:
        lin = [Check(None, f"{ABSENT}: training time on large data: {large_absent(n, n_paper)}")]
    return _figure(ev, row, [("slightly less training time than RF10", slight),
                             ("RF10 super-linear, AnDE linear", lin)], shown, FIG_FACTS["Learning time"])


def a2de_classifies_substantially_slower_than_rf10(ev, row) -> Outcome:
    """AN14 "A2DE and its variants require substantially more classification time than RF10": on Fig. 4
    (x NB, all data) each of A2DE, A2DE-S, A2DE-W, A2DE-SW at least :data:`SUBSTANTIALLY` x RF10's."""
    f, rf = ev.fig, ev.rf
    r = f("Classification time", "All", rf)
    cs = []
    for a in ("A2DE", "A2DE-S", "A2DE-W", "A2DE-SW"):
        v = f("Classification time", "All", a)
        if v is None or r is None:
            cs.append(Check(None, f"{NOT_AT_SCALE}: {a} or {rf} classification time not plotted"))
        else:   # different implementations: decided only beyond any engineering factor
            cs.append(timing.different(f"{a} / {rf} classification time (x NB)", DIFFERS_RF10, v / r,
                                       lo=SUBSTANTIALLY))
    shown = f"classification time / NB: {rf} {_f(r)}, " + ", ".join(
        f"{a} {_f(f('Classification time', 'All', a))}" for a in ("A2DE", "A2DE-S", "A2DE-W", "A2DE-SW"))
    return _figure(ev, row, [("", cs)], shown, FIG_FACTS["Classification time"])


# ------------------------------------------------------------------ each claim's check
CHECKS = {
    "AN01": Bespoke(rf10_wins_on_large_rmse),
    "AN02": Bespoke(rf10_losses_on_large_rmse),
    "AN03": WDL((("", tuple(_c(r, c, "bias", "all", "win_sig") for r, c in _SW)),)),
    "AN04": WDL((("", tuple(_c(r, c, "bias", "all", "win_sig") for r, c in _JOINT)),)),
    "AN05": WDL((("", tuple(_c(r, c, "variance", "all", "loss") for r, c in _SW)),)),
    "AN06": WDL((("", tuple(_c(r, c, "variance", "all", "loss") for r, c in _JOINT)),)),
    "AN07": WDL((("lower bias", tuple(_c(RF, a, "bias", "all", "win_sig") for a in ANDE)),
                 ("higher variance", tuple(_c(RF, a, "variance", "all", "loss_sig") for a in ANDE)))),
    "AN08": Bespoke(rf10_bias_below_variance_above_every_ande),
    "AN09": WDL((("", tuple(_c(r, c, m, s, "exempt" if (r, m, s) in _SR_EXCEPTIONS else "win")
                            for m in _MEASURES for s in _SUBSETS if s != LARGE for r, c in _SR)),
                 ("large data", tuple(_c(r, c, m, LARGE, "win") for m in _MEASURES for r, c in _SR)))),
    "AN10": WDL((("all and small data: A1DE-SW and A2DE-SW win significantly",
                  tuple(_c(RF, a, m, s, "loss_sig") for s in ("all", "small") for m in _MEASURES
                        for a in ("A1DE-SW", "A2DE-SW"))),
                 ("medium data: A2DE-SW wins significantly",
                  tuple(_c(RF, "A2DE-SW", m, "medium", "loss_sig") for m in _MEASURES)),
                 ("medium data: A1DE-SW wins, not significantly",
                  tuple(_c(RF, "A1DE-SW", m, "medium", "loss_nonsig") for m in _MEASURES)),
                 ("large data: both lose to RF10, not significantly",
                  tuple(_c(RF, a, m, "large", "win_nonsig") for m in _MEASURES for a in ("A1DE-SW", "A2DE-SW"))))),
    "AN11": Bespoke(a2de_sw_lowest_error_on_every_size),
    "AN12": Bespoke(sr_greatly_reduces_a2de_classification_time),
    "AN13": Bespoke(a2de_sr_trains_slightly_faster_than_rf10_and_linearly),
    "AN14": Bespoke(a2de_classifies_substantially_slower_than_rf10),
    "AN15": WDL((("", (_c(RF, "A2DE-SW", "0-1 loss", "large", "loss_nonsig"),)),)),
}
_FIGURE_CHECKS = (rf10_bias_below_variance_above_every_ande, a2de_sw_lowest_error_on_every_size,
                  sr_greatly_reduces_a2de_classification_time, a2de_sr_trains_slightly_faster_than_rf10_and_linearly,
                  a2de_classifies_substantially_slower_than_rf10)
#: the claims checked on the figures (the paper prints no values for them)
FIG_CLAIMS = {cid for cid, c in CHECKS.items() if isinstance(c, Bespoke) and c.fn in _FIGURE_CHECKS}


# ------------------------------------------------------------------ the paper's evidence (kinds.Evidence)
class Evidence(kinds.Evidence):
    """The facts of one ``ande_sr`` build (read back from facts.json, or in the build itself), answering the
    kinds' questions. ``rf`` is the forest answered in RF10's place (RF10; RF10-sklearn for the same checks
    with scikit-learn's forest); with ``side="published"`` the paper's own counts are answered as ours (the
    same checks on the paper's tables). ``rf_reads`` counts the answers that read an RF10 cell."""

    paper, test, alpha = PAPER, TEST, ALPHA

    def __init__(self, facts: Facts, rf: str = RF, side: str = "ours"):
        self.facts, self.rf, self.side, self.rf_reads = facts, rf, side, 0
        self.cells = kinds.wdl_fact_cells(facts, *TABLE_FACTS.values(), SKLEARN_FACT, WEKA_FACT)
        self.figs = {k: facts.table(name) for k, name in FIG_FACTS.items()}
        self.times = facts.table(TIME_FACT)      # per (dataset, config) classification seconds: AN12's median
        self.rf_config = str(facts.value("rf10_config") or "")
        self.has_sklearn = any(RF_SK in (k[0], k[1]) for k in self.cells) or any(
            f is not None and RF_SK in set(f["algo"]) for f in self.figs.values())
        self.has_weka = any(RF_WK in (k[0], k[1]) for k in self.cells)
        n = facts.value("datasets_compared")
        self.scale = "" if n is None else \
            f"scale {facts.value('scale', '?')}, protocol {facts.value('protocol', '?')}, {n} datasets"

    def reading(self, rf: str | None = None, side: str | None = None) -> "Evidence":
        """The same facts with another forest in RF10's place or the paper's counts as ours."""
        v = copy.copy(self)
        v.rf, v.side, v.rf_reads = rf or self.rf, side or self.side, 0
        return v

    def algo(self, name: str) -> str:
        """The column answered for ``name``: the evidence's forest for RF10 (counted in ``rf_reads``)."""
        if name in (RF, self.rf):
            self.rf_reads += 1
        return self.rf if name == RF else name

    # the kinds' questions
    def wdl(self, c: Cmp) -> WdlCell:
        (subset,) = c.where
        row, col = self.algo(c.row), self.algo(c.col)
        cell = self.cells.get((row, col, c.measure, subset))
        if cell is None:
            return WdlCell(None, note="no table")
        ours = cell.published if self.side == "published" else cell.ours
        n = sum(ours or ()) if self.side == "published" else cell.n
        if subset == LARGE and ours is not None and cell.published and n < sum(cell.published):
            return WdlCell(None, cell.published, n=n, fact=cell.fact, category=ABSENT,
                           note=large_absent(n, sum(cell.published)), aside=ours)
        return WdlCell(ours, cell.published, n=n, fact=cell.fact, note=cell.note or "no complete runs",
                       values=self.paired_values(row, col, c.measure, n, None if subset == "all" else subset)
                       if self.side == "ours" else None)

    def label(self, c: Cmp) -> str:
        return f"{self.algo(c.row)} vs {self.algo(c.col)} {c.measure} {c.where[0]}"

    def expected(self, c: Cmp) -> str:
        return _WORD[c.expect]

    def fig(self, panel: str, group: str, algo: str) -> float | None:
        """The mean ratio to NB of ``algo`` in the ``group`` of datasets, as Figs. 1-4 plot it."""
        self.algo(algo)
        df = self.figs.get(panel)
        if df is None:
            return None
        sel = df[(df["panel"] == panel) & (df["group"] == group) & (df["algo"] == algo)]
        if sel.empty or pd.isna(sel["mean"].iloc[0]):
            return None
        return float(sel["mean"].iloc[0])

    def ratios(self, panel: str, group: str) -> pd.DataFrame | None:
        """The per-dataset ratios to NB (datasets x learners, the paper's names) of ``panel`` (0-1 loss, RMSE) in
        ``group`` (Small, Medium, Large), on the datasets where every learner has one; RF10 is the evidence's
        forest."""
        t = self.facts.table(RATIO_FACT)
        if t is None:
            return None
        t = t[(t["measure"] == panel) & (t["group"] == group)]
        if t.empty:
            return None
        return t.pivot_table(index="dataset", columns="algo", values="ratio").astype(float).dropna()

    def group_size(self, group: str) -> tuple[int, int]:
        """(datasets of the collection here, the paper's count of it): from the published datasets."""
        from bench import published

        p = published.datasets(PAPER)
        p = p[p["size_category"] == group.lower()]
        return int((p["ours"] != "").sum()), len(p)

    def rf_is_sklearn(self) -> bool:
        """True for builds whose RF10 is scikit-learn's forest (made before rf10_weka was the paper's RF10)."""
        return self.rf_config == "rf10"

    # beside each verdict
    def finish(self, check, row, o: Outcome) -> Outcome:
        """What every verdict of this paper carries beside its check's outcome: the scale; the same check on
        the paper's own counts (``extra["paper_own"]``, and the published column where the check does not
        show the paper's numbers itself); the tables a W/D/L check looked in when none had our counts; and,
        when the check reads an RF10 cell, its verdict with scikit-learn's forest (``extra["rf10_sklearn"]``)."""
        o.scale = self.scale
        if row["claim_id"] == "AN04":   # the documented cause of the A1DE-SW vs A1DE-W cell
            cause = sr_check.note(self.facts)
            if cause:
                o.note = "; ".join(filter(None, [o.note, cause]))
                o.evidence = ";".join(filter(None, [o.evidence or self.sources(TABLE_FACTS["bias"]),
                                                    self.sources(sr_check.FACT)]))
        if "paper_own" not in o.extra:
            own, _, po = kinds.judge(check, self.reading(side="published"), row)
            o.extra["paper_own"] = own
            o.published = o.published or po.ours
        if not o.evidence and isinstance(check, WDL):
            o.evidence = self.sources(*dict.fromkeys(TABLE_FACTS[c.measure] for _, cs in check.parts for c in cs))
        other = self.has_sklearn and not self.rf_is_sklearn()
        probe = self.reading(rf=RF_SK if other else self.rf)
        sv, sr, so = kinds.judge(check, probe, row)
        if probe.rf_reads:
            if self.rf_is_sklearn():
                o.note = "this build's RF10 is scikit-learn's rf10 (built before rf10_weka)"
                o.extra["rf10_sklearn"] = f"{sv} (this build's RF10 column is scikit-learn's)"
            elif other:
                o.extra["rf10_sklearn"] = sv + (f": {sr}" if sr else "")
                o.extra["rf10_sklearn_ours"] = so.ours
            else:
                o.extra["rf10_sklearn"] = "not in this build"
        if self.has_weka and not self.rf_is_sklearn():
            probe = self.reading(rf=RF_WK)
            wv, wr, wo = kinds.judge(check, probe, row)
            if probe.rf_reads and wv != kinds.NOT_CHECKABLE:
                o.extra["rf10_wekajar"] = wv + (f": {wr}" if wr else "")
                o.note = "; ".join(filter(None, [o.note, self.weka_note(wv, wo)]))
                o.evidence = ";".join(filter(None, [o.evidence, self.sources(WEKA_FACT, WEKA_PER_DATASET)]))
        return o

    def weka_note(self, verdict: str, o: Outcome) -> str:
        """What the verdict says beside its check on bench's RF10: the same check with Weka's own forest run by
        Weka on the same folds, its counts against NB (the same learner in the paper and here: the anchor of
        the comparison) beside bench's RF10's and the paper's, and the three forests' mean 0-1 loss."""
        parts = [f"with Weka 3.6's own RandomForest -I 10 -K 0 run on the same folds in RF10's place: {verdict}"]
        nb = []
        for rf, who in ((RF_WK, "Weka's own"), (RF, "bench's RF10")):
            c = self.cells.get((rf, "NB", "0-1 loss", "all"))
            if c and c.ours:
                nb.append(f"{who} {'/'.join(map(str, c.ours))}")
                pub = c.published
        if nb and pub:
            nb.append(f"the paper's {'/'.join(map(str, pub))}")
            parts.append("RF10 vs NB 0-1 loss, all data: " + ", ".join(nb))
        def wdl(c) -> str:
            return "/".join(map(str, c))

        cells = [(a, self.cells.get((RF_WK, a, "0-1 loss", "all"))) for a in ("A1DE-SW", "A2DE-SW")]
        if all(c and c.ours for _, c in cells):
            parts.append("Weka's own RF10 vs " + ", ".join(f"{a} {wdl(c.ours)} (paper {wdl(c.published)})"
                                                          for a, c in cells))
        # the SW learners against the same NB: with RF10 vs NB, the anchor of the head-to-head cells
        sw = [(a, self.cells.get((a, "NB", "0-1 loss", "all"))) for a in ("A1DE-SW", "A2DE-SW")]
        if all(c and c.ours and c.published for _, c in sw):
            parts.append("the SW learners against the same NB: " + ", ".join(
                f"{a} vs NB {wdl(c.ours)} (paper {wdl(c.published)})" for a, c in sw))
        z = self.facts.table(WEKA_SIZES)
        resized = self.facts.value("resized_datasets") or {}
        if z is not None and not z.empty and resized:
            def cell(a, where):
                r = z[(z["col"] == a) & (z["datasets"] == where)]
                return "-" if r.empty or pd.isna(r["wins"].iloc[0]) else \
                    f"{int(r['wins'].iloc[0])}/{int(r['draws'].iloc[0])}/{int(r['losses'].iloc[0])}"
            names = ", ".join(f"{d} {p} -> {h} rows" for d, (p, h) in resized.items())
            parts.append(f"without the datasets whose size differs from the paper's ({names}): "
                         f"Weka's own RF10 vs A1DE-SW {cell('A1DE-SW', 'same size as the paper' + chr(39) + 's')}, "
                         f"vs A2DE-SW {cell('A2DE-SW', 'same size as the paper' + chr(39) + 's')}; on them "
                         f"{cell('A1DE-SW', 'resized')}, {cell('A2DE-SW', 'resized')}")
        t = self.facts.table(WEKA_PER_DATASET)
        if t is not None and not t.empty:
            m = {c: pd.to_numeric(t[c], errors="coerce").mean() for c in (RF_WK, "RF10 (bench)", "RF10-sklearn")
                 if c in t.columns}
            parts.append(f"mean 0-1 loss over {len(t)} datasets: " + ", ".join(f"{k} {v:.4f}" for k, v in m.items()))
        vs = self.facts.value("weka_vs_bench_rf10")
        if vs:
            same = vs["wilcoxon_p"] >= ALPHA
            parts.append(f"Weka's own forest against bench's RF10 per dataset {vs['wins']}/{vs['draws']}/{vs['losses']} "
                         f"(two-sided Wilcoxon p = {vs['wilcoxon_p']:.2f}): "
                         + ("the forest's implementation is not the cause of the difference from the paper's cells"
                            if same else
                            "the two forests differ, and bench's RF10 is not Weka's"))
        return "; ".join(parts)


# ------------------------------------------------------------------ helpers of the bespoke checks
def _count(ev: Evidence, row, c: Cmp, which: int) -> Outcome:
    """A count of a W/D/L cell (``which``: 0 = the row's wins, 2 = its losses) against the claim's value;
    a count over fewer of the paper's datasets than it counted over is not comparable (dataset absent)."""
    cell = ev.wdl(c)
    (subset,) = c.where
    pub_value = int(float(row["value"]))
    p = cell.published
    published = f"{row['value']} ({c.row} vs {c.col}, {c.measure}, {subset} data: " + (
        "/".join(map(str, p)) if p else "?") + ")"
    o = cell.ours if cell.ours is not None else cell.aside
    if o is None:
        return Outcome([("", [Check(None, f"{NOT_AT_SCALE}: {ev.label(c)}: {cell.note}")])], published=published,
                       test=COUNT_TEST, evidence=ev.sources(TABLE_FACTS[c.measure]))
    ours = f"{o[which]} ({ev.algo(c.row)} vs {c.col}, {c.measure}, {subset} data: {o[0]}/{o[1]}/{o[2]})"
    if p is None:
        check = Check(None, f"{ABSENT}: the paper's own cell (the datasets it counted over) is not recorded here")
    elif cell.ours is None:
        check = Check(None, f"{cell.category}: a count over the paper's {sum(p)} {subset} datasets: {cell.note}")
    elif cell.n < sum(p):
        check = Check(None, f"dataset absent: a count over the paper's {sum(p)} {subset} datasets; ours covers "
                            f"{cell.n} (the others are not here)")
    else:
        check = Check(o[which] == pub_value, f"ours {o[which]} vs paper {pub_value}")
    return Outcome([("", [check])], ours=ours, published=published, test=COUNT_TEST,
                   evidence=ev.sources(cell.fact))


def _figure(ev: Evidence, row, parts, shown: str, *facts: str) -> Outcome:
    """The outcome of a figure claim: the paper prints no values, so there is no paper's own verdict."""
    return Outcome(parts, ours=shown, published=FIGURE_ONLY, test=FIG_TESTS.get(row["claim_id"], ""),
                   evidence=ev.sources(*dict.fromkeys(facts)), extra={"paper_own": FIGURE_ONLY})


def _f(v) -> str:
    return "–" if v is None else f"{v:.3f}"


# ------------------------------------------------------------------ the verdicts
def evaluate_facts(facts: Facts, claims: pd.DataFrame) -> list[Verdict]:
    """Verdicts from the facts of an ``ande_sr`` build; the evidence is the source of the facts read."""
    return kinds.run(PAPER, CHECKS, Evidence(facts), claims)


def evaluate(reports_dir: Path, claims: pd.DataFrame) -> list[Verdict]:
    return evaluate_facts(Facts.of_paper(Path(reports_dir), PAPER), claims)


__all__ = ["evaluate", "evaluate_facts", "CHECKS", "Evidence"]
