"""MassBayes (Aryal and Ting, 2013): likelihoods from an ensemble of h:d-trees (seed 000)."""

from ..spec import Paper

#: paper name -> our algorithm config name
ALGOS = {"MassBayes'": "massbayes_prime", "MassBayes": "massbayes", "A3DE": "a3de", "A2DE": "a2de",
         "A1DE": "a1de_weka", "BayesNet": "bayesnet_k2", "NB-KDE": "nb_kde", "NB-Disc": "nb_disc", "J48": "j48"}

DECLARATION = Paper(
    cells=True,  # prints result cells its build fills or lists as missing
    key="massbayes", seed="000", title="MassBayes (Aryal and Ting, 2013)", short="MassBayes",
    authors="Sunil Aryal and Kai Ming Ting", year=2013,
    experiments=("massbayes_table3", "massbayes_fig3", "massbayes_fig3_disc", "massbayes_fig4_h", "massbayes_fig4_psi",
                 "massbayes_fig4_psi_synth", "massbayes_fig4_t", "massbayes_bayesnet_weka"),
    algorithms=ALGOS,
    # config name -> the paper's name (tables, legends, generic summaries); gnb (Gaussian NB, Fig. 3 only) is
    # not in the paper's tables
    display_names={**{v: k for k, v in ALGOS.items()}, "gnb": "NB-Gaussian"},
    test="two-standard-error test on the paired fold accuracies", alpha=None)
