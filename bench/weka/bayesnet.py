"""Weka's BayesNet with its learned structure, for structure agreement tests.

:func:`run_bayesnet` writes the training and test rows of a Dataset as ARFF (as
:func:`bench.weka.run` does), trains ``weka.classifiers.bayes.BayesNet`` with the given
options (for example ``-D -Q weka.classifiers.bayes.net.search.local.K2 -- -P 100 -N -S BAYES
-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5``) and returns every node's
parent list with the class distributions of the test rows. Node indices are attribute
indices, the class last. A small Java driver (``WekaBayesNet.java``) is compiled on first
use into the bench cache.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..data.dataset import Dataset
from ..data.readers import write_arff
from . import driver_classpath


@dataclass
class WekaBayesNetResult:
    """``parents[node]``: Weka's parent list of each node, in the order Weka added them
    (nodes are attribute indices, the class last); ``proba``: test distributions."""

    parents: list
    proba: np.ndarray
    train_s: float
    test_s: float


def run_bayesnet(ds: Dataset, train: np.ndarray, test: np.ndarray, options: list[str],
                 filter: tuple[str, list[str]] | None = None, heap: str = "4g") -> WekaBayesNetResult:
    """Train Weka's BayesNet with ``options`` on rows ``train`` of ``ds``; structure and test distributions."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-wekabn-"))
    try:
        tr, te = tmp / "train.arff", tmp / "test.arff"
        write_arff(tr, ds, rows=train)
        write_arff(te, ds, rows=test)
        cmd = ["java", f"-Xmx{heap}", "-cp", driver_classpath("WekaBayesNet"), "WekaBayesNet", str(tr), str(te)]
        if filter is not None:
            cmd += [f"filter:{filter[0]}", *filter[1], "--"]
        cmd += list(options)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Weka BayesNet failed:\n{proc.stderr[-2000:]}")
        parents, rows = {}, []
        for line in proc.stdout.splitlines():
            if line.startswith("P "):
                f = [int(v) for v in line[2:].split()]
                parents[f[0]] = f[1:]
            elif line.startswith("D "):
                rows.append([float(v) for v in line[2:].split(",")])
        times = dict(kv.split("=") for kv in proc.stderr.strip().splitlines()[-1].lstrip("#").split())
        proba = np.array(rows, dtype=float).reshape(len(rows), -1)
        return WekaBayesNetResult([parents[i] for i in range(len(parents))], proba, float(times["train_s"]),
                                  float(times["test_s"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
