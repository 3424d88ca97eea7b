"""``bench data add FILE``: register a user's own data file as a dataset (``conf/data/<name>.yaml``).

The file (CSV, CSV.gz, TSV, ARFF, ARFF.gz or Parquet) is read by the same readers and built by the
same registry code as every job (:func:`bench.data.registry._build`), so every input check of a job
applies here, before anything is written:

* the file must decode as UTF-8 (the readers replace undecodable bytes, which would turn a Latin-1
  ``é`` into a silent ``\\ufffd`` category): an undecodable byte is refused with its line and the
  ``iconv`` command that converts the file;
* the class column (``--target``, default: the last column) must look like classes, not like a
  continuous quantity (:func:`bench.data.registry._check_class_column`);
* every class must be learnable under the chosen protocol (``--protocol``, default ``cv10``): a
  class with a single row, or one that some split of the protocol leaves with no training row
  while it tests it, is refused (computed from the protocol's actual splits, seed 0).

A refusal is a :class:`bench.data.DataError` (``bench data add`` prints it and exits 2). What is
written: ``conf/data/<name>.yaml`` with the file's name and SHA-256 pin (the source), the target and
``--nominal`` columns when given (these change the table, so they are in the data identity), and
under ``expected`` the shape (checked on every load), the class labels with their row counts and
the columns the loader reads as nominal (descriptive: in no hash). The file itself is found as every
data file is (``BENCH_DATA_DIR``, the repository's ``datasets/``, the user cache): a file that is in
none of them is copied into the user cache's ``files/`` (a real copy: changing the original
later does not change it).
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import cache
from .dataset import DataError, Dataset

#: file name endings bench reads (bench.data.readers.read_table)
SUFFIXES = (".csv", ".csv.gz", ".tsv", ".tsv.gz", ".arff", ".arff.gz", ".parquet")
#: a dataset name: what Hydra's ``data=<name>`` and a file name both take
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
#: integer-coded columns with at most this many distinct values are named as possibly nominal
FEW_VALUES = 10
NEWLINE = b"\n"


@dataclass
class Added:
    """What :func:`add_dataset` registered."""

    name: str
    config: Path
    file: Path                    #: where the loader finds the file
    copied: bool                  #: the file was copied into the user cache
    sha256: str
    dataset: Dataset
    nominal: list = field(default_factory=list)
    maybe_nominal: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    missing: list = field(default_factory=list)   #: (column, missing cells, rows)

    def lines(self) -> list[str]:
        ds = self.dataset
        counts = ds.class_counts()
        out = [f"{self.name}: {ds.n_instances} rows x {ds.n_features} features, {ds.n_classes} classes "
               f"({', '.join(f'{c}={n}' for c, n in zip(ds.classes[:12], counts[:12]))}"
               f"{', ...' if ds.n_classes > 12 else ''})",
               f"  nominal columns: {', '.join(map(str, self.nominal)) or 'none'}",
               f"  sha256: {self.sha256}",
               f"  file: {self.file}" + (" (copied into the user cache)" if self.copied else ""),
               f"  wrote {self.config}"]
        if self.maybe_nominal:
            out.append(f"  note: {', '.join(map(str, self.maybe_nominal))} hold few integer values and are read as "
                       f"numbers; if they are categories, run again with --nominal "
                       f"{','.join(map(str, self.maybe_nominal))} --force")
        if self.missing:
            shown = ", ".join(f"{c} {n} ({100 * n / rows:.1f}%)" for c, n, rows in self.missing[:12])
            more = f", and {len(self.missing) - 12} more columns" if len(self.missing) > 12 else ""
            out.append(f"  missing values: {shown}{more}")
        else:
            out.append("  missing values: none")
        out += [f"  warning: {w}" for w in self.warnings]
        out.append(f"use it with data={self.name}, e.g. `python -m bench algo=nb data={self.name}` or "
                   f"`bench compare --algos nb,a1de --datasets {self.name}`")
        return out


def default_name(path: Path) -> str:
    """``~/My Data/Breast-Cancer.csv.gz`` -> ``breast_cancer``."""
    stem = path.name
    for suf in sorted(SUFFIXES, key=len, reverse=True):
        if stem.lower().endswith(suf):
            stem = stem[: -len(suf)]
            break
    name = re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")
    return name or "my_data"


def _suffix(path: Path) -> str:
    low = path.name.lower()
    for suf in sorted(SUFFIXES, key=len, reverse=True):
        if low.endswith(suf):
            return suf
    raise DataError(f"{path}: unsupported file type; bench reads {', '.join(SUFFIXES)}")


def check_encoding(path: Path) -> None:
    """DataError unless the text file ``path`` (gzip or not) decodes as UTF-8 and holds no NUL byte.
    Parquet files are binary and not checked here."""
    suf = _suffix(path)
    if suf == ".parquet":
        return
    opener = gzip.open if suf.endswith(".gz") else open
    import codecs

    try:
        with opener(path, "rb") as fh:
            head = fh.read(64)
    except (OSError, EOFError):
        head = b""
    wide = _wide_encoding(head)
    if wide:
        raise DataError(f"{path}: {wide} text, not UTF-8. Convert it, e.g. `iconv -f {wide} -t utf-8 "
                        f"{path.name} > {default_name(path)}.utf8{suf.replace('.gz', '')}`, and add the converted file")

    dec = codecs.getincrementaldecoder("utf-8")("strict")
    line, offset = 1, 0
    try:
        with opener(path, "rb") as fh:
            while True:
                chunk = fh.read(1 << 20)
                final = not chunk
                try:
                    text = dec.decode(chunk, final=final)
                except UnicodeDecodeError as exc:
                    seen = exc.object[: exc.start]        # the bytes before the bad one (held-over + chunk)
                    start = offset - (len(exc.object) - len(chunk)) + exc.start
                    bad = exc.object[exc.start:exc.start + 4]
                    at_line = line + seen.count(NEWLINE)
                    raise DataError(
                        f"{path}: not UTF-8 text: byte(s) {bad!r} at byte {start}, line {at_line} "
                        f"cannot be decoded ({exc.reason}). The file is probably in another encoding (Latin-1 / "
                        f"Windows-1252?). Convert it, e.g. `iconv -f latin1 -t utf-8 {path.name} > "
                        f"{default_name(path)}.utf8{suf.replace('.gz', '')}`, and add the converted file") from None
                if "\x00" in text:
                    raise DataError(f"{path}: holds NUL bytes near line {line + text[: text.index(chr(0))].count(chr(10))}: "
                                    f"it is a binary file, not {suf} text")
                line += text.count("\n")
                offset += len(chunk)
                if final:
                    return
    except (OSError, EOFError) as exc:
        raise DataError(f"{path}: cannot be read ({exc}); the file may be truncated or not {suf}") from None


def _wide_encoding(head: bytes) -> str | None:
    """``utf-16`` / ``utf-32`` (iconv's names) when the first bytes of a file are a UTF-16 or
    UTF-32 byte-order mark, or ASCII text spaced out by NUL bytes (UTF-16 without one)."""
    for bom, name in ((codecs_bom("utf-32-le"), "utf-32"), (codecs_bom("utf-32-be"), "utf-32"),
                      (codecs_bom("utf-16-le"), "utf-16"), (codecs_bom("utf-16-be"), "utf-16")):
        if head.startswith(bom):
            return name
    even, odd = head[0::2], head[1::2]
    if len(head) >= 8 and (even.count(0) == len(even) or odd.count(0) == len(odd)):
        return "utf-16le" if odd.count(0) == len(odd) else "utf-16be"
    return None


def codecs_bom(encoding: str) -> bytes:
    import codecs

    return {"utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE, "utf-16-le": codecs.BOM_UTF16_LE,
            "utf-16-be": codecs.BOM_UTF16_BE}[encoding]


def protocol_config(name: str) -> dict:
    """``conf/protocol/<name>.yaml`` as a dict (DataError naming the available ones)."""
    from omegaconf import OmegaConf

    from ..paths import config_names, config_path

    path = config_path("protocol", name)
    if path is None:
        names = config_names("protocol")
        raise DataError(f"unknown protocol {name!r}; available: {', '.join(names)}")
    return OmegaConf.to_container(OmegaConf.load(path), resolve=True)


def unlearnable_classes(ds: Dataset, protocol: dict, seed: int = 0) -> list[tuple[str, int, str]]:
    """Classes that cannot be learned under ``protocol``: ``(label, rows, why)`` for a class of a
    single row, and for a class that some split of the protocol tests with no row of it in the
    training part (computed from the protocol's own splits under ``seed``)."""
    from ..protocols import resolve, splits

    counts = ds.class_counts()
    out = {}
    for c in np.flatnonzero(counts == 1):
        out[int(c)] = "a single row: the split that tests it has no example of the class to learn from"
    p = resolve(protocol, ds.name)
    k = ds.n_classes
    for sp in splits(ds.y, p, seed):
        in_train = np.bincount(ds.y[sp.train], minlength=k)
        in_test = np.bincount(ds.y[sp.test], minlength=k)
        for c in np.flatnonzero((in_test > 0) & (in_train == 0)):
            out.setdefault(int(c), f"split r{sp.repeat} f{sp.fold} of protocol {p.get('name')} tests it with no row "
                                   f"of it in the training part")
    return [(ds.classes[c], int(counts[c]), why) for c, why in sorted(out.items())]


def _place(path: Path, sha: str, name: str) -> tuple[str, Path, bool]:
    """The file name the config names, where the loader will find it, and whether it was copied:
    the file itself when it is in a data directory, else a copy in the user cache's ``files/``."""
    from .registry import locate_file

    suf = _suffix(path)
    for fname in dict.fromkeys([path.name, f"{name}{suf}"]):
        found = locate_file(fname)
        if found is not None and cache.sha256_file(found) == sha:
            return fname, found, False
        if found is None:
            dest = cache.cache_dir() / "files" / fname
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
            try:  # a real copy (a hard link would change with the original) made whole, then renamed
                shutil.copyfile(path, tmp)
                if cache.sha256_file(tmp) != sha:
                    raise OSError(f"the copy's SHA-256 differs from {path}'s")
                os.replace(tmp, dest)
            except OSError as exc:
                tmp.unlink(missing_ok=True)
                raise DataError(f"copying {path} to {dest} failed ({exc}; disk full?); nothing was written") from None
            return fname, dest, True
    raise DataError(f"a different file named {path.name} (and {name}{suf}) is already found in the data directories "
                    f"({locate_file(path.name)}); choose another --name")


#: a column is named as an identifier when it has a distinct value in each of at least this many rows
ID_MIN_ROWS = 20
#: |Spearman correlation| with the row index from which a numeric column is named as row order
ORDER_RHO = 0.99
#: share of a text column's values that must look like dates for it to be named as dates
DATE_SHARE = 0.9
_DATE_RE = re.compile(
    r"^\s*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    r"\d{1,2}[ -](jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -]\d{2,4}|"
    r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -]\d{1,2},?[ -]\d{2,4})"
    r"([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(z|[+-]\d{2}:?\d{2})?)?\s*$", re.I)


def leak_warnings(frame, target, drop, name: str) -> list[str]:
    """Warnings about feature columns that may describe the file rather than the instances, through
    which a classifier could learn the row order or the collection instead of the class: a column
    with a distinct value in every row (an identifier: text, or integer numbers), a numeric column
    that rises or falls with the row index (|Spearman rho| >= :data:`ORDER_RHO`: a row number, a
    timestamp, a file sorted by it), and a text column whose values look like dates. Each names
    the fix (``--drop``)."""
    import pandas as pd

    out = []
    n = len(frame)
    for col in frame.columns:
        if col == target or col in drop:
            continue
        s = frame[col]
        present = s.dropna()
        if present.empty:
            continue
        why = []
        numeric = pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)
        integral = numeric and bool(np.all(np.mod(present.to_numpy(dtype=np.float64), 1) == 0))
        if n >= ID_MIN_ROWS and present.size == n and present.nunique() == n and (integral or not numeric):
            why.append("a distinct value in every row (an identifier?)")
        if numeric and present.size >= ID_MIN_ROWS and present.nunique() > 2:
            idx = pd.Series(np.arange(n), index=s.index)[s.notna()]
            rho = present.rank().corr(idx.rank())
            if rho == rho and abs(rho) >= ORDER_RHO:
                why.append(f"values that {'rise' if rho > 0 else 'fall'} with the row order (Spearman rho "
                           f"{rho:+.3f} with the row index: a row number, a time, or a file sorted by it?)")
        if not numeric:
            text = present.astype(str)
            share = float(text.str.match(_DATE_RE).mean())
            if share >= DATE_SHARE:
                why.append(f"date-like values ({100 * share:.0f}% of them, e.g. {text.iloc[0]!r}), which become "
                           f"{present.nunique()} categories")
        if why:
            out.append(f"column {col!r} has {' and '.join(why)}: a classifier may learn the order or the collection "
                       f"of the file instead of the class. If it does not describe the instances, leave it out: "
                       f"bench data add ... --drop {col} --force (a `drop: [{col}]` in conf/data/{name}.yaml)")
    return out


def missing_values(ds) -> list[tuple[str, int, int]]:
    """(column, missing cells, rows) for each feature column with missing values."""
    if ds.is_sparse:
        return []
    counts = np.isnan(ds.X).sum(axis=0)
    return [(str(f), int(c), ds.n_instances) for f, c in zip(ds.feature_names, counts) if c]


def _literal(node):
    """Strings with ``${`` escaped (``\\${``), so OmegaConf and Hydra read them as they are and never
    resolve a column or file name such as ``${oc.env:HOME}``."""
    if isinstance(node, dict):
        return {k: _literal(v) for k, v in node.items()}  # keys are never resolved
    if isinstance(node, list):
        return [_literal(v) for v in node]
    return node.replace("${", "\\${") if isinstance(node, str) else node


def _yaml_text(cfg: dict, header: list[str]) -> str:
    import yaml

    body = yaml.safe_dump(_literal(cfg), sort_keys=False, allow_unicode=True, width=100)
    return "".join(f"# {' '.join(h.split())}\n" for h in header) + body


def add_dataset(file: str | Path, name: str | None = None, target: str | None = None,
                nominal: list[str] | None = None, protocol: str = "cv10", force: bool = False,
                target_is_class: bool = False, drop: list[str] | None = None, max_gb: float | None = 1.0) -> Added:
    """Inspect ``file`` and write ``conf/data/<name>.yaml`` (see the module docstring); DataError
    with the reason when the file is refused (nothing is written then). ``max_gb``: the largest
    decompressed size parsed (GiB; None or 0: no cap)."""
    from .readers import size_limit

    cap = int(max_gb * 2**30) if max_gb else None
    with size_limit(cap, ("bench data add", "--max-gb ", "--max-gb 0")):
        return _add(file, name, target, nominal, protocol, force, target_is_class, drop)


def _add(file, name, target, nominal, protocol, force, target_is_class, drop) -> Added:
    from .registry import _build, _read_table, conf_dir, load

    path = Path(file).expanduser()
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    path = path.resolve()
    _suffix(path)
    if name and name.lower().endswith((".yaml", ".yml")):
        stem = name.rsplit(".", 1)[0]
        raise DataError(f"--name {name}: give the dataset's name without .yaml (--name {stem}): it becomes "
                        f"data={stem} and conf/data/{stem}.yaml")
    name = name or default_name(path)
    if not NAME_RE.match(name):
        raise DataError(f"dataset name {name!r}: use letters, digits, '_', '.' or '-' (it becomes data={name} and "
                        f"conf/data/{name}.yaml)")
    from ..paths import user_conf_dir

    dest = user_conf_dir() / "data" / f"{name}.yaml"
    if dest != conf_dir() / "data" / f"{name}.yaml" and (conf_dir() / "data" / f"{name}.yaml").exists():
        raise DataError(f"{name!r} is one of bench's own datasets (data={name}); choose another --name")
    if dest.exists() and not force:
        raise DataError(f"conf/data/{name}.yaml already exists (a registered dataset); choose another --name, or "
                        f"--force to replace it")
    check_encoding(path)
    sha = cache.sha256_file(path)
    table = _read_table(path)
    cfg: dict = {"name": name}
    if target:
        cfg["target"] = target
    if nominal:
        cfg["nominal"] = list(nominal)
    if target_is_class:
        cfg["target_is_class"] = True
    if drop:
        cfg["drop"] = list(drop)
    if table.frame is not None:
        cols = [str(c) for c in table.frame.columns]
        if target and target not in cols:
            raise DataError(f"{path}: no column {target!r} for --target; the columns are {', '.join(cols[:20])}"
                            + (" ..." if len(cols) > 20 else ""))
        for opt, given in (("--nominal", nominal), ("--drop", drop)):
            unknown = [c for c in given or [] if c not in cols]
            if unknown:
                raise DataError(f"{path}: {opt} names columns that are not in the file: {', '.join(unknown)}; the "
                                f"columns are {', '.join(cols[:20])}" + (" ..." if len(cols) > 20 else ""))
        if len(cols) < 2:
            raise DataError(f"{path}: {len(cols)} column(s) read; a dataset needs features and a class column "
                            f"(is the file comma-separated?)")
    try:
        ds = _build(dict(cfg), table, {"source": str(path), "sha256": sha})
    except DataError as exc:
        text = str(exc)
        if "looks continuous" in text:
            text += ("; with bench data add: --target COLUMN names the class column, --target-is-class keeps "
                     "these values as classes")
        raise DataError(text) from None
    if len(np.unique(ds.y)) < 2:
        raise DataError(f"{path}: the class column {target or 'the last column'} holds a single class "
                        f"({ds.classes[int(ds.y[0])]!r}); name the class column with --target")
    proto = protocol_config(protocol)
    bad = unlearnable_classes(ds, proto)
    if bad:
        shown = "; ".join(f"{lab!r} ({n} row{'s' if n != 1 else ''}): {why}" for lab, n, why in bad[:6])
        other = "" if any(n == 1 for _, n, _ in bad) else ", or choose another --protocol"
        raise DataError(f"{path}: {len(bad)} class(es) cannot be learned under protocol {protocol}: {shown}. Remove "
                        f"those rows or merge the class into another{other}")
    warnings = []
    counts = ds.class_counts()
    if proto.get("kind", "kfold") == "kfold":
        k = int(proto.get("n_splits", 10))
        small = [f"{c!r} ({n})" for c, n in zip(ds.classes, counts) if n < k]
        if small:
            warnings.append(f"{len(small)} class(es) have fewer rows than the {k} folds of {protocol}: "
                            f"{', '.join(small[:8])}; some test folds hold none of their rows")
    nominal_cols = [f for f, c in zip(ds.feature_names, ds.categorical) if c]
    maybe = []
    if not ds.is_sparse:
        for j, f in enumerate(ds.feature_names):
            col = ds.X[:, j]
            vals = np.unique(col[~np.isnan(col)])
            if not ds.categorical[j] and 2 < vals.size <= FEW_VALUES and np.all(vals == np.round(vals)):
                maybe.append(f)
    if table.frame is not None:
        warnings += leak_warnings(table.frame, target or table.frame.columns[-1], drop or [], name)
    missing = missing_values(ds)
    fname, where, copied = _place(path, sha, name)
    out = {"name": name, "sources": [{"file": fname, "sha256": sha}]}
    for k in ("target", "nominal", "target_is_class", "drop"):
        if k in cfg:
            out[k] = cfg[k]
    out["expected"] = {"rows": ds.n_instances, "features": ds.n_features, "classes": ds.n_classes,
                       "class_counts": {str(c): int(n) for c, n in zip(ds.classes, counts)},
                       "nominal_columns": [str(c) for c in nominal_cols]}
    out["notes"] = (f"added with `bench data add` from {path.name} ({sha[:12]}); class column "
                    f"{target or 'last'}; checked under protocol {protocol}")
    header = [f"{name}: your own data, registered by `bench data add {path.name}`",
              f"file {fname}: found in BENCH_DATA_DIR, the repository's datasets/ or the user cache "
              f"({cache.cache_dir() / 'files'})",
              "expected: the shape, checked on every load; class_counts and nominal_columns describe it (in no hash)"]
    _write_config(dest, _yaml_text(out, header).encode(), name, force)
    try:  # the written config must load as a job loads it
        load(name, use_memo=False)
    except Exception as exc:  # noqa: BLE001 (whatever it is, nothing is kept)
        dest.unlink(missing_ok=True)
        if copied:
            where.unlink(missing_ok=True)
        raise DataError(f"the config written for {name} does not load ({type(exc).__name__}: {exc}); nothing "
                        f"was kept") from None
    added = Added(name, dest, where, copied, sha, ds, [str(c) for c in nominal_cols], maybe, warnings)
    added.missing = missing
    return added


def _write_config(dest: Path, data: bytes, name: str, force: bool) -> None:
    """Write the config whole (a temporary file, then one link or rename): a reader sees no config
    or all of it. Without ``force``, a config of the same name that appeared while this ran (a
    second ``bench data add --name`` at the same time) is not replaced: DataError."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)   # a new workspace has no conf/data/ yet
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if force:
            os.replace(tmp, dest)
        else:
            try:
                os.link(tmp, dest)  # fails if the name exists: the first writer keeps it
            except FileExistsError:
                raise DataError(f"conf/data/{name}.yaml appeared while this ran (another `bench data add --name "
                                f"{name}`?); it was kept as it is. Choose another --name, or --force to replace "
                                f"it") from None
    except OSError as exc:
        raise DataError(f"cannot write {dest} ({exc}); nothing was written") from None
    finally:
        tmp.unlink(missing_ok=True)
