"""Every split of one dataset in one JVM: a Weka classifier trained and tested on the harness's folds.

:func:`run_splits` writes the dataset once as ARFF (every nominal value of the whole file declared, as
:func:`bench.weka.run` does) and the splits as row indices, and runs ``WekaFolds.java``, which parses
the file once and, per split, builds a fresh classifier on the training rows and classifies the test
rows. Per split it returns the class distributions at full double precision (columns =
``ds.classes``), the CPU and wall seconds of building and of classifying (the CPU time of the JVM
thread doing the work, ``ThreadMXBean``; ARFF parsing and JVM start-up excluded) and, for
``weka.classifiers.bayes.BayesNet``, each node's cardinality and parents; a split on which Weka
throws has its exception in ``error`` and the other splits go on. An option ``"{seed}"`` is
replaced by the split's seed (``-S {seed}``), so each split's randomness is fixed by the run's seed as
the harness's own estimators' is (:func:`bench.runner.estimator_seed`).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..data.dataset import Dataset
from ..data.readers import write_arff
from . import driver_classpath

SEED = "{seed}"


@dataclass
class SplitResult:
    repeat: int
    fold: int
    proba: np.ndarray
    times: dict                                        # train_cpu_s, train_wall_s, test_cpu_s, test_wall_s
    structure: list = field(default_factory=list)      # BayesNet: (node, cardinality, [parents]) per node
    error: str | None = None                           # Weka's exception when this split failed (no proba)

    def table_cells(self) -> list[int]:
        """BayesNet: the number of cells of each node's conditional probability table, its cardinality
        times the product of its parents' cardinalities (the dense tables Weka allocates)."""
        card = {n: c for n, c, _ in self.structure}
        return [c * int(np.prod([card[p] for p in ps], dtype=np.int64)) for n, c, ps in self.structure]


def run_splits(ds: Dataset, splits: list, seeds: list[int], classifier: str, options: list[str] | None = None,
               filter: tuple[str, list[str]] | None = None, heap: str = "4g") -> list[SplitResult]:
    """Train ``classifier`` with ``options`` on each split (objects with ``repeat``, ``fold``, ``train``,
    ``test``) of ``ds``, ``seeds[i]`` standing for ``{seed}`` in split i's options; one JVM for all."""
    if len(seeds) != len(splits):
        raise ValueError(f"{len(splits)} splits but {len(seeds)} seeds")
    tmp = Path(tempfile.mkdtemp(prefix="bench-wekafolds-"))
    try:
        data, spl, out = tmp / "data.arff", tmp / "splits.txt", tmp / "out.txt"
        write_arff(data, ds)
        with open(spl, "w") as f:
            for s, seed in zip(splits, seeds):
                f.write(f"S {int(s.repeat)} {int(s.fold)} {int(seed)}\n")
                f.write("R " + " ".join(map(str, np.asarray(s.train, dtype=np.int64))) + "\n")
                f.write("T " + " ".join(map(str, np.asarray(s.test, dtype=np.int64))) + "\n")
        cmd = ["java", f"-Xmx{heap}", "-cp", driver_classpath("WekaFolds"), "WekaFolds", str(data), str(spl), str(out)]
        if filter is not None:
            cmd += [f"filter:{filter[0]}", *filter[1], "--"]
        cmd += [classifier, *(options or [])]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Weka {classifier} failed:\n{proc.stderr[-2000:]}")
        return _parse(out.read_text(), splits)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _parse(text: str, splits: list) -> list[SplitResult]:
    results, cur, rows = [], None, []

    def close():
        if cur is not None:
            cur.proba = np.array(rows, dtype=float).reshape(len(rows), -1)
            results.append(cur)

    for line in text.splitlines():
        if line.startswith("S "):
            close()
            f = line.split()
            cur, rows = SplitResult(int(f[1]), int(f[2]), np.empty((0, 0)),
                                    {k: float(v) for k, v in (kv.split("=") for kv in f[3:])}), []
        elif line.startswith("F "):
            close()
            f = line.split(" ", 3)
            results.append(SplitResult(int(f[1]), int(f[2]), np.empty((0, 0)), {}, error=f[3] if len(f) > 3 else "?"))
            cur, rows = None, []
        elif line.startswith("P "):
            f = [int(v) for v in line[2:].split()]
            cur.structure.append((f[0], f[1], f[2:]))
        elif line.startswith("D "):
            rows.append([float(v) for v in line[2:].split(",")])
    close()
    if len(results) != len(splits):
        raise RuntimeError(f"Weka answered {len(results)} of {len(splits)} splits")
    for r, s in zip(results, splits):
        if (r.repeat, r.fold) != (int(s.repeat), int(s.fold)) or (r.error is None and len(r.proba) != len(s.test)):
            raise RuntimeError(f"Weka's answer for split r{r.repeat} f{r.fold} does not match split "
                               f"r{s.repeat} f{s.fold} ({len(r.proba)} rows for {len(s.test)} test rows)")
    return results


__all__ = ["SplitResult", "run_splits", "SEED"]
