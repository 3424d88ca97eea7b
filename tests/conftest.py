import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Every test gets its own user cache, so no test sees another's downloads; no test downloads
    (BENCH_OPENML_OFFLINE), so the suite behaves the same with and without a network."""
    monkeypatch.setenv("BENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("BENCH_OPENML_OFFLINE", "1")
    from algorithms import _code_cache
    from bench.data import registry

    # ECOC's codebooks: the runner passes the folder under BENCH_CACHE_DIR (cache_dir); an estimator
    # built directly (cache_dir=None) gets the user cache, here the test's own folder too
    monkeypatch.setattr(_code_cache, "default_cache_dir", lambda: tmp_path / "cache" / "bch")

    registry._MEMO.clear()
    yield
    registry._MEMO.clear()


def run_bench(args, results_dir, env_extra=None, timeout=300, check=True):
    """Run ``python -m bench <args>`` as a subprocess from the project root."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RESULTS_DIR": str(results_dir), **(env_extra or {})}
    proc = subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"bench failed ({proc.returncode}):\nSTDOUT:\n{proc.stdout[-3000:]}\n"
                             f"STDERR:\n{proc.stderr[-3000:]}")
    return proc


SKIP_HINT = ("needs a dataset file this checkout does not have: the papers' data ship in datasets/ "
             "(restore it with `git checkout datasets/`), other files go in BENCH_DATA_DIR")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that needs a dataset this machine does not have (no mirror, no network) is skipped
    with the dataset's name and how to enable it, not failed: the fresh-machine promise. Only
    :class:`bench.data.DatasetUnavailable` counts; a corrupt or wrong file still fails."""
    outcome = yield
    rep = outcome.get_result()
    if call.excinfo is None or rep.outcome != "failed" or call.when not in ("setup", "call"):
        return
    from bench.data import DatasetUnavailable

    if call.excinfo.errisinstance(DatasetUnavailable):
        first = str(call.excinfo.value).split(". Tried:")[0]
        rep.outcome = "skipped"
        rep.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {first}; {SKIP_HINT}")


_CPU_LOG = os.environ.get("BENCH_TEST_CPU_LOG")  # a file: append "<cpu seconds>\t<test id>" per test


if _CPU_LOG:
    import resource

    def _cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        """CPU seconds of every test (its own process and the subprocesses it waited for), so
        slow tests can be found on a loaded machine where wall times mislead."""
        t0 = _cpu()
        yield
        with open(_CPU_LOG, "a") as fh:
            fh.write(f"{_cpu() - t0:.2f}\t{item.nodeid}\n")
