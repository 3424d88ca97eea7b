"""Agreement of bench's hierarchical model (:mod:`bench.stats.hierarchical`, a Gibbs sampler) with an
independent sampler of baycomp's Stan model of the same test (``baycomp/hierarchical-t-test.stan``,
Corani, Benavoli, Demsar, Mangili and Zaffalon 2017), run by NumPyro's NUTS.

    pip install numpyro                        # JAX's CPU wheels; not a dependency of bench
    python scripts/hierarchical_agreement.py [--chains 4] [--warmup 1000] [--draws 2500] [--seeds 8]
                                             [--only synthetic|evidence] [--centered] [--replace-seed 0]

The NUTS side writes baycomp's model as baycomp prepares its data (``HierarchicalTest.sample``): the
differences and the ROPE divided by the mean within-dataset standard deviation; delta0 ~ U(-max|x|,
max|x|); std0 ~ U(0, 1000 std_among); sigma_i ~ U(stdLow, 1000 std_within); nu - 1 ~ Gamma(alpha, beta),
alpha ~ U(1, 2), beta ~ U(0.01, 0.1); delta_i ~ t(nu, delta0, std0); x_i ~ MVN(delta_i 1, sigma_i^2 M),
M = (1 - rho) I + rho 1 1^T, the likelihood by whitening with the Cholesky factor of M (not bench's
sufficient statistics).
Two variants of it: ``baycomp`` (stdLow = 0, and a dataset whose differences are all equal replaced by
random values in +-ROPE, as baycomp does, so the model depends on the ROPE) and ``bench model`` (stdLow =
1e-3 of the within spread, no data changed: bench's stated departure). Both are read as baycomp reads a
posterior: the share of draws in which P(next delta < -rope), P(|next delta| <= rope) or P(next delta >
rope) is the largest.

Inputs: synthetic sets (q datasets of 10 x 10-fold CV, rho = 0.1, known delta0 inside or outside the
ROPE) and the A1DE and A2DE error splits of the shipped ande_sr evidence (20 x 2 CV, rho = n_test /
n_total from the records, prepared as ``bench compare`` prepares them). Monte-Carlo error: the posterior
standard deviation over the square root of the effective sample size (NumPyro's estimator, over the
chains), for each estimate of both samplers (for a share of draws at least the binomial error at the
two samplers' pooled share); they agree when |difference| <= 4 sqrt(se_1^2 + se_2^2).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's bench

#: agreement when |difference| <= Z_AGREE combined Monte-Carlo standard errors
Z_AGREE = 4.0
ROPES = (0.01, 0.005)
#: (name, q, delta0, sigma0, nu, seed): errors of a and b, a better when delta0 > 0
SYNTHETIC = (("q10 delta0 0.02 (out)", 10, 0.02, 0.01, 8.0, 1),
             ("q20 delta0 0.0 (in)", 20, 0.0, 0.005, 8.0, 2),
             ("q30 delta0 -0.015 (out)", 30, -0.015, 0.01, 5.0, 3),
             ("q15 delta0 0.007 (edge)", 15, 0.007, 0.004, 20.0, 4))


def simulate(q: int, delta0: float, sigma0: float, nu: float, seed: int, n_runs: int = 10, n_folds: int = 10,
             within=(0.01, 0.04)):
    """Errors of two learners on q datasets, ``n_runs`` x ``n_folds``-fold CV (rho = 1 / n_folds): the
    differences b - a are delta_i + correlated noise, delta_i ~ t(nu, delta0, sigma0)."""
    rng = np.random.default_rng(seed)
    n, rho = n_runs * n_folds, 1.0 / n_folds
    deltas = delta0 + sigma0 * rng.standard_t(nu, q)
    sig = rng.uniform(*within, q)
    L = np.linalg.cholesky((1 - rho) * np.eye(n) + rho * np.ones((n, n)))
    d = deltas[:, None] + sig[:, None] * (rng.standard_normal((q, n)) @ L.T)
    b = rng.uniform(0.1, 0.3, (q, 1)) + rng.normal(0, 0.005, (q, n))
    return b - d, b, rho


def evidence(a_algo: str = "a1de", b_algo: str = "a2de"):
    """The paired error splits of two algorithms of the ande_sr evidence and rho per dataset, as
    ``bench compare`` prepares them (bench.compare.analysis.per_dataset)."""
    import pandas as pd

    from bench.compare.analysis import _test_fraction
    from bench.stats.collect import split_values

    rec = pd.read_parquet(ROOT / "reports" / "evidence" / "ande_sr.records.parquet")
    rec = rec[rec["algo"].isin([a_algo, b_algo])]
    sv = split_values(rec, "error", seeds=sorted(rec["seed"].unique())).reindex(columns=[a_algo, b_algo])
    frac = _test_fraction(rec)
    a, b, rho = [], [], []
    for d in sorted(sv.index.get_level_values("dataset").unique()):
        block = sv.xs(d, level="dataset").dropna(how="any")
        a.append(block[a_algo].to_numpy())
        b.append(block[b_algo].to_numpy())
        rho.append(float(frac[d]))
    return np.array(a), np.array(b), np.array(rho)


def stan_data(a, b, rope: float, *, variant: str, seed: int = 0) -> dict:
    """baycomp's ``scaled_data`` and ``prepare_stan_data`` (``x`` = b - a: > 0 when a's error is lower),
    for ``variant`` "baycomp" or "bench model" (see the module docstring)."""
    diff = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    std_diff = float(np.mean(np.std(diff, axis=1)))
    rope_s, diff = rope / std_diff, diff / std_diff
    if variant == "baycomp":
        rs = np.random.RandomState(seed)
        h = diff.shape[1] // 2
        for row in diff:
            if np.var(row) == 0:
                row[:h] = rs.uniform(-rope_s, rope_s, h)
                row[h:] = -row[:h]
        std_within, std_low = float(np.mean(np.std(diff, axis=1))), 0.0
    elif variant == "bench model":
        std_within, std_low = 1.0, 1e-3
    else:
        raise ValueError(f"variant: 'baycomp' or 'bench model', got {variant!r}")
    return {"x": diff, "rope": rope_s, "scale": std_diff, "delta_lo": -float(np.max(np.abs(diff))),
            "delta_hi": float(np.max(np.abs(diff))), "std0_hi": 1000.0 * float(np.std(diff.mean(axis=1))),
            "std_lo": std_low, "std_hi": 1000.0 * std_within}


def nuts(data: dict, rho: float, *, chains: int, warmup: int, draws: int, seed: int, centered: bool = False) -> dict:
    """NUTS draws (chains x draws) of delta0, std0 and nu of baycomp's model on ``data`` (:func:`stan_data`),
    delta0 and std0 back in the measure's units. ``centered`` False (the default) samples delta_i as
    delta0 + std0 z_i, z_i ~ t(nu): the same model, without the divergent transitions the centred form
    (Stan's) has when std0 is small."""
    import jax
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist
    from numpyro.infer import MCMC, NUTS

    numpyro.enable_x64()
    q, n = data["x"].shape
    # the likelihood MVN(delta_i 1, sigma_i^2 M) by whitening with M's Cholesky factor L (a constant
    # log det L dropped): L^-1 x_i ~ N(delta_i L^-1 1, sigma_i^2 I)
    chol_m = np.linalg.cholesky((1 - rho) * np.eye(n) + rho * np.ones((n, n)))
    xw = jnp.asarray(np.linalg.solve(chol_m, data["x"].T).T)
    one_w = jnp.asarray(np.linalg.solve(chol_m, np.ones(n)))

    def model():
        delta0 = numpyro.sample("delta0", dist.Uniform(data["delta_lo"], data["delta_hi"]))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, data["std0_hi"]))
        alpha = numpyro.sample("alpha", dist.Uniform(1.0, 2.0))
        beta = numpyro.sample("beta", dist.Uniform(0.01, 0.1))
        nu = 1.0 + numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))       # Gamma(shape, rate), as Stan
        with numpyro.plate("datasets", q):
            sigma = numpyro.sample("sigma", dist.Uniform(data["std_lo"], data["std_hi"]))
            delta = numpyro.sample("delta", dist.StudentT(nu, delta0, std0))
            with numpyro.plate("splits", n, dim=-2):
                numpyro.sample("x", dist.Normal(delta * one_w[:, None], sigma), obs=xw.T)

    if not centered:    # delta_i = delta0 + std0 z_i, z_i ~ t(nu): the same model, another geometry
        from numpyro.handlers import reparam
        from numpyro.infer.reparam import LocScaleReparam

        model = reparam(model, config={"delta": LocScaleReparam(0, shape_params=("df",))})
    mcmc = MCMC(NUTS(model, target_accept_prob=0.9), num_warmup=warmup, num_samples=draws, num_chains=chains,
                chain_method="sequential", progress_bar=False)
    mcmc.run(jax.random.PRNGKey(seed), extra_fields=("diverging",))
    s = mcmc.get_samples(group_by_chain=True)
    div = int(np.asarray(mcmc.get_extra_fields(group_by_chain=True)["diverging"]).sum())
    return {"delta0": np.asarray(s["delta0"]) * data["scale"], "sigma0": np.asarray(s["std0"]) * data["scale"],
            "nu": 1.0 + np.asarray(s["nu_minus_one"]), "divergences": div}


def bench_draws(a, b, rho, *, seed: int) -> dict:
    """bench's Gibbs draws, chains x draws (``posterior`` keeps them iteration by iteration)."""
    from bench.stats.hierarchical import CHAINS, posterior

    p = posterior(list(a), list(b), rho, seed=seed)
    shape = (-1, CHAINS)
    return {"delta0": p.delta0.reshape(shape).T, "sigma0": p.sigma0.reshape(shape).T, "nu": p.nu.reshape(shape).T}


def winners(d: dict, rope: float) -> np.ndarray:
    """chains x draws x 3 indicators: which of P(next < -rope) [b better], P(rope), P(next > rope) [a
    better] is the largest in each draw (baycomp's reading), computed with scipy's t, not bench's code."""
    from scipy import stats

    left = stats.t.cdf(-rope, d["nu"], d["delta0"], d["sigma0"])
    right = 1.0 - stats.t.cdf(rope, d["nu"], d["delta0"], d["sigma0"])
    probs = np.stack([right, 1.0 - left - right, left], axis=-1)
    return np.eye(3)[np.argmax(probs, axis=-1)]


def estimate(series: np.ndarray) -> tuple[float, float]:
    """Mean of chains x draws and its Monte-Carlo standard error sd / sqrt(ESS)."""
    from numpyro.diagnostics import effective_sample_size

    sd = float(series.std())
    if sd == 0:
        return float(series.mean()), 0.0
    ess = float(effective_sample_size(np.asarray(series, dtype=np.float64)))
    return float(series.mean()), sd / np.sqrt(max(ess, 1.0))


def share_floor(sg: float, sr: float, xg: np.ndarray, xr: np.ndarray) -> tuple[float, float]:
    """Standard errors of two shares of draws, each at least the binomial sqrt(p (1 - p) / draws) at their
    pooled share p: a region that wins in a few draws of one sampler and none of the other has an
    estimated standard error of 0 there (no spread to measure), not its true one."""
    p = (xg.sum() + xr.sum()) / (xg.size + xr.size)
    return max(sg, float(np.sqrt(p * (1 - p) / xg.size))), max(sr, float(np.sqrt(p * (1 - p) / xr.size)))


def pooled(runs: list[dict], key: str) -> np.ndarray:
    return np.concatenate([r[key] for r in runs], axis=0)


def compare(name: str, a, b, rho, args, rows: list) -> None:
    rho_all = np.unique(np.round(np.asarray(rho, dtype=np.float64), 12))
    if rho_all.size != 1:
        raise SystemExit(f"{name}: baycomp's model takes one rho for all datasets, got {rho_all.tolist()}")
    t0 = time.time()
    gibbs = [bench_draws(a, b, rho, seed=s) for s in range(args.seeds)]
    tg = time.time() - t0
    constant = bool((np.std(np.asarray(b) - np.asarray(a), axis=1) == 0).any())
    # without a constant dataset the two variants differ only in sigma_i's lower bound (0 or 1e-3 of the
    # within spread) and baycomp's data do not depend on the ROPE: one NUTS run, read at every ROPE
    for variant in (("bench model", "baycomp") if constant else ("baycomp",)):
        for rope in (ROPES if variant == "baycomp" and constant else (ROPES[0],)):
            t0 = time.time()
            data = stan_data(a, b, rope, variant=variant, seed=args.replace_seed)
            ref = nuts(data, float(rho_all[0]), chains=args.chains, warmup=args.warmup, draws=args.draws,
                       seed=args.seeds, centered=args.centered)
            tn = time.time() - t0
            for rp in ((rope,) if variant == "baycomp" and constant else ROPES):
                out = {"set": name, "constant datasets": constant, "nuts model": variant, "rope": rp, "divergences": ref["divergences"],
                       "time gibbs/nuts s": f"{tg:.0f}/{tn:.0f}"}
                worst = 0.0
                for label, fn in (("delta0 mean", lambda d: d["delta0"]), ("delta0 sd", None),
                                  ("P(a)", lambda d: winners(d, rp)[..., 0]), ("P(rope)", lambda d: winners(d, rp)[..., 1]),
                                  ("P(b)", lambda d: winners(d, rp)[..., 2])):
                    if fn is None:      # the posterior sd: its MC error by the delta method on E[x^2]
                        g, r = pooled(gibbs, "delta0"), ref["delta0"]
                        mg, sg = g.std(), estimate((g - g.mean()) ** 2)[1] / (2 * g.std())
                        mr, sr = r.std(), estimate((r - r.mean()) ** 2)[1] / (2 * r.std())
                    else:
                        xg, xr = pooled([{"x": fn(d)} for d in gibbs], "x"), fn(ref)
                        (mg, sg), (mr, sr) = estimate(xg), estimate(xr)
                        if label != "delta0 mean":      # a share: see share_floor
                            sg, sr = share_floor(sg, sr, xg, xr)
                    z = abs(mg - mr) / max(np.hypot(sg, sr), 1e-300)
                    worst = max(worst, z if np.hypot(sg, sr) > 0 else (0.0 if mg == mr else np.inf))
                    out[label] = f"{mg:.4g}±{sg:.2g} | {mr:.4g}±{sr:.2g}"
                out["max |diff|/se"] = round(worst, 2)
                out["agree"] = worst <= Z_AGREE
                rows.append(out)
                print(" | ".join(f"{k}: {v}" for k, v in out.items()), flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chains", type=int, default=4)
    ap.add_argument("--warmup", type=int, default=1000)
    ap.add_argument("--draws", type=int, default=2500)
    ap.add_argument("--seeds", type=int, default=8, help="bench runs (seeds 0..N-1), each of 16 chains")
    ap.add_argument("--only", choices=("synthetic", "evidence"))
    ap.add_argument("--centered", action="store_true",
                    help="NUTS on delta_i as in the Stan file (faster where every dataset has many splits)")
    ap.add_argument("--replace-seed", type=int, default=0,
                    help="seed of baycomp's random values for a dataset whose differences are all equal")
    args = ap.parse_args(argv)
    try:
        import numpyro  # noqa: F401
    except ImportError as e:
        print(f"skipped: NumPyro cannot be imported ({e}; pip install numpyro)")
        return 0
    import pandas as pd

    rows: list = []
    if args.only != "evidence":
        for name, q, d0, s0, nu, seed in SYNTHETIC:
            a, b, rho = simulate(q, d0, s0, nu, seed)
            compare(name, a, b, rho, args, rows)
    if args.only != "synthetic":
        a, b, rho = evidence()
        compare("ande_sr a1de (a) vs a2de (b), error", a, b, rho, args, rows)
    with pd.option_context("display.width", 250, "display.max_columns", 20, "display.max_colwidth", 40):
        print()
        print("each cell: bench Gibbs | NUTS, mean ± Monte-Carlo s.e.; a = first learner better, b = second")
        print(pd.DataFrame(rows).to_string(index=False))
    # the sampler is checked where the two samplers run the same model: every set without a constant
    # dataset, and the "bench model" variant where there is one
    same = [r for r in rows if r["nuts model"] == "bench model" or not r["constant datasets"]]
    return 0 if all(r["agree"] for r in same) else 1


if __name__ == "__main__":
    sys.exit(main())
