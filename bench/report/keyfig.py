"""The key figure of a paper page (``reports/<paper>/key_figure.png``): what a reader should see first.

Two parts, from data the build already holds, never from Markdown:

- a verdict bar: the paper's claims counted by verdict (reproduced / partly / not reproduced / not
  checkable), from the verdicts (:func:`bench.report.verdicts.evaluate_all`);
- published against ours for every numeric cell of the paper's comparison tables, one scatter panel
  per measure kind (the kinds have different scales), with the identity line, log axes where a
  panel's values span two decades or more. The cells are the fact table ``key_cells`` each paper's
  build records (:mod:`bench.report.facts`), never read back from its tables; a cell without our
  number is counted, not drawn.

:func:`write_all` writes every paper's figure (the verdict stage calls it before the pages);
:func:`page_blocks` is the figure block that opens a paper page with it (:mod:`bench.report.page`).
"""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from . import page as P
from .html import KEY_FIGURE

#: the figure's file name in the paper folder
FILE = KEY_FIGURE
#: size: at most WIDTH_IN inches wide at DPI dots per inch (1650 px); the page shows it as wide as
#: its pixels up to the column (about 1300 CSS px, :func:`bench.report.html.display_width`)
WIDTH_IN, DPI = 11.0, 150
#: verdict -> colour of its bar segment (the same hues as the verdict cells of style.css, darker)
COLOURS = {"reproduced": "#4caf50", "partly reproduced": "#f2c744", "not reproduced": "#e05555",
           "not checkable": "#b0b0b0"}
#: a panel is drawn on log axes when its positive values span at least this ratio
LOG_SPAN = 100.0


#: the measure kind of a W/D/L cell: W / (W + L) (the caption says so)
WIN_SHARE = "win share"


def printed(values, digits: int) -> list:
    """Each value rounded as a table prints it (None where it prints nothing): a key cell's number."""
    return [None if v is None or pd.isna(v) else round(float(v), digits) for v in values]


def gather(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """A build's ``key_cells`` fact from its parts (columns ``kind, table, published, ours``): the parts
    in order, the rows without a published number left out."""
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["kind", "table", "published", "ours"])
    return out[out["published"].notna()].reset_index(drop=True)


def cells(root: Path, paper: str) -> pd.DataFrame:
    """Every numeric cell of the paper's comparison tables: the fact table ``key_cells`` of its build
    (``reports/<paper>/facts.json``; columns ``kind, table, published, ours``, ours NaN where we have
    no number), without the cells the paper does not print. Empty when the build recorded none."""
    from .facts import Facts

    df = Facts.of_paper(Path(root), paper).table("key_cells")
    if df is None:
        return pd.DataFrame(columns=["kind", "table", "published", "ours"])
    df = df.astype({"published": float, "ours": float})
    return df[df["published"].notna()].reset_index(drop=True)


def _log_axes(values: np.ndarray) -> bool:
    v = values[np.isfinite(values)]
    return bool(len(v)) and bool((v > 0).all()) and v.max() / v.min() >= LOG_SPAN


def panels(data: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The scatter panels: one per measure kind; a paper whose cells are all of one kind and come from
    2 to :data:`MAX_COLUMNS` tables of at least :data:`SPLIT_MIN` cells each gets one panel per table."""
    kinds = list(dict.fromkeys(data["kind"]))
    tables = list(dict.fromkeys(data["table"]))
    if len(kinds) == 1 and 2 <= len(tables) <= MAX_COLUMNS \
            and all((data["table"] == t).sum() >= SPLIT_MIN for t in tables):
        return [(f"{kinds[0]}: {t}", data[data["table"] == t]) for t in tables]
    out = []
    for k in kinds:
        d = data[data["kind"] == k]
        names = list(dict.fromkeys(d["table"]))
        out.append((f"{k} ({names[0]})" if len(names) == 1 else k, d))
    return out


#: panels per row of the key figure, and the inches of one (square) panel with its labels
MAX_COLUMNS, PANEL_IN = 4, 2.6
#: a table with at least this many cells may have a panel of its own (:func:`panels`)
SPLIT_MIN = 10


#: the grid's left and right margins (inches): the axes' labels, and the room the bar leaves
LEFT_IN, RIGHT_IN = 0.6, 0.15
#: inches per character of the bar's labels (10 pt sans-serif, a wide average) and their side margins
CHAR_IN, LABEL_PAD_IN = 0.085, 0.15


def _bar_label(n: int, verdict: str, seg_in: float) -> str:
    """The label of a verdict bar segment ``seg_in`` inches wide: "<n> <verdict>" when it fits, else the
    count alone when that fits, else none (the bar's title lists every count), so labels never overlap."""
    for label in (f"{n} {verdict}", str(n)):
        if len(label) * CHAR_IN + LABEL_PAD_IN <= seg_in:
            return label
    return ""


def draw(paper: str, counts: dict[str, int], data: pd.DataFrame, path: Path) -> Path:
    """Draw the key figure into ``path`` (PNG): the verdict bar over the scatter panels (:func:`panels`)."""
    from .figures import plt

    parts = panels(data)
    palette = plt.get_cmap("tab10").colors
    colour = {t: palette[i % len(palette)] for i, t in enumerate(dict.fromkeys(data["table"]))}
    ncol = max(1, min(len(parts), MAX_COLUMNS))
    nrow = math.ceil(len(parts) / ncol)
    width = min(WIDTH_IN, max(6.0, 0.6 + PANEL_IN * ncol))
    title = f"{sum(counts.values())} claims: " + "; ".join(f"{n} {k}" for k, n in counts.items())
    title = textwrap.fill(title, int(width * 9.5))
    head_in, bar_in, row_in, foot_in = 0.12 + 0.22 * (title.count("\n") + 1), 0.5, PANEL_IN + 0.75, 0.45
    height = head_in + bar_in + nrow * row_in + foot_in
    fig = plt.figure(figsize=(width, height))
    grid = fig.add_gridspec(1 + nrow, ncol, height_ratios=[bar_in] + [row_in] * nrow, hspace=0.3, wspace=0.32,
                            left=LEFT_IN / width, right=1 - RIGHT_IN / width, top=1 - head_in / height,
                            bottom=foot_in / height)

    bar = fig.add_subplot(grid[0, :])
    total, left = sum(counts.values()), 0
    bar_w = width - LEFT_IN - RIGHT_IN   # the bar's inches
    for verdict, n in counts.items():
        if n:
            bar.barh(0, n, left=left, color=COLOURS[verdict], edgecolor="white")
            label = _bar_label(n, verdict, n / max(total, 1) * bar_w)
            if label:
                bar.text(left + n / 2, 0, label, ha="center", va="center", fontsize=10)
        left += n
    bar.set_xlim(0, max(total, 1))
    bar.set_yticks([])
    bar.set_xticks([])
    for side in bar.spines.values():
        side.set_visible(False)
    bar.set_title(title, fontsize=11, loc="left")

    for i, (title, d) in enumerate(parts):
        ax = fig.add_subplot(grid[1 + i // ncol, i % ncol])
        ax.set_box_aspect(1)
        drawn = d[d["ours"].notna()]
        both = np.concatenate([drawn["published"].to_numpy(float), drawn["ours"].to_numpy(float)])
        for table, g in drawn.groupby("table", sort=False):
            ax.scatter(g["published"], g["ours"], s=14, alpha=0.7, label=table, color=colour[table], lw=0)
        if len(both):
            lo, hi = float(np.nanmin(both)), float(np.nanmax(both))
            if _log_axes(both):
                ax.set_xscale("log")
                ax.set_yscale("log")
                lo, hi = lo / 1.5, hi * 1.5
            else:
                pad = (hi - lo) * 0.06 or abs(hi) * 0.05 or 0.05
                lo, hi = lo - pad, hi + pad
            ax.plot([lo, hi], [lo, hi], color="#555", lw=0.8, ls="--", zorder=0)
            ax.set_xlim(lo, hi)
            ax.set_ylim(lo, hi)
            if drawn["table"].nunique() > 1:
                ax.legend(fontsize=8, loc="upper left", frameon=False, handletextpad=0.2, borderaxespad=0.2)
        absent = len(d) - len(drawn)
        ax.set_title(f"{title}\n{len(drawn)} cells" + (f", {absent} without ours" if absent else ""), fontsize=10)
        ax.set_xlabel("published", fontsize=9)
        ax.set_ylabel("ours", fontsize=9)
        ax.tick_params(labelsize=8)
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return path


def draw_overview(rows: list[tuple[str, dict[str, int]]], path: Path) -> Path:
    """The index's figure: one verdict bar per paper (``rows``: label, counts by verdict)."""
    from .figures import plt

    fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.9 + 0.5 * len(rows)))
    top = max([sum(c.values()) for _, c in rows] + [1])
    for y, (label, counts) in enumerate(rows):
        left = 0
        for verdict, n in counts.items():
            if n:
                ax.barh(y, n, left=left, color=COLOURS[verdict], edgecolor="white")
                ax.text(left + n / 2, y, str(n), ha="center", va="center", fontsize=9)
            left += n
        ax.text(left + top * 0.01, y, f"{left} claims", va="center", fontsize=9, color="#444")
    for verdict, colour in COLOURS.items():   # the legend: every verdict, drawn or not
        ax.barh(0, 0, color=colour, label=verdict)
    ax.legend(ncol=len(COLOURS), loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False, fontsize=9)
    ax.set_yticks(range(len(rows)), [label for label, _ in rows], fontsize=10)
    ax.invert_yaxis()
    ax.set_xlim(0, top * 1.12)
    ax.set_xlabel("claims", fontsize=9)
    ax.tick_params(axis="x", labelsize=8)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.subplots_adjust(left=0.1, right=0.98, top=1 - 0.45 / fig.get_figheight(), bottom=0.45 / fig.get_figheight())
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return path


def write_all(root: Path, verdicts: list, short: dict[str, str] | None = None) -> list[Path]:
    """Each paper's key figure in ``root/<paper>/``, from its tables under ``root`` and its verdicts,
    and the index's (``root/key_figure.png``: every paper's verdict bar, papers named by ``short``)."""
    from ..papers import PAPERS
    from . import verdicts as V

    SHORT = short or {}

    out = [draw_overview([(SHORT.get(p, p), V.counts([v for v in verdicts if v.paper == p])) for p in PAPERS],
                         Path(root) / FILE)]
    for paper in PAPERS:
        d = Path(root) / paper
        d.mkdir(parents=True, exist_ok=True)
        vs = [v for v in verdicts if v.paper == paper]
        out.append(draw(paper, V.counts(vs), cells(root, paper), d / FILE))
    return out


def caption(root: Path, paper: str) -> str:
    data = cells(root, paper)
    names = sorted(dict.fromkeys(data["table"]), key=lambda t: [int(x) if x.isdigit() else x
                                                                for x in re.split(r"(\d+)", t)])
    tables = ", ".join(names) or "none"
    return (f"Key figure. Top: the paper's claims by verdict (the table below gives each one). Below: every "
            f"published number of the paper's tables against ours ({tables}), one panel per measure; "
            f"on the dashed line ours equals the paper's"
            + ("; a win/draw/loss count is drawn as its win share W/(W+L)." if (data["kind"] == WIN_SHARE).any()
               else "."))


def index_blocks(root: Path) -> list:
    """The figure block opening reports/index.md with the verdict bars ([] when not drawn)."""
    if not (Path(root) / FILE).exists():
        return []
    return [P.Figure(FILE, "verdicts by paper",
                     "Every paper's claims by verdict; the table below links each paper's page, which opens with its "
                     "published numbers against ours.")]


def page_blocks(root: Path, paper: str) -> list:
    """The figure block opening a paper page with its key figure ([] when it was not drawn)."""
    if not (Path(root) / paper / FILE).exists():
        return []
    return [P.Figure(FILE, "key figure", caption(root, paper))]
