"""The measures bench records and compares: one registry.

A :class:`Measure` says, once, what a measure is called in code (``name``), which column of a
stored record holds it (``column``, as flattened by :func:`bench.store.load`), what people read
(``label``, and ``console`` in a job's summary table), whether lower is better, its unit, how it is
printed, and the divisor that turns the stored value into that unit (model size is stored in
bytes and shown in MB).

Every stage iterates over this registry: collecting values from records
(:mod:`bench.stats.collect`), the console summary of a job (:mod:`bench.summary`), an experiment's
summary table (:func:`bench.report.tables.summarise`), the comparison of algorithms
(:mod:`bench.compare.analysis`) and the direction of a win in the statistical tests
(:data:`bench.stats.pairwise.LOWER_IS_BETTER`, which adds the names the papers use for the same
measures, e.g. "0-1 loss").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Measure:
    name: str                 #: the key in code and in summary tables, e.g. "error"
    column: str               #: the flattened record column, e.g. "metrics.error"
    label: str                #: what a reader sees, e.g. "error rate"
    lower_is_better: bool
    unit: str = ""            #: "" for a ratio or a count
    fmt: str = "{:.4f}"       #: printed in console tables
    console: str = ""         #: the row name in a job's console summary ("" = not shown there)
    divisor: float = 1.0      #: stored value / divisor = the value in ``unit``

    @property
    def group(self) -> str | None:
        """The record's sub-dict that holds the value (``metrics``, ``times``...), None at top level."""
        return self.column.split(".", 1)[0] if "." in self.column else None

    @property
    def key(self) -> str:
        """The field inside :attr:`group` (or the top-level field)."""
        return self.column.split(".", 1)[1] if "." in self.column else self.column


_ALL = (
    Measure("error", "metrics.error", "error rate", True, console="error rate"),
    Measure("accuracy", "metrics.accuracy", "accuracy", False),
    Measure("rmse", "metrics.rmse", "RMSE", True, console="RMSE"),
    Measure("log_loss", "metrics.log_loss", "log-loss", True, console="log-loss"),
    Measure("train_s", "times.train_cpu_s", "training time (CPU s)", True, "s", "{:.3f}", "train CPU s"),
    Measure("preprocess_s", "times.preprocess_fit_cpu_s", "preprocessing time (CPU s)", True, "s", "{:.3f}",
            "  preprocess s"),
    Measure("test_s", "times.test_cpu_s", "test time (CPU s)", True, "s", "{:.3f}", "test CPU s"),
    Measure("fit_s", "times.fit_cpu_s", "fit time (CPU s)", True, "s", "{:.3f}"),
    Measure("predict_s", "times.predict_cpu_s", "predict time (CPU s)", True, "s", "{:.3f}"),
    Measure("model_bytes", "model_bytes", "model size (MB)", True, "MB", "{:.3f}", "model size MB", 2.0 ** 20),
    Measure("peak_rss_mb", "memory.peak_rss_mb", "peak memory (MB)", True, "MB", "{:.1f}", "peak memory MB"),
)

#: name -> Measure, in the order they are shown
MEASURES: dict[str, Measure] = {m.name: m for m in _ALL}

#: the accuracy measures an experiment summary and a comparison report, in that order
ACCURACY = ("error", "rmse", "log_loss")
#: the time measures an experiment summary and a comparison report
TIMES = ("train_s", "test_s")


def get(name: str) -> Measure:
    """The measure ``name``, or a KeyError naming the known ones."""
    try:
        return MEASURES[name]
    except KeyError:
        raise KeyError(f"unknown measure {name!r}; known: {', '.join(MEASURES)}") from None
