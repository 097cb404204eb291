"""Numpy twins (core/_twins.py) give exactly what the compiled kernels give, ties included.

The kernels themselves are checked against the slow reference twins and scipy / moocore in
the other core tests; here each numpy twin is compared with its kernel on seeded random
integer data (ties, duplicates, NaN rows, ineligible rows).
"""

import math

import numpy as np
import pytest

from copa_dash.core import _twins
from copa_dash.core._kernels import (
    baselines,
    criteria,
    dominance,
    dominance_layers,
    hypervolume,
    hypervolume_wfg,
    indicators,
    ranks,
    significance,
    sweep,
)
from copa_dash.core._reference import dominance as reference_dominance
from copa_dash.core._reference import hypervolume as reference_hv
from copa_dash.core._twins import TwinDeclined
from copa_dash.core.criteria import TIE_RTOL
from copa_dash.core.ranks import cdf_transform

P_VALUES = [1.0, 2.0, 2.5, 8.0, math.inf]


def tied_values(seed, n, k, high=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, high, (n, k)).astype(float)
    y[rng.integers(0, n, n // 3)] = y[rng.integers(0, n)]
    return y


def tied_u(seed, n, k, high=4, nan_rows=0):
    u = cdf_transform(tied_values(seed, n, k, high))
    rng = np.random.default_rng(seed + 1000)
    if nan_rows:
        u[rng.choice(n, nan_rows, replace=False), rng.integers(0, k)] = np.nan
    return np.ascontiguousarray(u)


@pytest.mark.parametrize("seed", range(8))
def test_cdf_columns_twin_equals_kernel_with_nan_and_population(seed):
    rng = np.random.default_rng(seed)
    y = tied_values(seed, 60, 4)
    y[rng.integers(0, 60, 5), rng.integers(0, 4, 5)] = np.nan
    y_t = np.ascontiguousarray(y.T)
    population = rng.random(60) < 0.7
    order = np.argsort(y_t, axis=1)
    expected = ranks.cdf_columns(y_t, order, population)
    np.testing.assert_array_equal(_twins.cdf_columns(y_t, order, population), expected)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("p", P_VALUES)
def test_criteria_twins_equal_kernels_on_tied_data(seed, p):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    u = tied_u(seed, int(rng.integers(5, 60)), k, high=int(rng.integers(2, 5)),
               nan_rows=seed % 3)
    w = rng.random(k)
    w[rng.integers(0, k)] = 0.0
    w /= w.sum()
    eligible = rng.random(u.shape[0]) < 0.8
    # C may differ in the last ulp: numba's and numpy's x ** p round differently on some
    # processors (5.6e-17 at p = 2.5 and 8 seen); the selection treats values within TIE_RTOL
    # as tied, so that is the tolerance here. The picks and rankings must be identical.
    np.testing.assert_allclose(_twins.copa_scores(u, w, p), criteria.copa_scores(u, w, p),
                               rtol=TIE_RTOL, atol=0.0)
    assert _twins.copa_select(u, w, p, eligible) == criteria.copa_select(u, w, p, eligible)
    np.testing.assert_array_equal(_twins.copa_ranking(u, w, p, eligible),
                                  criteria.copa_ranking(u, w, p, eligible))


def _one_ulp_off(criterion, seed):
    """``criterion`` whose every finite value is moved one ulp up or down at random."""
    rng = np.random.default_rng(seed)

    def moved(x, p):
        c = criterion(x, p)
        toward = np.where(rng.random(c.shape) < 0.5, -np.inf, np.inf)
        return np.where(np.isfinite(c), np.nextafter(c, toward), c)

    return moved


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("p", P_VALUES)
def test_one_ulp_in_criterion_never_changes_a_pick_or_a_ranking(seed, p, monkeypatch):
    # what a processor whose pow rounds the other way would compute: every C (and every C at
    # the tie-break p = 8) one ulp off, up or down; picks and rankings stay the kernel's
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    u = tied_u(seed, int(rng.integers(5, 60)), k, high=int(rng.integers(2, 5)),
               nan_rows=seed % 3)
    w = rng.random(k)
    w /= w.sum()
    eligible = rng.random(u.shape[0]) < 0.8
    expected_pick = criteria.copa_select(u, w, p, eligible)
    expected_ranking = criteria.copa_ranking(u, w, p, eligible)
    monkeypatch.setattr(_twins, "_criterion", _one_ulp_off(_twins._criterion, seed))
    moved = _twins.copa_scores(u, w, p)
    exact = criteria.copa_scores(u, w, p)
    finite = np.isfinite(exact) & (exact > 0)
    assert (moved[finite] != exact[finite]).any()  # the perturbation is really there
    assert _twins.copa_select(u, w, p, eligible) == expected_pick
    np.testing.assert_array_equal(_twins.copa_ranking(u, w, p, eligible), expected_ranking)


def test_select_twin_returns_minus_one_without_an_eligible_row():
    u = tied_u(0, 10, 3)
    w = np.full(3, 1 / 3)
    none = np.zeros(10, dtype=bool)
    assert _twins.copa_select(u, w, 2.0, none) == criteria.copa_select(u, w, 2.0, none) == -1


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("p", [1.0, 2.0, 8.0, math.inf])
def test_sweep_twin_equals_kernel(seed, p):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    u = tied_u(seed, int(rng.integers(5, 50)), k, high=int(rng.integers(2, 5)),
               nan_rows=seed % 3)
    in_focus = np.zeros(k, dtype=bool)
    in_focus[rng.choice(k, int(rng.integers(1, k)), replace=False)] = True
    alphas = np.linspace(0.0, 1.0, 101)
    a = alphas / in_focus.sum()
    b = (1.0 - alphas) / (~in_focus).sum()
    eligible = rng.random(u.shape[0]) < 0.85
    np.testing.assert_array_equal(_twins.alpha_sweep_select(u, in_focus, a, b, p, eligible),
                                  sweep.alpha_sweep_select(u, in_focus, a, b, p, eligible))


@pytest.mark.parametrize("seed", range(8))
def test_dominance_twins_equal_kernels(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 6))
    y = np.ascontiguousarray(tied_values(seed, int(rng.integers(1, 80)), k))
    np.testing.assert_array_equal(_twins.nondominated_mask(y), dominance.nondominated_mask(y))
    np.testing.assert_array_equal(_twins.nondominated_layers(y),
                                  dominance_layers.nondominated_layers(y))
    np.testing.assert_array_equal(_twins.nondominated_layers(y),
                                  reference_dominance.nondominated_layers(y))
    y[0, 0] = np.inf
    assert _twins.all_finite(y) is dominance.all_finite(y) is False


@pytest.mark.parametrize("seed", range(4))
def test_ahp_twin_agrees_with_kernel(seed):
    rng = np.random.default_rng(seed)
    log_z = np.log(rng.integers(1, 9, 40) / 8.0)
    np.testing.assert_allclose(_twins.ahp_priorities(log_z), baselines.ahp_priorities(log_z),
                               rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("seed", range(10))
def test_hypervolume_twins_equal_kernels_on_tied_data(seed):
    """Same float operations in the same order: equal to the last bit, K = 1..3, with
    duplicates, dominated rows, rows on and outside the reference box."""
    rng = np.random.default_rng(seed)
    k = 1 + seed % 3
    y = np.ascontiguousarray(tied_values(seed, int(rng.integers(1, 120)), k, high=6))
    ref = np.full(k, 4.0)  # rows with a value of 4 or 5 touch or leave the box
    inside = _twins.inside_rows(y, ref)
    np.testing.assert_array_equal(inside, hypervolume.inside_rows(y, ref))
    assert _twins.hypervolume(y, ref) == hypervolume.hypervolume(y, ref)
    front = _twins.unique_front(inside)
    np.testing.assert_array_equal(front, hypervolume.unique_front(inside))
    assert front.flags.c_contiguous


def test_hypervolume_twin_on_real_valued_3d_front_and_empty_box():
    rng = np.random.default_rng(7)
    y = np.ascontiguousarray(rng.random((3000, 3)))
    ref = np.array([0.9, 1.0, 0.95])
    assert _twins.hypervolume(y, ref) == hypervolume.hypervolume(y, ref)
    assert _twins.hypervolume(y, np.zeros(3)) == hypervolume.hypervolume(y, np.zeros(3)) == 0.0
    # a worked example: two boxes of 2 x 1 x 1 overlapping in 1 x 1 x 1
    two = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]])
    assert _twins.hypervolume(two, np.full(3, 2.0)) == 3.0


@pytest.mark.parametrize("k", [4, 5, 6])
def test_wfg_twin_agrees_with_kernel(k):
    y = np.ascontiguousarray(tied_values(k, 60, k, high=5))
    ref = np.full(k, 5.0)
    front = hypervolume.unique_front(hypervolume.inside_rows(y, ref))
    np.testing.assert_array_equal(_twins.unique_front(y), hypervolume.unique_front(y))
    assert _twins.hv_wfg(front, ref) == pytest.approx(hypervolume_wfg.hv_wfg(front, ref),
                                                      rel=1e-12)
    with pytest.raises(TwinDeclined):
        _twins.hypervolume(y, ref)


@pytest.mark.parametrize("seed", range(6))
def test_niche_counts_twin_equals_kernel_at_distances_equal_to_sigma(seed):
    """Integer points put many pairs exactly at distance 1 or sqrt(2): the strict ``<``
    must fall the same way."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 5))
    y = np.ascontiguousarray(tied_values(seed, int(rng.integers(1, 90)), k, high=3))
    for sigma in (1.0, math.sqrt(2.0), 1.5, 0.1):
        np.testing.assert_array_equal(_twins.niche_counts(y, sigma),
                                      indicators.niche_counts(y, sigma))
    brute = np.array([sum(math.dist(a, b) < 1.0 for b in y) - 1 for a in y])
    np.testing.assert_array_equal(_twins.niche_counts(y, 1.0), brute)


@pytest.mark.parametrize("seed", range(6))
def test_significance_twins_equal_kernels(seed):
    """Runs of tied integer rows, some outside the reference point, random label vectors
    (permutations): the side points, both deltas and the 2-D/3-D HV agree to the last bit."""
    rng = np.random.default_rng(seed)
    k = 2 + seed % 2
    n_runs = int(rng.integers(2, 9))
    per_run = rng.integers(1, 8, n_runs)
    rows = np.ascontiguousarray(tied_values(seed, int(per_run.sum()), k, high=6))
    run_start = np.concatenate([[0], np.cumsum(per_run)]).astype(np.int64)
    labels = np.ascontiguousarray(rng.integers(0, 2, (25, n_runs)), dtype=np.int8)
    ref = np.full(k, 4.5)
    for side in (0, 1):
        np.testing.assert_array_equal(
            _twins.pooled_side_points(rows, run_start, labels[0], side),
            significance.pooled_side_points(rows, run_start, labels[0], side))
    assert _twins.hypervolume_2d_3d(rows, ref) == significance.hypervolume_2d_3d(rows, ref)
    np.testing.assert_array_equal(_twins.pooled_deltas(rows, run_start, labels, ref),
                                  significance.pooled_deltas(rows, run_start, labels, ref))
    n_configs = 4
    sums = rng.integers(0, 9, (n_runs, n_configs, k)).astype(float)
    counts = rng.integers(0, 3, (n_runs, n_configs)).astype(float)
    sums[counts == 0] = 0.0
    for side in (0, 1):
        np.testing.assert_array_equal(
            _twins.mean_side_points(sums, counts, labels[1], side),
            significance.mean_side_points(sums, counts, labels[1], side))
    np.testing.assert_array_equal(_twins.mean_deltas(sums, counts, labels, ref),
                                  significance.mean_deltas(sums, counts, labels, ref))


@pytest.mark.parametrize("n", [9, 16, 24])
def test_wfg_twin_takes_a_few_rows_in_twelve_objectives(n):
    # a system's front on the fairness upload (issue 33, F2): 9-10 rows in 12 objectives;
    # n^(K-2) declined it, so the first Systems view waited for the WFG kernel's compile
    rng = np.random.default_rng(n)
    points = np.abs(rng.normal(size=(n, 12)))
    front = np.ascontiguousarray(points / np.linalg.norm(points, axis=1, keepdims=True))
    ref = np.full(12, 1.1)
    assert _twins.hv_wfg(front, ref) == pytest.approx(hypervolume_wfg.hv_wfg(front, ref),
                                                      rel=1e-12)
    assert _twins.hv_wfg(front[:9], ref) == pytest.approx(
        reference_hv.hypervolume_inclusion_exclusion(front[:9], ref), rel=1e-12)
    with pytest.raises(TwinDeclined):       # 2^30 and 30^10 both over the bound
        _twins.hv_wfg(np.zeros((30, 12)), ref)


def test_twins_decline_inputs_too_large_for_them():
    with pytest.raises(TwinDeclined):
        _twins.nondominated_mask(np.zeros((20_000, 3)))
    with pytest.raises(TwinDeclined):
        _twins.ahp_priorities(np.zeros(6000))
    with pytest.raises(TwinDeclined):
        _twins.niche_counts(np.zeros((20_000, 3)), 0.1)
    with pytest.raises(TwinDeclined):
        _twins.hv_wfg(np.zeros((2000, 6)), np.ones(6))
    with pytest.raises(TwinDeclined):
        _twins.pooled_deltas(np.zeros((1000, 3)), np.array([0, 500, 1000]),
                             np.zeros((5000, 2), dtype=np.int8), np.ones(3))


def test_every_twin_names_a_kernel_of_the_same_arguments():
    import importlib
    import inspect

    for name, twin in _twins.TWINS.items():
        module, function = name.split(".")
        kernel = getattr(importlib.import_module(f"copa_dash.core._kernels.{module}"), function)
        assert (list(inspect.signature(kernel.py_func).parameters)
                == list(inspect.signature(twin).parameters)), name
