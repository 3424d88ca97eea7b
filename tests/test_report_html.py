"""The static HTML view of reports/ (issue 19): every link and image resolves, and a real headless
browser (Debian's chromium) loads reports/index.html, finds the verdict table, and loads every image."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.report import verdicts as V
from bench.report.html import broken_links, site_pages, write_site
from bench.report.pages import write_verdict_stage

REPO = Path(__file__).resolve().parents[1]
REPORTS = REPO / "reports"


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The verdict stage run on a copy of the committed reports/ (PDF and LaTeX left out)."""
    if not (REPORTS / "index.md").exists():
        pytest.skip("no committed reports/ in this checkout")
    dst = tmp_path_factory.mktemp("site") / "reports"
    shutil.copytree(REPORTS, dst, ignore=shutil.ignore_patterns("*.pdf", "*.tex", ".*"))
    for h in dst.rglob("*.html"):  # only what the stage writes now
        h.unlink()
    write_verdict_stage(dst)
    return dst


def test_every_relative_link_and_image_resolves(site):
    pages = list(site.rglob("*.html"))
    assert site / "index.html" in pages
    for paper in V.PAPERS:
        assert (site / paper / "index.html").exists()
    assert broken_links(site) == []
    # and there is something to check: the paper pages show figures inline
    imgs = re.findall(r'<img src="([^"]+)"', (site / "mctree" / "index.html").read_text())
    assert imgs and all(not s.startswith(("/", "http")) for s in imgs)


def test_the_checker_finds_a_broken_link_and_image(tmp_path):
    (tmp_path / "index.md").write_text("# t\n\n[gone](missing.md) ![fig](nofig.png) [ok](index.md) [web](https://x.org)\n")
    write_site(tmp_path)
    bad = broken_links(tmp_path)
    assert any("missing.md" in b for b in bad) and any("nofig.png" in b for b in bad)
    urls = [b.split(": ", 1)[1] for b in bad]
    assert urls == ["href=missing.md", "src=nofig.png"]


def test_markdown_conversion():
    md = Path(__file__)  # any existing file as the page's location
    from bench.report.html import _Converter

    conv = _Converter(md.resolve(), {})
    title, body = conv.convert("# Title *x*\n\n| a | verdict |\n|---|---|\n| 1 \\| 2 | not reproduced |\n\n"
                               "- item `a<b`\n  - sub [l](x.md)\n\n![cap](f.png)\n\ntext **bold** <tag>\n")
    assert title == "Title x"
    assert '<td>1 | 2</td><td class="v-not">not reproduced</td>' in body
    assert "<code>a&lt;b</code>" in body and '<a href="x.md">l</a>' in body
    assert body.count("<ul>") == 2 and '<figure><img src="f.png" alt="cap"></figure>' in body
    assert "<strong>bold</strong> &lt;tag&gt;" in body


def test_links_to_converted_pages_point_at_their_html(site):
    text = (site / "index.html").read_text()
    for paper in V.PAPERS:
        assert f'href="{paper}/index.html"' in text
    assert f'href="verdicts.html"' in text
    assert set(site_pages(site).values()) >= {(site / "index.html").resolve()}


def test_index_html_in_headless_chromium(site, tmp_path):
    exe = _chromium()
    if exe is None:
        pytest.skip("no chromium binary (apt-get install -y chromium)")
    index = site / "index.html"
    # a twin of index.html (beside it, so relative paths are the same) that counts broken images on load
    probe = site / "_probe.html"
    probe.write_text(index.read_text().replace(
        "</body>", "<script>window.addEventListener('load',()=>{const b=[...document.images].filter("
                   "i=>!i.complete||i.naturalWidth===0).length;document.body.setAttribute('data-broken',b);"
                   "document.body.setAttribute('data-images',document.images.length);});</script></body>"))
    pages = [probe] + [site / p / "index.html" for p in ("mctree", "massbayes")]
    for page in pages:
        target = page
        if page is not probe:
            target = page.with_name("_probe.html")
            target.write_text(page.read_text().replace(
                "</body>", "<script>window.addEventListener('load',()=>{const b=[...document.images].filter("
                           "i=>!i.complete||i.naturalWidth===0).length;document.body.setAttribute('data-broken',b);"
                           "document.body.setAttribute('data-images',document.images.length);});</script></body>"))
        out = subprocess.run([exe, "--headless", "--disable-gpu", "--no-sandbox", "--allow-file-access-from-files",
                              "--virtual-time-budget=10000", "--dump-dom", target.as_uri()],
                             capture_output=True, text=True, timeout=180)
        dom = out.stdout
        assert "<table" in dom, out.stderr[-2000:]
        m = re.search(r'data-broken="(\d+)"', dom)
        assert m, "the load handler did not run"
        assert m.group(1) == "0", f"{target}: {m.group(1)} images failed to load"
        if page is probe:
            # the verdict table comes first and has a row per paper
            first_table = dom[dom.index("<table"):dom.index("</table>")]
            assert "not checkable" in first_table and "reproduced" in first_table
            for paper in V.PAPERS:
                assert f'href="{paper}/index.html"' in first_table
            assert dom.index("<table") < dom.index("Provenance")
        else:
            assert int(re.search(r'data-images="(\d+)"', dom).group(1)) > 0
