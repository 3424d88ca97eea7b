"""The Bayesian hierarchical model of Corani, Benavoli, Demsar, Mangili and Zaffalon (2017),
"Statistical comparison of classifiers through Bayesian hierarchical modelling", Machine Learning
106:1817-1837, for two learners over several datasets from their per-split cross-validation results.

The model (the paper's Sec. 3, as baycomp's ``HierarchicalTest`` states it in Stan). On dataset i, the
n_i split differences x_i (>0: learner ``a`` better) are

    x_i ~ MVN(delta_i 1, sigma_i^2 M_i),   M_i = (1 - rho_i) I + rho_i 1 1^T,
    rho_i = n_test / (n_train + n_test)   (Nadeau and Bengio's correlation of the splits),

the datasets' mean differences come from a Student t,

    delta_i ~ t(nu, delta0, sigma0),

with the priors delta0 ~ U(-max|x|, max|x|), sigma0 ~ U(0, 1000 s_among), sigma_i ~ U(0, 1000 s_within)
(s_within the mean within-dataset standard deviation, s_among the standard deviation of the datasets'
means), nu - 1 ~ Gamma(alpha, beta) (shape, rate), alpha ~ U(1, 2), beta ~ U(0.01, 0.1). As baycomp
does, the differences and the ROPE are first divided by s_within, so every bound is on one scale.

The answer is about the next dataset: its mean difference delta_{q+1} ~ t(nu, delta0, sigma0). Each
posterior draw of (delta0, sigma0, nu) gives (P(delta_{q+1} > rope), P(|delta_{q+1}| <= rope),
P(delta_{q+1} < -rope)); ``p_a``, ``p_rope``, ``p_b`` are the shares of draws in which each is the
largest (baycomp's reading, as :func:`bench.stats.bayes.signed_rank`), ``predictive`` their means
(the posterior predictive probabilities of the paper). The per-dataset posteriors of delta_i shrink
the correlated t-test's (:func:`bench.stats.bayes.correlated_ttest`) towards delta0.

Sampler: Gibbs, exact in every block but two. The t prior is written as a scale mixture (delta_i ~
N(delta0, sigma0^2 / lambda_i), lambda_i ~ Gamma(nu/2, nu/2)); then delta_i, lambda_i, 1/sigma_i^2,
delta0, 1/sigma0^2 and beta have closed-form (truncated) conditionals, drawn by inverse CDF. nu is a
Metropolis step on log(nu - 1) with lambda integrated out (the t density), lambda redrawn right after;
alpha is a Metropolis step with a uniform proposal on its range. The likelihood of dataset i needs only
its mean and sum of squares: x_i^T M^-1 x_i terms reduce to SS_i / (1 - rho_i) + n_i (xbar_i -
delta_i)^2 / (1 + (n_i - 1) rho_i). ``chains`` chains run side by side as arrays (vectorised over chains
and datasets), from ``seed`` (``numpy.random.default_rng``): the same inputs give the same draws.

Against baycomp's Stan model (``baycomp/hierarchical-t-test.stan`` with ``HierarchicalTest.sample``'s
data preparation). The same: every prior and hyperprior above (delta0's uniform on +-max|x|, sigma0's on
(0, 1000 s_among), sigma_i's upper bound 1000 s_within, nu - 1 ~ Gamma(alpha, beta) with the rate
parameterisation of Stan, alpha's and beta's uniforms), the Student t of the delta_i, the MVN likelihood,
the scaling by s_within (the mean over datasets of the differences' population standard deviation) and
the reading (shares of draws in which each region is the most probable). Different, on purpose:

* a dataset whose splits all give the same difference (two learners equal on every split) makes the
  posterior improper (sigma_i -> 0). baycomp replaces its values by random ones in +-ROPE (so its model
  depends on the ROPE and on a random draw) and recomputes the within spread for sigma_i's bound; here
  the data stay as they are and sigma_i's lower bound is 1e-3 s_within instead (baycomp's: 0), which
  pins that dataset's delta_i at its observed difference (the bound's value hardly matters: 1e-2 to
  1e-6 give the same answer within 3e-5 on delta0). This moves the answer: on A1DE vs A2DE error over
  the 65 datasets of the ande_sr evidence (two of them constant, both at 0), delta0's posterior mean (A2DE's error
  minus A1DE's) is -0.00274 here, -0.00316 to -0.00320 (ROPE 0.01) and -0.00301 to -0.00302 (ROPE 0.005) in baycomp's
  model (two draws of its random values), -0.00331 without the two datasets; at ROPE 0.005,
  P(equivalent) is 0.966 here, 0.954 to 0.957 there, 0.905 without them. With no constant dataset the
  lower bound changes nothing measurable;
* rho is n_test / n_total of each dataset (from the records), and datasets may have different
  numbers of splits; baycomp takes one rho = 1 / folds for all datasets with the same number of splits
  (equal for k-fold cross-validation with equal folds);
* if every dataset has the same mean difference, sigma0's upper bound is 1000 s_within instead of
  1000 s_among = 0 (an empty range);
* bench also gives the posterior predictive probabilities (``predictive``), which baycomp does not.

Checked against independent samplers of baycomp's model on fixed inputs (a NumPy random-walk
Metropolis sampler of the joint posterior in the tests; NumPyro's NUTS in
``scripts/hierarchical_agreement.py``): delta0's posterior mean and sd and the three shares agree within
4 combined Monte-Carlo standard errors on four simulated sets and, with sigma_i's bound as here, on the
ande_sr evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .bayes import DECISION, DEFAULT_ROPE, _rope

#: the paper's (and baycomp's) hyperprior bounds
ALPHA_RANGE = (1.0, 2.0)
BETA_RANGE = (0.01, 0.1)
#: the upper bounds of sigma_i and sigma0, as multiples of the within- and among-dataset spreads
UPPER_SIGMA = 1000.0
#: sigma_i's lower bound, as a multiple of the within-dataset spread (see the module docstring)
LOWER_SIGMA = 1e-3
CHAINS, WARMUP, DRAWS = 16, 500, 1000


@dataclass(frozen=True)
class HierarchicalResult:
    p_a: float                  #: share of draws in which P(next delta > rope) is the largest: a better
    p_rope: float               #: ... in which P(|next delta| <= rope) is the largest: practically equivalent
    p_b: float                  #: ... in which P(next delta < -rope) is the largest: b better
    predictive: tuple           #: posterior predictive (P(a better), P(equivalent), P(b better)) of the next dataset
    rope: float
    n_datasets: int
    method: str
    delta0: np.ndarray = field(repr=False, compare=False)   #: draws of delta0, in the measure's units
    delta: np.ndarray = field(repr=False, compare=False)    #: draws x datasets of delta_i, in the measure's units
    nu: np.ndarray = field(repr=False, compare=False)
    sigma0: np.ndarray = field(repr=False, compare=False)   #: in the measure's units
    samples: np.ndarray = field(repr=False, compare=False)  #: draws x (P(a better), P(equivalent), P(b better))

    def decision(self, threshold: float = DECISION) -> str:
        """``"a"``, ``"rope"``, ``"b"`` when that share of draws exceeds ``threshold``, else ``""``."""
        for name, p in (("a", self.p_a), ("rope", self.p_rope), ("b", self.p_b)):
            if p > threshold:
                return name
        return ""


def _trunc_gamma(rng, shape, rate, lo, hi):
    """Gamma(shape, rate) draws truncated to (lo, hi) (arrays broadcast): a plain draw where it falls in
    the range, else a draw by inverse CDF within it (together exactly the truncated distribution:
    P(A) + P(out) P(A) / P(in) = P(A) / P(in)); the inverse CDF, slow, only where needed."""
    shape, rate = np.broadcast_arrays(np.asarray(shape, dtype=np.float64), np.asarray(rate, dtype=np.float64))
    x = rng.gamma(shape) / rate
    bad = (x < lo) | (x > hi)
    if bad.any():
        sh, ra = shape[bad], rate[bad]
        flo = special.gammainc(sh, ra * lo)
        fhi = special.gammainc(sh, ra * hi) if np.isfinite(hi) else 1.0
        u = flo + (fhi - flo) * rng.random(sh.shape)
        x[bad] = np.clip(special.gammaincinv(sh, np.clip(u, 1e-300, 1 - 1e-16)) / ra, lo, hi)
    return x


def _trunc_normal(rng, mean, sd, lo, hi):
    a, b = special.ndtr((lo - mean) / sd), special.ndtr((hi - mean) / sd)
    u = a + (b - a) * rng.random(np.shape(mean))
    return np.clip(mean + sd * special.ndtri(np.clip(u, 1e-300, 1 - 1e-16)), lo, hi)


def _t_logpdf_sum(d, nu, loc, scale):
    """Sum over datasets of log t(d; nu, loc, scale); d chains x datasets, the rest per chain."""
    z = (d - loc[:, None]) / scale[:, None]
    q = d.shape[1]
    return (q * (special.gammaln((nu + 1) / 2) - special.gammaln(nu / 2) - 0.5 * np.log(nu * np.pi) - np.log(scale))
            - (nu + 1) / 2 * np.log1p(z * z / nu[:, None]).sum(axis=1))


def _prepared(diffs, rho):
    if len(diffs) < 2:
        raise ValueError(f"the hierarchical model needs at least 2 datasets, got {len(diffs)}")
    rho = np.asarray(rho, dtype=np.float64)
    if rho.ndim > 1 or (rho.ndim == 1 and rho.size != len(diffs)):
        raise ValueError(f"rho: give one value for every dataset or one for all ({len(diffs)} datasets, "
                         f"got {rho.size} values)")
    rho = np.broadcast_to(rho, (len(diffs),)).copy()
    if not ((rho >= 0) & (rho < 1)).all():
        raise ValueError(f"rho = n_test / n_total must lie in [0, 1) for every dataset, got {rho.tolist()}")
    n = np.array([d.size for d in diffs], dtype=np.float64)
    if (n < 2).any():
        raise ValueError("every dataset needs at least 2 paired splits")
    xbar = np.array([d.mean() for d in diffs])
    ss = np.array([((d - d.mean()) ** 2).sum() for d in diffs])
    return n, xbar, ss, rho


@dataclass(frozen=True)
class Posterior:
    """Draws of the model's posterior, in the measure's units (> 0: ``a`` better); read at any ROPE
    with :meth:`result` (sampling does not depend on the ROPE)."""

    delta0: np.ndarray
    sigma0: np.ndarray
    nu: np.ndarray
    delta: np.ndarray           #: draws x datasets
    scale: float                #: s_within, the unit the sampler worked in
    n_datasets: int
    method: str

    def result(self, rope: float = DEFAULT_ROPE) -> HierarchicalResult:
        rope = _rope(rope)
        p_b = special.stdtr(self.nu, (-rope - self.delta0) / self.sigma0)       # P(next delta < -rope): b better
        p_a = 1.0 - special.stdtr(self.nu, (rope - self.delta0) / self.sigma0)  # P(next delta > rope): a better
        samples = np.column_stack([p_a, np.clip(1.0 - p_a - p_b, 0.0, 1.0), p_b])
        winners = np.bincount(np.argmax(samples, axis=1), minlength=3) / len(samples)
        return HierarchicalResult(float(winners[0]), float(winners[1]), float(winners[2]),
                                  tuple(float(v) for v in samples.mean(axis=0)), rope, self.n_datasets, self.method,
                                  self.delta0, self.delta, self.nu, self.sigma0, samples)


def posterior(a, b, rho, lower_is_better: bool = True, *, chains: int = CHAINS, warmup: int = WARMUP,
              draws: int = DRAWS, seed: int = 0) -> Posterior:
    """The hierarchical model's posterior on the paired split values ``a`` and ``b`` of several
    datasets: two sequences (one entry per dataset) of 1-D arrays, paired within a dataset (or two
    datasets x splits matrices); ``rho`` = n_test / n_total, one for all datasets or one per dataset.
    ``chains`` x ``draws`` draws are kept after ``warmup`` iterations per chain."""
    if len(a) != len(b):
        raise ValueError(f"a and b must have the same datasets, got {len(a)} and {len(b)}")
    diffs = []
    for i, (x, y) in enumerate(zip(a, b)):
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        if x.shape != y.shape or x.ndim != 1:
            raise ValueError(f"dataset {i}: need paired 1-D split values, got shapes {x.shape} and {y.shape}")
        if np.isnan(x).any() or np.isnan(y).any():
            raise ValueError(f"dataset {i}: the hierarchical model needs a value of both learners on every split")
        diffs.append((y - x) if lower_is_better else (x - y))           # > 0: a better
    n, xbar, ss, rho = _prepared(diffs, rho)
    s_within = float(np.mean([d.std() for d in diffs]))
    if not s_within > 0:
        raise ValueError("the splits' differences vary on no dataset: the hierarchical model has nothing to "
                         "estimate the within-dataset spread from")
    xbar, ss = xbar / s_within, ss / s_within ** 2
    maxdiff = max(float(np.max(np.abs(np.concatenate(diffs)))) / s_within, 1e-12)
    s_among = float(np.std(xbar)) or 1.0
    sig_lo, sig_hi, sig0_hi = LOWER_SIGMA, UPPER_SIGMA, UPPER_SIGMA * s_among
    q = xbar.size
    c = 1.0 + (n - 1.0) * rho                  # var(xbar_i | delta_i, sigma_i) = sigma_i^2 c_i / n_i
    ss_r = ss / (1.0 - rho)

    rng = np.random.default_rng(seed)
    C = int(chains)
    delta = xbar[None, :] + 0.1 * rng.standard_normal((C, q))
    delta0 = np.clip(xbar.mean() + 0.1 * rng.standard_normal(C), -maxdiff, maxdiff)
    sigma0 = np.full(C, max(float(np.std(xbar)), 0.1))
    alpha = rng.uniform(*ALPHA_RANGE, C)
    beta = rng.uniform(*BETA_RANGE, C)
    nu = 1.0 + alpha / beta
    lam = np.ones((C, q))
    keep = {k: [] for k in ("delta0", "sigma0", "nu", "delta")}
    step = 0.5
    for it in range(int(warmup) + int(draws)):
        # sigma_i | delta_i  (tau = 1 / sigma^2 ~ Gamma((n-1)/2, Q/2), truncated to the prior's range)
        qf = ss_r[None, :] + n * (xbar[None, :] - delta) ** 2 / c
        tau = _trunc_gamma(rng, (n - 1.0) / 2.0, np.maximum(qf, 1e-300) / 2.0, 1.0 / sig_hi ** 2, 1.0 / sig_lo ** 2)
        # delta_i | sigma_i, lambda_i, delta0, sigma0  (normal)
        prec_l = n * tau / c
        prec_p = lam / sigma0[:, None] ** 2
        prec = prec_l + prec_p
        mean = (prec_l * xbar[None, :] + prec_p * delta0[:, None]) / prec
        delta = mean + rng.standard_normal((C, q)) / np.sqrt(prec)
        # nu | delta, delta0, sigma0, alpha, beta  (Metropolis on log(nu - 1), lambda integrated out)
        for _ in range(2):
            lognu = np.log(nu - 1.0)
            prop = lognu + step * rng.standard_normal(C)
            nu_p = 1.0 + np.exp(prop)

            def logpost(v, lv):
                return (_t_logpdf_sum(delta, v, delta0, sigma0) + alpha * np.log(beta) - special.gammaln(alpha)
                        + (alpha - 1.0) * lv - beta * (v - 1.0) + lv)      # + lv: the Jacobian of log(nu - 1)

            acc = np.log(rng.random(C)) < logpost(nu_p, prop) - logpost(nu, lognu)
            nu = np.where(acc, nu_p, nu)
        # lambda_i | delta_i, nu, delta0, sigma0
        z2 = ((delta - delta0[:, None]) / sigma0[:, None]) ** 2
        lam = rng.gamma((nu[:, None] + 1.0) / 2.0, 1.0, (C, q)) / ((nu[:, None] + z2) / 2.0)
        # delta0 | delta, lambda, sigma0  (normal truncated to its uniform prior)
        sl = lam.sum(axis=1)
        delta0 = _trunc_normal(rng, (lam * delta).sum(axis=1) / sl, sigma0 / np.sqrt(sl), -maxdiff, maxdiff)
        # sigma0 | delta, lambda, delta0  (1 / sigma0^2 ~ Gamma((q-1)/2, S/2), truncated)
        s = (lam * (delta - delta0[:, None]) ** 2).sum(axis=1)
        sigma0 = 1.0 / np.sqrt(_trunc_gamma(rng, (q - 1.0) / 2.0, np.maximum(s, 1e-300) / 2.0,
                                            1.0 / sig0_hi ** 2, np.inf))
        # beta | nu, alpha  (Gamma(alpha + 1, nu - 1) truncated to its range); alpha | nu, beta (Metropolis)
        beta = _trunc_gamma(rng, alpha + 1.0, nu - 1.0, BETA_RANGE[0], BETA_RANGE[1])
        alpha_p = rng.uniform(*ALPHA_RANGE, C)
        la = lambda al: al * np.log(beta) - special.gammaln(al) + (al - 1.0) * np.log(nu - 1.0)  # noqa: E731
        alpha = np.where(np.log(rng.random(C)) < la(alpha_p) - la(alpha), alpha_p, alpha)
        if it >= warmup:
            keep["delta0"].append(delta0)
            keep["sigma0"].append(sigma0)
            keep["nu"].append(nu)
            keep["delta"].append(delta)
    return Posterior(np.concatenate(keep["delta0"]) * s_within, np.concatenate(keep["sigma0"]) * s_within,
                     np.concatenate(keep["nu"]), np.concatenate(keep["delta"], axis=0) * s_within, s_within, q,
                     f"Bayesian hierarchical (Corani et al. 2017; Gibbs, {C} chains x {draws} draws after {warmup}, "
                     f"seed {seed})")


def hierarchical(a, b, rho, rope: float = DEFAULT_ROPE, lower_is_better: bool = True, **kw) -> HierarchicalResult:
    """:func:`posterior` of the paired split values, read at ``rope`` (:meth:`Posterior.result`)."""
    return posterior(a, b, rho, lower_is_better, **kw).result(rope)
