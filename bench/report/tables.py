"""Writing one table in the three formats every report uses."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..measures import ACCURACY, MEASURES, TIMES
from ..stats.spread import standard_error
from .labels import variant_labels


#: at most this many columns in one Markdown table (a wider table is split into parts, each
#: repeating the key columns; the CSV and LaTeX files keep the whole table)
MAX_MD_COLUMNS = 9


def _md_table(cols: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return [line(cols), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows]


def to_markdown(df: pd.DataFrame, index: bool = True, max_columns: int = MAX_MD_COLUMNS,
                key_columns: int | None = None) -> str:
    """A Markdown table; one wider than ``max_columns`` is split into parts of at most
    ``max_columns`` columns, each repeating the key columns (the first ``key_columns``; by
    default the index levels, or the first column with ``index=False``) so that every part reads
    on its own."""
    frame = df.reset_index() if index else df
    cols = [str(c) for c in frame.columns]
    rows = [["" if (isinstance(v, float) and pd.isna(v)) else str(v) for v in r]
            for r in frame.itertuples(index=False)]
    if len(cols) <= max_columns:
        return "\n".join(_md_table(cols, rows)) + "\n"
    out: list[str] = []
    for line, pick in column_parts(cols, df.index.nlevels if index else 1, max_columns, key_columns):
        if out:
            out.append("")
        out.append(line)
        out.append("")
        out += _md_table([cols[i] for i in pick], [[r[i] for i in pick] for r in rows])
    return "\n".join(out) + "\n"


def column_parts(cols: list[str], default_keys: int, max_columns: int = MAX_MD_COLUMNS,
                 key_columns: int | None = None) -> list[tuple[str, list[int]]]:
    """How a table of ``cols`` wider than ``max_columns`` is split: (the part's line, its column
    indices), each part repeating the key columns; one part ("", all columns) when it fits."""
    if len(cols) <= max_columns:
        return [("", list(range(len(cols))))]
    n_keys = key_columns if key_columns is not None else default_keys
    n_keys = max(1, min(n_keys, max_columns - 1))
    rest = list(range(n_keys, len(cols)))
    n_parts = -(-len(rest) // (max_columns - n_keys))
    step = -(-len(rest) // n_parts)                    # balanced parts: 9 columns give 5 + 4, not 8 + 1
    chunks = [rest[i:i + step] for i in range(0, len(rest), step)]
    return [(f"Part {k} of {len(chunks)}: columns {chunk[0] + 1}-{chunk[-1] + 1} of {len(cols)} "
             f"(with {', '.join(cols[:n_keys])})", list(range(n_keys)) + chunk) for k, chunk in enumerate(chunks, 1)]


def table_view(df: pd.DataFrame, stem: str, caption: str = "", index: bool = True,
               key_columns: int | None = None, files: tuple[str, ...] = ()):
    """The HTML view of a table (a :class:`bench.report.page.Page`): its caption, then the table as
    its Markdown lays it out (a wide one in parts, each repeating the key columns), and links to
    ``files`` (the table's CSV and TeX)."""
    from . import page as P

    frame = df.reset_index() if index else df
    cols = [str(c) for c in frame.columns]

    def cell(v):
        text = "" if (isinstance(v, float) and pd.isna(v)) else str(v)
        m = re.fullmatch(r"\*\*(.+)\*\*", text)
        return P.strong(m.group(1)) if m else text

    rows = [[cell(v) for v in r] for r in frame.itertuples(index=False)]
    page = P.Page([P.Heading(1, stem.replace("_", " "))])
    if caption:
        page.add(P.Para(caption))
    for line, pick in column_parts(cols, df.index.nlevels if index else 1, MAX_MD_COLUMNS, key_columns):
        if line:
            page.add(P.Para(line))
        # kind "view": long words wrap anywhere (a column named MassBayes[psi=100000] must not widen the page)
        page.add(P.Table([cols[i] for i in pick], [[r[i] for i in pick] for r in rows], kind="view"))
    if files:
        page.add(P.Para(("The whole table as ",) + P.join([P.link(Path(f).suffix[1:].upper(), f) for f in files],
                                                           " and ") + (".",)))
    return page


_BOLD = re.compile(r"\*\*(.+?)\*\*")


def latex_escape(s) -> str:
    """Escape LaTeX specials; Markdown bold (``**x**``) becomes ``\\textbf{x}``, ± becomes ``$\\pm$``."""
    out = str(s)
    for a, b in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("%", r"\%"), ("&", r"\&"), ("#", r"\#"),
                 ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        out = out.replace(a, b)
    out = out.replace("–", "--").replace("±", r"$\pm$").replace("≤", r"$\le$").replace("≥", r"$\ge$")
    return _BOLD.sub(lambda m: r"\textbf{" + m.group(1) + "}", out)


def to_latex(df: pd.DataFrame, caption: str = "", index: bool = True) -> str:
    frame = df.reset_index() if index else df
    esc = latex_escape
    cols = "l" + "r" * (len(frame.columns) - 1)
    lines = [r"\begin{table}[ht]", r"\centering", rf"\begin{{tabular}}{{{cols}}}", r"\hline",
             " & ".join(esc(c) for c in frame.columns) + r" \\", r"\hline"]
    for r in frame.itertuples(index=False):
        lines.append(" & ".join("" if (isinstance(v, float) and pd.isna(v)) else esc(v) for v in r) + r" \\")
    lines += [r"\hline", r"\end{tabular}"]
    if caption:
        lines.append(rf"\caption{{{esc(caption)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def shown(df: pd.DataFrame, labels: dict[str, str] | None) -> pd.DataFrame:
    """``df`` as a reader sees it: column names, index entries and cells that are exactly a key of
    ``labels`` (config names) replaced by its value (the paper's name); nothing else changes."""
    if not labels:
        return df
    get = lambda v: labels.get(v, v) if isinstance(v, str) else v  # noqa: E731
    out = df.rename(columns=get).rename(index=get)
    for c in out.columns:
        if not pd.api.types.is_numeric_dtype(out[c]):
            out[c] = out[c].map(get)
    return out


def table_block(df: pd.DataFrame, index: bool = True, labels: dict[str, str] | None = None):
    """``df`` as a table block of a page (:mod:`bench.report.page`): its Markdown as
    :func:`to_markdown` lays it out, its cells for the HTML view (a cell written ``**x**``, the bold
    that :func:`latex_escape` also knows, is bold)."""
    from . import page as P

    view = shown(df, labels)
    frame = view.reset_index() if index else view
    def cell(v):
        text = "" if (isinstance(v, float) and pd.isna(v)) else str(v)
        m = re.fullmatch(r"\*\*(.+)\*\*", text)
        return P.strong(m.group(1)) if m else text
    return P.Table([str(c) for c in frame.columns], [[cell(v) for v in r] for r in frame.itertuples(index=False)],
                   markdown=to_markdown(view, index=index))


def write_table(df: pd.DataFrame, path_stem: Path, caption: str = "", index: bool = True,
                key_columns: int | None = None, labels: dict[str, str] | None = None) -> list[Path]:
    """Write ``<stem>.md`` (split into parts when wider than :data:`MAX_MD_COLUMNS`, each part
    repeating the first ``key_columns``, see :func:`to_markdown`), ``<stem>.tex`` and ``<stem>.csv``
    (both whole), and ``<stem>.html``, its HTML view (:func:`table_view`); return the first three. ``labels`` (config name -> the paper's name) applies to the
    Markdown and LaTeX files only: the CSV keeps the config names, for programs that read it. The
    table and its caption are recorded in the folder's contents (:mod:`bench.report.contents`), which
    the pages list."""
    from . import contents

    path_stem.parent.mkdir(parents=True, exist_ok=True)
    view = shown(df, labels)
    md = path_stem.with_suffix(".md")
    md.write_text((f"{caption}\n\n" if caption else "") + to_markdown(view, index=index, key_columns=key_columns))
    tex = path_stem.with_suffix(".tex")
    tex.write_text(to_latex(view, caption, index=index))
    csv = path_stem.with_suffix(".csv")
    df.to_csv(csv, index=index)
    # the HTML view the pages link to (style inline: the folder's depth under the reports varies)
    from .html import page_html

    html = path_stem.with_suffix(".html")
    html.write_text(page_html(table_view(view, path_stem.name, caption, index, key_columns, (csv.name, tex.name)),
                              md))
    contents.record(path_stem.parent, "table", path_stem.name, [md, tex, csv], caption)
    return [md, tex, csv]  # the view goes with the Markdown: not a file of the table's own (not in manifests)


def summarise(df: pd.DataFrame, names: dict[str, str] | None = None) -> pd.DataFrame:
    """Mean and standard error over splits per (dataset, algorithm variant, protocol); ``algo`` is
    the config (variant) label, ``learner`` its display name (the paper's, with ``names``)."""
    ok = df[df["status"] == "ok"].copy()
    if ok.empty:
        return pd.DataFrame()
    ok["learner"] = variant_labels(ok, names)
    ok["algo"] = variant_labels(ok)
    rows = []
    for (ds, algo, prot), g in ok.groupby(["dataset", "algo", "protocol"], sort=True):
        row = {"dataset": ds, "algo": algo, "learner": g["learner"].iloc[0], "protocol": prot, "splits": len(g)}
        for m in (*ACCURACY, *TIMES):
            col = MEASURES[m].column
            v = g[col].astype(float).to_numpy() if col in g else np.array([np.nan])
            row[m] = v.mean()
            row[f"{m}_se"] = standard_error(v, single=0.0)
        size = MEASURES["model_bytes"]
        row["model_mb"] = g[size.column].astype(float).mean() / size.divisor if size.column in g else np.nan
        rows.append(row)
    return pd.DataFrame(rows)
