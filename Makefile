# bench: see README.md. Every target runs from the project root.
# the Python of the active virtual environment (see README: Quickstart), else python3 / python on PATH
PYTHON ?= $(if $(VIRTUAL_ENV),$(VIRTUAL_ENV)/bin/python,$(shell command -v python3 2>/dev/null || command -v python 2>/dev/null || echo python3))
SCALE ?= medium
JOBS ?=

# The papers' datasets ship in datasets/ (bench finds them there); BENCH_DATA_DIR is for your own files.

.PHONY: help install warm warm-all demo test test-quick test-fresh test-all test-wheel smoke paper-tables reports evidence-check bench-perf clean slurm-up slurm-down test-slurm

help:  ## list the targets with what each does
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  %-14s %s\n", $$1, $$2}'

install:  ## install bench with its test dependencies, then compile the Numba kernels (make warm)
	$(PYTHON) -m pip install -e ".[dev]"
	$(MAKE) warm

warm:  ## compile the Numba kernels the demo and the quick tests need (about 20 s of CPU); the others compile on first use
	$(PYTHON) -m bench.warm

warm-all:  ## compile the Numba kernels of every algorithm ahead (about 90 s of CPU)
	$(PYTHON) -m bench.warm --all

demo:  ## the default job: MassBayes, 10-fold CV on scikit-learn's digits (no network needed)
	$(PYTHON) -m bench

# a first check of every layer (data, protocols, runner, store, stats, a classifier, the commands)
QUICK_TESTS = tests/test_cli_command.py tests/test_catalogue.py tests/test_protocols.py tests/test_metrics.py \
	tests/test_store.py tests/test_store_identity.py tests/test_runner.py tests/test_naive_bayes.py tests/test_counts.py \
	tests/test_stats_ranks.py tests/test_no_import_cycles.py tests/test_exit_status.py \
	tests/test_data_add.py

test-quick:  ## a first check in minutes (about 1 CPU-minute): one test file per layer
	$(PYTHON) -m pytest -q -m "not slow" -n 2 $(QUICK_TESTS)

test:  ## the fast test suite (slow tests excluded)
	$(PYTHON) -m pytest -q -m "not slow" -n 2

test-fresh:  ## the fast suite as on a fresh machine: no BENCH_DATA_DIR, no network
	env -u BENCH_DATA_DIR BENCH_OPENML_OFFLINE=1 $(PYTHON) -m pytest -q -m "not slow" -n 2

test-all:  ## every test, including slow ones (real-data agreement, Weka)
	$(PYTHON) -m pytest -q -n 2

test-wheel:  ## build the wheel, install it in a new venv and use it from outside the checkout (slow: pip)
	$(PYTHON) -m pytest -q -p no:xdist -m slow tests/test_wheel.py

smoke:  ## every registered algorithm on two tiny built-in datasets, 2-fold CV
	$(PYTHON) -m bench.experiments run smoke --scale smoke $(if $(JOBS),--jobs $(JOBS))

# paper-tables: the experiments run first (jobs in parallel through the Hydra joblib launcher,
# finished splits reused); the reports are written even when some runs failed, and the target
# then exits with the runs' status. SCALE=smoke takes minutes, medium (default) hours on 2 cores,
# full is the papers' protocol.
paper-tables:  ## run every paper experiment at SCALE=smoke|medium|full (resuming), then write reports/
	$(PYTHON) -m bench.experiments run-all --scale $(SCALE) $(if $(JOBS),--jobs $(JOBS)); rc=$$?; \
	$(PYTHON) -m bench.report --scale $(SCALE) || rc=1; exit $$rc

reports:  ## rewrite reports/ from the stored records only
	$(PYTHON) -m bench.report --scale $(SCALE)

evidence-check:  ## rebuild reports/ from the evidence shipped in reports/evidence alone and compare byte for byte
	$(PYTHON) -m bench.report --from-evidence --check

verdicts:  ## only the verdict stage: verdicts, paper pages, index head and HTML, from the report files in reports/
	$(PYTHON) -m bench.report --verdicts-only

bench-perf:  ## speed and memory benchmarks with peers in the same run, the harness cost per split and start-up; each run kept in results/perf/history.jsonl and compared with the last one on this machine
	$(PYTHON) -m bench.perf

slurm-up:  ## start a single-node SLURM cluster here (root; installs Debian's slurm-wlm when missing)
	scripts/slurm_up.sh

slurm-down:  ## stop the cluster started by slurm-up (daemons by pid file; its configs and state)
	scripts/slurm_down.sh

test-slurm:  ## the SLURM integration tests (skipped unless a SLURM cluster answers; see slurm-up)
	$(PYTHON) -m pytest -q -p no:xdist -m slurm tests/test_slurm.py

clean:  ## remove stored results, caches and build leftovers (keeps reports/)
	find results -mindepth 1 -not -name .gitkeep -delete 2>/dev/null || true
	rm -rf .pytest_cache *.egg-info build dist
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
