"""The evidence behind the reports: every stored split of an experiment as one Parquet row, shipped
with ``reports/`` so that anyone can rebuild every table, figure and verdict without the records.

``reports/evidence/`` holds, per experiment ``E`` that the reports read:

* ``E.records.parquet``: the rows of :func:`bench.store.load` for ``E`` (one per split: identity
  keys and hashes, status and error, metrics, times, memory, seed, machine, commit, the SHA-256 of
  the split's ``.npz`` of predictions). Dict- and list-valued columns (the algorithm and protocol
  configs, data identity, per-fit diagnostics) are stored as canonical JSON text and decoded on
  read; ``path`` is the record's path relative to the results directory. Where a record names a
  place on the machine that ran it, the evidence holds the portable part only (:func:`portable`):
  ``dataset_source`` is the data file's name (its content is ``dataset_sha256``), and a failed
  split's traceback names files from their package on. ``record_sha256`` stays the checksum of the
  record as the run stored it.
* ``E.plan.json``: the plan of the experiment's last run (``results/E/_plan.json``), the scale,
  protocol, datasets and seeds the reports describe.
* ``E.biasvar.parquet`` (experiments whose protocol repeats cross-validation): the per-instance
  facts the reports need, reduced per (dataset, algorithm variant, protocol): Kohavi-Wolpert bias,
  variance and loss (:func:`bench.stats.biasvar.bias_variance_table`, noise folded into bias, no
  correction) over the records the reports read (the newest run of each variant, at the plan's
  protocol), computed from the stored ``.npz`` predictions.
* ``perf/perf-*.json``: the stored speed-benchmark runs (``make bench-perf``) the reports show.
* ``MANIFEST.json``: per file its SHA-256 and size, per experiment its row count, scale and
  protocol. Files are verified against it before use; a mismatch is an :class:`EvidenceError`
  naming the file.

A report build (:func:`bench.report.build.build_reports`) first exports the evidence of every
experiment stored in the results directory, then builds every report from evidence alone, the
fresh files together with the committed ones of experiments not stored here. So the committed
reports and ``python -m bench.report --from-evidence`` take the same path, and the rebuild from the
shipped evidence is byte-identical to the committed files apart from the build-time lines
(:func:`compare_trees`, which masks :data:`BUILD_STAMP`).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from ..fileio import atomic_write_bytes

__all__ = ["EVIDENCE", "EvidenceError", "Evidence", "export_experiment", "export_perf", "write_manifest",
           "compare_trees", "BUILD_STAMP"]

#: the evidence folder's name under a reports directory
EVIDENCE = "evidence"
MANIFEST = "MANIFEST.json"
#: the key in a records Parquet file's schema metadata that lists its JSON-encoded columns
JSON_COLUMNS_KEY = b"bench.json_columns"
#: biasvar: how the per-instance facts were reduced (written into the manifest)
BIASVAR_HOW = ("Kohavi-Wolpert bias and variance (bench.stats.biasvar.bias_variance_table: noise folded into "
               "bias, no correction) per (dataset, algorithm variant, protocol), from the stored per-instance "
               "predictions (.npz) of the records in E.records.parquet that the reports read: the newest run "
               "of each variant at the plan's protocol; every (seed, repeat) is one round")


class EvidenceError(RuntimeError):
    """An evidence file is missing, unreadable or does not match its manifest entry."""


# ------------------------------------------------------------------------------------ encoding
def _json_text(v) -> str | None:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return None
    return json.dumps(v, sort_keys=True, separators=(",", ":"), default=_json_default)


def _json_default(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def encode_records(df: pd.DataFrame, root: Path | None = None) -> tuple[pd.DataFrame, list[str]]:
    """``df`` (rows of :func:`bench.store.load`) with every column Parquet can hold as it is, and
    the object columns that hold dicts, lists or mixed types as canonical JSON text (returned by
    name); ``path`` relative to ``root``."""
    out = df.copy()
    json_cols = []
    if "path" in out and root is not None:
        base = Path(root).resolve()
        out["path"] = [_relative(p, base) for p in out["path"]]
    for c in out.columns:
        if out[c].dtype != object:
            continue
        kinds = {type(v) for v in out[c] if v is not None and not (isinstance(v, float) and np.isnan(v))}
        if kinds <= {str}:
            out[c] = out[c].astype("string")
        elif kinds <= {bool, np.bool_}:
            out[c] = out[c].astype("boolean")
        elif kinds <= {int, np.int64, np.int32}:
            out[c] = out[c].astype("Int64")
        elif kinds <= {float, int, np.float64, np.int64}:
            out[c] = out[c].astype("float64")
        else:
            out[c] = pd.array([_json_text(v) for v in out[c]], dtype="string")
            json_cols.append(c)
    return out, json_cols


#: in a traceback, a file's path: kept from its package on (:func:`_portable_file`)
_TRACE_FILE = re.compile(r'File "([^"]+)"')


def _portable_file(path: str) -> str:
    """A source file's path without the machine's part: from the project's packages (``bench/``,
    ``algorithms/``) or an installed package (after ``site-packages/`` or the standard library's
    ``lib/pythonX.Y/``) on; else the file's name."""
    if not path.startswith("/"):
        return path
    for pattern in (r"/site-packages/(.+)$", r"^.*?/((?:bench|algorithms)/.+)$", r"/lib/python[0-9.]+/(.+)$"):
        m = re.search(pattern, path)
        if m:
            return m.group(1)
    return Path(path).name


def portable(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` (rows of :func:`bench.store.load`) without the places of the machine that ran it: an
    absolute ``dataset_source`` becomes the data file's name, and tracebacks name files from their
    package on (:func:`_portable_file`)."""
    out = df.copy()
    if "dataset_source" in out:
        out["dataset_source"] = [Path(v).name if isinstance(v, str) and v.startswith("/") else v
                                 for v in out["dataset_source"]]
    if "traceback" in out:
        out["traceback"] = [_TRACE_FILE.sub(lambda m: f'File "{_portable_file(m.group(1))}"', v)
                            if isinstance(v, str) else v for v in out["traceback"]]
    return out


def decode_records(df: pd.DataFrame, json_cols: list[str]) -> pd.DataFrame:
    """The inverse of :func:`encode_records`: JSON columns back to Python objects; text columns
    with missing values hold None, as :func:`bench.store.load` gives them."""
    out = df.copy()
    for c in out.columns:
        if c in json_cols:
            out[c] = pd.Series([None if v is None or v is pd.NA else json.loads(v) for v in out[c]],
                               index=out.index, dtype=object)
        elif isinstance(out[c].dtype, pd.StringDtype) and out[c].isna().any():
            out[c] = pd.Series([None if v is pd.NA else v for v in out[c]], index=out.index, dtype=object)
    return out


def _relative(p, base: Path):
    if p is None or (isinstance(p, float) and np.isnan(p)):
        return None
    try:
        return Path(p).resolve().relative_to(base).as_posix()
    except ValueError:
        return str(p)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_parquet(df: pd.DataFrame, path: Path, json_cols: list[str] | None = None) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[JSON_COLUMNS_KEY] = json.dumps(sorted(json_cols or [])).encode()
    table = table.replace_schema_metadata(meta)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd", compression_level=9)
    atomic_write_bytes(path, buf.getvalue())


def _read_parquet(path: Path) -> pd.DataFrame:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    json_cols = json.loads((table.schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]"))
    return decode_records(table.to_pandas(), json_cols)


# ------------------------------------------------------------------------------------ export
def export_experiment(results_root: Path | str, experiment: str, dest: Path | str, view) -> list[Path]:
    """Write the evidence of one stored experiment into ``dest``; return the files written.

    ``view`` is the experiment's :class:`bench.report.context.ExperimentView` on the stored records
    (``ReportContext(results_root).experiment(experiment)``): its ``all_records`` are the rows of
    :func:`bench.store.load`, and bias and variance are computed from the ``.npz`` files of its
    ``records`` (those the reports read)."""
    root, dest = Path(results_root), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    # ``config`` is derived from the other columns when the records are read (bench.store.config_column)
    df = portable(view.all_records.drop(columns=["config"], errors="ignore"))
    if df.empty:
        return []
    files = []
    enc, json_cols = encode_records(df.sort_values("path", kind="stable").reset_index(drop=True), root)
    _write_parquet(enc, dest / f"{experiment}.records.parquet", json_cols)
    files.append(dest / f"{experiment}.records.parquet")
    plan_path = root / experiment / "_plan.json"
    if plan_path.exists():
        plan = json.loads(plan_path.read_text())
        atomic_write_bytes(dest / f"{experiment}.plan.json",
                           (json.dumps(plan, indent=1, sort_keys=True) + "\n").encode())
        files.append(dest / f"{experiment}.plan.json")
    bv = _biasvar(view)
    if bv is not None:
        _write_parquet(bv, dest / f"{experiment}.biasvar.parquet")
        files.append(dest / f"{experiment}.biasvar.parquet")
    return files


def _biasvar(view) -> pd.DataFrame | None:
    """Bias and variance of every (dataset, variant, protocol) the view reads, when its records
    have at least two rounds (seed, repeat) of cross-validation; else None."""
    from ..stats.biasvar import bias_variance_table

    rec = view.records
    if rec.empty or "status" not in rec:
        return None
    ok = rec[rec["status"] == "ok"]
    if ok.empty or ok.groupby(["seed", "repeat"]).ngroups < 2:
        return None
    return bias_variance_table(ok).reset_index(drop=True)


def export_perf(results_root: Path | str, dest: Path | str) -> list[Path]:
    """Copy the stored speed-benchmark runs (``results/perf/perf-*.json``) into ``dest/perf``."""
    src = Path(results_root) / "perf"
    out = []
    for path in sorted(src.glob("perf-*.json")) if src.is_dir() else []:
        target = Path(dest) / "perf" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        out.append(target)
    return out


def write_manifest(dest: Path | str) -> Path:
    """``MANIFEST.json`` of the evidence folder ``dest``: every file's SHA-256 and size, and per
    experiment its rows, scale and protocol."""
    dest = Path(dest)
    files = {}
    for path in sorted(p for p in dest.rglob("*") if p.is_file() and p.name != MANIFEST):
        files[path.relative_to(dest).as_posix()] = {"sha256": _sha256(path), "bytes": path.stat().st_size}
    experiments = {}
    for name in sorted(f[: -len(".records.parquet")] for f in files if f.endswith(".records.parquet")):
        import pyarrow.parquet as pq

        rows = pq.ParquetFile(dest / f"{name}.records.parquet").metadata.num_rows
        plan_path = dest / f"{name}.plan.json"
        plan = json.loads(plan_path.read_text()) if plan_path.exists() else {}
        entry = {"records": rows, "scale": plan.get("scale"), "protocol": plan.get("protocol")}
        if f"{name}.biasvar.parquet" in files:
            entry["biasvar"] = BIASVAR_HOW
        experiments[name] = entry
    manifest = {"about": "bench report evidence: see bench/report/evidence.py", "experiments": experiments,
                "files": files}
    path = dest / MANIFEST
    atomic_write_bytes(path, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return path


# ------------------------------------------------------------------------------------ reading
class Evidence:
    """The evidence of one or more folders (earlier folders win for an experiment they hold).

    Every file is checked against its folder's ``MANIFEST.json`` before it is read; a folder
    without a manifest is read unchecked only when ``trusted`` (a build's own fresh export)."""

    def __init__(self, *folders: Path | str, trusted: tuple[Path | str, ...] = ()):
        self.folders = [Path(f) for f in folders if f is not None and Path(f).is_dir()]
        self.trusted = {Path(t).resolve() for t in trusted}
        self._manifests: dict[Path, dict | None] = {}
        self._cache: dict[tuple, object] = {}

    def _manifest(self, folder: Path) -> dict | None:
        if folder not in self._manifests:
            path = folder / MANIFEST
            if path.exists():
                try:
                    self._manifests[folder] = json.loads(path.read_text())
                except ValueError as exc:
                    raise EvidenceError(f"{path} is not valid JSON ({exc}); restore it with git checkout") from exc
            else:
                self._manifests[folder] = None
        return self._manifests[folder]

    def _checked(self, folder: Path, rel: str) -> Path:
        path = folder / rel
        man = self._manifest(folder)
        if man is None:
            if folder.resolve() in self.trusted:
                return path
            raise EvidenceError(f"{folder}/{MANIFEST} is missing: the evidence in {folder} cannot be checked")
        entry = (man.get("files") or {}).get(rel)
        if entry is None:
            raise EvidenceError(f"{path} is not listed in {folder}/{MANIFEST}")
        if not path.exists():
            raise EvidenceError(f"{path} is listed in {folder}/{MANIFEST} but missing (git checkout {path})")
        digest = _sha256(path)
        if digest != entry["sha256"]:
            raise EvidenceError(f"{path} has sha256 {digest[:16]}... but {folder}/{MANIFEST} records "
                                f"{entry['sha256'][:16]}...: the file was changed or is corrupt")
        return path

    def _folder_of(self, rel: str) -> Path | None:
        for folder in self.folders:
            if (folder / rel).exists():
                return folder
        return None

    def experiments(self) -> list[str]:
        names = set()
        for folder in self.folders:
            names |= {p.name[: -len(".records.parquet")] for p in folder.glob("*.records.parquet")}
        return sorted(names)

    def has(self, experiment: str) -> bool:
        return self._folder_of(f"{experiment}.records.parquet") is not None

    def records(self, experiment: str) -> pd.DataFrame:
        key = ("records", experiment)
        if key not in self._cache:
            folder = self._folder_of(f"{experiment}.records.parquet")
            self._cache[key] = pd.DataFrame() if folder is None else \
                _read_parquet(self._checked(folder, f"{experiment}.records.parquet"))
        return self._cache[key].copy()

    def plan(self, experiment: str) -> dict | None:
        folder = self._folder_of(f"{experiment}.records.parquet")
        if folder is None or not (folder / f"{experiment}.plan.json").exists():
            return None
        return json.loads(self._checked(folder, f"{experiment}.plan.json").read_text())

    def biasvar(self, experiment: str) -> pd.DataFrame:
        folder = self._folder_of(f"{experiment}.records.parquet")
        if folder is None or not (folder / f"{experiment}.biasvar.parquet").exists():
            return pd.DataFrame()
        return _read_parquet(self._checked(folder, f"{experiment}.biasvar.parquet"))

    def perf_runs(self) -> list[dict]:
        """Every perf run of the folders (a file name in an earlier folder wins), oldest first."""
        where: dict[str, Path] = {}
        for folder in self.folders:
            for path in sorted((folder / "perf").glob("perf-*.json")):
                where.setdefault(path.name, folder)
        runs = []
        for name in sorted(where):
            run = json.loads(self._checked(where[name], f"perf/{name}").read_text())
            run["file"] = name
            runs.append(run)
        return runs


# ------------------------------------------------------------------------------------ checking
#: when, where and at which commit a build ran ("Generated <time> on <host> ... at commit <sha>", "built:
#: <time> on <host> at commit <sha>", the sha "unknown" outside a git checkout): the only text that differs
#: between two builds of the same evidence
BUILD_STAMP = re.compile(r"(Generated |built: )\d{4}-\d\d-\d\d \d\d:\d\d:\d\d on [^\n<]*?at commit "
                         r"([0-9a-f]{7,40}(-dirty)?|unknown)")


def _masked(data: bytes, suffix: str) -> bytes:
    if suffix not in (".md", ".html", ".csv", ".tex", ".txt", ".json"):
        return data
    return BUILD_STAMP.sub(r"\1<build time>", data.decode("utf-8", errors="replace")).encode()


def compare_trees(expected: Path | str, got: Path | str) -> list[str]:
    """Differences between two report folders (files only in one, files whose bytes differ once the
    build-time stamps are masked: see :data:`BUILD_STAMP`), as sorted lines; [] if none."""
    expected, got = Path(expected), Path(got)

    def files(root: Path) -> set[str]:
        return {p.relative_to(root).as_posix() for p in root.rglob("*")
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)}

    a, b = files(expected), files(got)
    out = [f"only in {expected}: {f}" for f in sorted(a - b)] + [f"only in {got}: {f}" for f in sorted(b - a)]
    for f in sorted(a & b):
        x, y = (expected / f).read_bytes(), (got / f).read_bytes()
        if x != y and _masked(x, Path(f).suffix) != _masked(y, Path(f).suffix):
            out.append(f"differs: {f}")
    return out
