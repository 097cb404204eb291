"""The QHV-II kernel (K >= 3) against its plain twin, inclusion-exclusion, the grid, moocore
and the WFG kernel; its place in :func:`copa_dash.core.hypervolume.exact_method`."""

from __future__ import annotations

import moocore
import numpy as np
import pytest

from copa_dash.core import _twins
from copa_dash.core import hypervolume as hv
from copa_dash.core._kernels import hypervolume as kernels
from copa_dash.core._kernels.hypervolume_qhv import hv_qhv
from copa_dash.core._kernels.hypervolume_wfg import hv_wfg
from copa_dash.core._reference import hypervolume as reference


def _sphere(n, k, seed):
    x = np.abs(np.random.default_rng(seed).standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


def _front(points, ref):
    return kernels.unique_front(kernels.inside_rows(np.ascontiguousarray(points, float), ref))


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("k", [3, 4, 5, 6, 7, 8, 9, 10])
def test_qhv_matches_inclusion_exclusion_on_ties_duplicates_and_rows_outside(seed, k):
    """Integer rows (ties, duplicates, dominated rows) and some rows on or beyond ``ref``,
    handed to the kernel unfiltered: it must skip what adds nothing by itself."""
    rng = np.random.default_rng(10_000 * k + seed)
    n = int(rng.integers(0, 11))
    points = rng.integers(0, 5, size=(n, k)).astype(float)
    ref = rng.integers(2, 6, size=k).astype(float)
    expected = reference.hypervolume_inclusion_exclusion(points, ref)
    assert np.isclose(hv_qhv(points, ref), expected, rtol=1e-12, atol=1e-12)
    assert np.isclose(reference.hypervolume_qhv(points, ref), expected, rtol=1e-12,
                      atol=1e-12)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [3, 4, 5])
def test_qhv_matches_the_grid_on_real_rows(seed, k):
    rng = np.random.default_rng(500 + 10 * k + seed)
    points = rng.random((12, k)) * 1.2          # some rows outside the unit box
    points[3] = points[1]                       # a duplicate
    ref = np.ones(k)
    expected = reference.hypervolume_grid(points, ref)
    assert hv_qhv(points, ref) == pytest.approx(expected, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("k", [4, 6, 8, 10])
def test_qhv_matches_its_plain_twin_and_wfg_on_larger_random_rows(seed, k):
    """Uniform rows rounded to two decimals (ties across rows), dominated rows kept."""
    rng = np.random.default_rng(77 * k + seed)
    n = {4: 120, 6: 80, 8: 50, 10: 35}[k]
    points = np.round(rng.random((n, k)), 2)
    ref = np.full(k, 0.95)
    ours = hv_qhv(points, ref)
    assert ours == pytest.approx(reference.hypervolume_qhv(points, ref), rel=1e-12)
    assert ours == pytest.approx(hv_wfg(_front(points, ref), ref), rel=1e-12)


@pytest.mark.parametrize("k,n", [(4, 200), (5, 150), (6, 80), (7, 50), (8, 30), (9, 20)])
def test_qhv_matches_moocore_and_the_sliced_twin_on_sphere_fronts(k, n):
    points = _sphere(n, k, seed=k)
    ref = np.full(k, 1.1)
    ours = hv_qhv(points, ref)
    assert ours == pytest.approx(moocore.hypervolume(points, ref=ref), rel=1e-12)
    assert ours == pytest.approx(kernels.hv_slices(_front(points, ref), ref), rel=1e-12)


def test_qhv_on_a_10d_linear_front_matches_wfg_to_1e10():
    """100 rows on the simplex, 10 objectives: every row on the front, the hard case."""
    rng = np.random.default_rng(3)
    x = rng.exponential(size=(100, 10))
    x /= x.sum(axis=1, keepdims=True)
    ref = np.full(10, 1.1)
    front = np.ascontiguousarray(x[:40])
    assert hv_qhv(front, ref) == pytest.approx(hv_wfg(front, ref), rel=1e-10)


def test_qhv_is_invariant_to_row_order_and_grows_with_a_row():
    points = _sphere(60, 7, seed=11)
    ref = np.full(7, 1.1)
    base = hv_qhv(points, ref)
    shuffled = np.ascontiguousarray(points[np.random.default_rng(0).permutation(60)])
    assert hv_qhv(shuffled, ref) == pytest.approx(base, rel=1e-13)
    more = np.vstack([points, np.full((1, 7), 0.2)])
    assert hv_qhv(more, ref) > base
    assert hv_qhv(points[:0], ref) == 0.0
    assert hv_qhv(points, np.zeros(7)) == 0.0


def test_qhv_grows_its_stacks_on_a_front_that_needs_it():
    """A front whose boxes nest deeper than the 64 preallocated stack entries."""
    points = _sphere(400, 6, seed=5)
    ref = np.full(6, 1.1)
    assert hv_qhv(points, ref) == pytest.approx(moocore.hypervolume(points, ref=ref),
                                                rel=1e-12)


def test_exact_method_picks_qhv_where_it_was_measured_faster():
    assert [hv.exact_method(n, 6) for n in (50, 99, 100, 1000)] == [
        "moocore", "moocore", "qhv", "qhv"]
    assert [hv.exact_method(n, 7) for n in (39, 40, 300)] == ["moocore", "qhv", "qhv"]
    assert [hv.exact_method(n, k) for k in (8, 10) for n in (29, 30)] == [
        "wfg", "qhv", "wfg", "qhv"]
    assert hv.exact_method(5000, 4) == hv.exact_method(5000, 5) == "moocore"


def test_public_hypervolume_and_auto_use_qhv_and_agree_with_moocore():
    points = _sphere(120, 7, seed=2)
    ref = np.full(7, 1.1)
    expected = moocore.hypervolume(points, ref=ref)
    assert hv.hypervolume(points, ref) == pytest.approx(expected, rel=1e-12)
    est = hv.hypervolume_auto(points, ref, budget_seconds=60.0)
    assert est.exact and est.method == "qhv" and est.value == hv.hypervolume(points, ref)


def test_qhv_twin_skips_rows_outside_and_agrees_with_the_kernel():
    rng = np.random.default_rng(4)
    points = np.round(rng.random((40, 6)) * 1.2, 1)
    ref = np.ones(6)
    assert _twins.hv_qhv(points, ref) == pytest.approx(hv_qhv(points, ref), rel=1e-12)
    assert _twins.TWINS["hypervolume_qhv.hv_qhv"] is _twins.hv_qhv
