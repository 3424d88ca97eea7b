"""The code that makes a record: a fingerprint of the algorithm's own source and of the harness
code that computes the metrics, stored in every record (``code_fingerprint``, ``code_files``).

What counts as an algorithm's code (:func:`algorithm_sources`): for every ``_target_`` of its
config (the estimator and the preprocessing steps, nested ones too), the module that defines it and
the modules that one imports, transitively, within the same top-level package (``algorithms``, or
a user's own package on ``PYTHONPATH``); read from the files, with ``ast``, without importing them.
A target in an installed library (scikit-learn, xgboost: a package under ``site-packages``) counts
as ``<distribution>==<version>``. So an edit of one classifier's module changes that classifier's
fingerprint and those of the classifiers importing it, and no other; an edit of a shared module
(``algorithms/_base.py``) changes every classifier that imports it.

The harness code that changes the numbers (:data:`HARNESS_FILES`, :data:`HARNESS_FUNCTIONS`):
``bench/metrics.py`` and the runner's path from a split to its metrics (building and fitting the
steps, the probabilities, the anytime evaluation). The rest of the harness (the store, the
reports, messages) does not move a stored number and is left out, so editing it reuses records.

The fingerprint is a property of the record, not of its key: it is in no config hash and no folder
name (a record made by other code is recomputed in place, see ``bench.runner._reusable``).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from pathlib import Path

#: harness files whose every line can change a stored number (relative to the repository root)
HARNESS_FILES = ("bench/metrics.py",)
#: functions of the runner between a split and its metrics (the rest of runner.py is bookkeeping)
HARNESS_FUNCTIONS = ("run_split", "anytime_evaluation", "_full_proba", "build_estimator", "instantiate",
                     "_build", "inject", "feature_metadata", "fit_steps", "estimator_seed")

_ROOT = Path(__file__).resolve().parents[1]


def targets(node) -> list[str]:
    """Every ``_target_`` string in a (nested) config, in order, without repeats."""
    out: list[str] = []

    def walk(n):
        if isinstance(n, dict):
            t = n.get("_target_")
            if isinstance(t, str):
                out.append(t)
            for v in n.values():
                walk(v)
        elif isinstance(n, (list, tuple)):
            for v in n:
                walk(v)

    walk(node)
    return list(dict.fromkeys(out))


@functools.lru_cache(maxsize=None)
def _package_dir(top: str) -> tuple[str | None, bool]:
    """(folder holding the top-level package or module ``top``, whether it is an installed
    library); (None, True) when it cannot be found."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None, True
    if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
        return None, True
    origin = Path(spec.origin).resolve()
    base = origin.parent.parent if origin.name == "__init__.py" else origin.parent
    own = top == "algorithms" and base == _ROOT  # shipped beside bench, wherever it is installed
    library = bool(set(origin.parts) & {"site-packages", "dist-packages"}) and not own
    return str(base), library


@functools.lru_cache(maxsize=None)
def _library_version(top: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(top)
    except metadata.PackageNotFoundError:
        pass
    for dist in metadata.packages_distributions().get(top, []):
        try:
            return f"{dist} {metadata.version(dist)}"
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


def _module_file(base: Path, module: str) -> Path | None:
    p = base.joinpath(*module.split("."))
    for cand in (p.with_suffix(".py"), p / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def _target_module(base: Path, target: str) -> str | None:
    """The longest prefix of the dotted ``target`` that is a module file under ``base``."""
    parts = target.split(".")
    for n in range(len(parts), 0, -1):
        if _module_file(base, ".".join(parts[:n])) is not None:
            return ".".join(parts[:n])
    return None


def _imports(path: Path, module: str, is_package: bool) -> set[str]:
    """Dotted names of the modules ``path`` imports (relative imports resolved, ``from m import x``
    giving both ``m`` and ``m.x``, for ``x`` may be a submodule). Parsing is the slow part (tens of
    ms for a large module), so the answer is kept by the file's content digest, module name and kind
    (:func:`_import_cache`): an edited file is a new key, so a kept answer is always the file's."""
    try:
        data = path.read_bytes()
    except OSError:
        return set()
    key = f"{_digest(data)}|{module}|{int(is_package)}"
    cache = _import_cache()
    hit = cache["entries"].get(key)
    if isinstance(hit, list):
        cache["used"].add(key)
        return set(hit)
    out = _parse_imports(data, path, module, is_package)
    cache["entries"][key] = sorted(out)
    cache["used"].add(key)
    cache["dirty"] = True
    return out


def _parse_imports(data: bytes, path: Path, module: str, is_package: bool) -> set[str]:
    try:
        tree = ast.parse(data, filename=str(path))
    except (SyntaxError, ValueError):
        return set()
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                src = ".".join(base + ([node.module] if node.module else []))
            else:
                src = node.module or ""
            if src:
                out.add(src)
                out.update(f"{src}.{a.name}" for a in node.names if a.name != "*")
    return out


#: version of the import cache's file; entries of another version are not read
_IMPORT_CACHE_VERSION = 1
_IMPORT_CACHE: dict | None = None


def _import_cache_path() -> Path:
    from .data.cache import cache_dir

    return cache_dir() / "codeid-imports.json"


def _import_cache() -> dict:
    """The imports found per file content (:func:`_imports`): this process's, started from the user
    cache's copy (``codeid-imports.json``, written by :func:`_save_import_cache`). An unreadable copy
    is ignored."""
    global _IMPORT_CACHE
    if _IMPORT_CACHE is None:
        entries = {}
        try:
            doc = json.loads(_import_cache_path().read_text())
            if isinstance(doc, dict) and doc.get("version") == _IMPORT_CACHE_VERSION:
                entries = {k: v for k, v in doc.get("entries", {}).items() if isinstance(v, list)}
        except (OSError, ValueError):
            pass
        _IMPORT_CACHE = {"entries": entries, "used": set(), "dirty": False}
    return _IMPORT_CACHE


def _save_import_cache() -> None:
    """Write the import cache back when this process parsed a file it did not hold: the entries
    this process used, and the others up to :data:`_IMPORT_CACHE_MAX` (so it cannot grow without
    bound as files are edited). Written whole and atomically; a cache that cannot be written is
    simply not kept."""
    cache = _IMPORT_CACHE
    if cache is None or not cache["dirty"]:
        return
    from .fileio import atomic_write_bytes, deferred_fsync

    entries = {k: cache["entries"][k] for k in cache["used"]}
    for k, v in cache["entries"].items():
        if len(entries) >= _IMPORT_CACHE_MAX:
            break
        entries.setdefault(k, v)
    try:
        with deferred_fsync():  # a cache: no need to wait for the disk
            atomic_write_bytes(_import_cache_path(), json.dumps(
                {"version": _IMPORT_CACHE_VERSION, "entries": entries}, sort_keys=True).encode())
        cache["dirty"] = False
    except OSError:
        pass


#: the most files the import cache keeps (a few hundred modules is every package a run uses)
_IMPORT_CACHE_MAX = 2000


def module_closure(base: Path, module: str) -> dict[str, Path]:
    """``module`` and every module it imports, transitively, within its own top-level package
    (files under ``base``), with their parent packages' ``__init__.py``: dotted name -> file."""
    top = module.split(".")[0]
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        m = todo.pop()
        if m in seen or m.split(".")[0] != top:
            continue
        f = _module_file(base, m)
        if f is None:
            continue
        seen[m] = f
        parts = m.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # the packages it lives in
        todo.extend(_imports(f, m, f.name == "__init__.py"))
    return seen


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def algorithm_sources(algo_cfg: dict) -> dict[str, str]:
    """The algorithm's code as ``{file relative to its package's folder, or library name: digest or
    version}`` (see the module docstring)."""
    out: dict[str, str] = {}
    for target in targets(algo_cfg):
        top = target.split(".")[0]
        base, library = _package_dir(top)
        if library:
            out[f"{top} (library)"] = _library_version(top) if base else "unknown"
            continue
        module = _target_module(Path(base), target)
        if module is None:
            out[target] = "unknown"
            continue
        for m, f in module_closure(Path(base), module).items():
            rel = f.relative_to(base).as_posix()
            out.setdefault(rel, _digest(f.read_bytes()))
    return out


@functools.lru_cache(maxsize=1)
def harness_sources() -> dict[str, str]:
    """The harness code that computes a record's numbers: :data:`HARNESS_FILES` and the source of
    :data:`HARNESS_FUNCTIONS` of ``bench.runner`` (read from the files, once per process). The
    digest of the functions' source is kept in the import cache (:func:`_import_cache`) by the
    file's content digest and the list of functions, so a kept digest is always this file's:
    parsing ``runner.py`` is the slow part of a job's start."""
    out = {rel: _digest((_ROOT / rel).read_bytes()) for rel in HARNESS_FILES}
    data = (_ROOT / "bench" / "runner.py").read_bytes()
    key = f"metric-path|{_digest(data)}|{','.join(HARNESS_FUNCTIONS)}"
    cache = _import_cache()
    hit = cache["entries"].get(key)
    if isinstance(hit, list) and len(hit) == 1 and isinstance(hit[0], str) and len(hit[0]) == 16:
        digest = hit[0]
    else:
        digest = _metric_path_digest(_source_text(data))
        cache["entries"][key] = [digest]
        cache["dirty"] = True
    cache["used"].add(key)
    out["bench/runner.py (metric path)"] = digest
    return out


def _source_text(data: bytes) -> str:
    """``data`` decoded as :meth:`pathlib.Path.read_text` decodes a file (the locale's encoding,
    universal newlines)."""
    import io

    return io.TextIOWrapper(io.BytesIO(data)).read()


def _metric_path_digest(text: str) -> str:
    """The digest of the source of :data:`HARNESS_FUNCTIONS` in ``text`` (``bench/runner.py``):
    each top-level function's source as :func:`ast.get_source_segment` gives it, in the list's
    order, joined by newlines. The file's lines are split once (``get_source_segment`` splits the
    whole text at each call)."""
    lines = _source_lines(text)
    defs = {}
    for n in ast.parse(text).body:
        if isinstance(n, ast.FunctionDef) and n.name in HARNESS_FUNCTIONS:
            defs[n.name] = _segment(lines, n)
    missing = [f for f in HARNESS_FUNCTIONS if f not in defs]
    if missing:
        raise RuntimeError(f"bench.codeid.HARNESS_FUNCTIONS names functions bench/runner.py lacks: {missing}")
    return _digest("\n".join(defs[f] for f in HARNESS_FUNCTIONS).encode())


def _source_lines(text: str) -> list[str]:
    """The lines of ``text`` with their ends, split where :mod:`ast` counts lines (``\\n``, ``\\r\\n``,
    ``\\r``; not at a form feed or the other breaks :meth:`str.splitlines` knows)."""
    import re

    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _segment(lines: list[str], node) -> str:
    """The source of ``node`` from the split ``lines``, as :func:`ast.get_source_segment` (not
    padded) gives it: columns are UTF-8 byte offsets."""
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode()
    head = lines[first].encode()[node.col_offset:].decode()
    tail = lines[last].encode()[:node.end_col_offset].decode()
    return "".join([head, *lines[first + 1:last], tail])


def code_identity(algo_cfg: dict) -> tuple[str, dict[str, str]]:
    """(fingerprint, its parts) of the code that makes a record of ``algo_cfg``: the algorithm's
    sources (:func:`algorithm_sources`) and the harness's (:func:`harness_sources`)."""
    parts = {**algorithm_sources(algo_cfg), **harness_sources()}
    _save_import_cache()
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return _digest(text.encode()), dict(sorted(parts.items()))


def changed_parts(old: dict | None, new: dict) -> list[str]:
    """The parts (files, libraries) whose digest differs between two records' ``code_files``."""
    old = old if isinstance(old, dict) else {}
    return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))

