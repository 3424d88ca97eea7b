"""Statistics of the papers and beyond: bias-variance decomposition, win/draw/loss counts with
sign tests and the two-standard-error test, the standard error of a mean, size subsets, Wilcoxon, Friedman with Nemenyi's
critical difference, the corrected resampled t-test and the 5x2cv tests.

Modules: :mod:`.biasvar`, :mod:`.pairwise`, :mod:`.ranks`, :mod:`.ttests`, :mod:`.collect`, :mod:`.spread`.
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
    **dict.fromkeys(("SIZE_SUBSETS", "WDL", "in_subset", "outcomes", "sign_test", "size_category",
                     "two_se_outcome", "wdl", "wdl_from_outcomes", "wdl_matrix", "wdl_two_se"), "pairwise"),
    **dict.fromkeys(("mean_se", "pooled_standard_error", "standard_error"), "spread"),
    **dict.fromkeys(("critical_difference", "friedman", "nemenyi_cliques", "nemenyi_q", "ranks"), "ranks"),
    **dict.fromkeys(("combined_5x2cv_ftest", "corrected_resampled_ttest", "paired_5x2cv_ttest",
                     "wilcoxon_signed_rank"), "ttests"),
}


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{where}", __name__), name)
    # ``ranks`` is both a submodule and its function: the package attribute is the function, as it
    # was when this file imported everything (until a first ``import bench.stats.ranks`` rebinds it)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE))

__all__ = [
    "BiasVariance", "bias_variance_table", "decompose", "decompose_records", "kohavi_wolpert_terms",
    "dataset_means", "latest_runs", "run_status", "split_values",
    "SIZE_SUBSETS", "WDL", "in_subset", "outcomes", "sign_test", "size_category", "two_se_outcome", "wdl",
    "wdl_from_outcomes", "wdl_matrix", "wdl_two_se",
    "mean_se", "pooled_standard_error", "standard_error",
    "critical_difference", "friedman", "nemenyi_cliques", "nemenyi_q", "ranks",
    "combined_5x2cv_ftest", "corrected_resampled_ttest", "paired_5x2cv_ttest", "wilcoxon_signed_rank",
]
