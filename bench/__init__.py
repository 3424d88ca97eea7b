"""bench: reproducible experiments and benchmarks for generative (Bayesian) classifiers."""

__version__ = "0.1.0"
