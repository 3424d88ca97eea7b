"""ESKDB (Zhang, Petitjean and Buntine 2020): Tables 3-9 and Figs 1, 3-8, with the
published numbers beside ours.

What the module expects (whatever is absent is listed as missing, and the tables fill in as runs land):

Experiments (:data:`EXPERIMENTS`), all on the paper's datasets with 5x2 CV (``cv5x2_eskdb``:
a single 2-fold run on the six largest):

* ``eskdb_main`` - every algorithm of :data:`ALGOS`: Tables 3-9, Figs 1 and 8;
* ``eskdb_ablation`` - ES-KDB and its ablations (:data:`ABLATION`): Figs 3-5;
* ``eskdb_ensemble_size`` - ``eskdb_m`` swept over the ensemble size (estimator parameter
  :data:`ENSEMBLE_SIZE_PARAM`, values 1, 10, 20, 30): Fig. 6;
* ``eskdb_hdp_tying`` - ``eskdb_hdp`` swept over :data:`TYING_PARAM` (none, parent, level,
  single) and :data:`PRIOR_PARAM` (uniform, gamma): Fig. 7;
* ``eskdb_gibbs_iterations`` - ``eskdb_hdp`` swept over :data:`ITERATIONS_PARAM` (250, 1000, 5000) on the
  cheapest 50 of the datasets: :func:`gibbs_iterations` (claim ES25);
* ``eskdb_uniform_prior`` - ``eskdb_hdp`` with the uniform prior at 1000, 10000 and 50000 iterations on the
  8 datasets where 50000 iterations cost least: :func:`uniform_prior` (claims ES24, ES26; its
  ``uniform_prior_steps`` fact: how far each dataset's RMSE moves from one count to the next);
* ``eskdb_stage_profile`` - ESKDB_M and SKDB timed stage by stage: :mod:`.stages` (claim ES16);
* ``eskdb_skdb_loo`` - SKDB and ESKDB_M recording the leave-one-out RMSE of every k on tic-tac-toe's folds:
  :mod:`.loo` (claim ES22).

Algorithm names (:data:`ALGOS`): the paper's name -> our conf/algo names, the first one that has
stored runs is used: NB ``kdb0`` (M-estimation, as the paper's BNCs; Weka-style Laplace NB ``nb_disc`` is
an extra row, "NB-Laplace", marked as not the paper's); TAN ``tan``; KDB ``kdb`` (k = 5, ``kdb5`` also accepted; KDB-1
and KDB-2 are shown beside it as extra rows, marked as not the paper's); SKDB ``skdb``; KDF ``kdf``; AODE ``aode`` (or ``a1de``); ESKDB_M ``eskdb_m``;
ESKDB_HDP ``eskdb_hdp``; RF ``rf100``; XGBoost_default ``xgb``; XGBoost_tuned ``xgb_tuned``.
Ablations: ES-KDB ``eskdb_m``, ES-KDB_randomO ``eskdb_random_o``, ES-KDB_randomCP ``eskdb_random_cp``.

Table 9's order of NB, KDB, SKDB, ESKDB_M and ESKDB_HDP is checked over all the datasets with complete
runs and by size group of the paper's Table 1 rows (``table9_bnc_order``, ``table9_bnc_order_by_size``;
the captions state the orders); ``table9_kdb_fixes`` shows bench's KDB family before and after its fixes
(missing-value slot, tie order, SKDB's leave-one-out rule) from experiment ``eskdb_kdb_fix``.

Measures: RMSE over all classes and error rate (mean over splits per dataset); training time =
mean ``times.train_cpu_s`` per split (the paper's Table 9 "training time"). Averages over datasets
are over the datasets where every algorithm of the table has a complete run, with the standard
error over datasets after the ±: the paper does not define its ±, but its values (about 0.016
for a mean RMSE of 0.22 over 72 datasets) fit the standard error over datasets, not the standard
deviation. WDL tables use the paper's one-tailed binomial sign test (p <= 0.05, in bold).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench import published
from bench.stats.collect import variant_params
from bench.stats.pairwise import wdl
from bench.stats.spread import standard_error
from bench.stats.ttests import wilcoxon_signed_rank
from bench.report.compare import beside_published, display_beside, long_display, value_facts, wdl_facts, wdl_vs_published
from bench.report.context import PaperResult, ReportContext, dataset_algo_cells
from bench.report.figures import Caption, lines, plt, save, scatter_vs
from bench.papers.eskdb import loo, stages
from bench.papers.eskdb.generators import ablation_generators
from bench.report.facts import Facts
from bench.report.html import KEY_FIGURE
from bench.report.keyfig import gather, printed
from bench.papers.eskdb import ABLATION, ACCURACY, ALGOS, DECLARATION, MEASURES, FIX_VARIANTS, KDB_VARIANTS
from bench.report.tables import summarise, write_table
from bench.report.verdicts.timing import split_times

PAPER = "eskdb"
EXPERIMENTS = {"main": "eskdb_main", "ablation": "eskdb_ablation", "ensemble": "eskdb_ensemble_size",
               "hdp": "eskdb_hdp_tying", "iterations": "eskdb_gibbs_iterations", "uniform": "eskdb_uniform_prior"}
ENSEMBLE_SIZE_PARAM = "n_estimators"
TYING_PARAM, PRIOR_PARAM = "tying", "prior"
ITERATIONS_PARAM = "n_iterations"   # eskdb_gibbs_iterations: ESKDB_HDP's Gibbs iterations (claim ES25)
TYINGS = ("none", "parent", "level", "single")
PRIORS = ("uniform", "gamma")
TEST, ALPHA = DECLARATION.test, DECLARATION.alpha
ALL = "all 72 datasets"
FIG1_ALGOS = ["NB", "TAN", "KDB", "SKDB", "KDF", "AODE", "ESKDB_M"]
# the order check: Table 9's averages of these five, worst first in the paper
ORDER_ALGOS = ["NB", "KDB", "SKDB", "ESKDB_M", "ESKDB_HDP"]
# dataset size groups of the order check (the paper's Table 1 rows): (label, lower bound exclusive, upper inclusive)
SIZE_GROUPS = (("<= 1000 rows", 0, 1000), ("1001-10000 rows", 1000, 10000), ("> 10000 rows", 10000, np.inf))
# bench's KDB family before and after each fix, on eskdb_main's datasets and folds
FIX_EXPERIMENT = "eskdb_kdb_fix"


def selected_k_table(exp, amap: dict[str, str], out: Path, facts: Facts | None = None) -> list[Path]:
    """selected_k.{csv,md,tex}: the k SKDB's leave-one-out selection chose, per dataset: every member of
    ESKDB_M and ESKDB_HDP (stored records' ``extra.k_star``, one value per member and split) and the
    standalone SKDB (``extra.k``, one per split). Columns ``k=0`` .. ``k=5`` count the choices (k = 0:
    no attribute selected), ``choices`` their total (claim ES22: "for [tic-tac-toe] SKDB chooses to use
    k = 2"). Nothing is written when the records carry no choices. With ``facts``, the rows (without the
    ``k counts`` text) are recorded as the fact table ``selected_k``."""
    recs = exp.records
    if recs.empty or not ({"extra.k_star", "extra.k"} & set(recs.columns)):
        return []
    rows = []
    for name, col in (("ESKDB_M", "extra.k_star"), ("ESKDB_HDP", "extra.k_star"), ("SKDB", "extra.k")):
        if col not in recs.columns:
            continue
        g = recs[(recs["algo"] == amap.get(name)) & (recs["status"] == "ok")]
        for ds, gg in g.groupby("dataset"):
            ks = []
            for v in gg[col]:
                if isinstance(v, (list, tuple, np.ndarray)):
                    ks += [int(k) for k in v]
                elif v is not None and not (isinstance(v, float) and np.isnan(v)):
                    ks.append(int(v))
            if not ks:
                continue
            cnt = pd.Series(ks).value_counts().sort_index()
            row = {"dataset": ds, "algorithm": name, "chooser": "members x splits" if col == "extra.k_star"
                   else "splits", "choices": len(ks),
                   "most frequent k": " and ".join(str(k) for k in cnt.index[cnt == cnt.max()]),  # a tie as a tie
                   "k counts": ", ".join(f"k={k}: {n}" for k, n in cnt.items())}
            row.update({f"k={k}": int(cnt.get(k, 0)) for k in range(0, 6)})
            rows.append(row)
    if not rows:
        return []
    if facts is not None:
        facts.add_table("selected_k", pd.DataFrame(rows).drop(columns="k counts"), f"{PAPER}/selected_k.csv",
                        about="per dataset and chooser: the number of k choices, the most frequent k and the count "
                              "of each k = 0..5")
    return write_table(pd.DataFrame(rows), out / "selected_k", index=False,
                       caption="The k chosen by SKDB's leave-one-out selection: in each member of the ensembles "
                               "(every member of every split; stored records' extra.k_star) and in the standalone "
                               "SKDB (every split; extra.k); k = 0: no attribute selected")


def _resolve(exp, candidates: dict[str, list[str]]) -> dict[str, str]:
    """The paper's name -> the first candidate algo with complete runs (else the first candidate)."""
    have = set(exp.algos())
    out = {}
    for paper_name, names in candidates.items():
        out[paper_name] = next((n for n in names if n in have), names[0])
    return out


def build(ctx: ReportContext, out: Path) -> PaperResult:
    res = PaperResult(PAPER, experiments=list(EXPERIMENTS.values()))
    exp = ctx.experiment(EXPERIMENTS["main"])
    pds = published.datasets(PAPER)
    mapped = [d for d in pds["ours"] if d]
    amap = _resolve(exp, ALGOS)
    label = {v: k for k, v in amap.items()}
    res.add_missing_cells("Tables 3-9, Figs 1, 8", exp, pds, amap)
    vals = {m: exp.means(m, mapped) for m in set(MEASURES.values())}
    reasons = {oa: exp.algo_reason(oa) or "" for oa in amap.values()}

    # WDL tables 3, 4, 7
    for number in (3, 4, 7):
        pub = published.wdl(PAPER, number)
        long = wdl_vs_published(pub, vals, amap, ACCURACY, {ALL: None}, TEST, ALPHA,
                                algo_reasons=reasons)
        disp = long_display(long)
        res.facts.add_table(f"table{number}_wdl", wdl_facts(long), f"{PAPER}/table{number}_wdl.csv",
                            about=f"Table {number}: W/D/L of row vs col (a win = lower), ours beside published, with "
                                  f"the {TEST} sign test (p <= {ALPHA}); ours_* None where we have no record")
        res.files += write_table(disp, out / f"table{number}_wdl", index=False, key_columns=4,
                                 caption=f"Table {number}: win-draw-loss, row vs column (a win = lower value), ours "
                                         f"beside published; significance: one-tailed binomial sign test p <= {ALPHA} "
                                         f"(published significance recomputed from the published counts)")
    res.facts.add_table("wdl_values", value_facts(vals, amap, ACCURACY.items()), f"{EXPERIMENTS['main']}/summary_long.csv",
                        about="per dataset, the mean RMSE and error rate of each of the paper's learners (its names): "
                              "the values Tables 3, 4, 7 count on, paired by dataset for the Bayesian signed-rank "
                              "beside each W/D/L claim")
    # average tables 5, 6, 8, 9
    for number in (5, 6, 8, 9):
        res.files += _average_table(number, vals, amap, reasons, out, res.facts)
    res.files += _bnc_order(vals, amap, out)
    res.files += selected_k_table(exp, amap, out, res.facts)
    res.files += _kdb_fixes(ctx, out)
    res.files += ablation_generators(ctx.experiment(EXPERIMENTS["ablation"]), out)
    res.files += _figures(ctx, exp, vals, amap, label, out, res)
    _experiment_facts(ctx, res.facts)
    res.files += stages.table(ctx, out, res.facts)   # ES16: where the training time goes, stage by stage
    res.files += loo.table(ctx, out, res.facts)      # ES22: the leave-one-out score of every k SKDB weighs
    res.facts.add_table("eskdb_main_split_times",
                        split_times(exp.splits("train_s"), {k: amap[k] for k in SPLIT_TIME_ALGOS if k in amap}),
                        f"evidence/{EXPERIMENTS['main']}.records.parquet",
                        about="training CPU seconds (times.train_cpu_s) per split of the learners whose time ratios "
                              "the claims state (the per-data-set ratios and their bootstrap interval)")
    absent = sorted({m.dataset for m in res.missing if "not in the data" in m.category})
    if absent:
        res.facts.add_value("absent_datasets", absent, f"{PAPER}/missing.csv",
                            about="the paper's datasets not in our data directory")
    res.facts.add_table("key_cells", key_cells(res.facts), f"{PAPER}/{KEY_FIGURE}",
                        about="every published number of Tables 3-9 beside ours, as the tables print them "
                              "(the key figure's points; W/D/L as the win share W/(W+L))")
    return res


#: the average facts' column order (:func:`_average_table`)
AVERAGE_FACT_COLUMNS = ["algorithm", "measure", "published", "published_text", "published_pm_text", "ours",
                        "ours_se", "n_datasets", "reason", "time_ref", "published_time_ratio", "ours_time_ratio"]
#: the experiments whose per-dataset means the claim checks read (as their summary_long.csv shows them),
#: and the algorithm labels recorded (None: all)
SUMMARY_FACTS = {"eskdb_main": ["eskdb_hdp", "xgb_tuned"], "eskdb_ablation": None, "eskdb_ensemble_size": None,
                 "eskdb_gibbs_iterations": None, "eskdb_uniform_prior": None,
                 "eskdb_hdp_tying": None}
#: the learners whose per-split training times are recorded (the time-ratio claims ES09, ES14, ES16-ES20)
SPLIT_TIME_ALGOS = ("ESKDB_M", "ESKDB_HDP", "SKDB", "XGBoost_default", "XGBoost_tuned")
#: the digits the tables print: averages (Tables 5, 6, 8, 9) and win shares (Tables 3, 4, 7)
AVERAGE_DIGITS, SHARE_DIGITS = 4, 3


def _frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """Rows as an object frame, so ints stay ints and None stays None in the facts."""
    return pd.DataFrame(rows, columns=columns, dtype=object)


def _experiment_facts(ctx: ReportContext, facts: Facts) -> None:
    """The per-dataset means of :data:`SUMMARY_FACTS` (fact tables ``<experiment>_means``) and each one's
    protocols and dataset count (values ``<experiment>_scale``), shown in ``<experiment>/summary_long.csv``."""
    for name, algos in SUMMARY_FACTS.items():
        df = ctx.experiment(name).all_records
        s = summarise(df) if not df.empty else df
        if s.empty:
            continue
        s = s[["dataset", "algo", "protocol", "rmse", "error"]]
        source = f"{name}/summary_long.csv"
        facts.add_value(f"{name}_scale", {"protocols": sorted(set(s["protocol"])), "datasets": s["dataset"].nunique()},
                        source, about="the protocols and the number of datasets of the experiment's ok splits")
        facts.add_table(f"{name}_means", s if algos is None else s[s["algo"].isin(algos)].reset_index(drop=True),
                        source, about="mean RMSE and error rate over the ok splits per (dataset, algo, protocol)")


def key_cells(facts: Facts) -> pd.DataFrame:
    """The key figure's cells (:data:`bench.report.keyfig.CELLS`): Tables 5, 6, 8, 9's averages (kind: the
    measure) and Tables 3, 4, 7's W/D/L as win shares, published beside ours as the tables print them;
    rows without a published number are left out."""
    parts = []
    for n in (5, 6, 8, 9):
        t = facts.table(f"table{n}_averages")
        if t is not None:
            parts.append(pd.DataFrame({"kind": t["measure"], "table": f"Table {n}",
                                       "published": printed(t["published"], AVERAGE_DIGITS),
                                       "ours": printed(t["ours"], AVERAGE_DIGITS)}))
    for n in (3, 4, 7):
        t = facts.table(f"table{n}_wdl")
        if t is not None:
            parts.append(pd.DataFrame({"kind": "win share", "table": f"Table {n}",
                                       "published": printed(t["published_win_share"], SHARE_DIGITS),
                                       "ours": printed(t["ours_win_share"], SHARE_DIGITS)}))
    return gather(parts)


def _average_table(number: int, vals: dict, amap: dict, reasons: dict, out: Path,
                   facts: Facts | None = None) -> list[Path]:
    pub = published.values(PAPER, number)
    algos = list(dict.fromkeys(pub["algorithm"]))
    exclude = {"tic_tac_toe"} if number == 8 else set()
    # the datasets where every algorithm of the table that has values has a complete run
    present = [amap.get(a) for a in algos if amap.get(a) in vals["rmse"].columns] if not vals["rmse"].empty else []
    common = None
    for m in ("rmse", "error", "train_s"):
        v = vals[m]
        if v.empty or not present:
            continue
        idx = v[[a for a in present if a in v.columns]].dropna().index
        common = idx if common is None else common.intersection(idx)
    common = [d for d in (common if common is not None else []) if d not in exclude]
    ours, reason_rows = [], []
    for r in pub.itertuples():
        key = {"paper": PAPER, "table": number, "dataset": r.dataset, "algorithm": r.algorithm, "measure": r.measure}
        oa = amap.get(r.algorithm)
        m = MEASURES[r.measure]
        v = vals[m]
        if oa and not v.empty and oa in v.columns and common:
            x = v.loc[common, oa].astype(float)
            se = standard_error(x)  # NaN for a single dataset
            ours.append({**key, "ours": float(x.mean()), "ours_se": se if m != "train_s" else np.nan,
                         "note": f"mean over {len(common)} datasets"})
        else:
            reason_rows.append({**key, "reason": reasons.get(oa, "") or "no dataset with every algorithm of the table"})
    pubk = pd.DataFrame([{"paper": PAPER, "table": number, "dataset": r.dataset, "algorithm": r.algorithm,
                          "measure": r.measure, "published": r.value_num, "printed": r.value,
                          "published_pm": r.plusminus} for r in pub.itertuples()])
    keys = ["paper", "table", "dataset", "algorithm", "measure"]
    joined = beside_published(pubk, pd.DataFrame(ours, columns=keys + ["ours", "ours_se", "note"]), keys,
                              pd.DataFrame(reason_rows, columns=keys + ["reason"]))
    disp = display_beside(joined, ["algorithm", "measure"])
    # times differ between machines: no difference of seconds measured on two machines (the column is
    # blank for training times); each is compared as a ratio to a reference instead
    disp.loc[disp["measure"] == "training time", "diff"] = ""
    ref = "XGBoost_default" if "XGBoost_default" in algos else algos[0]
    t = joined[joined["measure"] == "training time"].set_index("algorithm")
    ratios = [(None, None)] * len(joined)
    if ref in t.index:
        ratio, ratios = [], []
        for r in joined.to_dict("records"):
            if r["measure"] != "training time":
                ratio.append("")
                ratios.append((None, None))
                continue
            pub_r = r["published"] / t.loc[ref, "published"] if t.loc[ref, "published"] else np.nan
            our_r = r["ours"] / t.loc[ref, "ours"] if t.loc[ref, "ours"] else np.nan
            ratio.append(f"published {pub_r:.2f}, ours {our_r:.2f}".replace("nan", "–"))
            ratios.append((pub_r, our_r))
        disp.insert(len(disp.columns) - 1, f"time / {ref}'s", ratio)
    if facts is not None:
        rows = [{"algorithm": r["algorithm"], "measure": r["measure"], "published": r["published"],
                 "published_text": r["printed"] or None, "published_pm_text": r["published_pm"] or None,
                 "ours": r["ours"], "ours_se": r["ours_se"],
                 "n_datasets": len(common) if pd.notna(r["ours"]) else None, "reason": r["reason"],
                 "time_ref": ref if ref in t.index and r["measure"] == "training time" else None,
                 "published_time_ratio": pr, "ours_time_ratio": orr}
                for r, (pr, orr) in zip(joined.to_dict("records"), ratios)]
        facts.add_table(f"table{number}_averages", _frame(rows, AVERAGE_FACT_COLUMNS),
                        f"{PAPER}/table{number}_averages.csv",
                        about=f"Table {number}: published average beside ours (mean and standard error over the "
                              f"n_datasets where every algorithm of the table has a complete run; training times in "
                              f"CPU seconds, without a standard error), and each training time / time_ref's")
    cap = {5: "Table 5: average performance of ESKDB with HDP and with M-estimation",
           6: "Table 6: ESKDB compared with RF and XGBoost (averages)",
           8: "Table 8: as Table 6 without the tic-tac-toe dataset",
           9: "Table 9: averaged RMSE, error rate and training time (s) of every classifier"}[number]
    cap += ("; ours: mean ± standard error over the datasets where every algorithm of the table has a complete run"
            "; times are CPU seconds on this machine (the paper's machine differs)")
    return write_table(disp, out / f"table{number}_averages", index=False, caption=cap)


def _kdb_variants(vals: dict, amap: dict, common) -> dict[str, str]:
    """KDB with a k other than the paper's KDB config (:data:`KDB_VARIANTS`): name -> algo, for the
    ones with RMSE and error rate on every dataset of ``common``."""
    return {n: a for n, a in KDB_VARIANTS.items()
            if a != amap["KDB"] and all(a in vals[m].columns and vals[m].loc[common, a].notna().all()
                                        for m in ("rmse", "error"))}


def _paper_rows() -> dict[str, float]:
    """Our dataset name -> the paper's Table 1 row count (the size groups of the order check)."""
    pds = published.datasets(PAPER)
    return {r.ours: float(r.rows) for r in pds.itertuples() if r.ours}


def _size_groups(datasets) -> dict[str, list[str]]:
    """"all" and each :data:`SIZE_GROUPS` label -> the datasets of ``datasets`` in it."""
    rows = _paper_rows()
    out = {"all": list(datasets)}
    for label, lo, hi in SIZE_GROUPS:
        out[label] = [d for d in datasets if d in rows and lo < rows[d] <= hi]
    return out


def _order_text(means: pd.Series) -> str:
    """Names from worst (highest) to best, as the paper lists them ("a > b" = a worse than b)."""
    return " > ".join(means.sort_values(ascending=False).index)


def _order_by_group(vals: dict, names: dict[str, str], common) -> pd.DataFrame:
    """Per size group and measure: the mean of each name's algo over the group's datasets of
    ``common`` (one row per group x measure; columns = names, plus n and the order)."""
    rows = []
    for group, ds in _size_groups(list(common)).items():
        for mname, m in ACCURACY.items():
            row = {"datasets": group, "n": len(ds), "measure": mname}
            means = pd.Series({n: float(vals[m].loc[ds, a].mean()) if ds else np.nan for n, a in names.items()})
            row.update(means.to_dict())
            row["order (worst first)"] = _order_text(means.dropna()) if ds else ""
            rows.append(row)
    return pd.DataFrame(rows)


def _bnc_order(vals: dict, amap: dict, out: Path) -> list[Path]:
    """Table 9's average RMSE and error rate of NB, KDB, SKDB, ESKDB_M and ESKDB_HDP, and their order,
    ours over the datasets where the five have complete runs (Table 9 itself needs RF and XGBoost as
    well, so it may cover fewer datasets), over all of them and by size group (the paper's rows). KDB is the paper's KDB-5 config; KDB-1 and KDB-2, where stored, are extra rows marked
    as not in the paper, and are not used in the order."""
    pub9 = published.values(PAPER, 9).set_index(["algorithm", "measure"])["value_num"]
    cols = [amap.get(a) for a in ORDER_ALGOS]
    if vals["rmse"].empty or any(c not in vals["rmse"].columns for c in cols):
        return []
    common = vals["rmse"][cols].dropna().index.intersection(vals["error"][cols].dropna().index)
    if common.empty:
        return []
    rows = []
    names = list(ORDER_ALGOS)
    extra = _kdb_variants(vals, amap, common)
    for name in names + list(extra):
        a = extra.get(name, amap.get(name))
        row = {"algorithm": name if name not in extra else f"{name} ({a}, not in the paper)", "config": a}
        for mname, m in ACCURACY.items():
            row[f"{mname} published"] = pub9.get((name, mname), np.nan) if name not in extra else np.nan
            row[f"{mname} ours"] = float(vals[m].loc[common, a].mean())
        rows.append(row)
    df = pd.DataFrame(rows)
    core = df.iloc[:len(names)]
    for mname in ("RMSE", "error rate"):
        df[f"{mname} rank published"] = core[f"{mname} published"].rank(ascending=False).reindex(df.index)
        df[f"{mname} rank ours"] = core[f"{mname} ours"].rank(ascending=False).reindex(df.index)

    def _same(tab, mname="RMSE") -> bool:
        return bool((tab[f"{mname} published"].rank() == tab[f"{mname} ours"].rank()).all())

    same = {m: _same(core, m) for m in ("RMSE", "error rate")}
    order = " > ".join(core.sort_values("RMSE ours", ascending=False)["algorithm"])
    n_pub = len(published.datasets(PAPER))
    cap = (f"Table 9, order of the Bayesian network classifiers: average RMSE and error rate over the "
           f"{len(common)} datasets where NB, KDB, SKDB, ESKDB_M and ESKDB_HDP all have complete runs "
           f"(the paper averages over {n_pub}; rank 1 = worst, as the paper lists them); our RMSE order "
           f"{order}: {'the same as' if same['RMSE'] else 'NOT the same as'} the paper's; error-rate order "
           f"{'the same' if same['error rate'] else 'NOT the same'}. KDB is k = 5 (the paper's code); rows "
           f"marked 'not in the paper' are other k, shown for comparison only")
    for c in df.columns:
        if "rank" in c:
            df[c] = df[c].map(lambda x: "" if pd.isna(x) else f"{int(x)}")
        elif "published" in c or "ours" in c:
            df[c] = df[c].map(lambda x: "" if pd.isna(x) else f"{x:.4f}")
    files = write_table(df, out / "table9_bnc_order", index=False, caption=cap)
    # by dataset size
    groups = _order_by_group(vals, dict(zip(names, cols)), common)
    pub_order = _order_text(pd.Series({n: pub9.get((n, "RMSE"), np.nan) for n in names}))
    groups["same as the paper's RMSE order"] = [
        ("yes" if r["order (worst first)"] == pub_order else "no") if r["measure"] == "RMSE" and r["n"] else ""
        for r in groups.to_dict("records")]
    groups["KDB - NB"] = groups["KDB"] - groups["NB"]
    for c in names + ["KDB - NB"]:
        groups[c] = groups[c].map(lambda x: "" if pd.isna(x) else f"{x:.4f}")
    files += write_table(groups, out / "table9_bnc_order_by_size", index=False,
                         caption=f"Table 9's order by dataset size (the paper's Table 1 rows), ours: mean RMSE and "
                                 f"error rate over the datasets of each group where the five have complete runs; "
                                 f"the paper's RMSE order (worst first): {pub_order}. {_coverage(list(common))}")
    return files


def _coverage(common) -> str:
    """One line: how many of the paper's datasets the averages leave out, and how many of its largest."""
    pds = published.datasets(PAPER)
    n_pub, n_common = len(pds), len(common)
    big = pds[pds["rows"].astype(float) > 20000]
    n_big_absent = int(sum(1 for r in big.itertuples() if not r.ours or r.ours not in set(common)))
    return (f"The paper averages over {n_pub} datasets; {n_pub - n_common} of them are not in ours, among them "
            f"{n_big_absent} of its {len(big)} datasets with more than 20000 rows.")


def _kdb_fixes(ctx: ReportContext, out: Path) -> list[Path]:
    """The KDB family before and after each fix (:data:`FIX_VARIANTS`, experiment
    :data:`FIX_EXPERIMENT`): mean RMSE and error rate by size group. Each family (KDB, SKDB, ESKDB;
    NB is in every family as the reference) is averaged over the datasets where all its stored
    variants and NB are complete, so the rows of one family compare like with like; the number of
    datasets is given per row. Nothing is written when the experiment has no complete run."""
    exp = ctx.experiment(FIX_EXPERIMENT)
    have = set(exp.algos())
    names = {n: a for n, a in FIX_VARIANTS.items() if a in have}
    if len(names) < 2 or "nb_disc" not in have:
        return []
    vals = {m: exp.means(m) for m in ("rmse", "error")}
    families = {"KDB": ("nb_disc", "kdb0", "kdb_bench", "kdb_slot", "kdb", "kdb1"),
                "SKDB": ("nb_disc", "skdb_bench", "skdb_slot", "skdb_slot_weka", "skdb"),
                "ESKDB": ("nb_disc", "eskdb_m_bench", "eskdb_m", "eskdb_hdp")}
    rows = []
    for fam, algos in families.items():
        fam_names = {n: a for n, a in names.items() if a in algos}
        if len(fam_names) < 2:
            continue
        cols = list(fam_names.values())
        common = vals["rmse"][cols].dropna().index.intersection(vals["error"][cols].dropna().index)
        if common.empty:
            continue
        groups = _order_by_group(vals, fam_names, common)
        for n, a in fam_names.items():
            row = {"family": fam, "variant": n, "config": a}
            for g in groups.to_dict("records"):
                if g["measure"] == "RMSE":
                    row[f"n {g['datasets']}"] = int(g["n"])
                key = f"{g['datasets']} {g['measure']}"
                row[key] = "" if pd.isna(g[n]) else f"{g[n]:.4f}"
            rows.append(row)
    if not rows:
        return []
    tab = pd.DataFrame(rows)
    return write_table(tab, out / "table9_kdb_fixes", index=False,
                       caption=f"bench's KDB family before and after each fix (experiment "
                               f"{FIX_EXPERIMENT}, eskdb_main's protocol and folds): mean RMSE and error rate by "
                               f"size group (the paper's Table 1 rows); each family over the datasets where all "
                               f"its stored variants and NB are complete (n per group). 'bench before' = a "
                               f"missing-value slot in every column, stable ties, exact leave-one-out; 'missing "
                               f"slot' = a slot only where values are missing (base rate 1/|X| on complete data); "
                               f"'ties' = the ESKDB code's reversed Weka sort; 'LOO rule' = the ESKDB code's "
                               f"leave-one-out pass")


# ---------------------------------------------------------------- figures
def _figures(ctx, exp, vals, amap, label, out: Path, res: PaperResult) -> list[Path]:
    files = []
    files += _fig1(exp, vals, amap, out, res)
    abl = ctx.experiment(EXPERIMENTS["ablation"])
    amap_abl = _resolve(abl, ABLATION)
    avals = {m: abl.means(m) for m in ("rmse", "error")}
    for fig, (a, b) in ((3, ("ES-KDB", "ES-KDB_randomO")), (4, ("ES-KDB", "ES-KDB_randomCP")),
                        (5, ("ES-KDB_randomCP", "ES-KDB_randomO"))):
        files += _scatter_pair(abl, avals, amap_abl[a], amap_abl[b], a, b, f"fig{fig}_scatter", f"Fig. {fig}", out, res)
    files += _fig6(ctx.experiment(EXPERIMENTS["ensemble"]), out, res)
    files += _fig7(ctx.experiment(EXPERIMENTS["hdp"]), out, res)
    files += gibbs_iterations(ctx.experiment(EXPERIMENTS["iterations"]), out, res)
    files += uniform_prior(ctx.experiment(EXPERIMENTS["uniform"]), exp, out, res)
    files += _fig8(exp, vals, amap, out, res)
    return files


def _caption(exp, what: str, notes: str = "") -> Caption:
    """A figure caption for experiment ``exp``: its protocol, scale and stored records."""
    return Caption.of_plan(what, {**exp.plan, "experiment": exp.name}, exp.n_records,
                           data=f"experiment {exp.name}, the paper's datasets run here", notes=notes)


def _missing_fig(res: PaperResult, item: str, exp, algos: list[str], names: list[str]) -> bool:
    """Record why a figure cannot be drawn; True when it cannot."""
    bad = [(n, exp.algo_reason(a)) for n, a in zip(names, algos) if exp.algo_reason(a)]
    for n, why in bad:
        res.add_missing(item, "", n, why)
    return bool(bad)


def _fig1(exp, vals, amap, out, res) -> list[Path]:
    have = [a for a in FIG1_ALGOS if exp.algo_reason(amap[a]) is None]
    for a in FIG1_ALGOS:
        if a not in have:
            res.add_missing("Fig. 1", "", a, exp.algo_reason(amap[a]))
    if len(have) < 2:
        return []
    cols = [amap[a] for a in have]
    common = vals["rmse"][cols].dropna().index.intersection(vals["error"][cols].dropna().index)
    if common.empty:
        return []
    # KDB with another stored k, ours only, at the right end (the paper prints no k for its KDB)
    for name, a in _kdb_variants(vals, amap, common).items():
        have.append(f"{name}*")
        amap = {**amap, f"{name}*": a}
    pub9 = published.values(PAPER, 9).set_index(["algorithm", "measure"])["value_num"]
    series = {
        f"RMSE (ours, {len(common)} datasets)": pd.Series([vals["rmse"].loc[common, amap[a]].mean() for a in have],
                                                           index=have),
        f"error rate (ours, {len(common)} datasets)": pd.Series(
            [vals["error"].loc[common, amap[a]].mean() for a in have], index=have),
        "RMSE (published, Table 9)": pd.Series([pub9.get((a, "RMSE"), np.nan) for a in have], index=have),
        "error rate (published, Table 9)": pd.Series([pub9.get((a, "error rate"), np.nan) for a in have], index=have),
    }
    styles = {k: {"color": "tab:blue" if "RMSE" in k else "tab:red", "linestyle": "-" if "ours" in k else "--",
                  "marker": "o" if "ours" in k else "s"} for k in series}
    extra = [a for a in have if a.endswith("*")]
    cap = _caption(exp, f"Fig. 1: average RMSE (blue) and error rate (red) of each classifier over the {len(common)} "
                        f"datasets where all of them have complete runs (ours: solid, circles), beside the "
                        f"paper's Table 9 averages over its 72 datasets (dashed, squares)",
                   notes=f"{', '.join(extra)}: ours only, not in the paper (Laplace NB, KDB with another k)." if extra else "")
    return lines(series, "classifier" + (f" ({', '.join(extra)}: not in the paper)" if extra else ""),
                 "average over datasets", out / "fig1_average_rmse_error",
                 title="Fig. 1: average RMSE and error rate", styles=styles, caption=cap)


def _scatter_pair(exp, vals, xa, ya, xname, yname, stem, item, out, res) -> list[Path]:
    if _missing_fig(res, item, exp, [xa, ya], [xname, yname]):
        return []
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 4.6))
    for ax, (m, name) in zip(axes, (("rmse", "RMSE"), ("error", "error rate"))):
        v = vals[m]
        scatter_vs(v[xa], v[ya], f"{xname} {name}", f"{yname} {name}", Path(), title=name,
                   note=f"{xname} better above the diagonal", ax=ax)
    fig.suptitle(f"{item}: {xname} vs {yname}, per dataset")
    fig.tight_layout()
    n = len(pd.concat([vals["rmse"][xa], vals["rmse"][ya]], axis=1).dropna())
    cap = _caption(exp, f"{item}: RMSE (left) and error rate (right) of {xname} (x) against {yname} (y), one point "
                        f"per dataset ({n} datasets with both), square axes with equal limits and the diagonal "
                        f"y = x; points above the diagonal are datasets where {xname} has the lower value")
    return save(fig, out / stem, cap)


def _param_series(exp, base: str, param: str) -> dict:
    """Variant label -> parameter value, for variants of ``base`` swept over ``param``."""
    out = {}
    for algo in exp.algos():
        if algo.split("[", 1)[0] != base:
            continue
        v = variant_params(algo).get(param)
        if v is None:
            recs = exp.records[exp.records["algo"] == algo]
            v = ((recs["algo_config"].iloc[0] or {}).get("estimator") or {}).get(param) if not recs.empty else None
        if v is not None:
            out[algo] = v
    return out


def _fig6(exp, out, res) -> list[Path]:
    sizes = _param_series(exp, ALGOS["ESKDB_M"][0], ENSEMBLE_SIZE_PARAM)
    if len(sizes) < 2:
        why = exp.algo_reason(ALGOS["ESKDB_M"][0]) or f"fewer than 2 ensemble sizes stored ({ENSEMBLE_SIZE_PARAM})"
        res.add_missing("Fig. 6", "", "ESKDB_M", why)
        return []
    series, errs = {}, {}
    for m, name in (("rmse", "RMSE"), ("error", "error rate")):
        v = exp.means(m)
        algos = sorted(sizes, key=lambda a: float(sizes[a]))
        common = v[algos].dropna().index
        s = pd.Series([v.loc[common, a].mean() for a in algos], index=[float(sizes[a]) for a in algos])
        series[f"{name} ({len(common)} datasets)"] = s
        errs[f"{name} ({len(common)} datasets)"] = pd.Series(
            [standard_error(v.loc[common, a]) for a in algos], index=s.index)
    cap = _caption(exp, "Fig. 6: average RMSE and error rate of ESKDB_M over the datasets where every ensemble size "
                        "has a complete run, against the ensemble size, with bars of one standard error over the "
                        "datasets")
    return lines(series, "ensemble size", "average over datasets (± s.e.)", out / "fig6_ensemble_size",
                 title="Fig. 6: ESKDB_M as the ensemble grows", yerr=errs, caption=cap)


def _fig7(exp, out, res) -> list[Path]:
    base = ALGOS["ESKDB_HDP"][0]
    tying = _param_series(exp, base, TYING_PARAM)
    prior = _param_series(exp, base, PRIOR_PARAM)
    algos = [a for a in tying if a in prior]
    if len(algos) < 2:
        res.add_missing("Fig. 7", "", "ESKDB_HDP", exp.algo_reason(base) or
                        f"fewer than 2 ({TYING_PARAM}, {PRIOR_PARAM}) variants stored")
        return []
    v = exp.means("rmse")[algos].dropna()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    priors = sorted({str(prior[a]) for a in algos})
    tyings = [t for t in TYINGS if t in {str(tying[a]).lower() for a in algos}] or \
        sorted({str(tying[a]) for a in algos})
    width = 0.8 / max(len(priors), 1)
    shown: list[float] = []
    for i, p in enumerate(priors):
        ys = []
        for t in tyings:
            match = [a for a in algos if str(prior[a]) == p and str(tying[a]).lower() == t]
            col = v[match[0]] if match else pd.Series(dtype=float)
            ys.append(col.mean() if not col.empty else np.nan)
        xs = np.arange(len(tyings)) - 0.4 + width * (i + 0.5)
        ax.bar(xs, ys, width, label=f"prior {p}")
        for x, y_ in zip(xs, ys):
            if np.isfinite(y_):
                ax.annotate(f"{y_:.4f}", (x, y_), xytext=(0, 2), textcoords="offset points", ha="center",
                            va="bottom", fontsize=7)
        shown.extend(y_ for y_ in ys if np.isfinite(y_))
    if shown:  # zoom on the bars: the configurations differ by far less than the spread over datasets
        lo, hi = min(shown), max(shown)
        pad = max(hi - lo, 1e-3)
        ax.set_ylim(max(0.0, lo - 2 * pad), hi + pad)
    ax.set_xticks(np.arange(len(tyings)))
    ax.set_xticklabels(tyings)
    ax.set_xlabel("tying")
    ax.set_ylabel(f"average RMSE over {len(v)} datasets (y axis zoomed)")
    ax.set_title("Fig. 7: HDP tying strategies and priors")
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=len(priors))
    cap = _caption(exp, f"Fig. 7: average RMSE of ESKDB_HDP over the {len(v)} datasets where every variant has a "
                        f"complete run, per tying strategy (x) and prior (bars), each bar labelled with its value; "
                        f"the y axis is zoomed on the bars (it does not start at 0)")
    return save(fig, out / "fig7_hdp_tying", cap)


def gibbs_iterations(exp, out: Path, res: PaperResult) -> list[Path]:
    """Claim ES25 ("1,000 iterations of the sampler are sufficient"): ESKDB_HDP swept over the Gibbs
    iterations (:data:`ITERATIONS_PARAM`, experiment ``eskdb_gibbs_iterations``), on the datasets where every
    iteration count has a complete run. ``gibbs_iterations``: each count's mean RMSE and error rate with the
    standard error over the datasets; ``gibbs_iterations_tests`` (also the fact of that name): each count
    against the next larger (250 vs 1000, 1000 vs 5000), the mean difference (fewer - more iterations), W/D/L
    of the fewer iterations (a win = lower), the two-sided sign test p and the two-sided Wilcoxon
    signed-rank p over the datasets; a figure of the means."""
    its = {a: int(float(v)) for a, v in _param_series(exp, ALGOS["ESKDB_HDP"][0], ITERATIONS_PARAM).items()}
    if len(its) < 2:
        res.add_missing("Gibbs iterations", "", "ESKDB_HDP", exp.algo_reason(ALGOS["ESKDB_HDP"][0]) or
                        f"fewer than 2 iteration counts stored ({ITERATIONS_PARAM})")
        return []
    algos = sorted(its, key=its.get)
    rows, tests, series, errs = [], [], {}, {}
    for m, name in (("rmse", "RMSE"), ("error", "error rate")):
        v = exp.means(m)
        v = v[[a for a in algos if a in v.columns]].dropna() if not v.empty else v
        if v.empty or v.shape[1] < len(algos):
            continue
        for a in algos:
            rows.append({"measure": name, "iterations": its[a],
                         "mean ± s.e.": f"{v[a].mean():.4f} ± {standard_error(v[a]):.4f}", "datasets": len(v)})
        tests += [{"measure": name, "fewer": its[lo], "more": its[hi], **_paired_tests(v, lo, hi)}
                  for lo, hi in zip(algos[:-1], algos[1:])]
        key = f"{name} ({len(v)} datasets)"
        series[key] = pd.Series([v[a].mean() for a in algos], index=[its[a] for a in algos])
        errs[key] = pd.Series([standard_error(v[a]) for a in algos], index=series[key].index)
    if not tests:
        res.add_missing("Gibbs iterations", "", "ESKDB_HDP", "no dataset where every iteration count has a "
                                                             "complete run")
        return []
    tab = pd.DataFrame(tests)
    res.facts.add_table("gibbs_iterations_tests", tab, f"{PAPER}/gibbs_iterations_tests.csv",
                        about="ESKDB_HDP with fewer against more Gibbs iterations, per measure: mean difference "
                              "(fewer - more), W/D/L of the fewer (a win = lower), two-sided sign test and Wilcoxon "
                              "signed-rank p over the datasets where every count has a complete run")
    n = int(tab["n_datasets"].iloc[0])
    res.facts.add_value("gibbs_iterations_datasets", {"complete": n, "planned": len(exp.plan.get("datasets") or []),
                                                      "scale": exp.plan.get("scale")},
                        f"{PAPER}/gibbs_iterations_tests.csv",
                        about="the datasets where every iteration count has a complete run, and the experiment's "
                              "planned datasets (its cheapest) and scale")
    where = f"the {n} datasets of experiment {exp.name} where every iteration count has a complete run"
    files = write_table(pd.DataFrame(rows), out / "gibbs_iterations", index=False,
                        caption=f"ESKDB_HDP by number of Gibbs iterations (burn-in 100): mean RMSE and error rate "
                                f"± standard error over {where}")
    shown = _tests_shown(tab, "iterations", [f"{a} vs {b}" for a, b in zip(tab["fewer"], tab["more"])])
    files += write_table(shown, out / "gibbs_iterations_tests", index=False,
                         caption=f"ESKDB_HDP, fewer against more Gibbs iterations, over {where}: mean difference "
                                 f"(fewer - more; negative = fewer iterations better), W/D/L of the fewer "
                                 f"iterations (a win = lower), two-sided binomial sign test p and two-sided Wilcoxon "
                                 f"signed-rank p")
    cap = _caption(exp, f"ESKDB_HDP: mean RMSE and error rate over {where}, against the number of Gibbs "
                        f"iterations, with bars of one standard error over the datasets")
    return files + lines(series, "Gibbs iterations", "average over datasets (± s.e.)", out / "gibbs_iterations",
                         title="ESKDB_HDP by number of Gibbs iterations", yerr=errs, caption=cap)


def _paired_tests(v: pd.DataFrame, a: str, b: str) -> dict:
    """Column ``a`` against ``b`` of per-dataset values ``v``: mean difference (a - b), W/D/L of ``a`` (a win =
    lower), the two-sided sign test p and the two-sided Wilcoxon signed-rank p, the number of datasets."""
    w = wdl(v[a], v[b], test="sign2")
    return {"mean_difference": float((v[a] - v[b]).mean()), "wins": w.wins, "draws": w.draws, "losses": w.losses,
            "sign_p": w.p, "wilcoxon_p": wilcoxon_signed_rank(v[a], v[b]).p, "n_datasets": len(v)}


def _tests_shown(tab: pd.DataFrame, pair: str, pairs) -> pd.DataFrame:
    """A table of :func:`_paired_tests` rows as it is shown, its pairs in column ``pair``."""
    return pd.DataFrame({"measure": tab["measure"], pair: pairs,
                         "mean difference": tab["mean_difference"].map(lambda x: f"{x:+.6f}"),
                         "W/D/L": [f"{w}/{d}/{l_}" for w, d, l_ in zip(tab["wins"], tab["draws"], tab["losses"])],
                         "sign test p": tab["sign_p"].map(lambda x: f"{x:.4f}"),
                         "Wilcoxon p": tab["wilcoxon_p"].map(lambda x: f"{x:.4f}"), "datasets": tab["n_datasets"]})


#: experiment eskdb_uniform_prior's comparisons (claims ES24, ES26): (row, column), a win = the row lower
UNIFORM_PAIRS = (("uniform 10000", "uniform 50000"), ("Gamma(2,1) 1000", "uniform 10000"),
                 ("Gamma(2,1) 1000", "uniform 50000"))


def uniform_prior(exp, main, out: Path, res: PaperResult) -> list[Path]:
    """Claims ES24 (Petitjean et al. 2018's sampler "requires 50,000 iterations") and ES26 ("10x fewer
    samples"): ESKDB_HDP with the uniform concentration prior at each stored number of Gibbs iterations
    (experiment ``eskdb_uniform_prior``) beside the Gamma(2,1) prior at 1000 (``eskdb_main``'s
    ``eskdb_hdp``, the same splits), on the datasets where all have complete runs. ``uniform_prior``: each
    one's mean RMSE and error rate ± standard error; ``uniform_prior_tests`` (also the fact of that name): the
    pairs of :data:`UNIFORM_PAIRS`, mean difference (row - column), W/D/L of the row (a win = lower), the
    two-sided sign test p and Wilcoxon signed-rank p over the datasets."""
    base = ALGOS["ESKDB_HDP"][0]
    its, prior = _param_series(exp, base, ITERATIONS_PARAM), _param_series(exp, base, PRIOR_PARAM)
    named = {f"uniform {int(float(its[a]))}": a for a in sorted(its, key=lambda a: float(its[a]))
             if str(prior.get(a)) == "uniform"}
    if not named or main.algo_reason(base):
        res.add_missing("uniform prior", "", "ESKDB_HDP", main.algo_reason(base) if named else
                        exp.algo_reason(base) or "no uniform-prior variant stored")
        return []
    rows, tests = [], []
    for m, name in (("rmse", "RMSE"), ("error", "error rate")):
        ev, mv = exp.means(m), main.means(m)
        if ev.empty or mv.empty:
            continue
        v = pd.concat([ev[list(named.values())].set_axis(list(named), axis=1),
                       mv[[base]].set_axis(["Gamma(2,1) 1000"], axis=1)], axis=1, join="inner").dropna()
        if v.empty:
            continue
        rows += [{"measure": name, "prior and iterations": c, "mean ± s.e.": f"{v[c].mean():.4f} ± "
                  f"{standard_error(v[c]):.4f}", "datasets": len(v)} for c in v.columns]
        tests += [{"measure": name, "row": a, "col": b, **_paired_tests(v, a, b), "datasets": " ".join(v.index)}
                  for a, b in UNIFORM_PAIRS if {a, b} <= set(v.columns)]
    if not tests:
        res.add_missing("uniform prior", "", "ESKDB_HDP", "no dataset with complete runs of every variant")
        return []
    steps = _uniform_prior_steps(exp, main, named, out, res)
    tab = pd.DataFrame(tests)
    res.facts.add_table("uniform_prior_tests", tab, f"{PAPER}/uniform_prior_tests.csv",
                        about="ESKDB_HDP, uniform prior at several Gibbs iterations and Gamma(2,1) at 1000, per "
                              "measure and pair: mean difference (row - col), W/D/L of the row (a win = lower), "
                              "two-sided sign test and Wilcoxon signed-rank p, the datasets")
    where = (f"the {int(tab['n_datasets'].iloc[0])} datasets of experiment {exp.name} where every variant has a "
             f"complete run ({tab['datasets'].iloc[0].replace(' ', ', ')}); Gamma(2,1) 1000 is {main.name}'s "
             f"ESKDB_HDP on the same splits")
    files = write_table(pd.DataFrame(rows), out / "uniform_prior", index=False,
                        caption=f"ESKDB_HDP with the uniform concentration prior (Petitjean et al. 2018) by number of "
                                f"Gibbs iterations, and with Gamma(2,1) at 1000: mean RMSE and error rate ± standard "
                                f"error over {where}")
    shown = _tests_shown(tab, "row vs col", tab["row"] + " vs " + tab["col"])
    return files + steps + write_table(shown, out / "uniform_prior_tests", index=False,
                               caption=f"ESKDB_HDP, row against column over {where}: mean difference (row - col; "
                                       f"negative = row better), W/D/L of the row (a win = lower), two-sided "
                                       f"binomial sign test p and two-sided Wilcoxon signed-rank p")


def _uniform_prior_steps(exp, main, named: dict, out: Path, res: PaperResult) -> list[Path]:
    """The table and fact ``uniform_prior_steps`` (claim ES24's cause): per dataset of experiment
    ``eskdb_uniform_prior`` with every uniform-prior count complete, its rows, the mean RMSE at each count (``rmse_<count>``), the change
    of the mean from each count to the next (``change_<a>_<b>``: later - earlier) and that change's standard
    error over the splits (``se_<a>_<b>``: the per-split differences' standard deviation / sqrt(splits), the
    same folds); and the fact ``uniform_prior_main_rows``: the rows of eskdb_main's datasets (how large the
    datasets run here are among them)."""
    sv = exp.splits("rmse")
    counts = sorted(named, key=lambda c: int(c.split()[-1]))
    if sv.empty or any(named[c] not in sv.columns for c in counts):
        return []
    v = sv[[named[c] for c in counts]].set_axis([int(c.split()[-1]) for c in counts], axis=1).dropna()
    rows_of = exp.records.groupby("dataset")["n_instances"].first()
    rows = []
    for ds, g in v.groupby(level="dataset"):
        r = {"dataset": ds, "rows": int(rows_of.get(ds, 0)), "splits": len(g)}
        r.update({f"rmse_{c}": float(g[c].mean()) for c in g.columns})
        for a, b in zip(g.columns[:-1], g.columns[1:]):
            d = g[b] - g[a]
            r[f"change_{a}_{b}"] = float(d.mean())
            r[f"se_{a}_{b}"] = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float("nan")
        rows.append(r)
    if not rows:
        return []
    steps = pd.DataFrame(rows)
    res.facts.add_table("uniform_prior_steps", steps, f"{PAPER}/uniform_prior_steps.csv",
                        about="ESKDB_HDP with the uniform prior, per dataset: rows, mean RMSE at each number of Gibbs "
                              "iterations, the change from each count to the next (later - earlier) and its standard "
                              "error over the splits")
    mr = main.records.groupby("dataset")["n_instances"].first() if not main.records.empty else pd.Series(dtype=float)
    if len(mr):
        res.facts.add_value("uniform_prior_main_rows", {"datasets": int(len(mr)), "median": float(mr.median()),
                                                        "max": int(mr.max())},
                            f"evidence/{EXPERIMENTS['main']}.records.parquet",
                            about="rows of eskdb_main's datasets: count, median, largest")
    return write_table(steps.round(6), out / "uniform_prior_steps", index=False,
                       caption=f"ESKDB_HDP with the uniform prior, per dataset of experiment {exp.name}: its rows, the "
                               f"mean RMSE at each number of Gibbs iterations, the change of the mean from each count "
                               f"to the next (later - earlier) and its standard error over the splits (the same folds)")


def _fig8(exp, vals, amap, out, res) -> list[Path]:
    names = ["ESKDB_HDP", "XGBoost_default", "XGBoost_tuned"]
    if _missing_fig(res, "Fig. 8", exp, [amap[n] for n in names], names):
        return []
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 4.6))
    for ax, other in zip(axes, ("XGBoost_default", "XGBoost_tuned")):
        scatter_vs(vals["rmse"][amap["ESKDB_HDP"]], vals["rmse"][amap[other]], "ESKDB_HDP RMSE", f"{other} RMSE",
                   Path(), title=other, note="ESKDB_HDP better above the diagonal (as in the paper)", ax=ax)
    fig.suptitle("Fig. 8: ESKDB_HDP vs XGBoost on RMSE, per dataset")
    fig.tight_layout()
    cap = _caption(exp, "Fig. 8: RMSE of ESKDB_HDP (x) against XGBoost_default (left) and XGBoost_tuned (right), one "
                        "point per dataset, square axes with equal limits and the diagonal y = x; points above it "
                        "are datasets where ESKDB_HDP has the lower RMSE")
    return save(fig, out / "fig8_scatter_xgb", cap)



def published_cells(missing: pd.DataFrame | None = None) -> int:
    """The (dataset, algorithm) cells of Tables 3-9 and Figs. 1, 8 that :func:`build` fills or lists as
    missing (:func:`.context.dataset_algo_cells`)."""
    return dataset_algo_cells(len(published.datasets(PAPER)), len(ALGOS), missing)

