"""The HTML view links HTML: a table has its own HTML view beside its Markdown, and a page's link
to the table opens it; a smoke build's index opens with a banner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from bench.report import page as P
from bench.report.html import broken_links, notes_page, page_html, write_site
from bench.report.paper_pages import paper_experiments, smoke_banner
from bench.report.tables import MAX_MD_COLUMNS, write_table
from bench.papers import PAPERS


def _site(root: Path) -> Path:
    paper = root / "p"
    df = pd.DataFrame({"dataset": ["iris", "wine"], "error": ["**0.05**", "0.02"], "note": ["x", ""]})
    write_table(df, paper / "small", caption="Errors per dataset", index=False)
    wide = pd.DataFrame({f"c{i}": [i, i + 1] for i in range(MAX_MD_COLUMNS + 3)}).set_index("c0")
    write_table(wide, paper / "wide", caption="A wide one")
    (paper / "other.md").write_text("not a table\n")                       # no view beside it
    page = P.Page([P.Heading(1, "Paper p"),
                   P.Para(("see ", P.link("the errors", "small.md"), ", ", P.link("the wide one", "wide.md#x"),
                           " and ", P.link("a file", "other.md"), " and ", P.link("csv", "small.csv")))])
    (paper / "README.md").write_text(P.to_markdown(page))
    write_site(root, {paper / "README.md": page})
    return paper


def test_a_table_has_an_html_view_and_the_pages_link_it(tmp_path):
    paper = _site(tmp_path)
    html = (paper / "index.html").read_text()
    hrefs = re.findall(r'href="([^"]+)"', html)
    assert "small.html" in hrefs and "wide.html#x" in hrefs and "small.csv" in hrefs
    assert "small.md" not in hrefs and "wide.md#x" not in hrefs
    assert "other.md" in hrefs and not (paper / "other.html").exists()  # no view: the link stays as it was
    view = (paper / "small.html").read_text()
    # the cells as the Markdown shows them (bold kept), the caption, the table's other files
    assert "<td>iris</td>" in view and "<strong>0.05</strong>" in view and "Errors per dataset" in view
    assert 'href="small.csv"' in view and 'href="small.tex"' in view
    # a wide table in the same parts as its Markdown, each repeating the key column
    md_parts = [ln for ln in (paper / "wide.md").read_text().splitlines() if ln.startswith("Part ")]
    wide = (paper / "wide.html").read_text()
    assert len(md_parts) == 2 and all(part in wide for part in md_parts)
    assert wide.count("<table class=\"view\">") == 2 and wide.count("<th>c0</th>") == 2
    assert broken_links(tmp_path) == []


def test_the_index_of_a_smoke_build_says_so(tmp_path):
    paper = next(iter(PAPERS))
    exp = paper_experiments(paper)[0]
    (tmp_path / exp).mkdir()
    (tmp_path / exp / "manifest.json").write_text(json.dumps({"scale": "full"}))
    assert smoke_banner(tmp_path) == []
    (tmp_path / exp / "manifest.json").write_text(json.dumps({"scale": "smoke"}))
    (banner,) = smoke_banner(tmp_path)
    text = P.plain(banner.content)
    assert text.startswith("Smoke build, not the papers' protocol.") and exp in text


def test_notes_have_an_html_view_with_their_headings_and_bullets(tmp_path):
    lines = ["# mctree_k", "", "Scale full, protocol `cv4`.", "", "## Findings", "", "- one **bold**", "- two", "",
             "closing words"]
    md = tmp_path / "n_notes.md"
    md.write_text("\n".join(lines) + "\n")
    md.with_suffix(".html").write_text(page_html(notes_page(lines), md))
    html = md.with_suffix(".html").read_text()
    assert re.search(r"<h1[^>]*>mctree_k</h1>", html) and re.search(r"<h2[^>]*>Findings</h2>", html)
    assert "<code>cv4</code>" in html and "<li>one <strong>bold</strong></li>" in html and "<li>two</li>" in html
    assert "<p>closing words</p>" in html
