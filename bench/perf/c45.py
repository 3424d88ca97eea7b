"""J48 (C4.5, ``algorithms.c45.J48``) against Weka 3.6's J48 and scikit-learn's entropy tree.

On fold 0 of a 10-fold split of each dataset: our fit and predict_proba (best of 3, Numba
kernels already compiled) against, in the same run,

- Weka 3.6 ``J48 -C 0.25 -M 2`` on the same rows (``bench.weka``; Weka's own in-JVM train and
  test seconds, one run, so they include the JIT's warm-up, and its test seconds include
  formatting the distributions as text);
- scikit-learn ``DecisionTreeClassifier(criterion="entropy")`` (best of 3): a different, unpruned
  binary tree (information gain, no gain ratio, no pruning), the usual Python peer.

The note gives both trees' leaf counts and the share of test predictions on which ours and
Weka's agree.
"""

from __future__ import annotations

import numpy as np

from . import benchmark, best_of, row


def _cases(quick: bool):
    return ["car", "segment", "magic"] if quick else ["magic", "letter", "covtype_head20k"]


@benchmark("c45")
def c45_vs_weka_and_sklearn(quick: bool = False) -> list[dict]:
    from sklearn.tree import DecisionTreeClassifier

    from algorithms.c45 import J48

    from .. import weka
    from ..data import load
    from ..protocols import splits

    rows = []
    for name in _cases(quick):
        ds = load(name)
        s = next(iter(splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0)))
        Xtr, ytr, Xte = ds.X[s.train], ds.y[s.train], ds.X[s.test]
        case = f"{name} {len(s.train)}x{ds.n_features} fold 0"

        def fit():
            return J48(categorical_features=ds.categorical, n_categories=ds.n_categories).fit(Xtr, ytr)

        fit_s, model = best_of(fit)
        predict_s, proba = best_of(lambda: model.predict_proba(Xte))
        ours = model.classes_[np.argmax(proba, 1)]
        note = f"our leaves {model.n_leaves_}"
        if weka.available():
            r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.J48", ["-C", "0.25", "-M", "2"],
                         measures=["measureNumLeaves"])
            agree = np.mean(ours == np.argmax(r.proba, 1))
            note += f", Weka leaves {int(r.measures['measureNumLeaves'])}, predictions agree {100 * agree:.2f}%"
            rows.append(row("c45", case, "J48 fit", fit_s, "Weka J48 fit", r.train_s, note=note))
            rows.append(row("c45", case, "J48 predict_proba", predict_s, "Weka J48 test", r.test_s,
                            note="Weka's test time includes formatting the distributions"))
        else:
            rows.append(row("c45", case, "J48 fit", fit_s, note=note + "; Weka not installed"))
        sk_fit_s, sk = best_of(lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(
            np.nan_to_num(Xtr, nan=-1.0), ytr))
        sk_predict_s, _ = best_of(lambda: sk.predict_proba(np.nan_to_num(Xte, nan=-1.0)))
        rows.append(row("c45", case, "J48 fit", fit_s, "sklearn entropy tree fit", sk_fit_s,
                        note=f"sklearn leaves {sk.get_n_leaves()} (unpruned binary tree)"))
        rows.append(row("c45", case, "J48 predict_proba", predict_s, "sklearn entropy tree predict_proba",
                        sk_predict_s))
    return rows


def weka_agreement(names, n_folds: int = 10, seed: int = 0) -> list[dict]:
    """Our J48 and Weka 3.6 ``J48 -C 0.25 -M 2`` on the same k folds of each dataset: mean test
    error of each, share of identical predictions, mean leaf counts and total training seconds
    (ours: one fit per fold after a warm-up fit; Weka's: its in-JVM training time)."""
    import time

    from algorithms.c45 import J48

    from .. import weka
    from ..data import load
    from ..protocols import splits

    out = []
    for name in names:
        ds = load(name)
        folds = list(splits(ds.y, {"kind": "kfold", "n_splits": n_folds}, seed))
        warm = folds[0].train[:: max(1, len(folds[0].train) // 300)]  # compile / load the kernels first
        J48(categorical_features=ds.categorical, n_categories=ds.n_categories).fit(ds.X[warm], ds.y[warm])
        err, werr, same, leaves, wleaves, fit_s, wfit_s, n = 0.0, 0.0, 0, [], [], 0.0, 0.0, 0
        for s in folds:
            m = J48(categorical_features=ds.categorical, n_categories=ds.n_categories)
            t0 = time.perf_counter()
            m.fit(ds.X[s.train], ds.y[s.train])
            fit_s += time.perf_counter() - t0
            ours = m.predict(ds.X[s.test])
            r = weka.run(ds, s.train, s.test, "weka.classifiers.trees.J48", ["-C", "0.25", "-M", "2"],
                         measures=["measureNumLeaves"])
            theirs = np.argmax(r.proba, 1)
            err += np.sum(ours != ds.y[s.test])
            werr += np.sum(theirs != ds.y[s.test])
            same += np.sum(ours == theirs)
            n += len(s.test)
            leaves.append(m.n_leaves_)
            wleaves.append(r.measures["measureNumLeaves"])
            wfit_s += r.train_s
        out.append({"dataset": name, "error": err / n, "weka_error": werr / n, "agreement": same / n,
                    "leaves": float(np.mean(leaves)), "weka_leaves": float(np.mean(wleaves)),
                    "identical_leaf_counts": int(np.sum(np.array(leaves) == np.array(wleaves))),
                    "folds": n_folds, "train_s": fit_s, "weka_train_s": wfit_s})
    return out


if __name__ == "__main__":  # python -m bench.perf.c45 letter,segment,car,magic [n_folds]
    import sys

    from ..summary import format_table

    table = weka_agreement(sys.argv[1].split(","), int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    print(format_table(
        ["dataset", "our error", "Weka error", "agreement %", "our leaves", "Weka leaves", "same #leaves",
         "our train s", "Weka train s"],
        [[r["dataset"], f"{r['error']:.4f}", f"{r['weka_error']:.4f}", f"{100 * r['agreement']:.2f}",
          f"{r['leaves']:.1f}", f"{r['weka_leaves']:.1f}", f"{r['identical_leaf_counts']}/{r['folds']}",
          f"{r['train_s']:.2f}", f"{r['weka_train_s']:.2f}"] for r in table], align="<>>>>>>>>"))
