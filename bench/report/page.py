"""The pages of reports/ as data: a small block model, rendered to Markdown here and to HTML by
:mod:`bench.report.html` (Markdown, TeX and HTML are outputs only, never inputs).

A page (:class:`Page`) is a list of blocks: :class:`Heading`, :class:`Para`, :class:`Bullets`
(nested :class:`Item`), :class:`Table` and :class:`Figure`. Their text is a list of inlines:
plain strings (:class:`Text`; a ``str`` stands for one), :class:`Code`, :class:`Strong`,
:class:`Em` and :class:`Link`. The builders of the pages (:mod:`bench.report.paper_pages`,
:mod:`bench.report.verdicts`, :mod:`bench.report.keyfig`) make blocks; :func:`to_markdown` writes
the ``.md`` page and :func:`bench.report.html.page_html` its HTML twin from the same blocks, so
neither is ever parsed back.

Text is written into Markdown as it is (a claim's TeX between dollars included: the HTML renderer
shows it as text, :func:`bench.report.html.tex_to_html`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union


# ---------------------------------------------------------------- inlines
@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Strong:
    content: tuple


@dataclass(frozen=True)
class Em:
    content: tuple


@dataclass(frozen=True)
class Link:
    content: tuple
    href: str


def inlines(*parts) -> tuple:
    """A tuple of inlines from ``parts`` (strings become :class:`Text`; a list or tuple is spliced;
    empty strings are left out)."""
    out: list = []
    for p in parts:
        if isinstance(p, (list, tuple)):
            out += inlines(*p)
        elif isinstance(p, str):
            if p:
                out.append(Text(p))
        elif p is not None:
            out.append(p)
    return tuple(out)


#: a span the paper set in italics, as the published claims write it (``*Level*``): no space inside its stars
_EMPHASIS = re.compile(r"\*([^*\s][^*]*?[^*\s]|[^*\s])\*")


def quoted(text: str) -> tuple:
    """A paper's sentence as inlines: its italics, written ``*...*`` in the published claims
    (``bench/published/claims.csv``), as :class:`Em` (Markdown writes them back as they were; the
    HTML view shows them in italics, not with their stars)."""
    out: list = []
    at = 0
    for m in _EMPHASIS.finditer(text):
        out += [text[at:m.start()], em(m.group(1))]
        at = m.end()
    return inlines(*out, text[at:])


def link(text, href: str) -> Link:
    return Link(inlines(text), href)


def strong(*parts) -> Strong:
    return Strong(inlines(*parts))


def em(*parts) -> Em:
    return Em(inlines(*parts))


def join(parts, sep) -> tuple:
    """The inlines of ``parts`` with ``sep`` (a string) between them."""
    out: list = []
    for k, p in enumerate(parts):
        if k:
            out.append(Text(sep))
        out += inlines(p)
    return tuple(out)


def plain(content) -> str:
    """The text of inlines without any markup (a page's title)."""
    out = []
    for x in inlines(content):
        if isinstance(x, (Text, Code)):
            out.append(x.text)
        else:
            out.append(plain(x.content))
    return "".join(out)


# ---------------------------------------------------------------- blocks
@dataclass
class Heading:
    level: int
    content: tuple

    def __post_init__(self):
        self.content = inlines(self.content)


@dataclass
class Para:
    content: tuple

    def __post_init__(self):
        self.content = inlines(self.content)


@dataclass
class Item:
    """A bullet item; ``role`` names what the item is for a reader of the data (``"built"``,
    ``"kept"``, ``"page"``, ``"tables"``, ``"figures"``, ``"missing"``), so that a later build finds
    an item by its role, never by its text."""

    content: tuple
    children: list["Item"] = field(default_factory=list)
    role: str = ""

    def __post_init__(self):
        self.content = inlines(self.content)


@dataclass
class Bullets:
    items: list[Item]


@dataclass
class Table:
    """A table of inline cells; ``kind`` ``"verdicts"`` is a verdict table (the HTML view lays it out
    with fixed column widths, :data:`bench.report.html.VERDICT_COLUMNS`)."""

    header: list[str]
    rows: list[list[tuple]]
    kind: str = ""
    #: the table's Markdown when its writer lays it out itself (:func:`bench.report.tables.table_block`:
    #: padded columns, a wide table in parts); else the rows in plain pipe-table form
    markdown: str = ""

    def __post_init__(self):
        self.rows = [[inlines(c) for c in r] for r in self.rows]


@dataclass
class Figure:
    """An image on a line of its own with its caption; ``src`` relative to the page."""

    src: str
    alt: str
    caption: tuple = ()

    def __post_init__(self):
        self.caption = inlines(self.caption)


Block = Union[Heading, Para, Bullets, Table, Figure]


@dataclass
class Page:
    blocks: list = field(default_factory=list)

    @property
    def title(self) -> str:
        return next((plain(b.content) for b in self.blocks if isinstance(b, Heading)), "")

    def add(self, *blocks) -> "Page":
        self.blocks += [b for b in blocks if b is not None]
        return self


# ---------------------------------------------------------------- Markdown
def md_inlines(content) -> str:
    out = []
    for x in inlines(content):
        if isinstance(x, Text):
            out.append(x.text)
        elif isinstance(x, Code):
            out.append(f"`{x.text}`")
        elif isinstance(x, Strong):
            out.append(f"**{md_inlines(x.content)}**")
        elif isinstance(x, Em):
            out.append(f"*{md_inlines(x.content)}*")
        elif isinstance(x, Link):
            out.append(f"[{md_inlines(x.content)}]({x.href})")
        else:
            raise TypeError(f"not an inline: {x!r}")
    return "".join(out)


def md_cell(content) -> str:
    """A table cell in Markdown: a ``|`` escaped, a line break a space."""
    return md_inlines(content).replace("|", "\\|").replace("\n", " ").strip()


def md_block(block) -> str:
    if isinstance(block, Heading):
        return "#" * block.level + " " + md_inlines(block.content)
    if isinstance(block, Para):
        return md_inlines(block.content)
    if isinstance(block, Bullets):
        lines: list[str] = []

        def walk(items, depth):
            for it in items:
                lines.append("  " * depth + "- " + md_inlines(it.content))
                walk(it.children, depth + 1)

        walk(block.items, 0)
        return "\n".join(lines)
    if isinstance(block, Table):
        if block.markdown:
            return block.markdown.rstrip("\n")
        lines = ["| " + " | ".join(block.header) + " |", "|" + "|".join("---" for _ in block.header) + "|"]
        lines += ["| " + " | ".join(md_cell(c) for c in r) + " |" for r in block.rows]
        return "\n".join(lines)
    if isinstance(block, Figure):
        out = f"![{block.alt}]({block.src})"
        return out + (f"\n\n*{md_inlines(block.caption)}*" if block.caption else "")
    raise TypeError(f"not a block: {block!r}")


def to_markdown(page: Page | list) -> str:
    """The page in Markdown: its blocks one blank line apart, ending with a newline."""
    blocks = page.blocks if isinstance(page, Page) else page
    return "\n\n".join(md_block(b) for b in blocks) + "\n"


# ---------------------------------------------------------------- JSON (blocks stored as data: reports/index.json)
def inlines_to_json(content) -> list:
    """Inlines as JSON values: a string for text, ``{"code": s}``, ``{"strong": [...]}``,
    ``{"em": [...]}``, ``{"link": [...], "href": s}``."""
    out: list = []
    for x in inlines(content):
        if isinstance(x, Text):
            out.append(x.text)
        elif isinstance(x, Code):
            out.append({"code": x.text})
        elif isinstance(x, Strong):
            out.append({"strong": inlines_to_json(x.content)})
        elif isinstance(x, Em):
            out.append({"em": inlines_to_json(x.content)})
        elif isinstance(x, Link):
            out.append({"link": inlines_to_json(x.content), "href": x.href})
        else:
            raise TypeError(f"not an inline: {x!r}")
    return out


def inlines_from_json(doc) -> tuple:
    """The inlines of :func:`inlines_to_json`'s form."""
    if not isinstance(doc, list):
        raise ValueError(f"inlines must be a JSON list, not {doc!r}")
    out: list = []
    for x in doc:
        if isinstance(x, str):
            out.append(Text(x))
        elif isinstance(x, dict) and set(x) == {"code"} and isinstance(x["code"], str):
            out.append(Code(x["code"]))
        elif isinstance(x, dict) and set(x) == {"strong"}:
            out.append(Strong(inlines_from_json(x["strong"])))
        elif isinstance(x, dict) and set(x) == {"em"}:
            out.append(Em(inlines_from_json(x["em"])))
        elif isinstance(x, dict) and set(x) == {"link", "href"} and isinstance(x["href"], str):
            out.append(Link(inlines_from_json(x["link"]), x["href"]))
        else:
            raise ValueError(f"not an inline: {x!r} (a string, or one of code, strong, em, link+href)")
    return tuple(out)


def _item_to_json(item: Item) -> dict:
    doc = {"item": inlines_to_json(item.content)}
    if item.children:
        doc["children"] = [_item_to_json(c) for c in item.children]
    if item.role:
        doc["role"] = item.role
    return doc


def _item_from_json(doc) -> Item:
    if not isinstance(doc, dict) or "item" not in doc or not set(doc) <= {"item", "children", "role"}:
        raise ValueError(f"not a bullet item: {doc!r} (expected item, and children and role)")
    return Item(inlines_from_json(doc["item"]), [_item_from_json(c) for c in doc.get("children", [])],
                str(doc.get("role", "")))


def to_json(block) -> dict:
    """A block as a JSON object, one key naming its kind (:func:`from_json` reads it back)."""
    if isinstance(block, Heading):
        return {"heading": block.level, "content": inlines_to_json(block.content)}
    if isinstance(block, Para):
        return {"para": inlines_to_json(block.content)}
    if isinstance(block, Bullets):
        return {"bullets": [_item_to_json(it) for it in block.items]}
    if isinstance(block, Table):
        return {"table": {"header": list(block.header), "rows": [[inlines_to_json(c) for c in r] for r in block.rows],
                          "kind": block.kind, "markdown": block.markdown}}
    if isinstance(block, Figure):
        return {"figure": {"src": block.src, "alt": block.alt, "caption": inlines_to_json(block.caption)}}
    raise TypeError(f"not a block: {block!r}")


def from_json(doc) -> Block:
    """The block of :func:`to_json`'s form; a ValueError names what is not one."""
    if isinstance(doc, dict):
        if set(doc) == {"heading", "content"} and isinstance(doc["heading"], int):
            return Heading(doc["heading"], inlines_from_json(doc["content"]))
        if set(doc) == {"para"}:
            return Para(inlines_from_json(doc["para"]))
        if set(doc) == {"bullets"} and isinstance(doc["bullets"], list):
            return Bullets([_item_from_json(it) for it in doc["bullets"]])
        if set(doc) == {"table"} and isinstance(doc["table"], dict):
            t = doc["table"]
            return Table(list(t["header"]), [[inlines_from_json(c) for c in r] for r in t["rows"]],
                         t.get("kind", ""), t.get("markdown", ""))
        if set(doc) == {"figure"} and isinstance(doc["figure"], dict):
            f = doc["figure"]
            return Figure(f["src"], f["alt"], inlines_from_json(f.get("caption", [])))
    raise ValueError(f"not a block: {str(doc)[:200]} (expected one of heading+content, para, bullets, table, "
                     f"figure)")
