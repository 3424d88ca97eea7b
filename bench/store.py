"""The result store: one record per (experiment, algorithm config, data setup,
protocol setup, seed, repeat, fold).

Layout under the results root::

    <experiment>/<dataset>/<algo>-<hash>/<protocol>-<setup>-s<seed>/r<repeat>-f<fold>.json   the record
                                                                    r<repeat>-f<fold>.npz    test indices,
                                                                                             labels, probabilities

``<hash>`` covers the algorithm config; ``<setup>`` covers the resolved data config
(source file name and sha256, column selection, transforms, class grouping: see
:func:`data_identity`) and the resolved protocol (kind, n_splits, n_repeats, test and
train sizes, stratification: see :func:`protocol_identity`). A changed setup therefore
gets its own folder and is never served an old record. Folders of the earlier layout
(``<protocol>-s<seed>``, no ``<setup>``) stay readable: :func:`load` lists their records
(with ``data_key`` None) and the runner migrates a legacy record into the new layout
when the record's data and protocol are provably the job's (see ``bench.runner``).

Each record carries ``predictions_sha256``, the checksum of its ``.npz``, and
``record_sha256``, the checksum of its own canonical content (every field: metrics, times,
identity; see :func:`record_checksum`). Reuse verifies both (and recomputes the error and RMSE
from the ``.npz``, :func:`metrics_problem`); a mismatch is named and the split recomputed.
:func:`load` and :func:`load_predictions` raise :class:`RecordError` naming the file when
either does not match. Records written before ``record_sha256`` existed are *legacy*: read as
they are (never rewritten by a read), their ``.npz`` checksum and metrics still checked on reuse.

Writes are atomic (temporary file + ``os.replace``); the ``.npz`` is written
before the ``.json``, so a record exists only when both are complete. A process
killed mid-split leaves no record for that split and nothing else changes. A job
writes with ``put(..., sync=False)``: the files are flushed to disk by a thread while
the next split computes, and :meth:`Store.sync` waits for that before the job reports.
Workers that race for the same split serialise on an ``flock`` of a lock file
beside the record: the loser waits and then reuses the winner's record, so no
record is lost or written twice. :func:`load` returns every record as one
pandas DataFrame, read through the consolidated index ``<root>/_index.parquet``
(a cache of the records, kept up to date by folder mtime and rewritten atomically;
see :func:`index_rows`).
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import logging

import numpy as np

from ._deferred import LazyModule
from .fileio import atomic_write_bytes, deferred_fsync, fsync_paths, sha256_file
from .paths import results_root  # noqa: F401  (the store's root; defined where no numpy is imported)

pd = LazyModule("pandas")  # for load() and the index; a job that only writes records never imports it

log = logging.getLogger("bench")

RECORD_VERSION = 2

#: data config keys that describe or check the data but do not change it (left out of its identity)
DATA_DESCRIPTIVE_KEYS = ("name", "description", "notes", "papers", "expected", "sources", "tags", "stand_in",
                         "target_is_class")
#: protocol config keys that only name or describe it
PROTOCOL_DESCRIPTIVE_KEYS = ("name", "description", "notes", "per_dataset", "overridden_for")
#: how splits are drawn (bench.protocols); part of the protocol identity so a change of the
#: splitting code can be marked by bumping it
SPLITTER = "stratified-v1"

#: the sizes an experiment runs at (conf/experiment/*.yaml ``scales:``), smallest first; defined here once
SCALES = ("smoke", "medium", "full")




class RecordError(RuntimeError):
    """A stored record or its predictions file is unreadable or does not match its checksum."""


def config_hash(cfg: dict) -> str:
    """Stable short hash of an algorithm config (keys sorted, JSON-serialised)."""
    blob = json.dumps(cfg, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:10]


def data_identity(data_cfg: dict, meta: dict) -> dict:
    """What defines a dataset's table: the source actually read (its file name, not the
    machine-specific directory, and the sha256 of its content) and every config key that
    transforms it (``select``, ``drop``, ``target``, ``nominal``/``numeric``/``all_nominal``,
    ``class_groups``, ``drop_missing_target``, ...). ``expected`` (a check), ``notes`` and the
    list of candidate ``sources`` are left out."""
    src = str(meta.get("source") or "")
    if "/" in src or os.sep in src:
        src = Path(src).name
    ident = {"source": src, "sha256": meta.get("sha256")}
    if meta.get("generator_params") is not None:
        ident["generator_params"] = meta["generator_params"]
    ident["transforms"] = {k: v for k, v in sorted(dict(data_cfg).items()) if k not in DATA_DESCRIPTIVE_KEYS}
    return json.loads(json.dumps(ident, sort_keys=True, default=str))


def protocol_identity(protocol: dict) -> dict:
    """What defines a protocol's splits: kind, n_splits, n_repeats, test_size, train_sizes
    (with their defaults filled in), any other setting, and the splitting scheme. The seed
    is kept apart (it is in the folder name)."""
    p = {k: v for k, v in dict(protocol).items() if k not in PROTOCOL_DESCRIPTIVE_KEYS}
    kind = p.setdefault("kind", "kfold")
    p["n_repeats"] = int(p.get("n_repeats", 1))
    if kind == "holdout":
        p["test_size"] = float(p.get("test_size", 1 / 3))
    elif kind == "train_sizes":
        p["test_size"] = float(p.get("test_size", 0.25))
        p["train_sizes"] = [int(v) for v in p.get("train_sizes") or []]
    elif kind == "kfold" and "n_splits" in p:
        p["n_splits"] = int(p["n_splits"])
    p["splitter"] = SPLITTER
    return json.loads(json.dumps(p, sort_keys=True, default=str))


def setup_hash(data_key: str, protocol_key: str) -> str:
    """The short hash in a record folder's name: data and protocol identity together."""
    return hashlib.sha256(f"{data_key}|{protocol_key}".encode()).hexdigest()[:8]


@dataclass(frozen=True)
class RunKey:
    """Identifies the stored runs of one (experiment, algorithm config, dataset, protocol, seed)."""

    experiment: str
    dataset: str
    algo: str
    algo_hash: str
    protocol: str
    seed: int
    #: data + protocol identity (:func:`setup_hash`); "" is the earlier layout without it
    setup: str = ""

    def directory(self, root: Path) -> Path:
        leaf = f"{_safe(self.protocol)}-{self.setup}-s{self.seed}" if self.setup else \
            f"{_safe(self.protocol)}-s{self.seed}"
        return Path(root) / _safe(self.experiment) / _safe(self.dataset) / f"{_safe(self.algo)}-{self.algo_hash}" / leaf

    def legacy(self) -> "RunKey":
        """The same key in the earlier layout (``<protocol>-s<seed>``)."""
        return RunKey(self.experiment, self.dataset, self.algo, self.algo_hash, self.protocol, self.seed)


def _safe(part: str) -> str:
    out = "".join(ch if ch.isalnum() or ch in "._-+=" else "_" for ch in str(part))
    if not out or out.startswith("."):
        raise ValueError(f"bad name for a results path component: {part!r}")
    return out


def split_stem(repeat: int, fold: int) -> str:
    return f"r{repeat:02d}-f{fold:02d}"


class Store:
    """Read and write the records of one :class:`RunKey`."""

    def __init__(self, root: Path | str, key: RunKey):
        self.root = Path(root)
        self.key = key
        self.dir = key.directory(self.root)
        self._flusher = None  # (thread, queue, errors) flushing what put(sync=False) wrote

    def record_path(self, repeat: int, fold: int) -> Path:
        return self.dir / f"{split_stem(repeat, fold)}.json"

    def predictions_path(self, repeat: int, fold: int) -> Path:
        return self.dir / f"{split_stem(repeat, fold)}.npz"

    def get(self, repeat: int, fold: int, quiet: bool = False) -> dict | None:
        """The stored record of a split, or None if there is none. An unreadable (corrupt,
        truncated) record is reported by name in the log and counts as absent, so it is
        recomputed (and replaced)."""
        path = self.record_path(repeat, fold)
        try:
            return read_record(path, strict=True)
        except RecordError as exc:
            if not quiet:
                log.warning("%s; it will be recomputed", exc)
            return None

    def put(self, record: dict, predictions: dict | None, sync: bool = True) -> dict:
        """Store a record (and its per-instance predictions) atomically; the record gets the
        sha256 of the predictions file as ``predictions_sha256``. Returns the record as
        :meth:`get` would read it back (its file's content, with ``path``), made from the bytes
        just written, so the writer need not read them again.

        With ``sync`` (default) both files are on disk (``fsync``) when it returns; with
        ``sync=False`` they are written and renamed into place at once (atomic for every reader
        and against a killed process) and flushed to disk by a thread while the caller goes on;
        :meth:`sync` waits for that (a job calls it before it reports, and before it forks)."""
        if not sync:
            with deferred_fsync() as written:
                stored = self.put(record, predictions)
            self._flush_soon(written)
            return stored
        r, f = int(record["repeat"]), int(record["fold"])
        self.dir.mkdir(parents=True, exist_ok=True)
        record = {k: v for k, v in record.items() if k != "path"}
        if predictions is not None:
            buf = io.BytesIO()
            np.savez(buf, **predictions)  # uncompressed: probabilities deflate by < 10 %, at ~10 ms per 100k values
            data = buf.getvalue()
            atomic_write_bytes(self.predictions_path(r, f), data)
            record["predictions_sha256"] = hashlib.sha256(data).hexdigest()
        else:
            record["predictions_sha256"] = None
            try:  # a stale predictions file of an earlier record must not pass for this one's
                os.unlink(self.predictions_path(r, f))
            except FileNotFoundError:
                pass
        blob = encode_record(record)
        path = self.record_path(r, f)
        atomic_write_bytes(path, blob)
        stored = json.loads(blob)
        stored["path"] = str(path)
        return stored

    def _flush_soon(self, paths: list[Path]) -> None:
        """Have a thread of this process flush ``paths`` to disk now, while the job goes on (the
        next split computes in its worker process meanwhile). A flush that failed is raised here,
        at the next write, or by :meth:`sync`."""
        import queue
        import threading

        if self._flusher is None:
            q, errors = queue.SimpleQueue(), []

            def run():
                while True:
                    item = q.get()
                    if item is None:
                        return
                    try:
                        fsync_paths(item)
                    except OSError as exc:
                        errors.append(exc)

            thread = threading.Thread(target=run, name="bench-store-flush", daemon=True)
            thread.start()
            self._flusher = (thread, q, errors)
        thread, q, errors = self._flusher
        if errors:
            self.sync()
        q.put(list(paths))

    def sync(self) -> None:
        """Wait until every record written with ``put(..., sync=False)`` is on disk; raise the
        first OSError a flush met (a full disk, an I/O error)."""
        if self._flusher is None:
            return
        thread, q, errors = self._flusher
        self._flusher = None
        q.put(None)
        thread.join()
        if errors:
            raise errors[0]

    def adopt(self, legacy: "Store", repeat: int, fold: int, identity: dict) -> dict | None:
        """Move a record of the earlier layout (``legacy``, a folder without the data/protocol
        setup) into this store, when it provably is this job's: the same data sha256 and shape, the
        same protocol identity, seed and algorithm hash as ``identity`` (the job's context), and
        sound predictions. The record gains the job's data and protocol keys and
        ``migrated_from``; the legacy files are removed. Returns the adopted record, or None."""
        old = legacy.get(repeat, fold)
        if old is None:
            return None
        pc = old.get("protocol_config")
        if (old.get("dataset_sha256") != identity["dataset_sha256"]
                or not isinstance(pc, dict) or protocol_identity(pc) != identity["protocol_identity"]
                or any(old.get(k) != identity[k] for k in ("n_instances", "n_features", "n_classes"))
                or old.get("seed") != identity["seed"] or old.get("algo_hash") != identity["algo_hash"]):
            return None
        problem = predictions_problem(old)
        if problem:
            log.warning("%s; the split will be recomputed", problem)
            return None
        rec = {k: v for k, v in old.items() if k != "path"}
        rec.update({k: identity[k] for k in ("data_key", "data_identity", "protocol_key", "protocol_identity")})
        rec["migrated_from"] = str(old["path"])
        old_npz = legacy.predictions_path(repeat, fold)
        if old_npz.exists():
            self.dir.mkdir(parents=True, exist_ok=True)
            data = old_npz.read_bytes()
            atomic_write_bytes(self.predictions_path(repeat, fold), data)
            rec["predictions_sha256"] = hashlib.sha256(data).hexdigest()
        else:
            rec["predictions_sha256"] = None
        atomic_write_bytes(self.record_path(repeat, fold), encode_record(rec))
        for p in (legacy.record_path(repeat, fold), old_npz):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
        return self.get(repeat, fold)

    @contextmanager
    def claim(self, repeat: int, fold: int, wait: bool) -> Iterator[bool]:
        """Hold the split's lock while computing it. Yields True when held; with
        ``wait=False`` yields False at once if another worker holds it."""
        self.dir.mkdir(parents=True, exist_ok=True)
        lock_path = self.dir / f".{split_stem(repeat, fold)}.lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)  # the umask applies, as to the records
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                if self.record_path(repeat, fold).exists():
                    try:
                        os.unlink(lock_path)
                    except FileNotFoundError:
                        pass
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


#: record fields outside its own checksum: the checksum itself and the file path added on reading
_UNCHECKED = ("record_sha256", "path")


def _canonical(rec: dict) -> bytes:
    return json.dumps({k: v for k, v in rec.items() if k not in _UNCHECKED}, sort_keys=True,
                      separators=(",", ":"), default=_json_default).encode()


def record_checksum(rec: dict) -> str:
    """SHA-256 of a record's canonical content: every field but ``record_sha256`` and ``path``, as
    JSON with sorted keys and no spaces, computed on the record *as read back from its JSON text*
    (so a NumPy scalar, a tuple or an int dict key gives the value the file holds)."""
    return hashlib.sha256(_canonical(rec)).hexdigest()


def encode_record(record: dict) -> bytes:
    """The JSON text of a record, with ``record_sha256`` (:func:`record_checksum`) added."""
    rec = {k: v for k, v in record.items() if k not in _UNCHECKED}
    plain = json.loads(json.dumps(rec, default=_json_default))  # what a reader will see
    plain["record_sha256"] = record_checksum(plain)
    return json.dumps(plain, indent=1, sort_keys=True).encode()


def checksum_problem(rec: dict) -> str | None:
    """Why a record read from ``rec["path"]`` does not match its own checksum, or None when it
    does. A legacy record (written before ``record_sha256`` existed) has none to match: None."""
    expected = rec.get("record_sha256")
    if expected is None:
        return None
    actual = record_checksum(rec)
    if actual == expected:
        return None
    return (f"stored record {rec.get('path')} does not match its checksum (record_sha256 {str(expected)[:12]}..., "
            f"its content gives {actual[:12]}...): it was edited or damaged after it was written")


def read_record(path: Path, strict: bool = False) -> dict | None:
    """The record at ``path`` (with ``path`` added), or None when there is no file. A file that
    cannot be read, or that does not match its own checksum (:func:`checksum_problem`), raises
    :class:`RecordError` naming it with ``strict``, else gives None."""
    try:
        with open(path) as fh:
            rec = json.load(fh)
        if not isinstance(rec, dict) or "repeat" not in rec or "fold" not in rec:
            raise ValueError("not a split record (no repeat/fold)")
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        if not strict:
            return None
        raise RecordError(f"stored record {path} is unreadable ({type(exc).__name__}: {exc}); "
                          f"delete it and rerun its job to recompute the split") from None
    rec["path"] = str(path)
    problem = checksum_problem(rec)
    if problem:
        if not strict:
            return None
        raise RecordError(f"{problem}; rerun its job to recompute the split (the runner recomputes a record "
                          f"that fails its checksum)")
    return rec


def metrics_problem(record: dict) -> str | None:
    """Why the metrics of an ``ok`` record disagree with its ``.npz``, or None when they agree
    (or there is nothing to compare). The error rate, RMSE and log-loss are computed again from the
    stored labels and probabilities. The runner stores the float64 probabilities its metrics were
    computed from, so all three must be equal exactly; a record of an earlier version stored them as
    float32, where the error may differ only on rows whose two highest probabilities are equal in
    float32, the RMSE and log-loss by float32 rounding. Times, memory and the other measurements are
    not determined by the ``.npz``: only ``record_sha256`` covers them (it finds an accident or an
    edit, not an edit whose checksum was recomputed). Call it after :func:`predictions_problem` (the
    file is then the one the record names)."""
    m = record.get("metrics")
    if record.get("status") != "ok" or not isinstance(m, dict) or not record.get("predictions_sha256"):
        return None
    path = Path(record["path"]).with_suffix(".npz")
    try:
        with np.load(path) as z:
            if "y_true" not in z.files or "proba" not in z.files:
                return None
            y, proba = z["y_true"].astype(np.int64), z["proba"]
    except Exception as exc:
        return f"predictions file {path} is unreadable ({type(exc).__name__}: {exc})"
    if proba.ndim != 2 or len(y) != len(proba) or not len(y) or y.min() < 0 or y.max() >= proba.shape[1]:
        return f"predictions file {path} holds arrays of inconsistent shapes"
    from . import metrics as M

    n = len(y)
    exact = proba.dtype == np.float64
    if exact:
        ties = 0
    else:
        top2 = np.sort(proba, axis=1)[:, -2:] if proba.shape[1] > 1 else np.zeros((n, 2), proba.dtype)
        ties = int((top2[:, 1] - top2[:, 0] <= 4 * np.finfo(np.float32).eps * np.abs(top2[:, 1])).sum())
    err = M.error_rate(y, M.predict_from_proba(proba))
    rmse = M.rmse(y, proba)
    bad = []
    if "error" in m and (not isinstance(m["error"], (int, float))
                         or (m["error"] != err if exact else abs(m["error"] - err) * n > ties + 1e-6)):
        bad.append(f"error {m['error']!r}, the predictions give {err:.6g}")
    if "accuracy" in m and "error" in m and isinstance(m["accuracy"], (int, float)) \
            and isinstance(m["error"], (int, float)) and abs(m["accuracy"] - (1.0 - m["error"])) > 1e-9:
        bad.append(f"accuracy {m['accuracy']!r} is not 1 - error")
    if "rmse" in m and isinstance(m["rmse"], (int, float)) and np.isfinite(rmse) \
            and (m["rmse"] != rmse if exact else abs(m["rmse"] - rmse) > 1e-5 * max(1.0, rmse) + 1e-6):
        bad.append(f"rmse {m['rmse']!r}, the predictions give {rmse:.6g}")
    if "log_loss" in m:
        ll = M.log_loss(y, proba)  # float32 probabilities: a relative difference of ~1e-7 per row
        if not isinstance(m["log_loss"], (int, float)) or (np.isfinite(ll) and (
                m["log_loss"] != ll if exact else abs(m["log_loss"] - ll) > 1e-5 * max(1.0, ll) + 1e-6)):
            bad.append(f"log_loss {m['log_loss']!r}, the predictions give {ll:.6g}")
    if bad:
        return (f"stored record {record['path']} disagrees with its predictions file: " + "; ".join(bad))
    return None


def predictions_problem(record: dict) -> str | None:
    """Why the record's predictions file cannot be trusted, or None when it is sound.

    A record with ``predictions_sha256`` is checked against it; an earlier record without
    one is checked by reading every array of the file. A record without predictions
    (a failed or not-applicable split) needs none."""
    path = Path(record["path"]).with_suffix(".npz")
    expected = record.get("predictions_sha256", "absent")
    if expected is None or (expected == "absent" and record.get("status") != "ok"):
        return None
    if not path.exists():
        return f"predictions file {path} is missing"
    if expected != "absent":
        actual = sha256_file(path)
        if actual != expected:
            return (f"predictions file {path} is corrupt or altered: sha256 {actual[:12]}... does not "
                    f"match the record's {str(expected)[:12]}...")
        return None
    try:
        with np.load(path) as z:
            for k in z.files:
                z[k]
    except Exception as exc:  # BadZipFile, EOFError, ValueError, zlib.error ...
        return f"predictions file {path} is unreadable ({type(exc).__name__}: {exc})"
    return None


def load_predictions(record: dict) -> dict:
    """Per-instance arrays of a record: ``test_index``, ``y_true``, ``proba``.

    Raises :class:`RecordError` naming the file when it is missing, does not match the
    record's checksum or cannot be read."""
    path = Path(record["path"]).with_suffix(".npz")
    problem = predictions_problem(record) if record.get("predictions_sha256") else None
    if problem:
        raise RecordError(f"{problem}; rerun its job to recompute the split (the runner recomputes a split whose "
                          f"predictions do not match their checksum)")
    try:
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise RecordError(f"predictions file {path} is missing (record status {record.get('status')!r}); "
                          f"rerun its job to recompute the split") from None
    except Exception as exc:
        raise RecordError(f"predictions file {path} is unreadable ({type(exc).__name__}: {exc}); "
                          f"rerun its job to recompute the split") from None


def iter_record_paths(root: Path | str, experiment: str | None = None, dataset: str | None = None,
                      algo: str | None = None) -> Iterator[Path]:
    root = Path(root)
    pattern = "/".join([
        _safe(experiment) if experiment else "*",
        _safe(dataset) if dataset else "*",
        f"{_safe(algo)}-*" if algo else "*",
        "*",
        "r*-f*.json",
    ])
    yield from sorted(root.glob(pattern))


def _layout_keys(rec: dict) -> dict:
    """``data_key`` / ``protocol_key`` / ``legacy_layout`` of a record; for one of the earlier
    layout the protocol key is computed from its stored ``protocol_config`` and the data
    key is unknown (None)."""
    legacy = not rec.get("data_key")
    pkey = rec.get("protocol_key")
    if not pkey and isinstance(rec.get("protocol_config"), dict):
        pkey = config_hash(protocol_identity(rec["protocol_config"]))
    return {"data_key": rec.get("data_key"), "protocol_key": pkey, "legacy_layout": legacy}


def load(root: Path | str = "results", experiment: str | None = None, dataset: str | None = None,
         algo: str | None = None, status: str | None = None, use_index: bool = True, **filters) -> pd.DataFrame:
    """All stored records under ``root`` as one DataFrame (one row per split).

    Nested fields are flattened with dots (``metrics.error``, ``times.fit_cpu_s``).
    Extra keyword filters match columns exactly, e.g. ``protocol="cv10"``.
    ``config`` names the exact algorithm configuration (:func:`config_column`: group by it, not by
    ``algo``, which a run with overrides shares with its named config).
    ``data_key`` and ``protocol_key`` identify the data and protocol setup (the short
    hashes of ``data_identity`` / ``protocol_identity``); ``legacy_layout`` marks records
    of the earlier layout (their ``data_key`` is None). A legacy record that was migrated
    but whose old file survived (a kill mid-migration) is listed once.
    An unreadable record, one that does not match its own checksum, or whose ``.npz`` does not
    match ``predictions_sha256``, raises :class:`RecordError` naming the file.

    The rows come from the consolidated index ``<root>/_index.parquet`` (see :func:`index_rows`)
    where it is current, and from the JSON records otherwise; ``use_index=False`` reads every
    JSON record. Either way the DataFrame is the same.
    """
    if use_index:
        df = _frame(index_rows(root, experiment, dataset, algo), root)
    else:
        rows = []
        for p in iter_record_paths(root, experiment, dataset, algo):
            rec = read_verified(p)
            if rec is None:
                continue
            rows.append({**_flatten(rec), **_layout_keys(rec)})
        df = pd.DataFrame(rows)
    if df.empty:
        return df
    if df["legacy_layout"].any() and not df["legacy_layout"].all():
        ident = ["experiment", "dataset", "algo_hash", "protocol_key", "seed", "repeat", "fold"]
        new = df.loc[~df["legacy_layout"], ident].astype(str).apply(tuple, axis=1)
        old = df.loc[df["legacy_layout"], ident].astype(str).apply(tuple, axis=1)
        df = df.drop(index=old.index[old.isin(set(new))])
    df = df.assign(config=config_column(df))
    if status is not None:
        df = df[df["status"] == status]
    for k, v in filters.items():
        df = df[df[k] == v]
    return df.reset_index(drop=True)


def config_column(df: pd.DataFrame) -> pd.Series:
    """The exact algorithm configuration of each row, as a readable name: the record's
    ``config_label`` (the job's display name: ``rf100``, or ``rf100[n_estimators=500]`` when the run
    overrode its named config), else the algorithm's name (records written before the label); a name
    that stands for more than one ``algo_hash`` among the rows gets ``@<algo_hash>``, so that two
    configurations never share a value."""
    label = df["algo"].astype(str)
    if "config_label" in df.columns:
        label = df["config_label"].where(df["config_label"].notna() & (df["config_label"] != ""), label).astype(str)
    if "algo_hash" not in df.columns:
        return label
    several = df.groupby(label)["algo_hash"].transform("nunique") > 1
    return label.where(~several, label + "@" + df["algo_hash"].astype(str))


# ------------------------------------------------------------------ the consolidated index
INDEX_NAME = "_index.parquet"
INDEX_VERSION = 2
#: a file or folder changed this recently (seconds) is not trusted to the index: a record rewritten
#: in the same clock tick as it was read would not change its mtime again
_INDEX_SETTLE_S = 2.0
#: the index's own columns besides the record fields (``c:<field>``)
_INDEX_COLUMNS = ("_dir", "_name", "_dir_mtime_ns", "_keys", "_size", "_mtime_ns", "_npz_size", "_npz_mtime_ns")


def read_verified(path: Path) -> dict | None:
    """:func:`read_record` (strict: its own checksum verified) whose ``.npz`` also matches the
    record's ``predictions_sha256`` (when it has one) and whose error, RMSE and log-loss are those
    of that ``.npz`` (:func:`metrics_problem`), or None when there is no file. A checksum mismatch
    is read again a few times before :class:`RecordError` is raised (a worker replacing the split
    writes the ``.npz`` just before the ``.json``)."""
    import time

    for attempt in range(4):
        rec = read_record(path, strict=True)
        if rec is None or not isinstance(rec.get("predictions_sha256"), str):
            return rec
        problem = predictions_problem(rec)
        if not problem:
            problem = metrics_problem(rec)
            if problem:  # the files agree with their checksums, so reading again would not help
                raise RecordError(f"{problem}; rerun its job to recompute the split (the runner recomputes a "
                                  f"split whose metrics disagree with its predictions)")
            return rec
        time.sleep(0.05 * (attempt + 1))
    raise RecordError(f"{problem}; rerun its job to recompute the split (the runner recomputes a split whose "
                      f"predictions do not match their checksum)")


def _stat(path: Path) -> tuple[int, int]:
    """(size, mtime_ns) of a file, (-1, -1) when there is none."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return -1, -1
    return st.st_size, st.st_mtime_ns


def index_rows(root: Path | str, experiment: str | None = None, dataset: str | None = None,
               algo: str | None = None):
    """The index rows (a ``pyarrow.Table``) of the records :func:`iter_record_paths` lists, in its
    order, bringing ``<root>/_index.parquet`` up to date first.

    The index is a validated cache of the JSON records, which stay the source of truth: one row per
    record with its folder and file name, the size and mtime of its ``.json`` and ``.npz`` when it
    was read, and the record's flattened fields (:func:`_flatten`, :func:`_layout_keys`): scalar
    fields as typed Parquet columns, nested or mixed ones (``algo_config``, lists in ``extra``) as
    JSON text. A row stands only while both files keep the size and mtime it holds; a record whose
    files changed (replaced by rename, or rewritten in place), changed within ``_INDEX_SETTLE_S``
    seconds of being read, or is new, is read again from its JSON file and verified
    (:func:`read_verified`: its own checksum and its ``.npz``'s), and rows of removed records are
    dropped. The index is then rewritten atomically (temporary file and ``os.replace``), so a reader
    sees the old index or the new one. An index that cannot be read, is of another version, or
    lacks a column its metadata names (stale, partial or hand-made) is rebuilt from the records by
    itself; so is one that cannot be decoded. A results folder that cannot be written is read all
    the same, only not indexed. :func:`rebuild_index` rebuilds it on request.
    """
    try:
        return _index_rows(root, experiment, dataset, algo, _read_index(Path(root)))
    except RecordError:
        raise
    except Exception as exc:  # an index that does not decode is only a cache: rebuild it
        log.info("results index under %s could not be used (%s: %s); rebuilding it from the records",
                 root, type(exc).__name__, exc)
        return _index_rows(root, experiment, dataset, algo, None)


def _index_rows(root, experiment, dataset, algo, old):
    import time

    root = Path(root)
    pattern = "/".join([_safe(experiment) if experiment else "*", _safe(dataset) if dataset else "*",
                        f"{_safe(algo)}-*" if algo else "*", "*"])
    dirs = {str(d.relative_to(root)): d for d in sorted(root.glob(pattern)) if d.is_dir()}
    known: dict[tuple, tuple] = {}
    if old is not None:
        cols = [old.column(c).to_pylist() for c in ("_dir", "_name", "_size", "_mtime_ns", "_npz_size",
                                                   "_npz_mtime_ns")]
        for d, n, *stats in zip(*cols):
            known.setdefault((d, n), tuple(stats))
    now = time.time_ns()
    settle_ns = _INDEX_SETTLE_S * 1e9
    fresh, present = {}, set()
    for rel, d in dirs.items():
        dir_mtime = d.stat().st_mtime_ns
        for p in sorted(d.glob("r*-f*.json")):
            size, mtime = _stat(p)
            npz_size, npz_mtime = _stat(p.with_suffix(".npz"))
            stats = (size, mtime, npz_size, npz_mtime)
            if size < 0:
                continue  # removed since the folder was listed
            present.add((rel, p.name))
            if known.get((rel, p.name)) == stats and mtime >= 0:
                continue
            rec = read_verified(p)
            if rec is None:
                present.discard((rel, p.name))
                continue
            settled = all(now - t > settle_ns for t in (mtime, npz_mtime, dir_mtime) if t >= 0)
            if not settled:  # not trusted yet: read from its file next time
                stats = (size, -1, npz_size, npz_mtime)
            fresh[(rel, p.name)] = (rel, p.name, dir_mtime if settled else -1, stats,
                                    {**_flatten(rec), **_layout_keys(rec)})
    gone = {k for k in known if _in_pattern(k[0], pattern) and k not in present}
    if fresh or gone:
        entries = _decode_entries(old, lambda k: k not in fresh and k not in gone, root) if old is not None else []
        entries += list(fresh.values())
        table = _encode(entries)
        _write_index(root, table)
    else:
        table = old
    if table is None or table.num_rows == 0:
        return None
    import pyarrow.compute as pc

    mask = pc.is_in(table.column("_dir"), value_set=_pa().array(sorted(dirs), type=_pa().string()))
    sub = table.filter(mask)
    if sub.num_rows == 0:
        return None
    keys = [(*Path(d).parts, n) for d, n in zip(sub.column("_dir").to_pylist(), sub.column("_name").to_pylist())]
    order = sorted(range(sub.num_rows), key=keys.__getitem__)  # as sorted(root.glob(...)) orders the files
    return sub.take(_pa().array(order, _pa().int64()))


def rebuild_index(root: Path | str) -> int:
    """Rebuild ``<root>/_index.parquet`` from every JSON record; return the number of records."""
    path = Path(root) / INDEX_NAME
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    table = index_rows(root)
    return 0 if table is None else table.num_rows


def _pa():
    import pyarrow

    return pyarrow


def _in_pattern(rel: str, pattern: str) -> bool:
    from fnmatch import fnmatchcase

    parts, pats = Path(rel).parts, pattern.split("/")
    return len(parts) == len(pats) and all(fnmatchcase(a, b) for a, b in zip(parts, pats))


def _read_index(root: Path):
    """The index table, or None when there is none or it cannot be read (it is then rebuilt)."""
    import pyarrow.parquet as pq

    path = root / INDEX_NAME
    try:
        table = pq.read_table(path)
        meta = json.loads(table.schema.metadata[b"bench_index"])
        if meta.get("version") != INDEX_VERSION:
            return None
        _check_index(table, meta)
        return table
    except FileNotFoundError:
        return None
    except Exception as exc:  # a damaged, partial or stale index is only a cache: rebuild it
        log.info("results index %s unusable (%s: %s); rebuilding it from the records", path,
                 type(exc).__name__, exc)
        return None


def _check_index(table, meta: dict) -> None:
    """Raise ValueError unless ``table`` has every column its metadata names, with key orders that
    name only known fields and rows that point at existing key orders."""
    names = set(table.column_names)
    missing = [c for c in _INDEX_COLUMNS if c not in names]
    kinds, orders = meta.get("kinds"), meta.get("orders")
    if not isinstance(kinds, dict) or not isinstance(orders, list):
        raise ValueError("index metadata lacks kinds/orders")
    missing += [f"c:{k}" for k, kind in kinds.items() if kind != "path" and f"c:{k}" not in names]
    if missing:
        raise ValueError(f"index lacks the columns {missing[:5]}")
    if any(k not in kinds for o in orders for k in o):
        raise ValueError("index key orders name fields it has no kind for")
    if table.num_rows:
        import pyarrow.compute as pc

        lo, hi = pc.min_max(table.column("_keys")).values()
        if lo.as_py() is None or lo.as_py() < 0 or hi.as_py() >= len(orders):
            raise ValueError("index rows point at key orders it does not have")


def _write_index(root: Path, table) -> None:
    import pyarrow.parquet as pq

    buf = _pa().BufferOutputStream()
    pq.write_table(table, buf)
    try:
        atomic_write_bytes(root / INDEX_NAME, buf.getvalue().to_pybytes())
    except OSError as exc:  # a read-only results folder: read, not indexed
        log.info("cannot write the results index under %s (%s); records read from their files", root, exc)


_SCALAR_KINDS = {str: "str", bool: "bool", int: "int", float: "float"}


def _encode(entries: list) -> "object":
    """Index table of ``(dir, name, dir_mtime_ns, (size, mtime_ns, npz_size, npz_mtime_ns), row)``
    entries; the schema metadata keeps each column's kind and each row's key order (as an index
    into the distinct key orders)."""
    pa = _pa()
    orders: dict[tuple, int] = {}
    row_order = []
    for *_, row in entries:
        row_order.append(orders.setdefault(tuple(row), len(orders)))
    keys = list(dict.fromkeys(k for o in orders for k in o))
    cols = {"_dir": pa.array([e[0] for e in entries], pa.string()),
            "_name": pa.array([e[1] for e in entries], pa.string()),
            "_dir_mtime_ns": pa.array([e[2] for e in entries], pa.int64()),
            "_keys": pa.array(row_order, pa.int32())}
    for i, c in enumerate(("_size", "_mtime_ns", "_npz_size", "_npz_mtime_ns")):
        cols[c] = pa.array([e[3][i] for e in entries], pa.int64())
    kinds = {}
    absent = object()
    for k in keys:
        if k == "path":  # the record's own file, made again from the results root at load time
            kinds[k] = "path"
            continue
        vals = [e[4].get(k, absent) for e in entries]
        types = {type(v) for v in vals if v is not absent}
        kind = _SCALAR_KINDS.get(next(iter(types))) if len(types) == 1 else None
        if kind is None:
            kind = "json"
            arr = pa.array([None if v is absent else json.dumps(v, allow_nan=True) for v in vals], pa.string())
        else:
            typ = {"str": pa.string(), "bool": pa.bool_(), "int": pa.int64(), "float": pa.float64()}[kind]
            arr = pa.array([None if v is absent else v for v in vals], typ, from_pandas=False)
        cols[f"c:{k}"] = arr
        kinds[k] = kind
    meta = {"version": INDEX_VERSION, "kinds": kinds, "orders": [list(o) for o in orders]}
    return pa.table(cols).replace_schema_metadata({"bench_index": json.dumps(meta)})


def _decode_entries(table, keep, root: Path) -> list:
    """The entries (as :func:`_encode` takes them) of the rows whose ``(dir, name)`` ``keep`` accepts."""
    meta = json.loads(table.schema.metadata[b"bench_index"])
    dirs, names = table.column("_dir").to_pylist(), table.column("_name").to_pylist()
    rows_i = [i for i, k in enumerate(zip(dirs, names)) if keep(k)]
    if not rows_i:
        return []
    sub = table.take(rows_i)
    values = {k: sub.column(f"c:{k}").to_pylist() for k, kind in meta["kinds"].items() if kind != "path"}
    out = []
    stats = list(zip(*(sub.column(c).to_pylist() for c in ("_size", "_mtime_ns", "_npz_size", "_npz_mtime_ns"))))
    for j, (d, n, m, o) in enumerate(zip(sub.column("_dir").to_pylist(), sub.column("_name").to_pylist(),
                                         sub.column("_dir_mtime_ns").to_pylist(), sub.column("_keys").to_pylist())):
        row = {}
        for k in meta["orders"][o]:
            if meta["kinds"][k] == "path":
                row[k] = str(root / d / n)
                continue
            v = values[k][j]
            row[k] = json.loads(v) if meta["kinds"][k] == "json" else v
        out.append((d, n, m, stats[j], row))
    return out


def _frame(table, root) -> pd.DataFrame:
    """The DataFrame ``pd.DataFrame(rows)`` would give for the index rows of ``table``: columns in
    the order the rows first name them, NaN where a row lacks a field, the same dtypes. Equal nested
    cells (the ``algo_config`` of one algorithm's records) are decoded once and share one object:
    treat them as read-only, as every reader here does."""
    if table is None or table.num_rows == 0:
        return pd.DataFrame()
    meta = json.loads(table.schema.metadata[b"bench_index"])
    row_orders = table.column("_keys").to_numpy()
    used = list(dict.fromkeys(row_orders.tolist()))
    columns = list(dict.fromkeys(k for o in used for k in meta["orders"][o]))
    data = {}
    for k in columns:
        has = np.isin(row_orders, [o for o in used if k in set(meta["orders"][o])])
        kind = meta["kinds"][k]
        if kind == "path":
            vals = [str(Path(root) / d / n) for d, n in zip(table.column("_dir").to_pylist(),
                                                              table.column("_name").to_pylist())]
            data[k] = vals if has.all() else [v if h else np.nan for v, h in zip(vals, has)]
            continue
        col = table.column(f"c:{k}")
        if kind in ("int", "float", "bool") and has.all():
            data[k] = col.to_numpy()
            continue
        vals = col.to_pylist()
        if kind == "json":
            cache: dict = {}
            vals = [cache[v] if v in cache else cache.setdefault(v, json.loads(v)) if v is not None else None
                    for v in vals]
        if not has.all():
            vals = [v if h else np.nan for v, h in zip(vals, has)]
        data[k] = vals
    return pd.DataFrame(data)


def _flatten(rec: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in rec.items():
        if isinstance(v, dict) and k in ("metrics", "times", "memory", "extra"):
            for kk, vv in v.items():
                out[f"{k}.{kk}"] = vv
        else:
            out[f"{prefix}{k}"] = v
    return out
