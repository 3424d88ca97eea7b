"""Verdicts on the MassBayes claims (MB01..MB14; Aryal and Ting, 2013).

Reads only the paper's facts (``reports/massbayes/facts.json``, :mod:`bench.report.facts`, written by
:func:`bench.report.massbayes.build`): the tables ``table3_accuracy_long``, ``table4_wdl`` (W/L/D counts
as integers), ``table5_runtime_long`` (from experiment ``massbayes_table3``), ``fig3_scaleup``
(``massbayes_fig3``), ``fig4_<p>_<dataset>`` and ``psi_claims_<dataset>`` (``massbayes_fig4_{psi,t,h}``),
and the plans shipped with the evidence (``reports/evidence/<experiment>.plan.json``, for the scale
column). A verdict's evidence is the report files those facts are shown in (:meth:`Facts.sources`).
The thresholds are the shared ones of :mod:`bench.report.verdicts`
(order of magnitude, constant, linear, flat); how each claim's words map onto them:

* MB07's "same order of magnitude" is two-sided (ratio within 10^+-0.5); MB08's exceptions to
  "an order of magnitude slower" are one-sided (not an order slower), as the paper's own Table 5
  has MassBayes' 4x faster than BayesNet on OneBig among them.
* MB06/MB07/MB08 compare time ratios on one machine (``ours_s``: training + testing over the
  10 folds, without the discretisation, as the paper's Table 5 leaves it out). "In many cases"
  is read as at least a third of the (contender, data set) pairs; an unqualified "an order of
  magnitude slower than X" as on more than half of the data sets X ran on. Each rule is also
  applied to the paper's own Table 5 and the result shown beside ours.
* CoverType: only the first 20000 of its 581012 rows are here; claims about CoverType at the
  paper's size (psi = 20000/50000, the discretisation time against MassBayes' runtime, the
  ranking of five learners) are not checkable ("dataset absent"), with our numbers on the head
  shown for information.
* MB09 ("better than the other contenders in most data sets", Table 4): every one of the 14
  (MassBayes'/MassBayes, contender) pairs has more wins than losses under the paper's
  two-standard-error test. (The paper's own counts, e.g. 3:2:3 against A3DE, show that "most"
  cannot mean a majority of the data sets.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench.report.facts import FILE, Facts
from bench.report.verdicts import (ABSENT, CONSTANT_FACTOR, LINEAR_SLOPE, NOT_AT_SCALE, NOT_CHECKABLE, NOT_MEASURABLE,
               NOT_REPRODUCED, ORDER, PARTLY, REPRODUCED, Verdict, claim_text, published_text)

P = "massbayes"
#: the experiment of Tables 3-5: the scale of a verdict without evidence
T3 = "massbayes_table3"
#: the fact tables of Tables 3-5 and Fig. 3
ACC, WDL, RUNTIME, FIG3 = "table3_accuracy_long", "table4_wdl", "table5_runtime_long", "fig3_scaleup"
COVTYPE_HEAD = "covtype_head20k_numeric"
HEAD_NOTE = "only the first 20000 of CoverType's 581012 rows are here"
SAME_ORDER_COMPETITORS = ("A3DE", "A2DE", "BayesNet", "NB-KDE", "J48")
WDL_TEST = "two-standard-error test on paired fold accuracies (the paper's)"


def _first(facts: Facts, prefix: str) -> str | None:
    """The first (by name) fact table whose name starts with ``prefix`` (one per data set), else None."""
    hits = sorted(n for n in facts.tables if n.startswith(prefix))
    return hits[0] if hits else None


def _source(facts: Facts, name: str) -> str:
    """The report file fact ``name`` is shown in ('' when the build did not record it)."""
    return facts.sources(name) if facts.table(name) is not None else ""


def _slope(x, y) -> float:
    x, y = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(x[ok], y[ok], 1)[0])


def _scale_of(root: Path, experiment: str) -> str:
    """The scale and protocol of an experiment, from the plan shipped with its evidence
    (reports/evidence/<experiment>.plan.json); '' when none is shipped."""
    plan = root / "evidence" / f"{experiment}.plan.json"
    if plan.exists():
        import json

        p = json.loads(plan.read_text())
        return f"scale {p.get('scale', 'ad hoc')}, protocol {p.get('protocol', '-')}"
    return ""


# ---------------------------------------------------------------- Table 5 time ratios
def _runtime(facts: Facts):
    df = facts.table(RUNTIME)
    if df is None:
        return None, None
    ours = df.pivot_table(index="dataset", columns="algorithm", values="ours_s", aggfunc="first")
    pub = df.pivot_table(index="dataset", columns="algorithm", values="published_s", aggfunc="first")
    return ours, pub


def _ratio(tab: pd.DataFrame, ds: str, a: str, b: str) -> float:
    """time(a) / time(b) on data set ds (NaN when either is missing)."""
    try:
        x, y = float(tab.loc[ds, a]), float(tab.loc[ds, b])
    except KeyError:
        return float("nan")
    return x / y if y > 0 and np.isfinite(x) and np.isfinite(y) else float("nan")


def _dataset_status(facts: Facts) -> dict[str, str]:
    """Paper data set -> our data set ('' when not run here), from the fact table of Table 3's cells."""
    df = facts.table(ACC)
    if df is None:
        return {}
    out = {}
    for ds, g in df.groupby("dataset"):
        ours = str(g["ours_dataset"].iloc[0])
        out[ds] = "" if ours in ("", "nan", "not available") or g["ours"].isna().all() else ours
    return out


def _part_unchecked(ds: str, status: dict[str, str]) -> str | None:
    """Why a time/accuracy part on paper data set ``ds`` cannot be checked here, else None."""
    ours = status.get(ds, "")
    if not ours:
        return f"{ds} not here"
    if ours == COVTYPE_HEAD:
        return f"{ds} not at the paper's size ({HEAD_NOTE})"
    return None


def _mb06(claim, status, ours_t, pub_t, ev) -> Verdict:
    cond = claim["conditions"]
    competitor = cond.split(" vs ")[0].strip()
    datasets = [d.strip() for d in cond.split("datasets=")[1].split(",")]
    checked, skipped, pub_parts = [], [], []
    for ds in datasets:
        p = _ratio(pub_t, ds, competitor, "MassBayes")
        pub_parts.append(f"{ds} x{p:.1f}" if np.isfinite(p) else f"{ds} -")
        why = _part_unchecked(ds, status)
        if why:
            skipped.append(why)
            continue
        checked.append((ds, _ratio(ours_t, ds, competitor, "MassBayes")))
    return _order_verdict(claim, checked, skipped, pub_parts, ev,
                          f"{competitor}/MassBayes time ratio >= {ORDER:.2f} (an order of magnitude faster)",
                          lambda r: r >= ORDER)


def _order_verdict(claim, checked, skipped, pub_parts, ev, test, holds) -> Verdict:
    ours = "; ".join(f"{ds} x{r:.2f}" for ds, r in checked)
    pub = "; ".join(pub_parts)
    base = dict(claim_id=claim["claim_id"], paper="massbayes", ours=ours, published=pub, test=test, evidence=ev,
                claim=claim_text(claim))
    unchecked = f"; not checked: {'; '.join(skipped)}" if skipped else ""
    if not checked:
        return Verdict(verdict=NOT_CHECKABLE, reason=f"{ABSENT}: " + "; ".join(skipped), **base)
    fails = [f"{ds} x{r:.2f} (needs >= {ORDER:.2f})" for ds, r in checked if not (np.isfinite(r) and holds(r))]
    if not fails:
        return Verdict(verdict=REPRODUCED, reason=f"holds on {', '.join(d for d, _ in checked)}{unchecked}", **base)
    held = [ds for ds, r in checked if np.isfinite(r) and holds(r)]
    if held:
        return Verdict(verdict=PARTLY, reason=f"holds on {', '.join(held)}; fails on {', '.join(fails)}{unchecked}",
                       **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"fails: {', '.join(fails)}{unchecked}", **base)


def _ratio_count(tab: pd.DataFrame, subject: str, competitors, holds) -> tuple[int, int]:
    """(pairs (data set, competitor) whose time ratio ``subject``/competitor ``holds``, pairs with
    a finite ratio)."""
    n = k = 0
    for ds in tab.index:
        for c in competitors:
            r = _ratio(tab, ds, subject, c)
            if np.isfinite(r):
                n += 1
                k += int(holds(r))
    return k, n


def _same_order(r: float) -> bool:
    return 1 / ORDER < r < ORDER


def _order_slower(r: float) -> bool:
    return r >= ORDER


def _mb07(claim, ours_t, pub_t, ev) -> Verdict:
    parts_ours, parts_pub, held, failed = [], [], [], []
    k, n = _ratio_count(ours_t, "MassBayes", SAME_ORDER_COMPETITORS, _same_order)
    kp, np_ = _ratio_count(pub_t, "MassBayes", SAME_ORDER_COMPETITORS, _same_order)
    ok_a = n > 0 and k * 3 >= n
    parts_ours.append(f"same order as A3DE/A2DE/BayesNet/NB-KDE/J48 in {k}/{n} pairs")
    parts_pub.append(f"{kp}/{np_} pairs")
    (held if ok_a else failed).append(f"same order in many cases ({k}/{n} pairs)")
    for comp in ("NB-Disc", "A1DE"):
        k2, n2 = _ratio_count(ours_t, "MassBayes", [comp], _order_slower)
        kp2, np2 = _ratio_count(pub_t, "MassBayes", [comp], _order_slower)
        parts_ours.append(f"order slower than {comp} on {k2}/{n2}")
        parts_pub.append(f"{kp2}/{np2}")
        (held if n2 and 2 * k2 > n2 else failed).append(f"an order slower than {comp} ({k2}/{n2} data sets)")
    return _compound(claim, held, failed, "; ".join(parts_ours), "; ".join(parts_pub), ev,
                     f"time ratios MassBayes/X on the data sets run here; same order: within x{ORDER:.2f} either way in >= 1/3 of "
                     f"the pairs; an order slower: >= {ORDER:.2f} on > 1/2 of the data sets")


def _mb08(claim, status, ours_t, pub_t, ev) -> Verdict:
    subj = "MassBayes'"
    others = [c for c in ours_t.columns if c not in ("MassBayes'", "MassBayes")]
    k, n = _ratio_count(ours_t, subj, others, _order_slower)
    kpub, npub = _ratio_count(pub_t, subj, others, _order_slower)
    held, failed, skipped, same_ours, same_pub = [], [], [], [], []
    (held if n and 3 * k >= n else failed).append(f"an order slower than the others in many cases ({k}/{n} pairs)")
    exceptions = [("A3DE", "Letters"), ("A2DE", "MiniBooNE"), ("BayesNet", "MiniBooNE"), ("BayesNet", "OneBig"),
                  ("NB-KDE", "MiniBooNE"), ("NB-KDE", "OneBig"), ("J48", "CoverType"), ("J48", "MiniBooNE")]
    for comp, ds in exceptions:
        p = _ratio(pub_t, ds, subj, comp)
        same_pub.append(f"{comp}@{ds} x{p:.2f}" if np.isfinite(p) else f"{comp}@{ds} -")
        why = _part_unchecked(ds, status)
        if why:
            skipped.append(f"{comp}@{why}")
            continue
        r = _ratio(ours_t, ds, subj, comp)
        same_ours.append(f"{comp}@{ds} x{r:.2f}")
        (held if np.isfinite(r) and r < ORDER else failed).append(f"same order as {comp} in {ds} (x{r:.2f})")
    ours = f"an order slower in {k}/{n} pairs; " + ", ".join(same_ours)
    pub = f"{kpub}/{npub} pairs; " + ", ".join(same_pub)
    return _compound(claim, held, failed, ours, pub, ev,
                     f"time ratios MassBayes'/X; many cases: >= 1/3 of the pairs at >= {ORDER:.2f}; same order: "
                     f"< {ORDER:.2f}", skipped)


def _compound(claim, held, failed, ours, pub, ev, test, skipped=()) -> Verdict:
    base = dict(claim_id=claim["claim_id"], paper="massbayes", ours=ours, published=pub, test=test, evidence=ev,
                claim=claim_text(claim))
    unchecked = f"; not checked: {'; '.join(skipped)}" if skipped else ""
    if not held and not failed:
        return Verdict(verdict=NOT_CHECKABLE, reason="; ".join(skipped) or f"{NOT_AT_SCALE}: no data", **base)
    if not failed:
        return Verdict(verdict=REPRODUCED, reason=f"holds: {'; '.join(held)}{unchecked}", **base)
    if held:
        return Verdict(verdict=PARTLY, reason=f"holds: {'; '.join(held)}; fails: {'; '.join(failed)}{unchecked}",
                       **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"fails: {'; '.join(failed)}{unchecked}", **base)


# ---------------------------------------------------------------- the claims
def evaluate(reports_dir: Path, claims: pd.DataFrame) -> list[Verdict]:
    root = Path(reports_dir)
    facts = Facts.of_paper(root, P)
    status = _dataset_status(facts)
    ours_t, pub_t = _runtime(facts)
    scale3 = _scale_of(root, T3)
    # the report file of each fact table -> the experiment it comes from (the build records it)
    experiment_of = {facts.source(n): e for n, e in (facts.value("experiment_of") or {}).items()
                     if n in facts.tables}
    out = []
    for _, c in claims.iterrows():
        cid = c["claim_id"]
        v = _one(cid, c, facts, status, ours_t, pub_t)
        files = [e for e in v.evidence.split(";") if e]
        if not v.scale:
            v.scale = _scale_of(root, experiment_of.get(files[0] if files else "", T3)) or scale3
        exps = sorted({experiment_of[f] for f in files if f in experiment_of})
        if exps:   # the scale gate holds the verdict to these experiments, not to all of the paper's
            v.extra = {**(v.extra or {}), "experiments": exps}
        out.append(v)
    return out


def _missing_table(cid, c, what) -> Verdict:
    return Verdict(cid, P, NOT_CHECKABLE, published=published_text(c), evidence="",
                   reason=f"{NOT_AT_SCALE}: {what} is not in reports/{P}/{FILE} (experiment not built)",
                   claim=claim_text(c))


def _one(cid, c, facts: Facts, status, ours_t, pub_t) -> Verdict:
    pub = published_text(c)
    if cid in ("MB01", "MB02"):
        name = _first(facts, "psi_claims_")
        if name is None:
            return _missing_table(cid, c, "the fact table psi_claims_<dataset>")
        rel = facts.sources(name)
        df = facts.table(name)
        row = df[df["source"] == cid]
        if row.empty:
            return _missing_table(cid, c, f"the {cid} row of {name}")
        row = row.iloc[0]
        if pd.isna(row["psi_used"]) or pd.isna(row["ours"]):  # no psi near the claim's was run (a smaller sweep)
            return _missing_table(cid, c, f"a value of the {cid} row of {name} (no psi near {int(row['psi'])} run)")
        ours = f"{row['ours']:.2f} % at psi = {int(row['psi_used'])} (= N) on {COVTYPE_HEAD}"
        return Verdict(cid, P, NOT_CHECKABLE, ours=ours, published=pub, evidence=rel,
                       reason=f"{ABSENT} at the paper's size: {HEAD_NOTE}, so psi = {int(row['psi'])} cannot be "
                              f"drawn (18000 training rows per fold)", claim=claim_text(c))
    if cid == "MB03":
        return Verdict(cid, P, NOT_CHECKABLE, published=pub, evidence=_source(facts, RUNTIME),
                       reason=f"{NOT_MEASURABLE}: an absolute time on the paper's machine (and {HEAD_NOTE})",
                       claim=claim_text(c))
    if cid == "MB04":
        ours = ""
        df = facts.table(RUNTIME)
        if df is not None:
            g = df[(df["dataset"] == "CoverType")]
            disc = g["discretisation_s"].max()
            mb = g.loc[g["algorithm"] == "MassBayes", "ours_s"]
            if len(mb):
                ours = f"on the 20000-row head: discretisation {disc:.2f} s vs MassBayes {float(mb.iloc[0]):.2f} s"
        return Verdict(cid, P, NOT_CHECKABLE, ours=ours, published=pub, test="time ratio on one machine",
                       evidence=_source(facts, RUNTIME),
                       reason=f"{ABSENT} at the paper's size: {HEAD_NOTE}; discretisation grows with N, "
                              f"MassBayes' training does not", claim=claim_text(c))
    if cid == "MB05":
        ours = ""
        acc = facts.table(ACC)
        if acc is not None:
            g = acc[acc["dataset"] == "CoverType"].set_index("algorithm")["ours"]
            ours = ", ".join(f"{a} {g[a]:.2f}" for a in ("MassBayes", "A2DE", "A3DE", "BayesNet", "J48") if a in g)
            ours += " (20000-row head)"
        return Verdict(cid, P, NOT_CHECKABLE, ours=ours, published=pub, evidence=_source(facts, ACC),
                       reason=f"{ABSENT} at the paper's size: {HEAD_NOTE} (on the head MassBayes is above all four)",
                       claim=claim_text(c))
    if cid.startswith(("MB06", "MB07", "MB08")) and ours_t is None:
        return _missing_table(cid, c, f"the fact table {RUNTIME}")
    ev5 = _source(facts, RUNTIME)
    if cid.startswith("MB06"):
        return _mb06(c, status, ours_t, pub_t, ev5)
    if cid == "MB07":
        return _mb07(c, ours_t, pub_t, ev5)
    if cid == "MB08":
        return _mb08(c, status, ours_t, pub_t, ev5)
    if cid == "MB09":
        return _mb09(c, facts)
    if cid in ("MB10", "MB11"):
        return _fig3(cid, c, facts)
    if cid in ("MB12", "MB13", "MB14"):
        return _fig4(cid, c, facts)
    return Verdict(cid, P, NOT_CHECKABLE, published=pub, reason=f"{NOT_MEASURABLE}: no rule for this claim",
                   claim=claim_text(c))


def _wdl_text(w, l, d) -> str:
    return f"{int(w)}:{int(l)}:{int(d)}"


def _mb09(c, facts: Facts) -> Verdict:
    df = facts.table(WDL)
    if df is None:
        return _missing_table(c["claim_id"], c, f"the fact table {WDL}")
    bad, pub_bad, pairs = [], [], []
    for r in df.to_dict("records"):
        ours = _wdl_text(r["wins"], r["losses"], r["draws"]) if r["datasets"] else "-"
        pairs.append(f"{r['row']} vs {r['contender']} {ours}")
        if not (r["datasets"] and r["wins"] > r["losses"]):
            bad.append(f"{r['row']} vs {r['contender']} {ours}")
        pw, pl = r["published_wins"], r["published_losses"]
        if pd.isna(pw) or pd.isna(pl) or not pw > pl:
            pub_bad.append(f"{r['row']} vs {r['contender']}")
    pub = f"wins > losses in {len(df) - len(pub_bad)}/{len(df)} pairs (W:L:D, 10 data sets)"
    n_ds = int(df["datasets"].max()) if len(df) else 0
    base = dict(claim_id=c["claim_id"], paper=P, ours=f"wins > losses in {len(df) - len(bad)}/{len(df)} "
                f"pairs over {n_ds} data sets ({'; '.join(pairs)})", published=pub,
                test=f"{WDL_TEST}; holds when every pair has more wins than losses", evidence=facts.sources(WDL),
                claim=claim_text(c))
    if not bad:
        return Verdict(verdict=REPRODUCED, reason="", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"wins do not exceed losses: {'; '.join(bad)}", **base)


def _fig3(cid, c, facts: Facts) -> Verdict:
    df = facts.table(FIG3)
    if df is None:
        return _missing_table(cid, c, f"the fact table {FIG3}")
    rel = facts.sources(FIG3)
    if cid == "MB10":
        g = df[df["algo"] == "massbayes"].sort_values("N")
        trees = df[df["algo"] == "massbayes (trees only)"].sort_values("N")
        grow = float(g["size_ratio"].iloc[-1])
        t_ratio = float(g["train_cpu_s"].iloc[-1] / g["train_cpu_s"].iloc[0])
        m_ratio = float(g["model_bytes"].iloc[-1] / g["model_bytes"].iloc[0])
        tt = float(trees["train_cpu_s"].iloc[-1] / trees["train_cpu_s"].iloc[0]) if len(trees) else float("nan")
        ours = (f"N x{grow:g}: training time x{t_ratio:.2f} (tree building alone x{tt:.2f}), model size "
                f"x{m_ratio:.2f}")
        held, failed = [], []
        (held if m_ratio <= CONSTANT_FACTOR else failed).append(f"model size x{m_ratio:.2f}")
        (held if t_ratio <= CONSTANT_FACTOR else failed).append(
            f"training time x{t_ratio:.2f} (tree building alone x{tt:.2f})")
        test = f"constant: value at the largest N within x{CONSTANT_FACTOR:g} of that at the smallest"
        base = dict(claim_id=cid, paper=P, ours=ours, published="constant (Fig. 3)", test=test, evidence=rel,
                    claim=claim_text(c))
        if not failed:
            return Verdict(verdict=REPRODUCED, reason=f"holds: {'; '.join(held)}", **base)
        if held:
            return Verdict(verdict=PARTLY, reason=f"constant: {'; '.join(held)}; not constant: {'; '.join(failed)}",
                           **base)
        return Verdict(verdict=NOT_REPRODUCED, reason=f"not constant: {'; '.join(failed)}", **base)
    # MB11: discretisation time linear in N. The scale-up run fits the discretiser on the first chunk
    # only and applies it to every chunk (bench.scaleup), so its preprocessing time is not the
    # paper's discretisation of all N rows: shown, not judged.
    disc = df[df["preprocess_cpu_s"] > 0]
    slopes = {a: _slope(g["N"], g["preprocess_cpu_s"]) for a, g in disc.groupby("algo")}
    ours = ", ".join(f"{a} {s:.2f}" for a, s in sorted(slopes.items()))
    return Verdict(cid, P, NOT_CHECKABLE, ours=f"log-log slope of preprocessing CPU time in N: {ours}" if ours else "",
                   published="linear in N (Fig. 3)", evidence=rel, claim=claim_text(c),
                   reason=f"{NOT_MEASURABLE}: the scale-up run fits the discretiser on the first chunk only and "
                          "applies it to the rest, so its preprocessing time is not a discretisation of all N rows")


def _fig4_table(facts: Facts, param):
    """(fact name, table) of Fig. 4's data as ``param`` varies (the first data set's), or (None, None)."""
    name = _first(facts, f"fig4_{param}_")
    return (name, facts.table(name)) if name else (None, None)


def _flat_end(df: pd.DataFrame, param: str) -> tuple[bool, str]:
    """Does accuracy rise and then stay flat as ``param`` grows (last step between distinct settings)?"""
    d = df.sort_values(param)
    if f"{param}_used" in d:
        d = d.drop_duplicates(f"{param}_used", keep="first")
    acc, se = d["accuracy"].to_numpy(float), d["accuracy_se"].to_numpy(float)
    rise = acc[-1] - acc[0]
    step = acc[-1] - acc[-2]
    lim = 2 * max(se[-1], se[-2])
    flat = abs(step) < lim
    vals = d[f"{param}_used" if f"{param}_used" in d else param].to_numpy()
    txt = f"{param}: {acc[0]:.2f} -> {acc[-1]:.2f}, last step {vals[-2]:g}->{vals[-1]:g} {step:+.2f} (2 se {lim:.2f})"
    return bool(rise > lim and flat), txt


def _fig4(cid, c, facts: Facts) -> Verdict:
    tabs = {p: _fig4_table(facts, p) for p in ("psi", "t", "h")}
    evid = facts.sources(*(name for name, _ in tabs.values() if name))
    if cid == "MB12":
        held, failed, parts = [], [], []
        for p, (rel, df) in tabs.items():
            if df is None:
                continue
            ok, txt = _flat_end(df, p)
            parts.append(txt)
            (held if ok else failed).append(txt)
        v = _compound(c, held, failed, "; ".join(parts), "rises then flat (Fig. 4)", evid,
                      "rises by more than 2 se overall, and the last step changes accuracy by < 2 se")
        v.claim_id = cid
        if "psi" in " ".join(failed):
            v.reason += f" ({HEAD_NOTE}: psi stops at N = 18000)"
        return v
    if cid == "MB13":
        lo, hi = LINEAR_SLOPE
        held, failed, parts = [], [], []
        rel_t, dt = tabs["t"]
        if dt is not None:
            s = _slope(dt["t"], dt["runtime_s"])
            parts.append(f"slope in t {s:.2f}")
            (held if lo <= s <= hi else failed).append(f"linear in t (slope {s:.2f})")
        rel_p, dp = tabs["psi"]
        if dp is not None:
            d = dp.drop_duplicates("psi_used", keep="first") if "psi_used" in dp else dp
            x = d["psi_used"] if "psi_used" in d else d["psi"]
            s = _slope(x, d["runtime_s"])
            parts.append(f"slope in psi {s:.2f}")
            (held if s < lo else failed).append(f"sub-linear in psi (slope {s:.2f})")
        return _compound(c, held, failed, "; ".join(parts), "linear in t, sub-linear in psi (Fig. 4)", evid,
                         f"least-squares log-log slope of runtime: linear in [{lo}, {hi}], sub-linear < {lo}")
    # MB14: runtime vs h flat beyond the point where the trees stop growing
    name_h, dh = tabs["h"]
    if dh is None:
        return _missing_table(cid, c, "the fact table fig4_h_<dataset>")
    rel = facts.sources(name_h)
    d = dh.sort_values("h").reset_index(drop=True)
    acc, se = d["accuracy"].to_numpy(float), d["accuracy_se"].to_numpy(float)
    # h* = the smallest h from which accuracy no longer changes by 2 se (the trees stop growing)
    star = next((i for i in range(len(d)) if all(abs(acc[j] - acc[i]) < 2 * max(se[i], se[j])
                                                  for j in range(i, len(d)))), len(d) - 1)
    rt = d["runtime_s"].to_numpy(float)
    beyond = rt[star:]
    h_star = d["h"].iloc[star]
    ok = len(beyond) >= 2 and beyond.max() <= 1.25 * beyond[0]
    ours = f"runtime beyond h = {h_star:g}: " + ", ".join(f"h={h:g} {r:.2f} s" for h, r in zip(d["h"][star:], beyond))
    base = dict(claim_id=cid, paper=P, ours=ours, published="flat beyond a point", evidence=rel, claim=claim_text(c),
                test="runtime at every h beyond h* (where accuracy stops changing by 2 se) at most 1.25 x that at h*")
    if len(beyond) < 2:
        return Verdict(verdict=NOT_CHECKABLE, reason=f"{NOT_AT_SCALE}: no h beyond the point where the trees stop "
                                                     "growing", **base)
    if ok:
        return Verdict(verdict=REPRODUCED, reason="", **base)
    return Verdict(verdict=NOT_REPRODUCED, reason=f"runtime still grows beyond h = {h_star:g} "
                                                  f"(x{beyond.max() / beyond[0]:.2f})", **base)
