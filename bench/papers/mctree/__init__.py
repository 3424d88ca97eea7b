"""MC-Tree, anytime Bayesian classification (Kranen et al., 2010), against the Bayes tree and anytime NN (seed 004)."""

from ..spec import Paper

#: config name -> the paper's name in legends and tables (the hypothesis variants say what they change)
DISPLAY_NAMES = {
    "mctree": "MC-Tree", "mctree_inf": "MC-Tree (delta=inf)", "mctree_inf_cf": "MC-Tree (CF variances)",
    "mctree_inf_leafpage": "MC-Tree (page-sized leaves)", "mctree_inf_root": "MC-Tree (Def. 3 at the root)",
    "bayestree": "Bayes tree", "bayestree_cf": "Bayes tree (CF variances)", "bayestree_kclass": "Bayes tree (k-class)",
    "anytime_nn": "anytime NN", "smo_numeric": "SVM", "smo": "SVM (all attributes)",
    "svm": "SVC (scikit-learn, extra)", "j48": "C4.5 (J48)", "tree_placeholder": "C4.5 stand-in (sklearn tree)"}
#: the paper's algorithm names -> our configs
ALGOS = {"MC-Tree": "mctree", "Bayes tree": "bayestree", "anytime NN": "anytime_nn", "SVM": "smo_numeric",
         "C4.5": "j48"}

DECLARATION = Paper(
    cells=False,  # prints no result cells of its own: its numbers are claims and figures
    key="mctree", seed="004", title="MC-Tree, anytime Bayesian classification (Kranen et al., 2010)", short="MC-Tree",
    authors="Philipp Kranen, Stephan Günnemann, Sergej Fries and Thomas Seidl", year=2010,
    experiments=("mctree_fig4_alpha", "mctree_fig4_delta", "mctree_fig5", "mctree_fig5_pages32", "mctree_fig6",
                 "mctree_vowel", "mctree_hypotheses", "mctree_k", "mctree_cost"),
    algorithms=ALGOS, display_names=DISPLAY_NAMES, test=None, alpha=None)
