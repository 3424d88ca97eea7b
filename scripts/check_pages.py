#!/usr/bin/env python3
"""Check the HTML view of reports/ in headless chromium, as a researcher sees it at 1400 px.

For every page of the HTML view under the reports folder (every ``*.html`` outside hidden
folders: ``index.html``, each paper's ``<paper>/index.html``, ``verdicts.html``), loaded in a
1400 x 900 window:

- no horizontal overflow: ``document.documentElement.scrollWidth`` <= 1400;
- every image shown at least 600 px wide, loaded, with its natural width no more than twice the
  width it is shown at (else its text is shrunk past reading);
- on an ``index.html`` (the index and the paper pages): the first screen (what the window shows
  before any scrolling, ``window.innerHeight``: 813 of the 900 px in chromium 150) holds a figure
  (an image inside ``<figure>``).

Each page is loaded through a copy with a ``<base>`` to its folder and a probe script that measures
the laid-out page after the load event and writes the measures into the DOM, which chromium prints
(``--dump-dom``). No dependency beyond chromium (Debian: ``apt-get install -y chromium``).

Usage: ``python scripts/check_pages.py [REPORTS_DIR] [--chromium PATH] [-v]``. Exit 0 when every
page passes, 1 listing every violation, 2 when chromium is missing or a page cannot be probed.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTH, HEIGHT = 1400, 900
MIN_IMAGE_PX = 600
MAX_SHRINK = 2.0
PROBE_ID = "bench-page-probe"

PROBE = """<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var imgs = Array.prototype.map.call(document.images, function (im) {
      var r = im.getBoundingClientRect();
      return {src: im.getAttribute("src"), width: r.width, top: r.top + window.scrollY,
              bottom: r.bottom + window.scrollY, natural: im.naturalWidth,
              loaded: im.complete && im.naturalWidth > 0, in_figure: !!im.closest("figure")};
    });
    var out = {scroll_width: document.documentElement.scrollWidth, inner_width: window.innerWidth,
               inner_height: window.innerHeight, images: imgs};
    var pre = document.createElement("pre");
    pre.id = "%s";
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }, 0);
});
</script>""" % PROBE_ID


def find_chromium(given: str | None) -> str | None:
    for cand in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome", "chrome"]:
        path = shutil.which(cand) if cand else None
        if path:
            return path
    return None


def probe(chromium: str, page: Path, tmp: Path) -> dict:
    """The measures of ``page`` laid out in a WIDTH x HEIGHT window (raises RuntimeError)."""
    text = page.read_text()
    base = f'<base href="{html.escape(page.parent.resolve().as_uri())}/">'
    text = re.sub(r"<head>", "<head>\n" + base, text, count=1) if "<head>" in text else base + text
    text = text.replace("</body>", PROBE + "\n</body>") if "</body>" in text else text + PROBE
    copy = tmp / (re.sub(r"[^\w.-]+", "_", str(page)) + ".probe.html")
    copy.write_text(text)
    cmd = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio",
           "--allow-file-access-from-files", f"--window-size={WIDTH},{HEIGHT}", "--virtual-time-budget=10000",
           "--dump-dom", copy.as_uri()]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{page}: chromium did not finish within 120 s") from None
    m = re.search(rf'<pre id="{PROBE_ID}">(.*?)</pre>', res.stdout, re.S)
    if not m:
        err = res.stderr.strip().splitlines()[-3:]
        raise RuntimeError(f"{page}: the probe did not report (chromium exit {res.returncode}): {' | '.join(err)}")
    return json.loads(html.unescape(m.group(1)))


def violations(page: str, m: dict, first_screen: bool = True) -> list[str]:
    """What is wrong with one page's measures ``m`` (:func:`probe`); ``first_screen``: whether the page
    must show a figure before any scrolling."""
    bad = []
    if m["scroll_width"] > WIDTH:
        bad.append(f"{page}: horizontal overflow: the page is {m['scroll_width']} px wide at a {WIDTH} px window")
    for im in m["images"]:
        name = im["src"]
        if not im["loaded"]:
            bad.append(f"{page}: image {name} does not load")
            continue
        if im["width"] < MIN_IMAGE_PX:
            bad.append(f"{page}: image {name} is shown {im['width']:.0f} px wide (< {MIN_IMAGE_PX})")
        if im["natural"] > MAX_SHRINK * im["width"]:
            bad.append(f"{page}: image {name} is {im['natural']} px wide, shown at {im['width']:.0f} px "
                       f"({im['natural'] / im['width']:.2f}x > {MAX_SHRINK:g}x: its text is too small to read)")
    screen = min(HEIGHT, m["inner_height"])
    if first_screen and not any(im["in_figure"] and im["loaded"] and im["top"] < screen and im["bottom"] > 0
                                for im in m["images"]):
        bad.append(f"{page}: no figure on the first screen (the top {screen} px of a {WIDTH}x{HEIGHT} window)")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", nargs="?", default="reports", help="the reports folder (default: reports)")
    ap.add_argument("--chromium", help="the chromium binary (default: chromium on PATH)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each page's measures")
    args = ap.parse_args(argv)
    root = Path(args.root)
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("check_pages: chromium not found; install it (Debian: apt-get install -y chromium) or pass "
              "--chromium PATH", file=sys.stderr)
        return 2
    pages = sorted(p for p in root.rglob("*.html")
                   if not any(part.startswith(".") for part in p.relative_to(root).parts))
    if not pages:
        print(f"check_pages: no HTML page under {root}", file=sys.stderr)
        return 2
    bad: list[str] = []
    with tempfile.TemporaryDirectory(prefix="check_pages_") as tmp:
        for page in pages:
            rel = page.relative_to(root).as_posix()
            try:
                m = probe(chromium, page, Path(tmp))
            except RuntimeError as e:
                print(f"check_pages: {e}", file=sys.stderr)
                return 2
            found = violations(rel, m, first_screen=page.name == "index.html")
            bad += found
            if args.verbose:
                print(f"{rel}: width {m['scroll_width']} px (window {m['inner_width']}x{m['inner_height']}), "
                      f"{len(m['images'])} images, {len(found)} violations")
    for line in bad:
        print(line)
    print(f"check_pages: {len(pages)} pages at {WIDTH}x{HEIGHT}: "
          + (f"{len(bad)} violations" if bad else "all pass"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
