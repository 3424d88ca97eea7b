"""Statistics of the papers and beyond: bias-variance decomposition, win/draw/loss counts with
sign tests and the two-standard-error test, the standard error of a mean, size subsets, Wilcoxon, Friedman with Nemenyi's
critical difference, the corrected resampled t-test and the 5x2cv tests; Bayesian tests with a region of practical
equivalence, effect sizes, and post-hoc tests (Conover, Wilcoxon-Holm, comparisons with a control).

Modules: :mod:`.biasvar`, :mod:`.pairwise`, :mod:`.ranks`, :mod:`.ttests`, :mod:`.collect`, :mod:`.spread`,
:mod:`.bayes`, :mod:`.effect`, :mod:`.posthoc`.

``bench.stats.ranks`` is always the submodule (whatever was imported before); its function that ranks
a datasets x learners matrix is ``bench.stats.ranks.ranks``, also exported here as ``rank_matrix``.
"""

from __future__ import annotations

import importlib

#: public name -> submodule that defines it; imported on first use (PEP 562), so that
#: ``bench.stats.spread`` (the job summary of ``python -m bench``) does not import scipy.stats
#: through ``pairwise``, ``ranks`` and ``ttests``
_WHERE = {
    **dict.fromkeys(("BiasVariance", "bias_variance_table", "decompose", "decompose_records",
                     "kohavi_wolpert_terms"), "biasvar"),
    **dict.fromkeys(("dataset_means", "latest_runs", "run_status", "split_values"), "collect"),
    **dict.fromkeys(("SIZE_SUBSETS", "WDL", "in_subset", "outcomes", "sign_test", "significance", "size_category",
                     "two_se_outcome", "wdl", "wdl_from_outcomes", "wdl_matrix", "wdl_two_se"), "pairwise"),
    **dict.fromkeys(("mean_se", "pooled_standard_error", "standard_error"), "spread"),
    **dict.fromkeys(("critical_difference", "friedman", "nemenyi_cliques", "nemenyi_q", "rank_matrix"), "ranks"),
    **dict.fromkeys(("EffectSize", "cliffs_delta", "effect_size", "magnitude"), "effect"),
    **dict.fromkeys(("bonferroni", "bonferroni_dunn_cd", "bonferroni_dunn_q", "control_tests", "conover_friedman",
                     "hochberg", "holm", "rejects", "wilcoxon_pairs"), "posthoc"),
    **dict.fromkeys(("combined_5x2cv_ftest", "corrected_resampled_ttest", "paired_5x2cv_ttest",
                     "wilcoxon_signed_rank"), "ttests"),
}


#: submodules, which are never shadowed by a function of the same name
_MODULES = ("bayes", "biasvar", "collect", "effect", "pairwise", "posthoc", "ranks", "spread", "ttests")


def __getattr__(name: str):
    if name in _MODULES:    # ``from bench.stats import ranks`` is the submodule, whatever the import order
        return importlib.import_module(f".{name}", __name__)
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f".{where}", __name__)
    value = getattr(module, "ranks" if name == "rank_matrix" else name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE) | set(_MODULES))

__all__ = [
    "BiasVariance", "bias_variance_table", "decompose", "decompose_records", "kohavi_wolpert_terms",
    "dataset_means", "latest_runs", "run_status", "split_values",
    "SIZE_SUBSETS", "WDL", "in_subset", "outcomes", "sign_test", "significance", "size_category", "two_se_outcome",
    "wdl", "wdl_from_outcomes", "wdl_matrix", "wdl_two_se",
    "mean_se", "pooled_standard_error", "standard_error",
    "critical_difference", "friedman", "nemenyi_cliques", "nemenyi_q", "rank_matrix",
    "EffectSize", "cliffs_delta", "effect_size", "magnitude",
    "bonferroni", "bonferroni_dunn_cd", "bonferroni_dunn_q", "control_tests", "conover_friedman", "hochberg", "holm",
    "rejects", "wilcoxon_pairs",
    "combined_5x2cv_ftest", "corrected_resampled_ttest", "paired_5x2cv_ttest", "wilcoxon_signed_rank",
]
