"""Layers by the layer-maximum k-d tree: kernel vs its plain twin, the longest-chain
reference, peeling and moocore, on random and adversarial tables; the layers' chooser."""

from __future__ import annotations

import moocore
import numpy as np
import pytest

from copa_dash.core import dominance
from copa_dash.core._kernels import dominance_bitsets as bitsets
from copa_dash.core._kernels import dominance_layer_tree as layer_tree
from copa_dash.core._kernels import dominance_layers as layer_kernels
from copa_dash.core._reference import dominance as reference
from copa_dash.core.errors import InvalidInputError


def adversarial_points(seed: int, k: int) -> np.ndarray:
    """Seeded tables meant to break a tree walk: ties, duplicates, -0.0, one front,
    a chain of one-row layers, rows equal in every objective but the first (a tree cell
    of zero width), and plain random rows."""
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(1, 260))
    kind = seed % 7
    if kind == 0:
        points = rng.random((n, k))
    elif kind == 1:
        points = rng.integers(0, 3, (n, k)).astype(np.float64)
    elif kind == 2:
        points = rng.integers(-2, 4, (n, k)).astype(np.float64)
        points[rng.random((n, k)) < 0.25] = -0.0
    elif kind == 3:  # one front: rows on the positive unit sphere
        x = np.abs(rng.standard_normal((n, k))) + 1e-9
        points = x / np.linalg.norm(x, axis=1, keepdims=True)
    elif kind == 4:  # a chain: every row its own layer
        points = np.repeat(np.arange(n, dtype=np.float64)[:, None], k, axis=1)
        points = points[rng.permutation(n)]
    elif kind == 5:  # objectives 1.. identical, objective 0 decides
        points = np.zeros((n, k))
        points[:, 0] = rng.integers(0, 5, n)
    else:  # copies of a few rows, shifted into a chain of layers
        base = rng.integers(0, 4, (max(2, n // 8), k)).astype(np.float64)
        points = base[rng.integers(0, base.shape[0], n)] + (np.arange(n) // 25)[:, None]
    return np.ascontiguousarray(points)


@pytest.mark.parametrize("k", range(2, 11))
@pytest.mark.parametrize("seed", range(14))
def test_tree_layers_match_twin_longest_chain_and_moocore(seed, k):
    """The kernel (three leaf sizes: a leaf of one row walks the tree to the bottom), its
    plain recursive twin, the longest-chain reference (another method), peeling and
    moocore agree."""
    points = adversarial_points(seed, k)
    expected = reference.longest_chain_layers(points)
    assert np.array_equal(expected, reference.nondominated_layers(points) - 1)
    assert np.array_equal(expected, moocore.pareto_rank(points))
    assert np.array_equal(reference.layer_tree_layers(points), expected)
    assert np.array_equal(layer_tree.layer_tree_layers(points), expected)
    for leaf in (1, 2, 5):
        assert np.array_equal(layer_tree.tree_layers(points, leaf), expected)


def test_tree_layers_on_the_smallest_tables():
    assert layer_tree.layer_tree_layers(np.zeros((0, 4))).shape == (0,)
    assert np.array_equal(layer_tree.layer_tree_layers(np.ones((1, 4))), [0])
    assert np.array_equal(layer_tree.layer_tree_layers(np.ones((5, 4))), np.zeros(5))
    two = np.array([[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 5.0]])
    assert np.array_equal(layer_tree.layer_tree_layers(two), [0, 1])
    assert np.array_equal(layer_tree.layer_tree_layers(two[::-1].copy()), [1, 0])


@pytest.mark.parametrize("k", [4, 6])
def test_tree_layers_on_large_tables_with_big_layers(k):
    """Thousands of rows in each of a few layers (nested spheres), a chain of 3,000
    layers, and random rows rounded to ties: equal to moocore."""
    rng = np.random.default_rng(k)
    x = np.abs(rng.standard_normal((3_000, k)))
    sphere = x / np.linalg.norm(x, axis=1, keepdims=True)
    nested = np.concatenate([sphere * r for r in (1.0, 1.5, 2.0, 2.5)])
    chain = rng.integers(0, 2, (3_000, k)) + 2.0 * np.arange(3_000)[:, None]
    rounded = np.round(rng.random((12_000, k)) * 6) / 6
    for points in (nested, chain, rounded):
        assert np.array_equal(layer_tree.layer_tree_layers(points),
                              moocore.pareto_rank(points))
    assert np.array_equal(layer_tree.layer_tree_layers(nested), np.repeat(np.arange(4), 3_000))
    assert layer_tree.layer_tree_layers(chain).max() == 2_999


def test_row_limits_are_ordered():
    """Bitsets, then the tree, then peeling: the limits grow with the row count and the
    bitsets never take more rows than their memory limit."""
    bits = layer_kernels.BITSET_UNTIL_ROWS[4:]
    assert (bits <= bitsets.BITSET_MAX_ROWS).all()
    assert (bits < layer_kernels.TREE_UNTIL_ROWS[4:]).all()
    assert layer_kernels.PEEL_UNTIL_ROWS <= bits.min()


@pytest.mark.parametrize("k,n", [(4, 13_000), (5, 16_000), (7, 18_000), (8, 17_000)])
def test_layers_between_the_bitset_and_the_peel_limits_use_the_tree(k, n):
    """Sizes where the chooser takes the tree: random rows, two big layers and rounded
    rows (ties) give moocore's layers, and the tree kernel's own answer."""
    kk = min(k, layer_kernels.BITSET_UNTIL_ROWS.shape[0] - 1)
    assert layer_kernels.BITSET_UNTIL_ROWS[kk] < n <= layer_kernels.TREE_UNTIL_ROWS[kk]
    rng = np.random.default_rng(k)
    random_rows = rng.random((n, k))
    x = np.abs(rng.standard_normal((n // 2, k)))
    sphere = x / np.linalg.norm(x, axis=1, keepdims=True)
    two_layers = np.concatenate([sphere, sphere + 0.1])
    for points in (random_rows, two_layers, np.round(random_rows * 4) / 4):
        layers = dominance.nondominated_layers(points)
        assert np.array_equal(layers, moocore.pareto_rank(points) + 1)
        assert np.array_equal(layers, layer_tree.layer_tree_layers(points) + 1)


def test_peeled_layers_match_moocore_whatever_the_peel_limit():
    """The peeling path (K >= 7 above the tree's limit) with limits that stop at once,
    after a few fronts, or never before the end."""
    rng = np.random.default_rng(3)
    points = rng.random((3_000, 7))
    expected = moocore.pareto_rank(points) + 1
    for peel_until in (0, 500, 3_000):
        assert np.array_equal(layer_kernels.peeled_layers(points, peel_until), expected)


def test_nan_is_refused_above_the_bitset_limit():
    points = np.random.default_rng(0).random((13_000, 4))
    points[77, 2] = np.nan
    with pytest.raises(InvalidInputError):
        dominance.nondominated_layers(points)
