"""Rank acceptability, flips and leave-one-out (core/robustness.py) against brute force.

Brute force here is the reference selection (core/_reference, plain loops) on exact grids of
the weight simplex, a dense alpha / weight / p scan, or a table with a column dropped; the
compiled kernels and their numpy twins must agree with it on seeded data with ties.
"""

import itertools
import math

import numpy as np
import pytest

from copa_dash.core import _twins_robustness as twins
from copa_dash.core import robustness as rob
from copa_dash.core._kernels import robustness as kernels
from copa_dash.core._reference import criteria as reference
from copa_dash.core._reference import robustness as reference_rob
from copa_dash.core.criteria import copa_select, weights_from_alpha
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform

P_VALUES = [1.0, 2.0, 3.5, math.inf]


def tied_u(seed, n, k, high=4, nan_rows=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, high, (n, k)).astype(float)
    y[rng.integers(0, n, n // 3)] = y[rng.integers(0, n)]      # duplicates
    u = cdf_transform(y)
    if nan_rows:
        u[rng.choice(n, nan_rows, replace=False), rng.integers(0, k)] = np.nan
    return np.ascontiguousarray(u)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("p", P_VALUES)
def test_kernel_twin_and_reference_give_the_same_top_three(seed, p):
    u = tied_u(seed, 25, 3, nan_rows=3)
    rng = np.random.default_rng(seed)
    eligible = rng.random(25) < 0.8
    weights = np.ascontiguousarray(np.vstack([rob.simplex_draws(3, 40, seed),
                                              [[1 / 3] * 3, [0.5, 0.5, 0.0], [1, 0, 0]]]))
    expected = reference_rob.top_rows(u, eligible, weights, p, 3)
    cand = kernels.top_candidates(u, eligible, 3)
    np.testing.assert_array_equal(twins.top_candidates(u, eligible, 3), cand)
    np.testing.assert_array_equal(kernels.top_rows(u, cand, weights, p, 3), expected)
    np.testing.assert_array_equal(twins.top_rows(u, cand, weights, p, 3), expected)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("p", [1.0, 2.0, 3.5, 8.0, math.inf])
@pytest.mark.parametrize("depth", [1, 3])
def test_the_pruned_kernel_ranks_many_candidates_as_the_reference_does(seed, p, depth):
    # hundreds of candidates (rows on a curved front), so the peak bound skips most of them;
    # a few exact duplicates and a zero-weight objective in some draws
    rng = np.random.default_rng(seed)
    angles = rng.uniform(0, np.pi / 2, (300, 3))
    u = np.abs(np.column_stack([np.cos(angles[:, 0]), np.sin(angles[:, 0]) * np.cos(angles[:, 1]),
                                np.sin(angles[:, 0]) * np.sin(angles[:, 1])]))
    u[rng.integers(0, 300, 20)] = u[rng.integers(0, 300)]
    u = np.ascontiguousarray(u)
    eligible = np.ones(300, dtype=bool)
    weights = np.ascontiguousarray(np.vstack([rob.simplex_draws(3, 60, seed),
                                              [[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]]))
    cand = kernels.top_candidates(u, eligible, depth)
    assert cand.size > 50
    expected = reference_first_rows(u, eligible, weights, p, depth)
    np.testing.assert_array_equal(kernels.top_rows(u, cand, weights, p, depth), expected)


def reference_first_rows(u, eligible, weights, p, depth) -> np.ndarray:
    """``reference_rob.top_rows`` without ranking the rows past ``depth``: the reference
    ranking (``reference.copa_ranking``) is select, remove, repeat, so its first ``depth``
    rows are the reference's first ``depth`` selections. Same rows; on 300 rows it spares
    the other ~297 selections a weight (about 7 s a case, 200 s for the 30 cases)."""
    out = np.full((len(weights), depth), -1, dtype=np.int64)
    for t, w in enumerate(np.asarray(weights, dtype=float)):
        left = np.array(eligible, dtype=bool, copy=True)
        for j in range(depth):
            i = reference.copa_select(u, w, p, left)
            if i < 0:
                break
            out[t, j] = i
            left[i] = False
    return out


@pytest.mark.parametrize("p", P_VALUES)
@pytest.mark.parametrize("depth", [1, 3, 30])
def test_the_first_reference_selections_are_the_reference_rankings_top(p, depth):
    # tied rows, rows with a missing value, ineligible rows, and a depth past the rankable
    # rows (-1 there): reference_first_rows gives what reference_rob.top_rows gives
    u = tied_u(2, 25, 3, nan_rows=3)
    eligible = np.random.default_rng(2).random(25) < 0.8
    weights = np.ascontiguousarray(np.vstack([rob.simplex_draws(3, 20, 2),
                                              [[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]]))
    np.testing.assert_array_equal(reference_first_rows(u, eligible, weights, p, depth),
                                  reference_rob.top_rows(u, eligible, weights, p, depth))


@pytest.mark.parametrize("depth", [1, 2])
def test_a_row_just_past_the_bound_still_enters_the_band_of_ties(depth):
    # at p = inf, C is the peak; B's C is A's plus half the tie tolerance, so the two tie on C
    # and B wins the tie-break at p = 8. The bound (A's C) must be widened by the tolerance,
    # or B is skipped and A is wrongly taken first.
    a = [0.6, 0.6]
    b = [0.6 * (1 + 5e-13), 0.0]
    u = np.ascontiguousarray([a, b, [0.9, 0.9]])
    weights = np.ascontiguousarray([[0.5, 0.5]])
    eligible = np.ones(3, dtype=bool)
    expected = reference_rob.top_rows(u, eligible, weights, math.inf, depth)
    assert expected[0, 0] == 1
    cand = kernels.top_candidates(u, eligible, depth)
    np.testing.assert_array_equal(kernels.top_rows(u, cand, weights, math.inf, depth), expected)


@pytest.mark.parametrize("p", [1.0, 2.0, math.inf])
@pytest.mark.parametrize("depth", [1, 3, 6])
def test_rows_tied_on_c_through_different_terms_all_enter_the_band(p, depth):
    # every permutation of the same values under equal weights: C ties (up to rounding), so
    # the floor of a tied row is within a few ulps of the bound and must not be skipped
    rng = np.random.default_rng(11)
    perms = np.array([[a, b, c] for a, b, c in itertools.permutations(range(3))])
    values = rng.uniform(0.05, 0.95, 3)
    u = np.ascontiguousarray(np.vstack([values[perms], rng.uniform(0.3, 1.0, (30, 3))]))
    eligible = np.ones(len(u), dtype=bool)
    weights = np.ascontiguousarray([[1 / 3, 1 / 3, 1 / 3], [0.2, 0.2, 0.6]])
    expected = reference_rob.top_rows(u, eligible, weights, p, depth)
    cand = kernels.top_candidates(u, eligible, depth)
    np.testing.assert_array_equal(kernels.top_rows(u, cand, weights, p, depth), expected)


def _cell_centres(n):
    """Centroids of the n^2 equal triangles of the 2-simplex (exact midpoint rule)."""
    pts = [((i + 1 / 3) / n, (j + 1 / 3) / n) for i in range(n) for j in range(n - i)]
    pts += [((i + 2 / 3) / n, (j + 2 / 3) / n) for i in range(n) for j in range(n - 1 - i)]
    a = np.array(pts)
    return np.column_stack([a, 1.0 - a.sum(axis=1)])


@pytest.mark.parametrize("p", [1.0, 2.0, math.inf])
def test_acceptability_matches_an_exact_grid_of_the_simplex_within_its_error(p):
    u = tied_u(3, 8, 3, high=6)
    grid = _cell_centres(40)                             # 1,600 equal cells
    every = np.ones(len(u), dtype=bool)
    firsts = [reference.copa_select(u, w, p, every) for w in grid]
    exact = np.bincount(firsts, minlength=len(u)) / len(grid)
    result = rob.rank_acceptability(u, p=p, samples=20_000, rng=7)
    se = result.stderr(exact)
    # 4 standard errors, plus the grid's own discretisation (cells cut by a boundary)
    assert np.all(np.abs(result.rank1 - exact) <= 4 * se + 0.01)
    assert abs(result.rank1.sum() - 1.0) < 1e-12
    assert np.all(result.top3 >= result.rank1)
    assert abs(result.top3.sum() - 3.0) < 1e-12


def test_two_objectives_share_and_central_weight_are_the_winning_interval():
    # rows win on w1 in [0, 1/3), (1/3, 2/3), (2/3, 1] at p = inf (exact: area = length)
    u = np.array([[0.0, 0.9], [0.3, 0.3], [0.9, 0.0]])
    # row 0 first when w1*0 vs ... compute exactly on a dense grid with the reference
    grid = np.linspace(0, 1, 20_001)
    every = np.ones(3, dtype=bool)
    firsts = np.array([reference.copa_select(u, [w, 1 - w], math.inf, every) for w in grid])
    exact = np.bincount(firsts, minlength=3) / len(grid)
    centre = [grid[firsts == r].mean() for r in range(3)]
    result = rob.rank_acceptability(u, p="inf", samples=40_000, rng=1)
    assert np.all(np.abs(result.rank1 - exact) <= 4 * result.stderr(exact) + 1e-3)
    np.testing.assert_allclose(result.central_weights[:, 0], centre, atol=0.01)


def test_same_seed_same_answer_and_error_is_stated():
    u = tied_u(1, 30, 4)
    a = rob.rank_acceptability(u, p=2, samples=500, rng=5)
    b = rob.rank_acceptability(u, p=2, samples=500, rng=5)
    np.testing.assert_array_equal(a.rank1, b.rank1)
    assert a.seed == 5 and a.n_samples == 500
    np.testing.assert_allclose(a.stderr(a.rank1), np.sqrt(a.rank1 * (1 - a.rank1) / 500))


def test_local_draws_stay_within_the_radius_and_a_clear_pick_stays():
    w0 = np.array([0.5, 0.3, 0.2])
    draws = rob.simplex_draws(3, 5000, 2, center=w0, radius=0.1)
    assert np.abs(draws - w0).max() <= 0.1 + 1e-12
    np.testing.assert_allclose(draws.sum(axis=1), 1.0)
    u = np.array([[0.0, 0.0, 0.1], [0.5, 0.5, 0.0], [0.9, 0.9, 0.9]])
    local = rob.rank_acceptability(u, p=1, samples=2000, center=w0, radius=0.1)
    assert local.rank1[0] == 1.0 and local.radius == 0.1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("p", [1.0, 2.0, math.inf])
def test_weight_flips_match_a_dense_scan_with_the_reference(seed, p):
    u = tied_u(seed, 12, 3, high=5)
    every = np.ones(12, dtype=bool)
    w0 = np.array([0.45, 0.35, 0.2])
    pick = reference.copa_select(u, w0, p, every)
    n_grid = 401
    flips = rob.weight_flips(u, w0, p=p, n_grid=n_grid)
    grid = np.linspace(0, 1, n_grid)
    for k in range(3):
        rest = np.delete(w0, k) / np.delete(w0, k).sum()
        picks = []
        for t in grid:
            w = np.insert((1 - t) * rest, k, t)
            picks.append(reference.copa_select(u, w, p, every))
        picks = np.array(picks)
        up = [g for g, r in zip(grid, picks) if g > w0[k] and r != pick]
        down = [g for g, r in zip(grid, picks) if g < w0[k] and r != pick]
        mine = {f.to > f.start: f for f in flips if f.objective == k}
        assert (True in mine) == bool(up) and (False in mine) == bool(down)
        if up:
            assert mine[True].to == up[0]
            assert mine[True].row == picks[grid == up[0]][0]
        if down:
            assert mine[False].to == down[-1]
    assert [f.distance for f in flips] == sorted(f.distance for f in flips)


@pytest.mark.parametrize("seed", range(4))
def test_alpha_flips_match_the_reference_at_every_alpha(seed):
    u = tied_u(seed, 15, 3, high=6)
    every = np.ones(15, dtype=bool)
    alphas = np.linspace(0, 1, 1001)
    picks = np.array([reference.copa_select(u, weights_from_alpha(3, [0], a), 2.0, every)
                      for a in alphas])
    pick = reference.copa_select(u, weights_from_alpha(3, [0], 0.37), 2.0, every)
    flips = rob.alpha_flips(u, [0], 0.37, p=2, n_alphas=1001)
    up = alphas[(alphas > 0.37) & (picks != pick)]
    down = alphas[(alphas < 0.37) & (picks != pick)]
    got = {f.to > f.start: f.to for f in flips}
    assert got.get(True) == (up[0] if up.size else None)
    assert got.get(False) == (down[-1] if down.size else None)


def test_p_flips_match_a_scan_of_the_grid():
    u = np.array([[0.0, 0.6], [0.35, 0.35], [0.6, 0.0]])
    w = np.array([0.5, 0.5])
    every = np.ones(3, dtype=bool)
    # p = 1: row 1 (0.35 < 0.3? no: 0.3 vs 0.35) - let the reference decide everything
    grid = np.append(rob.P_GRID, np.inf)
    picks = np.array([reference.copa_select(u, w, q, every) if q < 60 or math.isinf(q)
                      else copa_select(u, w, p=q) for q in grid])
    for p0 in (1.0, 2.5, math.inf):
        pick = reference.copa_select(u, w, p0, every)
        flips = rob.p_flips(u, w, p=p0)
        up = grid[(grid > p0) & (picks != pick)]
        down = grid[(grid < p0) & (picks != pick)]
        got = {f.to > f.start: f.to for f in flips}
        assert got.get(True) == (up[0] if up.size else None)
        assert got.get(False) == (down[-1] if down.size else None)
    assert rob.p_flips(u, w, p=1.0)  # the pick does change with p here


@pytest.mark.parametrize("seed", range(5))
def test_leave_one_out_equals_selection_without_the_column(seed):
    u = tied_u(seed, 20, 4, nan_rows=4)
    w = np.array([0.4, 0.3, 0.2, 0.1])
    got = rob.leave_one_out(u, w, p=2)
    for k in range(4):
        sub = np.delete(u, k, axis=1)
        assert got[k] == reference.copa_select(sub, np.delete(w, k) / (1 - w[k]), 2.0,
                                               np.ones(20, dtype=bool))


def test_invalid_inputs_say_what_to_change():
    with pytest.raises(InvalidInputError, match="'samples'"):
        rob.rank_acceptability([[0.1, 0.2]], p=1, samples=0)
    with pytest.raises(InvalidInputError, match="'radius'"):
        rob.rank_acceptability([[0.1, 0.2]], p=1, center=[0.5, 0.5], radius=2)
    with pytest.raises(InvalidInputError, match="eligible"):
        rob.rank_acceptability([[0.1, 0.2]], p=1, eligible=np.array([False]))


def test_every_twin_names_a_kernel_of_the_same_arguments():
    import inspect

    for name, twin in twins.TWINS.items():
        kernel = getattr(kernels, name.split(".")[1])
        assert (list(inspect.signature(kernel.py_func).parameters)
                == list(inspect.signature(twin).parameters)), name


def test_the_app_finds_the_twins_while_the_kernels_compile():
    from copa_dash.core import jit

    assert jit._twin_of(kernels.top_rows) is twins.top_rows
    assert jit._twin_of(kernels.top_candidates) is twins.top_candidates


def test_flips_in_words_show_enough_digits_to_differ():
    flip = rob.Flip("weight", 1, 0.0, 0.0005, 0)
    assert rob.describe_flip(flip, ["acc", "cost"], ["a"]) == "cost weight from 0.0000 to 0.0005 picks a"
    flip = rob.Flip("weight", 0, 0.30, 0.41, 0)
    assert rob.describe_flip(flip, ["cost"], ["B"]) == "cost weight from 0.30 to 0.41 picks B"
    flip = rob.Flip("p", -1, 2.0, math.inf, 0)
    assert rob.describe_flip(flip, ["cost"], ["B"]) == "p from 2.00 to inf picks B"
