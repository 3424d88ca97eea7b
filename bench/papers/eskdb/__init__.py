"""ESKDB (Zhang, Petitjean and Buntine, 2020): ensembles of selective KDBs with HDP smoothing (seed 002)."""

from ..spec import Paper

#: the paper's algorithm names -> our configs (the first stored one is used)
ALGOS = {"NB": ["kdb0"], "TAN": ["tan"], "KDB": ["kdb", "kdb5"], "SKDB": ["skdb"],
         "KDF": ["kdf"], "AODE": ["aode", "a1de"], "ESKDB_M": ["eskdb_m"], "ESKDB_HDP": ["eskdb_hdp"],
         "RF": ["rf100_weka"], "RF-sklearn": ["rf100"], "XGBoost_default": ["xgb"], "XGBoost_tuned": ["xgb_tuned"]}
ABLATION = {"ES-KDB": ["eskdb_m"], "ES-KDB_randomO": ["eskdb_random_o"], "ES-KDB_randomCP": ["eskdb_random_cp"]}
#: the same three under the reference code's java.util.Random draws (table ablation_generators)
AUTHORS_RNG_ABLATION = {"ES-KDB": "eskdb_m_authors_rng", "ES-KDB_randomO": "eskdb_random_o_authors_rng",
                        "ES-KDB_randomCP": "eskdb_random_cp_authors_rng"}
# shown beside the paper's classifiers as extra columns, never as the paper's: Weka-style Laplace NB (the
# paper's NB is M-estimation, kdb0) and KDB with other k (the paper's KDB is k = 5, the ESKDB code's -K 5)
KDB_VARIANTS = {"NB-Laplace": "nb_disc", "KDB-1": "kdb1", "KDB-2": "kdb2"}
# bench's KDB family before and after each fix, on eskdb_main's datasets and folds
FIX_VARIANTS = {"NB-Laplace (Weka, not the paper's NB)": "nb_disc", "NB (KDB-0, M-estimation: the paper's NB)": "kdb0",
                "KDB-5 bench before": "kdb_bench", "KDB-5 + missing slot": "kdb_slot",
                "KDB-5 + missing slot + ties (paper config)": "kdb", "KDB-1 (not the paper's KDB)": "kdb1",
                "SKDB bench before": "skdb_bench", "SKDB + missing slot": "skdb_slot",
                "SKDB + missing slot + ties": "skdb_slot_weka", "SKDB + slot + ties + LOO rule (paper config)": "skdb",
                "ESKDB_M bench before": "eskdb_m_bench", "ESKDB_M (paper config)": "eskdb_m",
                "ESKDB_HDP (paper config)": "eskdb_hdp"}
#: config name -> the paper's name (tables, legends, generic summaries); ablation names for the
#: ablation-only configs, KDB with another k as KDB-k (never "KDB"), the fix variants as in the fix table
DISPLAY_NAMES = {**{a: n for n, a in FIX_VARIANTS.items()}, "kdb3": "KDB-3",
                 **{a: n for n, a in KDB_VARIANTS.items()},
                 **{a: n for n, names in ABLATION.items() for a in names},
                 **{a: f"{n} (java.util.Random)" for n, a in AUTHORS_RNG_ABLATION.items()},
                 **{a: n for n, names in ALGOS.items() for a in names}}

#: the paper's measure names -> our measure registry's (bench.measures), and the two of its W/D/L tables
MEASURES = {"RMSE": "rmse", "error rate": "error", "training time": "train_s"}
ACCURACY = {k: MEASURES[k] for k in ("RMSE", "error rate")}

DECLARATION = Paper(
    cells=True,  # prints result cells its build fills or lists as missing
    key="eskdb", seed="002",
    title="ESKDB: Bayesian network classifiers with ensembles and smoothing (Zhang, Petitjean and Buntine, 2020)",
    short="ESKDB", authors="He Zhang, François Petitjean and Wray Buntine", year=2020,
    experiments=("eskdb_main", "eskdb_ablation", "eskdb_ensemble_size", "eskdb_hdp_tying", "eskdb_gibbs_iterations",
                 "eskdb_uniform_prior", "eskdb_stage_profile", "eskdb_skdb_loo"),
    algorithms=ALGOS, display_names=DISPLAY_NAMES, test="sign1", alpha=0.05,
    measures=MEASURES)
