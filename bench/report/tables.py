"""Writing one table in the three formats every report uses."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd


def to_markdown(df: pd.DataFrame, index: bool = True) -> str:
    frame = df.reset_index() if index else df
    cols = [str(c) for c in frame.columns]
    rows = [["" if (isinstance(v, float) and pd.isna(v)) else str(v) for v in r]
            for r in frame.itertuples(index=False)]
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    out = [line(cols), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out) + "\n"


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


def write_table(df: pd.DataFrame, path_stem: Path, caption: str = "", index: bool = True) -> list[Path]:
    """Write ``<stem>.md``, ``<stem>.tex`` and ``<stem>.csv``; return their paths."""
    path_stem.parent.mkdir(parents=True, exist_ok=True)
    md = path_stem.with_suffix(".md")
    md.write_text((f"{caption}\n\n" if caption else "") + to_markdown(df, index=index))
    tex = path_stem.with_suffix(".tex")
    tex.write_text(to_latex(df, caption, index=index))
    csv = path_stem.with_suffix(".csv")
    df.to_csv(csv, index=index)
    return [md, tex, csv]
