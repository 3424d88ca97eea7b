"""Start-up paid only for what the command uses: `python -m bench --help` imports neither
scikit-learn nor Numba, and a job whose command line leaves `algo` as its YAML composes it takes
that node as its named config (no second composition)."""

import subprocess
import sys

from bench.__main__ import _algo_untouched, _interpolates
from tests.conftest import ROOT


def test_help_imports_no_learner_library():
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "bench", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "usage: bench run" in out.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time")}
    assert "hydra" in imported  # the measurement sees the imports
    assert not {m for m in imported if m.split(".")[0] in ("sklearn", "numba", "pandas", "xgboost")}


def test_which_command_lines_leave_the_algo_node_as_composed():
    assert _algo_untouched(["algo=nb", "data=sk_iris", "seed=3", "mem_limit_gb=null"])
    for touched in ("algo.estimator.m=2", "+algo.estimator.x=1", "~algo.estimator.m", "++algo.name=z",
                    "algo/_base=foo"):
        assert not _algo_untouched(["algo=nb", touched]), touched


def test_interpolations_are_found_at_any_depth():
    assert not _interpolates({"a": [1, {"b": "text"}], "c": None})
    assert _interpolates({"a": [1, {"b": "${seed}"}]}) and _interpolates(["x", "pre ${oc.env:HOME}"])


def test_help_fills_the_template_and_hydra_help_still_lists_the_groups():
    """--help skips the lists of config groups only because bench's template shows none: the text is
    the template filled in (the default job's config included); --hydra-help, whose template lists
    them, still gets them."""
    out = subprocess.run([sys.executable, "-m", "bench", "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "== Config (the default job) ==" in out.stdout
    assert "mem_limit_gb: auto" in out.stdout and "CONFIG_GROUPS" not in out.stdout
    hydra = subprocess.run([sys.executable, "-m", "bench", "--hydra-help"], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
    assert hydra.returncode == 0 and "hydra/launcher: " in hydra.stdout and "joblib" in hydra.stdout
