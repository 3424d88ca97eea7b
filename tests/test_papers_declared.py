"""The papers' declarations (bench/papers/<key>/__init__.py) agree with the configs they name."""

from __future__ import annotations

import importlib
from pathlib import Path

import pandas as pd
import pytest

import bench.papers

from bench import published
from bench.experiment_plan import experiment_config, experiment_names
from bench.papers import PAPERS, build_module, published_cells

ALGO_DIR = __import__("pathlib").Path(__file__).resolve().parents[1] / "conf" / "algo"


def test_the_folders_are_the_one_list_in_seed_order():
    """Every package of bench/papers/ is a paper, keyed by its folder, in the order of the seed numbers;
    the published claims and settings name exactly these papers."""
    folders = {p.name for p in Path(bench.papers.__file__).parent.iterdir()
               if (p / "__init__.py").exists() and not p.name.startswith("_")}
    assert set(PAPERS) == folders
    seeds = [p.seed for p in PAPERS.values()]
    assert seeds == sorted(seeds) and len(set(seeds)) == len(seeds)
    assert all(k == p.key for k, p in PAPERS.items())
    assert set(published.claims()["paper"]) == set(PAPERS)
    assert set(published.settings()) == set(PAPERS)


def test_a_folder_without_a_declaration_is_named_with_the_fix(tmp_path, monkeypatch):
    (tmp_path / "somepapers" / "toy").mkdir(parents=True)
    (tmp_path / "somepapers" / "__init__.py").write_text("")
    (tmp_path / "somepapers" / "toy" / "__init__.py").write_text("TITLE = 'no declaration'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(bench.papers.PaperDeclarationError, match=r"bench/papers/toy/__init__.py declares no paper"):
        bench.papers._declarations(tmp_path / "somepapers", "somepapers")
    decl = "from bench.papers.spec import Paper\nDECLARATION = Paper(key='other', seed='9', title='t', short='t', " \
           "authors='a', year=2000, experiments=(), cells=False)\n"
    (tmp_path / "morepapers" / "toy").mkdir(parents=True)
    (tmp_path / "morepapers" / "__init__.py").write_text("")
    (tmp_path / "morepapers" / "toy" / "__init__.py").write_text(decl)
    with pytest.raises(bench.papers.PaperDeclarationError, match="key='other'; a paper's key is its folder's name"):
        bench.papers._declarations(tmp_path / "morepapers", "morepapers")


@pytest.mark.parametrize("key", list(PAPERS))
def test_declared_cells_are_counted_by_the_build(key):
    """``cells=True``: the build counts its published cells (the index's "cells filled"); False: none."""
    n = published_cells(key, pd.DataFrame(columns=["item", "dataset", "algorithm", "category", "reason"]))
    assert (n is not None and n > 0) if PAPERS[key].cells else n is None


def test_cells_declared_without_a_count_is_an_error_naming_the_fix(monkeypatch):
    import types

    key = next(k for k, p in PAPERS.items() if p.cells)
    monkeypatch.setattr(bench.papers, "build_module", lambda k: types.ModuleType(f"bench.papers.{k}.build"))
    with pytest.raises(bench.papers.PaperDeclarationError, match="defines no published_cells.*declare cells=False"):
        published_cells(key, None)


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
    assert callable(importlib.import_module(f"bench.papers.{key}.verdicts").evaluate)


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
