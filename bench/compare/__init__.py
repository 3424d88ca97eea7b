"""``bench compare``: your own algorithm and data against the papers' classifiers, by the papers'
statistics, in one command (see ``python -m bench.compare --help`` and the README's "Compare your
own algorithm").

* :mod:`.runs` - what a comparison runs (``--experiment`` or ``--algos/--datasets/--protocol``),
  the jobs through :func:`bench.runner.run_job` (every stored split reused) and, with
  ``--against``, the baselines from an experiment's shipped evidence and the check of its folds;
* :mod:`.analysis` - the statistics (:mod:`bench.stats`): means with standard errors, W/D/L with
  sign tests, Friedman/Iman-Davenport/Nemenyi, Wilcoxon with Holm, bias/variance, time ratios;
* :mod:`.report` - ``reports/compare/<name>/`` (or ``--out``): README.md, index.html, tables
  (Markdown, LaTeX, CSV), critical-difference diagrams. Nothing else under ``reports/`` is written.
"""
