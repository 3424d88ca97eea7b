"""Agreement of NaiveBayes and AnDE with Weka 3.6 (NaiveBayes, AODE, AODEsr, WAODE) on identical folds.

Both sides see the same data: the ARFF that ``bench.weka.run`` writes declares every value list
of the whole file (our ``n_categories``), and numeric attributes are discretised on the training
fold by Weka's supervised Discretize filter on Weka's side and by ``MDLDiscretizer`` (which gives
Weka's cut points) on ours. Weka's WAODE refuses missing values, so on mushroom it runs on a
copy where "missing" is recoded as one more declared value (both sides).

``python -m tests.test_weka_bayes [datasets...]`` prints the full 10-fold agreement table.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from bench import weka
from bench.data import load
from bench.data.dataset import Dataset
from bench.protocols import splits
from tests.helpers import MDL_FILTER, mdl_fold

pytestmark = [pytest.mark.weka, pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")]

# (row label, Weka classifier, options, our estimator factory, needs discretised data)
CASES = [
    ("NaiveBayes", "weka.classifiers.bayes.NaiveBayes", [], "nb_laplace"),
    ("NaiveBayes -K (raw numeric)", "weka.classifiers.bayes.NaiveBayes", ["-K"], "nb_kde_weka"),
    ("AODE -F 1 (Laplace)", "weka.classifiers.bayes.AODE", ["-F", "1"], "aode"),
    ("AODE -F 1 -M -W 1", "weka.classifiers.bayes.AODE", ["-F", "1", "-M", "-W", "1"], "aode_m"),
    ("AODEsr -C 50 -F 1 (m=1)", "weka.classifiers.bayes.AODEsr", ["-C", "50", "-F", "1"], "aodesr"),
    ("WAODE", "weka.classifiers.bayes.WAODE", [], "waode"),
]


def ours(kind: str, categorical, n_categories):
    from algorithms.ande import AnDE
    from algorithms.naive_bayes import NaiveBayes

    meta = dict(categorical_features=categorical, n_categories=n_categories)
    return {
        "nb_laplace": lambda: NaiveBayes(smoothing="laplace", **meta),
        "nb_kde_weka": lambda: NaiveBayes(numeric="kde", bandwidth="weka", kde_evaluation="weka_cell", **meta),
        "aode": lambda: AnDE(n=1, smoothing="laplace", min_parent_count=1, **meta),
        "aode_m": lambda: AnDE(n=1, smoothing="m_estimate", m=1.0, min_parent_count=1, **meta),
        "aodesr": lambda: AnDE(n=1, smoothing="m_estimate", m=1.0, subsumption=True, sr_threshold=50, **meta),
        "waode": lambda: AnDE(n=1, smoothing="m_estimate", m=1.0, weighting="mi", mi_min_prob=1e-6,
                              min_parent_count=0, missing="error", **meta),   # = conf/algo/waode.yaml
    }[kind]()


def missing_as_value(ds: Dataset) -> Dataset:
    """A copy whose missing nominal values are one more declared value ('missing'), for WAODE."""
    X = ds.X.copy()
    cats = list(ds.categories)
    for j in np.flatnonzero(ds.categorical & np.isnan(X).any(0)):
        X[np.isnan(X[:, j]), j] = len(cats[j])
        cats[j] = list(cats[j]) + ["missing"]
    return Dataset(ds.name + "_missing_as_value", X, ds.y, ds.classes, ds.feature_names, ds.categorical, cats,
                   dict(ds.meta))


def compare_fold(ds: Dataset, train, test, label, classifier, options, kind):
    """(our proba, Weka proba) on one fold, discretising numeric attributes on both sides."""
    if kind == "waode" and np.isnan(ds.X).any():
        ds = missing_as_value(ds)
    numeric = not ds.categorical.all()
    discretise = numeric and kind != "nb_kde_weka"
    Xtr, Xte, cat, ncat = mdl_fold(ds, train, test, discretise)
    est = ours(kind, cat, ncat).fit(Xtr, ds.y[train])
    r = weka.run(ds, train, test, classifier, options, filter=MDL_FILTER if discretise else None)
    return est.predict_proba(Xte), r.proba


def agreement_row(name: str, case, n_folds: int = 10, max_folds: int | None = None) -> dict:
    label, classifier, options, kind = case
    ds = load(name)
    ours_p, weka_p, truth = [], [], []
    for i, s in enumerate(splits(ds.y, {"kind": "kfold", "n_splits": n_folds}, 0)):
        if max_folds is not None and i >= max_folds:
            break
        p, w = compare_fold(ds, s.train, s.test, label, classifier, options, kind)
        ours_p.append(p)
        weka_p.append(w)
        truth.append(ds.y[s.test])
    P, W, y = np.vstack(ours_p), np.vstack(weka_p), np.concatenate(truth)
    return {"dataset": name, "classifier": label, "n_test": len(y),
            "max_abs_diff": float(np.abs(P - W).max()),
            "pred_agree_pct": 100.0 * float(np.mean(P.argmax(1) == W.argmax(1))),
            "error_ours": float(np.mean(P.argmax(1) != y)), "error_weka": float(np.mean(W.argmax(1) != y))}


# --------------------------------------------------------------------------- fast: one fold
@pytest.mark.parametrize("case", [c for c in CASES if c[3] != "nb_kde_weka"], ids=lambda c: c[3])
def test_one_fold_of_car_agrees_to_1e9(case):
    row = agreement_row("car", case, max_folds=1)
    assert row["max_abs_diff"] < 1e-9
    assert row["pred_agree_pct"] == 100.0


def test_one_fold_of_segment_after_mdl_agrees_to_1e9():
    ds = load("segment")
    s = next(iter(splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0)))
    for case in (CASES[2], CASES[4]):
        p, w = compare_fold(ds, s.train, s.test, *case)
        assert np.abs(p - w).max() < 1e-9
        assert np.array_equal(p.argmax(1), w.argmax(1))


# --------------------------------------------------------------------------- slow: the full table
@pytest.mark.slow
@pytest.mark.parametrize("name", ["car", "mushroom", "segment", "letter"])
def test_ten_folds_agree_to_1e9(name):
    for case in CASES:
        if case[3] == "nb_kde_weka" and load(name).categorical.all():
            continue
        row = agreement_row(name, case)
        print(row)
        assert row["max_abs_diff"] < 1e-9, row
        assert row["pred_agree_pct"] == 100.0, row


def main(names):
    rows = []
    for name in names:
        nominal = load(name).categorical.all()
        for case in CASES:
            if case[3] == "nb_kde_weka" and nominal:
                continue
            rows.append(agreement_row(name, case))
            r = rows[-1]
            print(f"| {r['dataset']} | {r['classifier']} | {r['n_test']} | {r['max_abs_diff']:.1e} | "
                  f"{r['pred_agree_pct']:.2f} | {r['error_ours']:.4f} | {r['error_weka']:.4f} |", flush=True)
    return rows


def test_weka_timing_driver_repeats_in_one_jvm():
    """bench.weka.timing (the same-run Weka peer of bench/perf/counts.py): one time per repeat."""
    from bench.weka.timing import time_classifier

    ds = load("car")
    idx = np.arange(ds.n_instances)
    t = time_classifier(ds, idx[::2], idx[1::2], "weka.classifiers.bayes.AODE", ["-F", "1"], repeats=3)
    assert len(t.train_s) == len(t.test_s) == 3
    assert all(s > 0 for s in t.train_s + t.test_s)
    assert t.best_train_s == min(t.train_s)


if __name__ == "__main__":
    print("| dataset | Weka classifier | test rows | max abs proba diff | prediction agreement % | error ours "
          "| error Weka |\n|---|---|---|---|---|---|---|")
    main(sys.argv[1:] or ["car", "mushroom", "segment", "letter"])
