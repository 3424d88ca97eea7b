"""What a comparison runs and reads: its plan (algorithms x datasets x protocol x seeds), the jobs
it runs through :func:`bench.runner.run_job` (every stored split reused), and, with ``--against``,
the baselines read from an experiment's shipped evidence with the check that its folds are ours.

The records are the rows of :func:`bench.store.load` (one per split), narrowed to exactly the
(algorithm config, data identity, protocol identity, seed) of each job, so records of an older
config or another protocol stored beside them never enter a comparison. Records read from the
evidence have the same columns; their ``source`` column says ``evidence:<experiment>``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

#: the experiment folder of the records a comparison runs: the one ``python -m bench`` writes, so a
#: comparison reuses the user's own earlier jobs and never writes into a paper's experiment
DEFAULT_EXPERIMENT = "default"


class CompareError(ValueError):
    """A comparison that cannot run as asked; the message says what to change (exit status 2)."""


@dataclass
class Plan:
    """What one comparison compares."""

    name: str
    algos: list[str]                        #: every algorithm compared, the baseline among them
    datasets: list[str]
    protocol: str
    seeds: list[int]
    baseline: str
    experiment: str = DEFAULT_EXPERIMENT    #: where the runs it makes are stored
    run_algos: list[str] = field(default_factory=list)   #: the algorithms it runs (others come from evidence)
    against: str | None = None              #: the experiment whose shipped evidence gives the others
    scale: str | None = None
    missing: dict = field(default_factory=dict)           #: dataset -> why it is not here

    def as_dict(self) -> dict:
        return {"name": self.name, "algos": self.algos, "datasets": self.datasets, "protocol": self.protocol,
                "seeds": self.seeds, "baseline": self.baseline, "experiment": self.experiment,
                "run_algos": self.run_algos, "against": self.against, "scale": self.scale,
                "missing_datasets": self.missing}


def _split_list(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _check_names(algos: list[str], datasets: list[str], protocol: str) -> None:
    import difflib

    from ..data.registry import conf_dir, dataset_names
    from ..experiment_plan import algo_names

    known = set(algo_names())
    for a in algos:
        if a not in known:
            close = difflib.get_close_matches(a, sorted(known), n=3)
            raise CompareError(f"unknown algorithm {a!r}: no conf/algo/{a}.yaml" + (f"; did you mean {', '.join(close)}?"
                               if close else "") + " (write conf/algo/<name>.yaml for your own: see the README)")
    names = set(dataset_names())
    for d in datasets:
        if d not in names:
            close = difflib.get_close_matches(d, sorted(names), n=3)
            raise CompareError(f"unknown dataset {d!r}: no conf/data/{d}.yaml" + (f"; did you mean {', '.join(close)}?"
                               if close else "") + " (`bench data add FILE` registers your own)")
    if not (conf_dir() / "protocol" / f"{protocol}.yaml").exists():
        avail = sorted(p.stem for p in (conf_dir() / "protocol").glob("*.yaml"))
        raise CompareError(f"unknown protocol {protocol!r}; available: {', '.join(avail)}")
    if len(set(algos)) != len(algos):
        raise CompareError(f"an algorithm is named twice in {','.join(algos)}")


def _available(datasets: list[str]) -> tuple[list[str], dict]:
    from ..data.registry import dataset_config, source_available, unavailable_reason

    here, missing = [], {}
    for d in datasets:
        cfg = dataset_config(d)
        if any(source_available(s) for s in cfg.get("sources") or []):
            here.append(d)
        else:
            missing[d] = f"not available here ({unavailable_reason(cfg)})"
    return here, missing


def default_name(algos: list[str], against: str | None = None) -> str:
    name = "_vs_".join([algos[0], "_".join(algos[1:])]) if len(algos) > 1 else algos[0]
    if against:
        name = f"{'_'.join(algos)}_vs_{against}"
    return name if len(name) <= 60 else f"{algos[0]}_and_{len(algos) - 1}_more"


def plan_from_args(args) -> Plan:
    """The :class:`Plan` of the command line (``--experiment`` or ``--algos/--datasets``, with
    ``--against``); CompareError for what cannot be run."""
    algos, datasets = _split_list(args.algos), _split_list(args.datasets)
    try:
        seeds = [int(s) for s in _split_list(args.seeds)] if args.seeds else None
    except ValueError:
        raise CompareError(f"--seeds {args.seeds!r}: give integers >= 0 separated by commas, e.g. --seeds 0,1") from None
    if seeds is not None and any(s < 0 for s in seeds):
        raise CompareError(f"--seeds {args.seeds!r}: seeds are integers >= 0")
    if args.experiment and args.against:
        raise CompareError("give --experiment or --against, not both")
    if args.against:
        return _against_plan(args, algos, datasets, seeds)
    if args.experiment:
        if algos or datasets:
            raise CompareError("--experiment takes its algorithms and datasets from conf/experiment/"
                               f"{args.experiment}.yaml; leave out --algos and --datasets")
        from ..experiment_plan import plan

        try:
            p = plan(args.experiment, args.scale)
        except SystemExit as exc:
            raise CompareError(str(exc.code)) from None
        if p["sweep"] or p["overrides"]:
            raise CompareError(f"experiment {args.experiment} sweeps {sorted(p['sweep']) or p['overrides']}: bench "
                               f"compare compares named algorithms; run it with `bench experiments run` and read it "
                               f"with `bench report`")
        algos, datasets, protocol = list(p["algos"]), list(p["datasets"]), args.protocol or p["protocol"]
        seeds = seeds or p["seeds"]
        missing = {**p["missing_datasets"]}
        experiment, scale = args.experiment, args.scale
    else:
        if not algos or not datasets:
            raise CompareError("give --experiment NAME, or --algos a,b,... and --datasets d1,d2,... (and --protocol)")
        protocol, seeds, experiment, scale = args.protocol or "cv10", seeds or [0], DEFAULT_EXPERIMENT, None
        _check_names(algos, datasets, protocol)
        datasets, missing = _available(datasets)
    if len(algos) < 2:
        raise CompareError(f"a comparison needs at least two algorithms, got {', '.join(algos) or 'none'}")
    if not datasets:
        raise CompareError("no dataset is available here: " + "; ".join(f"{d}: {w}" for d, w in missing.items()))
    baseline = args.baseline or algos[0]
    if baseline not in algos:
        raise CompareError(f"the baseline {baseline!r} is not among the algorithms {', '.join(algos)}")
    name = args.name or (args.experiment if args.experiment else default_name(algos))
    return Plan(name, algos, datasets, protocol, seeds, baseline, experiment, list(algos), None, scale, missing)


# ------------------------------------------------------------------------------------ evidence
def reports_dir() -> Path:
    """Where the committed reports' evidence ships (``<this>/evidence``; a checkout's ``reports/``,
    else the installed package's copy: :func:`bench.paths.shipped_reports_dir`)."""
    from ..paths import shipped_reports_dir

    return shipped_reports_dir()


def output_dir(name: str) -> Path:
    """Where the report of comparison ``name`` goes: the workspace's ``reports/compare/<name>/``
    (:func:`bench.paths.user_reports_dir`)."""
    from ..paths import user_reports_dir

    return user_reports_dir() / "compare" / name


def evidence_baselines(experiment: str, reports: Path | None = None) -> tuple[pd.DataFrame, dict, pd.DataFrame]:
    """The records the reports read of ``experiment`` (newest config of each algorithm, at its plan's
    protocol), its plan and its bias/variance facts, from the shipped evidence; CompareError when
    none is shipped."""
    from ..report.evidence import EVIDENCE, Evidence, EvidenceError
    from ..stats.collect import latest_runs

    folder = (reports or reports_dir()) / EVIDENCE
    ev = Evidence(folder)
    if not ev.has(experiment):
        shipped = ", ".join(ev.experiments()) or "none"
        raise CompareError(f"no shipped evidence for experiment {experiment!r} in {folder} (shipped: {shipped})")
    try:
        rec, plan, bv = ev.records(experiment), ev.plan(experiment) or {}, ev.biasvar(experiment)
    except EvidenceError as exc:
        raise CompareError(str(exc)) from None
    rec = latest_runs(rec)
    if plan.get("protocol"):
        rec = rec[rec["protocol"] == plan["protocol"]]
    if plan.get("seeds") is not None:
        rec = rec[rec["seed"].isin(plan["seeds"])]
    rec = rec.assign(source=f"evidence:{experiment}").reset_index(drop=True)
    return rec, plan, bv


def _against_plan(args, algos, datasets, seeds) -> Plan:
    rec, plan, _ = evidence_baselines(args.against)
    if not algos:
        raise CompareError("--against needs --algos: your algorithm(s), run on the experiment's datasets and folds")
    if args.protocol and args.protocol != plan.get("protocol"):
        raise CompareError(f"--against {args.against} runs its protocol {plan.get('protocol')}; leave out --protocol")
    if seeds and seeds != plan.get("seeds"):
        raise CompareError(f"--against {args.against} runs its seeds {plan.get('seeds')}; leave out --seeds")
    shipped = [a for a in plan.get("algos", []) if a in set(rec["algo"])]
    baselines = _split_list(args.baselines) or shipped
    unknown = [a for a in baselines if a not in shipped]
    if unknown:
        raise CompareError(f"the evidence of {args.against} holds no {', '.join(unknown)}; it holds {', '.join(shipped)}")
    run_algos = [a for a in algos if a not in baselines]
    shipped_ds = [d for d in plan.get("datasets", []) if d in set(rec["dataset"])]
    if datasets:
        unknown = [d for d in datasets if d not in shipped_ds]
        if unknown:
            raise CompareError(f"the evidence of {args.against} holds no dataset {', '.join(unknown)}")
        shipped_ds = [d for d in shipped_ds if d in datasets]
    _check_names(run_algos, shipped_ds, plan["protocol"])
    here, missing = _available(shipped_ds)
    all_algos = run_algos + [a for a in baselines if a not in run_algos]
    if len(all_algos) < 2:
        raise CompareError("a comparison needs at least two algorithms")
    baseline = args.baseline or all_algos[0]
    if baseline not in all_algos:
        raise CompareError(f"the baseline {baseline!r} is not among {', '.join(all_algos)}")
    name = args.name or default_name(run_algos or all_algos[:1], args.against)
    return Plan(name, all_algos, here, plan["protocol"], [int(s) for s in plan.get("seeds", [0])], baseline,
                DEFAULT_EXPERIMENT, run_algos, args.against, plan.get("scale"), missing)


def fold_check(ours: pd.DataFrame, theirs: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """Whether our runs and the evidence's are on the same folds, per dataset.

    Splits depend only on the labels, the protocol and the seed (:mod:`bench.protocols`), so two
    runs share their folds when they share the data identity (``data_key``: the file's SHA-256
    and every transform), the protocol identity (``protocol_key``: kind, folds, repeats and the
    splitting scheme's version) and the seed; as a check of the outcome, every (seed, repeat,
    fold) must also have the same training and test sizes. Returns a table (dataset, what was
    compared, ok) and dataset -> the reason for those that differ."""
    rows, bad = [], {}
    cols = ["seed", "repeat", "fold", "n_train", "n_test"]
    for ds, mine in ours.groupby("dataset", sort=True):
        other = theirs[theirs["dataset"] == ds]
        why = []
        for key in ("dataset_sha256", "data_key", "protocol_key"):
            a, b = set(mine[key].dropna()), set(other[key].dropna())
            if a != b:
                why.append(f"{key} {', '.join(sorted(a))[:16]} here, {', '.join(sorted(b))[:16]} in the evidence")
        sizes_a = mine[cols].drop_duplicates().sort_values(cols[:3]).reset_index(drop=True)
        sizes_b = other[cols].drop_duplicates().sort_values(cols[:3]).reset_index(drop=True)
        same_sizes = sizes_a.shape == sizes_b.shape and bool((sizes_a.to_numpy() == sizes_b.to_numpy()).all())
        if not same_sizes:
            why.append("the splits' training/test sizes differ")
        rows.append({"dataset": ds, "data": str(mine["data_key"].iloc[0]), "protocol": str(mine["protocol_key"].iloc[0]),
                     "splits": len(sizes_a), "same folds": "yes" if not why else "no"})
        if why:
            bad[ds] = "; ".join(why)
    return pd.DataFrame(rows), bad


# ------------------------------------------------------------------------------------ running
@dataclass
class RunOutcome:
    records: pd.DataFrame
    computed: int = 0
    reused: int = 0
    failed: list = field(default_factory=list)          #: lines naming each failed split or job
    seconds: float = 0.0


def _protocol_cfg(name: str) -> dict:
    from ..data.add import protocol_config

    return protocol_config(name)


def run(plan: Plan, results_dir: str | None = None, progress: bool = True, rerun: bool = False) -> RunOutcome:
    """Run (or reuse) every split of ``plan.run_algos`` x ``plan.datasets`` x ``plan.seeds`` through
    :func:`bench.runner.run_job`, one job after another, with a progress bar per job, and return
    the records of exactly those jobs."""
    from ..data import DataError
    from ..experiment_plan import algo_config, results_root
    from ..protocols import ProtocolError
    from ..runner import SetupError, run_job
    from ..store import RecordError, load
    from ..data.registry import dataset_config

    root = results_root(results_dir)
    protocol = _protocol_cfg(plan.protocol)
    jobs = [(a, d, s) for a in plan.run_algos for d in plan.datasets for s in plan.seeds]
    out = RunOutcome(pd.DataFrame())
    keys, t0 = [], time.perf_counter()
    algo_cfgs = {a: algo_config(a) for a in plan.run_algos}
    for i, (algo, ds, seed) in enumerate(jobs, 1):
        if progress:
            print(f"[{i}/{len(jobs)}] {algo} on {ds}, seed {seed}", file=sys.stderr, flush=True)
        try:
            res = run_job(algo_cfgs[algo], dataset_config(ds), protocol, seed, plan.experiment, str(root),
                          rerun=rerun, progress=progress)
        except (DataError, SetupError, ProtocolError, RecordError) as exc:
            out.failed.append(f"{algo} on {ds} (seed {seed}): {exc}")
            continue
        out.computed += res.computed
        out.reused += res.reused
        for r in res.failed:
            out.failed.append(f"{algo} on {ds} r{r.get('repeat')} f{r.get('fold')}: {str(r.get('error'))[:200]}")
        keys.append(res.key)
    out.seconds = time.perf_counter() - t0
    frames = []
    for k in keys:
        df = load(root, experiment=k.experiment, dataset=k.dataset, algo=k.algo)
        df = df[(df["algo_hash"] == k.algo_hash) & (df["seed"] == k.seed) & (df["protocol"] == k.protocol)]
        kdir = k.directory(root).resolve()
        df = df[[Path(p).parent.resolve() == kdir for p in df["path"]]]
        frames.append(df)
    if frames:
        out.records = pd.concat(frames, ignore_index=True).assign(source="run")
    return out


def display_names(records: pd.DataFrame, plan: Plan) -> tuple[pd.DataFrame, Plan, list[str]]:
    """The records and plan with each algorithm shown by its exact configuration
    (:func:`bench.runner.config_label`): a baseline read from the evidence that was run with other
    settings than its ``conf/algo/<name>.yaml`` composes today (a swept variant, say) is shown as
    ``massbayes[psi=1000]``, not as ``massbayes``. A name whose records hold more than one
    configuration keeps its name; the notes returned say so."""
    import dataclasses

    from ..experiment_plan import algo_config, algo_names
    from ..runner import algo_identity, config_label

    if records.empty or "algo_config" not in records.columns:
        return records, plan, []
    known = set(algo_names())
    rename, notes = {}, []
    for name in plan.algos:
        rows = records[records["algo"] == name]
        if rows.empty:
            continue
        named = algo_config(name) if name in known else None
        labels = set()
        for cfg in rows.drop_duplicates("algo_hash")["algo_config"]:
            if isinstance(cfg, dict):
                labels.add(config_label(cfg, named) if named is not None else algo_identity(cfg)[0])
        if len(labels) == 1:
            (label,) = labels
            if label != name:
                rename[name] = label
        elif len(labels) > 1:
            notes.append(f"{name}: its records hold {len(labels)} configurations ({', '.join(sorted(labels))}); "
                         f"shown together as {name}")
    if not rename:
        return records, plan, notes
    new = lambda a: rename.get(a, a)  # noqa: E731
    records = records.assign(algo=records["algo"].map(new))
    plan = dataclasses.replace(plan, algos=[new(a) for a in plan.algos], baseline=new(plan.baseline),
                               run_algos=[new(a) for a in plan.run_algos])
    return records, plan, notes
