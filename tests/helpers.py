"""Estimators and helpers used only by tests (importable by subprocesses with the project root on PYTHONPATH)."""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.naive_bayes import GaussianNB


class SlowGaussianNB(GaussianNB):
    """GaussianNB that sleeps ``delay`` seconds in fit (for kill/resume tests)."""

    def __init__(self, delay=0.3, priors=None, var_smoothing=1e-9):
        super().__init__(priors=priors, var_smoothing=var_smoothing)
        self.delay = delay

    def fit(self, X, y, sample_weight=None):
        time.sleep(self.delay)
        return super().fit(X, y, sample_weight)


class RecordingClassifier(ClassifierMixin, BaseEstimator):
    """Predicts class frequencies; remembers what the runner injected."""

    def __init__(self, categorical_features=None, n_categories=None, random_state=None, fail_on_fold=None):
        self.categorical_features = categorical_features
        self.n_categories = n_categories
        self.random_state = random_state
        self.fail_on_fold = fail_on_fold

    def fit(self, X, y):
        if self.fail_on_fold is not None and len(y) % 7 == self.fail_on_fold:
            raise RuntimeError("deliberate failure")
        self.classes_, counts = np.unique(y, return_counts=True)
        rng = np.random.default_rng(self.random_state)
        self.prior_ = counts / counts.sum()
        self.noise_ = rng.random()
        self.diagnostics_ = {"categorical_seen": None if self.categorical_features is None
                             else [bool(v) for v in self.categorical_features],
                             "random_state": self.random_state}
        return self

    def predict_proba(self, X):
        return np.tile(self.prior_, (X.shape[0], 1))

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


class BinAll:
    """A stand-in discretiser: every column becomes nominal with 3 values (for runner tests)."""

    def __init__(self, categorical_features=None):
        self.categorical_features = categorical_features

    def get_params(self, deep=True):
        return {"categorical_features": self.categorical_features}

    def set_params(self, **p):
        for k, v in p.items():
            setattr(self, k, v)
        return self

    def fit_transform(self, X, y=None):
        self.categorical_features_out_ = np.ones(X.shape[1], dtype=bool)
        self.n_categories_out_ = np.full(X.shape[1], 3)
        return self.transform(X)

    def transform(self, X):
        return np.clip(np.floor(X), 0, 2)


#: Weka's supervised (MDL) Discretize, as ``bench.weka.run(filter=...)`` takes it
MDL_FILTER = ("weka.filters.supervised.attribute.Discretize", [])


def mdl_fold(ds, train, test, discretise: bool = True):
    """Our side of a Weka agreement fold: the training and test rows of ``ds`` with the numeric
    attributes discretised by ``MDLDiscretizer`` fitted on the training rows (Weka's cut points,
    as :data:`MDL_FILTER` on Weka's side), unless ``discretise`` is false; returns
    ``(Xtr, Xte, categorical_features, n_categories)`` of what the estimator is fitted on."""
    Xtr, Xte = ds.X[train], ds.X[test]
    cat, ncat = ds.categorical, ds.n_categories
    if discretise:
        from algorithms.discretize import MDLDiscretizer

        disc = MDLDiscretizer(categorical_features=cat, n_categories=ncat)
        Xtr = disc.fit_transform(Xtr, ds.y[train])
        Xte = disc.transform(Xte)
        cat, ncat = disc.categorical_features_out_, disc.n_categories_out_
    return Xtr, Xte, cat, ncat


def noise_classes(seed: int, n: int, d: int, n_classes: int = 3):
    """A problem without signal: ``n`` standard normal points in ``d`` dimensions and uniform labels
    of ``n_classes`` classes, drawn in that order from ``np.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, rng.integers(0, n_classes, size=n)


class MisbehavingClassifier(ClassifierMixin, BaseEstimator):
    """Predicts the training class frequencies, except on training folds of ``bad_n_train`` rows,
    where fit does ``how``: "sleep" (``seconds`` in Python), "hang" (a C-level sleep no Python
    signal handler can interrupt), "abort" (SIGABRT, as LLVM's or C++'s out-of-memory aborts) or
    "exit" (os._exit(3))."""

    def __init__(self, bad_n_train=-1, how="sleep", seconds=30.0):
        self.bad_n_train = bad_n_train
        self.how = how
        self.seconds = seconds

    def fit(self, X, y):
        if len(y) == self.bad_n_train:
            import ctypes
            import os

            if self.how == "sleep":
                time.sleep(self.seconds)
            elif self.how == "hang":
                ctypes.CDLL("libc.so.6").sleep(int(self.seconds))
            elif self.how == "abort":
                import faulthandler

                faulthandler.disable()  # pytest's dump of every thread would only be noise here
                os.abort()
            elif self.how == "exit":
                os._exit(3)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.prior_ = counts / counts.sum()
        return self

    def predict_proba(self, X):
        return np.tile(self.prior_, (X.shape[0], 1))


# ---------------------------------------------------------------- the key figure's cells, read from the tables
# An independent reading of the numbers each paper's tables display (their CSV files), to check the
# ``key_cells`` facts the builds record (bench.report.keyfig reads only the facts).
import math  # noqa: E402
import re  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import pandas as pd  # noqa: E402

from bench.report.keyfig import WIN_SHARE  # noqa: E402


@dataclass(frozen=True)
class Cells:
    """One table's numeric cells: ``pattern`` (a CSV glob) in ``folder`` (``""``: the paper's own
    folder), its ``published`` and ``ours`` columns, read as :data:`PARSE` says; the panel is
    ``kind``, or the value of column ``kind_col``; ``label`` names the table in the legend;
    ``unique`` are the columns that identify a cell when a value repeats over rows."""

    pattern: str
    published: str
    ours: str
    label: str
    kind: str = ""
    kind_col: str = ""
    folder: str = ""
    parse: str = "number"
    unique: tuple[str, ...] = ()



#: paper -> the tables whose published cells have our number beside them
CELLS: dict[str, tuple[Cells, ...]] = {
    "massbayes": (
        Cells("table3_accuracy_long.csv", "published", "ours", "Table 3", kind="accuracy (%)", folder=""),
        Cells("table5_runtime_long.csv", "published_s", "ours_s", "Table 5", kind="runtime (s)", folder=""),
        Cells("table4_wdl.csv", "published W:L:D", "ours W:L:D", "Table 4", kind=WIN_SHARE, folder="",
              parse="W:L:D"),
    ),
    "ecocnb": (
        Cells("table1_datasets_diversity.csv", "diversity (paper)", "diversity (ours)", "Table 1",
              kind="code diversity"),
        *(Cells(f"table{t}_traintime_ratio.csv", "ratio to NB (paper)", "ratio to NB (ours)", f"Table {t}",
                kind="training time / NB's") for t in (2, 3, 4)),
        *(Cells(f"table{t}_traintime_ratio.csv", "NB s (paper)", "NB s (ours)", f"Table {t}",
                kind="NB training time (s)", unique=("dataset",)) for t in (2, 3, 4)),
    ),
    "eskdb": (
        *(Cells(f"table{t}_averages.csv", "published", "ours", f"Table {t}", kind_col="measure")
          for t in (5, 6, 8, 9)),
        *(Cells(f"table{t}_wdl.csv", "published_win_share", "ours_win_share", f"Table {t}", kind=WIN_SHARE)
          for t in (3, 4, 7)),
    ),
    "ande_sr": tuple(
        Cells(f"table{t}_wdl_{m}_long.csv", "published_win_share", "ours_win_share", f"Table {t} ({m})",
              kind=WIN_SHARE)
        for t, m in ((2, "bias"), (3, "variance"), (4, "01loss"), (5, "rmse"))),
    "mctree": tuple(
        Cells(f"{exp}_static.csv", "paper_accuracy", "ours_accuracy", label, kind="accuracy (%)")
        for exp, label in (("mctree_fig5", "Fig. 5"), ("mctree_fig6", "Fig. 6"), ("mctree_vowel", "vowel"))),
}

_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def _number(value) -> float:
    """A cell's number: the value itself, or the number that opens a ``mean ± se`` text; NaN if none."""
    if isinstance(value, (int, float, np.number)):
        return float(value)
    m = _NUMBER.match(str(value))
    return float(m.group(1)) if m else math.nan


def _win_share(value) -> float:
    """``W:L:D`` -> W / (W + L); NaN when the cell is not a count triple or W + L is 0."""
    parts = str(value).strip().split(":")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        return math.nan
    w, l = int(parts[0]), int(parts[1])
    return w / (w + l) if w + l else math.nan


PARSE = {"number": _number, "W:L:D": _win_share}


def table_cells(root: Path, paper: str) -> pd.DataFrame:
    """Every numeric cell of the paper's tables (:data:`CELLS`) that exist under ``root``: columns
    ``kind, table, published, ours`` (ours NaN where we have no number). Missing tables are skipped."""
    frames = []
    for spec in CELLS.get(paper, ()):
        folder = Path(root) / (spec.folder or paper)
        for csv in sorted(folder.glob(spec.pattern)):
            df = pd.read_csv(csv, dtype=str, keep_default_na=False)
            need = [spec.published, spec.ours] + ([spec.kind_col] if spec.kind_col else []) + list(spec.unique)
            if any(c not in df.columns for c in need):
                raise ValueError(f"{csv}: the key figure needs columns {need}; the table has {list(df.columns)}")
            if spec.unique:
                df = df.drop_duplicates(list(spec.unique) + [spec.published, spec.ours])
            parse = PARSE[spec.parse]
            frames.append(pd.DataFrame({
                "kind": df[spec.kind_col] if spec.kind_col else spec.kind,
                "table": spec.label,
                "published": [parse(v) for v in df[spec.published]],
                "ours": [parse(v) for v in df[spec.ours]],
            }))
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["kind", "table", "published", "ours"])
    return out[out["published"].notna()].reset_index(drop=True)

