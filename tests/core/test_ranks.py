"""CDF transform: the compiled kernel against scipy, its twin and hand-worked values."""

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from copa_dash.core._kernels import ranks as kernels
from copa_dash.core._reference import ranks as reference
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import (
    average_ranks,
    cdf_transform,
    dkw_epsilon,
    rank_correlations,
    u_interval,
    u_standard_error,
)


def integer_table(seed, n=40, k=4, high=5):
    """Seeded integer-valued floats: many ties, and a few exact duplicate rows."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, high, (n, k)).astype(float)
    y[rng.integers(0, n, n // 4)] = y[rng.integers(0, n)]
    return y


@pytest.mark.parametrize("seed", range(6))
def test_matches_scipy_rankdata_min(seed):
    y = integer_table(seed)
    expected = (scipy.stats.rankdata(y, method="min", axis=0) - 1) / y.shape[0]
    assert np.array_equal(cdf_transform(y), expected)


@pytest.mark.parametrize("seed", range(4))
def test_directions_rank_negated_columns(seed):
    y = integer_table(seed, k=3)
    flipped = y * np.array([1.0, -1.0, 1.0])
    expected = (scipy.stats.rankdata(flipped, method="min", axis=0) - 1) / y.shape[0]
    assert np.array_equal(cdf_transform(y, ["min", "max", "min"]), expected)
    assert np.array_equal(cdf_transform(y, ["min", "max", "min"]), cdf_transform(flipped))


@pytest.mark.parametrize("seed", range(8))
def test_kernel_matches_reference_with_population_and_nan(seed):
    rng = np.random.default_rng(seed)
    y = integer_table(seed, n=30, k=3)
    y[rng.random(y.shape) < 0.15] = np.nan
    y[0] = [0.0, 1.0, 2.0]  # keep every column populated
    population = rng.random(30) < 0.6
    population[0] = True
    y_t = np.ascontiguousarray(y.T)
    got = kernels.cdf_columns(y_t, np.argsort(y_t, axis=1), population)
    want = reference.cdf_columns(y, population)
    assert np.array_equal(np.isnan(got), np.isnan(y))
    assert np.array_equal(got, want, equal_nan=True)


def test_hand_worked_example_with_population_and_missing_values():
    y = np.array([[3.0, 1.0],
                  [1.0, np.nan],
                  [3.0, 5.0],
                  [2.0, 4.0],
                  [0.0, 2.0]])
    population = np.array([True, True, True, True, False])
    u = cdf_transform(y, population=population)
    # column 0, population {3, 1, 3, 2}: 1 -> 0/4, 2 -> 1/4, 3 -> 2/4 (tied, smaller value);
    # row 4 (outside) has 0 < every member: 0/4.
    assert u[:, 0].tolist() == [0.5, 0.0, 0.5, 0.25, 0.0]
    # column 1, population {1, 5, 4} (row 1 is missing, so N_pop = 3); row 4 (2) beats 1 of them.
    assert u[0, 1] == 0.0 and math.isnan(u[1, 1])
    assert u[2, 1] == pytest.approx(2 / 3) and u[3, 1] == pytest.approx(1 / 3)
    assert u[4, 1] == pytest.approx(1 / 3)


def test_best_row_gets_zero_and_ties_share_the_smaller_value():
    u = cdf_transform([[5.0], [1.0], [5.0], [3.0]])
    assert u[:, 0].tolist() == [0.5, 0.0, 0.5, 0.25]


@pytest.mark.parametrize("seed", range(4))
def test_row_permutation_permutes_u(seed):
    y = integer_table(seed)
    perm = np.random.default_rng(seed).permutation(y.shape[0])
    assert np.array_equal(cdf_transform(y[perm]), cdf_transform(y)[perm])


@pytest.mark.parametrize("transform", [np.exp, lambda v: v ** 3 - 7.0, lambda v: 0.01 * v + 1e6,
                                       np.arctan])
def test_strictly_increasing_transform_leaves_u_unchanged(transform):
    y = integer_table(3) - 2.0
    assert np.array_equal(cdf_transform(transform(y)), cdf_transform(y))


def test_decreasing_transform_equals_flipping_the_direction():
    y = integer_table(5)
    assert np.array_equal(cdf_transform(-2.0 * y, "max"), cdf_transform(y))


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 3)),
              elements=st.sampled_from([0.0, 1.0, 2.0, 2.5, -1.0, np.nan])),
       st.data())
def test_property_kernel_equals_definition(y, data):
    population = np.array(data.draw(st.lists(st.booleans(), min_size=y.shape[0],
                                             max_size=y.shape[0])), dtype=bool)
    counts = (~np.isnan(y[population])).sum(axis=0)
    if not population.any() or (counts == 0).any():
        with pytest.raises(InvalidInputError):
            cdf_transform(y, population=population)
        return
    got = cdf_transform(y, population=population)
    assert np.array_equal(got, reference.cdf_columns(y, population), equal_nan=True)
    assert np.nanmin(got, initial=0.0) >= 0.0 and np.nanmax(got, initial=0.0) <= 1.0
    assert np.nanmax(got[population], initial=0.0) < 1.0  # 1 only for rows outside it


def test_large_random_column_matches_scipy():
    y = np.random.default_rng(0).normal(size=(20_000, 2)).round(2)
    expected = (scipy.stats.rankdata(y, method="min", axis=0) - 1) / y.shape[0]
    assert np.array_equal(cdf_transform(y), expected)


def test_inputs_are_not_mutated():
    y = integer_table(1)
    y[3, 1] = np.nan
    population = np.ones(y.shape[0], dtype=bool)
    y0, p0 = y.copy(), population.copy()
    cdf_transform(y, "max", population=population)
    assert np.array_equal(y, y0, equal_nan=True) and np.array_equal(population, p0)


@pytest.mark.parametrize("points, kwargs, match", [
    ([[1.0, np.inf]], {}, "'points' must not contain infinite"),
    ([["a", "b"]], {}, "'points' must be numeric"),
    (np.zeros((2, 2, 2)), {}, "'points' must be a 2-D array"),
    ([[1.0, 2.0]], {"directions": ["min"]}, "'directions' must have length 2"),
    ([[1.0, 2.0]], {"directions": "up"}, r"'directions\[0\]' must be 'min' or 'max'"),
    ([[1.0], [2.0]], {"population": [True]}, "'population' must have length 2"),
    ([[1.0], [2.0]], {"population": [1, 0]}, "'population' must be a boolean array"),
    ([[1.0], [2.0]], {"population": [False, False]}, "'population' must select at least one"),
    ([[1.0, np.nan], [2.0, 3.0]], {"population": [True, False]},
     "'points' column 1 has no value inside the population"),
])
def test_bad_input_names_the_argument(points, kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        cdf_transform(points, **kwargs)


def test_standard_error_matches_proposition_3_1():
    u = np.array([[0.0, 0.5], [0.25, 0.9]])
    se = u_standard_error(u, np.array([100, 400]))  # one population size per column
    assert se == pytest.approx(np.sqrt(u * (1 - u) / np.array([100, 400])))
    assert u_standard_error(0.5, 25) == pytest.approx(0.1)  # the maximum, 0.5 / sqrt(N)
    assert np.isnan(u_standard_error([np.nan], 10)[0])


def test_standard_error_matches_simulated_spread_of_u_hat():
    rng = np.random.default_rng(7)
    n, y0 = 50, 0.3  # a fixed value whose true CDF under U(0, 1) is 0.3
    estimates = [(rng.random(n) < y0).mean() for _ in range(4000)]
    assert np.std(estimates) == pytest.approx(float(u_standard_error(0.3, n)), rel=0.05)


@pytest.mark.parametrize("u, n, match", [
    ([1.5], 10, "'u' must lie in"), ([0.5], 0, "'n_population' must be a positive"),
    ([0.5], 2.5, "'n_population' must be a positive"), ([0.5, 0.5], [1, 2, 3], "broadcast"),
])
def test_standard_error_errors(u, n, match):
    with pytest.raises(InvalidInputError, match=match):
        u_standard_error(u, n)


Z_95 = 1.959963984540054  # two-sided 95% normal quantile


def _score_test_roots(u_hat, n, z=Z_95):
    """Wilson's bounds from their definition: the p with (u_hat - p)^2 = z^2 p (1 - p) / n,
    i.e. the roots of (1 + z^2/n) p^2 - (2 u_hat + z^2/n) p + u_hat^2 = 0."""
    roots = np.roots([1 + z * z / n, -(2 * u_hat + z * z / n), u_hat * u_hat])
    return sorted(float(r.real) for r in roots)


def test_u_interval_of_a_three_row_table_is_wilsons_and_stays_in_0_1():
    u = cdf_transform([[3.0], [1.0], [2.0]])[:, 0]           # 2/3, 0, 1/3
    low, high = u_interval(u, 3)
    for k in range(3):
        assert [low[k], high[k]] == pytest.approx(_score_test_roots(u[k], 3), abs=1e-12)
        assert 0.0 <= low[k] <= u[k] <= high[k] <= 1.0
    # u = 1/3 of 3 rows, by hand: centre (1/3 + z^2/6) / (1 + z^2/3), half-width
    # z / (1 + z^2/3) * sqrt(2/27 + z^2/36)
    shrink = 1 + Z_95 ** 2 / 3
    centre = (1 / 3 + Z_95 ** 2 / 6) / shrink
    half = Z_95 / shrink * math.sqrt(2 / 27 + Z_95 ** 2 / 36)
    assert (low[2], high[2]) == pytest.approx((centre - half, centre + half), abs=1e-12)
    # the normal approximation the explorer used before leaves [0, 1] here
    assert 1 / 3 - Z_95 * float(u_standard_error(1 / 3, 3)) < 0
    # u = 0 (the best row) keeps a width: low 0, high z^2/n / (1 + z^2/n)
    assert (low[1], high[1]) == pytest.approx((0.0, (Z_95 ** 2 / 3) / shrink), abs=1e-12)


def test_u_interval_covers_about_95_percent():
    rng = np.random.default_rng(3)
    n, true_u = 12, 0.2
    u_hat = rng.binomial(n, true_u, 4000) / n
    low, high = u_interval(u_hat, n)
    covered = ((low <= true_u) & (true_u <= high)).mean()
    assert 0.90 <= covered <= 0.99
    assert (low >= 0).all() and (high <= 1).all()


def test_u_interval_passes_nan_and_refuses_bad_input():
    low, high = u_interval([np.nan, 0.5], [10, 10], confidence=0.9)
    assert np.isnan(low[0]) and np.isnan(high[0]) and low[1] < 0.5 < high[1]
    for kwargs, match in (({"confidence": 1.0}, "'confidence' must lie"),
                          ({"confidence": "x"}, "'confidence' must be a number")):
        with pytest.raises(InvalidInputError, match=match):
            u_interval([0.5], 10, **kwargs)
    with pytest.raises(InvalidInputError, match="'u' must lie"):
        u_interval([-0.1], 10)


def test_dkw_epsilon():
    assert dkw_epsilon(1000) == pytest.approx(math.sqrt(math.log(40) / 2000))
    assert isinstance(dkw_epsilon(10, delta=0.1), float)
    assert dkw_epsilon([10, 40]) == pytest.approx([math.sqrt(math.log(40) / 20),
                                                   math.sqrt(math.log(40) / 80)])
    for bad in (0.0, 1.0, "x"):
        with pytest.raises(InvalidInputError, match="'delta'"):
            dkw_epsilon(10, delta=bad)
    with pytest.raises(InvalidInputError, match="'n_population'"):
        dkw_epsilon(0)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(3, 30), st.integers(1, 4)),
              elements=st.integers(0, 5).map(float)))
def test_average_ranks_and_rank_correlations_are_scipys(values):
    """scipy.stats' rankdata and spearmanr are the independent source; ties are the rule
    here (six values), not the exception."""
    assert np.array_equal(average_ranks(values), scipy.stats.rankdata(values, axis=0))
    rho = rank_correlations(values)
    for i in range(values.shape[1]):
        for j in range(values.shape[1]):
            if np.ptp(values[:, i]) == 0 or np.ptp(values[:, j]) == 0:
                assert math.isnan(rho[i, j])
            else:
                expected = scipy.stats.spearmanr(values[:, i], values[:, j]).statistic
                assert rho[i, j] == pytest.approx(expected, abs=1e-12)

