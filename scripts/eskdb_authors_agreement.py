"""How closely bench's ESKDB_M with the reference code's draws reproduces the authors' ESKDB_M, per instance.

    python scripts/eskdb_authors_agreement.py [--datasets iris wine ...] [--splits 2] [--stages]
                                              [--classes DIR] [--backoff 0|1]

For every dataset (complete data with numeric attributes only), the first ``--splits`` splits of
``cv5x2_eskdb`` (seed 0) are fitted twice on the same training rows and scored on the same test rows:

* bench: ``conf/algo/eskdb_m_authors_rng.yaml`` (java.util.Random draws for the cut points and the
  orders), with the seed the authors' driver gives split f: ``java_seed = 1990093 + f * n_estimators``
  (``MDL_R/TwoFoldCV.java`` keeps counting its member seed over the folds; see ``--fold-seeds`` in
  ``scripts/eskdb_cut_diversity.py``);
* the authors: their ESKDB_M (``MDL_R.MDLR`` + ``BNStructure_MDLR`` + ``wdBayesOnlinePYP_MDLR`` with
  ``-m MESTIMATION``, 10 members, averaged) run by a small Java harness (``MDL_R.ESKDBMHarness``) on
  ARFF copies of the same train / test rows, with the same seed.

The reference code is not part of bench (like Weka and Petal it is a peer): it has to be built outside
the repository (icesky0125/ESKDB-on-numerical-data, the ESKDB_M path of ``src/MDL_R``, ``src/ESKDB``,
``src/tools``, ``src/hdp`` compiled against Weka 3.6.14 and commons-math3 3.6.1, plus the harness).
``--classes`` (default ``$ESKDB_AUTHORS_CLASSES`` or ``/tmp/h31java/classes``) is its class directory;
when it, ``java`` or ``/usr/share/java/weka.jar`` is missing the script says so and exits 0.

Per dataset: the share of test instances with the same predicted class, the largest and the mean
absolute difference of the class probabilities (over instances and classes), and the error and RMSE
(over all classes, :func:`bench.metrics.rmse`) of each side. ``--stages`` also compares, member by
member, the cut points, the sampled order, n* (selected attributes), k* and the selected parents.

What is left to differ on complete data (found with this script and two instrumented builds of the reference code):

* the reference code rounds every M-estimate to 4 decimals before taking its log
  (``Utils.roundDouble(MEsti(..), 4)`` in ``hdp/ProbabilityNode.convertCountToProbsBackOff``); bench does
  not. With that call removed from the Java build the probabilities agree to the last bits wherever the
  structures agree;
* the parents: the reference code evaluates MI and CMI term by term, ``(a/N) * log(a b / (d e)) / log(2)``
  in its own loop order (``tools/CorrelationMeasures``), bench in nats divided by ``log 2`` once, in another
  order. Mathematically equal CMIs (frequent where several attributes get the same two bins, e.g. sonar)
  then differ in their last bits, and the choice among them differs. With the reference formula patched
  into bench's pass 1 the parents agree too;
* ``--driver-io``: the authors' driver writes the training rows to a temporary ARFF (numeric values with
  6 decimals) and trains on that copy, testing on the unrounded rows; on data with more decimals
  (segment) the rounding merges distinct values and, through the seed that carries over between
  attributes, changes the cut points of many attributes. Training bench on the rows rounded as Weka 3.6's
  ``Utils.doubleToString(v, 6)`` rounds them removes that difference;
* n* can differ (with no effect on the probabilities) where a one-bin attribute has zero MI: the reference
  code drops it from the order, ``eskdb_m_authors_rng`` keeps ``zero_mi="append"`` and its SKDB may select
  it on a last-bit LOO difference; its estimates are exactly 1.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's bench/algorithms

DATASETS = ("iris", "wine", "glass", "sonar", "segment", "vehicle", "pima", "ionosphere")
CONFIG = "eskdb_m_authors_rng"
AUTHORS_SEED = 1990093
WEKA_JAR = "/usr/share/java/weka.jar"
COMMONS_MATH = ("/tmp/h31java/lib/commons-math3-3.6.1.jar",
                str(Path.home() / ".m2/repository/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar"))
HARNESS = "MDL_R.ESKDBMHarness"


def reference_classpath(classes: str) -> str | None:
    """The harness's class path, or None (with the reason printed) when something is missing."""
    missing = []
    if shutil.which("java") is None:
        missing.append("java (a JDK/JRE on PATH)")
    if not (Path(classes) / "MDL_R" / "ESKDBMHarness.class").is_file():
        missing.append(f"the compiled reference code and harness ({classes}/MDL_R/ESKDBMHarness.class)")
    if not Path(WEKA_JAR).is_file():
        missing.append(WEKA_JAR)
    math = next((p for p in COMMONS_MATH if Path(p).is_file()), None)
    if math is None:
        missing.append("commons-math3-3.6.1.jar")
    if missing:
        print("eskdb_authors_agreement: skipped, missing " + "; ".join(missing) + ". The authors' ESKDB_M is "
              "not part of bench: build it outside the repository (see this script's docstring) and pass "
              "--classes DIR or set ESKDB_AUTHORS_CLASSES.")
        return None
    return os.pathsep.join([classes, WEKA_JAR, math])


def write_arff(path: Path, X: np.ndarray, y: np.ndarray, categorical, n_categories, n_classes: int) -> None:
    """Rows as an ARFF file: numeric columns as shortest round-trip decimals (Java parses them to the same
    doubles), nominal columns and the class as their codes 0..k-1 (declared in full)."""
    with open(path, "w") as f:
        f.write("@relation fold\n")
        for j in range(X.shape[1]):
            if categorical[j]:
                f.write(f"@attribute a{j} {{{','.join(str(v) for v in range(int(n_categories[j])))}}}\n")
            else:
                f.write(f"@attribute a{j} numeric\n")
        f.write(f"@attribute class {{{','.join(str(c) for c in range(n_classes))}}}\n@data\n")
        for row, label in zip(X, y):
            vals = [str(int(v)) if categorical[j] else repr(float(v)) for j, v in enumerate(row)]
            f.write(",".join(vals) + f",{int(label)}\n")


def run_reference(classpath: str, train: Path, test: Path, seed: int, n_estimators: int, backoff: int,
                  diag: bool, driver_io: bool = False) -> tuple[np.ndarray, list[str]]:
    """The authors' averaged class distributions (n_test, C) and, with ``diag``, the harness's
    per-member lines (CUT / MI / CMI / ORDER / SEL / PAR). ``driver_io``: the training rows go through the
    ArffSaver / ArffReader round trip of the authors' driver first (numeric values written with 6 decimals)."""
    out = subprocess.run(["java", "-cp", classpath, HARNESS, str(train), str(test), str(seed), str(n_estimators),
                          str(backoff), "1" if diag else "0", "1" if driver_io else "0"],
                         capture_output=True, text=True, check=True)
    rows = [line.split("\t") for line in out.stdout.splitlines() if line]
    proba = np.array([[float.fromhex(v) for v in r[1].split(",")] for r in rows])
    return proba, out.stderr.splitlines()


def stage_comparison(est, lines: list[str], numeric: np.ndarray) -> dict[str, tuple[int, int]]:
    """Member by member, bench against the harness: {stage: (equal, compared)}."""
    java: dict[str, dict] = {"CUT": {}, "ORDER": {}, "SEL": {}, "PAR": {}}
    for line in lines:
        parts = line.split("\t")
        if parts[0] == "CUT":
            java["CUT"][(int(parts[1]), int(parts[2]))] = [float.fromhex(v) for v in parts[3].split(",") if v]
        elif parts[0] == "ORDER":
            java["ORDER"][int(parts[1])] = [int(v) for v in parts[2].strip("[]").split(",") if v]
        elif parts[0] == "SEL":
            java["SEL"][int(parts[1])] = (int(parts[2]), int(parts[3]))
        elif parts[0] == "PAR":
            fam = {}
            for item in parts[2].split(";") if len(parts) > 2 else []:
                if item:
                    a, pa = item.split(":")
                    fam[int(a)] = [int(v) for v in pa.strip("[]").split(",") if v]
            java["PAR"][int(parts[1])] = fam
    res = {s: [0, 0] for s in ("cut points", "order", "n*", "k*", "parents")}
    for e, mb in enumerate(est.members_):
        for j, cuts in zip(numeric, mb.cut_points):
            res["cut points"][0] += list(cuts) == java["CUT"][(e, int(j))]
            res["cut points"][1] += 1
        jorder = java["ORDER"][e]
        border = [int(a) for a in mb.order[:len(jorder)]]
        res["order"][0] += border == jorder
        res["order"][1] += 1
        n_sel, k_sel = java["SEL"][e]
        res["n*"][0] += int(mb.model.n_selected_) == n_sel
        res["n*"][1] += 1
        # k only matters where a selected attribute could have parents; compare the selected families
        res["k*"][0] += int(mb.model.k_) == k_sel or n_sel <= 1
        res["k*"][1] += 1
        bench_fam = {int(a): [int(p) for p in (mb.model.parents_[a] or ())] for a in mb.model.selected_}
        res["parents"][0] += bench_fam == java["PAR"][e]
        res["parents"][1] += 1
    return {k: (v[0], v[1]) for k, v in res.items()}


def compare(name: str, n_splits: int, classpath: str, backoff: int, stages: bool, workdir: Path,
            driver_io: bool = False) -> dict | None:
    from bench.data import load
    from bench.experiment_plan import algo_config
    from bench.metrics import error_rate, predict_from_proba, rmse
    from bench.protocols import resolve, splits
    from bench.runner import _full_proba, build_estimator, estimator_seed
    from omegaconf import OmegaConf

    ds = load(name)
    if not (~ds.categorical).any():
        print(f"{name}: no numeric attribute, skipped")
        return None
    if np.isnan(ds.X).any():
        print(f"{name}: has missing values, skipped (complete data only)")
        return None
    protocol = resolve(OmegaConf.to_container(OmegaConf.load(ROOT / "conf" / "protocol" / "cv5x2_eskdb.yaml")),
                       name)
    cfg = algo_config(CONFIG)
    E = int(cfg["estimator"]["n_estimators"])
    C = len(ds.classes)
    numeric = np.flatnonzero(~ds.categorical)
    ys, pb, pa = [], [], []
    stage_tot: dict[str, list[int]] = {}
    for f, split in enumerate(splits(ds.y, protocol, seed=0)):
        if f >= n_splits:
            break
        seed = AUTHORS_SEED + f * E
        fcfg = {**cfg, "estimator": {**cfg["estimator"], "java_seed": seed}}
        _, est = build_estimator(fcfg, ds, estimator_seed(0, split.repeat, split.fold))
        est.fit(ds.X[split.train], ds.y[split.train])
        p_bench = _full_proba(est, est.predict_proba(ds.X[split.test]), C, split.test.size)
        tr, te = workdir / f"{name}_{f}_train.arff", workdir / f"{name}_{f}_test.arff"
        write_arff(tr, ds.X[split.train], ds.y[split.train], ds.categorical, ds.n_categories, C)
        write_arff(te, ds.X[split.test], ds.y[split.test], ds.categorical, ds.n_categories, C)
        p_auth, lines = run_reference(classpath, tr, te, seed, E, backoff, stages, driver_io)
        if p_auth.shape != p_bench.shape:
            raise RuntimeError(f"{name} split {f}: the harness returned {p_auth.shape}, bench {p_bench.shape}")
        ys.append(ds.y[split.test])
        pb.append(p_bench)
        pa.append(p_auth)
        if stages:
            for k, (eq, n) in stage_comparison(est, lines, numeric).items():
                t = stage_tot.setdefault(k, [0, 0])
                t[0] += eq
                t[1] += n
    y, p_bench, p_auth = np.concatenate(ys), np.vstack(pb), np.vstack(pa)
    diff = np.abs(p_bench - p_auth)
    pred_b, pred_a = predict_from_proba(p_bench), predict_from_proba(p_auth)
    return {"n_test": int(y.size), "same_pred": float(np.mean(pred_b == pred_a)), "max_diff": float(diff.max()),
            "mean_diff": float(diff.mean()), "err_bench": error_rate(y, pred_b), "err_authors": error_rate(y, pred_a),
            "rmse_bench": rmse(y, p_bench), "rmse_authors": rmse(y, p_auth), "stages": stage_tot}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS))
    ap.add_argument("--splits", type=int, default=2, help="first N splits of cv5x2_eskdb (seed 0)")
    ap.add_argument("--classes", default=os.environ.get("ESKDB_AUTHORS_CLASSES", "/tmp/h31java/classes"),
                    help="class directory of the compiled reference code and harness")
    ap.add_argument("--backoff", type=int, choices=(0, 1), default=1,
                    help="the authors' -B flag (back-off to the parent's estimate in an empty node)")
    ap.add_argument("--driver-io", action="store_true",
                    help="pass the training rows through the authors' driver's ArffSaver / ArffReader round trip "
                         "(MDL_R/TwoFoldCV.createTrainTmpFile: numeric values rounded to 6 decimals) before training")
    ap.add_argument("--stages", action="store_true",
                    help="also compare cut points, orders, n*, k* and parents member by member")
    args = ap.parse_args(argv)
    if args.splits < 1:
        ap.error("--splits must be at least 1")
    classpath = reference_classpath(args.classes)
    if classpath is None:
        return 0
    print(f"bench {CONFIG} against the authors' ESKDB_M ({args.classes}, -B {args.backoff}"
          f"{', driver ARFF round trip' if args.driver_io else ''}); first {args.splits} "
          f"split(s) of cv5x2_eskdb, seed 0; java_seed = {AUTHORS_SEED} + split * n_estimators")
    head = (f"{'dataset':11s} {'n_test':>6s} {'same pred':>9s} {'max|dp|':>9s} {'mean|dp|':>9s} | "
            f"{'err bench':>9s} {'authors':>8s} | {'rmse bench':>10s} {'authors':>8s}")
    print(head)
    print("-" * len(head))
    with tempfile.TemporaryDirectory(prefix="eskdb_authors_") as tmp:
        for name in args.datasets:
            r = compare(name, args.splits, classpath, args.backoff, args.stages, Path(tmp), args.driver_io)
            if r is None:
                continue
            print(f"{name:11s} {r['n_test']:6d} {r['same_pred']:9.4f} {r['max_diff']:9.2e} {r['mean_diff']:9.2e} | "
                  f"{r['err_bench']:9.4f} {r['err_authors']:8.4f} | {r['rmse_bench']:10.4f} {r['rmse_authors']:8.4f}")
            if r["stages"]:
                print("            members equal: " + ", ".join(f"{k} {eq}/{n}" for k, (eq, n) in r["stages"].items()))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
