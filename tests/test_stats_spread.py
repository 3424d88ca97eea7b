"""bench.stats.spread: the one standard-error helper, checked bit for bit against each inline
copy it replaced (with that copy's own rule for one value), so no committed number moves."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bench.stats import mean_se, pooled_standard_error, standard_error


def _same(x, y) -> bool:
    return (math.isnan(x) and math.isnan(y)) or x == y


# the replaced expressions, as they stood (file: rule for one value)
OLD = {
    "report/eskdb.py table averages (nan)":
        lambda x: float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else np.nan,
    "report/massbayes.py Table 3 / parameter tables (nan)":
        lambda acc: acc.std(ddof=1) / np.sqrt(acc.size) if acc.size > 1 else np.nan,
    "report/ande_sr.py cells (0)":
        lambda v: v.std(ddof=1) / np.sqrt(v.size) if v.size > 1 else 0,
    "report/figures.py normalised bars (0, nan for none)":
        lambda r: float(r.std(ddof=1) / np.sqrt(r.size)) if r.size > 1 else (0.0 if r.size == 1 else np.nan),
    "report/mctree.py _mean_se (0)":
        lambda v: float(v.to_numpy().std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else 0.0,
    "report/build.py summary tables (0)":
        lambda v: v.to_numpy().std(ddof=1) / np.sqrt(v.size) if v.size > 1 else 0.0,
    "stats/pairwise.py two-SE test, paired (nan)":
        lambda d: d.to_numpy().std(ddof=1) / np.sqrt(d.size) if d.size > 1 else np.nan,
    "perf/forest.py agreement (nan)":
        lambda a: a.to_numpy().std(ddof=1) / math.sqrt(len(a)) if a.size > 1 else np.nan,
}
SINGLE = {k: (0.0 if "(0" in k else math.nan) for k in OLD}


@pytest.mark.parametrize("name", sorted(OLD))
def test_identical_to_each_replaced_copy(name):
    rng = np.random.default_rng(7)
    for n in [1, 2, 3, 5, 10, 30, 97] * 40:
        x = pd.Series(rng.normal(80, 5, n) * 10.0 ** rng.integers(-3, 3))
        assert _same(float(OLD[name](x)), standard_error(x, single=SINGLE[name])), (name, n)


def test_eskdb_figure_column_and_mctree_curve_rules():
    """eskdb Fig. 6 (pandas std of one value is NaN) and the MC-Tree curve band (sd filled with 0)."""
    rng = np.random.default_rng(3)
    for n in (1, 2, 4, 9):
        x = pd.Series(rng.normal(size=n))
        assert _same(float(x.std(ddof=1) / np.sqrt(n)), standard_error(x))
        band = (pd.Series([x.std()]).fillna(0) / np.sqrt(n)).iloc[0]
        assert standard_error(x, single=0.0) == pytest.approx(band, rel=1e-14, abs=0)


def test_the_documented_rule():
    assert math.isnan(standard_error([]))
    assert math.isnan(standard_error([4.0]))                 # one value: no spread to estimate
    assert standard_error([4.0], single=0.0) == 0.0
    assert standard_error([1.0, 2.0, 3.0, 4.0]) == np.std([1, 2, 3, 4], ddof=1) / 2
    assert math.isnan(standard_error([1.0, np.nan, 3.0]))    # NaN in, NaN out
    # scipy's sem gives the same value and the same NaN for one value
    from scipy.stats import sem

    x = np.random.default_rng(0).normal(size=13)
    assert standard_error(x) == pytest.approx(sem(x), rel=1e-14)
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        assert math.isnan(sem([4.0]))


def test_mean_se_of_the_console_summary():
    m, se = mean_se([1.0, 2.0, None, float("nan"), 3.0, 4.0])
    assert m == 2.5 and se == np.std([1, 2, 3, 4], ddof=1) / 2
    assert mean_se([5.0]) == (5.0, 0.0)
    assert all(math.isnan(v) for v in mean_se([None]))


def test_pooled_identical_to_the_replaced_copy():
    """stats/pairwise.py two-SE test, pooled: sqrt(var_a/n + var_b/n), bit for bit."""
    rng = np.random.default_rng(11)
    for n in [2, 3, 5, 10, 30] * 40:
        a, b = rng.normal(0.2, 0.05, n), rng.normal(0.25, 0.03, n) * 10.0 ** rng.integers(-2, 2)
        assert np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size) == pooled_standard_error(a, b)
