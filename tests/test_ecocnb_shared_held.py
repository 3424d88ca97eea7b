"""ECOC-NB's extra time over NB against N (claim EC07) over the shared pass, with the C heap keeping the memory
it frees (experiment ecocnb_instances_shared_held, ``allocator: hold_freed``).

- :func:`bench.resources.hold_freed_memory` does what it says: memory freed and allocated again costs no new
  page faults (measured in a fresh process, since the setting holds for the rest of a process);
- the scale-up driver refuses an unknown ``allocator`` by name;
- on the shipped evidence: the cause the held run removes (with the system's allocator NB's model step at
  N = 2463 is slower on every second repeat; with the heap held it is not), the per-N medians the report
  table gives recomputed from the raw repeats, and EC07's unchanged rule deciding on the held run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from bench.paths import shipped_reports_dir
from bench.report.context import ReportContext
from bench.report.evidence import Evidence

EVIDENCE = shipped_reports_dir() / "evidence"
HELD, SYSTEM = "ecocnb_instances_shared_held", "ecocnb_instances_shared"

_FAULTS = textwrap.dedent("""
    import resource, sys
    import numpy as np
    from bench.resources import hold_freed_memory
    if sys.argv[1] == "held":
        assert hold_freed_memory()
    def faults_of_a_block_allocated_again(mib):
        a = np.ones(mib * 2**20 // 8)
        del a
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        b = np.ones(mib * 2**20 // 8)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        del b
        return after - before
    print(*[faults_of_a_block_allocated_again(mib) for mib in (4, 8, 16)])
""")


def _faults(mode: str) -> list[int]:
    out = subprocess.run([sys.executable, "-c", _FAULTS, mode], capture_output=True, text=True, check=True)
    return [int(x) for x in out.stdout.split()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc mallopt and minor page-fault counts")
def test_holding_freed_memory_spares_the_page_faults_of_memory_allocated_again():
    """A block of 4, 8, then 16 MiB freed and allocated again: glibc by default maps each first block on its
    own and unmaps it when freed, so the second is faulted in afresh (hundreds of faults, about one per 4 KiB
    page up to transparent huge pages); with the heap held it is the same memory, already there."""
    system, held = _faults("system"), _faults("held")
    assert all(n >= 256 for n in system), system
    assert all(n <= 16 for n in held), held


def test_an_unknown_allocator_is_refused_by_name(monkeypatch):
    from bench import scaleup

    monkeypatch.setattr(scaleup, "experiment_config", lambda name: {"allocator": "jemalloc"})
    monkeypatch.setattr(scaleup, "plan", lambda name, scale: {})
    with pytest.raises(SystemExit, match="allocator is 'jemalloc'; use system .* or hold_freed"):
        scaleup.experiment_settings("x", "full")
    monkeypatch.setattr(scaleup, "experiment_config", lambda name: {})
    assert scaleup.experiment_settings("x", "full")["allocator"] == "system"


# ------------------------------------------------------------------ the shipped evidence
def _runs() -> dict[str, pd.DataFrame]:
    if not (EVIDENCE / f"{HELD}.records.parquet").exists():
        pytest.skip("the evidence of ecocnb_instances_shared_held is not shipped")
    ctx = ReportContext(evidence=Evidence(EVIDENCE))
    return {name: ctx.experiment(name).records for name in (HELD, SYSTEM)}


def _repeats(rec, key: str) -> np.ndarray:
    v = rec[f"extra.{key}"]
    return np.asarray(json.loads(v) if isinstance(v, str) else v, dtype=float)


def _nb_step(recs: pd.DataFrame, n: int) -> np.ndarray:
    r = recs[(recs["algo"] == "ecocnb_normal_b31_shared") & (recs["n_train"] == n)].iloc[0]
    return _repeats(r, "nb_model_cpu_s")


def test_the_held_run_is_the_protocol_of_the_system_run_with_the_heap_held():
    runs = _runs()
    for name, recs in runs.items():
        cfg = [json.loads(c) if isinstance(c, str) else c for c in recs["protocol_config"]]
        assert {c.get("allocator", "system") for c in cfg} == {"hold_freed" if name == HELD else "system"}
        key = recs[["algo", "algo_hash", "n_train", "dataset"]].sort_values(["algo", "n_train"])
        runs[name] = key.reset_index(drop=True)
    pd.testing.assert_frame_equal(runs[HELD], runs[SYSTEM])   # same configs, same sizes, same data


def test_the_cause_nb_step_slower_on_every_second_repeat_with_the_system_allocator_only():
    """With the system's allocator, NB's model step at N = 2463 took longer on every even repeat than on any odd
    one (the repeats alternate); with the heap held, the two halves overlap and their medians agree."""
    runs = _runs()
    nb = _nb_step(runs[SYSTEM], 2463)
    assert nb[0::2].min() > nb[1::2].max(), nb
    for n in sorted(set(runs[HELD]["n_train"])):
        held = _nb_step(runs[HELD], int(n))
        even, odd = held[0::2], held[1::2]
        assert even.min() < odd.max() and odd.min() < even.max(), (n, held)
        assert abs(np.median(even) / np.median(odd) - 1) < 0.15, (n, held)


def test_ec07_on_the_held_run_by_the_unchanged_rule(tmp_path):
    """The report's per-N medians of the held run equal the medians of its raw repeats, and EC07 is decided on
    it: both estimators' extra time above zero at the smallest and the largest N, and its growth within x2."""
    from bench import published
    from bench.papers.ecocnb import verdicts
    from bench.papers.ecocnb.build import shared_pass_tables
    from bench.report.facts import Facts

    runs = _runs()
    facts = Facts("ecocnb")
    shared_pass_tables(ReportContext(evidence=Evidence(EVIDENCE)), tmp_path, facts)
    table, growth = facts.table("shared_pass_extra"), facts.table("shared_pass_growth")
    held_rows = table[table["experiment"] == HELD]
    assert len(held_rows) == len(runs[HELD])
    for _, rec in runs[HELD].iterrows():
        extra = _repeats(rec, "ecoc_model_cpu_s") - _repeats(rec, "nb_model_cpu_s")
        est = "normal" if "normal" in rec["algo"] else "discretised"
        row = held_rows[(held_rows["estimator"] == est) & (held_rows["N"] == rec["n_train"])].iloc[0]
        assert row["extra_ms"] == round(1000 * float(np.median(extra)), 3)
        assert row["extra_lo_ms"] > 0
    g = growth[growth["experiment"] == HELD].set_index("estimator")
    assert set(g.index) == {"normal", "discretised"}
    assert (g["growth_lo"] >= 0.5).all() and (g["growth_hi"] <= 2).all(), g
    (tmp_path / "ecocnb").mkdir()
    facts.write(tmp_path / "ecocnb")
    claims = published.claims("ecocnb")
    got = {v.claim_id: v for v in verdicts.evaluate(tmp_path, claims[claims["claim_id"] == "EC07"].reset_index(drop=True))}
    assert got["EC07"].verdict == "reproduced", got["EC07"].reason
    assert "(ecocnb_instances_shared_held)" in got["EC07"].reason
