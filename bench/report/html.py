"""A static HTML view of reports/ (no server, no dependency): ``reports/index.html``, one
``index.html`` per paper page and ``verdicts.html``, converted from the same Markdown the build
writes (:mod:`bench.report.pages`).

The converter covers the Markdown the reports use: ATX headings, pipe tables, bullet lists (nested
by two spaces), images on a line of their own (shown inline), paragraphs, and inline links, images,
``code``, **bold** and *italic*. Links to a page that is converted point at its HTML twin; other
relative links (tables in Markdown, CSV) are kept and open as files.
"""

from __future__ import annotations

import html as _html
import re
from pathlib import Path

#: the style sheet of the HTML view: one source, ``bench/report/style.css`` (package data), written
#: beside reports/index.html by :func:`write_site` (or inline in a page built without it)
CSS = (Path(__file__).with_name("style.css")).read_text()

_IMG = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
#: ``***a**b*``: italic text that opens with a bold part (a figure's caption)
_BOLD_IN_ITAL = re.compile(r"(?<![*\w])\*\*\*(.+?)\*\*([^*\n]*?)\*(?![*\w])")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITAL = re.compile(r"(?<![*\w])\*([^*\n]+?)\*(?![*\w])")
_CODE = re.compile(r"`([^`]+)`")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class _Converter:
    def __init__(self, page: Path, pages: dict[Path, Path]):
        self.page = page
        self.pages = pages  # resolved .md page -> its .html

    def href(self, url: str) -> str:
        if re.match(r"^[a-z]+:", url) or url.startswith("#"):
            return url
        path, _, frag = url.partition("#")
        target = (self.page.parent / path).resolve()
        if target in self.pages:
            rel = Path(_relpath(self.pages[target], self.page.parent))
            return rel.as_posix() + (f"#{frag}" if frag else "")
        return url

    def inline(self, text: str) -> str:
        codes: list[str] = []

        def keep_code(m):
            codes.append(f"<code>{_html.escape(m.group(1))}</code>")
            return f"\x00{len(codes) - 1}\x00"

        text = _CODE.sub(keep_code, text)
        text = _html.escape(text, quote=True)
        text = _IMG.sub(lambda m: f'<img src="{_html.escape(self.href(_html.unescape(m.group(2))))}" alt="{m.group(1)}">', text)
        text = _LINK.sub(lambda m: f'<a href="{_html.escape(self.href(_html.unescape(m.group(2))))}">{m.group(1)}</a>', text)
        text = _BOLD_IN_ITAL.sub(r"<em><strong>\1</strong>\2</em>", text)
        text = _BOLD.sub(r"<strong>\1</strong>", text)
        text = _ITAL.sub(r"<em>\1</em>", text)
        return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)

    def table(self, rows: list[str]) -> str:
        def cells(line: str) -> list[str]:
            line = line.strip()
            if line.startswith("|"):
                line = line[1:]
            if line.endswith("|") and not line.endswith("\\|"):
                line = line[:-1]
            parts = re.split(r"(?<!\\)\|", line)
            return [p.strip().replace("\\|", "|") for p in parts]

        head = cells(rows[0])
        body = [cells(r) for r in rows[2:]] if len(rows) > 1 and re.match(r"^\|?[\s:\-|]+\|?$", rows[1]) \
            else [cells(r) for r in rows[1:]]
        vcol = head.index("verdict") if "verdict" in head else -1
        out = ["<table>", "<thead><tr>" + "".join(f"<th>{self.inline(c)}</th>" for c in head) + "</tr></thead>",
               "<tbody>"]
        for r in body:
            tds = []
            for i, c in enumerate(r):
                cls = ""
                if i == vcol:
                    word = c.replace("*", "").strip()
                    cls = {"reproduced": "v-reproduced", "partly reproduced": "v-partly",
                           "not reproduced": "v-not", "not checkable": "v-checkable"}.get(word, "")
                tds.append(f'<td class="{cls}">' if cls else "<td>")
                tds[-1] += self.inline(c) + "</td>"
            out.append("<tr>" + "".join(tds) + "</tr>")
        out += ["</tbody>", "</table>"]
        return "\n".join(out)

    def convert(self, md: str) -> tuple[str, str]:
        lines = md.splitlines()
        out: list[str] = []
        title = ""
        i = 0
        para: list[str] = []

        def flush():
            if para:
                out.append("<p>" + self.inline(" ".join(para)) + "</p>")
                para.clear()

        while i < len(lines):
            line = lines[i]
            s = line.strip()
            if not s:
                flush()
                i += 1
                continue
            m = re.match(r"^(#{1,6})\s+(.*)$", s)
            if m:
                flush()
                n, text = len(m.group(1)), m.group(2).strip()
                title = title or re.sub(r"[*`\[\]]", "", text)
                out.append(f'<h{n} id="{slug(text)}">{self.inline(text)}</h{n}>')
                i += 1
                continue
            if s.startswith("|"):
                flush()
                rows = []
                while i < len(lines) and lines[i].strip().startswith("|"):
                    rows.append(lines[i])
                    i += 1
                out.append(self.table(rows))
                continue
            if re.match(r"^\s*[-*]\s+", line):
                flush()
                items = []
                while i < len(lines) and re.match(r"^\s*[-*]\s+", lines[i]):
                    indent = len(lines[i]) - len(lines[i].lstrip())
                    items.append((indent // 2, re.sub(r"^\s*[-*]\s+", "", lines[i])))
                    i += 1
                out.append(self.ul(items))
                continue
            m = re.fullmatch(r"!\[([^\]]*)\]\(([^)\s]+)\)", s)
            if m:
                flush()
                i += 1
                cap, i = self.figure_caption(lines, i)
                out.append(f'<figure><img src="{_html.escape(self.href(m.group(2)))}" '
                           f'alt="{_html.escape(m.group(1))}">{cap}</figure>')
                continue
            para.append(s)
            i += 1
        flush()
        return title, "\n".join(out)

    def figure_caption(self, lines: list[str], i: int) -> tuple[str, int]:
        """The ``<figcaption>`` of the image line before ``lines[i]``: the next paragraph when it is
        one line in italics (how the paper pages write a figure's caption), with the line after it;
        else ``""`` and ``i`` unchanged."""
        j = i
        while j < len(lines) and not lines[j].strip():
            j += 1
        s = lines[j].strip() if j < len(lines) else ""
        ends = j + 1 >= len(lines) or not lines[j + 1].strip()
        if len(s) > 2 and s[0] == "*" and s[-1] == "*" and s[-2] != "*" and ends:
            return f"<figcaption>{self.inline(s[1:-1])}</figcaption>", j + 1   # italics: style.css
        return "", i

    def ul(self, items: list[tuple[int, str]]) -> str:
        out, depth = [], -1
        for level, text in items:
            level = min(level, depth + 1)
            while depth < level:
                out.append("<ul>")
                depth += 1
            while depth > level:
                out.append("</ul>")
                depth -= 1
            out.append(f"<li>{self.inline(text)}</li>")
        out += ["</ul>"] * (depth + 1)
        return "\n".join(out)


def _relpath(target: Path, start: Path) -> str:
    import os

    return os.path.relpath(target, start)


#: the one style sheet of the HTML view, written beside reports/index.html
STYLE_SHEET = "style.css"


def page_html(md_path: Path, pages: dict[Path, Path], css_href: str | None = None) -> str:
    """One page; with ``css_href`` it links the shared style sheet, else the style is inline."""
    title, body = _Converter(md_path.resolve(), pages).convert(md_path.read_text())
    style = f'<link rel="stylesheet" href="{css_href}">' if css_href else f"<style>\n{CSS}</style>"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_html.escape(title or md_path.stem)}</title>\n{style}\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def site_pages(root: Path) -> dict[Path, Path]:
    """The Markdown pages converted to HTML: index.md, verdicts.md, and per paper README.md (as
    ``<paper>/index.html``, which holds the paper's verdict table; its verdicts.md stays Markdown)."""
    from .verdicts import PAPERS

    root = Path(root)
    pairs = {root / "index.md": root / "index.html", root / "verdicts.md": root / "verdicts.html"}
    for paper in PAPERS:
        pairs[root / paper / "README.md"] = root / paper / "index.html"
    return {md.resolve(): h.resolve() for md, h in pairs.items() if md.exists()}


def write_site(root: Path) -> list[Path]:
    """Write the HTML twin of every page of :func:`site_pages`; return the files."""
    root = Path(root)
    pages = site_pages(root)
    css = root / STYLE_SHEET
    css.write_text(CSS)
    out = [css]
    for stale in root.glob("*/verdicts.html"):   # written by earlier builds; the paper page has them
        stale.unlink()
    for md, h in pages.items():
        h.write_text(page_html(md, pages, _relpath(css.resolve(), h.parent)))
        out.append(h)
    return out


def broken_links(root: Path) -> list[str]:
    """Every relative ``<img src>`` and ``<a href>`` of the HTML pages whose target does not exist."""
    bad = []
    for h in sorted(Path(root).rglob("*.html")):
        if any(part.startswith(".") for part in h.relative_to(root).parts):
            continue
        text = h.read_text()
        for attr, url in re.findall(r'<(?:img|a)\s[^>]*?(src|href)="([^"]*)"', text):
            url = _html.unescape(url)
            if not url or re.match(r"^[a-z]+:", url) or url.startswith("#"):
                continue
            path = url.split("#")[0]
            if not (h.parent / path).exists():
                bad.append(f"{h.relative_to(root)}: {attr}={url}")
    return bad
