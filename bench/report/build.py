"""Build reports/: the papers' tables and figures, a summary per stored experiment, and
reports/index.md.

* The papers are one explicit list, :mod:`bench.papers`. A paper's ``build`` runs on every
  ``python -m bench.report``, whether or not its experiments ran: it writes what the stored records
  allow and lists every missing cell with its reason, and records its numbers as facts.
* Every stored experiment also gets the generic summary (mean and standard error over splits
  per dataset and algorithm) and a rank analysis (Friedman, Nemenyi CD, Wilcoxon); readers see the
  algorithms by the names of the experiment's paper (:data:`bench.report.labels.DISPLAY_NAMES`),
  the CSV files keep the config names.
* ``reports/index.md`` lists what was regenerated, at which scale, from how many stored records,
  on which machine, and the missing cells by reason.

Files a previous build left in a directory this build rewrites, and did not write again, are
removed, so reports/ never shows a stale table.

A build writes into a private copy of the output folder, swapped in folder by folder once complete
(:mod:`bench.report.staging`). Within it, each paper and each experiment summary is written into a
temporary folder beside its own (``.<name>.building-<random>``) that replaces the folder only when everything in it was written: a module
that fails (a broken record, a bug) leaves the earlier files in place, its index section says so
and names the file or record at fault, and :func:`build_reports` raises
:class:`ReportBuildError` at the end (``python -m bench.report`` then exits 1).

A build never throws away results it cannot remake: a paper none of whose experiments has a
stored record in this results directory, and a stored-experiment summary whose experiment is not
stored here, keep the files and index section of the build that made them (each section says
when, at which commit and from how many records it was built). ``keep_earlier=False`` rebuilds
every paper from what is stored, empty or not.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable
from pathlib import Path

import pandas as pd

from ..provenance import provenance
from .context import PaperResult, ReportContext, status_counts
from .evidence import EVIDENCE, Evidence, export_experiment, export_perf, write_manifest
from .ranking import friedman_report
from .labels import names_for
from ..store import SCALES, results_root  # noqa: F401  (defined once, in the store)
from ..papers import builds
from . import page as P
from .guard import selected_experiments
from .sections import IndexSections, has_role, parts, section
from .paper_pages import TITLES, page_item, paper_experiments, shorten

#: paper key -> build(ctx, out) -> PaperResult (bench.papers: one explicit list)
BUILDS = builds()
from .staging import StagedTree, build_lock
from .tables import summarise, write_table

__all__ = ["build_reports", "generic_report"]

#: failed / not-applicable (algorithm, dataset) pairs listed in the index per experiment
MAX_LISTED = 12
#: characters of a failed / not-applicable split's error message shown in the index (whole when it fits;
#: else shortened at a sentence or clause end by :func:`bench.report.paper_pages.shorten`)
ERROR_WIDTH = 300


class ReportBuildError(RuntimeError):
    """Some papers or experiment summaries could not be rebuilt (their earlier files were kept)."""

    def __init__(self, failures: list[str], written: list[Path]):
        super().__init__("; ".join(failures))
        self.failures = failures
        self.written = written


def committed_scale(out_dir: str | Path) -> str | None:
    """The scale the reports in ``out_dir`` were built at (from its ``index.json``), or None."""
    sections = IndexSections.read(Path(out_dir))
    return sections.scale if sections is not None else None


def output_dir_for(out_dir: str | Path, scale: str | None, force: bool = False) -> tuple[Path, str | None]:
    """Where a build at ``scale`` writes: ``out_dir`` itself, or ``out_dir/<scale>`` when
    ``out_dir`` holds reports built at a larger scale (a smoke build must not overwrite the
    medium reports), unless ``force``. (``scale-<scale>``, not ``<scale>``: ``reports/smoke``
    is the summary of the experiment named smoke.) Returns (directory, note or None)."""
    out = Path(out_dir)
    old = committed_scale(out)
    if force or not scale or old not in SCALES or scale not in SCALES or SCALES.index(scale) >= SCALES.index(old):
        return out, None
    beside = out / f"scale-{scale}"
    return beside, (f"the reports in {out}/ were built at scale {old}; this scale-{scale} build writes to "
                    f"{beside}/ instead (pass --force-scale to overwrite them)")


def _build_failed(what: str, exc: Exception, tmp: Path, out: Path, failures: list[str]) -> None:
    """A paper or experiment whose build raised: its staging folder goes, its earlier files stay,
    and the traceback is printed and the failure counted (``python -m bench.report`` exits 1)."""
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"the report of {what} failed ({_where(exc)}); its earlier files in {out}/ are kept:\n"
          f"{traceback.format_exc()}", file=sys.stderr)
    failures.append(f"{what}: {type(exc).__name__}: {exc} (at fault: {_where(exc)})")


def _where(exc: BaseException) -> str:
    """The file or record an exception names, else its innermost source line."""
    text = str(exc)
    for token in text.replace("(", " ").replace(")", " ").split():
        if token.endswith((".json", ".npz", ".json;", ".npz;", ".csv")) and "/" in token:
            return token.rstrip(";")
    tb = traceback.extract_tb(exc.__traceback__)
    return f"{tb[-1].filename}:{tb[-1].lineno}" if tb else "-"


def _staging(final: Path, keep: bool = False) -> Path:
    """A fresh temporary folder beside ``final``; with ``keep`` it starts as a copy of ``final``
    (a folder this build already wrote, shared by a paper and its experiment of the same name)."""
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.building-", dir=final.parent))
    if keep and final.is_dir():
        tmp.rmdir()
        shutil.copytree(final, tmp)
    return tmp


def _commit(tmp: Path, final: Path, files: list[Path]) -> list[Path]:
    """Replace ``final`` by the completed ``tmp`` folder; return ``files`` at their final place."""
    if final.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-", dir=final.parent))
        os.replace(final, old / final.name)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, final)
    out = []
    for f in files:
        try:
            out.append(final / Path(f).relative_to(tmp))
        except ValueError:
            out.append(Path(f))
    return out


def _n_records(ctx: ReportContext, name: str) -> int:
    try:
        return ctx.experiment(name).n_records
    except Exception:  # an unreadable record: its experiment's section reports it
        return 0


def _failed_section(title: str, exc: BaseException, old_block: list | None, generated: str) -> list:
    items = [P.Item((P.strong("the report module failed"), f": {type(exc).__name__}: {exc}")),
             P.Item(f"at fault: {_where(exc)}")]
    if old_block:
        items.append(P.Item("the files of the earlier build were kept; its section follows"))
        items += parts(_kept(old_block, generated))[1]
    else:
        items.append(P.Item("no earlier build to keep"))
    return section(title, items)


def generic_report(name: str, df: pd.DataFrame, plan: dict, out: Path,
                   ranks: bool = True) -> tuple[list[Path], list[str]]:
    """The generic summary of an experiment; without ``ranks`` no rank analysis (the folder's paper
    module writes its own, over the paper's datasets and complete runs)."""
    s = summarise(df, names_for(name, plan))
    if s.empty:
        return [], []
    written: list[Path] = []
    notes: list[str] = []
    shown = dict(zip(s["algo"], s["learner"]))   # config (variant) label -> the paper's name, for readers
    s.to_csv(out / "summary_long.csv", index=False)
    written.append(out / "summary_long.csv")
    for metric in ("error", "rmse"):
        piv = s.pivot_table(index="dataset", columns="algo", values=metric, aggfunc="first")
        se = s.pivot_table(index="dataset", columns="algo", values=f"{metric}_se", aggfunc="first")
        cells = piv.copy().astype(object)
        for c in piv.columns:
            cells[c] = [f"{m:.4f} ± {e:.4f}" if pd.notna(m) else "" for m, e in zip(piv[c], se[c])]
        written += write_table(cells, out / f"summary_{metric}", labels=shown,
                               caption=f"{name}: {metric} (mean ± standard error over splits)")
        if ranks and piv.shape[1] >= 2 and piv.shape[0] >= 2:
            files, n = friedman_report(piv, out / f"summary_{metric}", f"{name}: {metric}", labels=shown,
                                       plan=plan, n_records=int(s["splits"].sum()))
            written += files
            notes += n
    t = s.pivot_table(index="dataset", columns="algo", values="train_s", aggfunc="first").round(4)
    written += write_table(t, out / "summary_train_time", labels=shown,
                           caption=f"{name}: training CPU seconds per split (mean)")
    return written, notes


def _links(label: str, files: list[Path], out_root: Path, suffixes=(".md",)) -> P.Item:
    """The bullet ``label: `` and a link to each of ``files`` with one of ``suffixes`` (else ``none``)."""
    picked = [f for f in files if f.suffix in suffixes and not f.name.endswith(".caption.md")]
    if not picked:
        return P.Item(f"{label}: none", role=label)
    return P.Item((f"{label}: ", P.join([P.link(f.stem, f.relative_to(out_root).as_posix()) for f in picked], ", ")),
                  role=label)


def _missing_summary(result: PaperResult) -> list:
    by_cat: dict[str, list] = defaultdict(list)
    for m in result.missing:
        by_cat[m.category].append(m)
    lines = []
    for cat, ms in by_cat.items():
        algos = sorted({m.algorithm for m in ms if m.algorithm})
        dsets = sorted({m.dataset for m in ms if m.dataset})
        items = sorted({m.item for m in ms})
        what = []
        if cat.startswith("algorithm"):
            what.append(f"{len(algos)} algorithms: {', '.join(algos)}")
        elif cat.startswith("dataset"):
            what.append(f"{len(dsets)} datasets: {', '.join(dsets)}")
        else:
            if algos:
                what.append(f"algorithms {', '.join(algos[:12])}{' ...' if len(algos) > 12 else ''}")
            if dsets:
                what.append(f"{len(dsets)} datasets")
        lines.append(P.Item(f"{cat}: {len(ms)} cells ({'; '.join(what) or ', '.join(items)})"))
    return lines


def _write_missing(result: PaperResult, out: Path) -> list[Path]:
    if not result.missing:
        return []
    df = pd.DataFrame([{"item": m.item, "dataset": m.dataset, "algorithm": m.algorithm, "category": m.category,
                        "reason": m.reason} for m in result.missing])
    return write_table(df, out / "missing", index=False,
                       caption=f"{result.paper}: every missing cell and figure, and why")


def _experiment_line(ctx: ReportContext, name: str) -> P.Item:
    view = ctx.experiment(name)
    plan = view.plan
    if not view.defined and view.n_records == 0:
        return P.Item(("experiment ", P.Code(name), f": not defined yet (no conf/experiment/{name}.yaml), nothing stored"))
    hosts = ", ".join(view.hosts()) or "-"
    when = plan.get("finished_at", "-")
    run = "planned, not run" if plan.get("not_run") else f"last run finished {when}"
    ma = plan.get("missing_algos") or {}
    extra = f"; skipped (not implemented yet): {', '.join(ma)}" if ma else ""
    return P.Item(("experiment ", P.Code(name), f": scale {plan.get('scale', 'ad hoc')}, protocol {plan.get('protocol', '-')}, "
                   f"{view.n_records} stored records ({view.n_failed} failed{_na(view.n_not_applicable)}), run on {hosts}; "
                   f"{run}{extra}"))


def _na(n: int) -> str:
    return f", {n} not applicable" if n else ""


def _clean_stale(written: list[Path], dirs: set[Path]) -> list[Path]:
    keep = {p.resolve() for p in written}
    removed = []
    for d in dirs:
        if not d.exists():
            continue
        for p in d.iterdir():
            if p.is_file() and p.resolve() not in keep:
                p.unlink()
                removed.append(p)
    return removed


KEPT_NOTE = "kept from an earlier build: "
#: why an earlier index section is kept: nothing to remake it from (a section a ``--paper`` build does not
#: select is kept exactly as it was: its own "built" line says when it was made)
NOTHING_STORED = "nothing of it is stored in this results directory"


def _kept(block: list, generated: str, why: str = NOTHING_STORED) -> list:
    """An earlier index section (blocks), marked as kept, saying ``why`` (with the earlier build's
    date and commit when the section does not carry its own; an earlier build's reason is replaced)."""
    title, items = parts(block)
    items = [it for it in items if not has_role(it, "kept")]
    if not any(has_role(it, "built") for it in items):
        when = generated.removeprefix("Generated ").rstrip(".") if generated else "an earlier build"
        items.insert(0, P.Item(f"built: {when}", role="built"))
    return section(title, items + [P.Item(f"{KEPT_NOTE}{why}", role="kept")])




def build_reports(results_dir: str | None = None, out_dir: str = "reports", experiments: list[str] | None = None,
                  scale: str | None = None, papers: list[str] | None = None,
                  keep_earlier: bool = True, from_evidence: bool = False) -> list[Path]:
    """Write every paper's report and a summary of every stored experiment; see :func:`_build_reports`.

    One build at a time per ``out_dir`` (:func:`bench.report.staging.build_lock`), into a private
    copy of it that is swapped in folder by folder once complete (:class:`bench.report.staging.StagedTree`):
    a build that is killed or fails unexpectedly leaves ``out_dir`` as it was. The returned paths are
    the files' places in ``out_dir``."""
    out_root = Path(out_dir)
    with build_lock(out_root):
        tree = StagedTree(out_root)
        only = set(experiments) if experiment_only(experiments, papers) else None
        try:
            written = _build_reports(results_dir, str(tree.path), experiments, scale, papers, keep_earlier,
                                     from_evidence)
        except ReportBuildError as exc:   # what could be rebuilt was: publish it, the rest kept its files
            tree.publish(only)
            exc.written = [tree.final(p) for p in exc.written]
            exc.failures = [f.replace(str(tree.path), str(out_root)) for f in exc.failures]
            raise
        except BaseException:
            tree.discard()
            raise
        tree.publish(only)
        return [tree.final(p) for p in written]


def experiment_only(experiments: list[str] | None, papers: list[str] | None) -> bool:
    """Whether a build is an experiment-only build: experiments named and no paper (``python -m
    bench.report --experiment NAME``). It writes those experiments' summary folders and nothing else:
    no paper, no index, no verdicts, no evidence (a user's experiment never touches the papers' reports)."""
    return experiments is not None and papers is None


def paper_of(experiment: str) -> str | None:
    """The paper whose reports include ``experiment``'s folder (a paper's key, or an experiment whose
    config names the paper), else None (a user's experiment)."""
    if experiment in TITLES:
        return experiment
    return next((p for p in TITLES if experiment in paper_experiments(p)), None)


def verdicts_only(out_dir: str | Path = "reports") -> list[Path]:
    """The verdict stage alone (``--verdicts-only``), from the report files in ``out_dir``, under the
    build lock and into a staged copy, as a full build (:func:`build_reports`)."""
    from .paper_pages import write_verdict_stage

    out_root = Path(out_dir)
    with build_lock(out_root):
        tree = StagedTree(out_root)
        try:
            written = write_verdict_stage(tree.path)
        except BaseException:
            tree.discard()
            raise
        tree.publish()
        return [tree.final(p) for p in written]


def _build_reports(results_dir: str | None = None, out_dir: str = "reports", experiments: list[str] | None = None,
                   scale: str | None = None, papers: list[str] | None = None,
                   keep_earlier: bool = True, from_evidence: bool = False) -> list[Path]:
    """Write every paper's report and a summary of every stored experiment; return the files.

    The build reads evidence only (:mod:`bench.report.evidence`): first the evidence of every
    experiment stored in the results directory is exported, then the reports are built from it and
    from the committed evidence of ``out_dir/evidence`` for experiments not stored here. With
    ``from_evidence`` the results directory is not read at all.

    With ``keep_earlier`` (the default), sections that no evidence can remake are kept from
    the earlier ``index.md`` (see the module docstring); ``papers`` limits the rebuilt papers, and
    the others keep their earlier sections too."""
    root = results_root(results_dir)
    out_root = Path(out_dir)
    out_root.mkdir(parents=True, exist_ok=True)
    committed_ev = out_root / EVIDENCE
    fresh_ev = None
    if from_evidence:
        evidence = Evidence(committed_ev)
    else:
        fresh_ev = Path(tempfile.mkdtemp(prefix=".evidence.building-", dir=out_root))
        records = ReportContext(root)
        stored = [n for n in records.stored_experiments() if n != "perf"]
        broken: dict[str, BaseException] = {}
        for name in selected_experiments(stored, experiments, papers):
            if name in stored:
                try:
                    export_experiment(root, name, fresh_ev, records.experiment(name))
                except Exception as exc:  # a corrupt record: the reports that read it fail and keep their files
                    broken[name] = exc
        if papers is None and experiments is None:   # a --paper build exports only that paper's experiments
            export_perf(root, fresh_ev)
        # keep_earlier=False (--fresh): what is stored here only, and the committed evidence is replaced
        evidence = Evidence(fresh_ev, *([committed_ev] if keep_earlier else []), trusted=(fresh_ev,))
    done = None if fresh_ev is None else \
        (lambda failures: _commit_evidence(fresh_ev, committed_ev, failures, replace=not keep_earlier))
    try:
        ctx = ReportContext(root, scale, evidence=evidence)
        if fresh_ev is not None:
            ctx.broken = broken
        return _build(ctx, out_root, experiments, scale, papers, keep_earlier, done)
    finally:
        if fresh_ev is not None:
            shutil.rmtree(fresh_ev, ignore_errors=True)


def _commit_evidence(fresh: Path, committed: Path, failed: list[str], replace: bool = False) -> list[Path]:
    """Move the freshly exported evidence into ``committed`` (but not that of an experiment whose
    report failed to build) and rewrite its manifest; with ``replace`` the earlier evidence goes
    first. The caller removes the staging folder ``fresh``."""
    moved = []
    if replace and committed.is_dir():
        shutil.rmtree(committed)
    bad = set()
    for f in failed:  # "experiment NAME: ..." or "paper NAME: ...": their reports kept the earlier files
        kind, _, name = f.split(":")[0].partition(" ")
        bad |= {name} if kind == "experiment" else set(paper_experiments(name)) if kind == "paper" else set()
    for path in sorted(p for p in fresh.rglob("*") if p.is_file()):
        rel = path.relative_to(fresh)
        if rel.name.split(".")[0] in bad:
            continue
        target = committed / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        moved.append(target)
    if moved or committed.is_dir():
        moved.append(write_manifest(committed))
    return moved


@dataclass
class _Build:
    """What the stages of one build share: the context, the output root, the earlier build's index
    sections (kept where this build remakes nothing), this build's sections, the build stamp, and what
    has been written, failed, and which folders were made fresh."""

    ctx: ReportContext
    out_root: Path
    keep_earlier: bool
    old: IndexSections
    sec: IndexSections
    built: str
    written: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    fresh: set = field(default_factory=set)   # folders this build has written
    dirs: set = field(default_factory=set)

    @classmethod
    def start(cls, ctx: ReportContext, out_root: Path, scale: str | None, keep_earlier: bool) -> "_Build":
        old = (IndexSections.read(out_root) if keep_earlier else None) or IndexSections()
        prov = provenance()
        sec = IndexSections(
            generated=f"Generated {time.strftime('%Y-%m-%d %H:%M:%S')} on {prov['host']} ({prov['cpu']}, "
                      f"{prov['n_cpus']} CPUs), bench {prov['bench_version']} at commit {prov['git_commit']}"
                      + (f", requested scale {scale}" if scale else "") + ".",
            scale=scale,
            intro=[P.Para(("Each paper lists its tables and figures (Markdown; LaTeX, CSV, PNG and PDF beside them), "
                           "the experiments they read, and every cell that could not be filled, by reason "
                           "(full lists in each paper's ", P.Code("missing.md"), "). Every section says when and at "
                           "which commit it was built: a section whose runs are not stored in the results directory "
                           "of a later build is kept as it was."))])
        built = f"{time.strftime('%Y-%m-%d %H:%M:%S')} on {prov['host']} at commit {str(prov['git_commit'])[:12]}"
        return cls(ctx, out_root, keep_earlier, old, sec, built)


def _build(ctx: ReportContext, out_root: Path, experiments: list[str] | None, scale: str | None,
           papers: list[str] | None, keep_earlier: bool,
           tables_done: Callable[[list[str]], list[Path]] | None = None) -> list[Path]:
    """The build proper, from ``ctx``, as named stages: papers -> speed benchmarks -> experiment
    summaries -> (the evidence, ``tables_done(failures)``, which returns the files it wrote) -> claims
    and pages. Raises :class:`ReportBuildError` naming every failure once all stages ran."""
    if experiment_only(experiments, papers):
        return _experiments_only(ctx, out_root, experiments)
    b = _Build.start(ctx, out_root, scale, keep_earlier)
    _papers_stage(b, papers)
    if papers is None and experiments is None:
        _perf_stage(b)
    else:   # a --paper build leaves the speed benchmarks as they were
        b.sec.perf = b.old.perf
    _experiments_stage(b, experiments, papers)
    _clean_stale(b.written, {d for d in b.dirs if d.name == "perf"})
    if tables_done is not None:  # the evidence joins reports/ before the verdicts read its plans
        b.written += tables_done(b.failures)
    b.written.append(b.sec.write(out_root))   # the sections as data: what a later build keeps, and --verdicts-only
    _claims_stage(b)
    if b.failures:
        raise ReportBuildError(b.failures, b.written)
    return b.written


def _papers_stage(b: _Build, papers: list[str] | None) -> None:
    """Every paper's ``build(ctx, out)`` into its folder (or its earlier section kept: not selected, or
    nothing of it stored), its missing cells and facts beside its tables; one index section each."""
    ctx, out_root = b.ctx, b.out_root
    for paper in sorted(BUILDS):
        title = TITLES.get(paper, paper)
        out = out_root / paper
        if b.keep_earlier and paper in b.old.papers and out.exists():
            selected = papers is None or paper in papers
            try:
                nothing_stored = all(ctx.experiment(e).n_records == 0 for e in paper_experiments(paper))
            except Exception:  # an unreadable record: the build below reports it
                nothing_stored = False
            if not selected:
                b.sec.papers[paper] = b.old.papers[paper]
                continue
            if nothing_stored:
                b.sec.papers[paper] = _kept(b.old.papers[paper], b.old.generated)
                continue
        elif papers is not None and paper not in papers:
            continue
        tmp = _staging(out)
        try:
            n_rec = sum(ctx.experiment(e).n_records for e in paper_experiments(paper))
            result = BUILDS[paper](ctx, tmp)
            result.files += _write_missing(result, tmp)
            if result.facts:
                result.files.append(result.facts.write(tmp))
        except Exception as exc:
            _build_failed(f"paper {paper}", exc, tmp, out, b.failures)
            b.sec.papers[paper] = _failed_section(title, exc, b.old.papers.get(paper), b.old.generated)
            continue
        result.files = _commit(tmp, out, result.files)
        b.fresh.add(out)
        b.written += result.files
        b.sec.papers[paper] = _paper_section(b, paper, title, n_rec, result)


def _paper_section(b: _Build, paper: str, title: str, n_rec: int, result: PaperResult) -> list:
    index = [P.Item(f"built: {b.built}, from {n_rec} stored records", role="built"),
             P.Item("experiments read:" if result.experiments else "experiments read: none",
                    [_experiment_line(b.ctx, name) for name in result.experiments])]
    index.append(page_item(paper))
    index.append(_links("tables", result.files, b.out_root))
    index.append(_links("figures", result.files, b.out_root, (".png",)))
    index += [P.Item(n) for n in result.notes]
    if result.missing:
        index.append(P.Item((f"missing ({len(result.missing)} cells; ", P.link("full list", f"{paper}/missing.md"),
                             "):"), _missing_summary(result), role="missing"))
    else:
        index.append(P.Item("missing: nothing", role="missing"))
    return section(title, index)


def _perf_stage(b: _Build) -> None:
    """The speed benchmarks (results/perf, written by ``make bench-perf``), or their earlier section."""
    from .perf import perf_report

    perf_files, perf_items = perf_report(b.ctx.perf_runs(), b.out_root / "perf")
    if perf_files:
        b.dirs.add(b.out_root / "perf")
        b.written += perf_files
        b.sec.perf = section("perf", [P.Item(f"built: {b.built}", role="built"), *perf_items])
    elif b.keep_earlier and b.old.perf and (b.out_root / "perf" / "perf.md").exists():
        b.sec.perf = _kept(b.old.perf, b.old.generated)


def _experiments_stage(b: _Build, experiments: list[str] | None, papers: list[str] | None) -> None:
    """The generic summary of every stored (or named, or the named papers') experiment; the earlier
    sections of the others."""
    ctx, out_root = b.ctx, b.out_root
    names = selected_experiments(ctx.stored_experiments(), experiments, papers)
    sections = b.sec.experiments   # experiment -> its index section, listed by name
    for name in names:
        out = out_root / name
        # a folder shared with the paper of the same name starts from the paper's files (fresh or kept)
        tmp = _staging(out, keep=out in b.fresh or name in BUILDS)
        try:
            items, files = _experiment_section(ctx, name, tmp, out_root, b.built)
        except Exception as exc:
            _build_failed(f"experiment {name}", exc, tmp, out, b.failures)
            sections[name] = _failed_section(name, exc, b.old.experiments.get(name), b.old.generated)
            continue
        files = _commit(tmp, out, files)
        b.written += files
        items.insert(2, _links("files", files, out_root))   # after built and scale
        sections[name] = section(name, items)
    for name, block in b.old.experiments.items():  # summaries of experiments not stored here, or not selected
        if name not in names and (out_root / name).is_dir() and (out_root / name) not in b.dirs:
            sections[name] = block if _n_records(ctx, name) else _kept(block, b.old.generated)


def _claims_stage(b: _Build) -> None:
    """Verdicts, paper pages, index.md and the HTML view, from reports/ alone (facts, manifests, plans,
    index.json); a failure here keeps the tables and writes index.md without the verdict head."""
    try:
        from .paper_pages import write_verdict_stage

        b.written += write_verdict_stage(b.out_root, b.sec)
    except Exception as exc:  # the tables are written; a failing verdict stage must not lose them
        print(f"the verdict stage failed ({_where(exc)}):\n{traceback.format_exc()}", file=sys.stderr)
        b.failures.append(f"verdicts: {type(exc).__name__}: {exc} (at fault: {_where(exc)})")
        (b.out_root / "index.md").write_text(P.to_markdown([P.Heading(1, "bench reports"), *b.sec.blocks()]))
        b.written.append(b.out_root / "index.md")


def _experiments_only(ctx: ReportContext, out_root: Path, names: list[str]) -> list[Path]:
    """The summary folders of ``names`` alone (see :func:`experiment_only`)."""
    prov = provenance()
    built = f"{time.strftime('%Y-%m-%d %H:%M:%S')} on {prov['host']} at commit {str(prov['git_commit'])[:12]}"
    written: list[Path] = []
    failures: list[str] = []
    for name in names:
        out = out_root / name
        tmp = _staging(out, keep=name in BUILDS)
        try:
            _items, files = _experiment_section(ctx, name, tmp, out_root, built, evidence_shipped=False)
        except Exception as exc:
            _build_failed(f"experiment {name}", exc, tmp, out, failures)
            continue
        written += _commit(tmp, out, files)
    if failures:
        raise ReportBuildError(failures, written)
    return written


def _experiment_section(ctx: ReportContext, name: str, out: Path, out_root: Path, built: str,
                        evidence_shipped: bool = True):
    """The generic summary of one stored experiment written into ``out``: (the bullet items of its
    index section, files). The items leave out the "files:" one (the caller adds it, third, with the
    files' final places)."""
    view = ctx.experiment(name)
    df = view.all_records
    # a folder shared with a paper module (ande_sr) gets one rank analysis, the paper's (ranks_*: over the values
    # its tables compare); a second one here, over the same splits averaged in another order, broke ties apart
    files, notes = generic_report(name, df, view.plan, out, ranks=name not in BUILDS) if not df.empty else ([], [])
    counts = status_counts(df)
    n_ok, n_na, n_failed = counts["ok"], counts["not_applicable"], counts["failed"]
    hosts = ", ".join(sorted(df["host"].dropna().astype(str).unique())) if "host" in df else "-"
    plan = view.plan
    index = [P.Item(f"built: {built}", role="built"),
             P.Item(f"scale: {plan.get('scale', 'ad hoc')}; protocol {plan.get('protocol', '-')}; "
                    f"{n_ok} stored records ({n_failed} failed{_na(n_na)}); run on {hosts}")]
    if ctx.evidence is not None and ctx.evidence.has(name):
        index.append(P.Item(("evidence: ", P.link(f"{name}.records.parquet", f"{EVIDENCE}/{name}.records.parquet"),
                             f" ({len(df)} splits; checksums in ",
                             P.link(f"{EVIDENCE}/MANIFEST.json", f"{EVIDENCE}/MANIFEST.json"), ")")))
    index += [P.Item(n) for n in notes]
    missing = plan.get("missing_datasets") or {}
    if missing:
        index.append(P.Item("missing datasets: " + "; ".join(f"{k} ({v})" for k, v in missing.items())))
    ma = plan.get("missing_algos") or {}
    if ma:
        index.append(P.Item(f"skipped, not implemented yet (no conf/algo/<name>.yaml): {', '.join(ma)}"))
    for label, n, keep in (("failed", n_failed, lambda st: ~st.isin(["ok", "not_applicable"])),
                           ("not applicable", n_na, lambda st: st == "not_applicable")):
        if not n:
            continue
        groups = list(df[keep(df["status"])].groupby(["algo", "dataset"]))
        for (a, d), g in groups[:MAX_LISTED]:
            index.append(P.Item(f"{label}: {a} on {d}, {len(g)} splits: {shorten(str(g['error'].iloc[0]), ERROR_WIDTH)}"))
        if len(groups) > MAX_LISTED:
            index.append(P.Item(f"{label}: {len(groups) - MAX_LISTED} more (algorithm, dataset) pairs "
                                f"(summary_long.csv has them all)"))
    shipped = evidence_shipped and ctx.evidence is not None and ctx.evidence.has(name)
    files.append(write_experiment_manifest(name, df, plan, out, files, shipped))
    return index, files


#: the build manifest of each experiment's summary folder
MANIFEST_NAME = "manifest.json"


def write_experiment_manifest(name: str, df: pd.DataFrame, plan: dict, out: Path, files: list[Path],
                              evidence: bool) -> Path:
    """``out/manifest.json``: what an experiment's summary was built from, as data (scale, protocol,
    records by status, the commits and machines the records were made at, the evidence file when
    ``evidence`` (the records ship in reports/evidence), the files written, the datasets and
    algorithms missing from the run). Only facts of the records and
    the plan, never of the build, so two builds of the same evidence write the same bytes."""
    counts = status_counts(df)

    def values(col: str) -> list[str]:
        return sorted(df[col].dropna().astype(str).unique().tolist()) if col in df else []

    manifest = {
        "experiment": name, "scale": plan.get("scale"), "protocol": plan.get("protocol"),
        "records": {"total": int(len(df)), "ok": int(counts["ok"]), "failed": int(counts["failed"]),
                    "not_applicable": int(counts["not_applicable"])},
        "record_commits": values("git_commit"), "hosts": values("host"),
        "evidence": f"{EVIDENCE}/{name}.records.parquet" if evidence else None,
        "files": sorted(Path(f).relative_to(out).as_posix() for f in files if Path(f).is_relative_to(out)),
        "missing": {"datasets": plan.get("missing_datasets") or {}, "algorithms": plan.get("missing_algos") or {}},
    }
    path = out / MANIFEST_NAME
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True, default=str) + "\n")
    return path


def verify_evidence(folder: str | Path) -> None:
    """Check every file the evidence folder's ``MANIFEST.json`` lists against its SHA-256, before
    anything is built from it: :class:`bench.report.evidence.EvidenceError` naming the first file
    that is missing or changed (or the manifest, when it is missing or not JSON)."""
    from .evidence import MANIFEST, EvidenceError

    folder = Path(folder)
    ev = Evidence(folder)
    manifest = ev._manifest(folder) if folder.is_dir() else None
    if manifest is None:
        raise EvidenceError(f"{folder}/{MANIFEST} is missing: the evidence in {folder} cannot be checked "
                            f"(restore it with git checkout {folder})")
    for rel in sorted(manifest.get("files") or {}):
        ev._checked(folder, rel)


def rebuild_from_evidence(src: str | Path = "reports", out: str | Path | None = None,
                          scale: str | None = None) -> tuple[Path, list[str], list[str]]:
    """Rebuild the reports of ``src`` from its shipped evidence alone (``src/evidence``), into
    ``out`` (default: in place). ``out`` starts as a copy of ``src`` without the folders the
    evidence remakes (papers with an experiment in the evidence, experiments in it, ``perf`` when
    its runs are), so what no evidence backs is kept exactly as committed and everything else is
    written anew. Returns (out, the experiments rebuilt, the report folders kept without evidence)."""
    src = Path(src)
    out = Path(out) if out is not None else src
    verify_evidence(src / EVIDENCE)  # a changed file is named now, not after the rebuild
    ev = Evidence(src / EVIDENCE)
    have = set(ev.experiments())
    remade = set(have) | {p for p in TITLES if any(e in have for e in paper_experiments(p))}
    if ev.perf_runs():
        remade.add("perf")
    if out.resolve() != src.resolve():
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(src, out, ignore=lambda d, names: [n for n in names if Path(d) == src and n in remade])
    kept = sorted(p.name for p in out.iterdir() if p.is_dir() and p.name not in remade
                  and p.name not in (EVIDENCE, "plans", "data") and not p.name.startswith((".", "scale-")))
    build_reports(str(out / ".no-results"), str(out), scale=scale or committed_scale(src), from_evidence=True)
    return out, sorted(have), kept
