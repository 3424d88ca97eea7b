"""The paper's constants for the ``ande_sr`` report: its algorithms, tables, test and files."""

from __future__ import annotations

PAPER = "ande_sr"
EXPERIMENT = "ande_sr"
TITLE = "Fast and Effective Single Pass Bayesian Learning (Zaidi and Webb, 2013)"

#: the paper's algorithm names -> our conf/algo names, in the paper's order. The paper's RF10 is Weka's
#: RandomForest -I 10, i.e. ``rf10_weka`` (multiway nominal splits); scikit-learn's forest
#: ``rf10`` (binary splits of nominal codes) is kept beside it as an extra column, "RF10-sklearn".
ALGOS = {"NB": "nb", "A1DE": "a1de", "A1DE-S": "a1de_s", "A1DE-W": "a1de_w", "A1DE-SW": "a1de_sw",
         "A2DE": "a2de", "A2DE-S": "a2de_s", "A2DE-W": "a2de_w", "A2DE-SW": "a2de_sw", "RF10": "rf10_weka",
         "RF10-sklearn": "rf10"}
#: config name -> the paper's name, for every table, legend and generic summary of this paper
DISPLAY_NAMES = {oa: pa for pa, oa in ALGOS.items()}
BASELINE = "NB"
SUBSETS = ("all", "large", "medium", "small")

#: table number -> (our measure key, the published measure string, file label)
TABLES = {2: ("bias", "bias", "bias"), 3: ("variance", "variance", "variance"),
          4: ("error", "0-1 loss", "01loss"), 5: ("rmse", "RMSE", "rmse")}
TEST = "sign2"        # Zaidi and Webb 2013: two-tailed binomial sign test, significant when p < 0.05
ALPHA = 0.05

#: the fact of the per-dataset values Tables 2-5 count on (the paired values of the Bayesian note)
VALUES_FACT = "wdl_values"
#: the long table of Tables 2-5's RF10 cells recomputed with RF10-sklearn (read by the verdicts)
SKLEARN_FILE = "wdl_rf10_sklearn_long.csv"

#: pairs whose per-dataset differences get the split-level tests (beyond the paper)
PAIRED = [("A2DE-SW", "RF10"), ("A2DE-SW", "A2DE"), ("A2DE-S", "A2DE"), ("A2DE-W", "A2DE"), ("A1DE-SW", "A1DE")]
