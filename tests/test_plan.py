"""The cost plan (bench/plan.py): fits, scaling of measured cells, SLURM array sizing, the CLI."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from bench import plan as P

from .conftest import ROOT

# twelve made-up datasets spanning two to three orders of magnitude in each dimension
DIMS = [(150, 4, 3), (1000, 20, 2), (5000, 8, 10), (20000, 16, 26), (300, 60, 2), (48842, 14, 2),
        (2000, 30, 5), (700, 9, 7), (12000, 5, 4), (3500, 40, 3), (90, 12, 2), (67557, 42, 3)]


def test_power_law_exponents_are_recovered_exactly_without_a_fixed_part(monkeypatch):
    rows, attrs, classes = (np.array(v, float) for v in zip(*DIMS))
    t = 3e-6 * rows ** 1.0 * attrs ** 2.0 * classes ** 0.5
    groups = [f"d{i}" for i in range(len(DIMS))]
    monkeypatch.setattr(P, "RIDGE", 0.0)  # plain least squares: exact on an exact power law
    fit = P.fit_power(rows, attrs, classes, t, groups, fixed=False)
    assert fit.n_datasets == 12
    assert np.allclose(fit.b, (1.0, 2.0, 0.5), atol=1e-9)
    assert math.isclose(math.exp(fit.a), 3e-6, rel_tol=1e-9)
    assert fit.loo_factor == pytest.approx(1.0, abs=1e-9)
    monkeypatch.setattr(P, "RIDGE", 1.0)  # the default pull towards 1 barely moves 12 datasets
    fit = P.fit_power(rows, attrs, classes, t, groups, fixed=False)
    assert np.allclose(fit.b, (1.0, 2.0, 0.5), atol=0.15)


def test_fixed_part_does_not_flatten_the_extrapolation():
    # a fixed 5 ms per split and a linear part: predicting 10x the largest dataset must follow
    # the linear part, which a plain log-log fit (no fixed part) gets badly wrong
    rows, attrs, classes = (np.array(v, float) for v in zip(*DIMS))
    t = 0.005 + 2e-8 * rows * attrs * classes
    groups = [f"d{i}" for i in range(len(DIMS))]
    truth = 0.005 + 2e-8 * 675570 * 42 * 3
    with_fixed = P.fit_power(rows, attrs, classes, t, groups)(675570, 42, 3)
    plain = P.fit_power(rows, attrs, classes, t, groups, fixed=False)(675570, 42, 3)
    assert abs(with_fixed / truth - 1) < 0.15
    assert abs(with_fixed / truth - 1) < abs(plain / truth - 1)


def test_few_datasets_keep_the_exponents_near_linear():
    # three datasets growing in rows and attributes together: the data cannot tell the two
    # exponents apart; the ridge shares the growth between them instead of inventing one
    fit = P.fit_power([100, 1000, 10000], [2, 20, 200], [2, 2, 2], [0.01, 1.0, 100.0], ["a", "b", "c"],
                      fixed=False)
    assert all(0 <= b <= 3 for b in fit.b)
    assert fit.b[0] == pytest.approx(fit.b[1], abs=1e-6)  # symmetric data, symmetric answer
    assert fit(1000, 20, 2) == pytest.approx(1.0, rel=0.05)


def _train_s(n_train, a, c):
    return 0.004 + 1e-6 * n_train * a * c


def _test_s(n_test, a, c):
    return 0.001 + 1e-7 * n_test * a * c


def test_a_cell_measured_on_the_same_dataset_is_scaled_by_its_rows():
    # stored: 2-fold CV means (half the rows to train, half to test) of a cost with a fixed part
    obs = [P.Obs("algo", f"d{i}", r / 2, r / 2, a, c, _train_s(r / 2, a, c), _test_s(r / 2, a, c), None, None, 0.1,
                 "reports") for i, (r, a, c) in enumerate(DIMS)]
    m = P.build_models(obs)["algo"]
    cv10 = {"kind": "kfold", "n_splits": 10, "n_repeats": 1}
    cell = P.estimate_cell(m, "algo", "d3", (20000, 16, 26), cv10, jobs=1, splits_per_job=10)
    # the truth under cv10 on d3: training on 18000 rows, testing on 2000
    truth = _train_s(18000, 16, 26) + _test_s(2000, 16, 26)
    assert cell.how.startswith("measured here at 10000 training rows")
    assert cell.split_s == pytest.approx(truth, rel=0.05)
    assert cell.cpu_s == pytest.approx(10 * cell.split_s + P.JOB_OVERHEAD_S)
    assert "memory: rough upper bound" in cell.how  # no memory measured: the bound, with the data and the model
    assert cell.peak_mb == pytest.approx(P.BASE_RSS_MB + 4 * 20000 * 16 * 8 / 2**20 + 2 * 0.1)
    # a dataset never measured: the power law, again against the truth
    far = P.estimate_cell(m, "algo", "new", (200000, 30, 4), cv10, jobs=1, splits_per_job=10)
    assert far.how.startswith("power law")
    assert far.split_s == pytest.approx(_train_s(180000, 30, 4) + _test_s(20000, 30, 4), rel=0.15)


def test_slurm_arrays_chunk_long_jobs_under_the_time_limit():
    p = {"experiment": "x", "algos": ["algo"], "datasets": ["small", "big"], "protocol": "cv10", "seeds": [0],
         "sweep": {}, "overrides": []}
    cells = [P.CellEstimate("algo", "small", 1, 10, 100.0, 9.0, 500.0, "power law", "fitted"),
             P.CellEstimate("algo", "big", 1, 10, 5000.0, 499.0, 3000.0, "power law", "measured")]
    cmds = P.slurm_sweeps(p, cells, max_job_hours=1.0, partition="batch", results_dir="/shared/r")
    assert len(cmds) == 2
    small, big = (" ".join(c) for c in cmds)
    assert "data=small" in small and "+chunk" not in small
    # 5000 s x safety 2 over a 3600 s limit: ceil(2.78) = 3 chunk tasks sharing the job's splits
    assert "data=big" in big and "+chunk=0,1,2" in big
    for c in (small, big):
        assert "hydra/launcher=cluster_slurm" in c and "hydra.launcher.timeout_min=60" in c
        assert "hydra.launcher.partition=batch" in c and "results_dir=/shared/r" in c
        assert "hydra.launcher.signal_delay_s=120" in c  # a tenth of the limit, at most 120 s
    assert "hydra.launcher.mem_gb=5" in big  # measured 3000 MB x MEM_SAFETY 1.5, rounded up to GB
    assert "hydra.launcher.mem_gb=1" in small  # fitted 500 MB x MEM_SAFETY_FITTED 2: the 1 GB floor


@pytest.mark.slow  # a subprocess that reads every committed report (~15 s)
def test_plan_cli_prints_jobs_splits_and_cost(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "bench.experiments", "plan", "smoke", "--scale", "smoke",
                          "--out", str(tmp_path / "plan.md")], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    for text in ("# Plan: smoke at scale smoke", "- jobs: ", "estimated CPU:", "## Per algorithm",
                 "## Per dataset", "## How the estimate was made"):
        assert text in out.stdout
    assert (tmp_path / "plan.md").read_text().startswith("# Plan: smoke")


# ------------------------------------------------------------------ memory against the shipped evidence
EVIDENCE = ROOT / "reports" / "evidence"
#: (algorithm, dataset) cells of the shipped evidence, from a few hundred MB to over a GB of peak memory
MEMORY_CELLS = [("massbayes_prime", "letter"), ("a2de", "letter"), ("kdb", "adult"), ("eskdb_m", "letter"),
                ("aode", "magic"), ("rf100", "letter"), ("nb_kde", "letter"), ("massbayes", "letter")]


@pytest.fixture(scope="module")
def evidence_obs():
    if not EVIDENCE.is_dir():
        pytest.skip("no shipped evidence")
    return P.observations_from_evidence(EVIDENCE)


def _stored_peak(algo: str, dataset: str) -> float:
    """The largest ``memory.peak_rss_mb`` of the cell's ok splits, read straight from the Parquet files."""
    import pandas as pd

    peaks = []
    import pyarrow.parquet as pq

    for path in EVIDENCE.glob("*.records.parquet"):
        if "memory.peak_rss_mb" not in pq.read_schema(path).names:   # runs by an outside program (Weka)
            continue
        df = pd.read_parquet(path, columns=["algo", "dataset", "status", "memory.peak_rss_mb"])
        sel = df[(df["algo"] == algo) & (df["dataset"] == dataset) & (df["status"] == "ok")]
        peaks += sel["memory.peak_rss_mb"].dropna().tolist()
    assert peaks, (algo, dataset)
    return max(peaks)


@pytest.mark.parametrize("algo,dataset", MEMORY_CELLS)
def test_fitted_memory_is_within_twice_the_stored_peak(evidence_obs, algo, dataset):
    # the cell's own dataset left out: the fitted model alone predicts the split's peak memory
    rest = [o for o in evidence_obs if o.dataset != dataset]
    m = P.build_models(rest)[algo]
    o = next(o for o in evidence_obs if o.label == algo and o.dataset == dataset)
    peak, how = P.memory_estimate(m, [], o.n_train + o.n_test, o.attrs, o.classes)
    stored = _stored_peak(algo, dataset)
    assert how == "fitted"
    assert stored / 2 <= peak <= stored * 2, (algo, dataset, peak, stored)


def test_the_plan_takes_the_measured_memory_of_the_shipped_evidence(evidence_obs):
    # the full-scale plan of MassBayes' table: its cells are measured in the evidence, and say so
    models = P.build_models(evidence_obs)
    cv10 = {"kind": "kfold", "n_splits": 10, "n_repeats": 1}
    for algo, dataset in MEMORY_CELLS[:3]:
        dims = P._dataset_dims(dataset)
        cell = P.estimate_cell(models[algo], algo, dataset, dims, cv10, jobs=1, splits_per_job=10)
        assert cell.how.endswith("memory: measured") and cell.mem_how == "measured"
        assert cell.peak_mb == pytest.approx(_stored_peak(algo, dataset))
    # and the SLURM request keeps its margin over it
    p = {"experiment": "x", "algos": ["massbayes_prime"], "datasets": ["letter"], "protocol": "cv10", "seeds": [0],
         "sweep": {}, "overrides": []}
    cell = P.estimate_cell(models["massbayes_prime"], "massbayes_prime", "letter", P._dataset_dims("letter"), cv10,
                           jobs=1, splits_per_job=10)
    (cmd,) = P.slurm_sweeps(p, [cell], max_job_hours=1.0, partition=None, results_dir=None)
    gb = int(next(c for c in cmd if c.startswith("hydra.launcher.mem_gb=")).split("=")[1])
    assert gb * 1024 >= cell.peak_mb * P.MEM_SAFETY


def test_memory_measured_on_fewer_rows_grows_only_by_its_added_part():
    # a start of 300 MB and 0.01 MB per row added: measured at 2,000 rows, asked for 20,000
    obs = [P.Obs("algo", f"d{i}", r * 0.9, r * 0.1, a, c, 1.0, 0.1, 300 + 0.01 * r, 300.0, None, "records")
           for i, (r, a, c) in enumerate(DIMS)]
    m = P.build_models(obs)["algo"]
    same = [P.Obs("algo", "x", 1800, 200, 10, 2, 1.0, 0.1, 320.0, 300.0, None, "records")]
    peak, how = P.memory_estimate(m, same, 20000, 10, 2)
    assert how == "scaled"
    assert peak == pytest.approx(300 + 0.01 * 20000, rel=0.1)  # not 320 x 10
    peak, how = P.memory_estimate(m, same, 2000, 10, 2)
    assert (peak, how) == (320.0, "measured")
