"""A1DE/A2DE with subsumption resolution and MI weighting (Zaidi and Webb, 2013), with a bias-variance study (seed 003)."""

from ..spec import Paper
from .spec import ALGOS, ALPHA, DISPLAY_NAMES, EXPERIMENT, PAPER, TEST

DECLARATION = Paper(
    cells=True,  # prints result cells its build fills or lists as missing
    key=PAPER, seed="003", title="A2DE with subsumption resolution and MI weighting (Zaidi and Webb, 2013)",
    short="A2DE-SR/MI", authors="Nayyar A. Zaidi and Geoffrey I. Webb", year=2013, experiments=(EXPERIMENT, "ande_sr_weka_rf", "ande_sr_subsumption"),
    algorithms=ALGOS, display_names=DISPLAY_NAMES, test=TEST, alpha=ALPHA)
