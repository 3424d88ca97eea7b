"""Dataset registry: ``conf/data/<name>.yaml`` -> :class:`Dataset`.

A dataset config lists its ``sources`` in order; the first one that is
available here wins (see :func:`load`). Source kinds:

``file``
    a file name looked up in every data directory (``BENCH_DATA_DIR``, then the
    repository's ``datasets/``, then the user cache); optional ``sha256`` pins its content.
``openml``
    an OpenML dataset id; downloaded with openml-python into the user cache,
    stored as Parquet with a checksum record, verified on every load.
``sklearn``
    a dataset bundled with scikit-learn (``iris``, ``wine``, ``breast_cancer``, ``digits``).
``synthetic``
    a registered generator (:mod:`bench.data.synthetic`) with ``params`` and ``seed``.

After loading, the config may transform the table as the papers did:
``target`` (default: last column), ``drop`` (identifier columns), ``select``
(feature columns to keep, by name or index), ``nominal`` / ``all_nominal``
(integer-coded nominal columns), ``class_groups`` (e.g. abalone's 3 classes),
``drop_missing_target``.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import io
import os
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._deferred import LazyModule
from . import built, cache
from .dataset import DataError, Dataset
from .readers import Table
from .synthetic import generate

pd = LazyModule("pandas")  # imported when a file is parsed, not by a job that finds its built copy

SKLEARN_SETS = ("iris", "wine", "breast_cancer", "digits")


class SourceUnavailable(DataError):
    """This source cannot provide the data here (file absent, no network)."""


class DatasetUnavailable(DataError):
    """No source of a dataset can provide it on this machine (no file, no network)."""


# -------------------------------------------------------------- configs
def conf_dir() -> Path:
    """bench's ``conf/`` directory (``BENCH_CONF_DIR`` overrides it; :func:`bench.paths.conf_dir`)."""
    from ..paths import conf_dir as _conf_dir

    return _conf_dir()


def dataset_names() -> list[str]:
    """Every registered dataset: bench's configs and the workspace's own (``conf/data/``)."""
    from ..paths import config_names

    return config_names("data")


def dataset_config(name: str) -> dict:
    """The config of dataset ``name`` as a plain dict; DataError if there is none."""
    from omegaconf import OmegaConf

    from ..paths import config_path

    path = config_path("data", name)
    if path is None:
        names = dataset_names()
        close = difflib.get_close_matches(name, names, n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise DataError(
            f"unknown dataset {name!r}.{hint} Run `python -m bench.data list` to see all "
            f"{len(names)} datasets, or add conf/data/{name}.yaml."
        )
    try:
        stat = Path(path).stat()
        stamp = (str(path), stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = None
    if stamp is not None and stamp in _CONFIGS:
        return copy.deepcopy(_CONFIGS[stamp])
    try:
        cfg = OmegaConf.to_container(OmegaConf.load(path), resolve=True)
        if not isinstance(cfg, dict):
            raise ValueError(f"the file holds a {type(cfg).__name__}, not a mapping of keys")
    except Exception as exc:
        from ..fileio import yaml_problem

        text = yaml_problem(exc)
        if text is None:
            text = (f"conf/data/{name}.yaml cannot be read ({' '.join(f'{type(exc).__name__}: {exc}'.split())}); fix "
                    f"the file or remove it (a literal `${{` in a value is written `\\${{`)")
        raise BrokenConfig(f"dataset {name!r}: {text}") from None
    cfg.setdefault("name", name)
    if stamp is not None:
        _CONFIGS[stamp] = copy.deepcopy(cfg)
    return cfg


#: dataset configs read in this process, by (file, mtime, size): a job reads its config several
#: times (loading, the data identity, the legacy-layout check), each read a YAML parse and an
#: OmegaConf resolution; an edited file has another stamp and is read again
_CONFIGS: dict = {}


class BrokenConfig(DataError):
    """A dataset config that cannot be read (YAML syntax, an interpolation that does not resolve)."""


_MEMO: dict = {}


def load(name_or_cfg: str | dict | Any, *, use_memo: bool = True) -> Dataset:
    """Load a dataset by registry name or from its config (dict or DictConfig).

    Tries each source in order; raises DataError listing every source tried
    and why it failed, naming ``BENCH_DATA_DIR`` and the files looked for.
    """
    cfg = _as_dict(name_or_cfg)
    key = repr(sorted((k, repr(v)) for k, v in cfg.items()))
    if use_memo and key in _MEMO:
        return _MEMO[key]
    ds = _load_uncached(cfg)
    if use_memo:
        _MEMO[key] = ds
    return ds


def _as_dict(name_or_cfg) -> dict:
    if isinstance(name_or_cfg, str):
        return dataset_config(name_or_cfg)
    try:
        from omegaconf import DictConfig, OmegaConf

        if isinstance(name_or_cfg, DictConfig):
            return OmegaConf.to_container(name_or_cfg, resolve=True)
    except ImportError:  # pragma: no cover
        pass
    return dict(name_or_cfg)


def _load_uncached(cfg: dict) -> Dataset:
    name = cfg["name"]
    sources = cfg.get("sources") or []
    if not sources:
        raise DataError(f"dataset {name!r} lists no sources in conf/data/{name}.yaml")
    tried = []
    for src in sources:
        try:
            if source_kind(src) == "file":
                return _load_file(cfg, src)
            if source_kind(src) == "sklearn":
                return _load_sklearn(cfg, src)
            raw, meta = _read_source(name, src)
        except SourceUnavailable as exc:
            tried.append(str(exc))
            continue
        return _build(cfg, raw, meta)
    raise DatasetUnavailable(
        f"dataset {name!r} is not available here. Tried:\n  - " + "\n  - ".join(tried)
        + _stand_in_hint(cfg)
        + "\n" + where_to_get(cfg)
    )


def where_to_get(cfg: dict) -> str:
    """What to do when no source of ``cfg`` is available here: restore a file that ships in the
    repository's ``datasets/`` with git, put a file in ``BENCH_DATA_DIR``, and suggest
    ``python -m bench.data fetch`` only when the dataset has an OpenML source (fetch does
    nothing for the others)."""
    name = cfg["name"]
    sources = cfg.get("sources") or []
    files = [s["file"] for s in sources if "file" in s]
    has_openml = any("openml" in s for s in sources)
    shipped = cache.shipped_manifest(cache.shipped_dir())
    steps = []
    for f in files:
        if cache.shipped_file_name(f) in shipped:
            off = os.environ.get("BENCH_DATASETS_DIR")
            if off is not None and (cache.shipped_dir() / f).is_file():
                steps.append(f"{f} is in the repository's datasets/, which BENCH_DATASETS_DIR={off!r} keeps "
                             "bench from reading: unset BENCH_DATASETS_DIR")
            else:
                steps.append(f"{f} ships with bench in the repository's datasets/: restore it with "
                             f"`git checkout -- datasets/{f}`")
            break
    if files:
        steps.append(f"put {files[0]} in a directory named by BENCH_DATA_DIR")
    if has_openml:
        steps.append(f"run `python -m bench.data fetch {name}` on a machine with network access "
                     "(it downloads the OpenML copy)")
    if not steps:
        return f"conf/data/{name}.yaml lists no file or OpenML source to get it from."
    return "To get it: " + "; or ".join(steps) + "."


def unavailable_reason(cfg: dict) -> str:
    """Why no source of ``cfg`` is available here, in a few words (plans and reports):
    ``no file covtype.csv.gz in BENCH_DATA_DIR, datasets/ or the user cache; OpenML 1596 not downloaded``."""
    parts = []
    for src in cfg.get("sources") or []:
        kind = source_kind(src)
        if kind == "file":
            parts.append(f"no file {src['file']} in BENCH_DATA_DIR, datasets/ or the user cache")
        elif kind == "openml":
            parts.append(f"OpenML {src['openml']} not downloaded")
    return "; ".join(parts) or "no source listed"


def stand_ins(cfg: dict) -> list[str]:
    """Registered datasets that may stand in for ``cfg``'s: its ``stand_in`` entry (a name or a
    list), else the registered names that extend its name (``covtype`` -> ``covtype_head20k``)."""
    declared = cfg.get("stand_in")
    if declared:
        return [declared] if isinstance(declared, str) else [str(d) for d in declared]
    name = str(cfg.get("name", ""))
    return [n for n in dataset_names() if n.startswith(name + "_")] if name else []


def _stand_in_hint(cfg: dict) -> str:
    names = stand_ins(cfg)
    if not names:
        return ""
    usable = []
    for n in names:
        try:
            ok = all(source_available(s) for s in dataset_config(n).get("sources", [])[:1])
        except DataError:
            continue
        usable.append(f"data={n}" + ("" if ok else " (not available here either)"))
    if not usable:
        return ""
    return f"\nA registered stand-in exists: {', '.join(usable)}."


# -------------------------------------------------------------- sources
def source_kind(src: dict) -> str:
    for kind in ("file", "openml", "sklearn", "synthetic"):
        if kind in src:
            return kind
    raise DataError(f"data source {src!r} has none of the keys file/openml/sklearn/synthetic")


def locate_file(filename: str) -> Path | None:
    for d in cache.data_dirs():
        p = d / filename
        if p.exists():
            return p
    return None


def source_available(src: dict) -> bool:
    """Whether a source can be read here without network access."""
    kind = source_kind(src)
    if kind == "file":
        return locate_file(src["file"]) is not None
    if kind == "openml":
        return _openml_cache_path(src["openml"]).exists()
    return True


def _read_source(name: str, src: dict):
    kind = source_kind(src)
    if kind == "file":
        return _read_file_source(name, src)
    if kind == "openml":
        return _read_openml_source(name, src)
    if kind == "sklearn":
        return _read_sklearn_source(src)
    return _read_synthetic_source(src)


def _load_file(cfg: dict, src: dict) -> Dataset:
    """The dataset of a ``file`` source: its built copy (:mod:`bench.data.built`) when one is
    kept for this file, config and loader, else parsed and built, and kept."""
    name = cfg["name"]
    path, digest = _checked_file(name, src)
    meta = {"source": str(path), "sha256": digest}
    if not built.enabled():
        return _build(cfg, _read_table(path), meta)
    k = built.key(cfg, digest)
    ds = built.get(name, k, str(path))
    if ds is None:
        ds = _build(cfg, _read_table(path), meta)
        built.put(name, k, ds)
    return ds


def _load_sklearn(cfg: dict, src: dict) -> Dataset:
    """The dataset of a ``sklearn`` source: its built copy (:mod:`bench.data.built`) when one is kept
    for these bundled files, config and loader, else read with scikit-learn's loader (which imports
    ``sklearn.datasets`` and pandas: about 0.8 s) and built, and kept."""
    which = src["sklearn"]
    if which not in SKLEARN_SETS:
        raise DataError(f"unknown scikit-learn dataset {which!r}; available: {', '.join(SKLEARN_SETS)}")
    digest = built.sklearn_data_digest() if built.enabled() else None
    if digest is None:
        return _build(cfg, *_read_sklearn_source(src))
    name = cfg["name"]
    k = built.key(cfg, digest)
    ds = built.get(name, k, f"sklearn:{which}")
    if ds is None:
        ds = _build(cfg, *_read_sklearn_source(src))
        built.put(name, k, ds)
    return ds


def _read_table(path: Path):
    from .readers import read_table

    return read_table(path)


def _read_file_source(name: str, src: dict):
    path, digest = _checked_file(name, src)
    table = _read_table(path)
    return table, {"source": str(path), "sha256": digest}


def _checked_file(name: str, src: dict) -> tuple[Path, str]:
    """The path of a ``file`` source and its SHA-256, checked against the config's pin."""
    fname = src["file"]
    path = locate_file(fname)
    if path is None:
        dirs = ", ".join(str(d) for d in cache.data_dirs())
        env = os.environ.get("BENCH_DATA_DIR")
        state = f"BENCH_DATA_DIR={env}" if env else "BENCH_DATA_DIR is not set"
        raise SourceUnavailable(f"file {fname}: not found in {dirs} ({state})")
    digest = cache.sha256_file(path)
    expected = src.get("sha256")
    if expected and digest != expected:
        raise DataError(
            f"data file {path} has sha256 {digest[:16]}... but conf/data/{name}.yaml expects "
            f"{expected[:16]}.... The file is corrupt or a different version: replace it with the "
            f"expected copy, or, if you use another version on purpose, set its sha256 in the config."
        )
    return path, digest


def _openml_cache_path(did: int) -> Path:
    return cache.cache_dir() / "openml" / f"{int(did)}.parquet"


def _read_openml_source(name: str, src: dict):
    did = int(src["openml"])
    path = _openml_cache_path(did)
    hint = f"python -m bench.data fetch {name}"
    if not path.exists():
        fetch_openml(did, expected_name=src.get("openml_name"), dataset=name)
    info = cache.verify_checksummed(path, hint)
    frame = pd.read_parquet(path)
    declared = {k: list(v) for k, v in (info.get("declared") or {}).items()}
    table = Table(frame, declared)
    meta = {"source": f"openml:{did}", "sha256": info["sha256"], "openml_id": did,
            "openml_version": info.get("version"), "openml_md5": info.get("md5_checksum")}
    return table, meta


def fetch_openml(did: int, expected_name: str | None = None, dataset: str | None = None) -> Path:
    """Download OpenML dataset ``did`` into the cache as Parquet with a checksum record.

    openml-python verifies the server's MD5 of the file it downloads; bench then
    keeps its own SHA-256 of the Parquet it writes and checks it on every load.
    With no network this raises :class:`SourceUnavailable` naming the cache file
    and BENCH_DATA_DIR.
    """
    path = _openml_cache_path(did)
    env = os.environ.get("BENCH_DATA_DIR")
    state = f"BENCH_DATA_DIR={env}" if env else "BENCH_DATA_DIR is not set"
    if os.environ.get("BENCH_OPENML_OFFLINE"):
        raise SourceUnavailable(f"OpenML dataset {did}: not downloaded, BENCH_OPENML_OFFLINE is set; "
                                f"it would be cached as {path} ({state})")
    if not openml_reachable():
        raise SourceUnavailable(f"OpenML dataset {did}: not downloaded, {OPENML_HOST} cannot be reached from "
                                f"this machine (offline?); it would be cached as {path} ({state}). "
                                f"BENCH_OPENML_OFFLINE=1 skips this check")
    import logging

    quiet = [logging.getLogger(n) for n in ("openml", "openml.config", "")]
    levels = [lg.level for lg in quiet]
    try:
        for lg in quiet:  # openml-python logs every request at INFO on the root logger
            lg.setLevel(logging.WARNING)
        import openml

        openml.config.set_root_cache_directory(str(cache.cache_dir() / "openml" / "raw"))
        openml.config.connection_n_retries = 1
        odata = openml.datasets.get_dataset(
            did, download_data=True, download_qualities=False, download_features_meta_data=False
        )
        frame, _, _, _ = odata.get_data(dataset_format="dataframe")
    except Exception as exc:  # network errors come in many types (requests, urllib3, openml)
        raise SourceUnavailable(
            f"OpenML dataset {did}: download failed ({type(exc).__name__}: {_clip(str(exc), 200)}); "
            f"it would be cached as {path} ({state})"
        ) from exc
    finally:
        for lg, lv in zip(quiet, levels):
            lg.setLevel(lv)
    if expected_name and odata.name.lower() != str(expected_name).lower():
        raise DataError(
            f"OpenML dataset {did} is named {odata.name!r}, but conf/data/{dataset}.yaml expects "
            f"{expected_name!r}: the id in the config is wrong"
        )
    declared = {}
    for col in frame.columns:
        if isinstance(frame[col].dtype, pd.CategoricalDtype):
            declared[col] = [str(c) for c in frame[col].cat.categories]
            frame[col] = frame[col].astype(object).where(frame[col].notna(), None)
            frame[col] = frame[col].map(lambda v: None if v is None else str(v)).astype(object)
    target = odata.default_target_attribute
    if target and target in frame.columns:  # target last, as in the local files
        frame = frame[[c for c in frame.columns if c != target] + [target]]
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    cache.write_checksummed(
        path, buf.getvalue(),
        {"openml_id": did, "name": odata.name, "version": odata.version,
         "md5_checksum": getattr(odata, "md5_checksum", None), "target": target,
         "declared": declared},
    )
    return path


OPENML_HOST = "www.openml.org"
_REACHABLE: dict = {}


def openml_reachable(timeout: float = 2.0) -> bool:
    """Whether a TCP connection to OpenML opens within ``timeout`` seconds (name lookup
    included), so an offline machine is told at once instead of after the HTTP retries.
    Behind an HTTP(S) proxy the check is left to the download itself. Remembered per process."""
    if any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        return True
    if OPENML_HOST in _REACHABLE:
        return _REACHABLE[OPENML_HOST]
    import socket
    import threading

    out: list = []

    def probe():
        try:
            with socket.create_connection((OPENML_HOST, 443), timeout=timeout):
                out.append(True)
        except OSError:
            out.append(False)

    t = threading.Thread(target=probe, daemon=True)
    t.start()
    t.join(timeout + 0.5)  # a hanging name lookup is not covered by the socket timeout
    _REACHABLE[OPENML_HOST] = bool(out and out[0])
    return _REACHABLE[OPENML_HOST]


def _clip(text: str, n: int) -> str:
    """``text`` cut to at most ``n`` characters at a word boundary, marked with '...'."""
    text = " ".join(text.split())
    if len(text) <= n:
        return text
    cut = text[:n].rsplit(" ", 1)[0]
    return cut.rstrip(",;:(") + " ..."


def _read_sklearn_source(src: dict):
    from sklearn import datasets as skd

    which = src["sklearn"]
    if which not in SKLEARN_SETS:
        raise DataError(f"unknown scikit-learn dataset {which!r}; available: {', '.join(SKLEARN_SETS)}")
    bunch = getattr(skd, f"load_{which}")()
    frame = pd.DataFrame(bunch.data, columns=[str(c) for c in bunch.feature_names])
    frame["class"] = np.asarray(bunch.target_names, dtype=object)[bunch.target]
    declared = {"class": [str(c) for c in bunch.target_names]}
    digest = hashlib.sha256(np.ascontiguousarray(bunch.data).tobytes() + bunch.target.tobytes()).hexdigest()
    return Table(frame, declared), {"source": f"sklearn:{which}", "sha256": digest}


def _read_synthetic_source(src: dict):
    gen = src["synthetic"]
    params = dict(src.get("params") or {})
    seed = int(src.get("seed", 0))
    n = params.pop("n_instances", None)
    g = generate(gen, n, seed, **params)
    digest = hashlib.sha256(np.ascontiguousarray(g.X).tobytes() + np.asarray(g.y, np.int64).tobytes()).hexdigest()
    meta = {"source": f"synthetic:{gen}", "sha256": digest, "generator_params": {**params, "seed": seed,
            "n_instances": n}}
    return g, meta


# -------------------------------------------------------------- build
def _build(cfg: dict, raw, meta: dict) -> Dataset:
    name = cfg["name"]
    meta = {**meta, "openml_id": meta.get("openml_id", _cfg_openml_id(cfg)), "notes": cfg.get("notes", "")}
    if not isinstance(raw, Table):  # synthetic generator output
        ds = Dataset(name, raw.X, raw.y, list(raw.classes), list(raw.feature_names), raw.categorical,
                     list(raw.categories) if raw.categories else [], meta)
        return _select(ds, cfg)
    if raw.sparse is not None:
        y_raw = raw.sparse_target
        X = raw.sparse.tocsr()
        classes, y = _encode_target(name, y_raw, raw.declared.get(raw.sparse_target_name), cfg)
        ds = Dataset(name, X[np.flatnonzero(y >= 0)] if (y < 0).any() else X, y[y >= 0], classes,
                     list(raw.sparse_columns), np.zeros(X.shape[1], dtype=bool), [], meta)
        return _select(ds, cfg)

    frame = raw.frame
    if len(frame.columns) == 0 or len(frame) == 0:
        raise DataError(f"dataset {name!r}: the file {meta.get('source')} holds no rows"
                        + (f" (only the header: {', '.join(map(str, list(frame.columns)[:8]))})" if len(frame.columns)
                           else "") + "; a dataset needs rows of data below its header")
    target = cfg.get("target") or frame.columns[-1]
    if target not in frame.columns:
        raise DataError(f"dataset {name!r}: target column {target!r} not in the file's columns "
                        f"{list(frame.columns)[:8]}...")
    absent = [c for c in (cfg.get("drop") or []) if c not in frame.columns]
    if absent:
        raise DataError(f"dataset {name!r}: drop names columns the file does not have: {absent[:5]}; the columns are "
                        f"{list(map(str, frame.columns))[:20]}. Name existing columns in `drop` (or remove it)")
    drop = list(cfg.get("drop") or [])
    features = [c for c in frame.columns if c != target and c not in drop]
    classes, y = _encode_target(name, frame[target], raw.declared.get(target), cfg)
    keep = y >= 0
    nominal_cols = set(cfg.get("nominal") or [])
    numeric_cols = set(cfg.get("numeric") or [])
    unknown = (nominal_cols | numeric_cols) - set(features)
    if unknown:
        raise DataError(f"dataset {name!r}: nominal/numeric columns {sorted(unknown)} are not features")
    all_nominal = bool(cfg.get("all_nominal", False))
    text = [c for c in getattr(raw, "string_columns", ()) if c in features and c not in nominal_cols]
    if text:
        raise DataError(
            f"dataset {name!r}: column(s) {text[:5]} are ARFF string/date attributes (free text), which bench "
            f"does not turn into features by guessing. In conf/data/{name}.yaml either drop them "
            f"(drop: [{', '.join(map(str, text[:5]))}]) or, if the values are categories, declare them "
            f"nominal (nominal: [{', '.join(map(str, text[:5]))}]).")
    n = int(keep.sum())
    X = np.empty((n, len(features)), dtype=np.float64)
    categorical = np.zeros(len(features), dtype=bool)
    categories: list = []
    for j, col in enumerate(features):
        series = frame[col][keep] if not keep.all() else frame[col]
        is_nominal = col in nominal_cols or (all_nominal and col not in numeric_cols) or col in raw.declared
        if not is_nominal and col not in numeric_cols:
            is_nominal = not pd.api.types.is_numeric_dtype(series.dtype) and not _all_numeric(series)
            if is_nominal:
                _check_stray_text(name, col, series)
        if is_nominal:
            codes, labels = _encode_nominal(series, raw.declared.get(col))
            X[:, j] = codes
            categorical[j] = True
            categories.append(labels)
        else:
            from .readers import numeric_column

            values = series if pd.api.types.is_numeric_dtype(series.dtype) else \
                numeric_column(series.reset_index(drop=True), f"dataset {name!r}: column {col!r}, declared numeric,")
            X[:, j] = pd.to_numeric(values).to_numpy(dtype=np.float64, na_value=np.nan)
            categories.append(None)
            _check_finite(name, col, X[:, j], np.flatnonzero(keep) if not keep.all() else None)
    ds = Dataset(name, X, y[keep], classes, [str(f) for f in features], categorical, categories, meta)
    return _select(ds, cfg, len(features) + len(drop))


def _check_finite(name: str, col, values: np.ndarray, rows=None) -> None:
    """DataError naming the column and the first row of an infinite value (``inf``, ``-inf``, or a
    number too large for a float such as ``1e400``): no classifier can use it."""
    bad = np.flatnonzero(np.isinf(values))
    if bad.size:
        r = int(bad[0] if rows is None else rows[bad[0]])
        raise DataError(f"dataset {name!r}: column {col!r} holds {bad.size} infinite value(s) ({values[bad[0]]:g} in "
                        f"data row {r + 1}, line {r + 2} of a file with a header line): no classifier can use them. "
                        f"Replace them in the file with a finite number or leave the cell empty (missing)")


def _cfg_openml_id(cfg: dict):
    for src in cfg.get("sources") or []:
        if "openml" in src:
            return int(src["openml"])
    return None


def _all_numeric(series: pd.Series) -> bool:
    vals = series.dropna()
    if vals.empty:
        return True
    return pd.to_numeric(vals, errors="coerce").notna().all()


#: a column read as text is taken for a numeric one with a stray value when at least this many of
#: its distinct values are numbers and at most this share of its rows are not (see _check_stray_text)
STRAY_MIN_NUMBERS = 20
STRAY_MAX_SHARE = 0.01


def _check_stray_text(name: str, col, series: pd.Series) -> None:
    """A column of a file without declared types (CSV) that holds numbers in all but a few rows
    (at least :data:`STRAY_MIN_NUMBERS` distinct numbers, at most :data:`STRAY_MAX_SHARE` of the
    rows not numbers) is a numeric column with a wrong value, not a nominal one with hundreds of
    categories: DataError naming the column, the row and the value."""
    vals = series.dropna()
    if vals.empty:
        return
    nums = pd.to_numeric(vals, errors="coerce")
    bad = nums.isna().to_numpy()
    if not bad.any() or bad.mean() > STRAY_MAX_SHARE or nums.nunique() < STRAY_MIN_NUMBERS:
        return
    rows = np.flatnonzero(series.notna().to_numpy())[bad]
    shown = ", ".join(repr(v) for v in vals[bad].unique()[:3])
    raise DataError(
        f"dataset {name!r}: column {col!r} holds numbers ({nums.nunique()} distinct) except in {int(bad.sum())} "
        f"row(s): {vals[bad].iloc[0]!r} in data row {rows[0] + 1} (values: {shown}). Fix the file, mark missing "
        f"values with '?' or NA, or, if the column is nominal, declare it (nominal: [{col}] in conf/data/{name}.yaml)")


def _sort_labels(values) -> list:
    """Sort labels numerically when they all parse as numbers, else as strings."""
    vals = list(values)
    try:
        return sorted(vals, key=lambda v: float(v))
    except (TypeError, ValueError):
        return sorted(vals, key=str)


def _as_label(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()


def _encode_nominal(series: pd.Series, declared: list | None):
    labels_obs = series.dropna().map(_as_label)
    if declared is not None:
        labels = [str(d) for d in declared]
        extra = sorted(set(labels_obs.unique()) - set(labels))
        if extra:
            raise DataError(f"column {series.name!r} has values {extra[:5]} not in its declared list")
    else:
        labels = [str(v) for v in _sort_labels(labels_obs.unique())]
    index = {lab: k for k, lab in enumerate(labels)}
    codes = np.full(len(series), np.nan)
    mask = series.notna().to_numpy()
    codes[mask] = labels_obs.map(index).to_numpy(dtype=np.float64)
    return codes, labels


def _encode_target(name: str, series: pd.Series, declared: list | None, cfg: dict):
    series = series.reset_index(drop=True)
    missing = series.isna().to_numpy()
    if missing.any() and not cfg.get("drop_missing_target", False):
        rows = np.flatnonzero(missing)
        raise DataError(
            f"dataset {name!r}: the class label is missing in {rows.size} rows (first rows: "
            f"{rows[:5].tolist()}); set drop_missing_target: true in conf/data/{name}.yaml to drop them"
        )
    labels = series.map(lambda v: None if pd.isna(v) else _as_label(v)).astype(object)
    groups = cfg.get("class_groups")
    if groups:
        labels = _group_classes(name, labels, groups)
    present = labels.dropna().unique()
    if declared is not None and not groups and cfg.get("keep_empty_classes", False):
        classes = [str(d) for d in declared]
    elif declared is not None and not groups:
        seen = set(present)
        classes = [str(d) for d in declared if str(d) in seen]
    elif groups:
        classes = [str(k) for k in groups["labels"]] if isinstance(groups, dict) and "labels" in groups else \
            [str(k) for k in groups]
        classes = [c for c in classes if c in set(present)]
    else:
        classes = [str(c) for c in _sort_labels(present)]
    index = {c: k for k, c in enumerate(classes)}
    unknown = set(present) - set(index)
    if unknown:
        raise DataError(f"dataset {name!r}: class values {sorted(unknown)[:5]} are not declared")
    y = labels.map(lambda v: -1 if pd.isna(v) else index[v]).to_numpy(dtype=np.int64)
    if not cfg.get("target_is_class"):
        _check_class_column(name, series.name, classes, y)
    return classes, y


#: a class column with at least this many classes, all numbers, more than half of them in one row
#: each, looks continuous (see _check_class_column)
CONTINUOUS_MIN_CLASSES = 10


def _check_class_column(name: str, column, classes: list, y: np.ndarray) -> None:
    """A class column whose values are all numbers, with at least :data:`CONTINUOUS_MIN_CLASSES`
    classes of which more than half hold a single row, is a continuous quantity (a regression
    target, an identifier) read as classes: DataError, unless the config says
    ``target_is_class: true``."""
    counts = np.bincount(y[y >= 0], minlength=len(classes))
    singles = int((counts == 1).sum())
    if len(classes) < CONTINUOUS_MIN_CLASSES or singles * 2 <= len(classes):
        return
    try:
        [float(c) for c in classes]
    except ValueError:
        return
    example = ", ".join(classes[i] for i in np.flatnonzero(counts == 1)[:4])
    raise DataError(
        f"dataset {name!r}: the class column {column!r} looks continuous, not like classes: {len(classes)} distinct "
        f"numeric values in {int(counts.sum())} rows, {singles} of them in a single row each (e.g. {example}). "
        f"Name the class column with target: <column>, group the values into classes with class_groups "
        f"(bins/labels), or, if these really are classes, set target_is_class: true in conf/data/{name}.yaml "
        f"(on the command line: +data.target_is_class=true)")


def _group_classes(name: str, labels: pd.Series, groups) -> pd.Series:
    """Group class labels: ``{bins: [...], labels: [...]}`` for numeric labels
    (right-closed bins, as abalone's 1-8 / 9-10 / 11+), or ``{new: [old, ...]}``."""
    if isinstance(groups, dict) and "bins" in groups:
        edges = [-np.inf] + [float(b) for b in groups["bins"]] + [np.inf]
        out_labels = [str(v) for v in groups["labels"]]
        vals = pd.to_numeric(labels, errors="raise")
        cut = pd.cut(vals, bins=edges, labels=out_labels, right=True)
        return cut.astype(object).where(cut.notna(), None)
    mapping = {}
    for new, olds in groups.items():
        for old in olds:
            mapping[str(old)] = str(new)
    unmapped = set(labels.dropna().unique()) - set(mapping)
    if unmapped:
        raise DataError(f"dataset {name!r}: class_groups does not place labels {sorted(unmapped)[:5]}")
    return labels.map(lambda v: None if pd.isna(v) else mapping[v])


def _select(ds: Dataset, cfg: dict, n_file_features: int | None = None) -> Dataset:
    """Apply ``select`` and check ``expected``. The expected number of features may count the
    table after ``select``, before it, or before ``drop`` (``n_file_features``): a column selection
    or drop given on the command line narrows a registered dataset without changing its file."""
    n_before = ds.n_features
    select = cfg.get("select")
    if select is not None:
        names = ds.feature_names
        bad = [c for c in select if (isinstance(c, str) and c not in names) or
               (not isinstance(c, str) and not 0 <= int(c) < len(names))]
        if bad:
            raise DataError(f"dataset {ds.name!r}: selected columns {bad[:5]} do not exist")
        ds = ds.subset(columns=select)
    expected = cfg.get("expected") or {}
    checks = {"rows": ds.n_instances, "features": ds.n_features, "classes": ds.n_classes}
    narrowed = {n_before, n_file_features} - {None}
    for key, actual in checks.items():
        if key == "features" and expected.get(key) is not None and int(expected[key]) in narrowed:
            continue
        if key in expected and expected[key] is not None and int(expected[key]) != actual:
            raise DataError(
                f"dataset {ds.name!r} from {ds.meta.get('source')} has {actual} {key}, but its config "
                f"expects {expected[key]}: the file is a different version; check it or fix `expected`"
            )
    if sp.issparse(ds.X):
        ds.X = ds.X.tocsr()
    return ds
