"""The BCH codebooks of ECOC-NB and where they are kept on disk.

Park and Fuernkranz 2014 (Sect. 5.1) draw ECOC code matrices from binary BCH codes of length
15 to 1023. ``galois`` needs from seconds to a minute to construct the longer codes, so each
codebook is built once and kept as a packed ``.npy`` file in a cache folder; a cached file is
checked against the code's minimum distance when it is loaded, so a stale or damaged file is
rebuilt, never used.

The folder is a parameter: ``bch_codebook(length, cache_dir=...)``, which the ECOC estimators pass
on from their own ``cache_dir`` parameter (a harness points it at its cache); without it, the user
cache ``$XDG_CACHE_HOME/algorithms/bch`` (``~/.cache/algorithms/bch``, :func:`default_cache_dir`).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

#: BCH code length -> (message bits, minimum distance): Sect. 5.1, maximal designed distance
BCH_CODES = {15: (5, 7), 31: (6, 15), 63: (7, 31), 127: (8, 63), 255: (9, 127), 511: (10, 255), 1023: (11, 511)}
BCH_FIELD_DEGREE = {n: int(math.log2(n + 1)) for n in BCH_CODES}   # codes of length 2^mu - 1 over GF(2^mu)

_BOOKS: dict[int, np.ndarray] = {}   # length -> codebook, per process


def default_cache_dir() -> Path:
    """The folder :func:`bch_codebook` uses when it is given none: the user cache."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "algorithms" / "bch"


def bch_codebook(length: int, cache_dir: str | os.PathLike | None = None) -> np.ndarray:
    """All ``2^m`` codewords (uint8 rows, read-only) of the binary BCH code of ``length`` in
    :data:`BCH_CODES`.

    Built by ``galois.BCH(length, m)`` (its generator matrix times every message, in GF(2) with
    galois) and kept in ``cache_dir`` (default: :func:`default_cache_dir`) as ``bch_<length>_<m>.npy``.
    The codebook does not depend on the folder: it is memoised per process by length
    alone (a later call with another folder gets the same array)."""
    if length not in BCH_CODES:
        raise ValueError(f"no BCH code of length {length}; the paper's lengths are {sorted(BCH_CODES)}")
    length = int(length)
    book = _BOOKS.get(length)
    if book is None:
        folder = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
        book = _BOOKS[length] = _load_or_build(length, folder)
    return book


def _load_or_build(length: int, folder: Path) -> np.ndarray:
    m, dist = BCH_CODES[length]
    path = folder / f"bch_{length}_{m}.npy"
    book = None
    if path.exists():
        try:
            book = np.unpackbits(np.load(path), axis=1, count=length)
        except (OSError, ValueError):
            book = None
        if book is not None and (book.shape != (2 ** m, length) or _min_weight(book) != dist):
            book = None
    if book is None:
        import galois

        # galois compiles its field arithmetic with Numba on first use (tens of seconds); the
        # pure-Python arithmetic of GF(2^m) is faster for the short codes
        field = galois.GF(2 ** BCH_FIELD_DEGREE[length], compile="python-calculate") if length <= 127 else None
        code = galois.BCH(length, m, extension_field=field)
        if code.d != dist:
            raise RuntimeError(f"galois.BCH({length}, {m}) has minimum distance {code.d}, not {dist}")
        messages = galois.GF2(((np.arange(2 ** m)[:, None] >> np.arange(m)[None, ::-1]) & 1).astype(np.uint8))
        book = np.asarray(code.encode(messages), dtype=np.uint8)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, np.packbits(book, axis=1))
            os.replace(tmp, path)
        except OSError:
            pass
    book.setflags(write=False)
    return book


def _min_weight(book: np.ndarray) -> int:
    """Minimum Hamming weight of the nonzero rows (the minimum distance of a linear code)."""
    w = book.sum(axis=1)
    return int(w[w > 0].min())
