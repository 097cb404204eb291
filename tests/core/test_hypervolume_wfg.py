"""The WFG kernel (K >= 3) against its twins: hv_slices, inclusion-exclusion, moocore."""

from __future__ import annotations

import moocore
import numpy as np
import pytest

from copa_dash.core import hypervolume as hv
from copa_dash.core._kernels import hypervolume as kernels
from copa_dash.core._kernels import hypervolume_wfg as wfg
from copa_dash.core._kernels.hypervolume_wfg import hv_wfg
from copa_dash.core._reference import hypervolume as reference


def _front(points, ref):
    return kernels.unique_front(kernels.inside_rows(np.ascontiguousarray(points, float), ref))


def _sphere(n, k, seed):
    x = np.abs(np.random.default_rng(seed).standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("k", [3, 4, 5, 6, 7])
def test_wfg_matches_inclusion_exclusion_on_ties_and_duplicates(seed, k):
    rng = np.random.default_rng(1000 * k + seed)
    n = int(rng.integers(1, 11))
    points = rng.integers(0, 5, size=(n, k)).astype(float)
    ref = rng.integers(3, 6, size=k).astype(float)
    expected = reference.hypervolume_inclusion_exclusion(points, ref)
    assert np.isclose(hv_wfg(_front(points, ref), ref), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("k,n", [(4, 60), (5, 60), (6, 40), (7, 30), (8, 20), (10, 12)])
def test_wfg_matches_slices_twin_and_moocore_on_sphere_fronts(k, n):
    points = _sphere(n, k, seed=k)
    ref = np.full(k, 1.1)
    front = _front(points, ref)
    ours = hv_wfg(front, ref)
    assert ours == pytest.approx(kernels.hv_slices(front, ref), rel=1e-12)
    assert ours == pytest.approx(moocore.hypervolume(points, ref=ref), rel=1e-12)


def test_wfg_with_duplicates_and_dominated_rows_kept():
    """Duplicates are tolerated by the kernel itself (their slice is skipped)."""
    points = np.array([[1, 2, 3, 4], [1, 2, 3, 4], [2, 1, 4, 3], [4, 3, 2, 1]], float)
    ref = np.full(4, 5.0)
    assert hv_wfg(points, ref) == pytest.approx(
        reference.hypervolume_inclusion_exclusion(points, ref), rel=1e-12)


def test_public_hypervolume_uses_qhv_above_the_measured_crossover():
    points = _sphere(250, 6, seed=3)
    ref = np.full(6, 1.1)
    assert hv.exact_method(250, 6) == "qhv"
    assert hv.exact_method(50, 6) == "moocore"
    assert hv.exact_method(20, 8) == "wfg"
    assert hv.exact_method(500, 4) == "moocore"
    assert hv.hypervolume(points, ref) == pytest.approx(
        moocore.hypervolume(points, ref=ref), rel=1e-12)
    est = hv.hypervolume_auto(points, ref, budget_seconds=60.0)
    assert est.exact and est.method == "qhv"
    assert est.value == pytest.approx(moocore.hypervolume(points, ref=ref), rel=1e-12)


def test_auto_falls_back_to_monte_carlo_and_says_so():
    points = _sphere(400, 9, seed=4)
    est = hv.hypervolume_auto(points, np.full(9, 1.1), budget_seconds=0.01, n_samples=2000,
                              rng=0)
    assert not est.exact and est.method == "monte-carlo" and est.n_samples == 2000


@pytest.mark.parametrize("k", [4, 5, 6])
def test_generated_leaves_are_the_template_compiled_and_cached_on_disk(k):
    """The 4-6-objective leaves come from one template; numba caches them like written code."""
    leaf = getattr(wfg, f"_hv{k}_frame")
    source = wfg._frame_source(k)
    assert f"def _hv{k}_frame(" in source and leaf.py_func.__code__.co_filename == wfg.__file__
    assert type(leaf._cache).__name__ == "FunctionCache"  # not numba's NullCache
    # a K-objective front of more than four rows is that leaf's job: check it against the twin
    points = _sphere(40, k, seed=k)
    ref = np.full(k, 1.1)
    assert np.isclose(hv_wfg(_front(points, ref), ref),
                      kernels.hv_slices(_front(points, ref), ref), rtol=1e-12)
