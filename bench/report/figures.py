"""Figures of the reports (matplotlib, Agg backend), each written as PNG and PDF.

* :func:`normalised_bars` - the A2DE paper's figures: a measure averaged over datasets after
  dividing by a baseline learner's value on each dataset, per collection of datasets, with
  standard-error bars, bars in legend order;
* :func:`cd_diagram` - Demsar's critical-difference diagram of average ranks;
* :func:`scatter_vs` - one learner against another per dataset (ESKDB paper Figs 3-5, 8);
* :func:`lines` - a measure against a parameter or a list of learners (ESKDB paper Figs 1, 6).

Every figure of the reports is written by :func:`save`, the one figure saver: PNG, PDF and a
caption file ``<stem>.caption.md`` (:class:`Caption`: what is plotted, the data, the protocol,
the scale and the number of stored records it rests on), and records the figure and its caption as
data in the folder's contents (:mod:`bench.report.contents`), which the pages list. Legends and axis labels use the papers'
algorithm names (:mod:`bench.report.labels`), never config names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..stats.spread import standard_error  # noqa: E402
from . import contents  # noqa: E402

DPI = 150


@dataclass
class Caption:
    """What a figure shows, written beside it as ``<stem>.caption.md`` by :func:`save`.

    ``what``: what is plotted (axes, marks, what a line or bar is); ``data``: the datasets (or
    dataset) and experiment; ``protocol`` and ``scale``: of the runs plotted; ``records``: the
    number of stored records (splits) behind it (None when it is not drawn from stored runs);
    ``notes``: anything else a reader needs (stand-ins, published reference values).
    """

    what: str
    data: str = ""
    protocol: str = ""
    scale: str = ""
    records: int | None = None
    notes: str = ""

    @classmethod
    def of_plan(cls, what: str, plan: dict | None, records=None, data: str = "", notes: str = "") -> "Caption":
        """A caption whose protocol and scale come from an experiment's run plan; ``records`` is a
        count or a DataFrame of the records plotted (its length is used, and the protocols its
        records name win over the plan's)."""
        plan = plan or {}
        n = len(records) if isinstance(records, pd.DataFrame) else records
        protocol = str(plan.get("protocol") or "")
        if isinstance(records, pd.DataFrame) and "protocol" in records and records["protocol"].notna().any():
            protocol = ", ".join(sorted(records["protocol"].dropna().astype(str).unique()))
        exp = plan.get("experiment")
        return cls(what, data or (f"experiment {exp}" if exp else ""), protocol,
                   str(plan.get("scale") or ""), None if n is None else int(n), notes)

    def fields(self) -> dict:
        """The caption as data (recorded in the folder's contents, :mod:`bench.report.contents`)."""
        return {"what": self.what, "data": self.data, "protocol": self.protocol, "scale": self.scale,
                "records": self.records, "notes": self.notes}

    def markdown(self, name: str) -> str:
        rows = [f"**{name}**: {self.what.strip()}", ""]
        rows.append(f"- data: {self.data or 'not stated'}")
        rows.append(f"- protocol: {self.protocol or 'not stated'}")
        rows.append(f"- scale: {self.scale or 'not stated'}")
        rows.append("- records: " + ("not drawn from stored runs" if self.records is None
                                     else f"{self.records} stored records (splits)"))
        if self.notes:
            rows.append(f"- notes: {self.notes.strip()}")
        return "\n".join(rows) + "\n"


def caption_path(stem: Path) -> Path:
    """``<stem>.caption.md``."""
    stem = Path(stem)
    return stem.with_name(stem.name + ".caption.md")


def save(fig, stem: Path, caption: Caption) -> list[Path]:
    """Write ``<stem>.png``, ``<stem>.pdf`` and ``<stem>.caption.md`` and close the figure; the
    one figure saver of the reports (a figure without a caption is an error)."""
    if not isinstance(caption, Caption):
        plt.close(fig)
        raise TypeError(f"save({Path(stem).name}): caption must be a bench.report.figures.Caption "
                        f"(what is plotted, data, protocol, scale, records), got {type(caption).__name__}")
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(".png"), stem.with_suffix(".pdf"), caption_path(stem)]
    fig.savefig(paths[0], dpi=DPI, bbox_inches="tight")
    fig.savefig(paths[1], bbox_inches="tight", metadata={"CreationDate": None})
    plt.close(fig)
    paths[2].write_text(caption.markdown(stem.name))
    contents.record(stem.parent, "figure", stem.name, paths, caption.fields())
    return paths


def _need(caption: Caption | None, stem: Path) -> Caption:
    if caption is None:
        raise TypeError(f"figure {Path(stem).name}: a Caption is required (what, data, protocol, scale, records)")
    return caption


def normalised_summary(values: pd.DataFrame, baseline: str, algos: list[str],
                       groups: dict[str, list[str] | None]) -> pd.DataFrame:
    """Mean and standard error over datasets of value / baseline value, per (group, algo).

    Datasets where the baseline value is 0 (the ratio is undefined) or either value is missing
    are left out; ``n`` says how many datasets each mean covers.
    """
    rows = []
    for g, members in groups.items():
        sub = values if members is None else values.loc[values.index.intersection(members)]
        for a in algos:
            if a not in sub.columns or baseline not in sub.columns:
                rows.append({"group": g, "algo": a, "mean": np.nan, "se": np.nan, "n": 0})
                continue
            base = sub[baseline].astype(float)
            r = (sub[a].astype(float) / base)[(base != 0) & base.notna() & sub[a].notna()]
            n = int(r.size)
            se = standard_error(r, single=0.0)  # 0 for one dataset, NaN for none
            rows.append({"group": g, "algo": a, "mean": float(r.mean()) if n else np.nan, "se": se, "n": n})
    return pd.DataFrame(rows)


def normalised_bars(panels: list[tuple[str, pd.DataFrame]], baseline: str, algos: list[str],
                    groups: dict[str, list[str] | None], stem: Path, ylabel: str, title: str = "",
                    labels: dict[str, str] | None = None,
                    caption: Caption | None = None) -> tuple[list[Path], pd.DataFrame]:
    """Grouped bars of value / baseline (one panel per measure, one group per dataset collection,
    one bar per learner in legend order) with standard-error bars; a dashed line at 1 marks the
    baseline. Returns the written paths and the plotted numbers. ``caption`` (required) says
    what, data, protocol, scale and records; the number of datasets per group is added to it."""
    labels = labels or {}
    summaries = []
    panel_width = max(4.0, 1.0 + 0.24 * len(algos) * len(groups))
    # side by side while the row stays legible at page width; wide panels are stacked instead
    stacked = len(panels) > 1 and panel_width * len(panels) > 10.0
    shape = (len(panels), 1) if stacked else (1, len(panels))
    figsize = (panel_width, 4.2 * len(panels)) if stacked else (panel_width * len(panels), 4.2)
    fig, axes = plt.subplots(*shape, figsize=figsize, squeeze=False)
    cmap = plt.get_cmap("tab10" if len(algos) <= 10 else "tab20")
    for ax, (ptitle, values) in zip(axes.flat, panels):
        s = normalised_summary(values, baseline, algos, groups)
        s.insert(0, "panel", ptitle)
        summaries.append(s)
        width = 0.8 / max(len(algos), 1)
        x = np.arange(len(groups))
        for i, a in enumerate(algos):
            part = s[s["algo"] == a].set_index("group").reindex(list(groups))
            ax.bar(x - 0.4 + width * (i + 0.5), part["mean"].to_numpy(), width, yerr=part["se"].to_numpy(),
                   capsize=2, color=cmap(i % cmap.N), label=labels.get(a, a), error_kw={"elinewidth": 0.8})
        ax.axhline(1.0, color="black", linestyle="--", linewidth=0.8)
        ax.set_xticks(x)
        ax.set_xticklabels([f"{g}\n(n={int(s[(s['group'] == g)]['n'].max() or 0)})" for g in groups])
        if len(panels) > 1 or not title:
            ax.set_title(ptitle)
        ax.set_ylabel(ylabel)
        finite = s["mean"].replace([np.inf, -np.inf], np.nan).dropna()
        if not finite.empty:
            top = float((finite + s.loc[finite.index, "se"].fillna(0)).max())
            ax.set_ylim(0, max(1.1, top * 1.08))
        ax.grid(axis="y", alpha=0.3)
    handles, labs = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labs, loc="upper center", ncol=min(len(algos), 5), bbox_to_anchor=(0.5, 0.0),
               frameon=False)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    summary = pd.concat(summaries, ignore_index=True)
    cap = _need(caption, stem)
    per_group = ", ".join(f"{g} {int(summary.loc[summary['group'] == g, 'n'].max() or 0)}" for g in groups)
    cap = Caption(cap.what, cap.data, cap.protocol, cap.scale, cap.records,
                  (cap.notes + " " if cap.notes else "") + f"Datasets per group (n): {per_group}.")
    return save(fig, stem, cap), summary


def cd_diagram(average_ranks: dict[str, float], cd: float, n_datasets: int, stem: Path, title: str = "",
               cliques: list[tuple[int, ...]] | None = None, caption: Caption | None = None) -> list[Path]:
    """Demsar's critical-difference diagram: the rank axis (1 = best, on the left), each learner
    joined to its average rank, thick bars over groups not significantly different, and the CD."""
    from ..stats.ranks import nemenyi_cliques

    names = list(average_ranks)
    r = np.array([average_ranks[n] for n in names], dtype=float)
    k = len(names)
    cliques = nemenyi_cliques(r, cd) if cliques is None else cliques
    lo, hi = 1, k
    order = np.argsort(r, kind="stable")
    half = (k + 1) // 2
    left, right = order[:half], order[half:][::-1]
    clique_y = [-0.22 - 0.16 * i for i in range(len(cliques))]
    base = min(clique_y, default=-0.1) - 0.35
    step = 0.32
    bottom = base - step * (max(len(left), len(right)) - 1) - 0.3
    fig, ax = plt.subplots(figsize=(7.5, 0.62 * (1.5 - bottom)))
    ax.set_xlim(lo - 0.6 - 0.12 * k, hi + 0.6 + 0.12 * k)
    ax.set_ylim(bottom, 1.5)
    ax.axis("off")
    ax.hlines(0, lo, hi, color="black", linewidth=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, 0, 0.1, color="black", linewidth=1)
        ax.text(t, 0.16, str(t), ha="center", va="bottom", fontsize=9)
    # critical difference bar, from rank 1
    ax.hlines(1.0, lo, lo + cd, color="black", linewidth=1.5)
    ax.vlines([lo, lo + cd], 0.93, 1.07, color="black", linewidth=1)
    ax.text(lo + cd / 2, 1.1, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    for j, i in enumerate(left):
        y = base - step * j
        ax.plot([r[i], r[i], lo - 0.25], [0, y, y], color="black", linewidth=0.8)
        ax.text(lo - 0.3, y, f"{names[i]} ({r[i]:.2f})", ha="right", va="center", fontsize=9)
    for j, i in enumerate(right):
        y = base - step * j
        ax.plot([r[i], r[i], hi + 0.25], [0, y, y], color="black", linewidth=0.8)
        ax.text(hi + 0.3, y, f"({r[i]:.2f}) {names[i]}", ha="left", va="center", fontsize=9)
    for y, g in zip(clique_y, cliques):
        ax.hlines(y, r[list(g)].min() - 0.03, r[list(g)].max() + 0.03, color="black", linewidth=3)
    ax.set_title((title + "\n" if title else "") + f"Nemenyi test, {n_datasets} datasets, {k} learners",
                 fontsize=10)
    return save(fig, stem, _need(caption, stem))


def scatter_vs(x: pd.Series, y: pd.Series, xlabel: str, ylabel: str, stem: Path, title: str = "",
               note: str = "", ax=None, caption: Caption | None = None) -> list[Path]:
    """Per-dataset scatter of two learners with the diagonal; points above it favour x when lower is
    better (the ESKDB paper: "wins above the diagonal"). The axes are square with equal limits
    (the same range on x and y, from the values of both), so the diagonal is at 45 degrees."""
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(4.6, 4.6))
    both = pd.concat([x.rename("x"), y.rename("y")], axis=1).dropna()
    if both.empty:
        lim = [0.0, 1.0]
    else:
        lo, hi = float(np.nanmin(both.to_numpy())), float(np.nanmax(both.to_numpy()))
        pad = 0.05 * (hi - lo) if hi > lo else 0.05 * max(abs(hi), 1e-3)
        lim = [max(0.0, lo - pad), hi + pad]
    ax.plot(lim, lim, color="grey", linestyle="--", linewidth=0.8)
    ax.scatter(both["x"], both["y"], s=16, alpha=0.8)
    ax.set_xlim(lim)
    ax.set_ylim(lim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=10)
    ax.set_aspect("equal")
    ax.set_box_aspect(1)
    ax.grid(alpha=0.3)
    if own:
        return save(fig, stem, _need(caption, stem))
    return []


def lines(series: dict[str, pd.Series], xlabel: str, ylabel: str, stem: Path, title: str = "",
          styles: dict[str, dict] | None = None, yerr: dict[str, pd.Series] | None = None,
          caption: Caption | None = None) -> list[Path]:
    """One line per series over a shared x (numbers or learner names), with optional error bars."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for name, s in series.items():
        st = (styles or {}).get(name, {})
        named = not pd.api.types.is_numeric_dtype(s.index)     # learner names (object or str dtype)
        x = list(range(len(s))) if named else s.index.to_numpy()
        err = (yerr or {}).get(name)
        ax.errorbar(x, s.to_numpy(dtype=float), yerr=None if err is None else err.reindex(s.index).to_numpy(),
                    marker=st.get("marker", "o"), linestyle=st.get("linestyle", "-"), color=st.get("color"),
                    label=name, capsize=2)
        if named:
            ax.set_xticks(x)
            ax.set_xticklabels(list(s.index), rotation=30, ha="right")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    fig.tight_layout()
    return save(fig, stem, _need(caption, stem))
