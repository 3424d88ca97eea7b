"""Weka-faithful random forest (``algorithms.random_tree.RandomForestWeka``, configs ``rf10_weka`` /
``rf100_weka``) against scikit-learn's RandomForestClassifier and Weka 3.6's RandomForest.

Speed (``python -m bench.perf forest``): on fold 0 of a 10-fold split of each dataset, the
training seconds of our forest (best of 3, kernels compiled) against, in the same run,

- scikit-learn ``RandomForestClassifier`` with the same number of trees, ``criterion="entropy"``,
  the same K = int(log2(M)) + 1 features per split, one thread (best of 3; nominal codes are
  split as numbers, NaN handled by scikit-learn's own missing-value support);
- Weka 3.6 ``RandomForest -I <n> -K 0`` (``bench.weka.timing``: built 3 times in one JVM, best
  in-JVM training seconds, so JIT-warm and without ARFF parsing).

``ratio`` is peer seconds / our seconds (> 1: ours is faster). The note gives the test error of
the three forests on that fold.

Agreement (``python -m bench.perf.forest agree DATA[,DATA...] [--seeds 10] [--trees 10]
[--protocol cv10]``): forests are randomised, so ours and Weka's are compared statistically. On
the identical splits of ``bench.protocols`` (the protocol config, fold seed 0), each side is run
with forest seeds 1..n (ours ``random_state=s``, Weka ``-S s``); a seed's error is the error over
all test rows of all splits; the table gives each side's mean over seeds with its standard
error (sd / sqrt(n)), the difference and the difference in combined standard errors.
"""

from __future__ import annotations

import math
import time

import numpy as np

from . import benchmark, best_of, row


def _cases(quick: bool):
    return [("car", 10), ("segment", 10)] if quick else [("car", 100), ("segment", 100), ("magic", 100),
                                                          ("letter", 100)]



@benchmark("forest")
def forest_vs_sklearn_and_weka(quick: bool = False) -> list[dict]:
    from sklearn.ensemble import RandomForestClassifier

    from algorithms.random_tree import RandomForestWeka, weka_k

    from .. import weka
    from ..data import load
    from ..protocols import splits

    rows = []
    for name, trees in _cases(quick):
        ds = load(name)
        s = next(iter(splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0)))
        Xtr, ytr, Xte, yte = ds.X[s.train], ds.y[s.train], ds.X[s.test], ds.y[s.test]
        case = f"{name} {len(s.train)}x{ds.n_features} fold 0, {trees} trees"

        def ours():
            return RandomForestWeka(n_estimators=trees, categorical_features=ds.categorical,
                                    n_categories=ds.n_categories, random_state=1).fit(Xtr, ytr)

        ours()  # compile / load the kernels
        fit_s, model = best_of(ours)
        err = np.mean(model.predict(Xte) != yte)
        k = weka_k(ds.n_features)

        def sk():
            return RandomForestClassifier(n_estimators=trees, criterion="entropy", max_features=k,
                                          min_samples_leaf=1, bootstrap=True, n_jobs=1,
                                          random_state=1).fit(Xtr, ytr)

        sk_s, skm = best_of(sk)
        sk_err = np.mean(skm.predict(Xte) != yte)
        note = f"test error: ours {err:.4f}, sklearn {sk_err:.4f}"
        rows.append(row("forest", case, "rf_weka fit", fit_s, "sklearn RF fit", sk_s,
                        note=note + f"; our mean nodes/tree {model.n_nodes_.mean():.0f}"))
        if weka.available():
            from ..weka.timing import time_classifier

            wt = time_classifier(ds, s.train, s.test, "weka.classifiers.trees.RandomForest",
                                 ["-I", str(trees), "-K", "0", "-S", "1"], repeats=3)
            r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.RandomForest",
                         ["-I", str(trees), "-K", "0", "-S", "1"])
            w_err = np.mean(np.argmax(r.proba, 1) != yte)
            rows.append(row("forest", case, "rf_weka fit", fit_s, "Weka RandomForest build", wt.best_train_s,
                            note=f"test error: ours {err:.4f}, Weka {w_err:.4f} (Weka best of 3 builds in one JVM)"))
        else:
            rows.append(row("forest", case, "rf_weka fit", fit_s, note="Weka not installed"))
        pred_s, _ = best_of(lambda: model.predict_proba(Xte))
        sk_pred_s, _ = best_of(lambda: skm.predict_proba(Xte))
        rows.append(row("forest", case, "rf_weka predict_proba", pred_s, "sklearn RF predict_proba", sk_pred_s))
    return rows


def agreement(names, n_seeds: int = 10, n_trees: int = 10, protocol: str = "cv10", fold_seed: int = 0,
              progress: bool = True) -> list[dict]:
    """Per dataset: error of our forest and of Weka's ``RandomForest -I n_trees -K 0`` on the same
    splits, for forest seeds 1..n_seeds per side: mean over seeds, standard error, difference."""
    from algorithms.random_tree import RandomForestWeka

    from .. import weka
    from ..data import load
    from ..protocols import resolve, splits
    from ..stats.spread import standard_error
    from ..weka.folds import _protocol

    out = []
    for name in names:
        ds = load(name)
        folds = list(splits(ds.y, resolve(_protocol(protocol), name), fold_seed))
        n_test = sum(len(s.test) for s in folds)
        ours, theirs, our_s, weka_s = [], [], 0.0, 0.0
        for seed in range(1, n_seeds + 1):
            wrong, wwrong = 0, 0
            for s in folds:
                t0 = time.perf_counter()
                m = RandomForestWeka(n_estimators=n_trees, categorical_features=ds.categorical,
                                     n_categories=ds.n_categories, random_state=seed).fit(ds.X[s.train], ds.y[s.train])
                our_s += time.perf_counter() - t0
                wrong += int(np.sum(m.predict(ds.X[s.test]) != ds.y[s.test]))
                r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.RandomForest",
                             ["-I", str(n_trees), "-K", "0", "-S", str(seed)])
                weka_s += r.train_s
                wwrong += int(np.sum(np.argmax(r.proba, 1) != ds.y[s.test]))
            ours.append(wrong / n_test)
            theirs.append(wwrong / n_test)
            if progress:
                print(f"  {name} seed {seed}: ours {ours[-1]:.4f}  Weka {theirs[-1]:.4f}", flush=True)
        a, b = np.array(ours), np.array(theirs)
        se_a, se_b = standard_error(a), standard_error(b)
        diff = a.mean() - b.mean()
        se_d = math.hypot(se_a, se_b)
        out.append({"dataset": name, "splits": len(folds), "seeds": n_seeds, "ours": a.mean(), "ours_se": se_a,
                    "weka": b.mean(), "weka_se": se_b, "diff": diff, "diff_se": se_d,
                    "z": diff / se_d if se_d > 0 else 0.0,
                    "ours_within_weka_se": abs(diff) <= se_b, "weka_within_ours_se": abs(diff) <= se_a,
                    "train_s": our_s, "weka_train_s": weka_s})
    return out


def format_agreement(table) -> str:
    from ..summary import format_table

    return format_table(
        ["dataset", "splits x seeds", "ours mean±se", "Weka mean±se", "ours-Weka", "z", "within se",
         "our train s", "Weka train s"],
        [[r["dataset"], f"{r['splits']}x{r['seeds']}", f"{r['ours']:.4f}±{r['ours_se']:.4f}",
          f"{r['weka']:.4f}±{r['weka_se']:.4f}", f"{r['diff']:+.4f}±{r['diff_se']:.4f}", f"{r['z']:+.2f}",
          ("both" if r["ours_within_weka_se"] and r["weka_within_ours_se"] else
           "ours in Weka's" if r["ours_within_weka_se"] else "Weka in ours" if r["weka_within_ours_se"] else "no"),
          f"{r['train_s']:.2f}", f"{r['weka_train_s']:.2f}"] for r in table], align="<>>>>>>>>")


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.perf.forest agree")
    ap.add_argument("command", choices=["agree"])
    ap.add_argument("datasets", help="comma-separated dataset names")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--trees", type=int, default=10)
    ap.add_argument("--protocol", default="cv10")
    args = ap.parse_args(argv)
    from .. import weka

    if not weka.available():
        raise SystemExit("Weka 3.6 is not installed here: apt-get install weka (or set WEKA_JAR)")
    table = agreement(args.datasets.split(","), args.seeds, args.trees, args.protocol)
    print(f"RandomForestWeka vs Weka RandomForest -I {args.trees} -K 0, protocol {args.protocol} "
          f"(fold seed 0, identical splits), forest seeds 1..{args.seeds} per side")
    print(format_agreement(table))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
