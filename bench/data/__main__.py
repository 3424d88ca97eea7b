"""``python -m bench.data list | info NAME | fetch NAME [NAME ...] | check [NAME ...] | plot NAME |
add FILE [--name NAME] [--target COLUMN] [--nominal COLS]``."""

from __future__ import annotations

import argparse
import sys

from .cache import cache_dir, data_dirs
from .dataset import DataError
from .registry import (
    _openml_cache_path,
    dataset_config,
    dataset_names,
    fetch_openml,
    load,
    locate_file,
    source_available,
    source_kind,
    where_to_get,
)


def _availability(cfg: dict) -> tuple[str, str]:
    for src in cfg.get("sources") or []:
        if source_available(src):
            kind = source_kind(src)
            return "yes", f"{kind}:{src[kind]}" if kind != "synthetic" else f"synthetic:{src['synthetic']}"
    return "no", ""


def cmd_list(args) -> int:
    rows, broken = [], []
    if not dataset_names():
        from ..paths import conf_dirs

        print(f"error: no dataset config found (searched {', '.join(str(d / 'data') for d in conf_dirs())}); this "
              f"install lacks bench's configs: reinstall bench, or point BENCH_CONF_DIR at a copy of its conf/",
              file=sys.stderr)
        return 2
    for name in dataset_names():
        try:
            cfg = dataset_config(name)
        except DataError as exc:  # one broken file does not hide the others
            broken.append(str(exc))
            rows.append((name, "", "", "", "ERROR", "conf/data/" + name + ".yaml cannot be read", ""))
            continue
        avail, via = _availability(cfg)
        exp = cfg.get("expected") or {}
        rows.append((name, exp.get("rows", ""), exp.get("features", ""), exp.get("classes", ""),
                     avail, via, ",".join(cfg.get("papers") or [])))
        if args.load and avail == "yes":
            try:
                ds = load(name)
                rows[-1] = (name, ds.n_instances, ds.n_features, ds.n_classes, avail, via, rows[-1][-1])
            except DataError as exc:
                rows[-1] = rows[-1][:4] + ("ERROR", str(exc)[:40], rows[-1][-1])
    header = ("dataset", "rows", "features", "classes", "available", "via", "papers")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    fmt = "  ".join(f"{{:{'>' if i in (1, 2, 3) else '<'}{w}}}" for i, w in enumerate(widths))
    print(fmt.format(*header))
    for r in rows:
        print(fmt.format(*[str(v) for v in r]))
    n_av = sum(r[4] == "yes" for r in rows)
    print(f"\n{n_av} of {len(rows)} datasets available here. Data directories searched: "
          f"{', '.join(str(d) for d in data_dirs())}")
    for text in broken:
        print(f"error: {text}", file=sys.stderr)
    return 1 if broken else 0


def cmd_info(args) -> int:
    ds = load(args.name)
    for k, v in ds.summary().items():
        print(f"{k:>10}: {v}")
    counts = ds.class_counts()
    print(f"{'classes':>10}: " + ", ".join(f"{c}={n}" for c, n in zip(ds.classes, counts)))
    print(f"{'missing':>10}: {100 * ds.missing_fraction():.2f}% of cells")
    if ds.meta.get("notes"):
        print(f"{'notes':>10}: {ds.meta['notes']}")
    return 0


def cmd_fetch(args) -> int:
    status = 0
    for name in args.names:
        cfg = dataset_config(name)
        ids = [s for s in cfg.get("sources") or [] if "openml" in s]
        if not ids:
            print(f"{name}: no OpenML source in conf/data/{name}.yaml, so nothing to fetch. "
                  + _file_whereabouts(name, cfg), file=sys.stderr)
            status = 1
            continue
        src = ids[0]
        path = _openml_cache_path(src["openml"])
        try:
            if path.exists() and not args.force:
                print(f"{name}: already cached at {path}")
            else:
                fetch_openml(int(src["openml"]), expected_name=src.get("openml_name"), dataset=name)
                print(f"{name}: fetched OpenML {src['openml']} into {path}")
            ds = load(name, use_memo=False)
            print(f"{name}: {ds.n_instances} x {ds.n_features}, {ds.n_classes} classes")
        except DataError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            status = 1
    return status


def _file_whereabouts(name: str, cfg: dict) -> str:
    """Where dataset ``name``'s file is read from here, or what to do to get it."""
    files = [s["file"] for s in cfg.get("sources") or [] if "file" in s]
    for f in files:
        path = locate_file(f)
        if path is not None:
            return f"It is read from {path}."
    return where_to_get(cfg)


def cmd_check(args) -> int:
    from .check import run

    return run(args.names, out=lambda line: print(line, flush=True))


def cmd_plot(args) -> int:
    from pathlib import Path

    from .plot import plot_dataset

    ds = load(args.name)
    from ..paths import user_reports_dir

    out = Path(args.out) if args.out else user_reports_dir() / "data"
    paths = plot_dataset(ds, out / args.name, max_rows=args.rows)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def cmd_add(args) -> int:
    from .add import add_dataset

    nominal = [c.strip() for c in args.nominal.split(",") if c.strip()] if args.nominal else None
    drop = [c.strip() for c in args.drop.split(",") if c.strip()] if args.drop else None
    if args.max_gb is not None and not args.max_gb >= 0:
        raise DataError(f"--max-gb {args.max_gb}: give the largest decompressed size to parse in GiB (0: no cap)")
    added = add_dataset(args.file, name=args.name, target=args.target, nominal=nominal, protocol=args.protocol,
                        force=args.force, target_is_class=args.target_is_class, drop=drop, max_gb=args.max_gb)
    print("\n".join(added.lines()))
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.data", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("list", help="every dataset with shape, classes and availability here")
    pl.add_argument("--load", action="store_true", help="load each available dataset to check it")
    pi = sub.add_parser("info", help="load one dataset and describe it")
    pi.add_argument("name")
    pf = sub.add_parser("fetch", help=f"download from OpenML into the cache ({cache_dir()})")
    pf.add_argument("names", nargs="+")
    pf.add_argument("--force", action="store_true")
    pc = sub.add_parser("check", help="locate each dataset file, verify its sha256 pin and that it builds; "
                        "exit 1 if a file shipped in datasets/ (or a named dataset) is not ok")
    pc.add_argument("names", nargs="*", help="datasets to check (default: every one with a file source)")
    pp = sub.add_parser("plot", help="scatter plots of the non-constant numeric attributes, two by two")
    pp.add_argument("name")
    pp.add_argument("--rows", type=int, default=7000, help="the first ROWS rows (default 7000)")
    pp.add_argument("--out", default=None, help="the folder for the figures (default: the workspace's reports/data)")
    pa = sub.add_parser("add", help="register your own CSV, CSV.gz, ARFF or Parquet file: writes conf/data/<name>.yaml "
                        "(sha256, shape, classes, nominal columns) and prints the data=<name> to use")
    pa.add_argument("file")
    pa.add_argument("--name", default=None, help="the dataset's name (default: from the file name)")
    pa.add_argument("--target", default=None, help="the class column (default: the last column)")
    pa.add_argument("--nominal", default=None, help="comma-separated columns to read as nominal (integer-coded "
                    "categories); text columns are nominal anyway")
    pa.add_argument("--protocol", default="cv10", help="the protocol every class must be learnable under "
                    "(default cv10): a class with a single row is refused")
    pa.add_argument("--target-is-class", action="store_true",
                    help="keep a numeric class column that looks continuous as classes")
    pa.add_argument("--drop", default=None, help="comma-separated columns to leave out (identifiers, dates, row "
                    "numbers: what describes the file, not the instances)")
    pa.add_argument("--max-gb", type=float, default=1.0, help="the largest decompressed size of the file to parse, "
                    "in GiB (default 1; 0: no cap)")
    pa.add_argument("--force", action="store_true", help="replace an existing conf/data/<name>.yaml")
    args = p.parse_args(argv)
    try:
        return {"list": cmd_list, "info": cmd_info, "fetch": cmd_fetch, "check": cmd_check,
                "plot": cmd_plot, "add": cmd_add}[args.cmd](args)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
