"""ECOC with naive Bayes in a single pass (Park and Fuernkranz, 2014), with BCH codes (seed 001)."""

from ..spec import Paper

#: published algorithm name -> prefix of our algorithm names
ROLES = {"NB": "nb", "ECOC-NB": "ecocnb", "ECOC-straightforward": "ecoc_sf"}
CODE_LENGTHS = (15, 31, 63, 127, 255, 511, 1023)
#: config name -> the paper's name (generic summaries of the ECOC-NB experiments): NB, "ECOC-NB <bits>",
#: "ECOC-straightforward <bits>", one config per estimator (normal, kernel, disc) and code length
DISPLAY_NAMES = {**{f"nb_{e}_text": "NB" for e in ("normal", "kernel", "disc")},
                 **{f"{ROLES[r]}_{e}_b{n}": f"{r} {n}" for r in ("ECOC-NB", "ECOC-straightforward")
                    for e in ("normal", "kernel", "disc") for n in CODE_LENGTHS}}

DECLARATION = Paper(
    cells=True,  # prints result cells its build fills or lists as missing
    key="ecocnb", seed="001", title="ECOC with naive Bayes (Park and Fuernkranz, 2014)", short="ECOC-NB",
    authors="Sang-Hyeun Park and Johannes Fürnkranz", year=2014,
    experiments=("ecocnb_normal", "ecocnb_kernel", "ecocnb_discretized", "ecocnb_instances", "ecocnb_shared_pass",
                 "ecocnb_instances_shared", "ecocnb_instances_shared_held"),
    algorithms=ROLES, display_names=DISPLAY_NAMES, test=None, alpha=None)
