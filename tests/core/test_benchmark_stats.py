"""Benchmark statistics: per-task CCDF, scaled performance, Friedman, Nemenyi CD."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from copa_dash.core.benchmark_stats import (
    aggregate_over_tasks,
    critical_difference_groups,
    friedman_test,
    nemenyi_critical_difference,
    per_task_ccdf,
    scaled_performance,
    within_task_ranks,
)
from copa_dash.core.criteria import copa_scores
from copa_dash.core.errors import InvalidInputError

SEEDS = range(6)


def _integer_table(seed, n_tasks=9, n_methods=5, missing=0.0):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 4, size=(n_tasks, n_methods)).astype(float)  # many ties
    if missing:
        values[rng.random(values.shape) < missing] = np.nan
    return values


def _brute_ccdf(values, direction):
    y = -values if direction == "max" else values
    out = np.full(values.shape, np.nan)
    for t in range(values.shape[0]):
        present = [m for m in range(values.shape[1]) if not np.isnan(y[t, m])]
        for m in present:
            better = sum(1 for o in present if y[t, o] < y[t, m])
            out[t, m] = 1.0 - better / len(present)
    return out


# --- Nemenyi critical difference -------------------------------------------------------

def test_critical_difference_of_the_issue():
    assert nemenyi_critical_difference(6, 50) == pytest.approx(1.0662, abs=1e-4)


@pytest.mark.parametrize("k, q_over_sqrt2", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728),
                                             (6, 2.850), (7, 2.949), (8, 3.031), (9, 3.102),
                                             (10, 3.164)])
def test_critical_difference_matches_demsar_table(k, q_over_sqrt2):
    # Demšar (2006), Table 5(a): q_0.05 / sqrt(2), printed to 3 decimals
    cd = nemenyi_critical_difference(k, 1) / np.sqrt(k * (k + 1) / 6.0)
    assert cd == pytest.approx(q_over_sqrt2, abs=1e-3)


def test_critical_difference_shrinks_with_more_tasks_and_grows_with_confidence():
    assert nemenyi_critical_difference(6, 100) < nemenyi_critical_difference(6, 50)
    assert nemenyi_critical_difference(6, 50, alpha=0.01) > nemenyi_critical_difference(6, 50)


@pytest.mark.parametrize("args, kwargs, word", [((1, 10), {}, "n_methods"), ((3, 0), {}, "n_tasks"),
                                                ((3, 10), {"alpha": 1.5}, "alpha"),
                                                ((3.5, 10), {}, "n_methods")])
def test_critical_difference_rejects_bad_arguments(args, kwargs, word):
    with pytest.raises(InvalidInputError, match=word):
        nemenyi_critical_difference(*args, **kwargs)


# --- Friedman ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_friedman_matches_scipy_with_ties(seed):
    values = _integer_table(seed, n_tasks=12, n_methods=4 + seed % 3)
    expected = stats.friedmanchisquare(*values.T)
    result = friedman_test(values)
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-10)
    ranks = stats.rankdata(values, axis=1)
    np.testing.assert_allclose(result.mean_ranks, ranks.mean(axis=0))
    assert (result.n_tasks, result.n_methods) == values.shape


def test_friedman_iman_davenport_on_a_worked_example():
    # 4 methods, 3 tasks: method 0 always best, the rest swap; chi2 by hand
    values = np.array([[1, 2, 3, 4], [1, 3, 2, 4], [1, 2, 4, 3]], dtype=float)
    result = friedman_test(values)
    # mean ranks 1, 7/3, 3, 11/3 -> chi2 = 12*3/(4*5) * (1 + 49/9 + 9 + 121/9 - 25) = 7
    np.testing.assert_allclose(result.mean_ranks, [1.0, 7 / 3, 3.0, 11 / 3])
    assert result.statistic == pytest.approx(7.0)
    # Iman-Davenport: (N - 1) chi2 / (N (k - 1) - chi2) = 2 * 7 / (9 - 7) = 7, df (3, 6)
    assert result.f_statistic == pytest.approx(7.0)
    assert result.f_pvalue == pytest.approx(stats.f.sf(7.0, 3, 6))
    assert result.pvalue == pytest.approx(stats.chi2.sf(7.0, 3))


def test_friedman_direction_max_reverses_the_ranks():
    values = _integer_table(3)
    low = friedman_test(values, direction="min")
    high = friedman_test(-values, direction="max")
    np.testing.assert_allclose(low.mean_ranks, high.mean_ranks)
    assert low.statistic == pytest.approx(high.statistic)


def test_friedman_identical_rankings_give_infinite_f():
    values = np.tile(np.arange(5.0), (8, 1))
    result = friedman_test(values)
    assert result.f_statistic == np.inf and result.f_pvalue == 0.0
    assert result.pvalue < 1e-5


def test_friedman_needs_complete_blocks_and_enough_methods():
    with pytest.raises(InvalidInputError, match="NaN"):
        friedman_test([[1.0, np.nan, 2.0], [1.0, 2.0, 3.0]])
    with pytest.raises(InvalidInputError, match="3 methods"):
        friedman_test([[1.0, 2.0], [2.0, 1.0]])


@pytest.mark.parametrize("seed", SEEDS)
def test_within_task_ranks_are_scipy_average_ranks(seed):
    values = _integer_table(seed)
    np.testing.assert_array_equal(within_task_ranks(values), stats.rankdata(values, axis=1))
    np.testing.assert_array_equal(within_task_ranks(values, direction="max"),
                                  stats.rankdata(-values, axis=1))


# --- per-task CCDF ---------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("direction", ["min", "max"])
def test_ccdf_matches_brute_force_with_ties_and_missing(seed, direction):
    values = _integer_table(seed, missing=0.2)
    values[0] = np.nan                       # a task nobody finished
    got = per_task_ccdf(values, direction=direction)
    np.testing.assert_allclose(got, _brute_ccdf(values, direction), equal_nan=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_ccdf_is_invariant_to_monotone_transforms_per_task(seed):
    values = _integer_table(seed) + 1.0
    rng = np.random.default_rng(seed)
    scale = rng.uniform(0.1, 100.0, size=(values.shape[0], 1))
    transformed = np.log(values) * scale + rng.normal(size=(values.shape[0], 1))
    np.testing.assert_allclose(per_task_ccdf(values), per_task_ccdf(transformed))


def test_ccdf_best_gets_one_and_input_is_not_mutated():
    values = np.array([[0.3, 0.1, 0.2, 0.1]])
    before = values.copy()
    np.testing.assert_allclose(per_task_ccdf(values), [[0.25, 1.0, 0.5, 1.0]])
    np.testing.assert_array_equal(values, before)


def test_ccdf_rejects_bad_direction():
    with pytest.raises(InvalidInputError, match="direction"):
        per_task_ccdf([[1.0, 2.0]], direction="up")


# --- scaled performance ----------------------------------------------------------------

def test_scaled_reference_is_zero_and_best_is_one():
    values = np.array([[0.10, 0.30, 0.20, 0.50],
                       [4.00, 2.00, 1.00, 3.00]])
    got = scaled_performance(values, 1)
    np.testing.assert_allclose(got, [[1.0, 0.0, 0.5, -1.0], [-2.0, 0.0, 1.0, -1.0]])


def test_scaled_max_direction_and_undefined_tasks():
    values = np.array([[0.9, 0.8, 0.7],     # reference (column 0) is the best: 0/0
                       [0.5, 0.9, np.nan],
                       [np.nan, 0.9, 0.8]])  # reference missing
    got = scaled_performance(values, 0, direction="max")
    assert np.isnan(got[0]).all()
    np.testing.assert_allclose(got[1, :2], [0.0, 1.0])
    assert np.isnan(got[1, 2]) and np.isnan(got[2]).all()


@pytest.mark.parametrize("seed", SEEDS)
def test_scaled_is_invariant_to_affine_rescaling_of_a_task(seed):
    values = _integer_table(seed) + np.arange(5.0)[None, :] * 0.01  # break exact ties a bit
    rescaled = values * 7.0 + 3.0
    np.testing.assert_allclose(scaled_performance(values, 2), scaled_performance(rescaled, 2),
                               equal_nan=True)


def test_scaled_rejects_a_bad_reference():
    with pytest.raises(InvalidInputError, match="reference"):
        scaled_performance([[1.0, 2.0]], 2)


# --- critical-difference groups --------------------------------------------------------

def test_groups_on_a_hand_example():
    assert critical_difference_groups([1.0, 1.5, 3.0, 3.2], 1.0) == [(0, 1), (2, 3)]
    assert critical_difference_groups([2.0, 1.0, 3.0], 5.0) == [(1, 0, 2)]
    assert critical_difference_groups([1.0, 3.0, 5.0], 1.0) == []
    # overlapping cliques: 1-2 and 2-3 but not 1-3
    assert critical_difference_groups([1.0, 1.8, 2.6], 1.0) == [(0, 1), (1, 2)]


@pytest.mark.parametrize("seed", SEEDS)
def test_groups_are_exactly_the_maximal_cliques(seed):
    rng = np.random.default_rng(seed)
    ranks = np.round(rng.uniform(1, 6, size=7), 1)
    cd = 1.2
    groups = critical_difference_groups(ranks, cd)
    order = list(np.argsort(ranks, kind="stable"))
    # brute force: every contiguous run (in rank order) of >= 2 with spread < cd, maximal
    runs = []
    for i, j in itertools.combinations(range(len(order)), 2):
        if ranks[order[j]] - ranks[order[i]] < cd:
            runs.append((i, j))
    maximal = [r for r in runs if not any(o != r and o[0] <= r[0] and r[1] <= o[1] for o in runs)]
    expected = [tuple(int(m) for m in order[i:j + 1]) for i, j in sorted(maximal)]
    assert groups == expected


def test_groups_reject_a_bad_cd():
    with pytest.raises(InvalidInputError, match="cd"):
        critical_difference_groups([1.0, 2.0], 0.0)


# --- aggregation over tasks (paper Fig. B.9) --------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("p", [1.0, 2.0, 4.0, "inf"])
def test_aggregate_is_copa_over_tasks_rescaled(seed, p):
    values = _integer_table(seed, missing=0.15)
    u = 1.0 - _brute_ccdf(values, "min")
    u = u[~np.isnan(u).all(axis=1)]
    u[np.isnan(u)] = 1.0                        # a missing result is the worst on its task
    n_tasks = u.shape[0]
    expected = copa_scores(u.T, np.full(n_tasks, 1.0 / n_tasks), p=p)
    expected = expected * (n_tasks if p == "inf" else n_tasks ** (1 - 1 / p))
    np.testing.assert_allclose(aggregate_over_tasks(values, p=p), expected)


def test_aggregate_by_hand_and_order_matches_copa():
    values = np.array([[1.0, 2.0, 3.0], [3.0, 1.0, 2.0]])   # u: [0, 1/3, 2/3], [2/3, 0, 1/3]
    got = aggregate_over_tasks(values, p=2)
    np.testing.assert_allclose(got, np.sqrt([(0 + 4 / 9) / 2, (1 / 9 + 0) / 2,
                                             (4 / 9 + 1 / 9) / 2]))
    assert aggregate_over_tasks(values, direction="max", p=2).argmin() == 2


def test_aggregate_needs_a_result():
    with pytest.raises(InvalidInputError, match="no result"):
        aggregate_over_tasks([[np.nan, np.nan]])
