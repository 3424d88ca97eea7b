"""Discretisers (algorithms/discretize.py): hand-computed MDL cases, Weka 3.6 agreement, behaviour."""

import math

import numpy as np
import pytest
from sklearn.naive_bayes import CategoricalNB
from sklearn.utils.estimator_checks import check_estimator

from algorithms.discretize import (
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    MDLDiscretizer,
    bin_codes,
    candidate_cuts,
    class_counts_by_value,
    equal_frequency_cut_points,
    mdl_boundaries,
    recursive_boundaries,
    weka_mdl_select,
)
from bench import weka
from bench.data import load
from bench.data.dataset import Dataset
from bench.protocols import splits
from bench.store import load as load_records
from tests.conftest import run_bench

needs_weka = [pytest.mark.weka, pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")]


def _log2(x):
    return math.log(x) / math.log(2)


def _h(*p):
    """Entropy in bits of a distribution given as counts."""
    n = sum(p)
    return -sum(c / n * _log2(c / n) for c in p if c > 0)


def _rows(counts):
    """Instances (x, y) from a per-value class-count table: value j + 1 repeated counts[j][c] times with class c."""
    x, y = [], []
    for j, row in enumerate(counts):
        for c, k in enumerate(row):
            x += [j + 1.0] * k
            y += [c] * k
    return np.array(x)[:, None], np.array(y)


# ---------------------------------------------------------------- hand-computed MDL
def test_pure_split_is_accepted():
    # x = 1 2 3 4, y = 0 0 1 1. Best cut 2.5 leaves two pure halves: entropy 0, gain = H(1/2) = 1 bit.
    # k = 2 classes, k_L = k_R = 1, E_L = E_R = 0: delta = log2(3^2 - 2) - (2 * 1 - 0 - 0) = log2 7 - 2 = 0.8074.
    # Weka counts N - 1 = 3 potential cuts: threshold = (log2 3 + 0.8074) / 4 = 0.5981 < 1 -> accepted.
    # Each half is pure (prior entropy 0), so no further cut: cut points [2.5].
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([0, 0, 1, 1])
    cands = candidate_cuts(class_counts_by_value(X[:, 0], y, 2)[1])
    delta = _log2(7) - 2
    assert cands.entropy[1] == 0 and cands.gain[1] == pytest.approx(1.0)
    assert cands.delta[1] == pytest.approx(delta)
    assert cands.mdl_threshold[1] == pytest.approx((_log2(3) + delta) / 4)
    assert cands.mdl_threshold[1] == pytest.approx(0.59808, abs=1e-5)
    m = MDLDiscretizer().fit(X, y)
    assert m.cut_points_[0].tolist() == [2.5]
    assert m.transform(X)[:, 0].tolist() == [0, 0, 1, 1]
    assert m.n_categories_out_.tolist() == [2]


def test_noisy_split_is_rejected():
    # x = 1 2 3 4, y = 0 1 1 0. Candidates: 1.5 -> {0} | {1,1,0}: 3/4 H(1/3) = 0.6887; 2.5 -> 1 bit; 3.5 -> 0.6887.
    # Best gain = 1 - 0.6887 = 0.3113. k = 2, k_L = 1 (E_L = 0), k_R = 2 (E_R = H(1/3) = 0.9183):
    # delta = log2 7 - (2 * 1 - 2 * 0.9183 - 0) = 2.6439; threshold = (log2 3 + 2.6439) / 4 = 1.0572 > 0.3113
    # -> rejected: the attribute gets a single bin (Weka's 'All'), every value code 0.
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([0, 1, 1, 0])
    cands = candidate_cuts(class_counts_by_value(X[:, 0], y, 2)[1])
    e = 0.75 * _h(1, 2)
    assert cands.entropy.tolist() == pytest.approx([e, 1.0, e])
    delta = _log2(7) - (2 * 1 - 2 * _h(1, 2))
    assert cands.delta[0] == pytest.approx(delta)
    assert cands.mdl_threshold[0] == pytest.approx(1.05723, abs=1e-5)
    assert not cands.passes_mdl.any()
    m = MDLDiscretizer().fit(X, y)
    assert m.cut_points_[0].size == 0 and m.n_categories_out_.tolist() == [1]
    assert m.transform(np.array([[-5.0], [2.0], [np.nan], [99.0]]))[:, 0].tolist()[::3] == [0, 0]


def test_equal_entropies_go_to_the_first_cut_as_in_weka():
    # Per-value class counts (class 0, class 1): x=1 (5,0), x=2 (1,1), x=3 (0,5); N = 12.
    # Cuts 1.5 and 2.5 mirror each other: both leave entropy 7/12 H(1/7) = 0.3451, gain 0.6549.
    # Weka keeps the first (strict <). MDL at 1.5: k_L = 1, k_R = 2, E_R = H(1/7) = 0.5917,
    # delta = log2 7 - (2 - 2 * 0.5917) = 1.9907, threshold = (log2 11 + 1.9907) / 12 = 0.4542 -> accepted.
    # Right half x = 2, 3 (N = 7): only cut 2.5, gain = H(1/7) - 2/7 = 0.3060; k_L = 2 (E_L = 1), k_R = 1:
    # delta = log2 7 - (2 * 0.5917 - 2 * 1) = 3.6240, threshold = (log2 6 + 3.6240) / 7 = 0.8870 -> rejected.
    # So Weka's cut set is [1.5]; preferring the last of equal cuts would give [2.5].
    X, y = _rows([[5, 0], [1, 1], [0, 5]])
    cands = candidate_cuts(class_counts_by_value(X[:, 0], y, 2)[1])
    assert cands.entropy[0] == cands.entropy[1] == pytest.approx(7 / 12 * _h(1, 6))
    assert cands.mdl_threshold[0] == pytest.approx(0.45418, abs=1e-5)
    right = candidate_cuts(class_counts_by_value(X[:, 0], y, 2)[1], lo=1)
    assert right.gain[0] == pytest.approx(_h(1, 6) - 2 / 7) and right.mdl_threshold[0] == pytest.approx(0.88700, abs=1e-5)
    assert MDLDiscretizer().fit(X, y).cut_points_[0].tolist() == [1.5]


def test_cut_points_are_midpoints_between_distinct_values():
    X = np.array([[0.1], [0.1], [0.1], [0.7], [0.7], [0.7]])
    y = np.array([0, 0, 0, 1, 1, 1])
    assert MDLDiscretizer().fit(X, y).cut_points_[0].tolist() == [(0.1 + 0.7) / 2]


def test_better_encoding_counts_boundaries_not_instances():
    # Weka -E: log2(#distinct boundaries) instead of log2(N - 1) in the MDL cost. With 2 values x 12 copies the
    # noisy split below fails with log2(23) but passes with log2(1) = 0.
    X, y = _rows([[9, 3], [3, 9]])
    cands = candidate_cuts(class_counts_by_value(X[:, 0], y, 2)[1])
    g, d = cands.gain[0], cands.delta[0]
    assert not g > (_log2(23) + d) / 24 and g > d / 24
    assert MDLDiscretizer().fit(X, y).cut_points_[0].size == 0
    assert MDLDiscretizer(better_encoding=True).fit(X, y).cut_points_[0].tolist() == [1.5]


def test_generic_recursion_with_weka_selector_equals_the_kernel():
    # the hook for randomised MDL (ESKDB Alg. 2), driven by Weka's deterministic choice, on random count tables
    rng = np.random.default_rng(0)
    for _ in range(200):
        m, k = rng.integers(2, 40), rng.integers(2, 5)
        counts = rng.integers(0, 8, size=(m, k)) * (rng.random((m, k)) < 0.6)
        counts[counts.sum(1) == 0, 0] = 1
        assert np.array_equal(mdl_boundaries(counts), recursive_boundaries(counts, weka_mdl_select))
        # the n_cut_points hook: counting the distinct boundaries of each subset is Weka's -E
        assert np.array_equal(mdl_boundaries(counts, better_encoding=True),
                              recursive_boundaries(counts, weka_mdl_select, lambda c: c.boundary.size))


def test_class_counts_by_value_drops_missing_and_groups_ties():
    x = np.array([3.0, np.nan, 1.0, 3.0, 2.0, 1.0])
    y = np.array([1, 0, 0, 1, 2, 1])
    values, counts = class_counts_by_value(x, y, 3)
    assert values.tolist() == [1.0, 2.0, 3.0]
    assert counts.tolist() == [[1, 1, 0], [0, 0, 1], [0, 2, 0]]


# ---------------------------------------------------------------- behaviour
def _mixed(n=400, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack([y + rng.normal(0, 0.5, n), rng.integers(0, 4, n).astype(float),
                         rng.normal(0, 1, n), 2 * y + rng.normal(0, 0.3, n)])
    return X, y


def test_missing_values_are_left_out_of_fitting_and_stay_missing():
    X, y = _mixed()
    Xm = X.copy()
    rng = np.random.default_rng(1)
    holes = rng.random(X.shape) < 0.15
    Xm[holes] = np.nan
    for disc in (MDLDiscretizer(), EqualFrequencyDiscretizer(), EqualWidthDiscretizer()):
        fitted = disc.fit(Xm, y)
        for j in range(X.shape[1]):  # the cut points are those of the known values alone
            keep = ~holes[:, j]
            alone = type(disc)().fit(X[keep][:, [j]], y[keep]).cut_points_[0]
            assert np.array_equal(fitted.cut_points_[j], alone)
        Z = fitted.transform(Xm)
        assert np.array_equal(np.isnan(Z), holes)
        assert np.all(np.nanmax(Z, axis=0) <= fitted.n_categories_out_ - 1)


def test_all_missing_column_gets_a_single_bin():
    X, y = _mixed()
    X[:, 2] = np.nan
    for disc in (MDLDiscretizer(), EqualFrequencyDiscretizer(), EqualWidthDiscretizer()):
        d = disc.fit(X, y)
        assert d.cut_points_[2].size == 0 and d.n_categories_out_[2] == 1
        assert np.isnan(d.transform(X)[:, 2]).all()


def test_nominal_columns_pass_through_with_their_declared_value_counts():
    X, y = _mixed()
    X[5, 1] = np.nan
    cat = np.array([False, True, False, False])
    for disc in (MDLDiscretizer(categorical_features=cat, n_categories=[0, 6, 0, 0]),
                 EqualFrequencyDiscretizer(categorical_features=cat, n_categories=[0, 6, 0, 0]),
                 EqualWidthDiscretizer(categorical_features=[1])):
        d = disc.fit(X, y)
        Z = d.transform(X)
        assert d.cut_points_[1] is None
        np.testing.assert_array_equal(Z[:, 1], X[:, 1])
        assert d.categorical_features_out_.tolist() == [True] * 4
        assert d.n_categories_out_[1] == (6 if disc.n_categories is not None else 4)
        for j in (0, 2, 3):
            assert d.n_categories_out_[j] == d.cut_points_[j].size + 1
            assert set(np.unique(Z[:, j])) <= set(range(d.n_categories_out_[j]))


def test_values_beyond_the_training_range_fall_into_the_outer_bins():
    X, y = _mixed()
    d = MDLDiscretizer().fit(X, y)
    assert d.cut_points_[3].size >= 2
    Z = d.transform(np.array([[-1e300, 0, 0, -1e300], [1e300, 0, 0, 1e300]]))
    assert Z[0, 3] == 0 and Z[1, 3] == d.cut_points_[3].size
    # Weka's rule: a value equal to a cut point belongs to the lower bin
    c = d.cut_points_[3]
    assert bin_codes(c, c).tolist() == list(range(c.size))


def test_fitting_is_deterministic_and_ignores_row_order():
    X, y = _mixed(2000, seed=3)
    a = MDLDiscretizer().fit(X, y).cut_points_
    b = MDLDiscretizer().fit(X, y).cut_points_
    perm = np.random.default_rng(5).permutation(len(y))
    c = MDLDiscretizer().fit(X[perm], y[perm]).cut_points_
    for ca, cb, cc in zip(a, b, c):
        assert ca.tobytes() == cb.tobytes() == cc.tobytes()


def test_class_labels_may_be_strings():
    X, y = _mixed()
    names = np.array(["a", "b", "c"])[y]
    a = MDLDiscretizer().fit(X, y).cut_points_
    b = MDLDiscretizer().fit(X, names).cut_points_
    assert all(np.array_equal(p, q) for p, q in zip(a, b))


def test_clear_errors():
    X, y = _mixed()
    with pytest.raises(ValueError, match="requires y to be passed"):
        MDLDiscretizer().fit(X)
    with pytest.raises(ValueError, match="categorical_features has 2 entries"):
        MDLDiscretizer(categorical_features=[True, False]).fit(X, y)
    with pytest.raises(ValueError, match="'n_bins' parameter of EqualWidthDiscretizer must be an int"):
        EqualWidthDiscretizer(n_bins=0).fit(X)
    with pytest.raises(ValueError, match="not category codes"):
        EqualWidthDiscretizer(categorical_features=[2]).fit(X)
    with pytest.raises(ValueError, match="4 features"):
        MDLDiscretizer().fit(X, y).transform(X[:, :2])
    with pytest.raises(ValueError, match="Unknown label type"):
        MDLDiscretizer().fit(X, X[:, 0])
    with pytest.raises(ValueError):
        MDLDiscretizer().fit(X, np.where(y == 1, np.nan, y))


def test_equal_frequency_on_hand_worked_data():
    # 10 distinct values, one instance each, 5 bins: freq = 2; cuts after every second value.
    assert equal_frequency_cut_points(np.arange(10.0), 5).tolist() == [1.5, 3.5, 5.5, 7.5]
    # Ties are never split: values 0 (x6), 1, 2, 3, 4 in 3 bins, freq = 10/3. The first boundary (after the six
    # zeros, weight 6) overshoots; the bin is closed there. Then freq = 4/2 = 2: cut after 1, 2 -> 1.5.
    x = np.array([0, 0, 0, 0, 0, 0, 1, 2, 3, 4], dtype=float)
    assert equal_frequency_cut_points(x, 3).tolist() == [0.5, 2.5]


def test_equal_width_cut_points():
    x = np.array([2.0, 4.0, np.nan, 12.0])
    d = EqualWidthDiscretizer(n_bins=5).fit(x[:, None])
    assert d.cut_points_[0].tolist() == [4.0, 6.0, 8.0, 10.0]
    assert d.transform(np.array([[2.0], [4.0], [4.5], [12.0], [np.nan]]))[:, 0].tolist()[:4] == [0, 0, 1, 4]
    assert EqualWidthDiscretizer().fit(np.ones((5, 1))).cut_points_[0].size == 0


@pytest.mark.parametrize("est", [MDLDiscretizer(), EqualFrequencyDiscretizer(), EqualWidthDiscretizer()],
                         ids=lambda e: type(e).__name__)
def test_scikit_learn_estimator_checks(est):
    check_estimator(est)


# ---------------------------------------------------------------- in a bench pipeline
class RecordingCategoricalNB(CategoricalNB):
    """CategoricalNB that records the column metadata the runner hands it (test helper)."""

    def __init__(self, alpha=1.0, categorical_features=None, n_categories=None):
        super().__init__(alpha=alpha)
        self.categorical_features = categorical_features
        self.n_categories = n_categories

    def fit(self, X, y):
        super().fit(X, y)
        self.diagnostics_ = {"categorical": [bool(v) for v in self.categorical_features],
                             "n_categories": [int(v) for v in self.n_categories],
                             "max_code": [int(v) for v in np.nanmax(X, axis=0)]}
        return self


def test_python_m_bench_runs_a_pipeline_with_the_discretiser(tmp_path):
    res = tmp_path / "res"
    out = run_bench(["algo=gnb", "algo.name=mdl_cnb", "data=sk_iris", "protocol=cv2", "progress=false",
                     "algo.preprocess=[{_target_:algorithms.discretize.MDLDiscretizer}]",
                     "algo.estimator._target_=tests.test_discretize.RecordingCategoricalNB"], res)
    assert "mdl_cnb@" in out.stdout and " on sk_iris" in out.stdout   # a renamed config shows its hash
    df = load_records(res)
    assert len(df) == 2 and (df["status"] == "ok").all()
    assert (df["metrics.error"] < 0.15).all()
    assert (df["times.preprocess_fit_cpu_s"] > 0).all()
    for _, rec in df.iterrows():
        assert rec["extra.categorical"] == [True] * 4  # the discretiser's categorical_features_out_
        # n_categories_out_ of the fitted discretiser: every bin occurs in the training fold
        assert [m + 1 for m in rec["extra.max_code"]] == rec["extra.n_categories"]
        assert max(rec["extra.n_categories"]) > 1


# ---------------------------------------------------------------- Weka 3.6 agreement
def _agreement(name, make, filter_class, options, folds):
    from bench.weka import cuts as W

    ds = load(name)
    total = None
    for s in splits(ds.y, {"kind": "kfold", "n_splits": 10}, 0):
        if s.fold not in folds:
            continue
        ours = make(ds).fit(ds.X[s.train], ds.y[s.train]).cut_points_
        a = W.compare(ours, W.cut_points(ds, s.train, filter_class, options).cut_points, f"{name} f{s.fold}")
        total = a if total is None else total + a
    return total


@pytest.mark.parametrize("kind", ["mdl", "equal_frequency", "equal_width"])
@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
def test_same_cut_points_as_weka_on_segment(kind):
    from bench.weka.cuts import SUPERVISED, UNSUPERVISED

    make, filt, opts = {
        "mdl": (lambda ds: MDLDiscretizer(categorical_features=ds.categorical), SUPERVISED, []),
        "equal_frequency": (lambda ds: EqualFrequencyDiscretizer(categorical_features=ds.categorical),
                            UNSUPERVISED, ["-F", "-B", "10"]),
        "equal_width": (lambda ds: EqualWidthDiscretizer(categorical_features=ds.categorical),
                        UNSUPERVISED, ["-B", "10"]),
    }[kind]
    a = _agreement("segment", make, filt, opts, folds={0})
    assert a.n_attributes == 19 and a.n_identical == 19, a.differing


@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
def test_weka_breaks_the_entropy_tie_the_same_way():
    from bench.weka import cuts as W

    X, y = _rows([[5, 0], [1, 1], [0, 5]])
    ds = Dataset("tie", X, y, ["a", "b"], ["x"], np.array([False]))
    assert W.cut_points(ds, np.arange(len(y))).cut_points[0].tolist() == [1.5]
    rejected = Dataset("noisy", np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([0, 1, 1, 0]), ["a", "b"], ["x"],
                       np.array([False]))
    assert W.cut_points(rejected, np.arange(4)).cut_points[0].size == 0


@pytest.mark.slow
@pytest.mark.weka
@pytest.mark.skipif(not weka.available(), reason="Weka 3.6 not installed")
@pytest.mark.parametrize("name", ["letter", "segment", "magic", "adult", "pendigits", "horse_colic", "hepatitis"])
def test_same_mdl_cut_points_as_weka_on_all_ten_training_folds(name):
    a = _agreement(name, lambda ds: MDLDiscretizer(categorical_features=ds.categorical),
                   "weka.filters.supervised.attribute.Discretize", [], folds=set(range(10)))
    n_numeric = int((~load(name).categorical).sum())
    assert a.n_attributes == 10 * n_numeric
    assert a.n_identical == a.n_attributes, a.differing
