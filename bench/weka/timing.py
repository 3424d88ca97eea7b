"""Same-run speed peers from Weka: build and test a classifier several times in one JVM.

:func:`time_classifier` writes the training and test rows of a Dataset as ARFF
(as :func:`bench.weka.run` does) and runs ``WekaTime.java``, which builds the
classifier and classifies the test rows ``repeats`` times in the same JVM, so
the later repeats are JIT-warm; it returns Weka's own training and testing
seconds per repeat (ARFF parsing and JVM start-up excluded).
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
from ..data.readers import write_arff
from . import weka_jar


@dataclass
class WekaTimes:
    train_s: list
    test_s: list

    @property
    def best_train_s(self) -> float:
        return min(self.train_s)

    @property
    def best_test_s(self) -> float:
        return min(self.test_s)


def _driver_dir() -> Path:
    jar = weka_jar()
    if jar is None:
        raise RuntimeError("Weka is not installed: apt-get install weka (or set WEKA_JAR)")
    out = cache_dir() / "weka"
    cls = out / "WekaTime.class"
    src = Path(__file__).with_name("WekaTime.java")
    if not cls.exists() or cls.stat().st_mtime < src.stat().st_mtime:
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-cp", jar, "-d", str(out), str(src)], check=True,
                       capture_output=True, text=True)
    return out


def time_classifier(ds: Dataset, train: np.ndarray, test: np.ndarray, classifier: str,
                    options: list[str] | None = None, repeats: int = 3, heap: str = "6g") -> WekaTimes:
    """Weka's build and test seconds of ``classifier`` on rows ``train`` / ``test``, per repeat."""
    driver = _driver_dir()
    tmp = Path(tempfile.mkdtemp(prefix="bench-wekatime-"))
    try:
        tr, te = tmp / "train.arff", tmp / "test.arff"
        write_arff(tr, ds, rows=train)
        write_arff(te, ds, rows=test)
        cmd = ["java", f"-Xmx{heap}", "-cp", f"{weka_jar()}{os.pathsep}{driver}", "WekaTime", str(tr), str(te),
               str(int(repeats)), classifier, *(options or [])]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Weka {classifier} failed:\n{proc.stderr[-2000:]}")
        train_s, test_s = [], []
        for line in proc.stdout.splitlines():
            kv = dict(p.split("=") for p in line.split())
            train_s.append(float(kv["train_s"]))
            test_s.append(float(kv["test_s"]))
        return WekaTimes(train_s, test_s)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
