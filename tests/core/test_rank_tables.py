"""Rank tables: scores under several criteria, ties kept or broken as in the paper."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from copa_dash.core.criteria import copa_ranking
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.rank_tables import (
    Criterion,
    criterion_scores,
    rank_rows,
    rank_spread,
    rank_table,
    tie_break_keys,
)
from copa_dash.core.ranks import cdf_transform

SEEDS = range(8)
EQUAL = [0.5, 0.5]
# A hand-worked table (both objectives minimised):
#   u0 = A 0, B .2, C .4, E .6, D .8     u1 = D 0, C .2, B .4, E .6, A .8
HAND = np.array([[1.0, 9.0], [2.0, 4.0], [4.0, 2.0], [8.0, 1.0], [5.0, 5.0]])  # A B C D E
A, B, C, D, E = range(5)


def _ranks_of(order):
    ranks = np.empty(len(order), dtype=int)
    ranks[list(order)] = np.arange(1, len(order) + 1)
    return ranks.tolist()


def _criteria():
    return [Criterion("copa", p=1), Criterion("copa", p="inf"), Criterion("mean"),
            Criterion("norm"), Criterion("objective", objective=1),
            Criterion("delta"), Criterion("delta", reference=B)]


def test_hand_worked_scores():
    scores = criterion_scores(HAND, "min", EQUAL, _criteria())
    np.testing.assert_allclose(scores[:, 0], [0.4, 0.3, 0.3, 0.4, 0.6])        # mean u
    np.testing.assert_allclose(scores[:, 1], [0.4, 0.2, 0.2, 0.4, 0.3])        # max w u
    np.testing.assert_allclose(scores[:, 2], [5.0, 3.0, 3.0, 4.5, 5.0])        # mean raw
    np.testing.assert_allclose(scores[:, 3], [0.5, (1 / 7 + 3 / 8) / 2, (3 / 7 + 1 / 8) / 2,
                                              0.5, (4 / 7 + 4 / 8) / 2])     # mean norm
    np.testing.assert_allclose(scores[:, 4], HAND[:, 1])
    np.testing.assert_allclose(scores[:, 5], [4.0, 2.0, 2.0, 3.5, 4.0])        # vs ideal (1, 1)
    np.testing.assert_allclose(scores[:, 6], [0.375, 0.0, 0.25, 1.125, 0.875])  # vs row B


def test_hand_worked_ranks_broken_as_in_the_paper():
    table = rank_rows(HAND, "min", EQUAL, _criteria())
    # p=1: B/C tie (same C8, same sum u -> table order), A/D tie likewise
    assert table.ranks[:, 0].tolist() == _ranks_of([B, C, A, D, E])
    assert table.ranks[:, 1].tolist() == _ranks_of([B, C, E, A, D])
    # mean: A and E tie at 5; E wins on C at p=8 (0.3 * 2^(1/8) < 0.4)
    assert table.ranks[:, 2].tolist() == _ranks_of([B, C, D, E, A])
    assert table.ranks[:, 3].tolist() == _ranks_of([B, C, A, D, E])   # A/D tie at 0.5
    assert table.ranks[:, 4].tolist() == _ranks_of([D, C, B, E, A])
    assert table.ranks[:, 6].tolist() == _ranks_of([B, C, A, E, D])
    assert table.ranks[:, 5].tolist() == _ranks_of([B, C, D, E, A])
    assert table.spread.tolist() == [2, 2, 0, 4, 2]


def test_hand_worked_ranks_with_ties_kept():
    table = rank_rows(HAND, "min", EQUAL, _criteria(), ties="keep")
    assert table.ranks[:, 0].tolist() == [3, 1, 1, 3, 5]
    assert table.ranks[:, 1].tolist() == [4, 1, 1, 4, 3]
    assert table.ranks[:, 2].tolist() == [4, 1, 1, 3, 4]
    assert table.ranks[:, 3].tolist() == [3, 1, 2, 3, 5]
    np.testing.assert_array_equal(table.ranks, table.tied_ranks)


def test_max_directions_flip_like_negation():
    flipped = -HAND
    a = rank_rows(HAND, "min", EQUAL, _criteria()[:5])
    b = rank_rows(flipped, "max", EQUAL, _criteria()[:5])
    np.testing.assert_array_equal(a.ranks, b.ranks)


def _integer_points(seed, n=25, k=3):
    rng = np.random.default_rng(seed)
    return rng.integers(1, 5, size=(n, k)).astype(float)


@pytest.mark.parametrize("seed", SEEDS)
def test_kept_ties_are_scipy_min_ranks(seed):
    scores = _integer_points(seed, k=4) * 0.1    # integer-valued grid: many exact ties
    got = rank_table(scores, ties="keep")
    for c in range(scores.shape[1]):
        np.testing.assert_array_equal(got[:, c], stats.rankdata(scores[:, c], method="min"))


@pytest.mark.parametrize("seed", SEEDS)
def test_broken_ties_follow_the_keys_then_table_order(seed):
    scores = _integer_points(seed, k=3)
    keys = _integer_points(seed + 100, k=2)
    got = rank_table(scores, keys)
    for c in range(scores.shape[1]):
        order = np.lexsort((np.arange(len(scores)), keys[:, 1], keys[:, 0], scores[:, c]))
        assert got[:, c].tolist() == _ranks_of(order)
    kept = rank_table(scores, ties="keep")
    assert (got >= kept).all()                   # breaking never improves a rank


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("p", [1.0, 2.0, 8.0, "inf"])
def test_copa_columns_are_ordered_as_copa_ranking(seed, p):
    points = _integer_points(seed)
    weights = np.random.default_rng(seed).dirichlet(np.ones(3))
    table = rank_rows(points, "min", weights, [Criterion("copa", p=p)])
    u = cdf_transform(points)
    assert table.ranks[:, 0].tolist() == _ranks_of(copa_ranking(u, weights, p=p))


def test_rounding_level_differences_are_ties():
    scores = np.array([[0.1 + 0.2], [0.3], [0.5]])
    assert rank_table(scores, ties="keep")[:, 0].tolist() == [1, 1, 3]
    negative = -scores                                  # band works for negative values too
    assert rank_table(negative, ties="keep")[:, 0].tolist() == [2, 2, 1]
    # broken by the key although the first score is 4e-17 larger
    assert rank_table(scores, [[0.0], [1.0], [0.0]])[:, 0].tolist() == [1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
def test_copa_ranks_ignore_monotone_transforms(seed):
    points = _integer_points(seed) + np.random.default_rng(seed).uniform(0, 0.5, size=(25, 3))
    transformed = np.column_stack([np.exp(points[:, 0]), 3 * points[:, 1] - 7, np.sqrt(points[:, 2])])
    crit = [Criterion("copa", p=p) for p in (1, 2, 4, 8, "inf")]
    np.testing.assert_array_equal(rank_rows(points, "min", [1, 1, 1], crit).ranks,
                                  rank_rows(transformed, "min", [1, 1, 1], crit).ranks)


@pytest.mark.parametrize("seed", SEEDS)
def test_kept_ranks_follow_a_row_permutation(seed):
    points = _integer_points(seed)
    perm = np.random.default_rng(seed).permutation(len(points))
    a = rank_rows(points, "min", [1, 2, 1], _criteria()[:5], ties="keep").ranks
    b = rank_rows(points[perm], "min", [1, 2, 1], _criteria()[:5], ties="keep").ranks
    np.testing.assert_array_equal(a[perm], b)


def test_tie_break_keys_are_c8_and_sum_of_u():
    keys = tie_break_keys(HAND, "min", EQUAL)
    u = cdf_transform(HAND)
    np.testing.assert_allclose(keys[:, 1], u.sum(axis=1))
    np.testing.assert_allclose(keys[:, 0], 0.5 * (u ** 8).sum(axis=1) ** (1 / 8))


def test_rank_spread():
    assert rank_spread([[1, 4, 2], [3, 3, 3]]).tolist() == [3, 0]


def test_inputs_are_not_mutated():
    points = HAND.copy()
    rank_rows(points, ["min", "max"], EQUAL, _criteria()[:5])
    np.testing.assert_array_equal(points, HAND)


@pytest.mark.parametrize("call, word", [
    (lambda: Criterion("median"), "kind"),
    (lambda: Criterion("copa", p=0.5), "p"),
    (lambda: Criterion("objective"), "objective"),
    (lambda: criterion_scores(HAND, "min", EQUAL, []), "criteria"),
    (lambda: criterion_scores(HAND, "min", EQUAL, [Criterion("objective", objective=2)]),
     "objective"),
    (lambda: criterion_scores(HAND, "min", EQUAL, [Criterion("delta", reference=9)]), "reference"),
    (lambda: criterion_scores([[1.0, np.nan]], "min", EQUAL, [Criterion("mean")]), "NaN"),
    (lambda: rank_table([[1.0], [2.0]], ties="dense"), "ties"),
    (lambda: rank_table([[1.0], [2.0]], [[1.0]]), "tie_keys"),
])
def test_errors_name_the_argument(call, word):
    with pytest.raises(InvalidInputError, match=word):
        call()


def test_delta_against_a_zero_reference_is_refused():
    points = np.array([[0.0, 1.0], [1.0, 2.0]])
    with pytest.raises(InvalidInputError):
        criterion_scores(points, "min", EQUAL, [Criterion("delta", reference=0)])
