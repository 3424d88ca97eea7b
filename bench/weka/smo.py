"""Weka 3.6 SMO's pairwise machines, for the bit-level agreement check of :mod:`algorithms.smo`.

:func:`machines` trains ``weka.classifiers.functions.SMO`` (with ``options``, default: Weka's
defaults) on rows ``train`` of a Dataset, written as ARFF by :func:`bench.data.readers.write_arff`
in the given order, and returns each pairwise machine's bias and weight vector at full double
precision (driver ``WekaSMO.java``). For a linear kernel only (the weights are Weka's sparse
weight vector over SMO's filtered attributes: missing values replaced, nominal attributes made
binary, normalised; the class attribute last).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from ..data.dataset import Dataset
from ..data.readers import write_arff
from . import driver_classpath


def machines(ds: Dataset, train: np.ndarray, n_columns: int, options: list[str] | None = None,
               heap: str = "4g") -> dict[tuple[int, int], tuple[float, np.ndarray] | None]:
    """``{(i, j): (b, w)}`` for every pair of class indices i < j of ``ds.classes`` (None where
    Weka built no machine); the machine's output is ``w . x - b`` on SMO's filtered attributes,
    ``w`` dense over their first ``n_columns`` (all but the class)."""
    classpath = driver_classpath("WekaSMO")
    tmp = Path(tempfile.mkdtemp(prefix="bench-weka-smo-"))
    try:
        tr = tmp / "train.arff"
        write_arff(tr, ds, rows=train)
        proc = subprocess.run(["java", f"-Xmx{heap}", "-cp", classpath, "WekaSMO", str(tr), *(options or [])],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Weka SMO failed:\n{proc.stderr[-2000:]}")
        out: dict[tuple[int, int], tuple[float, np.ndarray] | None] = {}
        for line in proc.stdout.splitlines():
            parts = line.split(" ")
            i, j = int(parts[0]), int(parts[1])
            if parts[2] == "none":
                out[(i, j)] = None
            else:
                w = np.zeros(n_columns)
                for kv in (parts[3].split(",") if len(parts) > 3 and parts[3] else []):
                    k, v = kv.split(":")
                    if int(k) >= n_columns:
                        raise ValueError(f"Weka's machine {i}/{j} has a weight on attribute {k}, beyond the "
                                         f"{n_columns} columns given")
                    w[int(k)] = float(v)
                out[(i, j)] = (float(parts[2]), w)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
