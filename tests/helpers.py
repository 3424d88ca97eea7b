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
