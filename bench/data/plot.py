"""Scatter plots of a dataset's attributes, to check what a generator or a file holds.

``python -m bench.data plot NAME [--rows 7000] [--out reports/data]`` draws the numeric attributes
that are not constant, two by two (x1 against x2, x3 against x4, ...; at most ``max_panels``
panels), one colour per class, and writes ``<out>/<NAME>.png``, ``.pdf`` and ``.caption.md``. The MassBayes report
uses it to show that its reconstructed synthetic sets look like a ring, a curve and a wave.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .dataset import Dataset


def informative_columns(ds: Dataset) -> list[int]:
    """Numeric attributes with more than one distinct value (NaN aside)."""
    X = ds.X if not hasattr(ds.X, "toarray") else ds.X.toarray()
    cols = []
    for j in range(ds.n_features):
        if ds.categorical[j]:
            continue
        v = X[:, j]
        v = v[~np.isnan(v)]
        if v.size and v.min() < v.max():
            cols.append(j)
    return cols


def plot_dataset(ds: Dataset, stem: Path | str, max_rows: int | None = 7000, max_panels: int = 3,
                 title: str | None = None) -> list[Path]:
    """Write ``stem.png``, ``stem.pdf`` and ``stem.caption.md`` (through the reports' one figure
    saver, :func:`bench.report.figures.save`): the first ``max_rows`` rows, informative numeric
    attributes in pairs. Returns the paths."""
    from ..report.figures import Caption, save

    fig, n = dataset_figure(ds, max_rows, max_panels, title)
    cap = Caption(f"{ds.name}: its first {n} of {ds.n_instances} rows, numeric attributes two by two, one colour "
                  f"per class", data=ds.name, protocol="none (the data, not a learner)", scale="not applicable")
    return save(fig, Path(stem), cap)


def dataset_figure(ds: Dataset, max_rows: int | None = 7000, max_panels: int = 3, title: str | None = None):
    """The figure of :func:`plot_dataset`, not saved: (figure, rows drawn)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = informative_columns(ds)
    if len(cols) < 2:
        raise ValueError(f"dataset {ds.name!r} has fewer than two non-constant numeric attributes to plot")
    pairs = [(cols[i], cols[i + 1]) for i in range(0, len(cols) - 1, 2)][:max_panels]
    n = ds.n_instances if max_rows is None else min(max_rows, ds.n_instances)
    X = ds.X[:n] if not hasattr(ds.X, "toarray") else ds.X[:n].toarray()
    y = ds.y[:n]
    fig, axes = plt.subplots(1, len(pairs), figsize=(5 * len(pairs), 4.2), squeeze=False)
    colours = plt.get_cmap("tab10")
    for ax, (a, b) in zip(axes[0], pairs):
        for c, label in enumerate(ds.classes):
            rows = y == c
            ax.scatter(X[rows, a], X[rows, b], s=1.5, alpha=0.5, color=colours(c % 10), label=str(label))
        ax.set_title(f"{ds.feature_names[a]}, {ds.feature_names[b]}")
    axes[0][0].legend(markerscale=6, fontsize=7, loc="best")
    dropped = ds.n_features - len(cols)
    fig.suptitle(title or f"{ds.name}: {n} of {ds.n_instances} rows, {ds.n_classes} classes"
                 + (f"; {dropped} constant or nominal attributes not shown" if dropped else ""))
    fig.tight_layout()
    return fig, n
