"""``python -m bench.data check [NAME ...]``: are the dataset files here, intact, and readable?

For every registered dataset with a ``file`` source (or the named ones), the file is located as a
job would find it (``BENCH_DATA_DIR``, the repository's ``datasets/``, the user cache), its
SHA-256 is compared with the config's pin, and it is parsed and built afresh (not from the built
copy of :mod:`bench.data.built`), which also checks the config's ``expected`` shape. One line per
dataset, with one of the statuses:

``ok``                the file is found, matches its pin and builds;
``missing``           no data directory has it (the line says how to get it);
``checksum mismatch`` its SHA-256 is not the config's pin (a corrupt or different file);
``parse error``       it cannot be read or built as the config says (the message names why);
``config error``      its ``conf/data/<name>.yaml`` cannot be read (counts as not ok; the others are checked).

A dataset whose file ships in ``datasets/`` (``datasets/MANIFEST.csv``) must be ok; the others
(the full Covertype, MiniBooNE: too large to ship) may be missing, and only a named one counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import cache
from .dataset import DataError

STATUSES = ("ok", "missing", "checksum mismatch", "parse error", "config error")


@dataclass
class Check:
    name: str
    file: str
    status: str
    detail: str
    shipped: bool  # the file is one of datasets/MANIFEST.csv

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def file_datasets() -> list[str]:
    """The registered datasets that read a file (their first source or a later one)."""
    from .registry import dataset_config, dataset_names

    def reads_a_file(n: str) -> bool:
        try:
            return any("file" in s for s in dataset_config(n).get("sources") or [])
        except DataError:  # a config that cannot be read is checked (and reported) too
            return True

    return [n for n in dataset_names() if reads_a_file(n)]


def check_dataset(name: str, digests: dict | None = None) -> Check:
    """Locate, verify and build dataset ``name``'s file (``digests``: path -> SHA-256, shared
    between datasets that read the same file)."""
    from .readers import read_table
    from .registry import _build, dataset_config, locate_file, where_to_get

    digests = {} if digests is None else digests
    try:
        cfg = dataset_config(name)
    except DataError as exc:
        return Check(name, "", "config error", " ".join(str(exc).split()), True)
    files = [s for s in cfg.get("sources") or [] if "file" in s]
    if not files:
        kinds = sorted({k for s in cfg.get("sources") or [] for k in ("openml", "sklearn", "synthetic") if k in s})
        return Check(name, "", "ok", f"no file source ({', '.join(kinds) or 'none'}): nothing to check", False)
    manifest = cache.shipped_manifest(cache.shipped_dir())
    shipped = any(cache.shipped_file_name(s["file"]) in manifest for s in files)
    found = [(s, p) for s in files if (p := locate_file(s["file"])) is not None]
    if not found:
        return Check(name, files[0]["file"], "missing", where_to_get(cfg), shipped)
    src, path = found[0]
    key = str(path.resolve())
    if key not in digests:
        digests[key] = cache.sha256_file(path)
    digest = digests[key]
    pin = src.get("sha256")
    if pin and digest != pin:
        return Check(name, src["file"], "checksum mismatch",
                     f"{path} has sha256 {digest[:16]}..., conf/data/{name}.yaml pins {pin[:16]}...", shipped)
    try:
        ds = _build(cfg, read_table(Path(path)), {"source": str(path), "sha256": digest})
    except DataError as exc:
        return Check(name, src["file"], "parse error", f"{path}: {' '.join(str(exc).split())}", shipped)
    detail = f"{path} ({ds.n_instances} x {ds.n_features}, {ds.n_classes} classes)"
    if not pin:
        detail += "; no sha256 pin in the config"
    return Check(name, src["file"], "ok", detail, shipped)


def run(names: list[str] | None = None, out=print) -> int:
    """Check ``names`` (default: every dataset with a file source), print one line each and a
    summary; 1 when a shipped dataset (or, with ``names``, any named one) is not ok, else 0."""
    from .registry import dataset_config

    named = bool(names)
    if named:
        for n in names:  # an unknown name fails here, with the registry's suggestion
            dataset_config(n)
    names = list(names) if named else file_datasets()
    digests: dict = {}
    checks = [check_dataset(n, digests) for n in names]
    width = max((len(c.name) for c in checks), default=0)
    for c in checks:
        note = "" if c.ok or c.shipped or named else "not shipped in datasets/ (optional here). "
        out(f"{c.name:<{width}}  {c.status:<17}  {note}{c.detail}")
    bad = [c for c in checks if not c.ok and (named or c.shipped)]
    counts = ", ".join(f"{sum(c.status == s for c in checks)} {s}" for s in STATUSES
                       if any(c.status == s for c in checks))
    where = cache.project_datasets_dir()
    out(f"\n{len(checks)} datasets checked: {counts}. Shipped datasets folder: "
        f"{where if where is not None else 'off (BENCH_DATASETS_DIR is empty)'}; "
        f"data directories searched: {', '.join(str(d) for d in cache.data_dirs())}")
    if bad:
        out(f"FAILED: {len(bad)} dataset(s) not ok: {', '.join(c.name for c in bad)}")
    return 1 if bad else 0
