"""One verdict per published claim (issue 19): the 96 claims of ``bench/published/claims.csv``.

Interface (the rules themselves are written down in :data:`RULES`, in one place):

* Each paper has a module ``bench/report/verdicts/<paper>.py`` with
  ``evaluate(reports_dir: Path, claims: pandas.DataFrame) -> list[Verdict]``; ``claims`` holds that
  paper's rows of ``claims.csv`` and the function returns exactly one :class:`Verdict` per row.
  Evaluators read the tables the paper builds wrote under ``reports_dir`` (CSV files, which come
  from the stored runs), never hand-written result numbers.
* :func:`evaluate_all` runs every paper module and checks that every claim id has exactly one
  verdict.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import pandas as pd

#: the four verdicts a claim can get
REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_CHECKABLE = ("reproduced", "partly reproduced", "not reproduced",
                                                      "not checkable")
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_CHECKABLE)

#: paper key -> the module evaluating its claims (bench.report.verdicts.<module>)
PAPERS = ("massbayes", "ecocnb", "eskdb", "ande_sr", "mctree")


@dataclass
class Verdict:
    """The verdict on one claim.

    ``ours``/``published`` are short display strings (numbers with units, WDL counts); ``test``
    names the test where the claim is a comparison (e.g. "two-tailed sign test, p <= 0.05"), else
    ""; ``evidence`` is the path of the report table the verdict rests on, relative to reports/;
    ``reason`` is one line saying why (always set for not reproduced / partly / not checkable);
    ``scale`` the scale and protocol the numbers come from.
    """

    claim_id: str
    paper: str
    verdict: str
    ours: str = ""
    published: str = ""
    test: str = ""
    evidence: str = ""
    reason: str = ""
    scale: str = ""
    claim: str = ""
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.claim_id}: verdict {self.verdict!r} is not one of {VERDICTS}")
        if self.verdict != REPRODUCED and not self.reason:
            raise ValueError(f"claim {self.claim_id}: a {self.verdict!r} verdict needs a reason")

    def row(self) -> dict:
        d = asdict(self)
        d.pop("extra")
        return d


def to_frame(verdicts: list[Verdict]) -> pd.DataFrame:
    return pd.DataFrame([v.row() for v in verdicts])
