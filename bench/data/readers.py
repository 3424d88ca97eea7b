"""Readers for local data files: CSV (optionally gzip), ARFF (dense and sparse,
optionally gzip) and Parquet.

Each reader returns a :class:`Table`: the raw columns before the dataset config
picks the target, drops identifiers and declares nominal attributes. Parse
errors raise :class:`DataError` naming the file and the line.
"""

from __future__ import annotations

import gzip
import io
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._deferred import LazyModule
from .dataset import DataError

pd = LazyModule("pandas")  # imported when a file is parsed (a job reading a built copy never needs it)

MISSING_TOKENS = ["?", "", "NA", "nan", "NaN"]


@dataclass
class Table:
    """Raw columns of a file.

    ``frame`` holds dense columns (object dtype for nominal ones, numbers for
    numeric ones); ``sparse`` (CSR) is set instead for sparse ARFF, with the
    nominal class column kept aside in ``sparse_target``. ``declared`` maps a
    column name to the nominal value list its file declares (ARFF), so codes can
    follow the file's own order.
    """

    frame: pd.DataFrame | None
    declared: dict
    sparse: sp.csr_matrix | None = None
    sparse_columns: list | None = None
    sparse_target: pd.Series | None = None
    sparse_target_name: str | None = None
    #: ARFF ``string`` / ``date`` attributes: free text the registry will not guess a type for
    string_columns: tuple = ()


def _open_text(path: Path):
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


#: the largest decompressed size of a data file that is parsed (bytes; None: no cap); a job sets it
#: from ``data_max_gb`` through :func:`size_limit`
DEFAULT_MAX_BYTES = 1 << 30
_MAX_BYTES = [DEFAULT_MAX_BYTES]
#: how the command that runs sets the cap, for the message of a refused file
_OPTION = [("a job", "data_max_gb=", "data_max_gb=null")]


@contextmanager
def size_limit(max_bytes: int | None, option: tuple | None = None):
    """Parse data files of at most ``max_bytes`` decompressed bytes in the block (None: no cap);
    ``option`` = (who parses, the option's prefix, the option giving no cap), how the running
    command sets the cap, for the message of a refused file."""
    _MAX_BYTES.append(max_bytes)
    _OPTION.append(option or _OPTION[-1])
    try:
        yield
    finally:
        _MAX_BYTES.pop()
        _OPTION.pop()


def _too_large(path: Path, cap: int, decoded: str = "once decompressed") -> DataError:
    who, opt, none = _OPTION[-1]
    return DataError(
        f"data file {path} ({path.stat().st_size / 2**20:.1f} MiB on disk) holds more than {cap / 2**30:.2f} GiB "
        f"of data {decoded}, more than {who} parses ({opt}{cap / 2**30:g}); it was not read. If the "
        f"file is genuine, raise the cap with {opt}<GiB> (or {none} for none)")


def decompressed_size(path: Path, cap: int | None = None) -> int:
    """The size of ``path``'s content once decompressed (gzip: by streaming it through, without
    keeping it, about 1 s per GiB; parquet: the uncompressed size its metadata declares; else the file size). With
    ``cap``, a gzip file is read only until it passes ``cap`` (the answer is then ``> cap``)."""
    name = path.name.lower()
    if name.endswith(".gz"):  # (gzip's trailer cannot be trusted: mod 2**32, last member only, garbage if truncated)
        total = 0
        with gzip.open(path, "rb") as fh:
            while True:
                block = fh.read(1 << 22)
                if not block:
                    return total
                total += len(block)
                if cap is not None and total > cap:
                    return total
    if name.endswith(".parquet"):
        import pyarrow.parquet as pq

        meta = pq.ParquetFile(path).metadata
        return sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return path.stat().st_size


def check_size(path: Path, max_bytes: int | None = None) -> None:
    """Raise :class:`DataError` when ``path`` decompresses to more than ``max_bytes`` (default: the
    current :func:`size_limit`), before anything parses it: a small compressed file can inflate to
    gigabytes (a decompression bomb, or a wrong file) and its parse would take many times that."""
    cap = _MAX_BYTES[-1] if max_bytes is None else max_bytes
    if not cap:
        return
    size = decompressed_size(path, cap)
    if size > cap:
        raise _too_large(path, cap)


def read_table(path: Path) -> Table:
    """Dispatch on the file name: .csv[.gz], .tsv[.gz], .arff[.gz], .parquet. A file whose content
    exceeds the decompressed-size cap (:func:`size_limit`, :func:`check_size`) is refused unread."""
    name = path.name.lower()
    try:
        check_size(path)
        if name.endswith((".csv", ".csv.gz")):
            return _read_delimited(path, ",")
        if name.endswith((".tsv", ".tsv.gz")):
            return _read_delimited(path, "\t")
        if name.endswith((".arff", ".arff.gz")):
            return read_arff(path)
        if name.endswith(".parquet"):
            return Table(_read_parquet(path), {})
    except DataError:
        raise
    except (OSError, EOFError, UnicodeDecodeError, ValueError, pd.errors.ParserError) as exc:
        if "out of memory" in str(exc):  # pandas' C parser reports a failed allocation as a parse error
            raise MemoryError(f"parsing data file {path}: {exc}") from None
        from .cache import shipped_dir

        fix = (f"restore the shipped copy with `git checkout -- datasets/{path.name}`"
               if path.resolve().parent == shipped_dir() else "replace it with a good copy")
        raise DataError(f"could not parse data file {path}: {exc}. The file may be truncated or corrupt: {fix}") \
            from exc
    raise DataError(f"unsupported data file type: {path} (use csv, csv.gz, arff, arff.gz or parquet)")


#: rows decoded at a time from a Parquet file, so its decoded size is checked as it grows
PARQUET_BATCH_ROWS = 65536


def _read_parquet(path: Path) -> pd.DataFrame:
    """A Parquet file as a DataFrame, decoded a batch of rows at a time and refused
    (:class:`DataError`) as soon as what is decoded passes the cap of :func:`size_limit`: the sizes
    a file's metadata declares are the writer's word, not what its pages decode to."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cap = _MAX_BYTES[-1]
    pf = pq.ParquetFile(path)
    batches, total = [], 0
    for batch in pf.iter_batches(batch_size=PARQUET_BATCH_ROWS):
        total += batch.nbytes
        if cap and total > cap:
            raise _too_large(path, cap, "once decoded")
        batches.append(batch)
    table = pa.Table.from_batches(batches, schema=pf.schema_arrow) if batches else pf.schema_arrow.empty_table()
    return table.to_pandas()


def _header_names(path: Path, sep: str) -> list[str]:
    import csv

    with _open_text(path) as fh:
        for row in csv.reader(fh, delimiter=sep, skipinitialspace=True):
            return [c.strip() for c in row]
    return []


def _read_delimited(path: Path, sep: str) -> Table:
    names = _header_names(path, sep)
    dup = sorted({c for c in names if names.count(c) > 1})
    if dup:
        raise DataError(f"data file {path}: the header names column(s) {dup[:5]} more than once; column names must be "
                        f"unique (bench does not rename them): rename the duplicates in the header line")
    frame = pd.read_csv(
        path,
        sep=sep,
        na_values=MISSING_TOKENS,
        keep_default_na=False,
        skipinitialspace=True,
        low_memory=False,
    )
    frame.columns = [str(c).strip() for c in frame.columns]
    return Table(frame, {})


# ---------------------------------------------------------------------- ARFF
_ATTR_RE = re.compile(r"^@attribute\s+('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)\s+(.*)$", re.I)


def _unquote(token: str) -> str:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return token[1:-1].replace("\\'", "'").replace('\\"', '"')
    return token


def _split_nominal(spec: str) -> list:
    body = spec.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise ValueError(f"bad nominal specification {spec!r}")
    body = body[1:-1]
    out, cur, quote = [], [], None
    for ch in body:
        if quote:
            if ch == quote:
                quote = None
            else:
                cur.append(ch)
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if cur or out:
        out.append("".join(cur).strip())
    return out


def read_arff(path: Path) -> Table:
    """Parse an ARFF file, dense or sparse (``{index value, ...}`` rows).

    Nominal attributes keep their declared value lists (``Table.declared``), so
    codes follow the file's order as Weka's do. Sparse files with only numeric
    attributes besides the class become a CSR matrix (text data); absent
    entries are 0 as the ARFF specification says.

    Our own parser, not liac-arff (``arff.load``), because it is faster on the sparse text sets
    and gives the same matrix and classes: best of 3 on this machine (loaded), wap (1560 x 8460,
    220482 non-zeros) 0.99 s against liac-arff's 1.70 s with ``return_type=COO``, la1 (3204 x
    31472, 484024 non-zeros) 1.97 s against 3.93 s. Dense data goes through pandas' C CSV
    parser, where liac-arff's pure-Python row parsing would be slower still.
    """
    names, kinds, declared = [], [], {}
    with _open_text(path) as fh:
        lineno = 0
        for raw in fh:
            lineno += 1
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            low = line.lower()
            if low.startswith("@relation"):
                continue
            if low.startswith("@attribute"):
                m = _ATTR_RE.match(line)
                if not m:
                    raise DataError(f"{path}: line {lineno}: cannot parse attribute declaration {line[:80]!r}")
                name, spec = _unquote(m.group(1)), m.group(2).strip()
                names.append(name)
                if spec.startswith("{"):
                    declared[name] = _split_nominal(spec)
                    kinds.append("nominal")
                else:
                    kind = spec.split()[0].lower()
                    if kind in ("numeric", "real", "integer"):
                        kinds.append("numeric")
                    elif kind in ("string", "date"):  # see Table.string_columns
                        kinds.append(kind)
                    else:
                        raise DataError(f"{path}: line {lineno}: unknown attribute type {spec!r}")
                continue
            if low.startswith("@data"):
                break
            raise DataError(f"{path}: line {lineno}: unexpected header line {line[:80]!r}")
        else:
            raise DataError(f"{path}: no @data section; the file is truncated or not ARFF")
        body = fh.read()
    if not names:
        raise DataError(f"{path}: no @attribute declarations")
    first = next((ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("%")), "")
    if first.startswith("{"):
        return _read_sparse_arff_body(path, body, names, kinds, declared)
    frame = pd.read_csv(
        io.StringIO(body),
        header=None,
        names=names,
        na_values=["?"],
        keep_default_na=False,
        quotechar="'",
        skipinitialspace=True,
        comment="%",
        dtype={n: object for n, k in zip(names, kinds) if k != "numeric"},
    )
    for n, k in zip(names, kinds):
        # pandas 2 gives object, pandas 3 str (or an Arrow string dtype) for a column with any text
        if k == "numeric" and not pd.api.types.is_numeric_dtype(frame[n].dtype):
            frame[n] = numeric_column(frame[n], f"{path}: numeric attribute {n!r}")
    return Table(frame, declared, string_columns=tuple(n for n, k in zip(names, kinds) if k in ("string", "date")))


def numeric_column(series: pd.Series, what: str) -> pd.Series:
    """``series`` as numbers (missing stays missing); DataError naming ``what``, the first data row
    (1-based) and the value when one is not a number."""
    values = pd.to_numeric(series, errors="coerce")
    bad = values.isna().to_numpy() & series.notna().to_numpy()
    if bad.any():
        rows = np.flatnonzero(bad)
        shown = ", ".join(repr(series.iloc[i]) for i in rows[:3])
        raise DataError(f"{what} holds a value that is not a number: {series.iloc[rows[0]]!r} in data row "
                        f"{rows[0] + 1}" + (f" ({rows.size} such rows, e.g. {shown})" if rows.size > 1 else "")
                        + "; fix the file, mark missing values with '?', or declare the column nominal")
    return values


def _read_sparse_arff_body(path, body, names, kinds, declared) -> Table:
    n_attr = len(names)
    strings = [n for n, k in zip(names[:-1], kinds[:-1]) if k in ("string", "date")]
    if strings:
        raise DataError(f"{path}: sparse ARFF with string/date attributes {strings[:5]} is not supported; "
                        f"remove them from the file or declare them nominal ({{v1,v2,...}}) in its header")
    nominal_idx = [i for i, k in enumerate(kinds) if k != "numeric"]
    rows, cols, vals = [], [], []
    nominal_values = {i: [] for i in nominal_idx}
    n_rows = 0
    for lineno, ln in enumerate(body.splitlines(), 1):
        ln = ln.strip()
        if not ln or ln.startswith("%"):
            continue
        if not (ln.startswith("{") and ln.endswith("}")):
            raise DataError(f"{path}: data line {lineno} is not a sparse row: {ln[:60]!r}")
        seen = {}
        inner = ln[1:-1].strip()
        if inner:
            for item in inner.split(","):
                parts = item.strip().split(None, 1)
                if len(parts) != 2:
                    raise DataError(f"{path}: data line {lineno}: bad sparse entry {item!r}")
                j = int(parts[0])
                if not 0 <= j < n_attr:
                    raise DataError(f"{path}: data line {lineno}: attribute index {j} out of range")
                seen[j] = parts[1]
        for j in nominal_idx:
            v = seen.pop(j, None)
            if v is None:  # absent nominal entry = its first declared value
                v = declared.get(names[j], ["0"])[0]
            nominal_values[j].append(_unquote(v))
        for j, v in seen.items():
            rows.append(n_rows)
            cols.append(j)
            try:
                vals.append(np.nan if v == "?" else float(v))
            except ValueError:
                raise DataError(f"{path}: numeric attribute {names[j]!r} holds a value that is not a number: "
                                f"{v!r} in data row {n_rows + 1} (line {lineno} of the data section)") from None
        n_rows += 1
    numeric_idx = [i for i, k in enumerate(kinds) if k == "numeric"]
    remap = -np.ones(n_attr, dtype=np.int64)
    remap[numeric_idx] = np.arange(len(numeric_idx))
    cols_arr = remap[np.asarray(cols, dtype=np.int64)] if cols else np.zeros(0, dtype=np.int64)
    matrix = sp.csr_matrix(
        (np.asarray(vals, dtype=np.float64), (np.asarray(rows, dtype=np.int64), cols_arr)),
        shape=(n_rows, len(numeric_idx)),
    )
    matrix.sum_duplicates()
    if len(nominal_idx) != 1:
        raise DataError(
            f"{path}: sparse ARFF with {len(nominal_idx)} nominal attributes is not supported "
            f"(bench reads sparse ARFF whose only nominal attribute is the class)"
        )
    t = nominal_idx[0]
    return Table(
        None,
        declared,
        sparse=matrix,
        sparse_columns=[names[i] for i in numeric_idx],
        sparse_target=pd.Series(nominal_values[t], dtype=object),
        sparse_target_name=names[t],
    )


#: the one value :func:`write_arff` declares for a nominal attribute that has none (no cell takes it)
EMPTY_NOMINAL = "none"


def write_arff(path: Path, ds, relation: str | None = None, rows=None) -> None:
    """Write a (dense) Dataset as ARFF with the full declared value lists.

    Used to hand identical folds to Weka. Nominal values are written by label
    (quoted); numeric values with 17 significant digits, so Weka reads back the
    same doubles; missing values as '?'. Cells are formatted column-wise by
    NumPy, so hundreds of thousands of rows take seconds. A nominal attribute with no
    value at all (every cell missing, as anneal's m, marvi, corr, jurofm, s and p) is
    declared with one value no cell takes: Weka 3.6's trees fail on an attribute
    declared with none (RandomTree: an empty contingency table).
    """
    X = ds.X if rows is None else ds.X[rows]
    y = ds.y if rows is None else ds.y[rows]
    if sp.issparse(X):
        X = X.toarray()

    def q(s):
        s = str(s)
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"

    lines = [f"@relation {q(relation or ds.name)}", ""]
    for j, name in enumerate(ds.feature_names):
        if ds.categorical[j]:
            values = list(ds.categories[j]) or [EMPTY_NOMINAL]
            lines.append(f"@attribute {q(name)} {{{','.join(q(c) for c in values)}}}")
        else:
            lines.append(f"@attribute {q(name)} numeric")
    lines.append(f"@attribute class {{{','.join(q(c) for c in ds.classes)}}}")
    lines += ["", "@data", ""]
    columns = []
    for j in range(X.shape[1]):
        col = np.asarray(X[:, j], dtype=np.float64)
        missing = np.isnan(col)
        if ds.categorical[j]:
            labels = np.asarray([q(c) for c in ds.categories[j]] + ["?"], dtype=object)
            columns.append(labels[np.where(missing, len(labels) - 1, col).astype(np.int64)])
        else:
            text = np.char.mod("%.17g", col).astype(object)
            text[missing] = "?"
            columns.append(text)
    columns.append(np.asarray([q(c) for c in ds.classes], dtype=object)[np.asarray(y, dtype=np.int64)])
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
        fh.write("\n".join(map(",".join, zip(*columns))))
        fh.write("\n")
