"""Classifiers of the five papers and their baselines, as scikit-learn estimators.

One module per family; shared Numba kernels live in private modules
(``_counts.py`` and others). Each estimator documents how it treats nominal
attributes (``categorical_features``) and missing values (NaN).
"""
