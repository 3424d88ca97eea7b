"""Verdicts on the MC-Tree claims (MC01..MC18; Kranen et al., 2010).

Reads the committed report tables of the experiments ``mctree_fig5`` (Pendigits, Letter),
``mctree_fig6`` (Covertype, first 20000 rows), ``mctree_vowel`` and ``mctree_fig4_alpha``:
``<exp>_lead_summary.csv`` (MC-Tree's fold-paired lead over the Bayes tree, only at budgets where
both trees answer from their trees), ``<exp>_static.csv`` (SVM, C4.5) and
``<exp>_accuracy_at_budgets.csv``.

How the claims' words are read (beyond the shared rules of :mod:`bench.report.verdicts`):

* A lead "of X %" / "up to X %" is in accuracy points (the paper does not say points or relative)
  and is judged on the budget axis (Gaussians read per query: equal cost units, independent of
  the machine); the lead at equal time on our machine is shown beside it. Budgets where the Bayes
  tree has not read its root (it answers with the class prior) are left out, as in the lead
  summaries.
* "Slightly better" (MC16) is a lead of at most :data:`SLIGHT` points; "soon" (MC17) is at a budget
  no larger than a tenth of the largest budget recorded, staying above from there on.
* Gender (ICML 2004 contest data) is not here: its claims are not checkable (dataset absent).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from . import (ABSENT, ACC_TOL, GAIN_TOL, NOT_AT_SCALE, NOT_CHECKABLE, NOT_MEASURABLE, NOT_REPRODUCED, PARTLY,
               REPRODUCED, Verdict, claim_text, published_text)

P = "mctree"
#: "slightly better" (MC16): a lead of at most this many accuracy points
SLIGHT = 3.0
#: the MC-Tree variant of the paper's Figs. 5 and 6 (delta = inf)
MAIN = "mctree_inf"
GENDER = {"MC01", "MC02", "MC09", "MC10", "MC11", "MC12", "MC18"}
LEAD_TEST = ("fold-paired lead of MC-Tree over the Bayes tree, accuracy points, at budgets where both answer "
             "from their trees (Gaussians axis)")


def _rel(root: Path, exp: str, suffix: str) -> str | None:
    p = root / exp / f"{exp}_{suffix}.csv"
    return p.relative_to(root).as_posix() if p.exists() else None


def _num(s) -> float:
    """The number in a lead cell ('+8.61 @ 1000', '-4.81 (107us)', '-') or NaN."""
    m = re.match(r"\s*([+-]?\d+(?:\.\d+)?)", str(s))
    return float(m.group(1)) if m else float("nan")


def _leads(root: Path, exp: str, dataset: str, variant: str = MAIN):
    """(row of the lead summary, its path) or (None, path/None)."""
    rel = _rel(root, exp, "lead_summary")
    if rel is None:
        return None, None
    df = pd.read_csv(root / rel)
    g = df[(df["dataset"] == dataset) & (df["mctree"] == variant)]
    return (g.iloc[0] if len(g) else None), rel


def _budget_cols(row, time=False):
    pat = r"lead@t\d+$" if time else r"lead@\d+$"
    return [c for c in row.index if re.match(pat, c)]


def _lead_text(row) -> str:
    g = ", ".join(f"{c[5:]}: {row[c]}" for c in _budget_cols(row))
    t = ", ".join(f"{c[6:]}: {row[c]}" for c in _budget_cols(row, True))
    return (f"lead at {g} Gaussians; largest {row['max_lead_both_answer']}; at equal time (Bayes tree's "
            f"50/100/200/500-Gaussian times) {t}")


def _scale(root: Path, exp: str) -> str:
    p = root / exp / f"{exp}_notes.md"
    if p.exists():
        for line in p.read_text().splitlines():
            if line.startswith("Scale "):
                parts = [x.strip() for x in line.split(";")[0].rstrip(".").split(",")]
                return ", ".join(x for x in parts if not x.startswith("seeds")).replace("Scale", "scale", 1)
    return ""


def _not_built(cid, c, what) -> Verdict:
    return Verdict(cid, P, NOT_CHECKABLE, published=published_text(c), claim=claim_text(c),
                   reason=f"{NOT_AT_SCALE}: {what} is not in reports/ (experiment not built)")


def evaluate(reports_dir: Path, claims: pd.DataFrame) -> list[Verdict]:
    root = Path(reports_dir)
    out = []
    for _, c in claims.iterrows():
        v = _one(str(c["claim_id"]), c, root)
        if not v.scale and v.evidence:
            v.scale = _scale(root, v.evidence.split("/")[0])
        out.append(v)
    return out


def _one(cid: str, c, root: Path) -> Verdict:
    pub = published_text(c)
    if cid in GENDER:
        return Verdict(cid, P, NOT_CHECKABLE, published=pub, claim=claim_text(c),
                       reason=f"{ABSENT}: Gender (ICML 2004 physiological data, 189961 rows) is not here")
    if cid in ("MC03", "MC04", "MC06", "MC07"):
        return _static(cid, c, root)
    if cid in ("MC05a", "MC05b"):
        return _gain(cid, c, root, "mctree_fig5", "pendigits", upper=cid == "MC05b")
    if cid == "MC08":
        return _gain(cid, c, root, "mctree_fig5", "letter", upper=False)
    if cid == "MC13":
        return _overall(cid, c, root)
    if cid == "MC14":
        return _alpha(cid, c, root)
    if cid == "MC15":
        rel = _rel(root, "mctree_fig6", "static")
        ours = ""
        if rel:
            s = pd.read_csv(root / rel)
            ours = "on the 20000-row head: " + ", ".join(f"{r.classifier} {r.ours_accuracy:.2f} %"
                                                          for r in s.itertuples())
        return Verdict(cid, P, NOT_CHECKABLE, ours=ours, published=pub, evidence=rel or "", claim=claim_text(c),
                       reason=f"{NOT_MEASURABLE}: a memory failure of the paper's implementations on its machine; "
                              "the full Covertype (581012 rows) runs only at scale full, with the two trees")
    if cid == "MC16":
        return _mc16(cid, c, root)
    if cid == "MC17":
        return _mc17(cid, c, root)
    return Verdict(cid, P, NOT_CHECKABLE, published=pub, claim=claim_text(c),
                   reason=f"{NOT_MEASURABLE}: no rule for this claim")


#: the paper's static classifiers: Weka's SMO (smo_numeric: linear kernel, C = 1, [0,1] normalisation,
#: pairwise; issue 30) and J48; scikit-learn's SVC (svm) is an extra, never the paper's SVM
STATIC = {"MC03": ("pendigits", "smo_numeric"), "MC04": ("pendigits", "j48"), "MC06": ("letter", "j48"),
          "MC07": ("letter", "smo_numeric")}
STATIC_NAMES = {"smo_numeric": "SVM (Weka SMO)", "j48": "C4.5 (J48)"}


def _static(cid, c, root) -> Verdict:
    rel = _rel(root, "mctree_fig5", "static")
    if rel is None:
        return _not_built(cid, c, "mctree_fig5/mctree_fig5_static.csv")
    ds, clf = STATIC[cid]
    s = pd.read_csv(root / rel)
    g = s[(s["dataset"] == ds) & (s["classifier"] == clf)]
    pubv = float(c["value"])
    if g.empty:
        return Verdict(cid, P, NOT_CHECKABLE, published=f"{pubv:.1f} %", evidence=rel, claim=claim_text(c),
                       reason=f"{NOT_AT_SCALE}: {clf} on {ds} not in {rel}")
    acc, se = float(g["ours_accuracy"].iloc[0]), float(g["ours_se"].iloc[0])
    tol = max(ACC_TOL, 2 * se)
    d = acc - pubv
    name = STATIC_NAMES[clf]
    base = dict(claim_id=cid, paper=P, ours=f"{acc:.2f} ± {se:.2f} % ({name}, {ds})", published=f"{pubv:.1f} %",
                test=f"|ours - paper| <= max({ACC_TOL:g}, 2 se) = {tol:.2f} points", evidence=rel,
                claim=claim_text(c))
    if abs(d) <= tol:
        return Verdict(verdict=REPRODUCED, reason="", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"ours {d:+.2f} points from the paper's (beyond {tol:.2f})", **base)


def _gain(cid, c, root, exp, ds, upper: bool) -> Verdict:
    row, rel = _leads(root, exp, ds)
    if row is None:
        return _not_built(cid, c, f"the {ds} row of {exp}/{exp}_lead_summary.csv")
    x = float(c["value"])
    leads = [_num(row[k]) for k in _budget_cols(row)] + [_num(row["max_lead_both_answer"])]
    best = np.nanmax(leads) if np.isfinite(leads).any() else float("nan")
    tleads = [_num(row[k]) for k in _budget_cols(row, True)]
    tbest = np.nanmax(tleads) if np.isfinite(tleads).any() else float("nan")
    lo, hi = (1 - GAIN_TOL) * x, (1 + GAIN_TOL) * x
    test = f"{LEAD_TEST}: largest lead >= {lo:.1f}" + (f" and <= {hi:.1f}" if upper else "")
    base = dict(claim_id=cid, paper=P, ours=_lead_text(row), published=f"{x:g} points" + (" (upper)" if upper else ""),
                test=test, evidence=rel, claim=claim_text(c))
    time_note = f"; at equal time the largest lead is {tbest:+.2f}" if np.isfinite(tbest) else ""
    ok = np.isfinite(best) and best >= lo and (not upper or best <= hi)
    if ok:
        return Verdict(verdict=REPRODUCED, reason=f"largest lead {best:+.2f}{time_note}", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"largest lead {best:+.2f} points, the paper's {x:g}{time_note}",
                   **base)


def _overall(cid, c, root) -> Verdict:
    """MC13: (a) MC-Tree is never behind the Bayes tree where both answer, on every data set run
    here; (b) its largest lead reaches 15 points (within the gain tolerance)."""
    rows, rels = [], []
    for exp in ("mctree_fig5", "mctree_fig6", "mctree_vowel"):
        rel = _rel(root, exp, "lead_summary")
        if rel is None:
            continue
        df = pd.read_csv(root / rel)
        for _, r in df[df["mctree"] == MAIN].iterrows():
            rows.append(r)
        rels.append(rel)
    if not rows:
        return _not_built(cid, c, "the MC-Tree lead summaries")
    x = float(c["value"])
    behind, best = [], (-np.inf, "")
    for r in rows:
        ls = [(k[5:], _num(r[k])) for k in _budget_cols(r)]
        neg = [f"{b}: {v:+.2f}" for b, v in ls if np.isfinite(v) and v < 0]
        if neg:
            behind.append(f"{r['dataset']} ({', '.join(neg)})")
        m = _num(r["max_lead_both_answer"])
        if np.isfinite(m) and m > best[0]:
            best = (m, r["dataset"])
    held, failed = [], []
    (failed if behind else held).append("never behind the Bayes tree" + (f": behind on {'; '.join(behind)}"
                                                                        if behind else ""))
    ((held if best[0] >= (1 - GAIN_TOL) * x else failed)
     .append(f"largest lead {best[0]:+.2f} ({best[1]}) against up to {x:g}"))
    ours = "; ".join(f"{r['dataset']}: max {r['max_lead_both_answer']}" for r in rows)
    base = dict(claim_id=cid, paper=P, ours=ours, published=f"constantly better, up to {x:g} points",
                test=f"{LEAD_TEST}; constantly: lead >= 0 at every listed budget on every data set; up to X: "
                     f"largest lead >= {(1 - GAIN_TOL) * x:.1f}", evidence=";".join(rels), claim=claim_text(c))
    if not failed:
        return Verdict(verdict=REPRODUCED, reason="; ".join(held), **base)
    if held:
        return Verdict(verdict=PARTLY, reason=f"holds: {'; '.join(held)}; fails: {'; '.join(failed)}", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"fails: {'; '.join(failed)}", **base)


def _curves(root, exp):
    rel = _rel(root, exp, "accuracy_at_budgets")
    if rel is None:
        return None, None
    df = pd.read_csv(root / rel)
    df = df[pd.to_numeric(df["budget"], errors="coerce").notna()].copy()
    df["budget"] = df["budget"].astype(float)
    return df, rel


def _alpha(cid, c, root) -> Verdict:
    df, rel = _curves(root, "mctree_fig4_alpha")
    if df is None:
        return _not_built(cid, c, "mctree_fig4_alpha/mctree_fig4_alpha_accuracy_at_budgets.csv")
    cols = [k for k in df.columns if "alpha=" in k]
    zero = next((k for k in cols if re.search(r"alpha=0(\.0)?\)", k)), None)
    parts, fails = [], []
    for ds, g in df.groupby("dataset"):
        means = g[cols].mean()
        best = means.idxmax()
        parts.append(f"{ds}: mean over budgets " + ", ".join(f"{k.split('alpha=')[1].rstrip(')')}: {v:.2f}"
                                                             for k, v in means.items()))
        if zero is None or means[zero] < means.max() - 1e-9:
            fails.append(f"{ds}: alpha = {best.split('alpha=')[1].rstrip(')')} ahead of alpha = 0 "
                         f"({means.max():.2f} vs {means[zero] if zero else float('nan'):.2f}): no clear winner")
    base = dict(claim_id=cid, paper=P, ours="; ".join(parts), published="alpha = 0 best",
                test="alpha = 0 has the highest mean anytime accuracy over the budgets on every data set run",
                evidence=rel, claim=claim_text(c))
    if not fails:
        return Verdict(verdict=REPRODUCED, reason="", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason="; ".join(fails), **base)


def _first_budget(root, exp, ds, variant):
    rel = _rel(root, exp, "first_answer")
    if rel is None:
        return float("nan")
    f = pd.read_csv(root / rel)
    g = f[(f["dataset"] == ds) & (f["variant"] == variant)]
    return float(g["first_answer_budget"].iloc[0]) if len(g) else float("nan")


def _mc16(cid, c, root) -> Verdict:
    """Pendigits: the Bayes tree is slightly ahead of anytime NN at first (once it answers), then behind."""
    df, rel = _curves(root, "mctree_fig5")
    if df is None:
        return _not_built(cid, c, "mctree_fig5/mctree_fig5_accuracy_at_budgets.csv")
    g = df[df["dataset"] == "pendigits"].sort_values("budget")
    first = _first_budget(root, "mctree_fig5", "pendigits", "bayestree")
    if np.isfinite(first):
        g = g[g["budget"] >= first]
    d = (g["bayestree"] - g["anytime_nn"]).to_numpy()
    b = g["budget"].to_numpy()
    ahead = np.nonzero(d > 0)[0]
    ours = ", ".join(f"{bb:g}: {dd:+.2f}" for bb, dd in zip(b, d))
    base = dict(claim_id=cid, paper=P, ours=f"Bayes tree - anytime NN at budgets {ours}", published="qualitative",
                test=f"ahead at the first budgets where the Bayes tree answers by at most {SLIGHT:g} points "
                     "('slightly'), behind from some budget to the end", evidence=rel, claim=claim_text(c))
    held, failed = [], []
    if len(d) == 0:
        return Verdict(verdict=NOT_CHECKABLE, reason=f"{NOT_AT_SCALE}: no budget where the Bayes tree answers",
                       **base)
    early = d[: ahead[-1] + 1] if len(ahead) and ahead[0] == 0 else np.array([])
    if len(early):
        (held if early.max() <= SLIGHT else failed).append(
            f"ahead at first{'' if early.max() <= SLIGHT else ', but not slightly'} (up to {early.max():+.2f})")
    else:
        failed.append("not ahead at the first budget where it answers")
    tail_behind = len(ahead) and ahead[-1] < len(d) - 1 and (d[ahead[-1] + 1:] < 0).all()
    (held if tail_behind else failed).append("falls behind" + ("" if tail_behind else " : not behind to the end"))
    if not failed:
        return Verdict(verdict=REPRODUCED, reason="; ".join(held), **base)
    if held:
        return Verdict(verdict=PARTLY, reason=f"holds: {'; '.join(held)}; fails: {'; '.join(failed)}", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"fails: {'; '.join(failed)}", **base)


def _mc17(cid, c, root) -> Verdict:
    """Letter: MC-Tree soon above both SVM and C4.5, and stays above."""
    df, rel = _curves(root, "mctree_fig5")
    srel = _rel(root, "mctree_fig5", "static")
    if df is None or srel is None:
        return _not_built(cid, c, "mctree_fig5 accuracy_at_budgets / static tables")
    s = pd.read_csv(root / srel)
    s = s[(s["dataset"] == "letter") & s["classifier"].isin(list(STATIC_NAMES))]   # the paper's SVM and C4.5
    g = df[df["dataset"] == "letter"].sort_values("budget")
    if s.empty or g.empty:
        return _not_built(cid, c, "the letter rows of the mctree_fig5 accuracy_at_budgets / static tables")
    level = float(s["ours_accuracy"].max())
    acc, b = g[MAIN].to_numpy(float), g["budget"].to_numpy(float)
    above = acc > level
    idx = next((i for i in range(len(acc)) if above[i:].all()), None)
    limit = b.max() / 10
    base = dict(claim_id=cid, paper=P, published="qualitative", evidence=f"{rel};{srel}", claim=claim_text(c),
                test=f"MC-Tree above max(SVM, C4.5) = {level:.2f} % from a budget <= {limit:g} (a tenth of the "
                     "largest recorded) to the end",
                ours=(f"above from {b[idx]:g} Gaussians ({acc[idx]:.2f} %)" if idx is not None else
                      f"never stays above {level:.2f} %"))
    if idx is not None and b[idx] <= limit:
        return Verdict(verdict=REPRODUCED, reason="", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=("stays above only from budget " f"{b[idx]:g}" if idx is not None
                                                   else "never stays above both static classifiers"), **base)
