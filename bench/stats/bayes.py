"""Bayesian comparisons of two learners with a region of practical equivalence (ROPE), after
Benavoli, Corani, Demsar and Zaffalon (2017), "Time for a change: a tutorial for comparing multiple
classifiers through Bayesian analysis", JMLR 18(77):1-36.

* :func:`signed_rank` - the Bayesian signed-rank test over datasets (Benavoli et al., ICML 2014):
  a Dirichlet process posterior on the distribution of the per-dataset differences; it gives the
  probabilities that one learner is better by more than the ROPE, that the two are practically
  equivalent (the difference lies within the ROPE), and that the other is better. Computed as
  :class:`baycomp.SignedRankTest` computes it, vectorised (Monte Carlo, ``nsamples`` draws with a
  fixed seed, so the same inputs give the same probabilities; checked equal to baycomp's).
* :func:`correlated_ttest` - the Bayesian correlated t-test on the split values of one dataset
  (Corani and Benavoli 2015): the posterior of the mean difference is Student's t with n - 1
  degrees of freedom, location the mean difference and scale sqrt((1/n + rho/(1-rho)) s^2), where
  rho = n_test / n_total is Nadeau and Bengio's correlation of the splits (1/k for k-fold
  cross-validation, 1/2 for 2-fold). The probabilities are its exact t distribution
  (``tests/test_compare_beyond.py`` checks them against :class:`baycomp.CorrelatedTTest`).

The results name the learners ``a`` and ``b``: ``p_a`` is the probability that ``a`` is better by
more than ``rope``, ``p_rope`` that the difference lies within the ROPE, ``p_b`` that ``b`` is better.
``lower_is_better`` (error, RMSE, log-loss) sets which direction is better. The ROPE is in the
measure's own units (0.01 of error = one point of error).

The default ROPE of each measure (:data:`DEFAULT_ROPES`, :func:`default_rope`; ``bench compare
--rope`` overrides it for every measure) is fixed in advance in the measure's own units, as
Benavoli et al. (2017) ask (they use 0.01 on accuracy, as do baycomp's examples), never scaled to
the magnitudes of the data at hand (a ROPE chosen after seeing the data is no ROPE). It is 0.01
for every measure bench compares, each for its own reason:

* error (0-1 loss) and accuracy: one point, Benavoli et al.'s value;
* bias and variance (Kohavi-Wolpert, :mod:`bench.stats.biasvar`): they are parts of the 0-1 loss
  in its units, and bench's estimates add up to it exactly (bias + variance = loss), so their ROPE
  is the loss's. A smaller one would call "practically different" a bias difference whose whole
  effect on the loss is below what the loss's own ROPE calls practically nothing. "Practically
  equivalent" on bias or variance therefore reads: the difference moves the 0-1 loss by less than
  one point (:data:`ROPE_READING`). Where learners do differ in bias or variance by more (random
  forest against AnDE on the A2DE paper's data), the test decides at this ROPE;
* RMSE (:func:`bench.metrics.rmse`): in units of probability, one point of probability: for two
  classes it is the root mean square of 1 - p(true class). Its 1/C normalisation makes the same
  0.01 a stricter ROPE on many-class data (by about sqrt(C / 2));
* log-loss: 0.01 nats per instance, a 1% relative change of the (geometric) mean probability of
  the true class, which is one point of probability for confident predictions (d(-log p) = -dp / p).

Reading them (Benavoli et al. 2017, Sec. 3): a probability above 0.95 is a decision
(:data:`DECISION`); otherwise the data do not decide at this ROPE.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: the posterior probability above which the report calls an outcome decided (Benavoli et al. 2017)
DECISION = 0.95
#: default ROPE for error (a difference of one point of error is practically nothing, as Benavoli et
#: al. 2017 use for accuracy); ``bench compare --rope`` sets others
DEFAULT_ROPE = 0.01
#: the default ROPE of each measure, in its own units (the module's docstring gives the reasons)
DEFAULT_ROPES = {"error": DEFAULT_ROPE, "accuracy": DEFAULT_ROPE, "bias": DEFAULT_ROPE, "variance": DEFAULT_ROPE,
                 "rmse": 0.01, "log_loss": 0.01}
#: what "practically equivalent" means at a measure's default ROPE, where it needs saying
ROPE_READING = dict.fromkeys(("bias", "variance"),
                             "bias and variance are parts of the 0-1 loss (bias + variance = loss), so their ROPE is "
                             "the loss's: equivalent means the difference moves the 0-1 loss by less than the ROPE")
#: the other names the papers' tables and bench's labels give the same measures
_ROPE_NAMES = {"0-1 loss": "error", "error rate": "error", "zero-one loss": "error"}


def rope_measure(measure: str) -> str | None:
    """The key of :data:`DEFAULT_ROPES` that ``measure`` names (its name, its label in
    :mod:`bench.measures`, or a paper's name for it such as "0-1 loss"), None for another measure."""
    from ..measures import MEASURES

    if measure in DEFAULT_ROPES:
        return measure
    if measure in _ROPE_NAMES:
        return _ROPE_NAMES[measure]
    for m in MEASURES.values():
        if measure in (m.label, m.console) and m.name in DEFAULT_ROPES:
            return m.name
    low = measure.lower()
    return low if low in DEFAULT_ROPES else None


def default_rope(measure: str) -> float:
    """The default ROPE of ``measure`` (:data:`DEFAULT_ROPES`); a ValueError naming the measures that
    have one for any other (a time has no default: choose it)."""
    key = rope_measure(measure)
    if key is None:
        raise ValueError(f"no default ROPE for the measure {measure!r}; the measures with one are "
                         f"{', '.join(DEFAULT_ROPES)} (give a ROPE in the measure's units)")
    return DEFAULT_ROPES[key]
#: Monte Carlo draws of the signed-rank posterior (baycomp's default)
NSAMPLES = 50000
#: prior strength of the pseudo-observation at zero difference (baycomp's default, Benavoli et al.)
PRIOR = 0.5


@dataclass(frozen=True)
class BayesResult:
    p_a: float          #: P(a better than b by more than the ROPE)
    p_rope: float       #: P(|difference| <= ROPE): practically equivalent
    p_b: float          #: P(b better than a by more than the ROPE)
    rope: float
    n: int
    method: str
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)  #: draws x (p_a, p_rope, p_b)

    def decision(self, threshold: float = DECISION) -> str:
        """``"a"``, ``"rope"``, ``"b"`` when that probability exceeds ``threshold``, else ``""``."""
        for name, p in (("a", self.p_a), ("rope", self.p_rope), ("b", self.p_b)):
            if p > threshold:
                return name
        return ""


def _paired(a, b) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"need two paired 1-D arrays, got shapes {x.shape} and {y.shape}")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("the Bayesian tests need a value of both learners everywhere (found NaN)")
    return x, y


def _rope(rope: float) -> float:
    r = float(rope)
    if not np.isfinite(r) or r < 0:
        raise ValueError(f"the ROPE must be a number >= 0, got {rope!r}")
    return r


def signed_rank(a, b, rope: float = DEFAULT_ROPE, lower_is_better: bool = True, prior: float = PRIOR,
                nsamples: int = NSAMPLES, seed: int = 0, keep_samples: bool = False) -> BayesResult:
    """Bayesian signed-rank test of per-dataset values ``a`` against ``b`` (paired by dataset).

    The posterior of the differences' distribution is a Dirichlet process: weights w ~ Dir(prior,
    1, ..., 1) on a pseudo-observation at 0 and the n differences z_i (b - a when lower is better);
    each draw gives P(a better) = sum_ij w_i w_j [z_i + z_j > 2 rope] (1/2 at equality), likewise
    below -2 rope for b, and the rest within the ROPE; the reported probabilities are the shares of
    draws in which each of the three is the largest. This is :class:`baycomp.SignedRankTest`'s
    computation, vectorised over the draws; with the same seed it draws the same Dirichlet weights
    (``numpy.random.RandomState(seed)``), and ``tests/test_compare_beyond.py`` checks the
    probabilities equal baycomp's."""
    x, y = _paired(a, b)
    rope = _rope(rope)
    if x.size < 2:
        raise ValueError(f"the Bayesian signed-rank test needs at least 2 datasets, got {x.size}")
    z = np.concatenate([[0.0], (y - x) if lower_is_better else (x - y)])     # > 0: a better
    sums = z[:, None] + z[None, :]

    def heaviside(v, thresh):
        return (v > thresh).astype(float) + 0.5 * (v == thresh)

    weights = np.ones(z.size)
    weights[0] = prior
    w = np.random.RandomState(seed).dirichlet(weights, nsamples)
    samples = np.zeros((nsamples, 3))
    if rope > 0:
        samples[:, 0] = np.einsum("si,ij,sj->s", w, heaviside(sums, 2 * rope), w, optimize=True)
        samples[:, 2] = np.einsum("si,ij,sj->s", w, heaviside(-sums, 2 * rope), w, optimize=True)
        samples[:, 1] = 1.0 - samples[:, 0] - samples[:, 2]
    else:
        samples[:, 0] = np.einsum("si,ij,sj->s", w, heaviside(sums, 0.0), w, optimize=True)
        samples[:, 2] = 1.0 - samples[:, 0]
    winners = np.bincount(np.argmax(samples, axis=1), minlength=3) / nsamples
    return BayesResult(float(winners[0]), float(winners[1]), float(winners[2]), rope, int(x.size),
                       f"Bayesian signed-rank (Dirichlet process, prior {prior}, {nsamples} draws, seed {seed})",
                       samples if keep_samples else None)


def correlated_ttest(a, b, rho: float, rope: float = DEFAULT_ROPE, lower_is_better: bool = True) -> BayesResult:
    """Bayesian correlated t-test on the paired split values ``a`` and ``b`` of one dataset,
    ``rho`` = n_test / n_total (the correlation of the splits' differences, Nadeau and Bengio)."""
    from scipy import stats

    x, y = _paired(a, b)
    rope = _rope(rope)
    rho = float(rho)
    if not 0 <= rho < 1:
        raise ValueError(f"rho = n_test / n_total must lie in [0, 1), got {rho!r}")
    if x.size < 2:
        raise ValueError(f"the correlated t-test needs at least 2 splits, got {x.size}")
    d = (y - x) if lower_is_better else (x - y)    # > 0: a better
    n = d.size
    mean = float(d.mean())
    var = float(d.var(ddof=1)) * (1.0 / n + rho / (1.0 - rho))
    if var == 0:
        p_a, p_b = float(mean > rope), float(mean < -rope)
    else:
        scale = np.sqrt(var)
        p_b = float(stats.t.cdf(-rope, n - 1, mean, scale))
        p_a = float(stats.t.sf(rope, n - 1, mean, scale))
    return BayesResult(p_a, max(0.0, 1.0 - p_a - p_b), p_b, rope, n,
                       f"Bayesian correlated t (rho = {rho:.3f}, {n - 1} df)")
