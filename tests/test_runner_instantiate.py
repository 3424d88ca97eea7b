"""bench.runner.instantiate builds the same estimators as hydra.utils.instantiate."""

from hydra.utils import instantiate as hydra_instantiate

from bench.experiment_plan import algo_config, algo_names
from bench.runner import _plain, instantiate


def _same(a, b):
    assert type(a) is type(b)
    if hasattr(a, "get_params"):
        pa, pb = a.get_params(deep=False), b.get_params(deep=False)
        assert pa.keys() == pb.keys()
        for k in pa:
            _same(pa[k], pb[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    else:
        assert a == b or (a != a and b != b), (a, b)   # NaN parameters (e.g. a missing-value marker)


def test_every_algorithm_config_builds_as_hydra_builds_it():
    n = 0
    for name in algo_names():
        cfg = algo_config(name)
        for node in [*(cfg.get("preprocess") or []), cfg["estimator"]]:
            assert _plain(node), name   # the fast path covers every shipped config
            _same(instantiate(node), hydra_instantiate(node, _convert_="all"))
            n += 1
    assert n > 50


def test_special_keys_go_to_hydra():
    node = {"_target_": "builtins.dict", "_args_": [[("a", 1)]]}
    assert not _plain(node)
    assert instantiate(node) == {"a": 1}
    nested = {"_target_": "builtins.dict", "x": {"_target_": "builtins.list"}, "y": [1, {"z": 2}]}
    assert instantiate(nested) == {"x": [], "y": [1, {"z": 2}]}
