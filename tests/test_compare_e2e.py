"""``bench data add`` + ``bench compare`` as a new user runs them, in a copy of the checkout: a
LogisticRegression config written by hand, a CSV of their own, and a comparison over it and three
built-in datasets. Every output is checked, the W/D/L table against counts made here from the
report's own splits.csv, and ``git status`` in the copy shows nothing changed outside the
comparison's folder besides the two configs the user and ``data add`` wrote."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]

LOGREG = """\
name: logreg
description: scikit-learn LogisticRegression on mean-imputed, standardised attributes
preprocess:
  - _target_: sklearn.impute.SimpleImputer
    strategy: mean
    keep_empty_features: true
  - _target_: sklearn.preprocessing.StandardScaler
estimator:
  _target_: sklearn.linear_model.LogisticRegression
  max_iter: 1000
"""

BROKEN = """\
name: broken
estimator:
  _target_: sklearn.linear_model.LogisticRegression
  C: -1.0
"""


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """The tracked files of this checkout (as they are now) in a fresh git repository, without the
    shipped datasets/ (read from here through BENCH_DATASETS_DIR)."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    dest = tmp_path_factory.mktemp("user") / "bench"
    files = _git(ROOT, "ls-files", "-z").split("\0")
    for f in files:
        if not f or f.startswith("datasets/") or not (ROOT / f).is_file():
            continue
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dest / f)
    _git(dest, "init", "-q")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-qm", "clone")
    return dest


def _run(checkout: Path, env: dict, *args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], cwd=checkout, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_new_user_compares_own_algorithm_and_data(checkout, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
    env.update({"PYTHONPATH": str(checkout), "BENCH_RESULTS_DIR": str(tmp_path / "results"),
                "BENCH_CACHE_DIR": str(tmp_path / "cache"), "BENCH_DATASETS_DIR": str(ROOT / "datasets"),
                "BENCH_OPENML_OFFLINE": "1", "MPLCONFIGDIR": str(tmp_path / "mpl")})
    # the user's algorithm and data
    (checkout / "conf" / "algo" / "logreg.yaml").write_text(LOGREG)
    rng = np.random.default_rng(0)
    n = 150
    df = pd.DataFrame({"age": rng.integers(20, 80, n), "dose": rng.normal(size=n),
                       "site": rng.choice(["north", "south"], n)})
    df["response"] = np.where(df["dose"] + 0.02 * (df["age"] - 50) + rng.normal(0, 0.6, n) > 0, "yes", "no")
    csv = tmp_path / "trial.csv"
    df.to_csv(csv, index=False)

    added = _run(checkout, env, "data", "add", str(csv))
    assert added.returncode == 0, added.stderr
    assert "use it with data=trial" in added.stdout and "150 rows x 3 features, 2 classes" in added.stdout

    cmd = ["compare", "--algos", "logreg,gnb,rf10", "--datasets", "trial,iris,zoo,wine", "--protocol", "cv5x2"]
    proc = _run(checkout, env, *cmd)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    out = checkout / "reports" / "compare" / "logreg_vs_gnb_rf10"
    assert f"report: {out}/README.md" in proc.stdout.replace(str(checkout.resolve()), str(checkout))
    assert "120 splits computed, 0 reused" in proc.stdout
    assert "split/s" in proc.stderr                                  # the progress bars

    readme = (out / "README.md").read_text()
    first = readme.split("\n\n")[1]                                  # the summary paragraph
    assert "mean rank" in first and "Friedman" in first and "evidence is thin" in first
    for section in ("## Error, RMSE and log-loss per dataset", "## Win/draw/loss against the baseline",
                    "## Win/draw/loss of every pair", "## Ranks: Friedman, Iman-Davenport and Nemenyi",
                    "## Wilcoxon signed-rank tests against the baseline", "## Bias and variance (Kohavi-Wolpert)",
                    "## Training and test time, as ratios to the baseline", "## What the parts mean and how to cite"):
        assert section in readme
    for m in ("error", "rmse", "log_loss"):                          # CD diagram always drawn, p in its caption
        assert (out / "figures" / f"cd_{m}.png").stat().st_size > 1000
        assert "Friedman chi2_F" in (out / "figures" / f"cd_{m}.caption.md").read_text()
        for ext in ("csv", "tex", "md"):
            assert (out / "tables" / f"{m}_per_dataset.{ext}").exists()
            assert (out / "tables" / f"wdl_matrix_{m}.{ext}").exists()
    html = (out / "index.html").read_text()
    assert '<img src="figures/cd_error.png"' in html and "<table>" in html
    assert html.index('<img src="figures/cd_error.png"') < html.index("<table")   # the page opens with the figure
    assert html.count('src="figures/cd_error.png"') == 1                          # shown once

    # W/D/L against the baseline, recounted from the report's own per-split values
    splits = pd.read_csv(out / "splits.csv")
    assert len(splits) == 120 and set(splits["status"]) == {"ok"}
    means = splits.groupby(["dataset", "algo"])["metrics.error"].mean().unstack()
    wdl = pd.read_csv(out / "tables" / "wdl_vs_baseline.csv")
    for algo in ("gnb", "rf10"):
        row = wdl[(wdl["algorithm"] == algo) & (wdl["measure"] == "error")].iloc[0]
        wins, losses = int((means[algo] < means["logreg"]).sum()), int((means[algo] > means["logreg"]).sum())
        assert (row["wins"], row["losses"]) == (wins, losses)
        assert row["p_two_tailed"] == pytest.approx(stats.binomtest(wins, wins + losses, 0.5).pvalue)
    assert set(wdl["measure"]) == {"error", "rmse", "log_loss", "bias", "variance"}   # cv5x2: 5 rounds
    bv = pd.read_csv(out / "tables" / "bias_variance.csv")
    joined = bv.merge(means.stack().rename("error").reset_index(), on=["dataset", "algo"])
    assert np.allclose(joined["bias"] + joined["variance"], joined["loss"])    # noise folded into bias
    assert np.allclose(joined["loss"], joined["error"], atol=3e-3)   # per instance vs per split (fold sizes)
    ratios = pd.read_csv(out / "tables" / "train_s_ratio.csv").set_index("dataset")
    assert np.allclose(ratios["logreg"], 1.0)

    # nothing else changed in the checkout: only the two configs and the report folder
    status = _git(checkout, "status", "--porcelain", "--untracked-files=all").splitlines()
    changed = sorted(line[3:] for line in status)
    others = [p for p in changed if not p.startswith("reports/compare/logreg_vs_gnb_rf10/")]
    assert others == ["conf/algo/logreg.yaml", "conf/data/trial.yaml"], changed
    assert any(p.endswith("README.md") for p in changed)

    # again: every split reused; a failing algorithm makes the command exit 1, with the report written
    again = _run(checkout, env, *cmd, "--no-progress")
    assert again.returncode == 0 and "0 splits computed, 120 reused" in again.stdout
    (checkout / "conf" / "algo" / "broken.yaml").write_text(BROKEN)
    bad = _run(checkout, env, "compare", "--algos", "logreg,broken", "--datasets", "iris", "--protocol", "cv2",
               "--no-progress", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 1 and "FAILED: broken on iris" in bad.stderr
    assert "left out of the tests" in (tmp_path / "bad" / "README.md").read_text()
    # a comparison that cannot run: exit 2, no traceback
    nope = _run(checkout, env, "compare", "--algos", "logreg,nosuch", "--datasets", "iris")
    assert nope.returncode == 2 and "unknown algorithm 'nosuch'" in nope.stderr and "Traceback" not in nope.stderr
