"""Alpha sweep: must equal copa_select at every alpha, tie-breaks included."""

import dataclasses
import math

import numpy as np
import pytest

from copa_dash.core._kernels import sweep as kernels
from copa_dash.core._reference import sweep as reference
from copa_dash.core.criteria import copa_select, weights_from_alpha
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform
from copa_dash.core.sweep import SweepResult, alpha_sweep

P_VALUES = [1.0, 2.0, 2.5, 8.0, math.inf]


def tied_u(seed, n, k, high=4, nan_rows=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, high, (n, k)).astype(float)
    y[rng.integers(0, n, n // 3)] = y[rng.integers(0, n)]
    u = cdf_transform(y)
    if nan_rows:
        u[rng.choice(n, nan_rows, replace=False), rng.integers(0, k)] = np.nan
    return u


def selections(u, focus, p, alphas, eligible=None):
    k = u.shape[1]
    return [copa_select(u, weights_from_alpha(k, focus, a), p=p, eligible=eligible)
            for a in alphas]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("p", P_VALUES)
def test_sweep_equals_copa_select_at_every_alpha_on_tied_data(seed, p):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    u = tied_u(seed, n=int(rng.integers(5, 45)), k=k, high=int(rng.integers(2, 5)),
               nan_rows=seed % 3)
    focus = sorted(rng.choice(k, int(rng.integers(1, k)), replace=False).tolist())
    eligible = rng.random(u.shape[0]) < 0.85
    eligible[np.flatnonzero(~np.isnan(u).any(axis=1))[:2]] = True
    result = alpha_sweep(u, focus, p=p, n_alphas=61, eligible=eligible)
    assert result.selected.tolist() == selections(u, focus, p, result.alphas, eligible)


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("p", [1.0, 2.0, math.inf])
def test_sweep_equals_copa_select_on_grid_values_with_equal_sums(seed, p):
    # u on a coarse grid: many rows share the sum of u with different profiles, so the
    # later tie-breaks (sum of u, table order) decide often, above all at alpha = 0 and 1
    rng = np.random.default_rng(seed)
    u = rng.integers(0, 4, (30, 3)) / 4.0
    result = alpha_sweep(u, [0], p=p, n_alphas=21)
    assert result.selected.tolist() == selections(u, [0], p, result.alphas)


def test_row_that_is_no_better_anywhere_still_wins_by_table_order():
    # row 1 is no worse than row 0 on every reduced sum and ties on the sum of u; at
    # alpha = 1 only the focus column counts, everything ties, and row 0 comes first
    u = np.array([[0.5, 0.2, 0.3], [0.5, 0.25, 0.25]])
    for p in (2.0, math.inf):
        result = alpha_sweep(u, [0], p=p, n_alphas=5)
        assert result.selected.tolist() == [1, 1, 1, 1, 0]
        assert result.selected.tolist() == selections(u, [0], p, result.alphas)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("p", [1.0, 3.0, math.inf])
def test_kernel_matches_reference_twin(seed, p):
    u = tied_u(seed, n=25, k=4, high=3, nan_rows=1)
    in_focus = np.array([True, False, True, False])
    alphas = np.linspace(0, 1, 33)
    a, b = alphas / 2, (1 - alphas) / 2
    eligible = np.ones(25, dtype=bool)
    got = kernels.alpha_sweep_select(u, in_focus, a, b, p, eligible)
    assert got.tolist() == reference.alpha_sweep_select(u, in_focus, a, b, p, eligible).tolist()


@pytest.mark.parametrize("p, fast", [(40.0, True), (120.0, False), (400.0, False),
                                     (1e4, False)])
def test_large_p_takes_the_underflow_safe_path_and_still_agrees(p, fast):
    u = tied_u(3, n=60, k=4, high=6)
    alphas = np.linspace(0, 1, 41)
    a, b = alphas, (1 - alphas) / 3
    assert kernels._fast_path_is_safe(u, np.arange(60), a, b, p) == fast
    result = alpha_sweep(u, [0], p=p, n_alphas=41)
    assert result.selected.tolist() == selections(u, [0], p, result.alphas)


def test_tiny_values_take_the_safe_path_at_moderate_p():
    u = cdf_transform(np.random.default_rng(1).normal(size=(30, 3))) * 1e-40
    result = alpha_sweep(u, [1], p=2, n_alphas=21)
    assert result.selected.tolist() == selections(u, [1], 2, result.alphas)


@pytest.mark.parametrize("p", [1.0, 8.0, math.inf])
def test_continuous_data_with_many_alphas(p):
    u = cdf_transform(np.random.default_rng(5).normal(size=(300, 6)))
    result = alpha_sweep(u, [0, 3], p=p, n_alphas=501)
    assert result.selected.tolist() == selections(u, [0, 3], p, result.alphas)


def test_hand_worked_example():
    u = [[0.0, 0.75], [0.25, 0.25], [0.75, 0.0]]
    result = alpha_sweep(u, [0], p="inf", n_alphas=5)
    # alpha = 0.25: C = max(.25 u0, .75 u1) = .5625, .1875, .1875; rows 1 and 2 tie and
    # C at p = 8 (one large term beats two) picks row 2. alpha = 0.75 mirrors it.
    assert result.selected.tolist() == [2, 2, 1, 0, 0]
    assert result.rows.tolist() == [2, 1, 0]
    assert result.alpha_min.tolist() == [0.0, 0.5, 0.75]
    assert result.alpha_max.tolist() == [0.25, 0.5, 1.0]
    assert result.alpha_mid.tolist() == [0.125, 0.5, 0.875]


@pytest.mark.parametrize("seed", range(4))
def test_weighted_sum_winner_improves_in_focus_as_alpha_grows(seed):
    # p = 1: by the exchange argument, the winner's focus value never increases with alpha
    u = tied_u(seed, n=40, k=2, high=8)
    result = alpha_sweep(u, [0], p=1, n_alphas=201)
    assert np.all(np.diff(u[result.selected, 0]) <= 0)
    assert np.all(np.diff(u[result.selected, 1]) >= 0)


def test_summary_is_consistent_with_selected():
    u = tied_u(7, n=80, k=5, high=5)
    result = alpha_sweep(u, [1, 2], p=2, n_alphas=300)
    assert set(result.rows.tolist()) == set(result.selected.tolist())
    assert np.all(np.diff(result.alpha_min) > 0)  # order of first selection
    for row, lo, hi in zip(result.rows, result.alpha_min, result.alpha_max):
        where = result.alphas[result.selected == row]
        assert (lo, hi) == (where.min(), where.max())
    assert result.alphas[0] == 0.0 and result.alphas[-1] == 1.0 and result.alphas.size == 300


def test_result_is_frozen_and_read_only():
    result = alpha_sweep(tied_u(0, 10, 2), [0], p=1, n_alphas=5)
    assert isinstance(result, SweepResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.rows = np.array([0])
    with pytest.raises(ValueError):
        result.selected[0] = 3


@pytest.mark.parametrize("focus", [[], [0, 1, 2]])
def test_degenerate_focus_selects_the_equal_weight_winner_everywhere(focus):
    u = tied_u(2, n=30, k=3)
    result = alpha_sweep(u, focus, p=2, n_alphas=11)
    assert set(result.selected.tolist()) == {copa_select(u, [1, 1, 1], p=2)}


def test_rows_with_nan_or_not_eligible_are_never_selected():
    u = tied_u(4, n=30, k=3, nan_rows=5)
    eligible = np.arange(30) % 2 == 0
    result = alpha_sweep(u, [2], p="inf", n_alphas=101, eligible=eligible)
    assert eligible[result.rows].all() and not np.isnan(u[result.rows]).any()


def test_inputs_are_not_mutated():
    u = tied_u(1, n=20, k=3, nan_rows=2)
    focus = [1]
    eligible = np.ones(20, dtype=bool)
    copies = (u.copy(), list(focus), eligible.copy())
    alpha_sweep(u, focus, p=2, n_alphas=7, eligible=eligible)
    assert np.array_equal(copies[0], u, equal_nan=True)
    assert copies[1] == focus and np.array_equal(copies[2], eligible)


@pytest.mark.parametrize("kwargs, match", [
    ({"n_alphas": 1}, "'n_alphas' must be an integer from 2"),
    ({"n_alphas": 10.0}, "'n_alphas' must be an integer"),
    ({"n_alphas": True}, "'n_alphas' must be an integer"),
    ({"n_alphas": 10**7}, "'n_alphas' must be an integer"),
    ({"p": 0}, "'p' must be >= 1"),
    ({"eligible": [False, False]}, "'eligible' selects no row"),
    ({"eligible": [True]}, "'eligible' must have length 2"),
])
def test_bad_input_names_the_argument(kwargs, match):
    args = {"p": 1, **kwargs}
    with pytest.raises(InvalidInputError, match=match):
        alpha_sweep([[0.0, 0.5], [0.5, 0.0]], [0], **args)


def test_bad_focus_and_all_nan_rows():
    with pytest.raises(InvalidInputError, match="'focus' index 2 is out of range"):
        alpha_sweep([[0.0, 0.5]], [2], p=1)
    with pytest.raises(InvalidInputError, match="none of the 2 eligible rows"):
        alpha_sweep([[np.nan, 0.5], [0.5, np.nan]], [0], p=1)
