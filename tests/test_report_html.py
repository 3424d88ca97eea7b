"""The static HTML view of reports/: every link and image resolves, and a real headless
browser (Debian's chromium; skipped with the reason when there is none) loads the committed
reports/index.html, verdicts.html and every paper page (and the index the verdict stage writes now),
finds the verdict table, loads every image (naturalWidth > 0) and finds no broken local link."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.papers import PAPERS
from bench.report import page as P
from bench.report import verdicts as V
from bench.report.html import broken_links, site_pages, write_site
from bench.report.paper_pages import write_verdict_stage

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
    for paper in PAPERS:
        assert (site / paper / "index.html").exists()
    assert broken_links(site) == []
    # and there is something to check: the paper pages show figures inline
    imgs = re.findall(r'<img src="([^"]+)"', (site / "mctree" / "index.html").read_text())
    assert imgs and all(not s.startswith(("/", "http")) for s in imgs)


def test_the_checker_finds_a_broken_link_and_image(tmp_path):
    page = P.Page([P.Heading(1, "t"), P.Para((P.link("gone", "missing.md"), " ", P.link("ok", "index.md"), " ",
                                                P.link("web", "https://x.org"))), P.Figure("nofig.png", "fig")])
    write_site(tmp_path, {tmp_path / "index.md": page})
    bad = broken_links(tmp_path)
    assert any("missing.md" in b for b in bad) and any("nofig.png" in b for b in bad)
    urls = [b.split(": ", 1)[1] for b in bad]
    assert urls == ["href=missing.md", "src=nofig.png"]


def _blocks() -> P.Page:
    return P.Page([P.Heading(1, ("Title ", P.em("x"))),
                   P.Table(["a", "verdict"], [["1 | 2", "not reproduced"]]),
                   P.Bullets([P.Item(("item ", P.Code("a<b")), [P.Item(("sub ", P.link("l", "x.md")))])]),
                   P.Figure("f.png", "cap"),
                   P.Para(("text ", P.strong("bold"), " <tag>"))])


def test_one_page_model_renders_to_markdown_and_html():
    from bench.report.html import page_html

    page = _blocks()
    md = P.to_markdown(page)
    assert md == ("# Title *x*\n\n| a | verdict |\n|---|---|\n| 1 \\| 2 | not reproduced |\n\n"
                  "- item `a<b`\n  - sub [l](x.md)\n\n![cap](f.png)\n\ntext **bold** <tag>\n")
    body = page_html(page, Path(__file__))
    assert "<title>Title x</title>" in body and '<h1 id="title-x">Title <em>x</em></h1>' in body
    assert '<td>1 | 2</td><td class="v-not">not reproduced</td>' in body
    assert "<code>a&lt;b</code>" in body and '<a href="x.md">l</a>' in body
    assert body.count("<ul>") == 2 and '<figure><img src="f.png" alt="cap"></figure>' in body
    assert "<strong>bold</strong> &lt;tag&gt;" in body


def test_a_figure_caption_becomes_its_figcaption_with_nested_tags():
    from bench.report.html import page_html

    page = P.Page([P.Figure("f.png", "f1", (P.strong("f1"), ": accuracy (%) - data: iris")), P.Para("after"),
                   P.Figure("g.png", "f2")])
    assert P.to_markdown(page) == ("![f1](f.png)\n\n***f1**: accuracy (%) - data: iris*\n\nafter\n\n"
                                   "![f2](g.png)\n")
    body = page_html(page, Path(__file__))
    assert ('<figure><img src="f.png" alt="f1"><figcaption><strong>f1</strong>: accuracy (%) - data: iris'
            '</figcaption></figure>') in body
    assert "<p>after</p>" in body
    assert '<figure><img src="g.png" alt="f2"></figure>' in body   # no caption: no figcaption


def test_a_paper_page_lists_the_generic_summaries_on_one_line():
    from bench.report.paper_pages import generic_summaries_item

    line = P.md_block(P.Bullets([generic_summaries_item(
        {"summary_error", "summary_error_ranks", "summary_rmse", "summary_train_time"}, "../x/")]))
    assert line == ("- summaries over the splits, every algorithm and dataset: [error](../x/summary_error.md) "
                    "([ranks](../x/summary_error_ranks.md)) · [RMSE](../x/summary_rmse.md) · "
                    "[training CPU time](../x/summary_train_time.md)")


def test_links_to_converted_pages_point_at_their_html(site):
    text = (site / "index.html").read_text()
    for paper in PAPERS:
        assert f'href="{paper}/index.html"' in text
    assert f'href="verdicts.html"' in text
    assert set(site_pages(site).values()) >= {(site / "index.html").resolve()}


#: appended before </body> of a probe twin of a page: on load, writes what the browser found into a <pre>
_PROBE = """<script>window.addEventListener('load', () => {
  const imgs = [...document.images];
  const res = {
    images: imgs.length,
    broken: imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src')),
    links: [...document.querySelectorAll('a[href]')].map(a => a.href).filter(h => h.startsWith('file:')),
    headers: [...document.querySelectorAll('table')].map(t => t.rows.length ? t.rows[0].innerText : ''),
    rows: [...document.querySelectorAll('table')].map(t => t.rows.length),
  };
  const pre = document.createElement('pre');
  pre.id = 'bench-probe';
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
});</script>"""


def _in_chromium(exe: str, pages: list[Path], profile: Path) -> dict[Path, dict]:
    """Load each page (through a probe twin beside it, so relative paths are the same) in headless
    chromium, two at a time; return what the browser found per page: image count, images that did not
    load (naturalWidth 0), the local links as the browser resolved them, each table's header row."""
    import html as _html
    import json

    found: dict[Path, dict] = {}
    jobs = []
    for k, page in enumerate(pages):
        probe = page.with_name(f"_probe_{k}_{page.name}")
        probe.write_text(page.read_text().replace("</body>", _PROBE + "</body>"))
        jobs.append((page, probe))
    for i in range(0, len(jobs), 2):
        procs = []
        for j, (page, probe) in enumerate(jobs[i:i + 2]):
            cmd = [exe, "--headless", "--disable-gpu", "--no-sandbox", "--allow-file-access-from-files",
                   f"--user-data-dir={profile / str(i + j)}", "--virtual-time-budget=10000", "--dump-dom",
                   probe.as_uri()]
            procs.append((page, probe, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                        text=True)))
        for page, probe, proc in procs:
            out, err = proc.communicate(timeout=120)
            probe.unlink()
            m = re.search(r'<pre id="bench-probe">(.*?)</pre>', out, re.S)
            assert m, f"{page}: the page's load handler did not run in chromium: {err[-2000:]}"
            found[page] = json.loads(_html.unescape(m.group(1)))
    return found


def _broken_local_links(result: dict) -> list[str]:
    from urllib.parse import unquote, urlparse

    return sorted({h for h in result["links"] if not Path(unquote(urlparse(h).path)).exists()})


def _verdict_table(result: dict, index: bool) -> bool:
    heads = [h.lower() for h in result["headers"]]
    if index:   # the index opens with one row per paper: reproduced / partly / not reproduced / not checkable
        return bool(heads) and all(w in heads[0] for w in ("reproduced", "partly", "not checkable"))
    return any("claim" in h and "verdict" in h and "reason" in h for h in heads)


@pytest.fixture(scope="module")
def chromium():
    exe = _chromium()
    if exe is None:
        pytest.skip("no chromium binary (Debian: apt-get install -y chromium; .ci/run installs it as root)")
    return exe


def test_the_browser_check_finds_a_broken_image_and_link(chromium, tmp_path):
    import base64

    png = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
    (tmp_path / "ok.png").write_bytes(png)
    (tmp_path / "ok.md").write_text("x")
    page = tmp_path / "page.html"
    page.write_text('<html><body><table><tr><th>claim</th><th>verdict</th><th>reason</th></tr></table>'
                    '<img src="ok.png"><img src="gone.png"><a href="ok.md">ok</a><a href="gone.md#x">gone</a>'
                    '<a href="https://example.org">web</a></body></html>')
    r = _in_chromium(chromium, [page], tmp_path / "profile")[page]
    assert r["images"] == 2 and r["broken"] == ["gone.png"]
    assert [h.rsplit("/", 1)[1] for h in _broken_local_links(r)] == ["gone.md#x"]   # ok.md and the web link pass
    assert _verdict_table(r, index=False) and not _verdict_table(r, index=True)


def test_committed_html_pages_in_headless_chromium(chromium, site, tmp_path):
    """The COMMITTED reports/index.html, every paper page and verdicts.html (and the index the verdict
    stage writes now) in a real browser: the verdict table is there, every image loads
    (naturalWidth > 0) and every local link points at an existing file."""
    import os

    # a mirror of the committed reports/ (folders, each file a symlink to the committed one), so the
    # probe pages sit beside the pages they load without writing into reports/
    mirror = tmp_path / "reports"
    shutil.copytree(REPORTS, mirror, symlinks=False, copy_function=os.symlink,
                    ignore=shutil.ignore_patterns("*.pdf", "*.tex", ".*"))
    pages = [mirror / "index.html", mirror / "verdicts.html"] + [mirror / p / "index.html" for p in PAPERS]
    for p in pages:
        assert p.exists(), f"{p.relative_to(mirror)} is not committed"
    results = _in_chromium(chromium, pages + [site / "index.html"], tmp_path / "profile")
    for page, r in results.items():
        name = page.relative_to(page.parents[1]) if page.parent.name in PAPERS else page.name
        is_index = page.name == "index.html" and page.parent.name == "reports"
        assert _verdict_table(r, index=is_index), f"{name}: no verdict table ({r['headers'][:2]})"
        assert r["broken"] == [], f"{name}: images that did not load: {r['broken']}"
        assert _broken_local_links(r) == [], f"{name}: broken local links: {_broken_local_links(r)}"
        if is_index:
            assert r["rows"][0] == len(PAPERS) + 2      # header, a row per paper, the total
        if page.parent.name in ("mctree", "massbayes", "eskdb", "ande_sr"):
            assert r["images"] > 0, f"{name}: the paper page shows no figure"
