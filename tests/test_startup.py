"""Start-up paid only for what the command uses: `python -m bench --help` imports neither
scikit-learn, Numba nor numpy, a job imports its algorithm's modules and none of the libraries it
does not use, and a job whose command line leaves `algo` as its YAML composes it takes that node as
its named config (no second composition)."""

import os
import subprocess
import sys

from bench.__main__ import _algo_untouched, _interpolates
from bench.codeid import algorithm_sources
from bench.data import load
from bench.experiment_plan import algo_config
from tests.conftest import ROOT

#: what no job of bench's own learners on a built dataset imports: the reports and statistics,
#: dataframes and plotting, other learners' libraries, and the parts of scipy and scikit-learn
#: that scikit-learn's own imports pull in (deferred by bench._deferred)
NOT_IN_A_JOB = ("pandas", "pyarrow", "matplotlib", "xgboost", "openml", "sklearn.datasets", "sklearn.ensemble",
                "sklearn.linear_model", "sklearn.preprocessing._data", "scipy.stats._stats_py", "scipy.linalg._basic",
                "scipy.sparse.linalg._isolve", "scipy.interpolate", "scipy.optimize", "bench.report", "bench.compare",
                "bench.perf", "bench.stats.ranks", "bench.stats.pairwise")


def _imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[-1].strip() for line in stderr.splitlines() if line.startswith("import time")}


def _under(imported: set[str], names) -> set[str]:
    return {m for m in imported for n in names if m == n or m.startswith(n + ".")}


def test_help_imports_no_learner_library():
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "bench", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "usage: bench run" in out.stdout
    imported = _imported(out.stderr)
    assert "hydra" in imported  # the measurement sees the imports
    assert not _under(imported, ("sklearn", "numba", "pandas", "xgboost", "numpy", "scipy"))


def test_import_of_the_entry_point_imports_no_numeric_library():
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import bench.__main__"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    imported = _imported(out.stderr)
    assert "bench.__main__" in imported
    assert not _under(imported, ("numpy", "scipy", "sklearn", "numba", "pandas", "matplotlib", "bench.runner"))


def test_a_job_imports_its_algorithm_and_not_what_it_does_not_use(tmp_path):
    """A whole `python -m bench` job (limits on, its worker process forked) imports the modules of its
    algorithm's code (bench.codeid reads them from the sources) and no other learner's, and none of
    :data:`NOT_IN_A_JOB`. The dataset's built copy is made first, and the job runs twice, so that
    neither a first parse of the data nor a first compilation of the kernels is what is measured."""
    load("sk_iris", use_memo=False)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(tmp_path / "results")}
    args = [sys.executable, "-X", "importtime", "-m", "bench", "algo=nb", "data=sk_iris", "protocol=cv2",
            "progress=false", "rerun=true", "mem_limit_gb=2"]
    for _ in range(2):
        out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
    assert "2 computed" in out.stdout
    imported = _imported(out.stderr)
    assert {"hydra", "numba", "sklearn.base", "bench.runner"} <= imported  # the measurement sees the imports
    assert not _under(imported, NOT_IN_A_JOB), sorted(_under(imported, NOT_IN_A_JOB))
    own = {rel[:-3].replace("/", ".").removesuffix(".__init__") for rel in algorithm_sources(algo_config("nb"))
           if rel.endswith(".py")}
    assert "algorithms.naive_bayes" in own and "algorithms.discretize" in own
    others = {m for m in imported if m.startswith("algorithms.")} - own
    assert not others, f"modules of other algorithms imported: {sorted(others)}"


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
