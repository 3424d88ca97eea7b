"""The one claim checker: every claim declares its check kind and arguments with the claim.

A paper's verdict module declares, for each of its claim ids, one check (``CHECKS = {"ES33": WDL(...),
"ES31": Bespoke(_ensemble), ...}``) and reads its facts through its evidence (:class:`Evidence`, read
for the kinds). :func:`run` runs each claim's check against
the evidence and turns its :class:`Outcome` into the claim's :class:`~bench.report.verdicts.Verdict`
with the one combining rule (:func:`bench.report.verdicts._common.combine`). A claim with no declared
check is "not checkable: evaluator: no rule for this claim id yet".

The kinds (each a frozen dataclass with ``run(ev, row) -> Outcome``):

* :class:`WDL` -- win/draw/loss counts against an expectation under the paper's sign test
  (``win``, ``loss``, ``not_loss``, ``win_sig``, ``loss_sig``, ``win_nonsig``, ``loss_nonsig``,
  ``nonsig``: significant in neither direction), one stated part per named group of comparisons;
  where a cell gives our paired per-dataset values (``WdlCell.values``), the Bayesian signed-rank note
  beside the test (:mod:`.bayes_note`, ``extra["bayes"]``; information only);
* :class:`Average` -- our average of a measure against the published one (within
  :data:`~bench.report.verdicts._common.AVG_RTOL`, over enough of the paper's datasets);
* :class:`Ratio` -- a time ratio of two learners against the published ratio (within a factor
  :data:`~bench.report.verdicts._common.RATIO_FACTOR`), decided beyond timing noise on the per-data-set
  ratios' bootstrap interval (:mod:`.timing`), and only for learners of one code base;
* :class:`Printed` -- a printed cell against ours (within max(tolerance, 2 standard errors));
* :class:`Slope` -- a curve's least-squares log-log slope: linear, sub-linear or constant;
* :class:`NotHere` -- data or quantity not here: not checkable, with its reason's category;
* :class:`Bespoke` -- a registered function of the paper's (``fn(ev, row, *args) -> Outcome``), for a
  claim no kind states;
* :class:`Parts` -- a compound claim whose stated parts are each one of the kinds above.

Each kind's options beyond the ones named here (e.g. :class:`WDL`'s ``paper_own``, ``say``, ``datasets``,
``tally``; :class:`NotHere`'s ``show`` and ``facts``) are documented on its fields, with defaults that
keep the plain reading.

A declaration may wrap its kind (the kind stays the wrapped one's): :class:`Shown` sets the verdict's
published/test texts (e.g. "figure only (Fig. 6)"), :class:`AlsoOn` also runs the check on a variant of
the evidence (``ev.variant(name)``) and notes what it gives there.

The paper's evidence, :class:`Evidence`, is the one contract between a paper and the kinds: every
question a kind asks is a method of it, with its default written there once (the standard fact tables
``wdl`` and ``averages``; the plain wording). A paper whose claims ask more subclasses it and overrides
only those answers; nothing is looked up by name.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..compare import fmt_p
from . import CONSTANT_FACTOR, LINEAR_SLOPE, NOT_CHECKABLE, Verdict
from ._common import (AVG_TEST, CATEGORIES, NOT_AT_SCALE, RATIO_FACTOR, RATIO_TEST, TEST_TEXT, TIMING_NOISE, Check,
                      average_check, combine, ratio_check, test_text, unknown, wdl_expect, wdl_p)


# ------------------------------------------------------------------ what the evidence answers
@dataclass
class WdlCell:
    """One W/D/L comparison's counts: ``ours``/``published`` are (wins, draws, losses) or None;
    ``fact`` names the fact it comes from (for the evidence); ``note`` why ours is missing."""

    ours: tuple[int, int, int] | None
    published: tuple[int, int, int] | None = None
    n: int | None = None
    fact: str = ""
    note: str = ""
    #: why ours is missing, as a not-checkable category (default: protocol not run at this scale)
    category: str = NOT_AT_SCALE
    #: our counts shown beside a comparison that is not decided (e.g. over too few of the paper's datasets)
    aside: tuple[int, int, int] | None = None
    #: ours per dataset, (row's, column's) values of the measure on the datasets the counts are over:
    #: the Bayesian signed-rank note beside the claim's test (:mod:`.bayes_note`, information only)
    values: tuple | None = None


@dataclass
class AvgCell:
    """One average of ours (``value``, over ``n`` datasets, ``shown`` as the table prints it) and the
    paper's (``published``, ``published_shown``); ``fact`` names the fact it comes from."""

    value: float | None
    n: int | None = None
    shown: str = ""
    published: float | None = None
    published_shown: str = ""
    fact: str = ""


@dataclass
class PrintedCell:
    """A printed number of the paper's and ours (``se``: our standard error; ``tol``: the absolute
    tolerance of the claim's kind of number). ``published`` None: the claim's own value (claims.csv, then
    shown as claims.csv gives it); ``shown`` / ``published_shown``: the two as the verdict shows them
    (default: ``:g``)."""

    ours: float | None
    published: float | None
    se: float | None = None
    tol: float = 0.0
    label: str = ""
    fact: str = ""
    shown: str = ""
    published_shown: str = ""


@dataclass
class SeriesCell:
    """A curve of ours: ``x`` and ``y`` (positive), its ``label`` and ``fact``."""

    x: list[float]
    y: list[float]
    label: str = ""
    fact: str = ""
    #: a timed curve's per-split seconds behind ``y``: one row per split, one column per ``x`` (the same
    #: splits at every point); the slope is then decided on its bootstrap interval over the splits
    splits: Any = None
    timed: str = ""     #: what the times are (the records' columns), for the verdict's note


@dataclass(frozen=True)
class Cmp:
    """One W/D/L comparison: ``row`` against ``col`` on ``measure``, expected ``expect``; ``where``
    further keys the paper's W/D/L tables have (e.g. a dataset subset)."""

    row: str
    col: str
    measure: str
    expect: str
    where: tuple = ()
    #: the comparison's label as the claim words it, a template of ``row``, ``col``, ``measure`` (e.g.
    #: "{measure} {row} vs {col}"); default "{row} vs {col} {measure}" (a paper's ``Evidence.label``
    #: answers for every comparison instead)
    label: str = ""


@dataclass
class Outcome:
    """What a check found: its stated parts (name, comparisons), and what the verdict shows."""

    parts: list[tuple[str, list[Check]]]
    ours: str = ""
    published: str = ""
    test: str = ""
    evidence: str = ""
    note: str = ""
    scale: str = ""
    extra: dict = field(default_factory=dict)


# ------------------------------------------------------------------ the kinds
#: kind name -> class (the declared vocabulary; :func:`describe` lists it)
KINDS: dict[str, type] = {}


def _kind(name: str):
    def deco(cls):
        cls.kind = name
        KINDS[name] = cls
        return cls

    return deco


_WORD = {"win": "more wins than losses", "loss": "more losses than wins", "not_loss": "no more losses than wins",
         "win_sig": "significantly more wins", "loss_sig": "significantly more losses",
         "win_nonsig": "more wins, not significant", "loss_nonsig": "more losses, not significant",
         "nonsig": "no significant difference",
         "exempt": "the claim's own named exception: exempt, shown only"}


@_kind("wdl")
@dataclass(frozen=True)
class WDL:
    """W/D/L comparisons under the paper's sign test: ``parts`` is ((part name, (Cmp, ...)), ...);
    with ``side="published"`` the paper's own counts are checked (the same reading, shown beside)."""

    parts: tuple
    side: str = "ours"
    # -- generic options (defaults keep the behaviour above)
    #: also read the paper's own counts the same way: shown as ``published``, their verdict in
    #: ``extra["paper_own"]``
    paper_own: bool = False
    #: what a comparison's text adds to its counts and p: "expected" -- a failing one names what was
    #: expected; "significant" -- one expected "nonsig" that the test finds significant says
    #: ", significant" (in what the verdict shows too), and nothing else is added
    say: str = "expected"
    #: show the number of datasets the comparisons are over after them ("... (67 datasets)")
    datasets: bool = False
    #: show how many comparisons meet their expectation, on our counts and on the paper's. A paper's evidence
    #: whose ``test`` is no sign test (counts already decided per data set by the paper's own test)
    #: shows no p-value and names its test in ``test_text``
    tally: bool = False

    def _checks(self, ev, side: str, paired: list | None = None):
        """(parts, shown, facts, dataset counts); ``paired`` collects (label, row, col, values, measure) of
        the comparisons whose cell gives our paired per-dataset values (on our side)."""
        out, shown, facts, ns = [], [], [], []
        for name, comps in self.parts:
            cs = []
            for c in comps:
                cell = ev.wdl(c)
                label = ev.label(c)
                w = None if cell is None else (cell.ours if side == "ours" else cell.published)
                if w is None:
                    why = (cell.note if cell is not None and cell.note else "no values")
                    cat = cell.category if cell is not None else NOT_AT_SCALE
                    cs.append(Check(None, f"{cat}: {label}: {why}"))
                    if cell is not None and cell.aside is not None:
                        a = cell.aside
                        shown.append(f"{label} {a[0]}/{a[1]}/{a[2]} (not decided: {cat})")
                    continue
                ok = wdl_expect(w, c.expect, ev.test, ev.alpha)
                p = f" ({fmt_p(wdl_p(w, ev.test), True, 'p = ?')})" if ev.test in TEST_TEXT else ""
                txt = f"{label} {w[0]}/{w[1]}/{w[2]}{p}"
                if c.expect == "exempt":
                    txt += f" ({_WORD['exempt']})"
                if self.say == "significant":
                    txt += ", significant" if c.expect == "nonsig" and not ok else ""
                    cs.append(Check(ok, txt))
                else:
                    want = "" if ok else ev.expected(c)
                    cs.append(Check(ok, txt + ("" if ok else f", expected: {want}")))
                shown.append(txt)
                if paired is not None and side == "ours" and cell.values is not None:
                    paired.append((label, c.row, c.col, cell.values, c.measure))
                if cell.fact:
                    facts.append(cell.fact)
                if cell.n is not None and cell.n not in ns:
                    ns.append(cell.n)
            out.append((name, cs))
        return out, shown, facts, ns

    def run(self, ev, row) -> Outcome:
        paired: list = []
        parts, shown, facts, ns = self._checks(ev, self.side, paired)
        ours = "; ".join(shown)
        if self.datasets and shown and ns:
            ours += f" ({'/'.join(str(n) for n in ns)} datasets)"
        test = ev.test_text or test_text(ev.test, ev.alpha)
        o = Outcome(parts, ours=ours, test=test, evidence=ev.sources(*dict.fromkeys(facts)))
        if self.tally:
            o.ours, o.published = f"{self._tally(ev, 'ours')} ({o.ours})", self._tally(ev, "published")
        if self.paper_own:
            pparts, pshown, _, _ = self._checks(ev, "published")
            o.published, o.extra["paper_own"] = "; ".join(pshown), combine(pparts)[0]
        if paired:      # the Bayesian signed-rank beside the paper's test, as information (decides nothing)
            from . import bayes_note

            o.extra[bayes_note.KEY] = bayes_note.note(paired)
        return o

    def _tally(self, ev, side: str) -> str:
        """'<expectation> in k/n comparisons' on one side's counts (n: the comparisons with counts)."""
        k = n = 0
        for _, comps in self.parts:
            for c in comps:
                cell = ev.wdl(c)
                w = None if cell is None else (cell.ours if side == "ours" else cell.published)
                if w is None:
                    continue
                n += 1
                k += bool(wdl_expect(w, c.expect, ev.test, ev.alpha))
        words = {c.expect for _, comps in self.parts for c in comps} - {"exempt"}
        return f"{_WORD[words.pop()] if len(words) == 1 else 'as expected'} in {k}/{n} comparisons"


@_kind("average")
@dataclass(frozen=True)
class Average:
    """Our mean of ``measure`` for ``algo`` against the published one (the claim's value, else the
    evidence's ``published``), compared when ours covers enough of the paper's datasets."""

    algo: str
    measure: str
    digits: int = 4

    def run(self, ev, row) -> Outcome:
        cell = ev.average(self.algo, self.measure)
        pub = _value(row)
        if cell is None or cell.value is None:
            return Outcome([("", [Check(None, f"{NOT_AT_SCALE}: {self.algo} mean {self.measure}: no value")])],
                           test=AVG_TEST, evidence=ev.sources(*([cell.fact] if cell and cell.fact else [])))
        pub = cell.published if pub is None else pub
        check = average_check(cell.value, pub, f"{self.algo} mean {self.measure}", cell.n, ev.n_paper)
        return Outcome([("", [check])], ours=cell.shown or f"{cell.value:.{self.digits}f} over {cell.n} datasets",
                       published=cell.published_shown, test=AVG_TEST, evidence=ev.sources(cell.fact))


@_kind("ratio")
@dataclass(frozen=True)
class Ratio:
    """Our ratio of ``num``'s to ``den``'s ``measure`` (a time) against the published ratio: within a factor
    :data:`~bench.report.verdicts._common.RATIO_FACTOR` of it.

    When the evidence answers ``split_times(measure) -> (table, fact)`` (the per-split times,
    :func:`bench.report.verdicts.timing.split_times`), the ratio is the per-data-set ratios on the same
    folds, decided on their geometric mean's bootstrap interval (:mod:`.timing`): inside the band
    reproduced, wholly outside it not reproduced, else not checkable: within timing noise; the ratio of
    the mean times is shown beside. ``same`` says whether the two learners are one code base with the same
    engineering (``code`` names it, or the difference): with ``same=False`` the ratio measures that
    difference as much as the algorithms and is decided only beyond any engineering factor
    (:func:`.timing.different`), else not checkable: different implementations (the measured ratio shown)."""

    num: str
    den: str
    measure: str
    #: the two learners' code: one code base (``same=True``) or the engineering difference (``same=False``)
    code: str = ""
    same: bool | None = None

    def run(self, ev, row) -> Outcome:
        from . import timing

        a, b = ev.average(self.num, self.measure), ev.average(self.den, self.measure)
        label = f"{self.num} / {self.den} {self.measure}"
        pub = _value(row)
        times, fact = ev.split_times(self.measure)
        if times is None:
            if a is None or b is None or not a.value or not b.value:
                return Outcome([("", [Check(None, f"{NOT_AT_SCALE}: {label}: no value")])], test=RATIO_TEST)
            ours = a.value / b.value
            shown, pub_shown = ev.ratio_shown(self, a, b, ours, pub)
            return Outcome([("", [ratio_check(ours, pub, label)])], ours=shown, published=pub_shown, test=RATIO_TEST,
                           evidence=ev.sources(*dict.fromkeys(f for f in (a.fact, b.fact) if f)))
        iv = timing.interval(timing.unit_ratios(times, self.num, self.den))
        if pub is not None and pub > 0 and self.same is False:
            c = timing.different(label, self.code, iv, pub / RATIO_FACTOR, pub * RATIO_FACTOR)
        elif self.same is False:
            c = timing.different(label, self.code, iv)
        elif pub is None or pub <= 0:
            c = Check(None, f"{NOT_AT_SCALE}: {label}: no published ratio")
        else:
            c = timing.check(iv, label, pub / RATIO_FACTOR, pub * RATIO_FACTOR)
        shown, pub_shown = (iv.text() if iv is not None else ""), ""
        if a is not None and b is not None and a.value and b.value:
            mshown, pub_shown = ev.ratio_shown(self, a, b, a.value / b.value, pub)
            shown += f"; ratio of the mean times {mshown}"
        note = "; ".join(filter(None, [f"one code base: {self.code}" if self.same else "", timing.how_timed()]))
        facts = [f for f in (fact, a.fact if a else "", b.fact if b else "") if f]
        across = (f"; learners of different code bases decided only beyond an engineering factor of "
                  f"x{timing.ENGINEERING_FACTOR:g} either way") if self.same is False else ""
        return Outcome([("", [c])], ours=shown, published=pub_shown,
                       test=f"time ratio within x{RATIO_FACTOR:g} of the paper's: " + timing.rule_text() + across,
                       evidence=ev.sources(*dict.fromkeys(facts)), note=note)


@_kind("printed")
@dataclass(frozen=True)
class Printed:
    """A printed number (the evidence's ``printed(key)``) against ours: within max(its tolerance,
    2 standard errors)."""

    key: Any

    def run(self, ev, row) -> Outcome:
        cell = ev.printed(self.key)
        pub = None if cell is None else (_value(row) if cell.published is None else cell.published)
        if cell is None or cell.ours is None or pub is None:
            what = cell.label if cell is not None and cell.label else self.key
            return Outcome([("", [Check(None, f"{NOT_AT_SCALE}: {what}: no value")])],
                           evidence=ev.sources(cell.fact) if cell is not None and cell.fact else "")
        tol = max(cell.tol, 2 * (cell.se or 0.0))
        d = cell.ours - pub
        ok = abs(d) <= tol
        return Outcome([("", [Check(ok, f"{cell.label or self.key}: ours {cell.ours:g} vs paper {pub:g}"
                                        + ("" if ok else f" (differs by {d:+.3g}, more than {tol:.3g})"))])],
                       ours=cell.shown or f"{cell.ours:g}",
                       published=cell.published_shown or ("" if cell.published is None else f"{pub:g}"),
                       test=f"within max({cell.tol:g}, 2 standard errors) of the printed number",
                       evidence=ev.sources(cell.fact) if cell.fact else "")


def slope(x, y) -> float:
    """The least-squares slope of log y on log x."""
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(lx, ly, 1)[0])


@_kind("slope")
@dataclass(frozen=True)
class Slope:
    """A curve's shape: ``expect`` is "linear" (log-log slope within :data:`LINEAR_SLOPE`),
    "sub-linear" (below it) or "constant" (the last value within :data:`CONSTANT_FACTOR` of the first)."""

    key: Any
    expect: str

    def check(self, ev, cell=None) -> tuple[Check, str]:
        cell = ev.series(self.key) if cell is None else cell
        if cell is None or len(cell.x) < 2:
            return Check(None, f"{NOT_AT_SCALE}: {self.key}: fewer than two points"), ""
        label = cell.label or str(self.key)
        if self.expect == "constant":
            r = cell.y[-1] / cell.y[0]
            ok = 1 / CONSTANT_FACTOR <= r <= CONSTANT_FACTOR
            return Check(ok, f"{label}: last / first = {r:.2f}"), cell.fact
        from . import timing

        s = slope(cell.x, cell.y)
        iv = None if cell.splits is None else timing.slope_interval(cell.x, cell.splits)
        if iv is None:
            ok = LINEAR_SLOPE[0] <= s <= LINEAR_SLOPE[1] if self.expect == "linear" else s < LINEAR_SLOPE[0]
            return Check(ok, f"{label}: log-log slope {s:.2f} ({self.expect} expected)"), cell.fact
        a, b = iv
        text = f"{label}: log-log slope {s:.2f} [{a:.2f}, {b:.2f}] ({self.expect} expected)"
        if self.expect == "linear":
            inside, outside = LINEAR_SLOPE[0] <= a and b <= LINEAR_SLOPE[1], b < LINEAR_SLOPE[0] or a > LINEAR_SLOPE[1]
        else:
            inside, outside = b < LINEAR_SLOPE[0], a >= LINEAR_SLOPE[0]
        if inside or outside:
            return Check(inside, text + ("" if inside else " (the whole interval outside it)")), cell.fact
        return Check(None, f"{TIMING_NOISE}: {text}: the interval straddles the band"), cell.fact

    def run(self, ev, row) -> Outcome:
        from . import timing

        cell = ev.series(self.key)
        c, fact = self.check(ev, cell)
        timed = cell is not None and cell.splits is not None and self.expect != "constant"
        test = (f"least-squares log-log slope: linear in [{LINEAR_SLOPE[0]}, {LINEAR_SLOPE[1]}], "
                f"sub-linear below; constant: last within x{CONSTANT_FACTOR:g} of first")
        if timed:
            test += (f"; a timed curve is decided when the {timing.LEVEL:.0%} bootstrap interval of its slope "
                     f"({timing.RESAMPLES} resamples over the splits, seed {timing.SEED}) lies wholly inside the "
                     f"band or wholly outside it, else not checkable: {TIMING_NOISE}")
        return Outcome([("", [c])], ours=c.text, evidence=ev.sources(fact) if fact else "", test=test,
                       note=timing.how_timed(cell.timed) if timed and cell.timed else "")


@_kind("not_here")
@dataclass(frozen=True)
class NotHere:
    """Not checkable here: ``category`` is one of the reasons' categories (dataset absent, quantity not
    measurable, protocol not run at this scale), ``why`` says what."""

    category: str
    why: str
    evidence: str = ""
    #: a key of ours to show beside it: the evidence's ``shown(key) -> (text, facts)`` (its evidence the
    #: facts' files)
    show: Any = None
    published: str = ""     #: the paper's number as shown (default: claims.csv's value and unit)
    #: facts whose report files are the evidence (the evidence's ``sources``), when ``evidence`` is not given
    facts: tuple = ()

    def __post_init__(self):
        if self.category not in CATEGORIES:
            raise ValueError(f"NotHere: category {self.category!r} is not one of {CATEGORIES}")

    def run(self, ev, row) -> Outcome:
        evidence = self.evidence or (ev.sources(*self.facts) if self.facts else "")
        o = Outcome([("", [Check(None, f"{self.category}: {self.why}")])], evidence=evidence,
                    published=self.published)
        if self.show is not None:
            o.ours, facts = ev.shown(self.show)
            o.evidence = ev.sources(*dict.fromkeys(facts)) if facts else self.evidence
        return o


@_kind("bespoke")
@dataclass(frozen=True)
class Bespoke:
    """A paper's own check, a registered function ``fn(ev, row) -> Outcome`` (its docstring states the
    reading of the claim's words)."""

    fn: Callable
    #: further arguments of ``fn`` (one function for several claims: ``fn(ev, row, *args)``)
    args: tuple = ()

    def run(self, ev, row) -> Outcome:
        return self.fn(ev, row, *self.args)


@_kind("parts")
@dataclass(frozen=True)
class Parts:
    """A compound claim: ``parts`` is ((part name, check), ...), each part checked by its own kind
    (e.g. "linear in t and sub-linear in psi": two :class:`Slope`); each becomes one stated part of
    the claim, combined by the one rule. Ours, test and evidence are the parts' together; ``published``
    says what the paper states (default: the claim's own value)."""

    parts: tuple
    published: str = ""

    def run(self, ev, row) -> Outcome:
        out, ours, tests, evidence, notes = [], [], [], [], []
        for name, check in self.parts:
            o = check.run(ev, row)
            out.append((name, [c for _, cs in o.parts for c in cs]))
            ours.append(o.ours)
            tests.append(o.test)
            evidence += o.evidence.split(";")
            notes += o.note.split("; ") if o.note else []
        return Outcome(out, ours="; ".join(x for x in ours if x), test="; ".join(dict.fromkeys(t for t in tests if t)),
                       evidence=";".join(dict.fromkeys(e for e in evidence if e)), published=self.published,
                       note="; ".join(dict.fromkeys(n for n in notes if n)))


def _value(row) -> float | None:
    try:
        v = float(str(row.get("value", "")).strip().split(" ")[0])
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


# ------------------------------------------------------------------ what a declaration adds to a kind
@dataclass(frozen=True)
class Shown:
    """A declared check whose verdict shows the declaration's ``published`` / ``test`` texts (e.g.
    "figure only (Fig. 6)", the claim's reading of the test) instead of the kind's; its kind is the
    wrapped check's."""

    check: Any
    published: str | None = None
    test: str | None = None

    @property
    def kind(self) -> str:
        return self.check.kind

    def run(self, ev, row) -> Outcome:
        o = self.check.run(ev, row)
        if self.published is not None:
            o.published = self.published
        if self.test is not None:
            o.test = self.test
        return o


@dataclass(frozen=True)
class AlsoOn:
    """A declared check also run on a variant of the evidence (the evidence's ``variant(name)``, e.g. the
    same runs with another generator): when that is checkable, its verdict and ours go to the note
    after ``label`` ("<label>: <verdict>: <ours>"), or with no label to ``extra[name]``
    ("<verdict>: <reason>"); the claim is decided on the main evidence alone."""

    check: Any
    variant: str
    label: str = ""
    #: the main evidence's name: when set, the claim is decided on both, each one stated part of it
    #: ("<both>" and "<label>"; reproduced on one and not the other is partly reproduced), and what the
    #: verdict shows is both ("<both>: <ours>; <label>: <theirs>")
    both: str = ""

    @property
    def kind(self) -> str:
        return self.check.kind

    def run(self, ev, row) -> Outcome:
        o = self.check.run(ev, row)
        alt = self.check.run(ev.variant(self.variant), row)
        if self.both:
            o.parts = [(self.both, [c for _, cs in o.parts for c in cs]),
                       (self.label, [c for _, cs in alt.parts for c in cs])]
            o.ours = f"{self.both}: {o.ours}; {self.label}: {alt.ours}"
            return o
        v, reason = combine(alt.parts)
        if v == NOT_CHECKABLE:
            return o
        if self.label:
            o.note = "; ".join(filter(None, [o.note, f"{self.label}: {v}: {alt.ours}"]))
        else:
            o.extra[self.variant] = v + (f": {reason}" if reason else "")
        return o


def _declared(check):
    """The kind a declaration wraps (:class:`Shown`, :class:`AlsoOn`)."""
    while isinstance(check, (Shown, AlsoOn)):
        check = check.check
    return check


# ------------------------------------------------------------------ what a paper's checks read
def wdl_counts(r: dict, prefix: str = "") -> tuple[int, int, int] | None:
    """The (wins, draws, losses) of a W/D/L fact row, its columns ``<prefix>wins`` ...; None where the row
    has no such record (a count missing)."""
    v = [r.get(f"{prefix}{k}") for k in ("wins", "draws", "losses")]
    missing = any(x is None or (isinstance(x, float) and math.isnan(x)) for x in v)
    return None if missing else tuple(int(x) for x in v)


def wdl_fact_cells(facts, *names: str) -> dict[tuple, WdlCell]:
    """The cells of W/D/L fact tables (:func:`bench.report.compare.wdl_facts`), keyed (row, col, measure, subset)."""
    out = {}
    for name in names:
        t = facts.table(name)
        for r in [] if t is None else t.to_dict("records"):
            out[(r["row"], r["col"], r["measure"], r["subset"])] = WdlCell(
                wdl_counts(r, "ours_"), wdl_counts(r, "published_"), fact=name, note=r["note"] or "",
                n=0 if r["ours_n"] is None or r["ours_n"] != r["ours_n"] else int(r["ours_n"]))
    return out


class Evidence:
    """A paper's facts as the kinds ask for them: the one contract between a paper and the claim checker.

    Each method is the question one kind asks, and its body here is the default answer: from the standard
    fact tables ``wdl`` (columns ``row, col, measure, wins, draws, losses, published_wins,
    published_draws, published_losses, n``: row against col over n data sets, lower is better; for
    :class:`WDL`) and ``averages`` (``algorithm, measure, ours, n, published``; for :class:`Average`,
    :class:`Ratio`), in the plain wording. ``Evidence(reports_dir, key)`` reads ``reports/<key>/facts.json``
    and takes the sign test, its level and the dataset count from the paper's declaration and published
    data set table. A paper whose claims ask more subclasses it and overrides only those answers (its
    own ``__init__`` sets ``facts``; the class attributes below are then its own)."""

    paper: str = ""
    #: the paper's W/D/L test (``sign1``, ``sign2``; any other: counts decided per data set by the paper's
    #: own test, no p-value shown) and its level
    test: str | None = None
    alpha: float | None = None
    #: the data sets of the paper's table (an average over fewer than enough of them is not compared)
    n_paper: int | None = None
    #: the test column of a W/D/L claim where ``test`` is no sign test ('': the sign test's name)
    test_text: str = ""

    def __init__(self, reports_dir, paper: str):
        from pathlib import Path

        from ... import published
        from ...papers import PAPERS
        from ..facts import Facts

        decl = PAPERS[paper]
        self.paper, self.test, self.alpha = paper, decl.test, decl.alpha
        self.n_paper = len(published.datasets(paper))
        self.facts = Facts.of_paper(Path(reports_dir), paper)

    # ---- every kind
    def sources(self, *facts: str) -> str:
        """A verdict's evidence: the report files these facts are shown in, once each, ';'-joined; a fact
        the build did not record gives :meth:`unrecorded`'s file, if any."""
        f = self.facts
        files = [f.source(n) if (n in f.tables or n in f.values) else self.unrecorded(n) for n in facts]
        return ";".join(dict.fromkeys(x for x in files if x))

    def unrecorded(self, fact: str) -> str | None:
        """The report file a fact the build did not record would be shown in (default: none, left out)."""
        return None

    def finish(self, check, row, o: Outcome) -> Outcome:
        """What every outcome of the paper adds before it is combined (:func:`run`): the scale and
        experiments its evidence comes from, or a check beside the verdict (:func:`judge`). Default: nothing."""
        return o

    def variant(self, name: str) -> "Evidence":
        """The same facts read another way, for :class:`AlsoOn` (e.g. runs with another generator)."""
        raise ValueError(f"{self.paper}: a check asks for the variant {name!r} of the evidence, but the paper's "
                         "Evidence defines no variants (override Evidence.variant)")

    # ---- WDL
    def _rows(self, fact: str, **keys) -> list[dict]:
        t = self.facts.table(fact)
        return [] if t is None else [r for r in t.to_dict("records") if all(r[k] == v for k, v in keys.items())]

    def wdl(self, c: Cmp) -> WdlCell | None:
        """The counts of one comparison (None: no such comparison recorded)."""
        rows = self._rows("wdl", row=c.row, col=c.col, measure=c.measure)
        if not rows:
            return None
        r = rows[0]
        return WdlCell(wdl_counts(r), wdl_counts(r, "published_"), n=r.get("n"), fact="wdl")

    @functools.cached_property
    def values(self):
        """The fact ``wdl_values``: the per-dataset values the W/D/L counts are taken on
        (:func:`bench.report.compare.value_facts`), or None."""
        return self.facts.table("wdl_values")

    def paired_values(self, row: str, col: str, measure: str, n: int | None, size: str | None = None) -> tuple | None:
        """(row's, col's) values of ``measure`` (:attr:`values`; in the collection ``size`` when given) on the data
        sets where both have one: a comparison's :attr:`WdlCell.values`; None unless they are the ``n`` data sets
        the counts are over."""
        t = self.values
        if t is None or t.empty:
            return None
        t = t[(t["measure"] == measure) & t["algo"].isin([row, col])]
        if size is not None:
            t = t[t["size"] == size]
        v = t.pivot_table(index="dataset", columns="algo", values="value", aggfunc="first")
        if row not in v.columns or col not in v.columns:
            return None
        v = v[[row, col]].dropna()
        return (v[row].to_numpy(float), v[col].to_numpy(float)) if n is not None and len(v) == n >= 2 else None

    def label(self, c: Cmp) -> str:
        """A comparison as its verdict names it: the comparison's own template, else "row vs col measure"."""
        return (c.label or "{row} vs {col} {measure}").format(row=c.row, col=c.col, measure=c.measure)

    def expected(self, c: Cmp) -> str:
        """What a failed comparison was expected to show."""
        return _WORD[c.expect]

    # ---- Average, Ratio
    def average(self, algo: str, measure: str) -> AvgCell | None:
        """Our average of ``measure`` for ``algo`` and the paper's (None: not recorded)."""
        rows = self._rows("averages", algorithm=algo, measure=measure)
        if not rows:
            return None
        r = rows[0]
        return AvgCell(r["ours"], n=r["n"], published=r["published"], fact="averages")

    def split_times(self, measure: str) -> tuple[Any, str]:
        """The per-split times of ``measure`` (:func:`bench.report.verdicts.timing.split_times`) and their
        fact, for :class:`Ratio`'s timing rule; default ``(None, "")``: the ratio of the two averages."""
        return None, ""

    def ratio_shown(self, r: "Ratio", a: AvgCell, b: AvgCell, ours: float, pub: float | None) -> tuple[str, str]:
        """A ratio of two averages as the verdict shows it: (ours, the paper's; '' for the claim's value)."""
        return f"{ours:.2f}x ({r.num} {a.value:.3g} / {r.den} {b.value:.3g})", ""

    # ---- Printed, Slope, NotHere: no standard table; a paper declaring these kinds answers them
    def printed(self, key) -> PrintedCell | None:
        raise NotImplementedError(f"{self.paper}: a Printed check needs the paper's Evidence.printed(key)")

    def series(self, key) -> SeriesCell | None:
        raise NotImplementedError(f"{self.paper}: a Slope check needs the paper's Evidence.series(key)")

    def shown(self, key) -> tuple[str, list[str]]:
        """Ours shown beside a :class:`NotHere` (``show=key``), and the facts it comes from."""
        raise NotImplementedError(f"{self.paper}: a NotHere check with show= needs the paper's Evidence.shown(key)")


# ------------------------------------------------------------------ running the declared checks
def run(paper: str, checks: dict, ev: Evidence, claims) -> list[Verdict]:
    """One verdict per row of ``claims`` (a paper's rows of claims.csv), each from its declared check
    run on ``ev``, its outcome finished by ``ev.finish`` and combined by the one rule."""
    out = []
    for _, row in claims.iterrows():
        cid = row["claim_id"]
        check = checks.get(cid)
        if check is None:
            out.append(unknown(row, paper))
            continue
        o = ev.finish(check, row, check.run(ev, row))
        v, reason = _combined(o)
        out.append(Verdict(claim_id=cid, paper=paper, verdict=v, ours=o.ours, published=o.published, test=o.test,
                           evidence=o.evidence, reason=reason, claim=str(row.get("quote", "")),
                           scale=o.scale, extra=o.extra))
    return out


def evaluate_standard(paper: str, checks: dict, reports_dir, claims) -> list[Verdict]:
    """The verdicts of a paper whose claims are declared in ``checks`` over the standard fact tables
    (:class:`Evidence` itself): what its ``verdicts.evaluate(reports_dir, claims)`` returns."""
    return run(paper, checks, Evidence(reports_dir, paper), claims)


def judge(check, ev, row) -> tuple[str, str, Outcome]:
    """(verdict, reason, outcome) of one declared check on an evidence, by the rule :func:`run` applies:
    to apply a claim's check to other evidence beside its verdict (the paper's own counts, a variant)."""
    o = check.run(ev, row)
    return (*_combined(o), o)


def _combined(o: Outcome) -> tuple[str, str]:
    """(verdict, reason) of an outcome: its parts by the one rule (:func:`._common.combine`), its note added."""
    v, reason = combine(o.parts)
    return v, (f"{reason} ({o.note})" if reason and o.note else reason or o.note)


def describe(checks: dict) -> dict[str, str]:
    """claim id -> its declared kind (``wdl``, ``average``, ..., ``bespoke:<function>``; a compound
    ``parts(<kind>, ...)``)."""
    return {cid: _describe(c) for cid, c in checks.items()}


def _describe(c) -> str:
    c = _declared(c)
    if isinstance(c, Parts):
        return f"parts({', '.join(_describe(k) for _, k in c.parts)})"
    return f"bespoke:{c.fn.__name__}" if isinstance(c, Bespoke) else c.kind


__all__ = ["KINDS", "WDL", "Average", "Ratio", "Printed", "Slope", "NotHere", "Bespoke", "Parts", "Cmp", "WdlCell", "AvgCell",
           "PrintedCell", "SeriesCell", "Outcome", "Evidence", "run", "judge", "describe", "slope", "NOT_CHECKABLE",
           "Shown", "AlsoOn", "evaluate_standard", "wdl_counts", "wdl_fact_cells"]
