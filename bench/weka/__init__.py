"""Bridge to Weka 3.6 (Debian package ``weka``) for agreement tests and same-run speed peers.

:func:`run` writes the training and test rows of a Dataset as ARFF (declaring
every nominal value list of the whole file, as Weka users do), trains a Weka
classifier on the first and returns its class distributions on the second at
full double precision, with Weka's own training and testing times. A small Java
driver (``WekaProba.java``) is compiled on first use into the bench cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..data.cache import cache_dir
from ..data.dataset import Dataset
from ..data.readers import write_arff

WEKA_JAR_CANDIDATES = ("/usr/share/java/weka.jar", "/usr/share/java/weka-3.6.14.jar")


@dataclass
class WekaResult:
    proba: np.ndarray
    filter_s: float
    train_s: float
    test_s: float
    measures: dict = field(default_factory=dict)  # additional measures asked for with ``measures=``
    model_text: str | None = None  # the trained model's toString(), when asked for with ``model_text=True``


def weka_jar() -> str | None:
    env = os.environ.get("WEKA_JAR")
    for p in ([env] if env else []) + list(WEKA_JAR_CANDIDATES):
        if p and Path(p).exists():
            return p
    return None


def available() -> bool:
    return weka_jar() is not None and shutil.which("java") is not None and shutil.which("javac") is not None


def driver_classpath(name: str) -> str:
    """Classpath (Weka jar + compiled driver) of the Java driver ``bench/weka/<name>.java``.

    The driver is compiled on first use into the bench cache, in a directory named by
    a hash of its source and of the Weka jar, so different versions of a driver (other
    checkouts, other jars) never overwrite each other; compilation goes to a temporary
    directory that is renamed into place, so concurrent first uses are safe.
    """
    import hashlib

    jar = weka_jar()
    if jar is None:
        raise RuntimeError("Weka is not installed: apt-get install weka (or set WEKA_JAR)")
    src = Path(__file__).with_name(f"{name}.java")
    shared = Path(__file__).with_name("WekaIO.java")   # what the drivers share, compiled with each
    digest = hashlib.sha256(src.read_bytes() + shared.read_bytes() + jar.encode()).hexdigest()[:12]
    out = cache_dir() / "weka" / f"{name}-{digest}"
    if not (out / f"{name}.class").exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=out.parent))
        proc = subprocess.run(["javac", "-nowarn", "-cp", jar, "-d", str(tmp), str(src), str(shared)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise RuntimeError(f"javac failed on {src}:\n{proc.stderr[-2000:]}")
        try:
            os.rename(tmp, out)
        except OSError:  # another process compiled it first
            shutil.rmtree(tmp, ignore_errors=True)
    return f"{jar}{os.pathsep}{out}"


def run(ds: Dataset, train: np.ndarray, test: np.ndarray, classifier: str, options: list[str] | None = None,
        filter: tuple[str, list[str]] | None = None, heap: str = "4g", workdir: str | None = None,
        measures: list[str] | None = None, model_text: bool = False) -> WekaResult:
    """Train Weka ``classifier`` (class name) with ``options`` on ``ds`` rows ``train``; return
    its class distributions on rows ``test`` (columns = ``ds.classes``). ``filter`` = (filter
    class, options) applies a batch filter fitted on the training rows (e.g. supervised
    ``weka.filters.supervised.attribute.Discretize``). ``measures`` names additional measures of
    the trained model (``AdditionalMeasureProducer.getMeasure``, e.g. J48's ``measureNumLeaves``
    and ``measureTreeSize``), returned as floats in ``WekaResult.measures``; ``model_text=True``
    returns the model's ``toString()`` in ``WekaResult.model_text``."""
    classpath = driver_classpath("WekaProba")
    tmp = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="bench-weka-"))
    try:
        tr, te = tmp / "train.arff", tmp / "test.arff"
        write_arff(tr, ds, rows=train)
        write_arff(te, ds, rows=test)
        cmd = ["java", f"-Xmx{heap}", "-cp", classpath, "WekaProba", str(tr), str(te)]
        if measures:
            cmd.append("measures:" + ",".join(measures))
        model_path = tmp / "model.txt"
        if model_text:
            cmd.append(f"model:{model_path}")
        if filter is not None:
            cmd += [f"filter:{filter[0]}", *filter[1], "--"]
        cmd += [classifier, *(options or [])]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Weka {classifier} failed:\n{proc.stderr[-2000:]}")
        proba = np.loadtxt(proc.stdout.splitlines(), delimiter=",", ndmin=2)
        err_lines = proc.stderr.strip().splitlines()
        times = dict(kv.split("=") for kv in err_lines[-1].lstrip("#").split())
        found = {}
        for line in err_lines:
            if line.startswith("#measures"):
                found = {k: float(v) for k, v in (kv.split("=") for kv in line.split()[1:])}
        return WekaResult(proba, float(times["filter_s"]), float(times["train_s"]), float(times["test_s"]),
                          measures=found, model_text=model_path.read_text() if model_text else None)
    finally:
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
