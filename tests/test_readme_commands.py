"""The README's example commands work in a clean clone: no BENCH_DATA_DIR, no network
(BENCH_OPENML_OFFLINE=1), a scratch results directory and user cache, nothing outside the clone.

The commands are read from README.md itself: every line of its ``bash`` blocks, its ``python``
block, and every inline code span that starts with ``python -m``, ``bench`` or ``make``. Each one
is either run (:data:`EXPECT`: what its output must show besides exit status 0) or skipped with the
reason (:data:`SKIP`: a cluster, Weka, installing packages, hours of CPU, or a placeholder);
a README command in neither list fails the test, so a new example gets a decision. ``bench
<command>`` runs as ``python -m bench.cli <command>`` (the README's form for a checkout). The clone
is ``git clone`` of this checkout at HEAD: the committed state, not the working tree.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: command -> (substrings its stdout + stderr must contain); run in this order (the python block
#: reads the records of the One job example)
EXPECT: dict[str, tuple[str, ...]] = {
    "bench --help": ("usage: bench <command>", "data", "list, describe, fetch, check and plot"),
    "python -m bench.data list": ("letter", "covtype_head20k", "datasets available here"),
    "python -m bench.data info letter": ("rows: 20000", "features: 16", "classes: 26"),
    "bench data check": ("letter", "ok", "datasets checked"),
    "python -m bench.experiments list": ("ande_sr", "massbayes_table3", "smoke"),
    "python -m bench.experiments plan ande_sr --scale full": ("# Plan: ande_sr at scale full", "estimated CPU"),
    "python -m bench": ("massbayes on sk_digits", "10 splits: 10 computed", "error rate"),
    "python -m bench algo=rf100 data=letter protocol=cv10 seed=0": ("rf100 on letter", "10 splits: 10 computed",
                                                                   "error rate"),
    "bench run": ("massbayes on sk_digits", "10 splits"),
    "bench run algo=nb data=iris protocol=cv2": ("nb on iris", "2 splits: 2 computed"),
    "bench list algos": ("alias of rf100", "variant of kdb", "algos ("),
    "bench list algos kdb": ("kdb5", "alias of kdb"),
    "bench list data": ("letter", "datasets"),
    "bench list protocols": ("cv5x2", "kfold"),
    "bench list experiments": ("ande_sr", "experiments"),
    "<python block>": (),
    "python -m bench -m algo=gnb,rf10,xgb data=sk_iris,sk_wine,synth_mixed protocol=cv10 hydra.launcher.n_jobs=2":
        ("sweep summary: 9 jobs",),
    # after the sweep: the same 90 splits, reused, and a report in the clone's reports/compare/
    "bench compare --algos gnb,rf10,xgb --datasets sk_iris,sk_wine,synth_mixed --protocol cv10":
        ("0 splits computed, 90 reused", "report: ", "reports/compare/gnb_vs_rf10_xgb/README.md"),
    "python -m bench.report --verdicts-only": ("reports/verdicts.md",),
    "make help": ("smoke", "paper-tables"),
}

SKIP: dict[str, str] = {
    "python -m bench.report --experiment NAME": "a placeholder (your own experiment's name); "
                                                 "tests/test_report_safety.py builds a user's experiment (my_logreg) with it",
    "bench data add ~/data/trial.csv --target response": "a placeholder (your own file); tests/test_data_add.py and "
                                                          "tests/test_compare_e2e.py run `bench data add` on files",
    "bench compare --algos logreg,nb,a1de,rf10 --datasets trial,iris,zoo,wine --protocol cv5x2":
        "needs the user's logreg config and trial data; tests/test_compare_e2e.py runs it as a new user would",
    "bench compare --algos logreg --against ande_sr --datasets iris,zoo,wine,labor,glass,sonar":
        "needs the user's logreg config; tests/test_compare_against.py runs --against ande_sr",
    "make install demo": "installs packages with pip (network); its demo job runs here as `python -m bench`",
    "make install": "installs packages with pip (network)",
    "make warm": "compiles every Numba kernel ahead (minutes); the jobs here compile what they use",
    "make demo": "the same job as `python -m bench`, which runs here",
    "make test": "the fast suite (minutes), of which this test is part",
    "make test-all": "every test, including the slow ones (an hour)",
    "make test-fresh": "the fast suite again (minutes)",
    "make smoke": "about 2 minutes; tests/test_cli.py::test_smoke_experiment_driver (slow) runs it",
    "make paper-tables SCALE=smoke": "several minutes; tests/test_report_build.py::"
                                     "test_make_paper_tables_smoke_end_to_end (slow) runs it",
    "make paper-tables [SCALE=smoke\\|medium\\|full]": "the make target's synopsis, not a command",
    "make reports": "rebuilds every report from the stored records (minutes); tests/test_report_build.py",
    "python -m bench.report": "the same build as `make reports`",
    "python -m bench.report --fresh": "rebuilds every report (minutes), as `make reports`",
    "python -m bench.report --paper ande_sr": "a report build (tests/test_report_build.py); here nothing is stored",
    "make verdicts": "the same as `python -m bench.report --verdicts-only`, which runs here",
    "python -m bench.report --from-evidence": "rewrites the clone's reports/ in place (a minute); the --check "
                                              "form runs in .ci/run and tests/test_report_evidence.py",
    "python -m bench.report --from-evidence --out DIR": "a placeholder (DIR); tests/test_report_evidence.py",
    "python -m bench.report --from-evidence --check": "a minute; .ci/run runs it on every submission",
    "BENCH_RESULTS_DIR=/tmp/run2 python -m bench.experiments run massbayes_fig4_h --scale medium":
        "a second run of a shipped experiment (minutes of CPU), for the command after it",
    "python -m bench.report.repeat --results-dir /tmp/run2": "needs the second run above and builds a paper "
                                                             "(minutes); tests/test_report_repeat.py tests the "
                                                             "comparison and its refusals",
    "make evidence-check": "the same as `python -m bench.report --from-evidence --check` (.ci/run)",
    "make bench-perf": "speed benchmarks with peers (minutes to hours)",
    "make clean": "deletes stored results and caches: nothing to check",
    "make slurm-up": "needs root and installs a SLURM cluster (Debian packages)",
    "make slurm-down": "needs root and a SLURM cluster",
    "make test-slurm": "needs a SLURM cluster",
    "export BENCH_RESULTS_DIR=/shared/project/bench-results": "a cluster's shared filesystem",
    "python -m bench -m hydra/launcher=cluster_slurm hydra.launcher.partition=batch hydra.launcher.timeout_min=120 "
    "hydra.launcher.mem_gb=4 hydra.launcher.array_parallelism=32 algo=nb,a1de,a2de data=adult,letter "
    "protocol=cv20x2": "needs a SLURM cluster",
    "python -m bench.experiments run ande_sr --scale full --launcher slurm --partition batch --max-job-hours 2":
        "needs a SLURM cluster",
    "python -m bench.experiments run <experiment> --scale medium": "a placeholder (<experiment>)",
    "python -m bench.experiments run eskdb_main --scale full --max-rows 20000": "the full ESKDB protocol: hours",
    "python -m bench.experiments run massbayes_table3 --datasets letter,magic":
        "medium scale, 9 algorithms x 10 folds on 20000 and 19020 rows: tens of minutes",
    "python -m bench algo=rf100 algo.estimator.n_estimators=500 data=magic protocol=cv5x2":
        "500 trees x 10 splits on 19020 rows: minutes; the override mechanism is the One job example's",
    "python -m bench algo=rf data=letter": "the One job example again under rf's name (rf is rf100 with Weka's "
                                           "name) before a Weka run; Weka 3.6 is not installed here",
    "python -m bench.weka.folds letter --algo rf -- weka.classifiers.trees.RandomForest -I 100 -S 1":
        "needs Weka 3.6 (apt-get install weka)",
    "bench run algo=rf100 data=letter ...": "a placeholder (...); the same job runs as `python -m bench algo=rf100 ...`",
    "bench list": "a subcommand's name in prose; its forms `bench list algos` ... run here",
    "bench compare": "a subcommand's name in prose; its examples are decided above",
    "bench compare --against": "an option's name in prose; tests/test_compare_against.py",
    "bench data add": "a subcommand's name in prose; tests/test_data_add.py",
    "bench data plot": "a subcommand's name in prose; `python -m bench.data plot` in tests/test_data.py",
    "python3 -m venv .venv && . .venv/bin/activate": "makes a virtual environment (the clone here runs in this one)",
    "python3 -m venv ~/bench-env && . ~/bench-env/bin/activate": "makes a virtual environment; tests/test_wheel.py "
                                                                  "(slow) makes a new one and installs the wheel",
    "pip install bnc_bench-0.1.0-py3-none-any.whl": "installs the wheel with its dependencies (network); "
                                                    "tests/test_wheel.py (slow, make test-wheel, CI)",
    "mkdir ~/my-study && cd ~/my-study": "a folder outside the checkout; tests/test_wheel.py works from one",
    "make test-quick": "a part of the fast suite, of which this test is part",
    "make warm-all": "compiles every algorithm's Numba kernels ahead (minutes); the jobs here compile what they use",
    "make test-wheel": "builds and installs the wheel in a new venv (minutes, network): tests/test_wheel.py",
    "bench <command> --help": "a placeholder (<command>); `bench --help` runs here",
    "python -m bench.cli": "the command's name in prose (alone it prints its usage and exits 2)",
    "python -m bench.data check": "the same as `bench data check`, which runs here",
    "python -m bench.data fetch NAME": "a placeholder (NAME), and it downloads from OpenML (network)",
    "python -m bench.perf.forest agree ...": "a placeholder (...); Weka forests (Weka 3.6)",
}


def readme_commands(text: str) -> list[str]:
    """The README's commands: each line of a ``bash`` block (continuations joined, comments cut),
    ``<python block>`` for its ``python`` block, and each inline span that starts with
    ``python -m``, ``bench`` or ``make``; in README order, each once."""
    cmds: list[str] = []
    for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, flags=re.S):
        if lang == "bash":
            for line in re.sub(r"\\\n\s*", " ", body).splitlines():
                line = re.sub(r"\s+#.*$", "", line).strip()
                if line and not line.startswith("#"):
                    cmds.append(" ".join(line.split()))
        elif lang == "python":
            cmds.append("<python block>")
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    cmds += [" ".join(s.split()) for s in re.findall(r"`([^`\n]+)`", prose)
             if re.match(r"(python -m |bench |make )", s) or s in ("python -m bench", "python -m bench.cli")]
    return list(dict.fromkeys(cmds))


def python_block(text: str) -> str:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)[0]


def test_every_readme_command_is_run_or_skipped_with_a_reason():
    cmds = readme_commands((ROOT / "README.md").read_text())
    undecided = [c for c in cmds if c not in EXPECT and c not in SKIP]
    assert not undecided, f"README commands neither run nor skipped by tests/test_readme_commands.py: {undecided}"
    stale = [c for c in list(EXPECT) + list(SKIP) if c not in cmds]
    assert not stale, f"no longer in README.md: {stale}"


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """``git clone`` of this checkout, HEAD checked out, and an environment that sees only it."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    base = tmp_path_factory.mktemp("readme")
    dest = base / "bench"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(dest)], check=True)
    subprocess.run(["git", "-C", str(dest), "checkout", "--quiet", head], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BENCH_", "PYTEST_", "XDG_CACHE"))}
    env.update({"PYTHONPATH": str(dest), "BENCH_OPENML_OFFLINE": "1", "BENCH_RESULTS_DIR": str(dest / "results"),
                "BENCH_CACHE_DIR": str(base / "cache"), "BENCH_JOBS": "2",
                "PATH": os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")})
    return dest, env


def _argv(cmd: str, text: str) -> list[str]:
    if cmd == "<python block>":
        return [sys.executable, "-c", python_block(text)]
    words = cmd.split()
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    if words[0] == "bench":
        return [sys.executable, "-m", "bench.cli", *words[1:]]
    return words


@pytest.mark.slow  # 80 s on 2 busy cores (the One job example, 10 x 100 trees on letter, is 30 s of it)
def test_readme_commands_run_in_a_clean_clone(clone):
    dest, env = clone
    text = (dest / "README.md").read_text()
    cmds = readme_commands(text)
    assert set(EXPECT) <= set(cmds)
    timings, outputs = [], {}
    for cmd, expect in EXPECT.items():
        t0 = time.perf_counter()
        proc = subprocess.run(_argv(cmd, text), cwd=dest, env=env, capture_output=True, text=True, timeout=900)
        timings.append(f"{time.perf_counter() - t0:6.1f} s  {cmd[:90]}")
        out = outputs[cmd] = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"`{cmd}` exited {proc.returncode} in the clone:\n{out[-3000:]}"
        missing = [e for e in expect if e not in out]
        assert not missing, f"`{cmd}`: output lacks {missing}:\n{out[-3000:]}"
        assert "Traceback" not in proc.stderr, f"`{cmd}`:\n{proc.stderr[-3000:]}"
    print("\n".join(timings))
    # the clone read its own datasets/ (nothing outside it) and wrote its records where it was told
    assert f"Shipped datasets folder: {dest / 'datasets'};" in outputs["bench data check"]
    assert "FAILED" not in outputs["bench data check"]
    assert (dest / "results" / "default" / "letter").is_dir()
