"""Issue 29: the pages are rendered from data (facts, manifests, index.json, each folder's contents.json);
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
from bench.report.pages import paper_blocks, write_verdict_stage
from bench.report.tables import write_table
from bench.report.verdicts import PAPERS

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


def test_the_recorded_index_sections_become_blocks_that_lose_nothing():
    """index.json's provenance lines, as blocks (for the HTML view), render back to the same Markdown."""
    from bench.report.pages import complete_papers
    from bench.report.sections import IndexSections, blocks_of_lines

    sec = IndexSections(generated="Generated g.", intro=["Intro with `code`.", ""], papers={"eskdb": [
        "### ESKDB", "", "- built: y", "- experiments read:", "  - experiment `eskdb_main`: scale full",
        "  - experiment `eskdb_ablation`: scale full", "- **the report module failed**: E: x",
        "- tables: [t](eskdb/t.md), [u](eskdb/u.md)", ""]})
    lines = sec.lines()
    blocks = blocks_of_lines(lines)
    assert P.to_markdown(blocks) == "\n".join(lines).rstrip("\n") + "\n"
    bullets = [b for b in blocks if isinstance(b, P.Bullets)][0]
    assert [len(it.children) for it in bullets.items] == [0, 2, 0, 0]
    assert P.Link((P.Text("t"),), "eskdb/t.md") in bullets.items[3].content
    if (REPORTS / "index.json").exists():   # and the committed sections
        lines = complete_papers(IndexSections.read(REPORTS), REPORTS).lines()
        assert P.to_markdown(blocks_of_lines(lines)) == "\n".join(lines).rstrip("\n") + "\n"
