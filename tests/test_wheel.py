"""bench installed from its wheel, in a new virtual environment, used from a folder outside the
checkout: the configs, the papers' datasets and the shipped evidence come with the package, and
what is the user's (results, own configs, reports) lands in the workspace (the current folder, or
BENCH_HOME).

Slow (builds the wheel and installs it with its dependencies into a fresh venv: a few minutes, most
of it pip); run with ``python -m pytest -m slow tests/test_wheel.py``. Skipped when pip cannot
reach a package index."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _run(cmd, cwd, env, timeout=900):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bench executable, python executable, environment) of a new venv holding only the wheel."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "wheelhouse"
    build = _run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w",
                  str(wheels)], base, os.environ)
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = wheels.glob("*.whl")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    py = env_dir / "bin" / "python"
    # nothing of this environment or the checkout (PYTHONPATH, an egg-info the build left) may leak in
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("BENCH_", "PYTHON", "VIRTUAL_ENV"))}
    inst = _run([str(py), "-m", "pip", "install", "-q", str(wheel)], base, clean, timeout=1800)
    if inst.returncode != 0 and ("No matching distribution" in inst.stderr or "connection" in inst.stderr.lower()):
        pytest.skip(f"the wheel's dependencies cannot be installed here (no package index?): {inst.stderr[-500:]}")
    assert inst.returncode == 0, inst.stderr[-3000:]
    env = dict(clean)
    env.update({"PATH": f"{env_dir / 'bin'}:{env.get('PATH', '')}", "BENCH_OPENML_OFFLINE": "1",
                "BENCH_CACHE_DIR": str(base / "cache"), "MPLCONFIGDIR": str(base / "mpl"),
                "NUMBA_CACHE_DIR": str(base / "numba")})
    return str(env_dir / "bin" / "bench"), str(py), env, wheel


def test_wheel_name_and_contents(installed):
    bench, py, env, wheel = installed
    assert wheel.name.startswith("bnc_bench-"), wheel.name   # the distribution name `bench` is another project's
    where = _run([py, "-c", "import bench, bench.paths as p, json; print(json.dumps([bench.__file__, "
                  "str(p.conf_dir()), str(p.shipped_datasets_dir()), str(p.shipped_reports_dir())]))"], "/", env)
    assert where.returncode == 0, where.stderr
    code, conf, data, reports = (Path(x) for x in json.loads(where.stdout))
    assert ROOT not in code.parents, "the installed package, not the checkout, must be imported"
    assert (conf / "config.yaml").is_file() and len(list((conf / "algo").glob("*.yaml"))) >= 100
    assert (data / "MANIFEST.csv").is_file() and (data / "iris.csv.gz").is_file()
    assert (reports / "evidence" / "MANIFEST.json").is_file()


def test_wheel_runs_jobs_compare_and_own_configs_from_any_folder(installed, tmp_path):
    bench, py, env, _ = installed
    ws = tmp_path / "work"
    ws.mkdir()
    # the demo (MassBayes, 10-fold CV on scikit-learn's digits) and a paper dataset
    demo = _run([bench, "run", "progress=false"], ws, env)
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "massbayes on sk_digits" in demo.stdout and "10 computed" in demo.stdout
    job = _run([bench, "run", "algo=nb", "data=iris", "protocol=cv2", "progress=false"], ws, env)
    assert job.returncode == 0, job.stderr[-3000:]
    # the same algorithm hash as the checkout's code gives (records are interchangeable)
    from bench.experiment_plan import algo_config
    from bench.runner import algo_identity

    assert f"nb-{algo_identity(algo_config('nb'))[1]}" in job.stdout
    assert len(list((ws / "results" / "default" / "iris").rglob("*.json"))) == 2
    # bench compare: its report in the workspace
    cmp_ = _run([bench, "compare", "--algos", "nb,gnb", "--datasets", "iris,wine,zoo", "--protocol", "cv2",
                 "--no-progress"], ws, env)
    assert cmp_.returncode == 0, cmp_.stderr[-3000:]
    assert (ws / "reports" / "compare" / "nb_vs_gnb" / "README.md").is_file()
    # the user's own data and algorithm, in the workspace's conf/
    rows = ["a,b,c,y"] + [f"{i % 7},{(i * 3) % 5},{i % 2},{'p' if (i % 7) > 3 else 'n'}" for i in range(60)]
    (ws / "mine.csv").write_text("\n".join(rows) + "\n")
    add = _run([bench, "data", "add", "mine.csv", "--protocol", "cv2"], ws, env)
    assert add.returncode == 0, add.stderr[-3000:]
    assert (ws / "conf" / "data" / "mine.yaml").is_file()
    (ws / "conf" / "algo").mkdir()
    (ws / "conf" / "algo" / "mylr.yaml").write_text(
        "name: mylr\ndescription: logistic regression\nestimator:\n  _target_: sklearn.linear_model.LogisticRegression\n"
        "  max_iter: 500\n")
    own = _run([bench, "run", "algo=mylr", "data=mine", "protocol=cv2", "progress=false"], ws, env)
    assert own.returncode == 0, own.stderr[-3000:]
    listed = _run([bench, "list", "algos", "mylr"], ws, env)
    assert listed.returncode == 0 and "scikit-learn" in listed.stdout, listed.stdout + listed.stderr
    # BENCH_HOME: the workspace named by it, whatever the current folder
    home = tmp_path / "home"
    other = tmp_path / "elsewhere"
    other.mkdir()
    job = _run([bench, "run", "algo=nb", "data=zoo", "protocol=cv2", "progress=false"], other,
               {**env, "BENCH_HOME": str(home)})
    assert job.returncode == 0, job.stderr[-3000:]
    assert (home / "results" / "default" / "zoo").is_dir() and not (other / "results").exists()


def test_wheel_commands_that_find_nothing_fail_and_leave_nothing(installed, tmp_path):
    bench, py, env, _ = installed
    empty = tmp_path / "empty-conf"
    empty.mkdir()
    for cmd in (["data", "list"], ["experiments", "list"], ["list", "algos"]):
        r = _run([bench, *cmd], tmp_path, {**env, "BENCH_CONF_DIR": str(empty)})
        assert r.returncode == 2 and "no " in r.stderr, (cmd, r.returncode, r.stdout[-500:], r.stderr[-500:])
    ws = tmp_path / "fresh"
    ws.mkdir()
    for args in (["algo=nosuch"], ["data=nosuch"], ["algo=nb", "data=covtype", "protocol=cv2"]):
        r = _run([bench, "run", *args], ws, env)
        assert r.returncode == 2, (args, r.stderr[-1000:])
        assert list(ws.iterdir()) == [], f"`bench run {' '.join(args)}` failed and left {list(ws.iterdir())}"
    help_ = _run([bench, "run", "--help"], ws, env)
    assert help_.returncode == 0 and help_.stdout.startswith("bench run") and "powered by Hydra" not in help_.stdout
    assert "_base" not in help_.stdout.split("== Config (the default job) ==")[0]
