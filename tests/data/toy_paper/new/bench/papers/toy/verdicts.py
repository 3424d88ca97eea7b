"""The made-up paper's claims: TY01 as a W/D/L under its one-tailed sign test, TY02 as an average."""

from __future__ import annotations

from bench.report.verdicts import kinds
from bench.report.verdicts.kinds import WDL, Average, Cmp

CHECKS = {
    "TY01": WDL((("", (Cmp("A1DE", "NB", "error rate", "win"),)),)),
    "TY02": Average("A1DE", "error rate"),
}


def evaluate(reports_dir, claims):
    return kinds.evaluate_standard("toy", CHECKS, reports_dir, claims)
