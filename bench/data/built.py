"""A binary copy of each dataset built from a local file or from the data bundled with scikit-learn,
so a job does not parse the file again.

Parsing a CSV or ARFF needs pandas (about 0.4 s to import) and a pass over every value;
``python -m bench`` on letter spent more on that than on training. After a dataset
config is built from a local file (``file`` source), its arrays and labels are kept in the user
cache (``<cache>/built/<name>-<key>.npz``, uncompressed, with a ``.sha256.json`` checksum
sidecar). The key covers everything the built dataset depends on:

- the source file's SHA-256 (computed on every load anyway, for the config's pin);
- the whole dataset config (sources, target, select, nominal, class groups, ...);
- the code that builds it (the bytes of ``registry.py``, ``readers.py``, ``dataset.py`` in
  this folder) and the numpy and pandas versions that parse it.

A ``sklearn`` source (iris, wine, ...) is kept the same way: scikit-learn's loaders import
``sklearn.datasets`` and pandas (about 0.8 s) for a table of a few kilobytes. Its key takes, for the
file's SHA-256, one over scikit-learn's version and the bytes of its bundled data folder
(:func:`sklearn_data_digest`), so another scikit-learn or changed bundled files never get an old copy.

So a changed file, config or loader never gets an old copy. A copy that fails its checksum or
cannot be read is ignored and rebuilt (and rewritten); a cache that cannot be written is no
error. The copy gives back the same arrays (dtype, memory order), labels and metadata
(``meta["source"]`` is the path where the file was found this time). Only dense datasets are
kept. ``BENCH_DATA_BUILT_CACHE=0`` turns the copy off.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import numpy as np

from ..fileio import sha256_file
from . import cache
from .dataset import Dataset

log = logging.getLogger("bench")

#: the modules whose code decides the built dataset (their bytes join the key)
_LOADER_FILES = ("registry.py", "readers.py", "dataset.py", "built.py")
_FORMAT = 1
_CODE_KEY: list = []


def enabled() -> bool:
    return os.environ.get("BENCH_DATA_BUILT_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


def _code_key() -> str:
    if not _CODE_KEY:
        from importlib import metadata

        h = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for f in _LOADER_FILES:
            h.update(f.encode() + b"\0" + (here / f).read_bytes() + b"\0")
        for pkg in ("numpy", "pandas"):
            try:
                version = metadata.version(pkg)
            except metadata.PackageNotFoundError:
                version = "absent"
            h.update(f"{pkg}={version}\0".encode())
        _CODE_KEY.append(h.hexdigest())
    return _CODE_KEY[0]


def sklearn_data_digest() -> str | None:
    """A digest of the data bundled with scikit-learn: its version and the name and bytes of every
    file in ``sklearn/datasets/data`` (read without importing scikit-learn); None when that folder
    cannot be found or read (then no copy is kept)."""
    from importlib import metadata
    from importlib.util import find_spec

    try:
        spec = find_spec("sklearn")
        folder = Path(spec.origin).parent / "datasets" / "data"
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix != ".py")
        h = hashlib.sha256(f"scikit-learn={metadata.version('scikit-learn')}\0".encode())
        for f in files:
            h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    except (AttributeError, TypeError, ValueError, OSError, ImportError, metadata.PackageNotFoundError):
        return None
    return "sklearn:" + h.hexdigest() if files else None


def key(cfg: dict, sha256: str) -> str:
    """The cache key of dataset config ``cfg`` built from a file with this SHA-256."""
    text = json.dumps({"format": _FORMAT, "config": cfg, "sha256": sha256, "code": _code_key()},
                      sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def path(name: str, k: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in str(name))
    return cache.cache_dir() / "built" / f"{safe}-{k}.npz"


def get(name: str, k: str, source: str) -> Dataset | None:
    """The dataset kept under key ``k``, or None (absent, corrupt or unreadable: rebuild it)."""
    p = path(name, k)
    side = p.with_name(p.name + ".sha256.json")
    if not (p.exists() and side.exists()):
        return None
    try:
        expected = json.loads(side.read_text())["sha256"]
        if sha256_file(p) != expected:
            raise ValueError(f"sha256 does not match {side.name}")
        with np.load(p, allow_pickle=False) as z:
            X, y, categorical = z["X"], z["y"], z["categorical"]
            info = json.loads(bytes(z["info"]).decode())
        meta = info["meta"]
        meta["source"] = source
        return Dataset(info["name"], X, y, info["classes"], info["feature_names"], categorical,
                       info["categories"], meta)
    except Exception as exc:  # a cache: never an error, only a rebuild
        log.warning("ignoring the cached copy %s of dataset %s (%s: %s); rebuilding it", p, name,
                    type(exc).__name__, exc)
        return None


def put(name: str, k: str, ds: Dataset) -> None:
    """Keep ``ds`` under key ``k`` when it can be given back exactly (dense, contiguous, JSON labels)."""
    X = ds.X
    if not isinstance(X, np.ndarray) or not (X.flags.c_contiguous or X.flags.f_contiguous):
        return
    info = {"name": ds.name, "classes": list(ds.classes), "feature_names": list(ds.feature_names),
            "categories": list(ds.categories), "meta": dict(ds.meta)}
    try:
        text = json.dumps(info)
        if json.loads(text) != info:  # labels or metadata that JSON would change: do not keep
            return
        import io

        buf = io.BytesIO()
        np.savez(buf, X=X, y=ds.y, categorical=ds.categorical,
                 info=np.frombuffer(text.encode(), dtype=np.uint8))
        cache.write_checksummed(path(name, k), buf.getvalue(), {"dataset": name})
    except (OSError, TypeError, ValueError) as exc:
        log.debug("could not keep a built copy of dataset %s: %s", name, exc)
