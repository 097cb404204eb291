"""Noise-aware front membership and missing scores (core/robustness_noise.py).

Membership is checked on tables whose noise makes the answer known; the relations and picks
under missing scores against an enumeration of fillings on tiny tables.
"""

import itertools

import numpy as np
import pytest

from copa_dash.core import robustness_noise as noise
from copa_dash.core.criteria import copa_select
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform


def test_a_clear_winner_with_small_noise_is_always_on_the_front_and_picked():
    values = np.array([[0.9, 1.0], [0.5, 3.0], [0.4, 4.0], [0.45, 3.5]])   # acc max, cost min
    scale = np.full(values.shape, 0.001)
    draws = noise.normal_draws(values, scale, samples=300, rng=0)
    m = noise.front_membership(draws, ["max", "min"], [0.5, 0.5], p=2)
    np.testing.assert_array_equal(m.front, [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(m.pick, [1.0, 0.0, 0.0, 0.0])


def test_two_equal_models_under_symmetric_noise_split_as_the_tie_rule_says():
    values = np.array([[0.8, 2.0], [0.8, 2.0], [0.1, 9.0]])
    scale = np.array([[0.05, 0.1], [0.05, 0.1], [0.0, 0.0]])
    m = noise.front_membership(noise.normal_draws(values, scale, samples=4000, rng=3),
                               ["max", "min"], [0.5, 0.5], p=1)
    assert m.pick[2] == 0.0 and m.front[2] == 0.0
    # u is 0 or 1/3 per objective: when each wins one objective, C ties (as do C at p = 8
    # and the sum of u) and table order picks row 0; so row 0 is picked in 3/4 of draws
    assert abs(m.pick[0] - 0.75) <= 4 * m.stderr(0.75)
    assert abs(m.pick[1] - 0.25) <= 4 * m.stderr(0.25)
    # each is on the front unless the other beats it on both: P = 3/4 for independent
    # symmetric continuous differences in two objectives
    assert np.all(np.abs(m.front[:2] - 0.75) <= 4 * m.stderr(0.75))


def test_no_noise_gives_the_plain_front_and_pick():
    rng = np.random.default_rng(1)
    values = rng.integers(0, 5, (20, 3)).astype(float)
    m = noise.front_membership(noise.normal_draws(values, np.zeros_like(values), samples=3),
                               ["min"] * 3, [0.2, 0.3, 0.5], p=2)
    u = cdf_transform(values)
    assert m.pick[copa_select(u, [0.2, 0.3, 0.5], p=2)] == 1.0
    from copa_dash.core.dominance import nondominated_mask
    np.testing.assert_array_equal(m.front, nondominated_mask(values).astype(float))


def test_bootstrap_of_identical_runs_is_the_runs_value_and_means_are_of_own_runs():
    values = np.array([[1.0, 2.0], [1.0, 2.0], [3.0, 0.0], [5.0, 0.0]])
    groups = np.array([0, 0, 1, 1])
    draws = noise.bootstrap_means(values, groups, samples=200, rng=0)
    assert draws.shape == (200, 2, 2)
    np.testing.assert_array_equal(draws[:, 0], np.tile([1.0, 2.0], (200, 1)))
    assert set(np.unique(draws[:, 1, 0])) <= {3.0, 4.0, 5.0}
    assert abs(draws[:, 1, 0].mean() - 4.0) < 0.2


def _fillings(y, k_values):
    """Every filling of the NaN cells of y with values from k_values[col]."""
    cells = np.argwhere(np.isnan(y))
    for combo in itertools.product(*[k_values[k] for _, k in cells]):
        f = y.copy()
        if len(cells):
            f[cells[:, 0], cells[:, 1]] = combo
        yield f


def _dom(a, b):
    return bool(np.all(a <= b) and np.any(a < b))


@pytest.mark.parametrize("seed", range(12))
def test_missing_relations_equal_an_enumeration_of_fillings(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, (5, 2)).astype(float)
    y[rng.choice(5, 2, replace=False), rng.integers(0, 2, 2)] = np.nan
    if np.isnan(y).all(axis=0).any():
        return
    # candidates: observed values, midpoints and quarter points within the range
    k_values = []
    for k in range(2):
        col = y[~np.isnan(y[:, k]), k]
        k_values.append(np.unique(np.linspace(col.min(), col.max(), 13)))
    rel = noise.missing_relations(y, ["min", "min"])
    fills = list(_fillings(y, k_values))
    for r, i in enumerate(rel.rows):
        for j in range(5):
            if i == j:
                continue
            by_j = [_dom(f[j], f[i]) for f in fills]
            of_j = [_dom(f[i], f[j]) for f in fills]
            assert rel.always_dominated[r, j] == all(by_j)
            assert rel.maybe_dominated[r, j] == any(by_j)
            assert rel.always_dominates[r, j] == all(of_j)
            assert rel.maybe_dominates[r, j] == any(of_j)


@pytest.mark.parametrize("seed", range(6))
def test_picks_over_fillings_contain_every_random_filling_pick(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 6, (6, 3)).astype(float)
    y[rng.choice(6, 2, replace=False), rng.integers(0, 3, 2)] = np.nan
    if np.isnan(y).all(axis=0).any():
        return
    w = [0.5, 0.3, 0.2]
    result = noise.picks_over_fillings(y, ["min", "max", "min"], w, p=2)
    assert result.exhaustive and abs(result.shares.sum() - 1) < 1e-12
    lo, hi = np.nanmin(y, axis=0), np.nanmax(y, axis=0)
    for _ in range(200):
        f = y.copy()
        cells = np.argwhere(np.isnan(y))
        f[cells[:, 0], cells[:, 1]] = rng.uniform(lo[cells[:, 1]], hi[cells[:, 1]])
        pick = copa_select(cdf_transform(f, ["min", "max", "min"]), w, p=2)
        assert pick in result.rows


def test_scale_must_match_the_values():
    with pytest.raises(InvalidInputError, match="'scale'"):
        noise.normal_draws([[1.0, 2.0]], [[1.0]], samples=5)


def test_many_missing_cells_are_sampled_not_enumerated():
    # 70 missing cells with 39 candidates each: 39**70 overflows int64 (it once wrapped to a
    # small number and the enumeration never ended)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 20, (80, 2)).astype(float)
    y[:70, 1] = np.nan
    result = noise.picks_over_fillings(y, ["min", "min"], [0.5, 0.5], p=1, max_fillings=50)
    assert not result.exhaustive and result.n_fillings == 50
