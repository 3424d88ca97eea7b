"""The claim checks of the ``ande_sr`` report: conclusions.{md,csv,tex}, a view of the verdicts of
:mod:`bench.papers.ande_sr.verdicts` on the facts the build recorded before it (the same facts the
verdict stage reads back from ``facts.json``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench import published
from bench.report.context import PaperResult
from bench.report.tables import write_table
from bench.papers.ande_sr.spec import PAPER


def conclusions(out: Path, exp, res: PaperResult) -> list[Path]:
    """conclusions.{md,csv,tex}: a view of the claim verdicts (bench.papers.ande_sr.verdicts, on the facts
    recorded in ``res.facts`` above) — the claims and their wording come from the published claim data."""
    from bench.papers.ande_sr import verdicts as verdicts

    vs = verdicts.evaluate_facts(res.facts, published.claims(PAPER))
    table = pd.DataFrame([{
        "claim": v.claim_id, "statement": v.claim, "verdict": v.verdict,
        "paper's own table": v.extra.get("paper_own", ""),
        "with RF10-sklearn": v.extra.get("rf10_sklearn", ""), "ours": v.ours, "published": v.published,
        "test": v.test, "reason": v.reason,
        # the files spaced apart, so that a long list wraps on the page
        "evidence": "; ".join(e.strip() for e in str(v.evidence or "").split(";") if e.strip())} for v in vs])
    cap = (f"The paper's claims (claims.csv) checked against our runs (scale {exp.plan.get('scale', '?')}): one verdict "
           f"per claim from bench.papers.ande_sr.verdicts. 'paper's own table' applies the same rule to the paper's "
           f"own counts; 'with RF10-sklearn' is the verdict with scikit-learn's forest in place of Weka's RF10.")
    files = write_table(table, out / "conclusions", caption=cap, index=False)
    counts = table["verdict"].value_counts().to_dict()
    res.notes.append("claims: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return files
