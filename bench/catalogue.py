"""``bench list algos|data|protocols|experiments [PATTERN] [--full]``: the catalogue of configs.

One row per config, bench's and the workspace's own (:mod:`bench.paths`), with what it is:

* **algos**: family (the config's ``family``, else the module of its estimator), the papers it
  serves (its ``paper`` and the papers of the experiments that run it), what it is an alias or a
  variant of, and its description;
* **data**: shape, the papers that use it, where it comes from (file, OpenML, scikit-learn,
  generator) and its description;
* **protocols**: kind, folds and repeats, description;
* **experiments**: paper, algorithms and datasets (at medium scale), description.

Aliases and variants are declared in ``conf/catalogue.yaml`` (read here only, so no config's
composed form or hash changes): an **alias** is the same model under another name (its composed
config equals its target's, descriptive keys aside; ``tests/test_catalogue.py`` checks every alias,
and that no two configs compose to the same model without being declared); a **variant** is a
deliberately different model kept for an experiment, with the reason.

``PATTERN`` keeps the rows whose name contains it; ``--full`` prints whole descriptions.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from pathlib import Path

from .paths import conf_dir, config_names, config_path

KINDS = ("algos", "data", "protocols", "experiments")
#: the keys of an algorithm config that describe it and define nothing (as ``bench.runner``'s
#: ``DESCRIPTIVE_KEYS``, which the config hash leaves out)
DESCRIPTIVE = ("name", "description", "paper", "family", "notes", "tags", "peers")


class CatalogueError(ValueError):
    """A config the catalogue cannot read (named with the file)."""


def _yaml(path: Path) -> dict:
    import yaml

    try:
        return yaml.safe_load(path.read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogueError(f"{path}: {exc}") from None


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def algo_raw(name: str, _seen: tuple = ()) -> dict:
    """Algorithm config ``name`` (``kdb``, or ``_base/kdb`` below ``algo/``) with its defaults list
    applied (entries relative to the config's own folder, merged before its own keys unless
    ``_self_`` comes first), as Hydra composes the ``algo`` node, without interpolation. Plain YAML:
    fast enough to list a hundred configs."""
    path = config_path("algo", name) if "/" not in name else conf_dir() / "algo" / f"{name}.yaml"
    if path is None or not path.is_file():
        raise CatalogueError(f"no config algo/{name}.yaml")
    if name in _seen:
        raise CatalogueError(f"algo/{name}.yaml: its defaults list includes itself")
    own = _yaml(path)
    folder = name.rpartition("/")[0]
    out: dict = {}
    self_done = False
    for entry in own.pop("defaults", None) or []:
        if entry == "_self_":
            out = _merge(out, own)
            self_done = True
        elif isinstance(entry, str):
            ref = entry.split("@", 1)[0]
            ref = ref.lstrip("/") if ref.startswith("/") else (f"{folder}/{ref}" if folder else ref)
            out = _merge(out, algo_raw(ref, _seen + (name,)))
    return out if self_done else _merge(out, own)


def defining(cfg: dict) -> dict:
    """What defines the model: the config without its descriptive keys."""
    return {k: v for k, v in cfg.items() if k not in DESCRIPTIVE}


def family_of(cfg: dict) -> str:
    """The config's ``family``, else the module of its estimator (``algorithms.bnc.KDB`` -> bnc;
    ``sklearn.linear_model...`` -> scikit-learn)."""
    if cfg.get("family"):
        return str(cfg["family"])
    target = str((cfg.get("estimator") or {}).get("_target_", ""))
    parts = target.split(".")
    if parts[0] == "algorithms" and len(parts) > 2:
        return {"baselines": "baseline"}.get(parts[1], parts[1])
    if parts[0] == "sklearn":
        return "scikit-learn"
    return parts[0] or "?"


def declarations() -> dict[str, dict]:
    """``conf/catalogue.yaml``: ``{"aliases": {name: {of, reason}}, "variants": {...}}``."""
    path = conf_dir() / "catalogue.yaml"
    cat = _yaml(path) if path.is_file() else {}
    return {"aliases": cat.get("aliases") or {}, "variants": cat.get("variants") or {}}


def _experiments() -> dict[str, dict]:
    return {n: _yaml(config_path("experiment", n)) for n in config_names("experiment")}


def _names_at(value, scale: str = "medium") -> list[str]:
    """An experiment's list (of algos or datasets), at ``scale`` when it has one list per scale."""
    if isinstance(value, dict):
        for s in (scale, "full", "smoke"):
            if s in value:
                return list(value[s] or [])
        return []
    return list(value or [])


def _all_names(value) -> set[str]:
    if isinstance(value, dict):
        return {n for v in value.values() for n in (v or [])}
    return set(value or [])


def rows(kind: str) -> list[dict]:
    """The catalogue of ``kind`` (one of :data:`KINDS`): one dict per config."""
    if kind == "algos":
        exps = _experiments()
        decl = declarations()
        out = []
        for name in config_names("algo"):
            cfg = algo_raw(name)
            papers = set()
            if cfg.get("paper"):
                papers.add(str(cfg["paper"]))
            papers |= {str(e["paper"]) for e in exps.values() if e.get("paper") and name in _all_names(e.get("algos"))}
            rel = ""
            if name in decl["aliases"]:
                rel = f"alias of {decl['aliases'][name]['of']}"
            elif name in decl["variants"]:
                rel = f"variant of {decl['variants'][name]['of']}"
            reason = (decl["aliases"].get(name) or decl["variants"].get(name) or {}).get("reason", "")
            out.append({"name": name, "family": family_of(cfg), "papers": ",".join(sorted(papers)), "is": rel,
                        "description": " ".join(str(cfg.get("description", "")).split()), "reason": reason})
        return out
    if kind == "data":
        out = []
        for name in config_names("data"):
            cfg = _yaml(config_path("data", name))
            exp = cfg.get("expected") or {}
            shape = f"{exp.get('rows', '?')}x{exp.get('features', '?')}, {exp.get('classes', '?')} classes"
            kinds = [next((k for k in ("file", "openml", "sklearn", "synthetic") if k in s), "?")
                     for s in cfg.get("sources") or []]
            papers = cfg.get("papers") or {}
            out.append({"name": name, "shape": shape, "papers": ",".join(papers) if isinstance(papers, dict)
                        else ",".join(map(str, papers)), "sources": ",".join(dict.fromkeys(kinds)),
                        "description": " ".join(str(cfg.get("description") or cfg.get("notes") or "").split())})
        return out
    if kind == "protocols":
        out = []
        for name in config_names("protocol"):
            path = config_path("protocol", name)
            cfg = _yaml(path)
            head = next((ln.lstrip("# ").strip() for ln in path.read_text().splitlines() if ln.startswith("#")), "")
            reps = f"{cfg.get('n_splits', '-')}x{cfg.get('n_repeats', 1)}" if cfg.get("n_splits") else "-"
            out.append({"name": name, "kind": str(cfg.get("kind", "?")), "folds x repeats": reps,
                        "description": " ".join(str(cfg.get("description") or head).split())})
        return out
    if kind == "experiments":
        out = []
        for name, cfg in _experiments().items():
            out.append({"name": name, "paper": str(cfg.get("paper") or "-"),
                        "algos": str(len(_names_at(cfg.get("algos")))),
                        "datasets": str(len(_names_at(cfg.get("datasets")))),
                        "description": " ".join(str(cfg.get("description", "")).split())})
        return out
    raise CatalogueError(f"unknown catalogue {kind!r}; choose one of {', '.join(KINDS)}")


def render(table: list[dict], full: bool = False, width: int | None = None) -> str:
    """The rows as aligned columns; the description is cut to the terminal's width unless ``full``
    (then wrapped under the row)."""
    if not table:
        return ""
    width = width or shutil.get_terminal_size((160, 24)).columns
    cols = [c for c in table[0] if c not in ("description", "reason")]
    widths = {c: max(len(c), *(len(str(r[c])) for r in table)) for c in cols}
    lead = sum(widths.values()) + 2 * len(cols)
    lines = ["  ".join(f"{c:<{widths[c]}}" for c in cols) + "  description"]
    for r in table:
        text = r["description"] + (f" [{r['reason']}]" if r.get("reason") else "")
        head = "  ".join(f"{str(r[c]):<{widths[c]}}" for c in cols) + "  "
        room = max(30, width - lead)
        if full or len(text) <= room:
            if full and len(text) > room:
                wrapped = textwrap.wrap(text, max(40, width - 6))
                lines.append(head.rstrip())
                lines += ["      " + w for w in wrapped]
                continue
            lines.append(head + text)
        else:
            lines.append(head + text[: room - 3] + "...")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench list", description="The catalogue of bench's configs (and the "
                                 "workspace's own): algorithms, datasets, protocols, experiments. The same as "
                                 "python -m bench.catalogue.")
    ap.add_argument("kind", choices=KINDS + ("algo", "datasets", "protocol", "experiment"),
                    help="which configs to list")
    ap.add_argument("pattern", nargs="?", default=None, help="keep the names that contain this")
    ap.add_argument("--full", action="store_true", help="whole descriptions (wrapped), not cut to the terminal")
    args = ap.parse_args(argv)
    kind = {"algo": "algos", "datasets": "data", "protocol": "protocols", "experiment": "experiments"}.get(
        args.kind, args.kind)
    try:
        table = rows(kind)
    except CatalogueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not table:
        print(f"error: no {kind} config found under {conf_dir()}; this install lacks bench's configs: reinstall "
              f"bench, or point BENCH_CONF_DIR at a copy of its conf/", file=sys.stderr)
        return 2
    if args.pattern:
        table = [r for r in table if args.pattern.lower() in r["name"].lower()]
        if not table:
            print(f"error: no {kind} config has {args.pattern!r} in its name; `bench list {kind}` shows them all",
                  file=sys.stderr)
            return 1
    print(render(table, full=args.full))
    n = len(table)
    extra = ""
    if kind == "algos":
        n_alias = sum(r["is"].startswith("alias") for r in table)
        extra = f" ({n_alias} of them aliases: the same model under another name)" if n_alias else ""
    use = {"algos": "`bench run algo=NAME`", "data": "`bench run data=NAME` (`bench data info NAME` describes it)",
           "protocols": "`bench run protocol=NAME`", "experiments": "`bench experiments run NAME --scale smoke`"}[kind]
    print(f"\n{n} {kind}{extra}. Use one with {use}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
