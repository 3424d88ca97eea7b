"""the pages are rendered from data (facts, manifests, index.json, each folder's contents.json);
Markdown, TeX and HTML are outputs only. Reading any Markdown file while the pages are made fails here."""

from __future__ import annotations

import builtins
import io
import pathlib
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.report import contents
from bench.report import page as P
from bench.report.figures import Caption, save
from bench.report.paper_pages import paper_blocks, write_verdict_stage
from bench.report.tables import write_table
from bench.papers import PAPERS

REPO = Path(__file__).resolve().parents[1]
REPORTS = REPO / "reports"


class MarkdownRead(AssertionError):
    pass


def _no_markdown_reads(monkeypatch) -> list[str]:
    """Make every read of a ``.md`` file raise (writes, and whole files copied or compared by shutil or
    bench.report.staging, stay allowed); return the list of attempts."""
    attempts: list[str] = []

    def moved_whole() -> bool:
        """Whether the file is copied or compared whole (shutil; the staged copy of reports/ and its
        publishing, bench.report.staging): moved, not read to compute anything."""
        f = sys._getframe(2)
        for _ in range(4):
            if f is None:
                return False
            if f.f_globals.get("__name__") in ("shutil", "bench.report.staging"):
                return True
            f = f.f_back
        return False

    def reading(file, mode) -> bool:
        name = getattr(file, "name", None) if not isinstance(file, (str, bytes, pathlib.PurePath)) else file
        return isinstance(name, (str, pathlib.PurePath)) and str(name).endswith(".md") and \
            not any(c in mode for c in "wax")

    def guard(real):
        def opener(file, mode="r", *args, **kwargs):
            if reading(file, mode) and not moved_whole():
                attempts.append(str(file))
                raise MarkdownRead(f"read of a Markdown file: {file}")
            return real(file, mode, *args, **kwargs)
        return opener

    monkeypatch.setattr(builtins, "open", guard(builtins.open))
    monkeypatch.setattr(io, "open", guard(io.open))
    real_open = pathlib.Path.open

    def path_open(self, mode="r", *args, **kwargs):
        if reading(self, mode) and not moved_whole():
            attempts.append(str(self))
            raise MarkdownRead(f"read of a Markdown file: {self}")
        return real_open(self, mode, *args, **kwargs)

    def read_text(self, encoding=None, errors=None):
        with path_open(self, "r", encoding=encoding, errors=errors) as fh:
            return fh.read()

    def read_bytes(self):
        with path_open(self, "rb") as fh:
            return fh.read()

    monkeypatch.setattr(pathlib.Path, "open", path_open)
    monkeypatch.setattr(pathlib.Path, "read_text", read_text)
    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
    return attempts


def test_the_guard_catches_a_markdown_read(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_text("x\n")
    _no_markdown_reads(monkeypatch)
    for read in (lambda: (tmp_path / "a.md").read_text(), lambda: open(tmp_path / "a.md").read(),
                 lambda: io.open(str(tmp_path / "a.md")).read()):
        with pytest.raises(MarkdownRead):
            read()
    (tmp_path / "b.md").write_text("written\n")   # writing stays allowed
    (tmp_path / "c.txt").write_text("y")
    assert (tmp_path / "c.txt").read_text() == "y"


@pytest.mark.skipif(not (REPORTS / "index.json").exists(), reason="no committed reports/ in this checkout")
def test_the_verdict_stage_reads_no_markdown_and_remakes_the_committed_pages(tmp_path, monkeypatch):
    dst = tmp_path / "reports"
    shutil.copytree(REPORTS, dst, ignore=shutil.ignore_patterns("*.pdf", "*.tex", ".*"))
    pages = ["index.md", "verdicts.md"] + [f"{paper}/README.md" for paper in PAPERS] + \
        [f"{paper}/verdicts.md" for paper in PAPERS]
    committed = {p: (REPORTS / p).read_bytes() for p in pages}
    for p in pages:   # the stage cannot lean on them
        (dst / p).unlink()
    attempts = _no_markdown_reads(monkeypatch)
    written = write_verdict_stage(dst)
    monkeypatch.undo()
    assert attempts == []
    assert (dst / "index.html").exists() and any(p.name == "index.html" for p in written)
    for p in pages:
        assert (dst / p).read_bytes() == committed[p], f"{p} differs from the committed page"


def test_a_folder_lists_what_its_writers_recorded_not_what_lies_in_it(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = tmp_path / "massbayes"
    write_table(pd.DataFrame({"a": [1]}), d / "table9_x", caption="Table 9: the x.\n\nMore words.", index=False)
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    save(fig, d / "fig9_x", Caption("x against y", data="experiment e", protocol="cv10", scale="smoke", records=4))
    (d / "stray.md").write_text("A stray caption\n\n| a |\n|---|\n")   # not recorded by a writer: not listed
    items = {(it.kind, it.stem): it for it in contents.read(d)}
    assert set(items) == {("table", "table9_x"), ("figure", "fig9_x")}
    assert items["table", "table9_x"].files == ("table9_x.csv", "table9_x.md", "table9_x.tex")
    assert items["figure", "fig9_x"].caption["records"] == 4
    _no_markdown_reads(monkeypatch)
    md = P.to_markdown(paper_blocks(tmp_path, "massbayes", []))
    assert "- [table9_x](table9_x.md): Table 9: the x.\n" in md and "stray" not in md
    assert ("![fig9_x](fig9_x.png)\n\n***fig9_x**: x against y - data: experiment e - protocol: cv10 - scale: smoke "
            "- records: 4 stored records (splits)*") in md


def test_a_folder_with_tables_but_no_contents_is_an_error_not_a_silent_gap(tmp_path):
    d = tmp_path / "massbayes"
    d.mkdir()
    (d / "table3_accuracy.md").write_text("| a |\n|---|\n")
    with pytest.raises(ValueError, match="no contents.json"):
        paper_blocks(tmp_path, "massbayes", [])
    (d / "table3_accuracy.md").unlink()
    (d / "README.md").write_text("# an old page\n")     # the page itself is no content
    assert "Tables and figures" not in P.to_markdown(paper_blocks(tmp_path, "massbayes", []))


def test_every_block_survives_its_json_form():
    """page.to_json / from_json: each kind of block and inline comes back equal and renders the same."""
    import json

    blocks = [P.Heading(2, ("A ", P.Code("x"), " heading")), P.Para(("text, ", P.strong("bold ", P.Code("c")), ", ",
                                                                      P.em("it"), ", ", P.link(("a ", P.Code("l")), "a/b.md"))),
              P.Bullets([P.Item("one", [P.Item(("two ", P.link("t", "t.md")), [P.Item("three")])]), P.Item("four")]),
              P.Table(["a", "b"], [[("1 ", P.Code("x")), "2"]], kind="verdicts", markdown="| a | b |\n"),
              P.Figure("f.png", "f", (P.strong("f"), ": caption"))]
    back = [P.from_json(json.loads(json.dumps(P.to_json(b)))) for b in blocks]
    assert back == blocks
    assert P.to_markdown(back) == P.to_markdown(blocks)
    for bad in ({"para": ["x", {"bold": ["y"]}]}, {"heading": "2", "content": []}, "- a Markdown line", {"bullets": [["x"]]}):
        with pytest.raises(ValueError, match="not a|inlines must be"):
            P.from_json(bad)


def test_the_index_sections_are_blocks_stored_as_data(tmp_path):
    """index.json holds the sections as page blocks (no Markdown to parse back): they come back equal and
    render the provenance of index.md; a file with the earlier Markdown lines is refused with the fix."""
    import json

    from bench.report.paper_pages import complete_papers
    from bench.report.sections import IndexSections, section

    sec = IndexSections(generated="Generated g.", intro=[P.Para(("Intro with ", P.Code("code"), "."))], papers={"eskdb": section(
        "ESKDB", [P.Item("built: y"), P.Item("experiments read:", [P.Item(("experiment ", P.Code("eskdb_main"), ": scale full")),
                                                                   P.Item(("experiment ", P.Code("eskdb_ablation"), ": scale full"))]),
                  P.Item((P.strong("the report module failed"), ": E: x")),
                  P.Item(("tables: ", P.link("t", "eskdb/t.md"), ", ", P.link("u", "eskdb/u.md")))])})
    sec.write(tmp_path)
    text = (tmp_path / "index.json").read_text()
    assert "](" not in text and "`" not in text and "**" not in text and '"- ' not in text and '"### ' not in text
    back = IndexSections.read(tmp_path)
    assert back == sec
    assert P.to_markdown(back.blocks()) == (
        "Generated g.\n\nIntro with `code`.\n\n## Papers\n\n### ESKDB\n\n- built: y\n- experiments read:\n"
        "  - experiment `eskdb_main`: scale full\n  - experiment `eskdb_ablation`: scale full\n"
        "- **the report module failed**: E: x\n- tables: [t](eskdb/t.md), [u](eskdb/u.md)\n\n## Stored experiments\n")
    doc = json.loads(text)
    doc["papers"]["eskdb"] = ["### ESKDB", "", "- built: y", ""]   # the form before the sections were blocks
    (tmp_path / "index.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="recorded as Markdown lines.*remove"):
        IndexSections.read(tmp_path)
    if (REPORTS / "index.json").exists():   # the committed sections: data that writes back to the same file
        committed = IndexSections.read(REPORTS)
        assert committed.to_json() == (REPORTS / "index.json").read_text()
        md = P.to_markdown(complete_papers(committed, REPORTS).blocks())
        assert "\n" + md in (REPORTS / "index.md").read_text()

def test_index_items_are_found_by_their_role_not_their_text():
    """A later build finds an index item by its role (page.Item.role, kept in index.json), never by its
    words: the page link goes before the item whose role is "tables" whatever it says, a kept section
    gets one "built" item and one "kept" note however often it is kept."""
    import json

    from bench.report.build import _kept
    from bench.report.paper_pages import complete_papers
    from bench.report.sections import IndexSections, has_role, parts, section

    items = [P.Item("made at noon", role="built"), P.Item("some words"), P.Item("the tables here", role="tables"),
             P.Item("missing: nothing", role="missing")]
    sec = IndexSections(papers={"eskdb": section("ESKDB", items)})
    back = P.from_json(json.loads(json.dumps(P.to_json(P.Bullets(items)))))
    assert [it.role for it in back.items] == ["built", "", "tables", "missing"]
    _, got = parts(complete_papers(sec).papers["eskdb"])
    assert [it.role for it in got] == ["built", "", "page", "tables", "missing"]
    once = _kept(section("ESKDB", items), "Generated then.")
    twice = _kept(once, "Generated later.", "a second reason")
    _, got = parts(twice)
    assert [it.role for it in got].count("built") == 1 and [it.role for it in got].count("kept") == 1
    assert P.plain(got[-1].content).endswith("a second reason")
    _, fresh = parts(_kept(section("X", [P.Item("built: words, but no role")]), "Generated at 5."))
    assert has_role(fresh[0], "built") and P.plain(fresh[0].content) == "built: at 5"


def test_a_papers_italics_are_emphasis_not_stars():
    """Published claims write the paper's italics as *...*: the verdict table's claim cell holds them as
    Em, so the Markdown is as before and the HTML shows italics; a lone star or "a * b" stays text."""
    from bench.report.html import _Renderer

    q = P.quoted("the *Level* strategy and the *Gamma*(2,1) prior; 2 * 3 and a*")
    assert P.Em((P.Text("Level"),)) in q and P.Em((P.Text("Gamma"),)) in q
    assert P.md_inlines(q) == "the *Level* strategy and the *Gamma*(2,1) prior; 2 * 3 and a*"
    assert P.quoted("no italics") == (P.Text("no italics"),)
    html = _Renderer(Path("x.md"), {}).inline(q)
    assert "<em>Level</em>" in html and "*Level*" not in html and "2 * 3" in html


def test_verdict_bar_labels_never_overlap():
    """The key figure's verdict bar names a segment's verdict only when the words fit its width, else its
    count, else nothing (the bar's title lists every count)."""
    from bench.report.keyfig import CHAR_IN, LABEL_PAD_IN, _bar_label

    assert _bar_label(5, "reproduced", 3.0) == "5 reproduced"
    assert _bar_label(4, "not reproduced", 1.7) == "4 not reproduced"   # 16 characters: ~1.5 in with margins
    assert _bar_label(4, "not reproduced", 1.2) == "4"
    assert _bar_label(1, "partly reproduced", 0.4) == "1"
    assert _bar_label(1, "partly reproduced", 0.1) == ""
    for n, v, w in [(4, "not reproduced", 1.6), (12, "not checkable", 1.0)]:
        label = _bar_label(n, v, w)
        assert len(label) * CHAR_IN + LABEL_PAD_IN <= w
