"""COPA criterion, weights, selection and ranking: kernels vs twins, hand-worked cases, errors."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from copa_dash.core._kernels import criteria as kernels
from copa_dash.core._reference import criteria as reference
from copa_dash.core.criteria import copa_ranking, copa_scores, copa_select, weights_from_alpha
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform

P_VALUES = [1.0, 1.5, 2.0, 3.0, 8.0, math.inf]


def tied_u(seed, n=40, k=4, high=4, nan_rows=0):
    """u of seeded integer data: heavy ties, duplicate rows, optionally rows with a NaN."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, high, (n, k)).astype(float)
    y[rng.integers(0, n, n // 4)] = y[rng.integers(0, n)]
    u = cdf_transform(y)
    u[rng.choice(n, nan_rows, replace=False), rng.integers(0, k)] = np.nan
    return u


def random_weights(seed, k):
    w = np.random.default_rng(seed + 100).integers(0, 4, k).astype(float)
    w[0] += 1.0  # never all zero
    return w / w.sum()


def dominated(u, i):
    """Brute force: does some row dominate row i?"""
    return bool(np.any(np.all(u <= u[i], axis=1) & np.any(u < u[i], axis=1)))


# ---------------------------------------------------------------- weights_from_alpha
def test_weights_from_alpha_hand_values():
    assert weights_from_alpha(4, [0, 2], 0.8) == pytest.approx([0.4, 0.1, 0.4, 0.1], abs=1e-16)
    # the paper's LLM example: seven objectives, CO2 cost in focus
    w = weights_from_alpha(7, [0], 0.4)
    assert w[0] == 0.4 and w[1:] == pytest.approx([0.1] * 6)
    assert weights_from_alpha(3, (1,), 0.0).tolist() == [0.5, 0.0, 0.5]
    assert weights_from_alpha(3, np.array([1]), 1.0).tolist() == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("focus", [[], [0, 1, 2]])
def test_weights_from_alpha_degenerate_focus_gives_equal_weights(focus):
    for alpha in (0.0, 0.3, 1.0):
        assert weights_from_alpha(3, focus, alpha) == pytest.approx([1 / 3] * 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.data(), st.floats(0.0, 1.0))
def test_weights_from_alpha_sum_to_one(k, data, alpha):
    focus = data.draw(st.lists(st.integers(0, k - 1), unique=True, max_size=k))
    w = weights_from_alpha(k, focus, alpha)
    assert w.sum() == pytest.approx(1.0) and (w >= 0).all()


@pytest.mark.parametrize("args, match", [
    ((3, [0], 1.5), "'alpha' must lie in"), ((3, [0], -0.1), "'alpha' must lie in"),
    ((3, [0], float("nan")), "'alpha' must lie in"), ((3, [0], "x"), "'alpha' must be"),
    ((3, [3], 0.5), "'focus' index 3 is out of range"), ((3, [-1], 0.5), "'focus' index -1"),
    ((3, [0, 0], 0.5), "'focus' must not repeat"), ((3, [0.5], 0.5), "'focus' must hold"),
    ((3, [True], 0.5), "'focus' must hold"), ((3, 0, 0.5), "'focus' must be a sequence"),
    ((3, "0", 0.5), "'focus' must be a sequence"), ((0, [], 0.5), "'n_objectives'"),
])
def test_weights_from_alpha_errors(args, match):
    with pytest.raises(InvalidInputError, match=match):
        weights_from_alpha(*args)


# ---------------------------------------------------------------- copa_scores
def test_copa_scores_hand_worked_example():
    u = [[0.2, 0.6], [0.4, 0.4], [0.0, 0.9]]
    w = [0.75, 0.25]
    # weighted values w*u: [0.15, 0.15], [0.3, 0.1], [0.0, 0.225]
    assert copa_scores(u, w, p=1) == pytest.approx([0.3, 0.4, 0.225])
    assert copa_scores(u, w, p=2) == pytest.approx(
        [math.hypot(0.15, 0.15), math.hypot(0.3, 0.1), 0.225])
    assert copa_scores(u, w, p="inf") == pytest.approx([0.15, 0.3, 0.225])
    # selections: p = 1 prefers row 2, p = inf the balanced row 0
    assert copa_select(u, w, p=1) == 2 and copa_select(u, w, p="inf") == 0


def test_weights_are_inside_the_power_not_the_usual_weighted_norm():
    u = np.array([[0.3, 0.3], [0.05, 0.5]])
    w = np.array([0.8, 0.2])
    # COPA, p = 2: sqrt((.24)^2 + (.06)^2) = .2474 vs sqrt((.04)^2 + (.1)^2) = .1077 -> row 1
    assert copa_scores(u, w, p=2) == pytest.approx([math.hypot(0.24, 0.06), math.hypot(0.04, 0.1)])
    assert copa_select(u, w, p=2) == 1
    # usual weighted norm: sqrt(.8*.09 + .2*.09) = .3 vs sqrt(.8*.0025 + .2*.25) = .228
    usual = np.sqrt((w * u ** 2).sum(axis=1))
    assert not np.allclose(copa_scores(u, w, p=2), usual)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("p", P_VALUES)
def test_scores_kernel_matches_reference(seed, p):
    u = tied_u(seed, nan_rows=3)
    w = random_weights(seed, u.shape[1])
    got = kernels.copa_scores(u, w, p)
    want = reference.copa_scores(u, w, p)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert got == pytest.approx(want, rel=1e-13, nan_ok=True)


def test_scores_are_stable_for_huge_p_and_approach_the_max():
    u = np.array([[1e-3, 2e-3, 5e-4], [0.5, 0.25, 0.125]])
    w = np.array([0.2, 0.3, 0.5])
    for p in (200.0, 1e4):
        c = copa_scores(u, w, p=p)
        assert np.all(c > 0) and c == pytest.approx(copa_scores(u, w, p="inf"), rel=0.02)
    assert copa_scores(u, w, p=1e6) == pytest.approx(copa_scores(u, w, p="inf"), rel=1e-5)


def test_scores_decrease_with_p_and_nan_rows_give_nan():
    u = tied_u(2, nan_rows=2)
    w = random_weights(2, u.shape[1])
    c = np.array([copa_scores(u, w, p=p) for p in P_VALUES])
    ok = ~np.isnan(c[0])
    assert np.all(np.diff(c[:, ok], axis=0) <= 1e-15)
    assert np.array_equal(np.isnan(c[0]), np.isnan(u).any(axis=1))


# ---------------------------------------------------------------- selection and ranking
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("p", P_VALUES)
def test_select_and_ranking_match_reference_on_tied_data(seed, p):
    u = tied_u(seed, n=30, k=3, high=3, nan_rows=2)
    w = random_weights(seed, 3) if seed % 2 else np.full(3, 1 / 3)
    eligible = np.random.default_rng(seed).random(30) < 0.8
    eligible[np.flatnonzero(~np.isnan(u).any(axis=1))[0]] = True
    chosen = copa_select(u, w, p=p, eligible=eligible)
    assert chosen == reference.copa_select(u, w, p, eligible)
    ranking = copa_ranking(u, w, p=p, eligible=eligible)
    assert ranking.tolist() == reference.copa_ranking(u, w, p, eligible).tolist()
    assert ranking[0] == chosen
    usable = np.flatnonzero(eligible & ~np.isnan(u).any(axis=1))
    assert sorted(ranking.tolist()) == usable.tolist()


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("p", P_VALUES)
def test_selected_row_is_pareto_optimal_even_for_p_inf(seed, p):
    # p = inf alone can pick weakly dominated rows; the tie-breaks (C at p = 8, sum u) never do.
    u = tied_u(seed, n=25, k=3, high=3)
    w = random_weights(seed, 3)
    assert not dominated(u, copa_select(u, w, p=p))


def test_tie_break_levels_in_order():
    w = [0.5, 0.5]
    # level 2: equal C at p = inf (0.25); C at p = 8 prefers the row with one large term
    assert copa_select([[0.5, 0.5], [0.5, 0.0]], w, p="inf") == 1
    # level 2 again: equal C at p = 1 (0.25), C at p = 8 prefers the balanced row
    assert copa_select([[0.5, 0.0], [0.25, 0.25]], w, p=1) == 1
    # level 3: equal C and C8 (a permutation), equal sum; then table order
    assert copa_select([[0.5, 0.0], [0.0, 0.5]], w, p=2) == 0
    # level 3 decides: same C and C8 at p = inf / 8 but a smaller sum of u
    u = [[0.5, 0.5, 0.25], [0.5, 0.5, 0.0]]
    assert copa_select(u, [0.5, 0.5, 0.0], p="inf") == 1
    assert copa_ranking(u, [0.5, 0.5, 0.0], p="inf").tolist() == [1, 0]


def test_ranking_hand_worked_example_and_eligibility():
    u = [[0.5, 0.0], [0.0, 0.5], [0.25, 0.25], [0.5, 0.5]]
    assert copa_ranking(u, [0.5, 0.5], p=2).tolist() == [2, 0, 1, 3]
    eligible = np.array([True, True, False, True])
    assert copa_ranking(u, [0.5, 0.5], p=2, eligible=eligible).tolist() == [0, 1, 3]
    assert copa_select(u, [0.5, 0.5], p=2, eligible=eligible) == 0


@pytest.mark.parametrize("seed", range(4))
def test_selection_follows_rows_under_permutation_without_ties(seed):
    rng = np.random.default_rng(seed)
    u = cdf_transform(rng.normal(size=(50, 4)))
    w = random_weights(seed, 4)
    perm = rng.permutation(50)
    for p in P_VALUES:
        assert perm[copa_select(u[perm], w, p=p)] == copa_select(u, w, p=p)
        assert perm[copa_ranking(u[perm], w, p=p)].tolist() == copa_ranking(u, w, p=p).tolist()


def test_nan_rows_are_never_selected_even_with_zero_weight():
    u = [[0.0, np.nan], [0.5, 0.5]]
    assert copa_select(u, [1.0, 0.0], p=1) == 1
    assert copa_ranking(u, [1.0, 0.0], p=1).tolist() == [1]


def test_unnormalised_weights_are_normalised():
    u = tied_u(1)
    assert copa_scores(u, [2.0, 2.0, 4.0, 0.0], p=3) == pytest.approx(
        copa_scores(u, [0.25, 0.25, 0.5, 0.0], p=3))


@pytest.mark.parametrize("call, match", [
    (lambda: copa_select([[0.1]], [1.0], p=1, eligible=[False]), "'eligible' selects no row"),
    (lambda: copa_select([[np.nan, 0.1]], [0.5, 0.5], p=1), "none of the 1 eligible rows"),
    (lambda: copa_scores([[-0.1, 0.2]], [0.5, 0.5], p=1), "'u' must be non-negative"),
    (lambda: copa_scores([[0.1, 0.2]], [0.5], p=1), "'weights' must have length 2"),
    (lambda: copa_scores([[0.1, 0.2]], [0.5, -0.5], p=1), "'weights' must be non-negative"),
    (lambda: copa_scores([[0.1, 0.2]], [0.0, 0.0], p=1), "'weights' must not all be zero"),
    (lambda: copa_scores([[0.1, 0.2]], [0.5, 0.5], p=0.5), "'p' must be >= 1"),
    (lambda: copa_scores([[0.1, 0.2]], [0.5, 0.5], p="big"), "'p' must be a number"),
    (lambda: copa_ranking([[0.1, 0.2]], [0.5, 0.5], p=1, eligible=[1]), "'eligible' must be a"),
    (lambda: copa_select([[0.1, np.inf]], [0.5, 0.5], p=1), "'u' must not contain infinite"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(InvalidInputError, match=match):
        call()


def test_inputs_are_not_mutated():
    u = tied_u(4, nan_rows=2)
    w = np.array([3.0, 1.0, 0.0, 1.0])
    eligible = np.ones(u.shape[0], dtype=bool)
    copies = [u.copy(), w.copy(), eligible.copy()]
    copa_scores(u, w, p=2)
    copa_select(u, w, p=2, eligible=eligible)
    copa_ranking(u, w, p="inf", eligible=eligible)
    for before, after in zip(copies, [u, w, eligible]):
        assert np.array_equal(before, after, equal_nan=True)
