"""Weka's Discretize filters in a filter-only mode: the cut points they learn, and their time.

:func:`cut_points` writes the training rows of a Dataset as ARFF, fits a Weka
``Discretize`` filter (supervised MDL by default, or the unsupervised one with
``-B``/``-F``) on them in a JVM, and returns the cut points Weka learned for
every attribute at full double precision, with the seconds Weka spent
filtering (``setInputFormat`` + ``Filter.useFilter`` on the training data, read
on the Java side, once per repeat in the same JVM so the later repeats are
JIT-warm). A small Java driver (``WekaCuts.java``) is compiled on first use
into the bench cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..data.cache import cache_dir
from ..data.dataset import Dataset
from . import weka_jar

SUPERVISED = "weka.filters.supervised.attribute.Discretize"
UNSUPERVISED = "weka.filters.unsupervised.attribute.Discretize"


@dataclass
class WekaCuts:
    """``cut_points[j]``: ascending cut points of attribute j (empty array = Weka's single bin
    'All'), or None for a nominal attribute. ``fit_s``: Weka's seconds per repeat."""

    cut_points: list
    fit_s: list

    @property
    def best_fit_s(self) -> float:
        return min(self.fit_s)


def _driver_dir() -> Path:
    jar = weka_jar()
    if jar is None:
        raise RuntimeError("Weka is not installed: apt-get install weka (or set WEKA_JAR)")
    out = cache_dir() / "weka"
    cls = out / "WekaCuts.class"
    src = Path(__file__).with_name("WekaCuts.java")
    if not cls.exists() or cls.stat().st_mtime < src.stat().st_mtime:
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-cp", jar, "-d", str(out), str(src)], check=True,
                       capture_output=True, text=True)
    return out


def write_coded_arff(path: Path, ds: Dataset, rows=None) -> None:
    """Write rows of a dense Dataset as ARFF with every value as a number.

    Numeric values are written with 17 significant digits (Weka reads back the
    same doubles); a nominal attribute with k values is declared ``{0,...,k-1}``
    and written as its code, and the class likewise, so Weka's value indices
    equal bench's codes. Missing values are '?'. Unlike ``readers.write_arff``
    (which writes labels) this formats a row at a time in C, so writing 581012
    rows takes seconds.
    """
    X = ds.X if rows is None else ds.X[rows]
    y = ds.y if rows is None else ds.y[rows]
    lines = ["@relation coded", ""]
    for j in range(ds.n_features):
        if ds.categorical[j]:
            k = int(ds.n_categories[j])
            lines.append(f"@attribute a{j} {{{','.join(str(v) for v in range(k))}}}")
        else:
            lines.append(f"@attribute a{j} numeric")
    lines.append(f"@attribute class {{{','.join(str(c) for c in range(ds.n_classes))}}}")
    lines += ["", "@data", ""]
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
        table = np.column_stack([np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)])
        import io

        buf = io.StringIO()
        np.savetxt(buf, table, fmt="%.17g", delimiter=",")
        fh.write(buf.getvalue().replace("nan", "?"))


def cut_points(ds: Dataset, train: np.ndarray, filter_class: str = SUPERVISED, options: list[str] | None = None,
               repeats: int = 1, heap: str = "4g", workdir: str | None = None) -> WekaCuts:
    """Fit Weka's ``filter_class`` (a Discretize filter) with ``options`` on rows ``train``
    of ``ds`` and return the cut points it learned per attribute and its fit seconds."""
    if ds.is_sparse:
        raise ValueError(f"{ds.name}: Weka cut points need a dense dataset")
    driver = _driver_dir()
    tmp = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="bench-wekacuts-"))
    try:
        tr = tmp / "train.arff"
        write_coded_arff(tr, ds, rows=train)
        cmd = ["java", f"-Xmx{heap}", "-cp", f"{weka_jar()}{os.pathsep}{driver}", "WekaCuts", str(tr),
               str(int(repeats)), filter_class, *(options or [])]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Weka {filter_class} failed:\n{proc.stderr[-2000:]}")
        cuts: list = [None] * ds.n_features
        for line in proc.stdout.splitlines():
            idx, spec = line.split(" ", 1)
            j = int(idx)
            if spec == "nominal":
                cuts[j] = None
            elif spec == "all":
                cuts[j] = np.empty(0)
            else:
                cuts[j] = np.array([float(v) for v in spec.split(",")])
        last = proc.stderr.strip().splitlines()[-1]
        fit_s = [float(v) for v in last.split("=", 1)[1].split(",")]
        return WekaCuts(cuts, fit_s)
    finally:
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class Agreement:
    """Cut-point agreement over attributes (x training folds): how many numeric attributes
    got identical cut sets, how many got a different number of cuts, and the largest
    absolute difference between cut values where the numbers agree."""

    n_attributes: int
    n_identical: int
    n_count_differs: int
    max_abs_diff: float
    differing: list

    def __add__(self, other: "Agreement") -> "Agreement":
        return Agreement(self.n_attributes + other.n_attributes, self.n_identical + other.n_identical,
                         self.n_count_differs + other.n_count_differs,
                         max(self.max_abs_diff, other.max_abs_diff), self.differing + other.differing)


def compare(ours: list, theirs: list, label: str = "") -> Agreement:
    """Compare two per-attribute cut-point lists (None = nominal attribute, skipped)."""
    n = same = count_differs = 0
    worst = 0.0
    differing = []
    for j, (a, b) in enumerate(zip(ours, theirs)):
        if a is None and b is None:
            continue
        if a is None or b is None:
            raise ValueError(f"attribute {j} is nominal on one side only")
        n += 1
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        if a.shape == b.shape and np.array_equal(a, b):
            same += 1
            continue
        differing.append((label, j, a.size, b.size))
        if a.shape != b.shape:
            count_differs += 1
        else:
            worst = max(worst, float(np.max(np.abs(a - b))))
    return Agreement(n, same, count_differs, worst, differing)


KINDS = {  # name -> (our class, its parameters, Weka filter, Weka options)
    "mdl": ("MDLDiscretizer", {}, SUPERVISED, []),
    "mdl-E": ("MDLDiscretizer", {"better_encoding": True}, SUPERVISED, ["-E"]),
    "equal-frequency": ("EqualFrequencyDiscretizer", {"n_bins": 10}, UNSUPERVISED, ["-F", "-B", "10"]),
    "equal-width": ("EqualWidthDiscretizer", {"n_bins": 10}, UNSUPERVISED, ["-B", "10"]),
}


def agreement_table(names: list[str], kind: str = "mdl", folds: int = 10, seed: int = 0) -> list[list]:
    """Rows (dataset, kind, numeric attributes x folds, identical, count differs, max |diff|) comparing
    our discretiser with Weka's filter on the training folds of 10-fold CV (``folds`` of them)."""
    import algorithms.discretize as D

    from ..data import load
    from ..protocols import splits

    cls_name, params, filt, opts = KINDS[kind]
    rows = []
    for name in names:
        ds = load(name)
        total = None
        for s in splits(ds.y, {"kind": "kfold", "n_splits": 10}, seed):
            if s.fold >= folds:
                continue
            ours = getattr(D, cls_name)(categorical_features=ds.categorical, **params)
            ours.fit(ds.X[s.train], ds.y[s.train])
            a = compare(ours.cut_points_, cut_points(ds, s.train, filt, opts).cut_points, f"{name} fold {s.fold}")
            total = a if total is None else total + a
        rows.append([name, kind, total.n_attributes, total.n_identical, total.n_count_differs,
                     f"{total.max_abs_diff:.3g}"])
    return rows


def main(argv=None) -> int:
    """``python -m bench.weka.cuts [--kind mdl] [--folds 10] DATASET ...``: cut-point agreement table."""
    import argparse

    from ..summary import format_table

    ap = argparse.ArgumentParser(prog="python -m bench.weka.cuts", description=main.__doc__)
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--kind", choices=sorted(KINDS), default="mdl")
    ap.add_argument("--folds", type=int, default=10, help="training folds of 10-fold CV to compare (default all)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rows = agreement_table(args.datasets, args.kind, args.folds, args.seed)
    print(format_table(["dataset", "discretiser", "attributes x folds", "identical cut sets", "count differs",
                        "max |diff|"], rows, align="<<>>>>"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
