"""The ``bench`` console script (``bench.cli:main``): every subcommand answers --help, hands its
arguments to its module unchanged, and ``bench run`` is ``python -m bench`` to the record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

import pytest

from bench import cli
from tests.conftest import ROOT, run_bench


def test_the_console_script_is_declared():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["scripts"]["bench"] == "bench.cli:main"


def test_top_level_help_lists_every_command(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("run", "experiments", "report", "data", "perf", "weka", "scaleup"):
        assert f"\n  {name} " in out
    assert cli.main([]) == 2  # no command: usage, failing status


def test_unknown_command_names_the_commands(capsys):
    assert cli.main(["nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'nope'" in err and "experiments" in err


@pytest.mark.parametrize("name", [c for c in cli.COMMANDS if c != "run"])
def test_each_subcommand_has_help(name, capsys):
    assert cli.main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.strip(), name
    mod = cli.COMMANDS[name][0].removesuffix(".__main__")
    assert f"python -m {mod}" in out  # the module's own help


def test_arguments_reach_the_module_unchanged(capsys):
    assert cli.main(["experiments", "plan", "smoke", "--scale", "smoke", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["experiment"] == "smoke"
    assert cli.main(["experiments", "plan", "no_such_experiment", "--json"]) != 0


def _records(root):
    out = {}
    for p in sorted(root.rglob("r*-f*.json")):
        r = json.loads(p.read_text())
        out[str(p.relative_to(root))] = (r["metrics"], r["predictions_sha256"], r["algo_hash"], r["data_key"],
                                         r["protocol_key"], r["estimator_random_state"])
    return out


def test_bench_run_is_python_m_bench(tmp_path):
    args = ["algo=gnb", "data=sk_iris", "protocol=cv2", "progress=false"]
    run_bench(args, tmp_path / "a")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(tmp_path / "b")}
    proc = subprocess.run([sys.executable, "-m", "bench.cli", "run", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "gnb on sk_iris" in proc.stdout
    a, b = _records(tmp_path / "a"), _records(tmp_path / "b")
    assert len(a) == 2 and a == b
    bad = subprocess.run([sys.executable, "-m", "bench.cli", "run", "algo=nope", "data=sk_iris"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "Could not find 'algo/nope'" in bad.stderr  # a setup it cannot run
    helped = subprocess.run([sys.executable, "-m", "bench.cli", "run", "--help"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert helped.returncode == 0 and helped.stdout.startswith("bench run")  # the app's help, with bench's header
