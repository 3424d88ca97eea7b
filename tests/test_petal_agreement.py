"""bench's Petal-equivalent KDB and selective KDB against Petal itself (Webb et al.'s C++ system,
the binary ``bench.perf.petal`` uses): ``conf/algo/kdb5_petal.yaml`` (``KDB(backoff="seen_parents",
tie_order="float_std_sort")``, Petal's ``kdb.cpp``) and ``conf/algo/skdb_petal.yaml`` (plus
``selection="attributes", loo_rule="min_count"``, Petal's ``selective-kdb``, i.e. ``kdbSelectiveClean.cpp``),
and two variants of them (KDB-2; selective KDB choosing k as well, Petal's ``+selectiveK``).

Both sides get the same training and test files (fold 0 of bench's 10-fold CV; numeric attributes
MDL-discretised by bench on the training rows): Petal writes its class probabilities (``+s``, six
decimals) and prints its 0-1 loss; bench's must agree to rounding, its predictions must be Petal's,
and its 0-1 loss the same. The data sets were not used to tune anything (the options were derived
from Petal's source and checked on letter): ``primary_tumor`` (21 classes, some with 1 or 2
training rows; missing values), ``audiology`` (69 nominal attributes, more than 16, where libstdc++'s
``std::sort`` is not stable and ties in MI are many; rare classes, some absent from the training fold;
missing values), ``house_votes_84``
(missing values in every column) and ``vehicle`` (numeric, MDL codes).

What both sides are told, as Petal's metadata tells it: a missing value ``?`` is a value of its own in
the columns whose metadata lists ``?`` (bench: ``missing_slot`` = those columns), and the classes are
the declared ones, also those absent from the training fold (bench: ``partial_fit(..., classes=...)``;
``fit`` knows only the classes it sees, which changes the M-estimate of the class prior, 1/C).

Skipped without the Petal binary (``$BENCH_PETAL`` or ``~/.cache/bench/petal/petal``; build it from
Petal's own sources, GPL, not shipped with bench) or without the datasets (they ship in ``datasets/``).
"""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

from bench.perf.petal import _write_petal, petal_binary

#: looked up at import: the tests' isolated BENCH_CACHE_DIR (conftest) would hide the user cache's binary
PETAL = petal_binary()

pytestmark = pytest.mark.skipif(PETAL is None, reason="no Petal binary: set BENCH_PETAL to one built from "
                                                      "Petal's own sources (GPL, not shipped with bench)")

DATASETS = ("primary_tumor", "audiology", "house_votes_84", "vehicle")

#: (bench config, parameter overrides) -> Petal learner arguments
LEARNERS = {
    ("kdb5_petal", ()): ["-lkdb", "+k5"],
    ("kdb5_petal", (("k", 2),)): ["-lkdb", "+k2"],
    ("skdb_petal", ()): ["-lselective-kdb", "+k5"],
    ("skdb_petal", (("selection", "k_and_attributes"),)): ["-lselective-kdb", "+k5", "+selectiveK"],
}


def _estimator(name: str, overrides, **meta):
    from bench.experiment_plan import algo_config
    from bench.runner import instantiate

    est = instantiate(algo_config(name)["estimator"])
    return est.set_params(**meta, **dict(overrides))


def _petal(tmp_path, largs) -> tuple[float, np.ndarray]:
    out = subprocess.run([PETAL, "train.meta", "train.data", "-ttest.data", "+sscores.txt", *largs], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    loss = float(re.search(r"0-1 loss = ([0-9.]+)", out.stdout).group(1))
    return loss, np.loadtxt(tmp_path / "scores.txt", delimiter=",", ndmin=2)


@pytest.mark.parametrize("name", DATASETS)
def test_petal_equivalent_kdb_and_selective_kdb_agree_with_petal(name, tmp_path):
    from bench.data import load
    from bench.protocols import splits

    from .helpers import mdl_fold

    ds = load(name)
    s = next(iter(splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0)))
    Xtr, Xte, cat, ncat = mdl_fold(ds, s.train, s.test, discretise=not ds.categorical.all())
    assert np.all(cat)
    ytr, yte = ds.y[s.train], ds.y[s.test]
    C = ds.n_classes
    missing = np.flatnonzero(np.isnan(Xtr).any(axis=0) | np.isnan(Xte).any(axis=0))
    _write_petal(tmp_path, "train", Xtr, ytr, ncat, C, missing=missing)
    _write_petal(tmp_path, "test", Xte, yte, ncat, C, meta=False)
    if name in ("primary_tumor", "audiology"):   # rare classes (audiology: some absent from the training fold)
        assert np.bincount(ytr, minlength=C).min() <= (0 if name == "audiology" else 2)
    if name != "vehicle":
        assert missing.size

    for (config, overrides), largs in LEARNERS.items():
        what = f"{name}: {config} {dict(overrides)} vs petal {' '.join(largs)}"
        est = _estimator(config, overrides, categorical_features=cat, n_categories=ncat, missing_slot=list(missing))
        est.partial_fit(Xtr, ytr, classes=np.arange(C))
        proba = est.predict_proba(Xte)
        petal_loss, petal_proba = _petal(tmp_path, largs)
        assert proba.shape == petal_proba.shape, what
        # Petal prints six decimals: equal to rounding
        assert np.max(np.abs(proba - petal_proba)) <= 1e-6, what
        ours = proba.argmax(axis=1)
        loss = float(np.mean(ours != yte))
        assert round(loss, 6) == petal_loss, what
        # the same predictions (Petal's argmax, read from its rounded scores where they leave no doubt)
        top2 = np.sort(petal_proba, axis=1)[:, -2:]
        clear = top2[:, 1] - top2[:, 0] > 2e-6
        assert np.array_equal(ours[clear], petal_proba[clear].argmax(axis=1)), what
        assert clear.mean() > 0.9, what
