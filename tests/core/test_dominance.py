"""Non-dominated mask and layers: kernels vs twins, vs paretoset and moocore, invariants."""

from __future__ import annotations

import doctest

import moocore
import numpy as np
import pytest
from paretoset import paretoset

from copa_dash.core import _twins as twins
from copa_dash.core import dominance
from copa_dash.core._kernels import dominance as kernels
from copa_dash.core._kernels import dominance_bitsets as bitsets
from copa_dash.core._kernels import dominance_layers as layer_kernels
from copa_dash.core._kernels import dominance_sorting as sorting
from copa_dash.core._kernels import dominance_tree as tree
from copa_dash.core._reference import dominance as reference
from copa_dash.core.errors import InvalidInputError


def integer_points(seed: int, n_max: int = 120, k_min: int = 1, k_max: int = 6) -> np.ndarray:
    """Seeded integer-valued floats: many ties and duplicate rows."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, n_max))
    k = int(rng.integers(k_min, k_max + 1))
    levels = int(rng.integers(1, 9))
    points = rng.integers(0, levels, size=(n, k)).astype(np.float64)
    if n > 3 and seed % 2:  # a few exact duplicates on purpose
        points[: n // 4] = points[n // 4: 2 * (n // 4)]
    return np.ascontiguousarray(points)


def sphere_points(seed: int, n: int, k: int, levels: int = 6) -> np.ndarray:
    """Rounded points of the positive unit sphere: large fronts with ties."""
    rng = np.random.default_rng(seed)
    x = np.abs(rng.standard_normal((n, k)))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return np.ascontiguousarray(np.round(x * levels))


SEEDS = range(60)


@pytest.mark.parametrize("seed", SEEDS)
def test_mask_kernels_match_brute_force(seed):
    points = integer_points(seed)
    expected = reference.nondominated_mask(points)
    assert np.array_equal(kernels.nondominated_mask(points), expected)
    for capacity in (1, 2, 5):  # small windows force the overflow paths
        assert np.array_equal(kernels.filtered_nondominated_mask(points, capacity), expected)
    if points.shape[0]:
        assert np.array_equal(kernels.nondominated_mask_exact(points), expected)
    if points.shape[0] and points.shape[1] >= 2:
        for leaf in (1, 2, 16):
            assert np.array_equal(tree.kdtree_mask(points, leaf), expected)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_mask_large_fronts_match_brute_force(seed, k):
    points = sphere_points(seed, 300, k, levels=4 + seed)
    expected = reference.nondominated_mask(points)
    assert np.array_equal(kernels.nondominated_mask(points), expected)
    assert np.array_equal(kernels.filtered_nondominated_mask(points, 3), expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_mask_matches_paretoset_and_moocore(seed):
    points = integer_points(seed, k_min=2)
    if points.shape[0] == 0:
        return
    ours = dominance.nondominated_mask(points)
    assert np.array_equal(ours, paretoset(points, distinct=False, use_numba=False))
    assert np.array_equal(ours, moocore.is_nondominated(points, keep_weakly=True))


@pytest.mark.parametrize("n,k", [(20_000, 2), (20_000, 3), (5_000, 5), (3_000, 8)])
def test_mask_matches_moocore_on_larger_inputs(n, k):
    rng = np.random.default_rng(n + k)
    for points in (rng.random((n, k)), sphere_points(k, n, k, levels=1000),
                   rng.integers(0, 20, (n, k)).astype(np.float64)):
        assert np.array_equal(dominance.nondominated_mask(points),
                              moocore.is_nondominated(points, keep_weakly=True))


@pytest.mark.parametrize("seed", SEEDS)
def test_layers_match_peeling_and_moocore(seed):
    points = integer_points(seed)
    expected = reference.nondominated_layers(points)
    assert np.array_equal(layer_kernels.nondominated_layers(points), expected)
    if points.shape[0] and points.shape[1] >= 2:
        assert np.array_equal(dominance.nondominated_layers(points),
                              moocore.pareto_rank(points) + 1)  # moocore counts from 0


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("shape", ["cube", "chain"])
def test_layers_on_many_layers(k, shape):
    rng = np.random.default_rng(k)
    if shape == "cube":  # big layers
        points = rng.integers(0, 30, (600, k)).astype(np.float64)
    else:  # a chain of small layers (K >= 4: more than the bitsets' first 16 layers)
        points = (rng.integers(0, 3, (400, k)) + (np.arange(400) // 4)[:, None]).astype(float)
    expected = reference.nondominated_layers(points)
    assert expected.max() > 5
    assert np.array_equal(dominance.nondominated_layers(points), expected)


@pytest.mark.parametrize("levels", [4, 40, 0])
def test_3d_layers_agree_with_moocore_on_ties_and_growing_staircases(levels):
    """ENS-BS with the staircase written into its loop: ties in every objective, equal
    (y1, y2) with different y0, -0.0, and layers outgrowing their pool blocks."""
    rng = np.random.default_rng(levels)
    points = (rng.random((4_000, 3)) if levels == 0
              else rng.integers(-levels // 2, levels // 2, (4_000, 3)).astype(np.float64))
    points[rng.random(points.shape) < 0.05] = -0.0
    assert np.array_equal(dominance.nondominated_layers(points),
                          moocore.pareto_rank(points) + 1)


def tie_heavy_points(seed: int, k: int) -> np.ndarray:
    """Rows with few levels per objective (ties, duplicates) or continuous, signed zeros."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(2, 300))
    kind = seed % 4
    if kind == 0:
        points = rng.random((n, k))
    elif kind == 1:
        points = rng.integers(0, 3, (n, k)).astype(np.float64)
    elif kind == 2:
        points = rng.integers(-2, 6, (n, k)).astype(np.float64)
        points[rng.random((n, k)) < 0.2] = -0.0
    else:  # many exact copies of a few rows, plus a chain of layers
        base = rng.integers(0, 4, (max(2, n // 10), k)).astype(np.float64)
        points = base[rng.integers(0, base.shape[0], n)] + (np.arange(n) // 30)[:, None]
    return np.ascontiguousarray(points)


@pytest.mark.parametrize("k", range(1, 11))
@pytest.mark.parametrize("seed", range(8))
def test_bitset_layers_match_both_twins_and_moocore(seed, k):
    """The kernel, its numpy twin (same method), the longest-chain reference (another
    method) and moocore agree on ties, duplicates, -0.0 and chains of layers."""
    points = tie_heavy_points(seed, k)
    expected = reference.longest_chain_layers(points)
    assert np.array_equal(expected, reference.nondominated_layers(points) - 1)
    assert np.array_equal(bitsets.bitset_layers(points), expected)
    assert np.array_equal(twins.bitset_layers(points), expected)
    if k >= 2:
        assert np.array_equal(expected, moocore.pareto_rank(points))


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 127, 128, 129, 1_000])
def test_bitset_layers_at_word_boundaries_and_many_layers(n):
    """Row counts around the 64-bit words, and more than the 16 layers allocated first."""
    rng = np.random.default_rng(n)
    random_rows = rng.random((n, 5))
    chain = rng.integers(0, 3, (n, 5)) + (np.arange(n) // 3)[:, None].astype(np.float64)
    for points in (random_rows, chain):
        assert np.array_equal(bitsets.bitset_layers(points), moocore.pareto_rank(points))
    if n >= 128:
        assert bitsets.bitset_layers(chain).max() > 16


@pytest.mark.parametrize("k,n", [(4, 24_000), (5, 22_000), (8, 21_000)])
def test_layers_above_the_bitset_limit_peel_first(k, n):
    """Above 20,000 rows: the layer-maximum k-d tree at 4-5-D; at 8-D layers are peeled
    first (front-heavy tables keep peeling, the half-of-the-rows rule), then the bitsets
    rank the rest: same layers as moocore."""
    assert n > bitsets.BITSET_MAX_ROWS
    rng = np.random.default_rng(k)
    random_rows = rng.random((n, k))
    x = np.abs(rng.standard_normal((n // 2, k)))
    sphere = x / np.linalg.norm(x, axis=1, keepdims=True)
    two_layers = np.concatenate([sphere, sphere + 0.1])  # two big layers
    for points in (random_rows, two_layers, np.round(random_rows * 4) / 4):
        assert np.array_equal(dominance.nondominated_layers(points),
                              moocore.pareto_rank(points) + 1)
    assert np.array_equal(dominance.nondominated_layers(two_layers),
                          np.repeat([1, 2], n // 2))


@pytest.mark.parametrize("k", [4, 5, 6, 8])
def test_tables_up_to_the_bitset_limit_are_ranked_at_once(k):
    """Random rows, a whole front and rounded rows (ties) up to 20,000 rows: the bitsets
    rank every row without peeling; same layers as moocore."""
    rng = np.random.default_rng(100 + k)
    for n in (300, 1_800, 10_000):
        random_rows = rng.random((n, k))
        x = np.abs(rng.standard_normal((n, k)))
        sphere = x / np.linalg.norm(x, axis=1, keepdims=True)
        for points in (random_rows, sphere, np.round(random_rows * 3) / 3):
            assert np.array_equal(dominance.nondominated_layers(points),
                                  moocore.pareto_rank(points) + 1)


@pytest.mark.parametrize("seed", range(10))
def test_distinct_sorted_rows_are_numpys_unique_rows_with_a_map_back(seed):
    points = integer_points(seed, k_min=1)
    order, rows, distinct = sorting.distinct_sorted_rows(points)
    assert np.array_equal(order, reference.lexicographic_order(points))
    assert np.array_equal(rows, np.unique(points, axis=0).reshape(-1, points.shape[1]))
    assert np.array_equal(rows[distinct], points[order])
    assert not (np.signbit(rows) & (rows == 0)).any()  # -0.0 stored as 0.0


@pytest.mark.parametrize("seed", range(20))
def test_lexicographic_order_matches_numpy(seed):
    points = integer_points(seed)
    assert np.array_equal(sorting.lexicographic_order(points),
                          reference.lexicographic_order(points))
    big = np.random.default_rng(seed).integers(-3, 3, (5000, 3)).astype(np.float64)
    assert np.array_equal(sorting.lexicographic_order(big), reference.lexicographic_order(big))


@pytest.mark.parametrize("seed", range(6))
def test_stable_argsort_matches_numpy(seed):
    rng = np.random.default_rng(seed)
    for values in (rng.standard_normal(5000) * 10.0 ** rng.integers(-300, 300, 5000),
                   rng.integers(-4, 4, 6000).astype(np.float64),
                   np.concatenate([np.zeros(1500), np.full(1500, -0.0), rng.random(1500)]),
                   rng.standard_normal(300)):
        expected = np.sort(values, kind="stable")
        for order in (sorting.stable_argsort(values), sorting.radix_argsort(values)):
            assert np.array_equal(values[order], expected)  # -0.0 == 0.0 compares equal
        if not (values == 0).any():  # with no signed zeros, the order itself is identical
            assert np.array_equal(sorting.stable_argsort(values), reference.stable_argsort(values))


@pytest.mark.parametrize("seed", range(20))
def test_row_permutation_permutes_the_answer(seed):
    points = integer_points(seed, k_min=2)
    perm = np.random.default_rng(seed).permutation(points.shape[0])
    mask = dominance.nondominated_mask(points)
    layers = dominance.nondominated_layers(points)
    assert np.array_equal(dominance.nondominated_mask(points[perm]), mask[perm])
    assert np.array_equal(dominance.nondominated_layers(points[perm]), layers[perm])


@pytest.mark.parametrize("seed", range(20))
def test_direction_flip_equals_negating_the_column(seed):
    points = integer_points(seed, k_min=2)
    rng = np.random.default_rng(seed)
    maximise = rng.random(points.shape[1]) < 0.5
    directions = ["max" if m else "min" for m in maximise]
    negated = np.where(maximise, -points, points)
    assert np.array_equal(dominance.nondominated_mask(points, directions),
                          dominance.nondominated_mask(negated))
    assert np.array_equal(dominance.nondominated_layers(points, directions=directions),
                          dominance.nondominated_layers(negated))


def test_monotone_transform_keeps_the_front():
    points = integer_points(7, k_min=3) + 1.0
    transformed = np.column_stack([np.log(points[:, 0]), points[:, 1] ** 3, points[:, 2:] * 7])
    assert np.array_equal(dominance.nondominated_mask(points),
                          dominance.nondominated_mask(transformed))


def test_duplicates_are_all_on_the_front_and_a_dominated_row_changes_nothing():
    points = np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 2.0], [3.0, 3.0]])
    assert dominance.nondominated_mask(points).tolist() == [True, True, True, False]
    more = np.vstack([points, [[5.0, 5.0]]])
    assert dominance.nondominated_mask(more)[:4].tolist() == [True, True, True, False]
    assert dominance.nondominated_layers(more).tolist() == [1, 1, 1, 2, 3]


def test_edge_shapes():
    assert dominance.nondominated_mask(np.empty((0, 3))).shape == (0,)
    assert dominance.nondominated_layers(np.empty((0, 3))).shape == (0,)
    assert dominance.nondominated_mask([3, 1, 1, 2]).tolist() == [False, True, True, False]
    assert dominance.nondominated_layers([3, 1, 1, 2]).tolist() == [3, 1, 1, 2]
    assert dominance.nondominated_mask([[4, 5, 6, 7]]).tolist() == [True]


def test_inputs_are_not_mutated():
    points = np.random.default_rng(0).random((50, 3))
    copy = points.copy()
    dominance.nondominated_mask(points, ["max", "min", "max"])
    dominance.nondominated_layers(points, "max")
    assert np.array_equal(points, copy)


def test_bad_input_names_the_argument():
    with pytest.raises(InvalidInputError, match="'points'.*NaN"):
        dominance.nondominated_mask([[1.0, np.nan], [0.0, 1.0]])
    with pytest.raises(InvalidInputError, match="'points'.*infinite"):
        dominance.nondominated_layers(np.array([[1.0, np.inf]]))
    with pytest.raises(InvalidInputError, match="'directions' must have length 2"):
        dominance.nondominated_mask([[1, 2]], ["min"])
    with pytest.raises(InvalidInputError, match="'directions\\[1\\]'"):
        dominance.nondominated_mask([[1, 2]], ["min", "up"])
    with pytest.raises(InvalidInputError, match="'points' must be numeric"):
        dominance.nondominated_mask([["a", "b"]])


def test_all_finite_kernel_matches_numpy():
    points = np.random.default_rng(1).random((30, 4))
    assert kernels.all_finite(points) and reference.all_finite(points)
    for bad in (np.nan, np.inf, -np.inf):
        broken = points.copy()
        broken[17, 2] = bad
        assert kernels.all_finite(broken) == reference.all_finite(broken) is False


def test_docstring_examples():
    result = doctest.testmod(dominance, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
