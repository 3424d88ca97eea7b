"""Algorithm configs by inheritance (issue 20): the ECOC, KDB and AnDE families take their shared
settings from ``conf/algo/_base/`` through Hydra's defaults list. A stored record is keyed by its
algorithm's config hash, so every ``conf/algo/*.yaml`` must compose to exactly the config it was
before: ``tests/data/algo_config_composed.json`` holds, per algorithm, the hash the runner
computes (:func:`bench.runner.algo_identity`) and the sha256 of the whole composed config
(descriptive keys included), taken from the flat configs before inheritance (as at commit ffd193a).

An algorithm added later is not in that list; it is still checked: the loader of the entry points
without a Hydra app (:func:`bench.algo_config.load_algo_config`) must give what Hydra composes.
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

    from bench.algo_config import algo_names

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


def test_loader_gives_what_hydra_composes(composed):
    from bench.algo_config import load_algo_config

    differ = [name for name, cfg in composed.items() if load_algo_config(name) != cfg]
    assert not differ, f"bench.algo_config.load_algo_config differs from Hydra for {differ}"


def test_bases_are_not_algorithms():
    from bench.algo_config import algo_names

    names = algo_names()   # what `algos: all` of an experiment runs
    assert not any(n.startswith("_") for n in names)
    assert "kdb" in names and "ecocnb_normal_b15" in names and len(names) == len(set(names))


def test_loader_refuses_what_hydra_would_put_elsewhere(tmp_path):
    from bench.algo_config import compose_file

    (tmp_path / "_base").mkdir()
    (tmp_path / "_base" / "b.yaml").write_text("family: x\nestimator:\n  k: 1\n")
    (tmp_path / "ok.yaml").write_text("defaults:\n  - _base/b@_here_\n  - _self_\nname: ok\nestimator:\n  k: 2\n")
    assert OmegaConf.to_container(compose_file(tmp_path / "ok.yaml")) == {"family": "x", "estimator": {"k": 2},
                                                                        "name": "ok"}
    # Hydra would nest this one under `_base`, not merge it here
    (tmp_path / "nested.yaml").write_text("defaults:\n  - _base/b\n  - _self_\nname: n\n")
    with pytest.raises(ValueError, match="@_here_"):
        compose_file(tmp_path / "nested.yaml")
    (tmp_path / "group.yaml").write_text("defaults:\n  - data: iris\nname: g\n")
    with pytest.raises(ValueError, match="not supported"):
        compose_file(tmp_path / "group.yaml")
    # the config's own keys win over the base's (``_self_`` last)
    (tmp_path / "self_first.yaml").write_text("defaults:\n  - _self_\n  - _base/b@_here_\nestimator:\n  k: 3\n")
    assert OmegaConf.to_container(compose_file(tmp_path / "self_first.yaml"))["estimator"]["k"] == 1


if __name__ == "__main__":   # print the entries of the named algorithms (all without names)
    sys.path.insert(0, str(ROOT))
    allc = _hydra_composed()
    print(json.dumps({n: _entry(allc[n]) for n in (sys.argv[1:] or sorted(allc))}, indent=1, sort_keys=True))
