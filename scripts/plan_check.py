"""The cost plan's estimate against a measured run (bench/plan.py; reports/plans/check_estimate_vs_measured.md).

Fits the cost model on the records of a calibration run only (no reports), predicts the per-split
CPU and peak memory of NB, A1DE and A2DE under cv5x2 on five larger datasets, and compares with
the records of the run of those:

    BENCH_RESULTS_DIR=$R/calib python -m bench -m algo=nb,a1de,a2de protocol=cv5x2 progress=false \
        data=vehicle,german,yeast,contraceptive,car,segment,splice,kr_vs_kp,sick,spambase,waveform_5000,page_blocks
    python scripts/plan_check.py $R/calib $R/check/x predict      # writes $R/check/predicted.json
    BENCH_RESULTS_DIR=$R/check/x python -m bench -m algo=nb,a1de,a2de protocol=cv5x2 progress=false \
        data=nursery,magic,letter,adult,connect_4
    python scripts/plan_check.py $R/calib $R/check/x measure
"""
import json, sys
from pathlib import Path
import numpy as np
from bench import plan as P
from bench.store import load

calib, target_dir, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
algos = ["nb", "a1de", "a2de"]
targets = ["nursery", "magic", "letter", "adult", "connect_4"]
obs = P.collect([calib], None)
models = P.build_models(obs)
p = {"experiment": "check", "algos": algos, "datasets": targets, "protocol": "cv5x2", "seeds": [0],
     "sweep": {}, "missing_datasets": {}}
cells = P.estimate(p, models)
for a in algos:
    m = models[a]
    print(f"{a}: train {m.train.describe()} (fitted on {m.train.n_datasets}, LOO x{m.train.loo_factor:.2f}); "
          f"test {m.test.describe()}; memory {m.mem.describe() if m.mem else '-'}")
if mode == "predict":
    json.dump([c.__dict__ for c in cells], open(target_dir.parent / "predicted.json", "w"), indent=1)
    for c in cells:
        print(f"{c.label:5} {c.dataset:10} split {c.split_s:8.3f} s  cell {c.cpu_s - P.JOB_OVERHEAD_S:8.1f} s  peak {c.peak_mb:6.0f} MB  {c.how}")
    sys.exit(0)
pred = {(c["label"], c["dataset"]): c for c in json.load(open(target_dir.parent / "predicted.json"))}
df = load(target_dir)
df = df[df.status == "ok"]
rows, tot_p, tot_m = [], 0.0, 0.0
print("| algo | dataset | splits | predicted CPU s (splits) | measured CPU s | measured / predicted | predicted peak MB | measured peak MB |")
print("|---|---|---|---|---|---|---|---|")
ratios = []
for (a, d), g in df.groupby(["algo", "dataset"]):
    c = pred[(a, d)]
    meas = float((g["times.train_cpu_s"] + g["times.test_cpu_s"]).sum())
    pr = c["split_s"] * len(g)
    tot_p += pr; tot_m += meas; ratios.append(meas / pr)
    print(f"| {a} | {d} | {len(g)} | {pr:.1f} | {meas:.1f} | {meas / pr:.2f} | {c['peak_mb']:.0f} | {g['memory.peak_rss_mb'].max():.0f} |")
r = np.array(ratios)
print(f"\ntotal split CPU: predicted {tot_p:.1f} s, measured {tot_m:.1f} s (measured/predicted {tot_m / tot_p:.2f}); "
      f"per cell: geometric mean factor x{np.exp(np.mean(np.abs(np.log(r)))):.2f}, "
      f"range {r.min():.2f}..{r.max():.2f}")
