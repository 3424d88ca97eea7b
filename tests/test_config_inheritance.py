"""Algorithm configs by inheritance: the ECOC, KDB and AnDE families take their shared
settings from ``conf/algo/_base/`` through Hydra's defaults list. A stored record is keyed by its
algorithm's config hash, so every ``conf/algo/*.yaml`` must compose to exactly the config it was
before: ``tests/data/algo_config_composed.json`` holds, per algorithm, the hash the runner
computes (:func:`bench.runner.algo_identity`) and the sha256 of the whole composed config
(descriptive keys included), taken from the flat configs before inheritance (as at commit ffd193a).

An algorithm added later is not in that list; it is still checked: the composer of the entry points
without a Hydra app (:func:`bench.experiment_plan.algo_config`) must give what the app composes.
A deliberate change of an algorithm's config changes its entry: ``python tests/test_config_inheritance.py
NAME ...`` prints the new entries.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = Path(__file__).parent / "data" / "algo_config_composed.json"


def _hydra_composed() -> dict[str, dict]:
    """``cfg.algo`` of ``python -m bench algo=<name>`` for every algorithm (resolved)."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from bench.experiment_plan import algo_names

    GlobalHydra.instance().clear()
    out = {}
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        for name in algo_names():
            cfg = compose(config_name="config", overrides=[f"algo={name}"])
            out[name] = OmegaConf.to_container(cfg.algo, resolve=True)
    return out


def _entry(cfg: dict) -> dict:
    from bench.runner import algo_identity

    blob = json.dumps(cfg, sort_keys=True, default=str, separators=(",", ":"))
    return {"algo_hash": algo_identity(cfg)[1], "sha256": hashlib.sha256(blob.encode()).hexdigest()}


@pytest.fixture(scope="module")
def composed():
    return _hydra_composed()


def test_every_algorithm_composes_as_before_inheritance(composed):
    reference = json.loads(REFERENCE.read_text())
    missing = sorted(set(reference) - set(composed))
    assert not missing, f"algorithm configs gone: {missing}"
    changed = {name: (ref, _entry(composed[name])) for name, ref in reference.items()
               if _entry(composed[name]) != ref}
    assert not changed, f"composed configs differ from the flat ones (stored records keyed by algo_hash): {changed}"


def test_families_inherit(composed):
    """The families do use the bases (a config that restates everything would pass the test above)."""
    algo = ROOT / "conf" / "algo"
    for names, base in ((["ecocnb_normal_b15", "ecocnb_kernel_b1023", "ecoc_sf_disc_b127"], None),
                        (["kdb", "kdb1", "skdb", "kdf", "tan"], None), (["a1de", "a2de_sw"], "_base/ande_sr@_here_")):
        for name in names:
            raw = OmegaConf.to_container(OmegaConf.load(algo / f"{name}.yaml"))
            assert any(str(e).startswith("_base/") for e in raw.get("defaults", [])), name
            if base:
                assert base in raw["defaults"], name
            assert "preprocess" not in raw or name.startswith("ecoc"), name


def test_entry_points_compose_what_the_app_composes(composed):
    from bench.experiment_plan import algo_config

    differ = [name for name, cfg in composed.items() if algo_config(name) != cfg]
    assert not differ, f"bench.experiment_plan.algo_config differs from the app for {differ}"


def test_bases_are_not_algorithms():
    from bench.experiment_plan import algo_names

    names = algo_names()   # what `algos: all` of an experiment runs
    assert not any(n.startswith("_") for n in names)
    assert "kdb" in names and "ecocnb_normal_b15" in names and len(names) == len(set(names))


if __name__ == "__main__":   # print the entries of the named algorithms (all without names)
    sys.path.insert(0, str(ROOT))
    allc = _hydra_composed()
    print(json.dumps({n: _entry(allc[n]) for n in (sys.argv[1:] or sorted(allc))}, indent=1, sort_keys=True))
