"""``bench compare --against ande_sr``: the baselines come from the shipped evidence (nothing of
theirs is rerun), the algorithm runs on the experiment's folds, the fold check says so, and the
W/D/L against an evidence baseline is the count made here from the evidence's own records."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.compare.__main__ import main
from bench.report.evidence import Evidence

ROOT = Path(__file__).resolve().parents[1]
EVIDENCE = ROOT / "reports" / "evidence"


@pytest.mark.skipif(not (EVIDENCE / "ande_sr.records.parquet").exists(), reason="no shipped evidence of ande_sr")
def test_against_shipped_evidence(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path / "results"))
    out = tmp_path / "report"
    rc = main(["--algos", "gnb", "--against", "ande_sr", "--datasets", "iris,zoo,wine", "--baselines", "nb,a1de",
               "--baseline", "nb", "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "120 splits computed, 0 reused, 240 read from the evidence of ande_sr, 0 failed" in text
    splits = pd.read_csv(out / "splits.csv")
    assert set(splits.loc[splits["source"] == "run", "algo"]) == {"gnb"}
    assert set(splits.loc[splits["source"] == "evidence:ande_sr", "algo"]) == {"nb", "a1de"}
    folds = pd.read_csv(out / "tables" / "fold_check.csv")
    assert list(folds["same folds"]) == ["yes"] * 3 and list(folds["splits"]) == [40] * 3
    # the evidence's numbers, read here directly, give the report's W/D/L of a1de against nb
    ev = Evidence(EVIDENCE).records("ande_sr")
    ev = ev[ev["dataset"].isin(["iris", "zoo", "wine"]) & (ev["protocol"] == "cv20x2") & (ev["status"] == "ok")]
    means = ev.groupby(["dataset", "algo"])["metrics.error"].mean().unstack()
    wdl = pd.read_csv(out / "tables" / "wdl_vs_baseline.csv")
    row = wdl[(wdl["algorithm"] == "a1de") & (wdl["measure"] == "error")].iloc[0]
    assert (row["wins"], row["losses"]) == (int((means["a1de"] < means["nb"]).sum()),
                                            int((means["a1de"] > means["nb"]).sum()))
    # bias and variance: ours from our predictions, the baselines' from the shipped facts
    bv = pd.read_csv(out / "tables" / "bias_variance.csv")
    shipped = Evidence(EVIDENCE).biasvar("ande_sr")
    mine = bv[bv["algo"] == "nb"].set_index("dataset")["bias"]
    ref = shipped[(shipped["algo"] == "nb") & (shipped["protocol"] == "cv20x2")].set_index("dataset")["bias"]
    assert np.allclose(mine, ref.loc[mine.index])
    assert set(bv["algo"]) == {"gnb", "nb", "a1de"}
    assert "## Same folds as the shipped evidence of ande_sr" in (out / "README.md").read_text()
    # a second run reuses our splits and still reads theirs
    assert main(["--algos", "gnb", "--against", "ande_sr", "--datasets", "iris,zoo,wine", "--baselines", "nb,a1de",
                 "--no-progress", "--out", str(out)]) == 0
    assert "0 splits computed, 120 reused, 240 read" in capsys.readouterr().out


def test_against_refuses_what_it_cannot_do(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCH_RESULTS_DIR", str(tmp_path / "results"))
    assert main(["--algos", "gnb", "--against", "no_such_experiment"]) == 2
    assert "no shipped evidence" in capsys.readouterr().err
    if (EVIDENCE / "ande_sr.records.parquet").exists():
        assert main(["--algos", "gnb", "--against", "ande_sr", "--protocol", "cv10"]) == 2
        assert "leave out --protocol" in capsys.readouterr().err
        assert main(["--algos", "gnb", "--against", "ande_sr", "--baselines", "xgb"]) == 2
        assert "holds no xgb" in capsys.readouterr().err
