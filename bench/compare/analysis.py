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
* Wilcoxon signed-rank tests of every algorithm against the baseline (zero differences split and,
  when their number is odd, one dropped: Demsar's rule), exact (or an exact permutation p-value
  with ties or zeros on up to 20 datasets) where the normal approximation is poor, with Holm's
  step-down correction for the k - 1 tests (:func:`bench.stats.posthoc.holm`); Holm's correction
  over the k - 1 sign tests against the baseline too;
* the Bayesian signed-rank test of every algorithm against the baseline over the datasets, at each
  region of practical equivalence (ROPE) asked for, and the Bayesian correlated t-test on each
  dataset's splits (:mod:`bench.stats.bayes`, Benavoli et al. 2017), and on error the Bayesian
  hierarchical model over every split of every dataset (:mod:`bench.stats.hierarchical`, Corani et al.
  2017);
* Cliff's delta with its magnitude and bootstrap interval (:mod:`bench.stats.effect`);
* Conover's Friedman post-hoc and the Wilcoxon test of every pair, Holm-adjusted, and every
  algorithm against the baseline by the Friedman z statistics with Bonferroni-Dunn, Holm and
  Hochberg (:mod:`bench.stats.posthoc`, Demsar 2006 Sec. 3.2.2);
* Weka Experimenter's per-dataset significance: the corrected resampled t-test on each dataset's
  splits (:func:`bench.stats.ttests.corrected_resampled_ttest`), marks ``v`` / ``*`` and the matrix
  of significant wins and losses of every pair;
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
from ..stats.posthoc import holm, rejects

#: measures of accuracy compared: name -> label (from the registry; lower is better for all three)
MEASURES = {m: _REGISTRY[m].label for m in ACCURACY}
TIMES = {m: _REGISTRY[m].label for m in _TIMES}
ALPHA = 0.05
#: the Wilcoxon tests of the report: Demsar's zero rule, exact p-values where the approximation is poor
WILCOXON_ZERO, WILCOXON_METHOD = "demsar", "auto_exact"

__all__ = ["ALPHA", "Comparison", "MEASURES", "TIMES", "analyse", "holm", "rejects", "summary"]


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
    ropes: list = field(default_factory=list)           #: the ROPEs of the Bayesian tests on error, the first the summary's
    measure_ropes: dict = field(default_factory=dict)   #: measure -> its ROPEs (``--rope``'s, else its default)
    bayes: pd.DataFrame | None = None                   #: Bayesian signed-rank: algorithm, measure, rope, probabilities
    bayes_samples: dict = field(default_factory=dict)   #: (algorithm, rope) -> posterior draws on error
    bayes_datasets: pd.DataFrame | None = None          #: Bayesian correlated t per dataset, on error
    hierarchical: pd.DataFrame | None = None            #: Bayesian hierarchical model over the datasets, on error
    effects: pd.DataFrame | None = None                 #: Cliff's delta per algorithm and measure
    weka: dict = field(default_factory=dict)            #: measure -> per-dataset corrected t against the baseline
    weka_pairs: dict = field(default_factory=dict)      #: measure -> significant W/D/L of every ordered pair
    conover: dict = field(default_factory=dict)         #: measure -> algos x algos, Conover p (Holm)
    wilcoxon_pairs: dict = field(default_factory=dict)  #: measure -> long table of every pair, Holm
    control: dict = field(default_factory=dict)         #: measure -> Friedman z tests against the baseline


def _values(records: pd.DataFrame, measure: str, seeds) -> pd.DataFrame:
    from ..stats.collect import split_values

    return split_values(records, measure, seeds=seeds)


def analyse(records: pd.DataFrame, algos: list[str], baseline: str, seeds, biasvar: pd.DataFrame | None = None,
            alpha: float = ALPHA, ropes=None) -> Comparison:
    """The comparison of ``algos`` (``baseline`` among them) on ``records`` (rows of
    :func:`bench.store.load`, every algorithm's); ``biasvar`` gives bias and variance of algorithms
    whose predictions are not stored here (shipped evidence); ``ropes`` the regions of practical
    equivalence of the Bayesian tests, for every measure (default: each measure's own,
    :func:`bench.stats.bayes.default_rope`)."""
    from ..stats.bayes import default_rope

    given = [float(r) for r in ropes] if ropes else None
    measure_ropes = {m: given or [default_rope(m)] for m in MEASURES}
    ropes = measure_ropes["error"]
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
    if not vs_baseline.empty:   # Holm over the k - 1 sign tests against the baseline, per measure
        vs_baseline["p_two_tailed_holm"] = vs_baseline.groupby("measure")["p_two_tailed"].transform(
            lambda p: holm(p.to_numpy()))
        vs_baseline["significant_two_tailed_holm"] = vs_baseline.groupby("measure")["p_two_tailed"].transform(
            lambda p: rejects(p.to_numpy(), "holm", alpha)).astype(bool)
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
    c = Comparison(algos, baseline, complete, incomplete, {m: means[m] for m in MEASURES},
                   {m: ses[m] for m in MEASURES}, n_ok, vs_baseline, pairs, fr, wil, bv, times, ratios, rounds, ropes)
    c.measure_ropes = measure_ropes
    beyond(c, records, seeds, alpha)
    return c


def beyond(c: Comparison, records: pd.DataFrame, seeds, alpha: float = ALPHA) -> None:
    """Fill ``c``'s Bayesian tests, effect sizes, post-hoc tests and per-dataset significance."""
    from ..stats.bayes import signed_rank
    from ..stats.effect import effect_size
    from ..stats.posthoc import conover_friedman, control_tests, wilcoxon_pairs

    others = [a for a in c.algos if a != c.baseline]
    brows, erows = [], []
    for m in MEASURES:
        v = c.means[m].loc[c.datasets] if c.datasets else c.means[m].iloc[:0]
        for a in others:
            if len(v) >= 2:
                for rope in c.measure_ropes.get(m) or c.ropes:
                    r = signed_rank(v[a].to_numpy(), v[c.baseline].to_numpy(), rope, keep_samples=(m == "error"))
                    brows.append({"algorithm": a, "measure": m, "rope": rope, "n": r.n, "p_algorithm": r.p_a,
                                  "p_rope": r.p_rope, "p_baseline": r.p_b,
                                  "decision": {"a": a, "rope": "equivalent", "b": c.baseline}.get(r.decision(), ""),
                                  "method": r.method})
                    if m == "error":
                        c.bayes_samples[(a, rope)] = r.samples
            if len(v) >= 1:
                e = effect_size(v[a].to_numpy(), v[c.baseline].to_numpy())
                erows.append({"algorithm": a, "measure": m, "n": e.n, "cliffs_delta": e.delta, "ci_low": e.low,
                              "ci_high": e.high, "magnitude": e.magnitude, "method": e.method})
        if len(v) >= 2 and len(c.algos) >= 2:
            c.conover[m] = conover_friedman(v, p_adjust="holm")
            c.wilcoxon_pairs[m] = wilcoxon_pairs(v, zero_method=WILCOXON_ZERO, method=WILCOXON_METHOD)
            fr = c.friedman.get(m)
            if fr is not None:
                c.control[m] = control_tests(fr["ranks"], fr["n_datasets"], c.baseline, alpha)
    c.bayes = pd.DataFrame(brows, columns=["algorithm", "measure", "rope", "n", "p_algorithm", "p_rope", "p_baseline",
                                           "decision", "method"])
    c.effects = pd.DataFrame(erows, columns=["algorithm", "measure", "n", "cliffs_delta", "ci_low", "ci_high",
                                             "magnitude", "method"])
    per_dataset(c, records, seeds, alpha)


def _test_fraction(records: pd.DataFrame) -> pd.Series:
    """dataset -> mean n_test / (n_train + n_test) of its successful splits."""
    ok = records[records["status"] == "ok"] if not records.empty else records
    if ok.empty or "n_test" not in ok or "n_train" not in ok:
        return pd.Series(dtype=float)
    f = ok["n_test"].astype(float) / (ok["n_train"].astype(float) + ok["n_test"].astype(float))
    return f.groupby(ok["dataset"]).mean()


def per_dataset(c: Comparison, records: pd.DataFrame, seeds, alpha: float = ALPHA) -> None:
    """Weka Experimenter's per-dataset significance (the corrected resampled t-test on the paired
    splits, n_test / n_train from the records) of every algorithm against the baseline, and of every
    ordered pair (significant W/D/L); the Bayesian correlated t-test per dataset on error, at each ROPE."""
    from ..stats.bayes import correlated_ttest
    from ..stats.ttests import corrected_resampled_ttest

    frac = _test_fraction(records)
    brows = []
    for m in MEASURES:
        sv = _values(records, m, seeds)
        if sv.empty or not c.datasets:
            continue
        sv = sv.reindex(columns=c.algos)
        per = {}
        for d in c.datasets:
            if d not in frac.index or d not in sv.index.get_level_values("dataset"):
                continue
            block = sv.xs(d, level="dataset").dropna(how="any")
            if len(block) < 2:
                continue
            rho = float(frac[d])
            per[d] = (block, rho)
        rows = []
        for d, (block, rho) in per.items():
            for a in c.algos:
                if a == c.baseline:
                    continue
                t = corrected_resampled_ttest(block[a].to_numpy(), block[c.baseline].to_numpy(), rho / (1.0 - rho))
                better = t.statistic < 0           # lower is better for every measure compared
                mark = ("v" if better else "*") if t.p < alpha else ""
                rows.append({"dataset": d, "algorithm": a, "mean": float(block[a].mean()),
                             "baseline mean": float(block[c.baseline].mean()), "t": t.statistic, "df": t.df, "p": t.p,
                             "mark": mark, "splits": t.n, "test fraction": rho})
                if m == "error":
                    for rope in c.ropes:
                        r = correlated_ttest(block[a].to_numpy(), block[c.baseline].to_numpy(), rho, rope)
                        brows.append({"dataset": d, "algorithm": a, "rope": rope, "rho": rho, "splits": r.n,
                                      "p_algorithm": r.p_a, "p_rope": r.p_rope, "p_baseline": r.p_b,
                                      "decision": {"a": a, "rope": "equivalent", "b": c.baseline}.get(r.decision(), "")})
        c.weka[m] = pd.DataFrame(rows)
        prs = []
        for a in c.algos:
            for b in c.algos:
                if a == b:
                    continue
                w = dr = lo = 0
                for d, (block, rho) in per.items():
                    t = corrected_resampled_ttest(block[a].to_numpy(), block[b].to_numpy(), rho / (1.0 - rho))
                    if t.p < alpha:
                        w, lo = (w + 1, lo) if t.statistic < 0 else (w, lo + 1)
                    else:
                        dr += 1
                prs.append({"algorithm": a, "against": b, "measure": m, "wins": w, "draws": dr, "losses": lo})
        c.weka_pairs[m] = pd.DataFrame(prs)
        if m == "error":
            c.hierarchical = hierarchical_rows(c, per)
    c.bayes_datasets = pd.DataFrame(brows, columns=["dataset", "algorithm", "rope", "rho", "splits", "p_algorithm",
                                                    "p_rope", "p_baseline", "decision"])


HIERARCHICAL_COLUMNS = ["algorithm", "rope", "n", "p_algorithm", "p_rope", "p_baseline", "predictive_algorithm",
                        "predictive_rope", "predictive_baseline", "delta0 (algorithm - baseline)", "decision", "method"]


def hierarchical_rows(c: Comparison, per: dict) -> pd.DataFrame:
    """The Bayesian hierarchical model (:mod:`bench.stats.hierarchical`, Corani et al. 2017) of every
    algorithm against the baseline on error, from the paired splits ``per`` (dataset -> (splits x
    algorithms, rho)), at each ROPE of error: one posterior per algorithm, read at every ROPE. An
    algorithm the model cannot take (fewer than two datasets, no spread within any) gets no row."""
    from ..stats.hierarchical import posterior

    rows = []
    for a in c.algos:
        if a == c.baseline or len(per) < 2:
            continue
        blocks = list(per.values())
        try:
            post = posterior([blk[a].to_numpy() for blk, _ in blocks], [blk[c.baseline].to_numpy() for blk, _ in blocks],
                             [rho for _, rho in blocks])
        except ValueError:
            continue
        for rope in c.ropes:
            r = post.result(rope)
            rows.append({"algorithm": a, "rope": rope, "n": r.n_datasets, "p_algorithm": r.p_a, "p_rope": r.p_rope,
                         "p_baseline": r.p_b, "predictive_algorithm": r.predictive[0], "predictive_rope": r.predictive[1],
                         "predictive_baseline": r.predictive[2], "delta0 (algorithm - baseline)": float(-r.delta0.mean()),
                         "decision": {"a": a, "rope": "equivalent", "b": c.baseline}.get(r.decision(), ""),
                         "method": r.method})
    return pd.DataFrame(rows, columns=HIERARCHICAL_COLUMNS)


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
    """Wilcoxon signed-rank tests (two-sided, Demsar's zero rule, exact where the approximation is
    poor: :data:`WILCOXON_METHOD`) of every algorithm against the baseline on the per-dataset means, per measure, with Holm's correction over the k - 1
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
            w = wilcoxon_signed_rank(v[a].to_numpy(), v[baseline].to_numpy(), zero_method=WILCOXON_ZERO,
                                     method=WILCOXON_METHOD)
            d = (v[a] - v[baseline]).to_numpy()
            block.append({"algorithm": a, "measure": m, "n": int(len(v)), "median difference": float(np.median(d)),  # algorithm - baseline: > 0 is worse
                          "n_ranked": w.n, "T": w.statistic, "p": w.p, "method": w.method})
        raw = [r["p"] for r in block]
        for r, p, rej in zip(block, holm(raw), rejects(raw, "holm", ALPHA)):
            r["p_holm"] = p
            r["significant_holm"] = bool(rej)
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


def _points(rope: float) -> str:
    """A ROPE of error in points of error: 0.005 -> "0.5 points"."""
    pts = rope * 100
    return f"{pts:g} point{'s' if pts != 1 else ''}"


BAYES_LEAD = ("The Bayesian signed-rank test on error (Benavoli et al. 2017) gives, at each region of practical "
              "equivalence (ROPE), the algorithms it decides, with the deciding probability (above {decision}), and "
              "the others with P(algorithm better)/P(equivalent)/P({baseline} better):")


def bayes_sentences(c: Comparison) -> list[str]:
    """The Bayesian signed-rank answers on error, in words, one per ROPE."""
    if c.bayes is None or c.bayes.empty:
        return []
    out = []
    for rope in c.ropes:
        b = c.bayes[(c.bayes["measure"] == "error") & (c.bayes["rope"] == rope)]
        if b.empty:
            continue
        groups = {"equivalent": [], "better": [], "worse": [], "undecided": []}
        for r in b.itertuples():
            if r.decision == "equivalent":
                groups["equivalent"].append(f"{r.algorithm} ({r.p_rope:.3f})")
            elif r.decision == r.algorithm:
                groups["better"].append(f"{r.algorithm} ({r.p_algorithm:.3f})")
            elif r.decision == c.baseline:
                groups["worse"].append(f"{r.algorithm} ({r.p_baseline:.3f})")
            else:
                groups["undecided"].append(f"{r.algorithm} ({r.p_algorithm:.3f}/{r.p_rope:.3f}/{r.p_baseline:.3f})")
        pts = _points(rope)
        said = []
        if groups["equivalent"]:
            said.append(f"practically equivalent to {c.baseline} within {pts} of error: " + ", ".join(groups["equivalent"]))
        if groups["better"]:
            said.append(f"better than {c.baseline} by more than {pts} of error: " + ", ".join(groups["better"]))
        if groups["worse"]:
            said.append(f"worse than {c.baseline} by more than {pts} of error: " + ", ".join(groups["worse"]))
        if groups["undecided"]:
            said.append("not decided: " + ", ".join(groups["undecided"]))
        out.append(f"ROPE {rope:g}: " + "; ".join(said) + ".")
    return out


def summary(c: Comparison, alpha: float = ALPHA, bayes: bool = True) -> str:
    """The one-paragraph plain-language summary at the top of the report; ``bayes=False`` leaves out
    the Bayesian answers (:func:`bayes_sentences`, which the report lists under it)."""
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
    many = len(vb) > 1
    holm_note = (f", Holm-adjusted over the {len(vb)} comparisons with the baseline" if many else "")
    sig = [f"{r.algorithm} {'beats' if r.wins > r.losses else 'loses to'} {c.baseline} ({r.wins}/{r.draws}/{r.losses}, "
           f"two-tailed sign test {fmt_p(r.p_two_tailed, True)}"
           + (f", Holm {fmt_p(r.p_two_tailed_holm, True)}" if many else "") + ")"
           for r in vb.itertuples() if (r.significant_two_tailed_holm if many else r.significant_two_tailed)]
    if sig:
        parts.append(f"Against the baseline on error (sign test{holm_note}): " + "; ".join(sig) + ".")
    else:
        parts.append(f"No algorithm's win/draw/loss record on error against the baseline {c.baseline} is "
                     f"significant by the two-tailed sign test{holm_note}.")
    if bayes and bayes_sentences(c):
        from ..stats.bayes import DECISION

        parts.append(BAYES_LEAD.format(decision=DECISION, baseline=c.baseline) + " " + " ".join(bayes_sentences(c)))
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
