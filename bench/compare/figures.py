"""The figures of a comparison beyond the Nemenyi diagram (written by :func:`bench.report.figures.save`):

* :func:`simplex` - the posterior of the Bayesian signed-rank test in the probability simplex
  (Benavoli et al. 2017, Fig. 6): each draw of (P(algorithm better), P(equivalent), P(baseline
  better)) is a point of the triangle, whose corners are the three outcomes; the three regions split
  by the lines to the centre are where each outcome is the most probable; one panel per algorithm;
* :func:`control_cd_diagram` - the Bonferroni-Dunn diagram against a control (Demsar 2006, Fig. 2):
  the mean ranks, and the interval of one critical difference on each side of the control's rank;
  an algorithm outside it differs significantly from the control.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..report.figures import Caption, plt, save


def _project(p: np.ndarray) -> np.ndarray:
    """Barycentric (algorithm, equivalent, baseline) -> the plane: algorithm bottom left, baseline
    bottom right, equivalent at the top."""
    p = np.asarray(p, dtype=float)
    x = p[:, 2] + 0.5 * p[:, 1]
    y = p[:, 1] * np.sqrt(3) / 2
    return np.column_stack([x, y])


def simplex(panels: list[tuple[str, np.ndarray, tuple]], baseline: str, rope: float, stem: Path,
            caption: Caption, max_points: int = 5000) -> list[Path]:
    """One triangle per (algorithm, posterior draws n x 3, (p_algorithm, p_rope, p_baseline))."""
    k = len(panels)
    cols = min(4, max(1, k))
    rows = int(np.ceil(k / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.0 * rows), squeeze=False)
    corners = _project(np.eye(3))
    centre = _project(np.full((1, 3), 1 / 3))[0]
    mids = _project(np.array([[0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]))
    for ax in axes.ravel():
        ax.axis("off")
    for ax, (name, draws, probs) in zip(axes.ravel(), panels):
        ax.set_aspect("equal")
        tri = np.vstack([corners, corners[:1]])
        ax.plot(tri[:, 0], tri[:, 1], color="0.3", linewidth=1)
        for m in mids:
            ax.plot([centre[0], m[0]], [centre[1], m[1]], color="0.6", linewidth=0.8, linestyle="--")
        if draws is not None and len(draws):
            step = max(1, len(draws) // max_points)
            pts = _project(draws[::step])
            ax.scatter(pts[:, 0], pts[:, 1], s=2, alpha=0.25, color="tab:blue", linewidths=0, rasterized=True)
        pa, pr, pb = probs
        ax.text(corners[0, 0], -0.06, f"{name}\n{pa:.3f}", ha="center", va="top", fontsize=8)
        ax.text(corners[2, 0], -0.06, f"{baseline}\n{pb:.3f}", ha="center", va="top", fontsize=8)
        ax.text(corners[1, 0], corners[1, 1] + 0.04, f"equivalent\n{pr:.3f}", ha="center", va="bottom", fontsize=8)
        ax.set_xlim(-0.25, 1.25)
        ax.set_ylim(-0.3, 1.12)
    fig.suptitle(f"Bayesian signed-rank posterior against {baseline}, ROPE {rope:g}", fontsize=10)
    fig.tight_layout()
    return save(fig, stem, caption)


def control_cd_diagram(average_ranks: dict, cd: float, control: str, n_datasets: int, stem: Path,
                       caption: Caption, title: str = "") -> list[Path]:
    """Demsar's Fig. 2: mean ranks on the axis (1 = best, left), the control's rank with a bar of one
    CD to each side; names of algorithms outside the bar in bold."""
    names = list(average_ranks)
    r = np.array([average_ranks[n] for n in names], dtype=float)
    k = len(names)
    order = np.argsort(r, kind="stable")
    half = (k + 1) // 2
    left, right = order[:half], order[half:][::-1]
    step = 0.32
    base = -0.35
    bottom = base - step * (max(len(left), len(right)) - 1) - 0.3
    fig, ax = plt.subplots(figsize=(7.5, 0.62 * (1.5 - bottom)))
    ax.set_xlim(1 - 0.6 - 0.12 * k, k + 0.6 + 0.12 * k)
    ax.set_ylim(bottom, 1.3)
    ax.axis("off")
    ax.hlines(0, 1, k, color="black", linewidth=1)
    for t in range(1, k + 1):
        ax.vlines(t, 0, 0.1, color="black", linewidth=1)
        ax.text(t, 0.16, str(t), ha="center", va="bottom", fontsize=9)
    rc = average_ranks[control]
    lo, hi = max(1.0, rc - cd), min(float(k), rc + cd)
    ax.hlines(0.75, lo, hi, color="tab:red", linewidth=3)
    ax.vlines(rc, 0.65, 0.85, color="tab:red", linewidth=1.5)
    ax.vlines([lo, hi], 0.0, 0.75, color="tab:red", linewidth=0.8, linestyles="dotted")
    ax.text(rc, 0.9, f"{control} ± CD (CD = {cd:.2f})", ha="center", va="bottom", fontsize=9, color="tab:red")
    for side, idx, x_text, ha in (("l", left, 1 - 0.3, "right"), ("r", right, k + 0.3, "left")):
        for j, i in enumerate(idx):
            y = base - step * j
            x_end = 1 - 0.25 if side == "l" else k + 0.25
            ax.plot([r[i], r[i], x_end], [0, y, y], color="black", linewidth=0.8)
            differs = names[i] != control and abs(r[i] - rc) > cd
            label = f"{names[i]} ({r[i]:.2f})" if side == "l" else f"({r[i]:.2f}) {names[i]}"
            ax.text(x_text, y, label, ha=ha, va="center", fontsize=9,
                    fontweight="bold" if differs else "normal",
                    color="tab:red" if names[i] == control else "black")
    ax.set_title((title + "\n" if title else "") + f"Bonferroni-Dunn test against {control}, {n_datasets} datasets, "
                 f"{k} learners", fontsize=10)
    return save(fig, stem, caption)
