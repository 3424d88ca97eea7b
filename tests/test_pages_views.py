"""The HTML view links HTML: a table or notes file a page links to gets its own HTML view, and the
link opens it; a smoke build's index opens with a banner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from bench.report import contents
from bench.report import page as P
from bench.report.html import broken_links, write_site
from bench.report.pages import paper_experiments, smoke_banner
from bench.report.tables import write_table
from bench.report.verdicts import PAPERS


def _site(root: Path) -> Path:
    paper = root / "p"
    df = pd.DataFrame({"dataset": ["iris", "wine"], "error": ["**0.05**", "0.02"], "note": ["`a`", ""]})
    write_table(df, paper / "wide", caption="Errors per dataset", index=False)
    (paper / "p_notes.md").write_text("# p notes\n\nScale full.\n\n## Findings\n\n- one `x`\n- two\n")
    contents.record(paper, "notes", "p_notes", [paper / "p_notes.md"])
    (paper / "other.md").write_text("not a table\n")                       # neither table nor notes
    page = P.Page([P.Heading(1, "Paper p"),
                   P.Para(("see ", P.link("the errors", "wide.md"), ", ", P.link("the notes", "p_notes.md"),
                           " and ", P.link("a file", "other.md"), " and ", P.link("csv", "wide.csv")))])
    (paper / "README.md").write_text(P.to_markdown(page))
    write_site(root, {paper / "README.md": page})
    return paper


def test_linked_tables_and_notes_get_an_html_view_and_the_links_open_it(tmp_path):
    paper = _site(tmp_path)
    html = (paper / "index.html").read_text()
    hrefs = re.findall(r'href="([^"]+)"', html)
    assert "wide.html" in hrefs and "p_notes.html" in hrefs and "wide.csv" in hrefs
    assert "wide.md" not in hrefs and "p_notes.md" not in hrefs
    assert "other.md" in hrefs and not (paper / "other.html").exists()  # no view for a file of unknown kind
    view = (paper / "wide.html").read_text()
    # the table's cells as the Markdown shows them (bold kept), its caption, its files, the way back
    assert "<td>iris</td>" in view and "<strong>0.05</strong>" in view and "<code>a</code>" in view
    assert "Errors per dataset" in view
    assert 'href="wide.csv"' in view and 'href="wide.tex"' in view and 'href="index.html"' in view
    notes = (paper / "p_notes.html").read_text()
    assert re.search(r"<h1[^>]*>p notes</h1>", notes) and re.search(r"<h2[^>]*>Findings</h2>", notes)
    assert "<li>one <code>x</code></li>" in notes
    assert broken_links(tmp_path) == []


def test_the_index_of_a_smoke_build_says_so(tmp_path):
    paper = PAPERS[0]
    exp = paper_experiments(paper)[0]
    (tmp_path / exp).mkdir()
    (tmp_path / exp / "manifest.json").write_text(json.dumps({"scale": "full"}))
    assert smoke_banner(tmp_path) == []
    (tmp_path / exp / "manifest.json").write_text(json.dumps({"scale": "smoke"}))
    (banner,) = smoke_banner(tmp_path)
    text = P.plain(banner.content)
    assert text.startswith("Smoke build, not the papers' protocol.") and exp in text
