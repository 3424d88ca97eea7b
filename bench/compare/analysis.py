"""The statistics of a comparison, from split records to tables: every number of the report is
computed here, and every test is one of :mod:`bench.stats` (the papers' instruments).

* per dataset and algorithm: mean error, RMSE and log-loss over the splits, with the standard error
  of that mean (:func:`bench.stats.spread.standard_error`; the splits of cross-validation are not
  independent, so it understates the uncertainty: a guide, not a test);
* win/draw/loss of every algorithm against the baseline, and of every pair, on the per-dataset
  means, with the one-tailed (ESKDB paper: p <= 0.05) and two-tailed (A2DE paper: p < 0.05)
  binomial sign tests (:mod:`bench.stats.pairwise`);
* Friedman's test with Iman and Davenport's F, the mean ranks and Nemenyi's critical difference
  (:mod:`bench.stats.ranks`, Demsar 2006);
* Wilcoxon signed-rank tests of every algorithm against the baseline (zero differences split,
  Demsar's choice), with Holm's step-down correction for the k - 1 tests (:func:`holm`);
* Kohavi-Wolpert bias and variance (:mod:`bench.stats.biasvar`) when the protocol has at least two
  rounds of cross-validation;
* training and test CPU time as ratios to the baseline, per dataset and their geometric mean.

Every test is paired over the datasets on which every algorithm has a complete run (the same
folds); a dataset missing any algorithm's run is left out of the tests and named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..measures import ACCURACY, MEASURES as _REGISTRY, TIMES as _TIMES

#: measures of accuracy compared: name -> label (from the registry; lower is better for all three)
MEASURES = {m: _REGISTRY[m].label for m in ACCURACY}
TIMES = {m: _REGISTRY[m].label for m in _TIMES}
ALPHA = 0.05


def holm(pvalues) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values: with the m p-values sorted ascending,
    p_adj(i) = max_{j <= i} min(1, (m - j + 1) p(j)); a hypothesis is rejected at alpha when its
    adjusted p-value is below alpha. NaN p-values are left NaN and not counted in m."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(adj)
    return out


def sign_test_floor(n: int) -> float:
    """The smallest two-tailed sign-test p-value ``n`` datasets can give (n wins, no loss)."""
    from ..stats.pairwise import sign_test

    return sign_test(n, 0, "two-sided") if n > 0 else 1.0


def wilcoxon_floor(n: int) -> float:
    """The smallest two-sided exact Wilcoxon p-value on ``n`` datasets: 2 / 2^n."""
    return min(1.0, 2.0 / 2.0 ** n) if n > 0 else 1.0


@dataclass
class Comparison:
    """Everything the report shows."""

    algos: list
    baseline: str
    datasets: list                          #: datasets with a complete run of every algorithm
    incomplete: dict                        #: dataset -> which algorithms lack a complete run
    means: dict                             #: measure -> datasets x algos (per-dataset means)
    ses: dict                               #: measure -> datasets x algos (standard errors over splits)
    n_splits: pd.DataFrame                  #: datasets x algos: ok splits
    vs_baseline: pd.DataFrame               #: algo, measure, wins, draws, losses, p one/two-tailed
    pairs: dict                             #: measure -> long table of every ordered pair
    friedman: dict                          #: measure -> dict of the rank analysis (or None)
    wilcoxon: pd.DataFrame
    biasvar: pd.DataFrame | None = None     #: dataset, algo, bias, variance, loss
    times: dict = field(default_factory=dict)   #: TIMES key -> datasets x algos of mean CPU seconds
    time_ratios: dict = field(default_factory=dict)
    rounds: int = 1


def _values(records: pd.DataFrame, measure: str, seeds) -> pd.DataFrame:
    from ..stats.collect import split_values

    return split_values(records, measure, seeds=seeds)


def analyse(records: pd.DataFrame, algos: list[str], baseline: str, seeds, biasvar: pd.DataFrame | None = None,
            alpha: float = ALPHA) -> Comparison:
    """The comparison of ``algos`` (``baseline`` among them) on ``records`` (rows of
    :func:`bench.store.load`, every algorithm's); ``biasvar`` gives bias and variance of algorithms
    whose predictions are not stored here (shipped evidence)."""
    from ..stats.pairwise import wdl
    from ..stats.spread import standard_error

    means, ses, n_ok = {}, {}, None
    for m in list(MEASURES) + list(TIMES):
        sv = _values(records, m, seeds)
        sv = sv.reindex(columns=algos) if not sv.empty else pd.DataFrame(columns=algos)
        g = sv.groupby(level="dataset") if not sv.empty else None
        means[m] = g.mean() if g is not None else pd.DataFrame(columns=algos)
        ses[m] = g.agg(lambda v: standard_error(v.dropna())) if g is not None else pd.DataFrame(columns=algos)
        if m == "error":
            n_ok = g.count() if g is not None else pd.DataFrame(columns=algos)
    err = means["error"]
    all_ds = sorted(set(records["dataset"])) if not records.empty else []
    incomplete = {}
    for d in all_ds:
        lacking = [a for a in algos if d not in err.index or pd.isna(err.loc[d, a])]
        if lacking:
            incomplete[d] = lacking
    complete = [d for d in err.index if d not in incomplete]
    # ------------------------------------------------------------ W/D/L and sign tests
    rows, pairs = [], {}
    for m in MEASURES:
        v = means[m].loc[complete] if complete else means[m].iloc[:0]
        long = []
        for a in algos:
            for b in algos:
                if a == b:
                    continue
                one = wdl(v[a].to_numpy(), v[b].to_numpy(), True, "sign1", alpha)
                two = wdl(v[a].to_numpy(), v[b].to_numpy(), True, "sign2", alpha)
                row = {"algorithm": a, "against": b, "measure": m, "wins": one.wins, "draws": one.draws,
                       "losses": one.losses, "p_one_tailed": one.p, "p_two_tailed": two.p,
                       "significant_one_tailed": one.significant, "significant_two_tailed": two.significant}
                long.append(row)
                if b == baseline:
                    rows.append(row)
        pairs[m] = pd.DataFrame(long)
    vs_baseline = pd.DataFrame(rows)
    # ------------------------------------------------------------ ranks
    fr = {m: friedman_analysis(means[m].loc[complete] if complete else means[m].iloc[:0], alpha) for m in MEASURES}
    # ------------------------------------------------------------ Wilcoxon + Holm
    wil = wilcoxon_vs_baseline(means, complete, algos, baseline)
    # ------------------------------------------------------------ bias / variance
    bv, rounds = bias_variance(records, algos, biasvar)
    if bv is not None and not bv.empty:
        for m in ("bias", "variance"):
            tab = bv.pivot_table(index="dataset", columns="algo", values=m).reindex(columns=algos)
            tab = tab.loc[[d for d in complete if d in tab.index]]
            for a in algos:
                if a == baseline or tab.empty:
                    continue
                one = wdl(tab[a].to_numpy(), tab[baseline].to_numpy(), True, "sign1", alpha)
                two = wdl(tab[a].to_numpy(), tab[baseline].to_numpy(), True, "sign2", alpha)
                vs_baseline = pd.concat([vs_baseline, pd.DataFrame([{
                    "algorithm": a, "against": baseline, "measure": m, "wins": one.wins, "draws": one.draws,
                    "losses": one.losses, "p_one_tailed": one.p, "p_two_tailed": two.p,
                    "significant_one_tailed": one.significant, "significant_two_tailed": two.significant}])],
                    ignore_index=True)
    # ------------------------------------------------------------ times
    times, ratios = {}, {}
    for t in TIMES:
        tm = means[t].loc[complete] if complete else means[t].iloc[:0]
        times[t] = tm
        with np.errstate(divide="ignore", invalid="ignore"):
            r = tm.div(tm[baseline], axis=0)
        ratios[t] = r.replace([np.inf, -np.inf], np.nan)
    return Comparison(algos, baseline, complete, incomplete, {m: means[m] for m in MEASURES},
                      {m: ses[m] for m in MEASURES}, n_ok, vs_baseline, pairs, fr, wil, bv, times, ratios, rounds)


def friedman_analysis(values: pd.DataFrame, alpha: float = ALPHA) -> dict | None:
    """Mean ranks, Friedman chi2_F and Iman-Davenport F_F with their p-values, Nemenyi's CD and
    groups, on datasets x algorithms (complete rows); None with fewer than two datasets."""
    from ..stats.ranks import critical_difference, friedman, nemenyi_cliques

    v = values.dropna(axis=0, how="any")
    if v.shape[0] < 2 or v.shape[1] < 2:
        return None
    res = friedman(v.to_numpy(), lower_is_better=True)
    cd = critical_difference(res.n_learners, res.n_datasets, alpha)
    return {"n_datasets": res.n_datasets, "n_algos": res.n_learners,
            "ranks": dict(zip(v.columns, map(float, res.average_ranks))), "chi2": res.chi2, "p_chi2": res.p_chi2,
            "f": res.f, "p_f": res.p_f, "df": res.df, "cd": float(cd), "rejects": res.rejects(alpha),
            "cliques": nemenyi_cliques(res.average_ranks, cd), "alpha": alpha}


def wilcoxon_vs_baseline(means: dict, complete: list, algos: list, baseline: str) -> pd.DataFrame:
    """Wilcoxon signed-rank tests (two-sided, zero differences split) of every algorithm against
    the baseline on the per-dataset means, per measure, with Holm's correction over the k - 1
    algorithms of each measure."""
    from ..stats.ttests import wilcoxon_signed_rank

    rows = []
    for m in MEASURES:
        v = means[m].loc[complete] if complete else means[m].iloc[:0]
        block = []
        for a in algos:
            if a == baseline:
                continue
            if len(v) == 0:
                block.append({"algorithm": a, "measure": m, "n": 0, "T": np.nan, "p": np.nan, "method": ""})
                continue
            w = wilcoxon_signed_rank(v[a].to_numpy(), v[baseline].to_numpy(), zero_method="zsplit")
            d = (v[a] - v[baseline]).to_numpy()
            block.append({"algorithm": a, "measure": m, "n": int(len(v)), "median difference": float(np.median(d)),  # algorithm - baseline: > 0 is worse
                          "T": w.statistic, "p": w.p, "method": w.method})
        adj = holm([r["p"] for r in block])
        for r, p in zip(block, adj):
            r["p_holm"] = p
            r["significant_holm"] = bool(p < ALPHA) if np.isfinite(p) else False
        rows += block
    return pd.DataFrame(rows)


def bias_variance(records: pd.DataFrame, algos: list, shipped: pd.DataFrame | None):
    """Kohavi-Wolpert bias and variance per (dataset, algo) when the records hold at least two
    rounds (seed, repeat) of cross-validation: from the stored predictions of the runs made here,
    from ``shipped`` (evidence) for the others. (None, rounds) with a single round."""
    from ..stats.biasvar import bias_variance_table

    ok = records[records["status"] == "ok"] if not records.empty else records
    if ok.empty:
        return None, 0
    rounds = int(ok.groupby(["dataset", "algo"])[["seed", "repeat"]].apply(lambda g: len(g.drop_duplicates())).max())
    if rounds < 2:
        return None, rounds
    here = ok[ok["source"] == "run"] if "source" in ok else ok
    frames = []
    if not here.empty:
        frames.append(bias_variance_table(here))
    if shipped is not None and not shipped.empty:
        prot = set(records["protocol"].dropna())
        done = set(frames[0]["algo"]) if frames and not frames[0].empty else set()
        s = shipped[shipped["algo"].isin([a for a in algos if a not in done]) & shipped["protocol"].isin(prot)]
        frames.append(s[s["dataset"].isin(set(records["dataset"]))])
    bv = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if bv.empty:
        return bv, rounds
    order = {a: i for i, a in enumerate(algos)}
    bv = bv.assign(_o=bv["algo"].map(order)).sort_values(["dataset", "_o"], kind="stable")
    return bv[["dataset", "algo", "bias", "variance", "loss"]].reset_index(drop=True), rounds


def geometric_mean(values) -> float:
    v = np.asarray([x for x in values if np.isfinite(x) and x > 0], dtype=np.float64)
    return float(np.exp(np.mean(np.log(v)))) if v.size else float("nan")


def _n_datasets(n: int) -> str:
    return f"{n} dataset{'s' if n != 1 else ''}"


def summary(c: Comparison, alpha: float = ALPHA) -> str:
    """The one-paragraph plain-language summary at the top of the report."""
    from ..report.compare import fmt_p

    n = len(c.datasets)
    parts = []
    fr = c.friedman.get("error")
    if n == 0:
        return ("No dataset has a complete run of every algorithm, so nothing could be compared; the tables below "
                "show what was computed.")
    if fr:
        order = sorted(fr["ranks"], key=fr["ranks"].get)
        parts.append(f"On {n} dataset{'s' if n != 1 else ''}, {order[0]} has the best mean rank by error "
                     f"({fr['ranks'][order[0]]:.2f}; {order[-1]} the worst, {fr['ranks'][order[-1]]:.2f}).")
        if fr["rejects"]:
            parts.append(f"The Friedman test finds the algorithms' error ranks differ (Iman-Davenport "
                         f"{fmt_p(fr['p_f'], True)}).")
        else:
            parts.append(f"The Friedman test does not find that the algorithms' error ranks differ (Iman-Davenport "
                         f"{fmt_p(fr['p_f'], True)}), so no ranking here is established.")
    else:
        best = c.means["error"].loc[c.datasets].mean().idxmin()
        parts.append(f"On the single dataset compared, {best} has the lowest error; no rank test is possible "
                     f"with one dataset.")
    vb = c.vs_baseline[c.vs_baseline["measure"] == "error"]
    sig = [f"{r.algorithm} {'beats' if r.wins > r.losses else 'loses to'} {c.baseline} ({r.wins}/{r.draws}/{r.losses}, "
           f"two-tailed sign test {fmt_p(r.p_two_tailed, True)})" for r in vb.itertuples() if r.significant_two_tailed]
    if sig:
        parts.append("Against the baseline on error: " + "; ".join(sig) + ".")
    else:
        parts.append(f"No algorithm's win/draw/loss record on error against the baseline {c.baseline} is "
                     f"significant by the two-tailed sign test.")
    thin = []
    if sign_test_floor(n) >= alpha:
        thin.append(f"with {_n_datasets(n)} even a clean sweep cannot make a two-tailed sign test significant "
                    f"(its smallest p is {sign_test_floor(n):.3f}; 6 datasets are the least)")
    if wilcoxon_floor(n) >= alpha:
        thin.append(f"the Wilcoxon test cannot reach p < {alpha} on {_n_datasets(n)}")
    if c.incomplete:
        thin.append(f"{len(c.incomplete)} dataset(s) lack a complete run of some algorithm and are left out of the "
                    f"tests ({', '.join(sorted(c.incomplete))})")
    if thin:
        parts.append("The evidence is thin: " + "; ".join(thin) + ".")
    else:
        parts.append(f"With {n} datasets the tests can detect consistent differences; a non-significant result "
                     f"still only means no consistent difference was found.")
    return " ".join(parts)
