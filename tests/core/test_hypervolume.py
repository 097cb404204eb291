"""Hypervolume: kernels vs inclusion-exclusion and grid twins, vs moocore, invariants, MC."""

from __future__ import annotations

import doctest

import moocore
import numpy as np
import pytest

from copa_dash.core import hypervolume as hv
from copa_dash.core._kernels import hypervolume as kernels
from copa_dash.core._reference import hypervolume as reference
from copa_dash.core.errors import InvalidInputError


def integer_problem(seed: int, k: int, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer-valued rows with ties and duplicates, and a reference point that leaves
    some rows outside the box."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, n_max + 1))
    points = rng.integers(0, 6, size=(n, k)).astype(np.float64)
    if n > 3:
        points[-1] = points[0]  # a duplicate
    ref = rng.integers(3, 7, size=k).astype(np.float64)
    return np.ascontiguousarray(points), ref


def close(a: float, b: float) -> bool:
    return bool(np.isclose(a, b, rtol=1e-10, atol=1e-12))


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_kernels_match_inclusion_exclusion(seed, k):
    points, ref = integer_problem(seed, k, n_max=9)
    expected = reference.hypervolume_inclusion_exclusion(points, ref)
    assert close(kernels.hypervolume(points, ref), expected)
    assert close(kernels.hv_slices(kernels.unique_front(kernels.inside_rows(points, ref)), ref),
                 expected)
    if k == 2:
        assert close(kernels.hv2d(points, ref), expected)
    if k == 3:
        assert close(kernels.hv3d(points, ref), expected)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("k", [2, 3, 4])
def test_kernels_match_grid_cells(seed, k):
    points, ref = integer_problem(100 + seed, k, n_max=30)
    expected = reference.hypervolume_grid(points, ref)
    assert close(kernels.hypervolume(points, ref), expected)
    assert close(hv.hypervolume(points, ref), expected)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_public_matches_moocore(seed, k):
    points, ref = integer_problem(200 + seed, k, n_max=40 if k < 6 else 15)
    expected = moocore.hypervolume(points, ref=ref) if points.shape[0] else 0.0
    assert close(hv.hypervolume(points, ref), expected)
    if k <= 5:
        front = kernels.unique_front(kernels.inside_rows(points, ref))
        assert close(kernels.hv_slices(front, ref), expected)


@pytest.mark.parametrize("k,n", [(2, 2000), (3, 2000), (4, 150)])
def test_compiled_kernels_match_moocore_on_continuous_fronts(k, n):
    rng = np.random.default_rng(k)
    x = np.abs(rng.standard_normal((n, k)))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    x = np.vstack([x, rng.random((n, k))])  # dominated and beyond-the-box rows too
    ref = np.full(k, 0.95)
    expected = moocore.hypervolume(x, ref=ref)
    assert np.isclose(kernels.hypervolume(x, ref), expected, rtol=1e-12)
    assert np.isclose(hv.hypervolume(x, ref), expected, rtol=1e-12)


@pytest.mark.parametrize("seed", range(15))
def test_invariants(seed):
    rng = np.random.default_rng(300 + seed)
    k = int(rng.integers(2, 5))
    points = rng.integers(0, 8, size=(25, k)).astype(np.float64)
    ref = np.full(k, 7.0)
    value = hv.hypervolume(points, ref)
    # row permutation
    assert close(hv.hypervolume(points[rng.permutation(25)], ref), value)
    # adding a row never lowers it; adding a row beyond ref adds 0
    extra = rng.integers(0, 8, size=(1, k)).astype(np.float64)
    assert hv.hypervolume(np.vstack([points, extra]), ref) >= value - 1e-12
    beyond = ref + rng.integers(0, 3, size=k)
    beyond[0] = ref[0] + 1.0
    assert close(hv.hypervolume(np.vstack([points, beyond]), ref), value)
    # flipping a direction == negating that column and that coordinate of ref
    flip = np.zeros(k, dtype=bool)
    flip[int(rng.integers(k))] = True
    directions = ["max" if f else "min" for f in flip]
    assert close(hv.hypervolume(np.where(flip, -points, points), np.where(flip, -ref, ref),
                                directions=directions), value)
    # scaling a column by c scales the volume by c; shifting everything changes nothing
    c = float(rng.integers(2, 5))
    scale = np.ones(k)
    scale[0] = c
    assert close(hv.hypervolume(points * scale, ref * scale), c * value)
    assert close(hv.hypervolume(points + 3.5, ref + 3.5), value)


def test_edge_cases():
    assert hv.hypervolume(np.empty((0, 3)), [1, 1, 1]) == 0.0
    assert hv.hypervolume([[2, 2]], [1, 1]) == 0.0
    assert hv.hypervolume([[0, 1]], [1, 1]) == 0.0  # on the boundary of the box
    assert hv.hypervolume([3, 1, 2], [5]) == 4.0
    assert hv.hypervolume([[0, 0, 0, 0]], [1, 2, 3, 4]) == 24.0


def test_inputs_are_not_mutated():
    points = np.random.default_rng(0).random((40, 3))
    ref = np.array([2.0, -1.0, 2.0])
    before = (points.copy(), ref.copy())
    hv.hypervolume(points, ref, directions=["min", "max", "min"])
    hv.hypervolume_mc(points, ref, directions=["min", "max", "min"], n_samples=100, rng=0)
    hv.default_reference_point(points, ["min", "max", "min"])
    assert np.array_equal(points, before[0]) and np.array_equal(ref, before[1])


@pytest.mark.parametrize("seed", range(6))
def test_sample_count_kernel_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    front = rng.integers(0, 5, size=(int(rng.integers(1, 60)), k)).astype(np.float64)
    samples = rng.integers(0, 6, size=(500, k)).astype(np.float64)
    samples[:50] = front[rng.integers(0, front.shape[0], 50)]  # equal rows: not counted
    assert kernels.count_dominated_samples(front, samples) == \
        reference.count_dominated_samples(front, samples)


def test_monte_carlo_interval_covers_the_exact_value():
    rng = np.random.default_rng(7)
    covered = 0
    for seed in range(20):
        points = rng.random((30, 4))
        ref = np.full(4, 1.0)
        exact = hv.hypervolume(points, ref)
        est = hv.hypervolume_mc(points, ref, n_samples=20_000, rng=seed)
        assert not est.exact and est.n_samples == 20_000
        assert est.ci_low <= est.value <= est.ci_high
        assert abs(est.value - exact) < 0.05 * exact
        covered += est.ci_low <= exact <= est.ci_high
    assert covered >= 16  # 95% intervals, 20 seeded runs


def test_monte_carlo_rng_and_trivial_cases():
    points = np.random.default_rng(1).random((20, 3))
    a = hv.hypervolume_mc(points, [1, 1, 1], n_samples=5000, rng=3)
    b = hv.hypervolume_mc(points, [1, 1, 1], n_samples=5000, rng=np.random.default_rng(3))
    assert a == b
    narrow = hv.hypervolume_mc(points, [1, 1, 1], n_samples=5000, rng=3, confidence=0.5)
    assert narrow.ci_high - narrow.ci_low < a.ci_high - a.ci_low
    single = hv.hypervolume_mc([[0.5, 0.5], [0.7, 0.9]], [1, 1])
    assert single == hv.HypervolumeEstimate(0.25, 0.25, 0.25, 0, exact=True, method="trivial")
    assert hv.hypervolume_mc([[2, 2]], [1, 1]).value == 0.0


def test_auto_switches_between_exact_and_estimate():
    rng = np.random.default_rng(5)
    points3 = rng.random((500, 3))
    exact3 = hv.hypervolume_auto(points3, [1, 1, 1], budget_seconds=0.0)
    assert exact3.exact and close(exact3.value, hv.hypervolume(points3, [1, 1, 1]))
    x = np.abs(rng.standard_normal((400, 7)))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    # 7-D x 400 sphere rows: about 0.2 s exact (QHV-II), so a budget of 20 ms estimates
    est = hv.hypervolume_auto(x, np.ones(7), budget_seconds=0.02, rng=0, n_samples=20_000)
    assert not est.exact and est.n_samples == 20_000 and est.ci_low < est.ci_high
    small = hv.hypervolume_auto(x[:20], np.ones(7), budget_seconds=10.0)
    assert small.exact and close(small.value, moocore.hypervolume(x[:20], ref=np.ones(7)))
    assert hv.exact_cost_seconds(1000, 4) < hv.exact_cost_seconds(1000, 6)


def test_default_reference_point():
    points = np.array([[0.0, 10.0, 3.0], [2.0, 20.0, 3.0]])
    ref = hv.default_reference_point(points, ["min", "max", "min"])
    assert np.allclose(ref, [2.2, 9.0, 3.3])
    assert np.allclose(hv.default_reference_point(points, "max", margin=0.5),
                       [-1.0, 5.0, 3.0 - 1.5])
    assert np.allclose(hv.default_reference_point([[0.0], [0.0]]), [0.1])
    assert hv.hypervolume(points, ref, directions=["min", "max", "min"]) > 0


def test_bad_input_names_the_argument():
    with pytest.raises(InvalidInputError, match="'ref' must have length 3, but it has length 2"):
        hv.hypervolume([[1, 2, 3]], [4, 4])
    with pytest.raises(InvalidInputError, match="'ref' must be finite"):
        hv.hypervolume([[1, 2]], [4, np.nan])
    with pytest.raises(InvalidInputError, match="'points'.*NaN"):
        hv.hypervolume([[1, np.nan]], [4, 4])
    with pytest.raises(InvalidInputError, match="'n_samples'"):
        hv.hypervolume_mc([[1, 2]], [4, 4], n_samples=0)
    with pytest.raises(InvalidInputError, match="'confidence'"):
        hv.hypervolume_mc([[1, 2]], [4, 4], confidence=1.0)
    with pytest.raises(InvalidInputError, match="'budget_seconds'"):
        hv.hypervolume_auto([[1, 2]], [4, 4], budget_seconds=-1)
    with pytest.raises(InvalidInputError, match="'margin'"):
        hv.default_reference_point([[1, 2]], margin=-0.1)
    with pytest.raises(InvalidInputError, match="'points' must have at least 1 rows"):
        hv.default_reference_point(np.empty((0, 2)))
    with pytest.raises(InvalidInputError, match="'directions' must have length 2"):
        hv.hypervolume([[1, 2]], [4, 4], directions=["min"])


def test_docstring_examples():
    result = doctest.testmod(hv, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
