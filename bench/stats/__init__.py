"""Statistics of the papers and beyond: bias-variance decomposition, win/draw/loss counts with
sign tests and the two-standard-error test, the standard error of a mean, size subsets, Wilcoxon, Friedman with Nemenyi's
critical difference, the corrected resampled t-test and the 5x2cv tests.

Modules: :mod:`.biasvar`, :mod:`.pairwise`, :mod:`.ranks`, :mod:`.ttests`, :mod:`.collect`, :mod:`.spread`.
"""

from .biasvar import BiasVariance, bias_variance_table, decompose, decompose_records, kohavi_wolpert_terms
from .collect import dataset_means, latest_runs, run_status, split_values
from .pairwise import (SIZE_SUBSETS, WDL, in_subset, outcomes, sign_test, size_category, two_se_outcome, wdl,
                       wdl_from_outcomes, wdl_matrix, wdl_two_se)
from .spread import mean_se, pooled_standard_error, standard_error
from .ranks import critical_difference, friedman, nemenyi_cliques, nemenyi_q, ranks
from .ttests import (combined_5x2cv_ftest, corrected_resampled_ttest, paired_5x2cv_ttest,
                     wilcoxon_signed_rank)

__all__ = [
    "BiasVariance", "bias_variance_table", "decompose", "decompose_records", "kohavi_wolpert_terms",
    "dataset_means", "latest_runs", "run_status", "split_values",
    "SIZE_SUBSETS", "WDL", "in_subset", "outcomes", "sign_test", "size_category", "two_se_outcome", "wdl",
    "wdl_from_outcomes", "wdl_matrix", "wdl_two_se",
    "mean_se", "pooled_standard_error", "standard_error",
    "critical_difference", "friedman", "nemenyi_cliques", "nemenyi_q", "ranks",
    "combined_5x2cv_ftest", "corrected_resampled_ttest", "paired_5x2cv_ttest", "wilcoxon_signed_rank",
]
