"""Data layer: the Dataset contract, the registry of ``conf/data`` configs and
their sources (local files, OpenML, scikit-learn bundled sets, generators)."""

from .dataset import DataError, Dataset
from .registry import DatasetUnavailable, dataset_config, dataset_names, fetch_openml, load, source_available

__all__ = ["DataError", "DatasetUnavailable", "Dataset", "dataset_config", "dataset_names", "fetch_openml", "load",
           "source_available"]
