"""Safe report builds (bench/report/staging.py): concurrent builds into one folder give the single
build's output, and a build killed at any moment leaves every folder of the output either as the
previous build left it or as the new build makes it, complete, never a part of one."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.report import build
from bench.report import staging as S
from bench.report.evidence import compare_trees
from bench.report.synthetic import write_fake_run
from tests.conftest import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _results(res: Path, datasets=("iris", "zoo"), quality=0.8) -> Path:
    for i, ds in enumerate(datasets):
        for j, algo in enumerate(("rf10", "a2de_sw")):
            write_fake_run(res, "ande_sr", ds, algo, n=40, protocol="cv5x2", quality=quality - 0.1 * j,
                           rng_seed=i)
    write_fake_run(res, "smoke", "sk_iris", "gnb", n=30, protocol="cv2", quality=quality)
    return res


def _cmd(res: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "bench.report", "--results-dir", str(res), "--out", str(out), "--scale", "smoke"]


def _visible(out: Path) -> set[str]:
    return {p.name for p in out.iterdir() if not p.name.startswith(".")}


def _same(a: Path, b: Path) -> bool:
    """Same folder or file, build-time stamps masked (bench.report.evidence.compare_trees)."""
    if a.is_dir() != b.is_dir():
        return False
    return compare_trees(a, b) == [] if a.is_dir() else _same_file(a, b)


def _same_file(a: Path, b: Path) -> bool:
    from bench.report.evidence import _masked

    x, y = a.read_bytes(), b.read_bytes()
    return x == y or _masked(x, a.suffix) == _masked(y, a.suffix)


def test_exchange_swaps_two_folders(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "x").write_text("a"), (b / "y").write_text("b")
    assert S.exchange(a, b)      # ext4, tmpfs, btrfs, xfs: one atomic step
    assert (a / "y").read_text() == "b" and (b / "x").read_text() == "a"


def test_staged_tree_publishes_only_when_asked_and_cleans_up(tmp_path):
    out = tmp_path / "out"
    (out / "p").mkdir(parents=True)
    (out / "p" / "old.md").write_text("old")
    (out / "gone").mkdir()
    (out / "index.md").write_text("old index")
    (out / "scale-smoke").mkdir()          # another build's output: never copied nor replaced
    (out / ".x.building-abc").mkdir()      # left by a killed build: removed
    tree = S.StagedTree(out)
    assert not (out / ".x.building-abc").exists()
    assert not (tree.path / "scale-smoke").exists() and (tree.path / "p" / "old.md").exists()
    (tree.path / "p" / "old.md").unlink()
    (tree.path / "p" / "new.md").write_text("new")
    shutil.rmtree(tree.path / "gone")
    (tree.path / "q").mkdir()
    (tree.path / "index.md").write_text("new index")
    assert (out / "p" / "old.md").read_text() == "old" and (out / "gone").is_dir()   # nothing published yet
    tree.publish()
    assert sorted(p.name for p in (out / "p").iterdir()) == ["new.md"]
    assert (out / "q").is_dir() and not (out / "gone").exists() and (out / "scale-smoke").is_dir()
    assert (out / "index.md").read_text() == "new index"
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert tree.final(tree.path / "p" / "new.md") == out / "p" / "new.md"


def test_three_concurrent_builds_give_the_single_build(tmp_path):
    res = _results(tmp_path / "res")
    single = tmp_path / "single"
    build.build_reports(str(res), str(single), scale="smoke")
    build.build_reports(str(res), str(single), scale="smoke")      # the second build of the same records
    three = tmp_path / "three"
    procs = []
    for _ in range(3):
        procs.append(subprocess.Popen(_cmd(res, three), cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
        time.sleep(0.1)
    outs = [p.communicate(timeout=900) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [o[1][-2000:] for o in outs]
    assert sum("another report build is writing" in o[1] for o in outs) >= 1
    assert compare_trees(single, three) == []
    assert [p.name for p in three.iterdir() if p.name.startswith(".")] == [".build.lock"]


def _check_each_folder(out: Path, before: Path, after: Path) -> dict[str, str]:
    """Every top-level entry of ``out`` is the one of ``before`` or of ``after`` (or absent where the
    earlier build had none); returns entry -> 'before' / 'after' / 'absent'."""
    state = {}
    for name in sorted(_visible(before) | _visible(after)):
        got, old, new = out / name, before / name, after / name
        if not got.exists():
            assert not old.exists(), f"{name} vanished"
            state[name] = "absent"
        elif old.exists() and _same(old, got):
            state[name] = "before"
        elif new.exists() and _same(new, got):
            state[name] = "after"
        else:
            diff = compare_trees(old if old.exists() else new, got) if got.is_dir() else ["file differs"]
            raise AssertionError(f"{name} is neither the earlier nor the new one: {diff[:10]}")
    assert _visible(out) <= _visible(before) | _visible(after), _visible(out)
    return state


@pytest.mark.parametrize("seed", [29])
def test_a_killed_build_leaves_every_folder_complete(tmp_path, seed):
    """SIGKILL at random moments, and once in the middle of the swap: every folder is the previous
    build's or the new build's, complete; the next build finishes the job."""
    old_res = _results(tmp_path / "old_res", datasets=("iris",), quality=0.7)
    new_res = _results(tmp_path / "new_res", datasets=("iris", "zoo", "wine"), quality=0.9)
    before = tmp_path / "before"
    build.build_reports(str(old_res), str(before), scale="smoke")
    after = tmp_path / "after"
    shutil.copytree(before, after)
    t0 = time.time()
    subprocess.run(_cmd(new_res, after), cwd=ROOT, env=ENV, check=True, capture_output=True, timeout=900)
    took = time.time() - t0
    changed = {n for n in _visible(before) | _visible(after)
               if not ((before / n).exists() and (after / n).exists() and _same(before / n, after / n))}
    assert {"ande_sr", "smoke", "evidence", "index.md"} <= changed, changed

    rng = random.Random(seed)
    seen: set[str] = set()
    delays = sorted(rng.uniform(0.2, took) for _ in range(10))
    for i, delay in enumerate(delays + [None]):
        out = tmp_path / f"kill{i}"
        shutil.copytree(before, out)
        if delay is None:   # in the middle of the swap
            env = {**ENV, S.SWAP_PAUSE_ENV: "0.4"}
            proc = subprocess.Popen(_cmd(new_res, out), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            for line in proc.stderr:
                if line.startswith("publishing "):
                    break
            time.sleep(0.4 * 4 + 0.2)
        else:
            proc = subprocess.Popen(_cmd(new_res, out), cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        state = _check_each_folder(out, before, after)
        seen |= {f"{k}:{v}" for k, v in state.items() if k in changed}
        if delay is None:
            assert {"before", "after"} <= {state[n] for n in changed}, state   # killed mid-swap
    assert any(s.endswith(":before") for s in seen) and any(s.endswith(":after") for s in seen)
    # the next build removes what the killed one left and gives the new build's output
    subprocess.run(_cmd(new_res, out), cwd=ROOT, env=ENV, check=True, capture_output=True, timeout=900)
    assert compare_trees(after, out) == []
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [".build.lock"]


def _stat_snapshot(out: Path) -> dict:
    """Every file under ``out`` with its bytes, inode and modification time (a rewrite with the same
    bytes changes the inode or the time)."""
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def test_a_user_experiment_build_touches_nothing_but_its_folder(tmp_path):
    """`python -m bench.report --experiment my_logreg` writes reports/my_logreg/ and leaves
    every other file, reports/index.md and index.html included, as it was; a paper's experiment is
    refused with the --paper to use."""
    res = _results(tmp_path / "res", datasets=("iris",))
    out = tmp_path / "reports"
    build.build_reports(str(res), str(out), scale="smoke")
    for i, ds in enumerate(("sk_iris", "zoo")):
        for j, algo in enumerate(("logreg", "nb_disc")):
            write_fake_run(res, "my_logreg", ds, algo, n=40, protocol="cv2", quality=0.7 + 0.1 * j, rng_seed=i)
    before = _stat_snapshot(out)
    cmd = [sys.executable, "-m", "bench.report", "--results-dir", str(res), "--out", str(out), "--experiment",
           "my_logreg"]
    proc = subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"{out}/my_logreg/" in proc.stdout and "nothing else" in proc.stdout
    got = _stat_snapshot(out)
    mine = {k for k in got if k.startswith("my_logreg/")}
    assert {"my_logreg/summary_long.csv", "my_logreg/summary_error.md"} <= mine
    assert {k: v for k, v in got.items() if k not in mine} == before      # bytes, inodes and times
    # the build manifests: facts of the records, the evidence only where it ships
    full = json.loads((out / "smoke" / "manifest.json").read_text())
    assert full["evidence"] == "evidence/smoke.records.parquet" and (out / full["evidence"]).exists()
    assert full["records"] == {"total": 2, "ok": 2, "failed": 0, "not_applicable": 0}
    assert "summary_long.csv" in full["files"] and full["protocol"] == "cv2"
    mine_m = json.loads((out / "my_logreg" / "manifest.json").read_text())
    assert mine_m["evidence"] is None and mine_m["records"]["total"] == 2 * 2 * 2
    # every file but the folder's records of its files (the manifest, and contents.json: bench.report.contents)
    # and the tables' HTML views (renderings of the tables it lists: bench.report.tables.write_table)
    views = {k.removeprefix("my_logreg/") for k in mine if k.endswith(".html")
             and f"{k.removesuffix('.html')}.md" in mine}
    assert set(mine_m["files"]) == {k.removeprefix("my_logreg/") for k in mine} - {"manifest.json", "contents.json"} - views
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [".build.lock"]
    # an experiment of a paper is rebuilt with its paper, never alone
    proc = subprocess.run(cmd[:-1] + ["ande_sr"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 2 and "belongs to paper ande_sr" in proc.stderr and "--paper ande_sr" in proc.stderr
    assert _stat_snapshot(out) == got
