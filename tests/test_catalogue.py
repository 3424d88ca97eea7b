"""The catalogue (``bench list``): aliases are the same model (checked against Hydra's own
composition and the runner's config hash, not the catalogue's reading of the YAML), no two configs
are one model without being declared, the catalogue reads each config as Hydra composes it, and the
command line suggests, lists and fails as it says."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from bench import catalogue
from bench.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def composed():
    """``{name: cfg.algo}`` as ``python -m bench algo=<name>`` composes it."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import OmegaConf

    from bench.experiment_plan import algo_names

    GlobalHydra.instance().clear()
    out = {}
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        for name in algo_names():
            out[name] = OmegaConf.to_container(compose(config_name="config", overrides=[f"algo={name}"]).algo,
                                               resolve=False)
    GlobalHydra.instance().clear()
    return out


def _hash(cfg):
    from bench.runner import algo_identity

    return algo_identity(cfg)[1]


def test_declared_aliases_are_the_same_model(composed):
    decl = catalogue.declarations()
    assert {"kdb5", "rf", "rf_weka"} <= set(decl["aliases"])
    for name, entry in decl["aliases"].items():
        assert entry.get("reason"), f"alias {name} has no reason"
        assert _hash(composed[name]) == _hash(composed[entry["of"]]), f"{name} is declared an alias of {entry['of']}"


def test_no_undeclared_duplicates(composed):
    by_model = defaultdict(list)
    for name, cfg in composed.items():
        by_model[_hash(cfg)].append(name)
    aliases = catalogue.declarations()["aliases"]
    for names in by_model.values():
        if len(names) > 1:
            targets = {aliases[n]["of"] if n in aliases else n for n in names}
            assert len(targets) == 1, f"{names} compose to one model: declare all but one as aliases in conf/catalogue.yaml"


def test_variants_differ_from_what_they_vary(composed):
    for name, entry in catalogue.declarations()["variants"].items():
        assert entry["of"] in composed and entry.get("reason")
        assert _hash(composed[name]) != _hash(composed[entry["of"]])


def test_catalogue_reads_each_config_as_hydra_composes_it(composed):
    for name, cfg in composed.items():
        assert catalogue.algo_raw(name) == cfg, name


def test_list_algos_rows_and_exit_status(capsys):
    assert cli_main(["list", "algos", "kdb"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("kdb5 "))
    assert "alias of kdb" in row
    assert "variant of kdb" in next(line for line in out.splitlines() if line.startswith("kdb_bench "))
    rows = {r["name"]: r for r in catalogue.rows("algos")}
    assert rows["rf"]["is"] == "alias of rf100" and rows["massbayes"]["family"] == "massbayes"
    assert "eskdb" in rows["kdb"]["papers"].split(",")       # the experiments of the ESKDB paper run it
    assert cli_main(["list", "algos", "no_such_thing"]) == 1
    for kind in ("data", "protocols", "experiments"):
        assert cli_main(["list", kind]) == 0
    out = capsys.readouterr().out
    assert "cv5x2" in out and "letter" in out and "ande_sr" in out


def test_list_with_no_configs_is_an_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "algo").mkdir()
    monkeypatch.setenv("BENCH_CONF_DIR", str(tmp_path))
    monkeypatch.setenv("BENCH_HOME", str(tmp_path / "home"))
    assert cli_main(["list", "algos"]) == 2
    assert "no algos config found" in capsys.readouterr().err


def test_a_mistyped_command_is_named(capsys):
    assert cli_main(["dta", "list"]) == 2
    assert "Did you mean `bench data`?" in capsys.readouterr().err
    assert cli_main(["algo=nb"]) == 2
    assert "bench run algo=nb" in capsys.readouterr().err


def test_run_help_is_benchs_own():
    r = subprocess.run([sys.executable, "-m", "bench", "--help"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0
    assert r.stdout.startswith("bench run") and "powered by Hydra" not in r.stdout
    head = r.stdout.split("== Config (the default job) ==")[0]
    assert "_base" not in head and "bench list algos" in head
