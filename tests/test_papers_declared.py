"""The papers' declarations (bench/papers/<key>/__init__.py) agree with the configs they name."""

from __future__ import annotations

import pytest

from bench import published
from bench.experiment_plan import experiment_config, experiment_names
from bench.papers import PAPERS, build_module, verdicts_module
from bench.report.verdicts import PAPERS as JUDGED

ALGO_DIR = __import__("pathlib").Path(__file__).resolve().parents[1] / "conf" / "algo"


def test_one_explicit_list_in_seed_order():
    assert list(PAPERS) == list(published.PAPERS.values()) == list(JUDGED)
    assert [p.seed for p in PAPERS.values()] == list(published.PAPERS)


@pytest.mark.parametrize("key", list(PAPERS))
def test_declared_experiments_are_the_yamls_naming_the_paper(key):
    named = {n for n in experiment_names() if experiment_config(n).get("paper") == key}
    assert set(PAPERS[key].experiments) == named


@pytest.mark.parametrize("key", list(PAPERS))
def test_algorithm_map_and_display_names_name_existing_configs(key):
    p = PAPERS[key]
    configs = {f.stem for f in ALGO_DIR.glob("*.yaml")}
    ours = [c for v in p.algorithms.values() for c in ([v] if isinstance(v, str) else v)]
    if key == "ecocnb":   # role -> config prefix (nb_normal_text, ecocnb_normal_b31, ...)
        assert all(any(c.startswith(f"{pre}_") for c in configs) for pre in ours)
    else:
        missing = [c for c in ours if c not in configs]
        assert not missing, f"{key}: algorithm map names configs that do not exist: {missing}"
    assert p.display_names and all(isinstance(v, str) for v in p.display_names.values())
    assert p.published, f"{key}: no published tables in bench/published/"


@pytest.mark.parametrize("key", list(PAPERS))
def test_each_package_has_its_build_and_verdicts(key):
    assert callable(build_module(key).build)
    assert callable(verdicts_module(key).evaluate)


def test_declarations_are_light():
    import subprocess
    import sys

    code = ("import sys, bench.papers, bench.report.labels as L; L.DISPLAY_NAMES['eskdb'];"
            "print(int('matplotlib' in sys.modules), int('pandas' in sys.modules and 'bench.papers.eskdb.build' in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "0"]


def test_a_papers_measure_names_map_into_the_measure_registry():
    """A declaration's ``measures`` (the paper's names -> ours) names only measures of bench.measures, so a
    paper's tables and verdicts read the columns every other stage reads; ESKDB declares its three."""
    from bench.measures import MEASURES

    for key, d in PAPERS.items():
        unknown = {k: v for k, v in d.measures.items() if v not in MEASURES}
        assert not unknown, f"{key}: measures not in bench.measures: {unknown}"
    assert PAPERS["eskdb"].measures == {"RMSE": "rmse", "error rate": "error", "training time": "train_s"}
