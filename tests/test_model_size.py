"""A model's size is the length of its pickle (protocol HIGHEST_PROTOCOL), counted as the pickler
writes it (bench.resources.pickled_size) rather than built as one bytes object."""

import pickle

import numpy as np

from bench.resources import pickled_size


def test_the_count_is_the_length_of_the_pickle():
    rng = np.random.default_rng(0)
    fitted = {"counts": rng.integers(0, 9, size=(26, 16, 40, 26), dtype=np.int32),  # 2.6 MB, one buffer
              "view": np.ones((300, 400))[:, ::3].T,  # not contiguous
              "fortran": np.asfortranarray(rng.random((50, 70))), "small": np.arange(3)}
    objects = [fitted, [1, 2.5, "x" * 200_000, None], b"y" * (3 << 20), bytearray(b"z" * 70_000),
               {"nested": [fitted, (fitted["small"], "text")]}, np.array(["a", "bc"], dtype=object)]
    for obj in objects:
        assert pickled_size(obj) == len(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def test_a_fitted_pipeline_is_counted_like_its_pickle():
    from sklearn.pipeline import Pipeline

    from bench.data.synthetic import warm_table
    from bench.experiment_plan import algo_config
    from bench.protocols import Split
    from bench.runner import build_estimator, fit_steps

    ds = warm_table(600)
    split = Split(0, 0, np.arange(400), np.arange(400, 600))
    steps, est = build_estimator(algo_config("a1de"), ds, 0)
    est.fit(fit_steps(steps, est, ds, ds.X[split.train], ds.y[split.train]), ds.y[split.train])
    model = Pipeline([(f"step{i}", s) for i, s in enumerate(steps)] + [("model", est)])
    assert pickled_size(model) == len(pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL)) > 10_000
