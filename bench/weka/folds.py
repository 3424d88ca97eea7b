"""Run a Weka 3.6 classifier on the harness's own folds and set it beside a stored run.

``python -m bench.weka.folds DATA [--protocol cv10] [--seed 0] [--algo rf] -- CLASSIFIER [OPTIONS...]``

The splits come from ``bench.protocols`` with the protocol config of ``conf/protocol/``, so they
are the folds every stored run of ``DATA`` under that protocol and seed used. For each split
Weka trains on the training rows and predicts the test rows (``bench.weka.run``: ARFF files that
declare every nominal value of the whole file, Weka's own training seconds). With ``--algo``, the
stored records of that algorithm on the same dataset, protocol and seed (any experiment, or the
one given by ``--experiment``) are matched split by split: the table shows both error rates,
the difference and the share of test instances on which both predict the same class.

Example (the harness issue's check of Random Forest on letter)::

    python -m bench algo=rf data=letter
    python -m bench.weka.folds letter --algo rf -- weka.classifiers.trees.RandomForest -I 100 -S 1
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from . import available, run

__all__ = ["weka_on_folds", "main"]


def _protocol(name: str) -> dict:
    from omegaconf import OmegaConf

    from ..data.registry import conf_dir

    path = conf_dir() / "protocol" / f"{name}.yaml"
    if not path.exists():
        names = sorted(p.stem for p in (conf_dir() / "protocol").glob("*.yaml"))
        raise SystemExit(f"unknown protocol {name!r}; available: {', '.join(names)}")
    return OmegaConf.to_container(OmegaConf.load(path), resolve=True)


def weka_on_folds(dataset: str, classifier: str, options: list[str], protocol: str = "cv10", seed: int = 0,
                  max_splits: int | None = None, progress: bool = True) -> list[dict]:
    """One row per split: repeat, fold, Weka's predicted classes, its error and training seconds."""
    from ..data import load
    from ..protocols import resolve, splits
    from ..runner import _progress

    ds = load(dataset)
    prot = resolve(_protocol(protocol), dataset)
    all_splits = list(splits(ds.y, prot, seed))[:max_splits]
    rows = []
    with _progress(len(all_splits), f"Weka {classifier.rsplit('.', 1)[-1]} on {dataset}", progress) as bar:
        for s in all_splits:
            r = run(ds, s.train, s.test, classifier, options)
            pred = np.argmax(r.proba, axis=1)
            rows.append({"repeat": s.repeat, "fold": s.fold, "test": s.test, "pred": pred,
                         "error": float(np.mean(pred != ds.y[s.test])), "train_s": r.train_s, "test_s": r.test_s})
            bar.update(1)
    return rows


def _stored(dataset: str, algo: str, protocol: str, seed: int, experiment: str | None) -> dict:
    from ..store import load, load_predictions

    from ..store import results_root

    df = load(results_root(), experiment=experiment, dataset=dataset, algo=algo)
    if df.empty:
        return {}
    df = df[(df["algo"] == algo) & (df["protocol"] == protocol) & (df["seed"] == seed) & (df["status"] == "ok")]
    out = {}
    for rec in df.to_dict("records"):
        p = load_predictions(rec)
        out[(int(rec["repeat"]), int(rec["fold"]))] = (np.asarray(p["test_index"]), np.argmax(p["proba"], axis=1),
                                                       float(rec["metrics.error"]), rec.get("times.train_cpu_s"))
    return out


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        asked = any(a in ("-h", "--help") for a in argv)
        print(__doc__, file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    cut = argv.index("--")
    ap = argparse.ArgumentParser(prog="python -m bench.weka.folds", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset")
    ap.add_argument("--protocol", default="cv10")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--algo", default=None, help="a stored algorithm to set beside Weka")
    ap.add_argument("--experiment", default=None, help="read the stored run of this experiment only")
    ap.add_argument("--max-splits", type=int, default=None)
    args = ap.parse_args(argv[:cut])
    weka_cmd = argv[cut + 1:]
    if not weka_cmd:
        raise SystemExit("give the Weka classifier after --, e.g. -- weka.classifiers.trees.J48 -C 0.25")
    if not available():
        raise SystemExit("Weka 3.6 is not installed here: apt-get install weka (or set WEKA_JAR)")
    rows = weka_on_folds(args.dataset, weka_cmd[0], weka_cmd[1:], args.protocol, args.seed, args.max_splits)
    stored = _stored(args.dataset, args.algo, args.protocol, args.seed, args.experiment) if args.algo else {}
    from ..summary import format_table

    table, ours_err, weka_err, agree, n = [], [], [], 0, 0
    for r in rows:
        line = [r["repeat"], r["fold"], f"{r['error']:.4f}", f"{r['train_s']:.2f}"]
        weka_err.append(r["error"])
        s = stored.get((r["repeat"], r["fold"]))
        if s is not None:
            if not np.array_equal(np.sort(s[0]), np.sort(r["test"])):
                raise SystemExit(f"split r{r['repeat']} f{r['fold']}: the stored test rows differ from the "
                                 "protocol's; was the dataset or protocol changed?")
            pos = {int(i): k for k, i in enumerate(s[0])}
            ours = s[1][[pos[int(i)] for i in r["test"]]]
            same = int(np.sum(ours == r["pred"]))
            agree, n = agree + same, n + len(ours)
            ours_err.append(s[2])
            line += [f"{s[2]:.4f}", f"{s[2] - r['error']:+.4f}", f"{same / len(ours):.3f}"]
        table.append(line)
    head = ["repeat", "fold", "Weka error", "Weka train s"]
    if stored:
        head += [f"{args.algo} error", "difference", "same class"]
    mean = ["mean", "", f"{np.mean(weka_err):.4f}", f"{np.sum([r['train_s'] for r in rows]):.2f} (sum)"]
    if stored and len(ours_err) == len(rows):
        mean += [f"{np.mean(ours_err):.4f}", f"{np.mean(ours_err) - np.mean(weka_err):+.4f}", f"{agree / n:.3f}"]
    table.append(mean)
    print(f"{' '.join(weka_cmd)} on {args.dataset}, protocol {args.protocol}, seed {args.seed} (identical splits)")
    print(format_table(head, table))
    if args.algo and len(ours_err) < len(rows):
        print(f"note: {len(rows) - len(ours_err)} splits of {args.algo} are not stored; "
              f"run python -m bench algo={args.algo} data={args.dataset} protocol={args.protocol} seed={args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
