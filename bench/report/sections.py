"""The index's sections as data: ``reports/index.json`` (issue 29: Markdown is output only).

A build writes ``reports/index.md`` for people. A later build must keep the sections it does not
remake (a ``--paper`` build, or a paper whose runs are not stored here), and ``--verdicts-only``
must keep the build's provenance. Both used to read ``index.md`` back. Now every build also writes
the same sections as data, :class:`IndexSections`, in ``reports/index.json``. Later builds read
that file, and :meth:`IndexSections.lines` renders the provenance part of ``index.md`` from it.
Sections are keyed by paper key and by experiment name, never by a heading parsed out of text.

The build-time stamps in it ("Generated <time> on <host> ... at commit <sha>", "built: ...") are
masked by the from-evidence check like those of the Markdown files
(:data:`bench.report.evidence.BUILD_STAMP`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import page as P

FILE = "index.json"
PAPERS_HEADING = "## Papers"
PERF_HEADING = "## Speed (make bench-perf)"
EXPERIMENTS_HEADING = "## Stored experiments"


@dataclass
class IndexSections:
    """The provenance part of ``index.md`` as data."""

    generated: str = ""                       #: the build's "Generated ... at commit ..." line
    scale: str | None = None                  #: the scale the build was asked for
    intro: list[str] = field(default_factory=list)     #: lines between "Generated" and the papers
    papers: dict[str, list[str]] = field(default_factory=dict)       #: paper key -> section lines
    perf: list[str] | None = None             #: the speed section (without its heading)
    experiments: dict[str, list[str]] = field(default_factory=dict)  #: experiment -> section lines

    def lines(self) -> list[str]:
        """The provenance part of index.md: the Generated line, the intro, the papers (in the order
        recorded), the speed section, the experiments (by name)."""
        out = [self.generated, "", *self.intro, PAPERS_HEADING, ""]
        for block in self.papers.values():
            out += block
        if self.perf is not None:
            out += [PERF_HEADING, "", *self.perf]
        out += [EXPERIMENTS_HEADING, ""]
        for name in sorted(self.experiments):
            out += self.experiments[name]
        return out

    def to_json(self) -> str:
        doc = {"generated": self.generated, "scale": self.scale, "intro": self.intro, "papers": self.papers,
               "perf": self.perf, "experiments": dict(sorted(self.experiments.items()))}
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
        return cls(generated=doc.get("generated", ""), scale=doc.get("scale"), intro=doc.get("intro", []),
                   papers=doc.get("papers", {}), perf=doc.get("perf"), experiments=doc.get("experiments", {}))


# ---------------------------------------------------------------- the recorded lines as page blocks
#: the inline forms of the recorded lines: a link ``[text](url)``, code in backticks, bold
_INLINE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)|`([^`]+)`|\*\*(.+?)\*\*")


def _inlines(text: str) -> tuple:
    out, at = [], 0
    for m in _INLINE.finditer(text):
        out.append(text[at:m.start()])
        if m.group(1) is not None:
            out.append(P.link(m.group(1), m.group(2)))
        elif m.group(3) is not None:
            out.append(P.Code(m.group(3)))
        else:
            out.append(P.strong(m.group(4)))
        at = m.end()
    out.append(text[at:])
    return P.inlines(*out)


def blocks_of_lines(lines: list[str]) -> list:
    """The provenance part of index.md (:meth:`IndexSections.lines`) as page blocks, for its HTML
    view. The sections are recorded as the lines the build composed (index.json), in a fixed form:
    a heading (``## ``, ``### ``), a bullet (``- ``, nested by two spaces) or a line of text, with
    links, code and bold inline; this turns that form into blocks, and nothing else reads it."""
    blocks: list = []
    items: list[tuple[int, str]] = []
    para: list[str] = []

    def flush():
        if para:
            blocks.append(P.Para(_inlines(" ".join(para))))
            para.clear()
        if items:
            roots: list = []
            stack: list = []
            for depth, text in items:
                item = P.Item(_inlines(text))
                depth = min(depth, len(stack))
                del stack[depth:]
                (stack[-1].children if stack else roots).append(item)
                stack.append(item)
            blocks.append(P.Bullets(roots))
            items.clear()

    for line in lines:
        s = line.strip()
        bullet = re.match(r"^( *)- (.*)$", line)
        if not s:
            flush()
        elif re.match(r"^#{1,6} ", s):
            flush()
            hashes, text = s.split(" ", 1)
            blocks.append(P.Heading(len(hashes), _inlines(text.strip())))
        elif bullet:
            if para:
                flush()
            items.append((len(bullet.group(1)) // 2, bullet.group(2)))
        else:
            if items:
                flush()
            para.append(s)
    flush()
    return blocks
