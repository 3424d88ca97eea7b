"""Pages a researcher would rather look at: the key figure that opens each paper page,
TeX as text, verdict tables that fit, figures at a legible width, no repeated diagram, no self-link,
and the chromium check of all that (scripts/check_pages.py)."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.report import keyfig
from bench.report import page as P
from bench.report import verdicts as V
from bench.report.html import LIST_OPEN, display_width, png_size, split_inlines, tex_to_html, write_site
from bench.report.paper_pages import paper_blocks

REPO = Path(__file__).resolve().parents[1]


def _check_pages():
    spec = importlib.util.spec_from_file_location("check_pages", REPO / "scripts" / "check_pages.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _png(path: Path, width_in: float, height_in: float, dpi: int) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(width_in, height_in))
    fig.add_subplot().plot([0, 1], [0, 1])
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


# ------------------------------------------------------------------ TeX
@pytest.mark.parametrize("tex, text", [
    (r"\psi = 20000", "ψ = 20000"),
    (r"\delta = \infty", "δ = ∞"),
    (r"\alpha = 0", "α = 0"),
    (r"O(t(d+c)\psi)", "O(t(d+c)ψ)"),
    (r"x_i^{n+1} < 3", "x<sub>i</sub><sup>n+1</sup> &lt; 3"),
    (r"O\left(cd\binom{d}{n}\right)", 'O(cd(<span class="binom"><span>d</span><span>n</span></span>))'),
])
def test_tex_becomes_text(tex, text):
    assert tex_to_html(tex) == text


def test_every_tex_of_the_published_claims_converts_without_a_backslash():
    claims = pd.read_csv(REPO / "bench" / "published" / "claims.csv", dtype=str, keep_default_na=False)
    found = [m for t in claims.astype(str).agg(" ".join, axis=1) for m in re.findall(r"\$([^$\n]+)\$", t)]
    assert found, "the published claims hold TeX (the converter has something to do)"
    for tex in found:
        out = tex_to_html(tex)
        assert "\\" not in out and "{" not in out and "}" not in out, (tex, out)


def _site(root: Path, *blocks, **others) -> None:
    """The HTML view of a page ``index.md`` made of ``blocks`` (and of pages ``others``: name -> blocks)."""
    pages = {root / "index.md": P.Page([P.Heading(1, "t"), *blocks])}
    pages.update({root / f"{name}.md": P.Page(list(b)) for name, b in others.items()})
    write_site(root, pages)


def test_dollars_that_are_not_math_stay(tmp_path):
    _site(tmp_path, P.Para(("It costs $5 and $10; with $\\psi = 20000$ and ", P.Code("$x$"), ".")))
    body = (tmp_path / "index.html").read_text()
    assert "$5 and $10" in body and '<span class="math">ψ = 20000</span>' in body
    assert "<code>$x$</code>" in body   # code is left alone


# ------------------------------------------------------------------ links, tables, figures
def test_a_page_does_not_link_to_itself(tmp_path):
    _site(tmp_path, P.Para(("As HTML: ", P.link("index.html", "index.html"), ", ", P.link("this", "index.md"), ", ",
                            P.link("rules", "verdicts.md#rules"), ", ", P.link("top", "#t"), ".")),
          verdicts=[P.Heading(1, "v")])
    body = (tmp_path / "index.html").read_text()
    assert 'href="index.html"' not in body and 'href="index.md"' not in body
    assert "As HTML: index.html, this," in body
    assert 'href="verdicts.html#rules"' in body and 'href="#t"' in body


def test_verdict_table_puts_the_claim_beside_its_id_and_folds_long_lists(tmp_path):
    ours = "; ".join(f"A{i} vs B bias all {i}/0/3 (p = 0.5; exact)" for i in range(8))
    v = V.Verdict(claim_id="X01", paper="massbayes", verdict=V.REPRODUCED, ours=ours, published="5/0/3",
                  test="sign test", evidence="a.csv;b.csv", reason="", claim="The $\\psi = 5000$ claim.")
    _site(tmp_path, V.verdict_table([v]))
    body = (tmp_path / "index.html").read_text()
    heads = re.findall(r"<th>(.*?)</th>", body)
    assert heads[:3] == ["claim", "the claim (paper&#x27;s words)", "verdict"]
    assert '<table class="verdicts">' in body and body.count("<col ") == len(heads)
    widths = [float(w) for w in re.findall(r'<col style="width:([\d.]+)%">', body)]
    assert abs(sum(widths) - 100) < 0.5
    cell = re.search(r"<td>(A0 vs B.*?)</td>", body, re.S).group(1)
    # one comparison a line (a "; " inside parentheses does not split), the rest folded
    shown, folded = cell.split("<details>")
    assert shown.count("<br>") == LIST_OPEN - 1 and folded.startswith(f"<summary>{8 - LIST_OPEN} more</summary>")
    assert "(p = 0.5; exact)" in cell
    assert '<span class="math">ψ = 5000</span>' in body


def test_split_inlines_keeps_parentheses_whole():
    assert split_inlines((P.Text("a (b; c); d [e; f]; g"),), "; ") == [
        (P.Text("a (b; c)"),), (P.Text("d [e; f]"),), (P.Text("g"),)]


def test_images_are_shown_at_their_drawn_size_at_least_600_px(tmp_path):
    big = _png(tmp_path / "big.png", 8, 4, 150)      # 1200 px at 150 dpi: 768 CSS px
    small = _png(tmp_path / "small.png", 4, 3, 100)  # 400 px: shown at 600
    assert png_size(big)[:2] == (1200, 600) and round(png_size(big)[2]) == 150
    assert display_width(big) == 768 and display_width(small) == 600
    assert display_width(big, key=True) == 1200
    assert display_width(tmp_path / "nothing.png") is None
    _site(tmp_path, P.Figure("big.png", "big", "Big."))
    assert '<img src="big.png" alt="big" style="width:768px">' in (tmp_path / "index.html").read_text()


def test_a_generic_cd_diagram_is_not_shown_twice(tmp_path):
    for stem in ("ranks_error_cd", "summary_error_cd", "summary_rmse_cd"):
        _png(tmp_path / f"{stem}.png", 7, 2, 100)
    _site(tmp_path, *(P.Figure(f"{s}.png", s) for s in ("ranks_error_cd", "summary_error_cd", "summary_rmse_cd")))
    body = (tmp_path / "index.html").read_text()
    shown = re.findall(r'<img src="([^"]+)"', body)
    assert shown == ["ranks_error_cd.png", "summary_rmse_cd.png"]   # no paper's rmse diagram: kept
    assert '<a href="summary_error_cd.png">' in body and "ranks_error_cd above" in body


# ------------------------------------------------------------------ the key figure
def _paper_tables(root: Path) -> None:
    d = root / "massbayes"
    d.mkdir(parents=True)
    pd.DataFrame({"dataset": ["a", "b", "c"], "algorithm": ["M", "M", "M"], "ours": [80.0, 90.5, None],
                  "published": [81.0, 88.0, 70.0]}).to_csv(d / "table3_accuracy_long.csv", index=False)
    pd.DataFrame({"dataset": ["a", "b"], "ours_s": [0.01, 2.0], "published_s": [0.5, 900.0]}) \
        .to_csv(d / "table5_runtime_long.csv", index=False)
    pd.DataFrame({"row": ["M", "M"], "ours W:L:D": ["6:0:2", "3:1:0"], "published W:L:D": ["4:1:3", "n/a"]}) \
        .to_csv(d / "table4_wdl.csv", index=False)


def test_key_figure_cells_come_from_the_facts_not_the_tables(tmp_path):
    from bench.report.facts import Facts

    _paper_tables(tmp_path)
    f = Facts("massbayes")
    f.add_table("key_cells", pd.DataFrame({"kind": ["accuracy (%)"] * 3 + [keyfig.WIN_SHARE] * 2,
                                           "table": ["Table 3"] * 3 + ["Table 4"] * 2,
                                           "published": [81.0, 88.0, 70.0, 0.8, None],
                                           "ours": [80.0, 90.5, None, 1.0, 0.75]}), "massbayes/table3.csv")
    f.write(tmp_path / "massbayes")
    (tmp_path / "massbayes" / "table3_accuracy_long.csv").write_text("garbage,not,read\n")   # never read back
    c = keyfig.cells(tmp_path, "massbayes")
    acc = c[c["kind"] == "accuracy (%)"]
    assert list(acc["published"]) == [81.0, 88.0, 70.0] and acc["ours"].isna().sum() == 1
    wdl = c[c["kind"] == keyfig.WIN_SHARE]   # a cell the paper does not print is no cell
    assert list(wdl["published"]) == [0.8] and list(wdl["ours"]) == [1.0]
    assert keyfig._log_axes(np.array([0.01, 2.0, 900.0])) and not keyfig._log_axes(np.array([70.0, 90.0]))
    assert keyfig.cells(tmp_path, "ecocnb").empty          # no facts: no cells


def test_key_figure_opens_the_paper_page_once(tmp_path):
    _paper_tables(tmp_path)
    v = V.Verdict(claim_id="MB01", paper="massbayes", verdict=V.NOT_REPRODUCED, ours="1", published="2",
                  test="", evidence="", reason="r", claim="c")
    written = keyfig.write_all(tmp_path, [v])
    assert tmp_path / keyfig.FILE in written and tmp_path / "massbayes" / keyfig.FILE in written
    w, h, dpi = png_size(tmp_path / "massbayes" / keyfig.FILE)
    assert w <= keyfig.WIDTH_IN * keyfig.DPI + 1 and h < w and round(dpi) == keyfig.DPI
    page = P.to_markdown(paper_blocks(tmp_path, "massbayes", [v]))
    assert page.count(keyfig.FILE) == 1
    assert page.index(f"![key figure]({keyfig.FILE})") < page.index("## Verdicts")


# ------------------------------------------------------------------ the chromium check
def test_violations_name_each_rule():
    cp = _check_pages()
    ok = {"scroll_width": 1385, "inner_width": 1400, "inner_height": 813,
          "images": [{"src": "k.png", "width": 1300, "top": 200, "bottom": 700, "natural": 1650, "loaded": True,
                      "in_figure": True}]}
    assert cp.violations("p", ok) == []
    wide = {**ok, "scroll_width": 1595}
    assert any("horizontal overflow" in v for v in cp.violations("p", wide))
    small = {**ok, "images": ok["images"] + [{**ok["images"][0], "src": "s.png", "width": 500, "natural": 900}]}
    assert any("s.png is shown 500 px" in v for v in cp.violations("p", small))
    shrunk = {**ok, "images": [{**ok["images"][0], "natural": 3164}]}
    assert any("3164 px wide" in v for v in cp.violations("p", shrunk))
    low = {**ok, "images": [{**ok["images"][0], "top": 900, "bottom": 1400}]}
    assert any("first screen" in v for v in cp.violations("p", low))
    assert cp.violations("p", low, first_screen=False) == []


def test_chromium_check_passes_a_good_page_and_fails_a_bad_one(tmp_path):
    cp = _check_pages()
    if cp.find_chromium(None) is None:
        pytest.skip("no chromium here (Debian: apt-get install -y chromium)")
    good, bad = tmp_path / "good", tmp_path / "bad"
    for root in (good, bad):
        root.mkdir()
        _png(root / "fig.png", 8, 4, 150)
    _site(good, P.Figure("fig.png", "fig", "A figure."))
    _site(bad, *[P.Table(["a", "b", "c"], [["x" * 400] * 3])] * 40, P.Para("y" * 3000), P.Figure("fig.png", "fig"))
    (bad / "index.html").write_text((bad / "index.html").read_text().replace(
        "</body>", '<div style="width:2000px">wide</div></body>'))
    assert cp.main([str(good)]) == 0
    assert cp.main([str(bad)]) == 1
