"""An algorithm's config (``conf/algo/<name>.yaml``) as Hydra composes it, for the entry points
that read one without a Hydra app (warm-up, scale-up, perf).

Algorithm configs inherit through Hydra's defaults list: a family's shared settings live in
``conf/algo/_base/`` (outside the ``conf/algo/*.yaml`` that lists the algorithms) and a config
names them, merged into its own package, before ``_self_``::

    defaults:
      - _base/ecocnb_normal@_here_
      - _self_
    name: ecocnb_normal_b15
    estimator:
      code_length: 15

:func:`load_algo_config` applies such a defaults list as Hydra does (each entry merged in order,
the config's own keys where ``_self_`` stands, at the end when it is not listed; entries relative
to the including file's folder) and refuses the forms Hydra would place elsewhere (another
package, a config group choice). ``tests/test_config_inheritance.py`` checks that it gives what
``python -m bench algo=<name>`` composes, for every algorithm, and that the composed configs (so
their hashes, which key the stored records) are those before inheritance.
"""

from __future__ import annotations

from pathlib import Path

from omegaconf import DictConfig, OmegaConf

from .data.registry import conf_dir


def algo_names() -> list[str]:
    """Every algorithm: the stems of ``conf/algo/*.yaml`` (the bases in ``_base/`` are not ones)."""
    return sorted(p.stem for p in (conf_dir() / "algo").glob("*.yaml"))


def algo_config_path(name: str) -> Path:
    path = conf_dir() / "algo" / f"{name}.yaml"
    if not path.exists():
        raise FileNotFoundError(f"unknown algorithm {name!r}: no conf/algo/{name}.yaml "
                                f"(available: {', '.join(algo_names())})")
    return path


def load_algo_config(name: str, resolve: bool = True) -> dict:
    """``conf/algo/<name>.yaml`` composed with its defaults list, as a plain dict (interpolations
    resolved unless ``resolve=False``): what ``cfg.algo`` holds in ``python -m bench algo=<name>``."""
    return OmegaConf.to_container(compose_file(algo_config_path(name)), resolve=resolve)


def compose_file(path: Path) -> DictConfig:
    """One config file with its defaults list applied (recursively)."""
    own = OmegaConf.load(path)
    if not isinstance(own, DictConfig) or "defaults" not in own:
        return own
    defaults = own.pop("defaults")
    entries = list(defaults) if defaults is not None else []
    parts = []
    for entry in entries:
        if entry == "_self_":
            parts.append(own)
            continue
        if not isinstance(entry, str) or "=" in entry or entry.startswith(("/", "override ")):
            raise ValueError(f"{path}: defaults entry {entry!r} is not supported here; an algorithm config may "
                             "name configs of its own folder (`- other` or `- _base/x@_here_`) and `_self_`")
        target, _, package = entry.partition("@")
        if package not in ("", "_here_") or ("/" in target and package != "_here_"):
            raise ValueError(f"{path}: defaults entry {entry!r} would be merged into another package; write "
                             f"`- {target}@_here_` to merge it into this config")
        base = path.parent / f"{target}.yaml"
        if not base.exists():
            raise FileNotFoundError(f"{path}: defaults entry {entry!r}: no {base}")
        parts.append(compose_file(base))
    if "_self_" not in entries:
        parts.append(own)
    return OmegaConf.merge(*parts)
