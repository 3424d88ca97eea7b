"""One verdict per published claim: every claim of ``bench/published/claims.csv``.

Interface (the rules themselves are written down in :data:`RULES`, in one place):

* Each paper has a module ``bench/papers/<paper>/verdicts.py`` with
  ``evaluate(reports_dir: Path, claims: pandas.DataFrame) -> list[Verdict]``; ``claims`` holds that
  paper's rows of ``claims.csv`` and the function returns exactly one :class:`Verdict` per row.
  Evaluators read the tables the paper builds wrote under ``reports_dir`` (CSV files, which come
  from the stored runs), never hand-written result numbers.
* :func:`evaluate_all` runs every paper module (the papers of :data:`bench.papers.PAPERS`) and checks
  that every claim id has exactly one verdict. A paper without a module gets "not checkable: evaluator missing" for its claims; a
  module that raises, or leaves a claim out or answers it twice, is a bug and raises
  :class:`EvaluatorError` naming the claims and the traceback (the build fails: a crash is never
  a verdict).
* :func:`scale_gate` then holds every verdict to the paper's scale (see :data:`RULES`).
* :func:`write` writes ``reports/verdicts.csv`` and ``reports/verdicts.md`` (every claim) and each
  paper's ``reports/<paper>/verdicts.{md,csv}``.
"""

from __future__ import annotations

import importlib
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from ... import published
from ...papers import PAPERS
from .. import page as P

#: the four verdicts a claim can get
REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_CHECKABLE = ("reproduced", "partly reproduced", "not reproduced",
                                                      "not checkable")
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_CHECKABLE)

#: the reasons a claim can be "not checkable" (a not-checkable reason starts with one of them)
ABSENT = "dataset absent"
NOT_MEASURABLE = "quantity not measurable"
NOT_AT_SCALE = "protocol not run at this scale"
TIMING_NOISE = "within timing noise"
DIFFERENT_IMPL = "different implementations"
EVALUATOR = "evaluator"  # the evaluator is missing or failed (a framework reason, not a finding)
CHECKABLE_REASONS = (ABSENT, NOT_MEASURABLE, NOT_AT_SCALE, TIMING_NOISE, DIFFERENT_IMPL, EVALUATOR)

# ---- the shared thresholds (used by the evaluators; stated in RULES)
#: a printed accuracy (%) is reproduced when ours is within max(ACC_TOL, 2 standard errors) of it
ACC_TOL = 1.0
#: "an order of magnitude" faster/slower: a time ratio of at least 10**0.5 (it rounds to 10 on a log scale)
ORDER = 10 ** 0.5
#: "up to X" / "X" points of gain: reproduced when our largest gain is at least (1 - GAIN_TOL) * X
GAIN_TOL = 0.2
#: "constant" in N: the value at the largest N is within this factor of the value at the smallest N
CONSTANT_FACTOR = 2.0
#: "linear" in a parameter: the least-squares log-log slope is within these bounds; below: sub-linear
LINEAR_SLOPE = (0.8, 1.2)
#: a time ratio is reproduced when ours / published lies in [1/RATIO_FACTOR, RATIO_FACTOR]
RATIO_FACTOR = 1.5
#: the timing rule's bootstrap (bench.report.verdicts.timing): resamples, level, seed
BOOT_RESAMPLES, BOOT_LEVEL, BOOT_SEED = 10000, 0.95, 0
#: the largest speed factor between one of bench's learners and the papers' Java/Weka implementation of it,
#: measured on the same data (the perf benchmarks, reports/perf: from about x2 to x19, different for each
#: learner): a time ratio of two learners of separate code bases can be off by this factor either way
ENGINEERING_FACTOR = 19.0
#: orderings of means (bench.report.verdicts.ordering): the Wilcoxon test's level, the fold-paired test's
#: number of standard errors
ORDER_ALPHA, ORDER_SE = 0.05, 2.0

#: the verdict rules, written down once (rendered into verdicts.md and every paper page)
RULES: tuple[tuple[str, str], ...] = (
    ("one verdict per claim",
     "Every claim id of bench/published/claims.csv gets exactly one verdict: reproduced, partly reproduced, "
     "not reproduced or not checkable. Each carries our number, the paper's, the test where the claim is a "
     "comparison, and the report table it rests on (paths relative to reports/)."),
    ("reproduced",
     "Every stated part of the claim holds on our numbers under the test named with it."),
    ("partly reproduced",
     "Only for a compound claim (several stated parts, e.g. 'linear in t and sub-linear in psi'): at least "
     "one stated part holds and another fails. Never because one comparison of many holds: a claim about "
     "several comparisons ('better than the other contenders', 'on most data sets') is one part and holds "
     "or fails as a whole."),
    ("not reproduced",
     "The claim, or every checkable part of it, fails on our numbers; the reason says by how much."),
    ("not checkable",
     "Needs the reason, one of: 'dataset absent' (the data set, or the paper's size of it, is not here), "
     "'quantity not measurable' (e.g. an absolute time measured on another machine), 'protocol not run at "
     "this scale' (the experiment exists but was not run at the size the claim needs), 'within timing noise' "
     "(a time ratio whose interval straddles the claim's threshold), 'different implementations' (a time ratio "
     "of two learners that are not one code base, within the engineering factor of its threshold). A missing "
     "or failing evaluator gives 'evaluator missing/failed' for each of its claims."),
    ("parts that cannot be checked",
     "A compound claim some of whose parts cannot be checked here gets the verdict of the parts that can, "
     "and its reason names the parts left unchecked; with no checkable part it is not checkable."),
    ("win/draw/loss claims",
     "Use the paper's own test and significance level (MassBayes: two-standard-error test on the paired "
     "fold accuracies; ESKDB: one-tailed binomial sign test, p <= 0.05; A2DE: two-tailed binomial sign test, "
     "p < 0.05), on the data sets run here."),
    ("times",
     "Absolute times measured on another machine are not compared (not checkable: quantity not "
     "measurable); ratios between algorithms, or between sizes, measured on one machine are. 'An order of "
     f"magnitude' faster/slower is a ratio >= 10^0.5 = {ORDER:.2f}; 'the same order of magnitude' a ratio "
     "within 10^0.5 either way, except where it names the exceptions to 'an order of magnitude slower', where "
     "it means not an order slower (the paper's module docstring says where). A ratio against the paper's is "
     f"reproduced within a factor {RATIO_FACTOR:g} of it."),
    ("time ratios beyond timing noise",
     "A time ratio that decides a verdict is never one ratio of two means. Per data set (or per split, for a "
     "claim about one data set) the ratio of the two learners' CPU seconds summed over the splits both ran, on "
     f"the same folds; summarised by their geometric mean and median, each with a {BOOT_LEVEL:.0%} percentile "
     f"bootstrap interval over the data sets ({BOOT_RESAMPLES} resamples, seed {BOOT_SEED}). The claim holds when "
     "the geometric mean's interval (the median's, for a claim about the typical data set: the verdict's test "
     "says which) lies wholly inside its band, fails when it lies wholly outside, and is otherwise 'not "
     "checkable: within timing noise', with the interval. The ratio of the mean times is shown beside, never "
     "decided on (the largest data sets carry it). Every such verdict says how the times were taken: CPU time "
     "per split, each learner in its own job over the same folds, not interleaved."),
    ("different implementations",
     "A time ratio of two learners that are one code base with the same engineering (ESKDB_HDP / ESKDB_M, "
     "XGBoost_tuned / XGBoost_default, ECOC-NB / NB, one learner at two sizes or settings) is decided as above. "
     "For two learners of separate code bases the ratio measures the engineering as much as the algorithms: "
     "bench's learners are faster than the papers' Java/Weka code by factors from about 2 to "
     f"{ENGINEERING_FACTOR:g}, different for each (reports/perf). Such a ratio is decided only where no "
     f"engineering factor up to x{ENGINEERING_FACTOR:g} either way could change the conclusion, else it is "
     "'not checkable: different implementations', the difference named and the measured ratio shown."),
    ("orderings of means",
     "'Lowest', 'best', 'a clear winner' are decided by a paired test, not by a strict comparison of means: "
     f"over data sets the two-sided Wilcoxon signed-rank test (p < {ORDER_ALPHA}), over the few folds of one data "
     f"set the fold-paired {ORDER_SE:g}-standard-error test. The claimed candidate fails only where another "
     "is found better; a difference the test does not find is a tie, not a loss."),
    ("collections missing data sets",
     "A claim on a collection of the paper's data sets some of which are not here is decided one way for all: "
     "where the missing ones are those the claim's argument rests on (the large collection misses its largest "
     "data sets, on which a claim about big data rests) every comparison on it is 'not checkable: dataset "
     "absent', with our counts shown; on the other collections (all, medium, small) it is decided on the data "
     "sets here, the collection named and its count shown."),
    ("the claim's own exceptions",
     "A comparison the claim itself names as its exception (e.g. 'the exceptions are A1DE, 0-1 loss, medium "
     "data and A2DE, 0-1 loss, small data') is exempt exactly as the claim exempts it: shown, never decided."),
    ("two generators",
     "A claim checked on runs made with two random generators (the ESKDB ablation: proper random draws, and "
     "the reference code's java.util.Random draws that made the paper's numbers) is decided on both, each a "
     "stated part: holding on one and not the other is partly reproduced, and the verdict shows both."),
    ("printed numbers",
     f"A printed accuracy is reproduced when ours is within max({ACC_TOL:g} point, 2 standard errors) of it; "
     f"a printed gain 'of X' or 'up to X' points when our largest gain is at least {1 - GAIN_TOL:g} X."),
    ("readings",
     "How a claim's words map onto these rules ('in many cases', 'most data sets', 'slightly', 'soon') is "
     "written in the docstring of its evaluator, bench/papers/<paper>/verdicts.py, and in the verdict's test "
     "column; the same reading is applied to the paper's own numbers where they are printed, and shown beside "
     "ours."),
    ("the paper's scale",
     "A verdict is decided (reproduced, partly or not reproduced) only on runs at the paper's protocol: "
     "every experiment its evidence files come from (the folder of each file; a paper's folder stands for all "
     "of that paper's experiments) must have run as its full scale says: the same protocol, datasets (those "
     "here), seeds, parameter sweep and scale-up factors, as recorded in the run's plan shipped in "
     "reports/evidence/<experiment>.plan.json. Otherwise the verdict is 'not checkable: protocol not run at "
     "this scale', with our numbers and the verdict they would give. At smoke scale no claim is decided "
     "unless smoke is the paper's protocol. Experiments whose evidence is not shipped (reports built before "
     "evidence was) are not held to this; the verdict's scale column says so."),
    ("curve shapes",
     f"'Constant' in N: the value at the largest N is within a factor {CONSTANT_FACTOR:g} of that at the "
     f"smallest. 'Linear': least-squares log-log slope in [{LINEAR_SLOPE[0]}, {LINEAR_SLOPE[1]}]; "
     f"'sub-linear': slope below {LINEAR_SLOPE[0]}. A curve of times recorded per split is decided on the "
     f"{BOOT_LEVEL:.0%} bootstrap interval of its slope ({BOOT_RESAMPLES} resamples of the splits, seed "
     f"{BOOT_SEED}): wholly inside the band or wholly outside it, else not checkable: within timing noise. "
     "'Flat' (accuracy): the last step changes it by less than two standard errors."),
    ("the paper's own numbers",
     "Where a check can read the paper's printed numbers too, it applies the same rule to them; a claim "
     "that fails here, and whose paper's own numbers fail the same rule, says so in its reason."),
)


@dataclass
class Verdict:
    """The verdict on one claim.

    ``ours``/``published`` are short display strings (numbers with units, WDL counts); ``test``
    names the test where the claim is a comparison (e.g. "two-tailed sign test, p <= 0.05"), else
    ""; ``evidence`` is the path of the report table the verdict rests on, relative to reports/
    (several paths separated by ";"; a CSV links to its Markdown twin on the pages where one exists);
    ``reason`` is one line saying why (always set for not reproduced / partly / not checkable);
    ``scale`` the scale and protocol the numbers come from.
    """

    claim_id: str
    paper: str
    verdict: str
    ours: str = ""
    published: str = ""
    test: str = ""
    evidence: str = ""
    reason: str = ""
    scale: str = ""
    claim: str = ""
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.claim_id}: verdict {self.verdict!r} is not one of {VERDICTS}")
        if self.verdict != REPRODUCED and not str(self.reason).strip():
            raise ValueError(f"claim {self.claim_id}: a {self.verdict!r} verdict needs a reason")

    def row(self) -> dict:
        d = asdict(self)
        d.pop("extra")
        return d


def to_frame(verdicts: list[Verdict]) -> pd.DataFrame:
    cols = [f for f in Verdict.__dataclass_fields__ if f != "extra"]
    return pd.DataFrame([v.row() for v in verdicts], columns=cols)


# ------------------------------------------------------------------ helpers for the evaluators
def claim_text(row) -> str:
    """The claim in one line: its quote (the paper's sentence)."""
    return str(row.get("quote", "") or row.get("quantity", "")).strip()


def published_text(row) -> str:
    """The paper's number as claims.csv gives it (value and unit), else its conditions."""
    value, unit = str(row.get("value", "")).strip(), str(row.get("unit", "")).strip()
    if value and value.lower() != "nan":
        return f"{value} {unit}".strip()
    return unit or "qualitative"


# ------------------------------------------------------------------ running the evaluators
def _degrade(paper: str, claims: pd.DataFrame, reason: str) -> list[Verdict]:
    return [Verdict(r["claim_id"], paper, NOT_CHECKABLE, published=published_text(r), reason=reason,
                    claim=claim_text(r)) for _, r in claims.iterrows()]


class EvaluatorError(RuntimeError):
    """A claim evaluator crashed, or answered a claim not exactly once: a bug, never a verdict. The
    message names the paper, the claims and the traceback; a report build that meets one fails."""

    def __init__(self, paper: str, claim_ids: list[str], detail: str):
        self.paper, self.claim_ids, self.detail = paper, list(claim_ids), detail
        super().__init__(f"the claim evaluator of {paper} failed on {', '.join(claim_ids)}:\n{detail}")


def _failing_claims(mod, reports_dir: Path, claims: pd.DataFrame) -> dict[str, str]:
    """Each claim of ``claims`` evaluated alone: the ids whose evaluation raises, with the traceback."""
    bad = {}
    for cid in claims["claim_id"]:
        try:
            list(mod.evaluate(reports_dir, claims[claims["claim_id"] == cid].copy()))
        except Exception:
            bad[cid] = traceback.format_exc()
    return bad


def evaluate_paper(paper: str, reports_dir: Path, claims: pd.DataFrame | None = None) -> list[Verdict]:
    """The verdicts of one paper, exactly one per claim id of ``claims`` (default: its rows of claims.csv).

    A paper without an evaluator module gives every claim "not checkable: evaluator missing". A
    module that fails to import or raises, and one that leaves a claim out or answers it twice, is
    a bug: :class:`EvaluatorError`, naming the claims (each claim is evaluated alone to find those
    that raise) and the traceback. Verdicts on ids that are not the paper's claims are dropped."""
    claims = published.claims(paper) if claims is None else claims
    reports_dir = Path(reports_dir)
    modname = f"bench.papers.{paper}.verdicts"
    ids = list(claims["claim_id"])
    try:
        mod = importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        if exc.name not in (modname, modname.rsplit(".", 1)[0]):   # the paper's package or its verdicts
            raise EvaluatorError(paper, ids, traceback.format_exc()) from exc
        return _degrade(paper, claims, f"evaluator missing (bench/papers/{paper}/verdicts.py not written yet)")
    except Exception as exc:
        raise EvaluatorError(paper, ids, traceback.format_exc()) from exc
    if not hasattr(mod, "evaluate"):
        return _degrade(paper, claims, f"evaluator missing: bench/papers/{paper}/verdicts.py has no evaluate()")
    try:
        got = list(mod.evaluate(reports_dir, claims.copy()))
    except Exception as exc:
        whole = traceback.format_exc()
        bad = _failing_claims(mod, reports_dir, claims)
        if bad:
            raise EvaluatorError(paper, list(bad), "\n".join(f"{cid}:\n{tb}" for cid, tb in bad.items())) from exc
        raise EvaluatorError(paper, ids, whole) from exc
    by_id: dict[str, list[Verdict]] = {}
    for v in got:
        if not isinstance(v, Verdict):
            continue
        by_id.setdefault(v.claim_id, []).append(v)
    wrong = {cid: len(by_id.get(cid, [])) for cid in ids if len(by_id.get(cid, [])) != 1}
    if wrong:
        raise EvaluatorError(paper, list(wrong), "the evaluator gave " + ", ".join(
            f"{n} verdicts for {cid}" for cid, n in wrong.items()) + " (exactly one each is required)")
    out = []
    for cid in ids:
        v = by_id[cid][0]
        r = claims[claims["claim_id"] == cid].iloc[0]
        v.paper = v.paper or paper
        v.claim = v.claim or claim_text(r)
        v.published = v.published or published_text(r)
        out.append(v)
    return out


#: what a run plan must share with the experiment's full scale to be the paper's protocol
SCALE_KEYS = ("protocol", "datasets", "seeds", "sweep", "factors")


def experiment_scales(reports_dir: Path | str) -> dict[str, dict]:
    """Per experiment with a shipped plan (``reports/evidence/<experiment>.plan.json``): the scale it
    ran at, and whether that is the paper's protocol (its full scale: :data:`SCALE_KEYS`)."""
    import json

    from ...experiment_plan import experiment_config, experiment_names, plan

    out = {}
    ev = Path(reports_dir) / "evidence"
    defined = set(experiment_names())
    for path in sorted(ev.glob("*.plan.json")) if ev.is_dir() else []:
        name = path.name[: -len(".plan.json")]
        if name not in defined:
            continue
        ran = json.loads(path.read_text())
        full = dict(plan(name, "full"))
        factors = experiment_config(name).get("factors")
        if isinstance(factors, dict):
            full["factors"] = factors.get("full")
        elif factors is not None:
            full["factors"] = factors

        def norm(d: dict, k: str):
            v = d.get(k)
            return sorted(v) if k == "datasets" and v is not None else (v or None)

        differs = [k for k in SCALE_KEYS if norm(ran, k) != norm(full, k)]
        out[name] = {"scale": ran.get("scale"), "protocol": ran.get("protocol"),
                     "datasets": len(ran.get("datasets") or []), "paper_protocol": full.get("protocol"),
                     "paper_datasets": len(full.get("datasets") or []), "differs": differs,
                     "at_paper_scale": not differs}
    return out


def _verdict_experiments(v: Verdict) -> list[str]:
    """The experiments a verdict's numbers come from: those its evaluator names
    (``extra["experiments"]``), else the folder of each evidence file (a paper's folder: all of
    that paper's experiments)."""
    from ...experiment_plan import experiment_config, experiment_names

    if (v.extra or {}).get("experiments") is not None:
        return sorted(set(v.extra["experiments"]))
    names = set(experiment_names())
    out = []
    for e in str(v.evidence or "").split(";"):
        folder = e.strip().split("/")[0]
        if not folder or folder == "..":
            continue
        if folder in names:
            out.append(folder)
        else:
            out += [n for n in sorted(names) if experiment_config(n).get("paper") == folder]
    return sorted(set(out))


def scale_gate(verdicts: list[Verdict], reports_dir: Path | str) -> list[Verdict]:
    """Hold every decided verdict to the paper's scale (the rule "the paper's scale" of :data:`RULES`)."""
    scales = experiment_scales(reports_dir)
    out = []
    for v in verdicts:
        exps = _verdict_experiments(v)
        unshipped = [e for e in exps if e not in scales]
        if unshipped and v.verdict != NOT_CHECKABLE:
            v.scale = (v.scale + "; " if v.scale else "") + f"evidence not shipped for {', '.join(unshipped)}"
        below = [e for e in exps if e in scales and not scales[e]["at_paper_scale"]]
        if v.verdict == NOT_CHECKABLE or not below:
            out.append(v)
            continue
        what = "; ".join(
            f"{e} ran at scale {scales[e]['scale']} (protocol {scales[e]['protocol']}, {scales[e]['datasets']} "
            f"datasets), the paper's protocol is {scales[e]['paper_protocol']} on {scales[e]['paper_datasets']} "
            f"datasets here (differs in {', '.join(scales[e]['differs'])})" for e in below)
        out.append(Verdict(v.claim_id, v.paper, NOT_CHECKABLE, ours=v.ours, published=v.published, test=v.test,
                           evidence=v.evidence, scale=v.scale, claim=v.claim, extra=v.extra,
                           reason=f"{NOT_AT_SCALE}: {what}; at this scale ours would be '{v.verdict}'"
                                  + (f" ({v.reason})" if v.reason else "")))
    return out


def paper_fails_too(verdicts: list[Verdict]) -> list[Verdict]:
    """A claim that fails here says so when the paper's own numbers fail the same rule too (the check's
    verdict on the paper's printed numbers, ``extra["paper_own"]``): that is a documented cause of the
    failure, the claim's words going beyond the paper's own table, so the reason states it."""
    failed = (NOT_REPRODUCED, PARTLY)
    for v in verdicts:
        own = (v.extra or {}).get("paper_own")
        if v.verdict in failed and own in failed:
            v.reason = (v.reason + "; " if v.reason else "") + \
                f"the paper's own numbers fail the same rule: read as ours, they are '{own}'"
    return verdicts


def evaluate_all(reports_dir: Path | str = "reports") -> list[Verdict]:
    """Every claim of every paper, exactly one verdict each, in claims.csv order, held to the
    paper's scale (:func:`scale_gate`)."""
    out: list[Verdict] = []
    for paper in PAPERS:
        out += evaluate_paper(paper, Path(reports_dir))
    out = paper_fails_too(scale_gate(out, reports_dir))
    ids, problem = unjudged(out, published.claims(None))
    if problem:
        raise EvaluatorError("bench/published/claims.csv", ids, problem)
    return out


def unjudged(verdicts: list[Verdict], claims: pd.DataFrame) -> tuple[list[str], str]:
    """(the claim ids that keep ``verdicts`` from being exactly one per claim of ``claims``, all of
    claims.csv; what is wrong with each group of them and the fix); ``([], "")`` when nothing does."""
    ids = [v.claim_id for v in verdicts]
    lacking = claims[~claims["claim_id"].isin(ids)]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    extra = sorted(set(ids) - set(claims["claim_id"]))
    out = []
    for paper, rows in lacking.groupby("paper", sort=False):
        fix = (f"paper {paper!r} is not declared: add its folder bench/papers/{paper}/ with its DECLARATION "
               "(docs/DESIGN.md, 'Add a paper')" if paper not in PAPERS else
               f"bench/papers/{paper}/verdicts.py must answer each of its claims")
        out.append(f"{len(rows)} claims of {paper} have no verdict ({', '.join(rows['claim_id'])}): {fix}")
    if twice:
        out.append(f"claims judged more than once: {', '.join(twice)}")
    if extra:
        out.append(f"verdicts on ids that are not claims of bench/published/claims.csv: {', '.join(extra)}")
    return list(lacking["claim_id"]) + twice + extra, "; ".join(out)


def counts(verdicts: list[Verdict], paper: str | None = None) -> dict[str, int]:
    c = {k: 0 for k in VERDICTS}
    for v in verdicts:
        if paper is None or v.paper == paper:
            c[v.verdict] += 1
    return c


# ------------------------------------------------------------------ writing
def _cell(s) -> str:
    return str(s if s is not None else "").replace("\n", " ").strip()


def _readable(e: str, root: Path | None) -> str:
    """The Markdown twin of an evidence CSV when it exists (the table as printed), else the path."""
    e = e.strip()
    if root is not None and e.endswith(".csv") and (Path(root) / e).with_suffix(".md").exists():
        return e[:-4] + ".md"
    return e


def evidence_inline(e: str, link_prefix: str = "", root: Path | None = None):
    """A link to an evidence file inside reports/ (an inline of :mod:`bench.report.page`); a file of
    the repository outside reports/ (``../conf/...``: a config the claim is about) is named as a
    repository path, not linked, so the reports stay self-contained (the HTML view links only inside
    reports/)."""
    e = e.strip()
    if e.startswith("../"):
        return P.Code(e[3:])
    return P.link(Path(e).stem, f"{link_prefix}{_readable(e, root)}")


def verdict_table(verdicts: list[Verdict], link_prefix: str = "", with_paper: bool = False,
                  root: Path | None = None) -> P.Table:
    """A verdict table (a block of :mod:`bench.report.page`); ``link_prefix`` is prepended to evidence
    paths (relative to reports/) so that links resolve from the page the table is on; with ``root``
    (reports/), evidence CSVs link to their Markdown twin where there is one. The test column adds a W/D/L
    claim's Bayesian signed-rank note (:mod:`.bayes_note`, information only) after the claim's own test."""
    from . import bayes_note

    cols = (["paper"] if with_paper else []) + ["claim", "verdict", "reason", "ours", "published", "test",
                                                 "evidence", "the claim (paper's words)"]
    rows = []
    for v in verdicts:
        ev = P.join([evidence_inline(e, link_prefix, root) for e in str(v.evidence).split(";") if e.strip()], ", ") \
            if v.evidence else ""
        rows.append(([_cell(v.paper)] if with_paper else []) +
                    [_cell(v.claim_id), P.strong(_cell(v.verdict)) if v.verdict == REPRODUCED else _cell(v.verdict),
                     _cell(v.reason), _cell(v.ours), _cell(v.published), _cell(bayes_note.shown(v.test, v.extra)), ev,
                     P.quoted(_cell(v.claim))])
    return P.Table(cols, rows, kind="verdicts")


def verdicts_page(root: Path, verdicts: list[Verdict]) -> P.Page:
    """``reports/verdicts.md``: every claim, after the rules."""
    c = counts(verdicts)
    return P.Page([P.Heading(1, "Verdicts on the papers' claims"),
                   P.Para(f"{len(verdicts)} claims: " + ", ".join(f"{n} {k}" for k, n in c.items()) + "."),
                   P.Heading(2, "Rules"), P.Bullets([P.Item(P.inlines(P.strong(k), f": {t}")) for k, t in RULES]),
                   P.Heading(2, "Every claim"),
                   verdict_table(verdicts, with_paper=True, root=root)])


def paper_verdicts_page(root: Path, paper: str, verdicts: list[Verdict]) -> P.Page:
    """``reports/<paper>/verdicts.md``: the paper's claims (its page, README.md, shows them too)."""
    vs = [v for v in verdicts if v.paper == paper]
    cp = counts(vs)
    return P.Page([P.Para(P.inlines(f"Verdicts on the {paper} claims: " + ", ".join(f"{n} {k}" for k, n in cp.items())
                                    + " (rules: ", P.link("verdicts.md", "../verdicts.md#rules"), ")")),
                   verdict_table(vs, link_prefix="../", root=root)])


def write(reports_dir: Path | str = "reports", verdicts: list[Verdict] | None = None) -> list[Path]:
    """Write reports/verdicts.{csv,md} (every claim) and reports/<paper>/verdicts.{csv,md}."""
    root = Path(reports_dir)
    verdicts = evaluate_all(root) if verdicts is None else verdicts
    written = []
    df = to_frame(verdicts)
    df.to_csv(root / "verdicts.csv", index=False)
    written.append(root / "verdicts.csv")
    (root / "verdicts.md").write_text(P.to_markdown(verdicts_page(root, verdicts)))
    written.append(root / "verdicts.md")
    for paper in PAPERS:
        vs = [v for v in verdicts if v.paper == paper]
        d = root / paper
        d.mkdir(parents=True, exist_ok=True)
        to_frame(vs).to_csv(d / "verdicts.csv", index=False)
        (d / "verdicts.md").write_text(P.to_markdown(paper_verdicts_page(root, paper, vs)))
        written += [d / "verdicts.csv", d / "verdicts.md"]
    return written
