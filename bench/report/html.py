"""A static HTML view of reports/ (no server, no dependency): ``reports/index.html``, one
``index.html`` per paper page and ``verdicts.html``, rendered from the same blocks as the Markdown
pages (:mod:`bench.report.page`, built by :mod:`bench.report.paper_pages`); no Markdown is parsed.

Blocks become HTML one for one: headings (with an id from their text), paragraphs, bullet lists
(nested), tables, figures with their caption; inlines become links, ``<code>``, ``<strong>`` and
``<em>``. Links to a page of the site point at its HTML twin; other relative links (tables in
Markdown, CSV) are kept and open as files.

The layout is for a researcher at a 1400 px window: a link to the page itself is plain text; TeX
between dollars in text (a claim's words, ``$\\psi = 20000$``) is converted to text
(:func:`tex_to_html`: ψ = 20000); a verdict table has fixed column widths with the claim's words
beside its id, and a cell listing many comparisons shows one per line, the first few open and the
rest folded; every image gets a display width from its PNG header (its size at the resolution it
was drawn for, at least :data:`MIN_IMAGE_PX`, at most the column); the key figure comes first; a
generic summary's critical-difference diagram is a link, not a second image, when the same folder
shows the paper's own diagram of that measure.
"""

from __future__ import annotations

import html as _html
import re
import struct
from pathlib import Path

from . import page as P

#: the style sheet of the HTML view: one source, ``bench/report/style.css`` (package data), written
#: beside reports/index.html by :func:`write_site` (or inline in a page built without it)
CSS = (Path(__file__).with_name("style.css")).read_text()
#: the key figure's file name (bench.report.keyfig draws it; pages show it first, at its own width)
KEY_FIGURE = "key_figure.png"

#: TeX between dollars, as pandoc reads it: no space just inside either dollar, no digit just after
#: the closing one ("$5 and $10" is not math)
_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$\n]{1,200}?)(?<=\S)\$(?!\d)")
#: TeX commands -> text (the symbols of bench/published's claims and a few more of their kind)
TEX_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "eta": "η",
    "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Delta": "Δ", "Sigma": "Σ", "Omega": "Ω",
    "infty": "∞", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
    "times": "×", "cdot": "·", "pm": "±", "ldots": "…", "cdots": "⋯", "dots": "…", "to": "→",
    "rightarrow": "→", "in": "∈", "sum": "Σ", "prod": "Π", "log": "log", "ln": "ln", "exp": "exp",
    "min": "min", "max": "max", "lvert": "|", "rvert": "|", "mid": "|",
}
#: TeX sizing and spacing commands dropped (``\\left(`` is ``(``)
_TEX_DROP = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg|mathrm|mathit|text|operatorname)\b\s*")
_TEX_SPACE = re.compile(r"\\[,;:! ]|~")
#: a brace group without nested braces
_GROUP = r"\{([^{}]*)\}"


def tex_to_html(tex: str) -> str:
    """TeX math as HTML text: Greek letters and relations as their characters, ``x^{n+1}`` and
    ``x_i`` as super- and subscripts, ``\\binom{d}{n}`` as d over n in parentheses, sizing commands
    dropped. An unknown command keeps its name without the backslash. ``$\\psi = 20000$`` -> ψ = 20000."""
    s = _TEX_SPACE.sub(" ", tex)
    s = _TEX_DROP.sub("", s)
    s = s.replace("\\{", "\x01").replace("\\}", "\x02")
    for _ in range(5):   # innermost groups first
        new = re.sub(r"\\[dt]?binom\s*" + _GROUP + r"\s*" + _GROUP, "\x03\\1\x04\\2\x05", s)
        new = re.sub(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP, r"(\1)/(\2)", new)
        if new == s:
            break
        s = new
    s = re.sub(r"\\([A-Za-z]+)", lambda m: TEX_SYMBOLS.get(m.group(1), m.group(1)), s)
    s = _html.escape(s, quote=False)
    for _ in range(5):
        new = re.sub(r"\^" + _GROUP, r"<sup>\1</sup>", s)
        new = re.sub(r"_" + _GROUP, r"<sub>\1</sub>", new)
        if new == s:
            break
        s = new
    s = re.sub(r"\^([^\s{}<])", r"<sup>\1</sup>", s)
    s = re.sub(r"_([^\s{}<])", r"<sub>\1</sub>", s)
    s = s.replace("{", "").replace("}", "").replace("\x01", "{").replace("\x02", "}")
    s = (s.replace("\x03", '(<span class="binom"><span>').replace("\x04", "</span><span>")
         .replace("\x05", "</span></span>)"))
    return " ".join(s.split())


#: the columns of a verdict table (:func:`bench.report.verdicts.verdict_table`) in the order the HTML
#: shows them, with their relative widths (the table has fixed widths: long cells wrap, never widen it;
#: the paper key and the claim id, e.g. "massbayes" and "MB06a", fit on one line at 1400 px)
CLAIM_TEXT = "the claim (paper's words)"
VERDICT_COLUMNS = {"paper": 8.5, "claim": 5, CLAIM_TEXT: 18, "verdict": 8.5, "reason": 17, "ours": 15,
                   "published": 14, "test": 12, "evidence": 9}
#: verdict-table columns that list comparisons (or files), with their separators (outermost first):
#: shown one per line
LISTED_COLUMNS = {"ours": ("; ",), "published": ("; ",), "evidence": (", ",), "reason": (" | ", "; ")}
#: comparisons of such a cell shown before the rest are folded
LIST_OPEN = 3
#: the narrowest an image is shown (CSS px), the widest being the page column (style.css)
MIN_IMAGE_PX = 600


def _split_keep(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses and brackets, every piece kept as it is."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i = i + len(sep)
            continue
        i += 1
    return parts + [text[start:]]


def split_inlines(content: tuple, sep: str) -> list[tuple]:
    """Inlines split at ``sep`` in their text (outside parentheses, :func:`_split_keep`): the parts,
    stripped, the empty ones left out (a cell of links joined by ", " gives one link a part)."""
    parts: list[list] = [[]]
    for x in content:
        if isinstance(x, P.Text):
            pieces = _split_keep(x.text, sep)
            parts[-1].append(P.Text(pieces[0]))
            for piece in pieces[1:]:
                parts.append([P.Text(piece)])
        else:
            parts[-1].append(x)
    out = []
    for part in parts:
        while part and isinstance(part[0], P.Text) and not part[0].text.strip():
            part.pop(0)
        while part and isinstance(part[-1], P.Text) and not part[-1].text.strip():
            part.pop()
        if part and isinstance(part[0], P.Text):
            part[0] = P.Text(part[0].text.lstrip())
        if part and isinstance(part[-1], P.Text):
            part[-1] = P.Text(part[-1].text.rstrip())
        if part:
            out.append(P.inlines(part))
    return out


class _Renderer:
    """One page's blocks as HTML, for the page at ``page`` (its Markdown file: links are relative to
    its folder); ``pages`` maps every page of the site (resolved .md) to its HTML twin."""

    def __init__(self, page: Path, pages: dict[Path, Path]):
        self.page = page
        self.pages = pages

    def href(self, url: str) -> str:
        if re.match(r"^[a-z]+:", url) or url.startswith("#"):
            return url
        path, _, frag = url.partition("#")
        target = (self.page.parent / path).resolve()
        if target in self.pages:
            rel = Path(_relpath(self.pages[target], self.page.parent))
            return rel.as_posix() + (f"#{frag}" if frag else "")
        if target.suffix == ".md" and target.with_suffix(".html").is_file():   # a table's HTML view
            return Path(path).with_suffix(".html").as_posix() + (f"#{frag}" if frag else "")
        return url

    def is_self(self, url: str) -> bool:
        """Whether a relative ``url`` (no fragment) names this page or its HTML twin."""
        if re.match(r"^[a-z]+:", url) or url.startswith("#"):
            return False
        path, _, frag = url.partition("#")
        if frag or not path:
            return False
        target = (self.page.parent / path).resolve()
        return target == self.page or target == self.pages.get(self.page)

    def text(self, text: str) -> str:
        """Plain text, escaped; TeX between dollars (a claim's words) as text (:func:`tex_to_html`)."""
        out, at = [], 0
        for m in _MATH.finditer(text):
            out.append(_html.escape(text[at:m.start()], quote=True))
            out.append(f'<span class="math">{tex_to_html(m.group(1))}</span>')
            at = m.end()
        out.append(_html.escape(text[at:], quote=True))
        return "".join(out)

    def inline(self, content) -> str:
        out = []
        for x in P.inlines(content):
            if isinstance(x, P.Text):
                out.append(self.text(x.text))
            elif isinstance(x, P.Code):
                out.append(f"<code>{_html.escape(x.text)}</code>")
            elif isinstance(x, P.Strong):
                out.append(f"<strong>{self.inline(x.content)}</strong>")
            elif isinstance(x, P.Em):
                out.append(f"<em>{self.inline(x.content)}</em>")
            elif isinstance(x, P.Link):
                if self.is_self(x.href):   # a page does not link to itself
                    out.append(self.inline(x.content))
                else:
                    out.append(f'<a href="{_html.escape(self.href(x.href))}">{self.inline(x.content)}</a>')
            else:
                raise TypeError(f"not an inline: {x!r}")
        return "".join(out)

    def table(self, t: P.Table) -> str:
        head = list(t.header)
        verdict_table = t.kind == "verdicts"
        order = list(range(len(head)))
        if verdict_table:   # the claim's words beside its id, then the verdict and its grounds
            order = sorted(order, key=lambda i: list(VERDICT_COLUMNS).index(head[i]))
        vcol = head.index("verdict") if "verdict" in head else -1
        out = ['<table class="verdicts">' if verdict_table else '<table class="view">' if t.kind == "view" else "<table>"]
        if verdict_table:
            widths = [VERDICT_COLUMNS[head[i]] for i in order]
            out.append("<colgroup>" + "".join(f'<col style="width:{100 * w / sum(widths):.1f}%">' for w in widths)
                       + "</colgroup>")
        out += ["<thead><tr>" + "".join(f"<th>{self.text(head[i])}</th>" for i in order) + "</tr></thead>",
                "<tbody>"]
        for r in t.rows:
            tds = []
            for i in order:
                c = r[i] if i < len(r) else ()
                cls = ""
                if i == vcol:
                    cls = {"reproduced": "v-reproduced", "partly reproduced": "v-partly",
                           "not reproduced": "v-not", "not checkable": "v-checkable"}.get(P.plain(c).strip(), "")
                tds.append(f'<td class="{cls}">' if cls else "<td>")
                listed = verdict_table and head[i] in LISTED_COLUMNS
                tds[-1] += (self.listed(c, LISTED_COLUMNS[head[i]]) if listed else self.inline(c)) + "</td>"
            out.append("<tr>" + "".join(tds) + "</tr>")
        out += ["</tbody>", "</table>"]
        return "\n".join(out)

    def listed(self, cell: tuple, seps: tuple[str, ...]) -> str:
        """A cell listing comparisons ("a; b; c" with ``seps`` ("; ",)): one per line, those after
        the first :data:`LIST_OPEN` folded under a "N more" summary."""
        parts = [cell]
        for sep in seps:
            parts = [q for p in parts for q in split_inlines(p, sep)]
        if len(parts) < 2:
            return self.inline(cell)
        if len(parts) <= LIST_OPEN + 1:
            return "<br>".join(self.inline(p) for p in parts)
        shown = "<br>".join(self.inline(p) for p in parts[:LIST_OPEN])
        rest = "<br>".join(self.inline(p) for p in parts[LIST_OPEN:])
        return f"{shown}<details><summary>{len(parts) - LIST_OPEN} more</summary>{rest}</details>"

    def figure(self, f: P.Figure, images: set[Path]) -> str:
        """A figure at its display width (:func:`display_width`), or a link line when it repeats a
        diagram the page shows (:func:`repeats`)."""
        path = (self.page.parent / f.src.split("#")[0]).resolve()
        src = _html.escape(self.href(f.src))
        twin = repeats(path, images)
        if twin is not None:
            return (f'<p class="repeat">{_html.escape(path.stem)}: <a href="{src}">the same diagram from the '
                    f"experiment's generic summary</a>, not shown: {_html.escape(twin.stem)} above is the "
                    "paper's own.</p>")
        key = path.name == KEY_FIGURE
        width = display_width(path, key=key)
        style = f' style="width:{width}px"' if width else ""
        cls = ' class="key"' if key else ""
        cap = f"<figcaption>{self.inline(f.caption)}</figcaption>" if f.caption else ""   # italics: style.css
        return f'<figure{cls}><img src="{src}" alt="{_html.escape(f.alt)}"{style}>{cap}</figure>'

    def items(self, items: list[P.Item]) -> str:
        out = ["<ul>"]
        for it in items:
            sub = ("\n" + self.items(it.children)) if it.children else ""
            out.append(f"<li>{self.inline(it.content)}{sub}</li>")
        out.append("</ul>")
        return "\n".join(out)

    def block(self, b, images: set[Path]) -> str:
        if isinstance(b, P.Heading):
            anchor = re.sub(r"[^a-z0-9]+", "-", P.md_inlines(b.content).lower()).strip("-")
            return f'<h{b.level} id="{anchor}">{self.inline(b.content)}</h{b.level}>'
        if isinstance(b, P.Para):
            return f"<p>{self.inline(b.content)}</p>"
        if isinstance(b, P.Bullets):
            return self.items(b.items)
        if isinstance(b, P.Table):
            return self.table(b)
        if isinstance(b, P.Figure):
            return self.figure(b, images)
        raise TypeError(f"not a block: {b!r}")

    def body(self, page: P.Page) -> str:
        images = {(self.page.parent / b.src.split("#")[0]).resolve() for b in page.blocks if isinstance(b, P.Figure)}
        return "\n".join(self.block(b, images) for b in page.blocks)


def png_size(path: Path) -> tuple[int, int, float] | None:
    """(width, height, dots per inch) of a PNG from its header (``pHYs``; 96 when absent), or None
    when ``path`` is not a readable PNG."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(1 << 16)
    except OSError:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    w, h = struct.unpack(">II", head[16:24])
    dpi = 96.0
    at = head.find(b"pHYs")
    if at > 0:
        x_per_m, _, unit = struct.unpack(">IIB", head[at + 4:at + 13])
        if unit == 1 and x_per_m:
            dpi = x_per_m * 0.0254
    return w, h, dpi


def display_width(path: Path, key: bool = False) -> int | None:
    """The CSS width to show a PNG at: its size at the resolution it was drawn for (a figure of 8
    inches at 150 dpi: 768 px), at least :data:`MIN_IMAGE_PX`; a key figure (``key``), which opens its
    page, as wide as its pixels. style.css caps the width at the column."""
    size = png_size(path)
    if size is None:
        return None
    w, _, dpi = size
    return max(MIN_IMAGE_PX, w if key else round(w * 96 / dpi))


#: a critical-difference diagram: ``<prefix>_<measure>_cd.png``
_CD = re.compile(r"^(?P<prefix>.+?)_(?P<measure>error|rmse|[a-z0-9]+)_cd$")


def repeats(path: Path, images: set[Path]) -> Path | None:
    """The paper's own diagram that a generic summary's critical-difference diagram
    (``summary_<measure>_cd.png``) repeats: another ``*_<measure>_cd.png`` of the same folder shown on
    the same page; else None."""
    m = _CD.match(path.stem)
    if not m or m.group("prefix") != "summary":
        return None
    for other in sorted(images):
        o = _CD.match(other.stem)
        if other.parent == path.parent and o and o.group("prefix") != "summary" \
                and o.group("measure") == m.group("measure"):
            return other
    return None


def _relpath(target: Path, start: Path) -> str:
    import os

    return os.path.relpath(target, start)


#: the one style sheet of the HTML view, written beside reports/index.html
STYLE_SHEET = "style.css"


def page_html(page: P.Page, md_path: Path, pages: dict[Path, Path] | None = None,
              css_href: str | None = None) -> str:
    """The HTML of ``page`` (blocks, :mod:`bench.report.page`) whose Markdown twin is ``md_path``
    (its links are relative to that folder); ``pages`` maps the site's pages (resolved .md) to their
    HTML. With ``css_href`` it links the shared style sheet, else the style is inline."""
    md_path = Path(md_path).resolve()
    body = _Renderer(md_path, pages or {}).body(page)
    style = f'<link rel="stylesheet" href="{css_href}">' if css_href else f"<style>\n{CSS}</style>"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_html.escape(page.title or md_path.stem)}</title>\n{style}\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def html_twin(md: Path) -> Path:
    """The HTML file of a page: ``index.html`` for a folder's ``README.md``, else ``<stem>.html``."""
    md = Path(md)
    return md.with_name("index.html") if md.name == "README.md" else md.with_suffix(".html")


def site_pages(root: Path) -> dict[Path, Path]:
    """The pages of the HTML view that exist under ``root``: index.md, verdicts.md, and per paper
    README.md (as ``<paper>/index.html``, which holds the paper's verdict table; its verdicts.md stays
    Markdown), each (resolved) with its HTML file."""
    from ..papers import PAPERS

    root = Path(root)
    mds = [root / "index.md", root / "verdicts.md"] + [root / paper / "README.md" for paper in PAPERS]
    return {md.resolve(): html_twin(md).resolve() for md in mds if md.exists()}


def _md_inline(text: str) -> tuple:
    """A line of Markdown as inlines: ```code``` and ``**bold**`` kept, the rest as text."""
    out: list = []
    for k, part in enumerate(re.split(r"`([^`]*)`", text)):
        if k % 2:
            out.append(P.Code(part))
            continue
        for j, piece in enumerate(re.split(r"\*\*(.+?)\*\*", part)):
            if piece:
                out.append(P.strong(piece) if j % 2 else piece)
    return P.inlines(*out)


def notes_page(lines: list[str]) -> P.Page:
    """The HTML view of a notes file its writer composes as Markdown lines (headings, paragraphs,
    bullets; ```code``` and ``**bold**`` inline): the same blocks."""
    blocks: list = []
    para: list[str] = []
    items: list[str] = []

    def flush():
        if para:
            blocks.append(P.Para(_md_inline(" ".join(para))))
            para.clear()
        if items:
            blocks.append(P.Bullets([P.Item(_md_inline(t)) for t in items]))
            items.clear()

    for line in lines:
        text = line.strip()
        if m := re.match(r"(#{1,6})\s+(.*)", text):
            flush()
            blocks.append(P.Heading(min(len(m.group(1)), 4), _md_inline(m.group(2))))
        elif m := re.match(r"[-*]\s+(.*)", text):
            if para:
                flush()
            items.append(m.group(1))
        elif text:
            if items:
                flush()
            para.append(text)
        else:
            flush()
    flush()
    return P.Page(blocks)


def write_site(root: Path, pages: dict[Path, P.Page]) -> list[Path]:
    """Write the HTML twin of every page of ``pages`` (Markdown file -> its blocks) and the style
    sheet; return the files. A link to a table's ``<stem>.md`` opens its HTML view, ``<stem>.html``
    (:func:`bench.report.tables.write_table` writes it beside the Markdown), where there is one."""
    root = Path(root)
    twins = {Path(md).resolve(): html_twin(md).resolve() for md in pages}
    css = root / STYLE_SHEET
    css.write_text(CSS)
    out = [css]
    for stale in root.glob("*/verdicts.html"):   # written by earlier builds; the paper page has them
        stale.unlink()
    for md, page in pages.items():
        h = html_twin(md)
        h.write_text(page_html(page, md, twins, _relpath(css.resolve(), h.resolve().parent)))
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
