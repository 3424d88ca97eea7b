"""The reader's view of reports/: one page per paper and the verdict head of ``reports/index.md``.

One interface for every paper: :func:`paper_blocks` builds the page ``reports/<paper>/README.md``
from the recorded contents (:mod:`bench.report.contents`) of the paper's folder ``reports/<paper>/``
and its experiment folders ``reports/<paper>_*/``, and from its verdicts; :func:`index_head` is the
part of ``reports/index.md`` above the build provenance: the verdict table (one row per paper) and,
per paper, the claims not reproduced with their one-line reasons. Both are blocks
(:mod:`bench.report.page`), written as Markdown and as HTML (:mod:`bench.report.html`); no page is
read back. :func:`write_verdict_stage` runs the whole stage from the committed report files alone
(no stored runs needed): verdicts, paper pages, index head and the static HTML view.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from ..papers import PAPERS
from . import contents, keyfig
from . import page as P
from . import verdicts as V

#: paper key -> title and short name: of the index sections and of each paper page (the papers' declarations)
TITLES = {k: p.title for k, p in PAPERS.items()}
SHORT = {k: p.short for k, p in PAPERS.items()}
PROVENANCE = "## Provenance"
#: characters of a table's caption shown beside its link on a paper page (longer ones are shortened)
CAPTION_WIDTH = 320


def folders(root: Path, paper: str) -> list[Path]:
    """The paper's folder and its experiment folders (``reports/<paper>_*``), those that exist."""
    out = [root / paper] if (root / paper).is_dir() else []
    exps = [p for p in root.glob(f"{paper}_*") if p.is_dir() and not p.name.startswith(".")]
    # the paper's tables first, then its figures, then the further experiments
    out += sorted(exps, key=lambda p: (0 if "table" in p.name or p.name.endswith("_main") else
                                       1 if "fig" in p.name else 2, p.name))
    return out


def caption(text: str) -> str:
    """A table's caption as a paper page shows it beside the table's link: the first paragraph of
    the caption its writer recorded (:func:`bench.report.tables.write_table`, in the folder's
    contents), whole up to :data:`CAPTION_WIDTH` characters, else shortened by :func:`shorten` (at a
    sentence end, else a clause end; never mid-word)."""
    first = str(text or "").split("\n\n", 1)[0].strip()
    if first.startswith("#"):
        return first.lstrip("# ").split("\n")[0]
    return shorten(first.replace("\n", " "), CAPTION_WIDTH) if first else ""


#: a number (maybe signed, with a decimal point, thousands commas or a percent sign): never the last
#: word before an ellipsis, since the unit or the noun it counts follows it
_NUMBER = re.compile(r"^[(\[]?[-+~<>=≈±x]*\d[\d.,]*%?$")
#: clause boundaries a shortened text may end at (the text is cut before them), outside parentheses
_CLAUSE = ("; ", ": ", ", ", " | ", " (", " - ", " – ")


def _depths(text: str) -> list[int]:
    """The parenthesis depth before each character of ``text``."""
    out, d = [], 0
    for ch in text:
        out.append(d)
        if ch in "([":
            d += 1
        elif ch in ")]" and d:
            d -= 1
    return out


def _balanced(text: str) -> bool:
    d = 0
    for ch in text:
        if ch in "([":
            d += 1
        elif ch in ")]":
            d -= 1
    return d <= 0


def shorten(text: str, limit: int) -> str:
    """``text`` whole when it fits in ``limit`` characters, else cut at the last sentence end before
    ``limit``, else at the last clause boundary (``;``, ``:``, ``,``, ``|``, before a parenthesis;
    outside parentheses) marked with an ellipsis, else at a word end outside parentheses. Never
    mid-word, and never after a number (its unit or noun follows it): the cut backs off to before it."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    depth = _depths(text)
    floor = limit // 3
    # a sentence ends at ". " before a capital (not "Eqs. 1-2", "e.g. the"), outside parentheses
    ends = [i for i in range(floor, min(limit, len(text) - 2)) if text[i] == "." and text[i + 1] == " "
            and depth[i] == 0 and (text[i + 2].isupper() or text[i + 2] in "'\"*[`")]
    if ends:
        return text[:ends[-1] + 1]
    clauses = [i for sep in _CLAUSE for i in range(floor, limit - len(sep) + 2)
               if text.startswith(sep, i) and depth[i] == 0]
    for i in sorted(clauses, reverse=True):
        body = text[:i].rstrip(",;:")
        if not _NUMBER.match(body.rsplit(" ", 1)[-1]):
            return body + " …"
    words = text[:limit + 1].split(" ")[:-1]   # whole words within the limit
    while len(words) > 1 and (_NUMBER.match(words[-1]) or not _balanced(" ".join(words))):
        words.pop()
    if not words or not words[0]:   # one word longer than the limit: kept whole
        first = text.split(" ", 1)[0]
        return first + (" …" if len(first) < len(text) else "")
    return " ".join(words).rstrip(",;:") + " …"


def figure_caption(item: "contents.Item") -> tuple:
    """A figure's caption (inlines) from its recorded caption (:meth:`bench.report.figures.Caption.fields`):
    its name in bold, what it plots, then data, protocol, scale, records and notes as its caption file
    lists them; a caption recorded as text is shown as it is; none: the figure's name."""
    cap = item.caption
    if isinstance(cap, dict) and "what" in cap:
        records = cap.get("records")
        rest = [f"- data: {cap.get('data') or 'not stated'}", f"- protocol: {cap.get('protocol') or 'not stated'}",
                f"- scale: {cap.get('scale') or 'not stated'}",
                "- records: " + ("not drawn from stored runs" if records is None
                                 else f"{records} stored records (splits)")]
        if cap.get("notes"):
            rest.append(f"- notes: {str(cap['notes']).strip()}")
        text = " ".join(f": {str(cap['what']).strip()} {' '.join(rest)}".split())
        return P.inlines(P.strong(item.stem), text)
    if isinstance(cap, dict) and cap.get("text"):
        return P.inlines(" ".join(str(cap["text"]).split()))
    return P.inlines(item.stem.replace("_", " "))


#: files of a folder that are pages or drawn by the verdict stage, not recorded contents
_PAGES = {"README.md", "verdicts.md", "index.md", keyfig.FILE}


def _contents(folder: Path) -> list:
    """The recorded contents of ``folder``; an error when it holds tables or figures but records none
    (written before contents were recorded: its page would silently leave them out)."""
    items = contents.read(folder)
    if not items and not (folder / contents.FILE).exists():
        strays = sorted(p.name for p in folder.iterdir() if p.suffix in (".md", ".png") and p.name not in _PAGES)
        if strays:
            raise ValueError(f"{folder} holds {len(strays)} tables or figures ({', '.join(strays[:3])}"
                             f"{' ...' if len(strays) > 3 else ''}) but no {contents.FILE}, the record of them "
                             "the pages list: rebuild it (python -m bench.report --paper <paper>, or --from-evidence)")
    return items


def paper_blocks(root: Path, paper: str, verdicts: list) -> P.Page:
    """The page of a paper: verdicts, then tables and figures folder by folder, from each folder's
    recorded contents (:mod:`bench.report.contents`)."""
    root = Path(root)
    vs = [v for v in verdicts if v.paper == paper]
    page = P.Page([P.Heading(1, TITLES.get(paper, paper)),
                   P.Para(P.join([P.link("All papers", "../index.md"), P.link("every verdict", "../verdicts.md"),
                                  P.link("rules", "../verdicts.md#rules")], " · ")),
                   *keyfig.page_blocks(root, paper), P.Heading(2, "Verdicts"),
                   P.Para(f"{len(vs)} claims: " + ", ".join(f"{n} {k}" for k, n in V.counts(vs).items()) + "."),
                   V.verdict_table(vs, link_prefix="../", root=root)])
    for f in folders(root, paper):
        rel = "" if f.name == paper else f"../{f.name}/"
        items = _contents(f)
        mds = sorted((it for it in items if it.kind in ("table", "notes")),
                     key=lambda it: (it.stem == "missing", it.stem))
        pngs = sorted((it for it in items if it.kind == "figure"), key=lambda it: it.stem + ".png")
        if not mds and not pngs:
            continue
        page.add(P.Heading(2, "Tables and figures" if f.name == paper else "Experiment " + f.name))
        desc = _description(f.name) if f.name != paper else ""
        if desc:
            page.add(P.Para(desc))
        notes = [it for it in mds if it.stem.endswith("_notes")]
        if notes:   # one per experiment in a paper folder holding several experiments' files (mctree)
            page.add(P.Para(P.inlines("Notes: ", P.join([P.link(f"{it.stem}.md", f"{rel}{it.stem}.md")
                                                         for it in notes], ", "))))
        generic = [it for it in mds if it.stem in GENERIC_SUMMARIES]
        own = [it for it in mds if it not in notes and it not in generic]
        if own or generic:
            page.add(P.Para("Tables:"))
            bullets = []
            for it in own:
                cap = caption(it.caption) if it.kind == "table" else ""
                bullets.append(P.Item(P.inlines(P.link(it.stem, f"{rel}{it.stem}.md"), f": {cap}" if cap else "")))
            if generic:
                bullets.append(generic_summaries_item({it.stem for it in generic}, rel))
            page.add(P.Bullets(bullets))
        for it in pngs:
            page.add(P.Figure(f"{rel}{it.stem}.png", it.stem, figure_caption(it)))
    return page


#: the summaries every experiment folder gets (:mod:`bench.report.build`), not the paper's own
#: tables: listed on a paper page as one line, by metric (stem -> link text; ranks and Wilcoxon
#: tests in brackets after their metric's table)
GENERIC_SUMMARIES = {"summary_error": "error", "summary_error_ranks": "ranks",
                     "summary_error_wilcoxon": "Wilcoxon", "summary_rmse": "RMSE",
                     "summary_rmse_ranks": "ranks", "summary_rmse_wilcoxon": "Wilcoxon",
                     "summary_train_time": "training CPU time"}


def generic_summaries_item(stems: set[str], rel: str) -> P.Item:
    """One bullet linking the generic summaries present (``stems``), grouped by metric."""
    def link(stem):
        return P.link(GENERIC_SUMMARIES[stem], f"{rel}{stem}.md")

    parts = []
    for head in ("summary_error", "summary_rmse", "summary_train_time"):
        tests = [link(s) for s in (f"{head}_ranks", f"{head}_wilcoxon") if s in stems]
        if head in stems or tests:
            main = link(head) if head in stems else GENERIC_SUMMARIES[head]
            parts.append(P.inlines(main, (" (", P.join(tests, ", "), ")") if tests else ""))
    return P.Item(P.inlines("summaries over the splits, every algorithm and dataset: ", P.join(parts, " · ")))


def _description(experiment: str) -> str:
    """The experiment's one-line description from conf/experiment/<name>.yaml ('' when none)."""
    try:
        from ..experiment_plan import experiment_config

        return " ".join(str(experiment_config(experiment).get("description") or "").split())
    except Exception:  # an experiment folder without a config (an older one): no description
        return ""


# ---------------------------------------------------------------- the index's Papers section
PAGE_LINE = "page (verdicts, tables, figures): "


def page_item(paper: str) -> P.Item:
    """The bullet of a paper's index section that links its page."""
    return P.Item((PAGE_LINE, P.link(f"{paper}/README.md", f"{paper}/README.md")), role="page")


def paper_experiments(paper: str) -> list[str]:
    """The experiments whose config names ``paper`` (conf/experiment/*.yaml)."""
    from ..experiment_plan import experiment_config, experiment_names

    return [n for n in experiment_names() if experiment_config(n).get("paper") == paper]


def _own_tables(root: Path | None, paper: str) -> bool:
    """Whether reports/<paper>/ holds tables or figures of its own (a paper module's), not only its page."""
    d = Path(root) / paper if root is not None else None
    return bool(d and d.is_dir() and contents.read(d))


def complete_papers(sections: "IndexSections", root: Path | None = None) -> "IndexSections":
    """``sections`` with a section for every paper, each with its page link: a paper the build left
    out gets a section saying whether an earlier build's files are there, and a kept section without
    a page item gets one (after the experiments it read)."""
    from .sections import has_role, parts, section

    for paper in PAPERS:
        block = sections.papers.get(paper)
        if block is None:
            if _own_tables(root, paper):   # a paper's folder that the build writing this index did not build
                note = P.Item("not rebuilt by the build that wrote this index: its tables and figures, from an "
                              "earlier build, are listed on its page")
            else:
                note = P.Item(f"not built yet: no build has written reports/{paper}/ "
                              f"(python -m bench.report --paper {paper})")
            sections.papers[paper] = section(TITLES[paper], [page_item(paper), note])
            continue
        title, items = parts(block)
        if any(has_role(it, "page") for it in items):
            continue
        at = next((k for k, it in enumerate(items) if has_role(it, ("tables", "figures", "missing"))), len(items))
        sections.papers[paper] = section(title, items[:at] + [page_item(paper)] + items[at:])
    return sections


# ---------------------------------------------------------------- index head
def _missing_cells(root: Path, paper: str) -> tuple:
    """(display of the missing cells (inlines), display of the filled cells, paper data sets absent here),
    from the build's list of what is missing (``missing.csv``; none written: nothing missing) and the
    paper's count of its published cells (:func:`bench.papers.published_cells`; a paper that declares
    none, ``cells=False``: "none printed", unless its build listed something missing)."""
    from ..papers import published_cells

    m = root / paper / "missing.csv"
    df = pd.read_csv(m, dtype=str, keep_default_na=False) if m.exists() else \
        pd.DataFrame(columns=["item", "dataset", "algorithm", "category", "reason"])
    total = published_cells(paper, df)
    if total is None and not m.exists():
        return "none printed (claims only)", "none printed (claims only)", set()
    absent = set(df.loc[df["category"].str.startswith("dataset"), "dataset"])
    # cell rows name a dataset; rows for a whole figure or table (no dataset) are not cells
    n_cells = int((df["dataset"] != "").sum())
    filled = f"{total - n_cells} of {total}" if total else "-"
    return (P.link(str(len(df)), f"{paper}/missing.md") if m.exists() else "0"), filled, absent


def _datasets_here(root: Path, paper: str, absent: set[str]) -> str:
    """The paper's data sets here, of those in its published data set table (``published.datasets``)."""
    from .. import published

    d = published.datasets(paper)
    names = set(d["dataset"])
    gone = (absent & names) | set(d.loc[d["ours"] == "", "dataset"])
    return f"{len(names) - len(gone)}/{len(names)}"


def _scales(paper: str, verdicts: list, root: Path) -> str:
    """The scale and protocol the paper's numbers come from, per experiment, grouped by (scale,
    protocol): from the build manifest of each of the paper's experiments (``reports/<exp>/manifest.json``),
    else from the verdicts."""
    import json

    found: dict[str, list[str]] = {}
    for e in paper_experiments(paper):
        path = Path(root) / e / "manifest.json"
        if path.exists():
            m = json.loads(path.read_text())
            found.setdefault(f"scale {m.get('scale') or 'ad hoc'}, protocol {m.get('protocol') or '-'}", []).append(e)
    if not found:
        return "; ".join(sorted({v.scale for v in verdicts if v.paper == paper and v.scale})) or "-"
    return "; ".join(f"{k} ({', '.join(sorted(set(v)))})" for k, v in found.items())


def smoke_banner(root: Path) -> list:
    """A paragraph for the top of the index when any paper experiment here was built at scale
    smoke (its ``manifest.json``): such numbers check the pipeline, not the papers' claims. [] else."""
    import json

    smoke = []
    for paper in PAPERS:
        for e in paper_experiments(paper):
            path = Path(root) / e / "manifest.json"
            if path.exists() and json.loads(path.read_text()).get("scale") == "smoke":
                smoke.append(e)
    if not smoke:
        return []
    return [P.Para((P.strong("Smoke build, not the papers' protocol."),
                    f" {len(smoke)} experiment{'s' if len(smoke) > 1 else ''} here "
                    f"({', '.join(sorted(smoke))}) {'were' if len(smoke) > 1 else 'was'} built at scale smoke: a few data sets and splits that check "
                    "the pipeline runs. Numbers at scale smoke, and the verdicts resting on them, do not test the "
                    "papers' claims; build at scale full (make paper-tables SCALE=full) for that."))]


def index_head(root: Path, verdicts: list) -> list:
    """The opening of ``reports/index.md`` as blocks: the verdict table, then the claims not reproduced."""
    root = Path(root)
    cols = ["paper", "reproduced", "partly", "not reproduced", "not checkable", "data sets here", "cells missing",
            "cells filled", "scale and protocol", "page"]
    rows = []
    tot = {k: 0 for k in V.VERDICTS}
    for paper in PAPERS:
        vs = [v for v in verdicts if v.paper == paper]
        c = V.counts(vs)
        for k in tot:
            tot[k] += c[k]
        cells, filled, absent = _missing_cells(root, paper)
        rows.append([P.link(SHORT[paper], f"{paper}/README.md"), str(c[V.REPRODUCED]), str(c[V.PARTLY]),
                     str(c[V.NOT_REPRODUCED]), str(c[V.NOT_CHECKABLE]), _datasets_here(root, paper, absent), cells,
                     filled, _scales(paper, verdicts, root).replace("|", "/"),
                     P.link(f"{SHORT[paper]} page", f"{paper}/README.md")])
    rows.append([f"all {len(verdicts)} claims", str(tot[V.REPRODUCED]), str(tot[V.PARTLY]), str(tot[V.NOT_REPRODUCED]),
                 str(tot[V.NOT_CHECKABLE]), "", "", "", "", P.link("every claim", "verdicts.md")])
    verdicts_md = P.link("verdicts.md", "verdicts.md")
    head = [P.Heading(1, "bench reports"), *smoke_banner(root), *keyfig.index_blocks(root), P.Table(cols, rows),
            P.Para(P.inlines(
                "One verdict per claim of the papers' running text (bench/published/claims.csv), by the rules at the "
                "top of ", verdicts_md, "; every claim with our number, the paper's, the test and the table "
                "it rests on: ", verdicts_md, " (", P.link("csv", "verdicts.csv"), "). Data sets here: the paper's "
                "data sets we have (of those in its data set table); cells missing: published cells we could not fill "
                "(each paper's missing.md says why); cells filled: of the published cells (MassBayes: the cells "
                "printed in its Tables 3 and 5; ECOC-NB: Table 1's data sets and the printed cells of Tables 2-4; "
                "ESKDB, A2DE: the (data set, algorithm) cells behind their tables and figures), those with our "
                "number. The same pages as HTML: ", P.link("index.html", "index.html"), ".")),
            P.Heading(2, "Claims not reproduced or partly reproduced")]
    for paper in PAPERS:
        bad = [v for v in verdicts if v.paper == paper and v.verdict in (V.NOT_REPRODUCED, V.PARTLY)]
        nc = [v for v in verdicts if v.paper == paper and v.verdict == V.NOT_CHECKABLE]
        head.append(P.Heading(3, SHORT[paper]))
        items = []
        if not bad:
            items.append(P.Item("none not reproduced" + (f" ({len(nc)} not checkable)" if nc else "")))
        for v in bad:
            tag = "" if v.verdict == V.NOT_REPRODUCED else " (partly)"
            ev = (" ", V.evidence_inline(v.evidence.split(";")[0], "", root)) if v.evidence else ""
            items.append(P.Item(P.inlines(f"{v.claim_id}{tag}: {v.reason}.".replace("..", "."), ev)))
        if nc:
            reasons: dict[str, list[str]] = {}
            for v in nc:
                reasons.setdefault(v.reason.split(":")[0], []).append(v.claim_id)
            items.append(P.Item("not checkable: " + "; ".join(f"{k} ({', '.join(ids)})" for k, ids in reasons.items())))
        head.append(P.Bullets(items))
    head.append(P.Heading(2, PROVENANCE.removeprefix("## ")))
    return head


def write_pages(root: Path, verdicts: list) -> dict[Path, P.Page]:
    """Every paper's page, ``reports/<paper>/README.md``; return them by file."""
    root = Path(root)
    out = {}
    for paper in PAPERS:
        d = root / paper
        d.mkdir(parents=True, exist_ok=True)
        page = paper_blocks(root, paper, verdicts)
        (d / "README.md").write_text(P.to_markdown(page) + "\n")
        out[d / "README.md"] = page
    return out


def write_verdict_stage(root: Path | str = "reports", sections: "IndexSections | None" = None) -> list[Path]:
    """Verdicts, paper pages, the verdict head of index.md and the HTML view, from reports/ alone.

    ``sections`` is the rest of index.md (the build's provenance and sections, :mod:`bench.report.sections`);
    by default those the last build recorded in ``reports/index.json`` (``--verdicts-only``). Every page
    is built once as blocks (:mod:`bench.report.page`) and written both as Markdown and as HTML."""
    from . import html
    from .sections import IndexSections

    root = Path(root)
    verdicts = V.evaluate_all(root)
    written = V.write(root, verdicts)
    written += keyfig.write_all(root, verdicts, SHORT)
    pages = write_pages(root, verdicts)
    written += list(pages)
    pages[root / "verdicts.md"] = V.verdicts_page(root, verdicts)
    idx = root / "index.md"
    if sections is None:
        sections = IndexSections.read(root)
    if sections is None:
        provenance = [P.Para("No build provenance yet (no reports/index.json: run python -m bench.report).")]
    else:
        provenance = complete_papers(sections, root).blocks()
    pages[idx] = P.Page(index_head(root, verdicts) + provenance)
    idx.write_text(P.to_markdown(pages[idx]))
    written.append(idx)
    written += html.write_site(root, pages)
    return written
