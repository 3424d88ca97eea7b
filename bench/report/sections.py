"""The index's sections as data: ``reports/index.json`` (Markdown is output only).

A build writes ``reports/index.md`` for people. A later build must keep the sections it does not
remake (a ``--paper`` build, or a paper whose runs are not stored here), and ``--verdicts-only``
must keep the build's provenance. Both used to read ``index.md`` back. Now every build also writes
the same sections as data, :class:`IndexSections`, in ``reports/index.json``: each section is page
blocks (:mod:`bench.report.page`: a heading and its bullets), composed by the build and stored in
their JSON form (:func:`bench.report.page.to_json`). Later builds read that file, and
:meth:`IndexSections.blocks` gives the provenance part of ``index.md`` and of its HTML view, rendered
by :func:`bench.report.page.to_markdown` and :mod:`bench.report.html`; no text is parsed back.
Sections are keyed by paper key and by experiment name, never by a heading parsed out of text.

The build-time stamps in it ("Generated <time> on <host> ... at commit <sha>", "built: ...") are
masked by the from-evidence check like those of the Markdown files
(:data:`bench.report.evidence.BUILD_STAMP`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from . import page as P

FILE = "index.json"
PAPERS_HEADING = "Papers"
PERF_HEADING = "Speed (make bench-perf)"
EXPERIMENTS_HEADING = "Stored experiments"


# ---------------------------------------------------------------- one section: a heading and its bullets
def section(title, items: list) -> list:
    """A section of the index: its heading (level 3, ``title`` as inlines) and its bullet ``items``
    (:class:`bench.report.page.Item`, nested through their children)."""
    return [P.Heading(3, title), *([P.Bullets(list(items))] if items else [])]


def parts(blocks: list) -> tuple[tuple, list]:
    """(the heading's inlines, the top-level bullet items) of a :func:`section`."""
    if not blocks or not isinstance(blocks[0], P.Heading):
        raise ValueError(f"an index section starts with its heading, not {blocks[:1]!r}")
    items: list = []
    for b in blocks[1:]:
        if not isinstance(b, P.Bullets):
            raise ValueError(f"an index section ({P.plain(blocks[0].content)}) holds bullets only, not {b!r}")
        items += b.items
    return blocks[0].content, items


def has_role(item, roles: str | tuple[str, ...]) -> bool:
    """Whether a bullet item's role (:attr:`bench.report.page.Item.role`) is one of ``roles``."""
    return item.role in ((roles,) if isinstance(roles, str) else roles)


@dataclass
class IndexSections:
    """The provenance part of ``index.md`` as data: sections are lists of page blocks."""

    generated: str = ""                       #: the build's "Generated ... at commit ..." line
    scale: str | None = None                  #: the scale the build was asked for
    intro: list = field(default_factory=list)     #: blocks between "Generated" and the papers
    papers: dict[str, list] = field(default_factory=dict)       #: paper key -> section blocks
    perf: list | None = None                  #: the speed section (without its heading)
    experiments: dict[str, list] = field(default_factory=dict)  #: experiment -> section blocks

    def blocks(self) -> list:
        """The provenance part of index.md: the Generated line, the intro, the papers (in the order
        recorded), the speed section, the experiments (by name)."""
        out = [P.Para(self.generated), *self.intro, P.Heading(2, PAPERS_HEADING)]
        for block in self.papers.values():
            out += block
        if self.perf is not None:
            out += [P.Heading(2, PERF_HEADING), *self.perf]
        out.append(P.Heading(2, EXPERIMENTS_HEADING))
        for name in sorted(self.experiments):
            out += self.experiments[name]
        return out

    def to_json(self) -> str:
        def blocks(bs):
            return [P.to_json(b) for b in bs]

        doc = {"generated": self.generated, "scale": self.scale, "intro": blocks(self.intro),
               "papers": {k: blocks(v) for k, v in self.papers.items()},
               "perf": None if self.perf is None else blocks(self.perf),
               "experiments": {k: blocks(v) for k, v in sorted(self.experiments.items())}}
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"

    def write(self, root: Path) -> Path:
        path = Path(root) / FILE
        path.write_text(self.to_json())
        return path

    @classmethod
    def read(cls, root: Path) -> "IndexSections | None":
        """The sections of the build that wrote ``root``, or None when no build has written them."""
        path = Path(root) / FILE
        if not path.exists():
            return None
        doc = json.loads(path.read_text())

        def blocks(bs, what):
            if any(isinstance(b, str) for b in bs):
                raise ValueError(f"{path}: {what} is recorded as Markdown lines, the form written before the "
                                 f"sections became page blocks; remove {path} (the next build writes it anew, "
                                 f"without the sections it does not remake) or rebuild it with this bench")
            try:
                return [P.from_json(b) for b in bs]
            except ValueError as exc:
                raise ValueError(f"{path}: {what}: {exc}") from None

        perf = doc.get("perf")
        return cls(generated=doc.get("generated", ""), scale=doc.get("scale"),
                   intro=blocks(doc.get("intro", []), "the intro"),
                   papers={k: blocks(v, f"paper {k}") for k, v in doc.get("papers", {}).items()},
                   perf=None if perf is None else blocks(perf, "the speed section"),
                   experiments={k: blocks(v, f"experiment {k}") for k, v in doc.get("experiments", {}).items()})
