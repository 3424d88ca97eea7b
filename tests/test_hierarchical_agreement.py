"""bench's hierarchical model (bench.stats.hierarchical, a Gibbs sampler) against independent samplers of
the same model, written from baycomp's Stan file (baycomp/hierarchical-t-test.stan) and not from bench's
code: a random-walk Metropolis sampler over the full joint posterior in NumPy (always run), and NumPyro's
NUTS (scripts/hierarchical_agreement.py, run when NumPyro is installed). Both must agree with bench on
delta0's posterior mean and sd and on the shares of draws in which each region is the most probable,
within Z_AGREE combined Monte-Carlo standard errors (from the spread of independent chains' estimates)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from bench.stats.hierarchical import posterior

Z_AGREE = 4.0
SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "hierarchical_agreement.py"


def _data(seed=3, q=5, runs=2, folds=5, delta0=0.012, sigma0=0.008, nu=6.0):
    """Errors of two learners on q datasets, runs x folds-fold CV (rho = 1 / folds): b - a = delta_i +
    correlated noise, delta_i ~ t(nu, delta0, sigma0)."""
    rng = np.random.default_rng(seed)
    n, rho = runs * folds, 1.0 / folds
    deltas = delta0 + sigma0 * rng.standard_t(nu, q)
    sig = rng.uniform(0.01, 0.03, q)
    L = np.linalg.cholesky((1 - rho) * np.eye(n) + rho * np.ones((n, n)))
    d = deltas[:, None] + sig[:, None] * (rng.standard_normal((q, n)) @ L.T)
    b = rng.uniform(0.1, 0.3, (q, 1)) + rng.normal(0, 0.005, (q, n))
    return b - d, b, rho


class JointPosterior:
    """log density of baycomp's model (its Stan file; sigma_i's lower bound 1e-3, bench's) over the
    unconstrained vector (delta0, std0, alpha, beta, log(nu - 1), sigma_1..q, delta_1..q): each bounded
    parameter through a logistic map onto its interval, with its Jacobian; the data scaled as baycomp
    scales them; the likelihood the full MVN with M's inverse and determinant from numpy.linalg."""

    def __init__(self, a, b, rho):
        x = np.asarray(b, float) - np.asarray(a, float)
        self.scale = float(np.mean(np.std(x, axis=1)))
        self.x = x / self.scale
        self.q, n = self.x.shape
        M = (1 - rho) * np.eye(n) + rho * np.ones((n, n))
        self.inv_m = np.linalg.inv(M)
        self.logdet_m = np.linalg.slogdet(M)[1]
        mx = float(np.max(np.abs(self.x)))
        std_within = float(np.mean(np.std(self.x, axis=1)))
        #: (low, high) of delta0, std0, alpha, beta; then of every sigma_i
        self.bounds = [(-mx, mx), (0.0, 1000 * float(np.std(self.x.mean(axis=1)))), (1.0, 2.0), (0.01, 0.1)]
        self.sig_bounds = (1e-3 * std_within, 1000 * std_within)
        self.dim = 5 + 2 * self.q

    @staticmethod
    def _bounded(u, lo, hi):
        """value in (lo, hi) and log |d value / d u| of the logistic map"""
        s = special.expit(u)
        return lo + (hi - lo) * s, np.log(hi - lo) + np.log(s) + np.log1p(-s)

    def constrained(self, th):
        """delta0, std0, nu (chains,) and delta (chains x q), in scaled units"""
        d0, _ = self._bounded(th[:, 0], *self.bounds[0])
        s0, _ = self._bounded(th[:, 1], *self.bounds[1])
        return d0, s0, 1.0 + np.exp(th[:, 4]), th[:, 5 + self.q:].copy()

    def logp(self, th):
        q = self.q
        out = np.zeros(len(th))
        vals = []
        for k in range(4):
            v, j = self._bounded(th[:, k], *self.bounds[k])
            vals.append(v)
            out += j                                    # uniform priors: only the Jacobians
        delta0, std0, alpha, beta = vals
        nu1 = np.exp(th[:, 4])
        out += stats.gamma.logpdf(nu1, alpha, scale=1.0 / beta) + th[:, 4]
        sigma, j = self._bounded(th[:, 5:5 + q], *self.sig_bounds)
        out += j.sum(axis=1)
        delta = th[:, 5 + q:]
        out += stats.t.logpdf(delta, (1.0 + nu1)[:, None], delta0[:, None], std0[:, None]).sum(axis=1)
        r = self.x[None, :, :] - delta[:, :, None]
        quad = np.einsum("cqn,nm,cqm->cq", r, self.inv_m, r)
        n = self.x.shape[1]
        out += (-0.5 * (2 * n * np.log(sigma) + self.logdet_m) - 0.5 * quad / sigma ** 2).sum(axis=1)
        return np.where(np.isfinite(out), out, -np.inf)

    def start(self, rng, chains):
        th = np.zeros((chains, self.dim))
        th[:, :5] = rng.uniform(-2, 2, (chains, 5))
        th[:, 5 + self.q:] = self.x.mean(axis=1) + rng.normal(0, 0.5, (chains, self.q))
        th[:, 5:5 + self.q] = special.logit((1.0 - self.sig_bounds[0]) / (self.sig_bounds[1] - self.sig_bounds[0]))
        return th


def metropolis(target: JointPosterior, *, chains=64, warmup=6000, draws=8000, seed=0):
    """Random-walk Metropolis, ``chains`` independent chains side by side; during warmup the proposal's
    covariance is (2.38^2 / d) times the chains' pooled covariance of the last block (Haario et al.),
    then fixed. Returns chains x draws of delta0, sigma0 and nu (in the data's units), and chains x draws x
    datasets of delta."""
    rng = np.random.default_rng(seed)
    th = target.start(rng, chains)
    lp = target.logp(th)
    d = target.dim
    chol = np.eye(d) * 0.1
    block = []
    keep = []
    for it in range(warmup + draws):
        prop = th + rng.standard_normal((chains, d)) @ chol.T
        lpp = target.logp(prop)
        acc = np.log(rng.random(chains)) < lpp - lp
        th[acc], lp[acc] = prop[acc], lpp[acc]
        if it < warmup:
            block.append(th.copy())
            if (it + 1) % 500 == 0:
                pts = np.concatenate(block[len(block) // 2:])
                chol = np.linalg.cholesky(2.38 ** 2 / d * np.cov(pts.T) + 1e-8 * np.eye(d))
                block = []
        else:
            keep.append(target.constrained(th))
    d0, s0, nu, delta = (np.stack([k[i] for k in keep], axis=1) for i in range(4))
    return {"delta0": d0 * target.scale, "sigma0": s0 * target.scale, "nu": nu, "delta": delta * target.scale}


def _winners(d, rope):
    """chains x draws x 3: which of P(next > rope) (a better), P(rope), P(next < -rope) is the largest"""
    right = stats.t.sf(rope, d["nu"], d["delta0"], d["sigma0"])
    left = stats.t.cdf(-rope, d["nu"], d["delta0"], d["sigma0"])
    return np.eye(3)[np.argmax(np.stack([right, 1 - left - right, left], axis=-1), axis=-1)]


def _estimates(d, rope):
    """name -> per-chain estimates (independent replicates). A variance is each chain's mean square
    about the mean of all chains' draws (a chain's own sd is biased low when its draws are correlated)."""
    w = _winners(d, rope)

    def var(x):                         # chains x draws
        return ((x - x.mean()) ** 2).mean(axis=1)
    # every dataset's delta_i: its posterior variance depends on sigma_i's posterior too
    per = {f"delta_{i} var": var(d["delta"][..., i]) for i in range(d["delta"].shape[-1])}
    return per | {"delta0 mean": d["delta0"].mean(axis=1), "delta0 var": var(d["delta0"]),
                  "P(a)": w[..., 0].mean(axis=1), "P(rope)": w[..., 1].mean(axis=1), "P(b)": w[..., 2].mean(axis=1)}


def _bench(a, b, rho, seeds, draws):
    """bench's draws as chains x draws (posterior keeps them iteration by iteration)"""
    out = {"delta0": [], "sigma0": [], "nu": [], "delta": []}
    for s in seeds:
        p = posterior(list(a), list(b), rho, seed=s, draws=draws)
        for k in out:
            v = getattr(p, k)
            out[k].append(v.reshape(draws, -1, *v.shape[1:]).swapaxes(0, 1))
    return {k: np.concatenate(v) for k, v in out.items()}


def _agree(ours: dict, ref: dict, rope: float) -> dict:
    eo, er = _estimates(ours, rope), _estimates(ref, rope)
    table = {}
    for k in eo:
        se = np.hypot(eo[k].std(ddof=1) / np.sqrt(len(eo[k])), er[k].std(ddof=1) / np.sqrt(len(er[k])))
        table[k] = (float(eo[k].mean()), float(er[k].mean()), float(se))
    return table


def test_gibbs_agrees_with_a_metropolis_sampler_of_the_joint_posterior():
    a, b, rho = _data()
    ref = metropolis(JointPosterior(a, b, rho))
    ours = _bench(a, b, rho, seeds=(0, 1, 2, 3), draws=2000)
    for rope in (0.01, 0.005):
        table = _agree(ours, ref, rope)
        print(rope, {k: tuple(round(v, 5) for v in t) for k, t in table.items()})
        for k, (mo, mr, se) in table.items():
            assert abs(mo - mr) <= Z_AGREE * se, (rope, k, mo, mr, se)
    # the comparison has power: the answers are informative, their Monte-Carlo errors small
    t = _agree(ours, ref, 0.01)
    assert t["delta0 mean"][2] < 0.1 * np.sqrt(t["delta0 var"][0]) and all(t[k][2] < 0.02 for k in ("P(a)", "P(rope)", "P(b)"))
    assert 0.1 < t["P(a)"][0] < 0.9


def test_nuts_agrees_on_a_synthetic_set():
    pytest.importorskip("numpyro")
    spec = importlib.util.spec_from_file_location("hierarchical_agreement", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    a, b, rho = mod.simulate(12, 0.01, 0.008, 8.0, 5)
    ref = mod.nuts(mod.stan_data(a, b, 0.01, variant="bench model"), rho, chains=4, warmup=800, draws=2000, seed=0)
    ours = mod.bench_draws(a, b, rho, seed=0)
    for rope in (0.01, 0.005):
        for k in ("delta0", "P(a)", "P(rope)", "P(b)"):
            pick = (lambda d: d["delta0"]) if k == "delta0" else \
                (lambda d, i=("P(a)", "P(rope)", "P(b)").index(k): mod.winners(d, rope)[..., i])
            (mo, so), (mr, sr) = mod.estimate(pick(ours)), mod.estimate(pick(ref))
            if k != "delta0":
                so, sr = mod.share_floor(so, sr, pick(ours), pick(ref))
            assert abs(mo - mr) <= Z_AGREE * np.hypot(so, sr), (rope, k, mo, mr, so, sr)
