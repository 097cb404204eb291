"""The exact / Monte-Carlo choice of hypervolume_auto, against times benchmarks/bench_hv_cost.py measured.

The sizes below took well under the 0.5 s budget in that benchmark (CPU time, 2026-11-25,
load 3-5 on 2 CPUs). The random 8-D front is one the cost table before it (kept here as
``_old_model``) and the sphere-front table alone both put over the budget, so the app
showed a Monte-Carlo estimate; the probe now computes it exactly. Exact values are
checked against moocore where it runs in milliseconds.
"""

from __future__ import annotations

import moocore
import numpy as np
import pytest

from copa_dash.core import hypervolume as hv

BUDGET = 0.5


def _sphere(n, k, seed=0):
    x = np.abs(np.random.default_rng(seed).standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


def _old_model(n, k):
    """The table before the re-measurement (t100, e), to show these cases changed side."""
    base, e = {4: (1.5e-5, 2.0), 5: (3e-4, 2.0), 6: (4.5e-3, 2.0), 7: (4.8e-2, 2.0),
               8: (2.2e-1, 2.6), 9: (1.5, 4.0)}[k]
    return base * (n / 100.0) ** e


# (K, sphere rows, method, CPU ms measured by bench_hv_cost): the table alone says exact
SPHERE_CASES = [(4, 9_051, "moocore", 61), (5, 2_263, "moocore", 67), (8, 57, "qhv", 23)]


@pytest.mark.parametrize(("k", "n", "method", "measured_ms"), SPHERE_CASES)
def test_sphere_fronts_measured_well_under_budget_are_computed_exactly(k, n, method,
                                                                       measured_ms):
    points = _sphere(n, k)
    ref = np.full(k, 1.1)
    assert measured_ms / 1e3 < BUDGET / 4
    assert hv.exact_cost_seconds(n, k) <= BUDGET / 2  # the table alone decides: no probe
    est = hv.hypervolume_auto(points, ref, budget_seconds=BUDGET)
    assert est.exact and est.method == method and est.n_samples == 0
    assert est.value == pytest.approx(moocore.hypervolume(points, ref=ref), rel=1e-12)


def test_a_random_front_over_the_table_is_probed_and_computed_exactly(monkeypatch):
    # 8-D, 382 front rows of uniform rows: 0.08-0.09 s measured; the table predicts 9 s
    rng = np.random.default_rng(0)
    points = rng.random((640, 8))
    ref = np.full(8, 1.1)
    n_front = hv._box_and_front(points, ref)[0].shape[0]
    assert hv.exact_cost_seconds(n_front, 8) > BUDGET and _old_model(n_front, 8) > BUDGET
    # the probe times compiled code, not numba's cache load: warm both kernels its subsets
    # get (from 30 rows at 8-D the QHV-II kernel; the 16-row probe goes to WFG)
    hv.hypervolume(points[:20], ref)
    hv.hypervolume(points[:64], ref)
    assert hv.exact_method(hv._box_and_front(points[:64], ref)[0].shape[0], 8) == "qhv"
    sizes = []
    exact_front = hv._exact_front
    monkeypatch.setattr(hv, "_exact_front",
                        lambda f, r: sizes.append(f.shape[0]) or exact_front(f, r))
    est = hv.hypervolume_auto(points, ref, budget_seconds=BUDGET)
    assert est.exact and est.method == "qhv"
    probes = sizes[:-1]
    assert len(probes) >= 2 and probes[:-1] == [16 * 2 ** i for i in range(len(probes) - 1)]
    assert probes[-2] < probes[-1] <= n_front // 2 and sizes[-1] == n_front
    # the exact function's value (itself checked against moocore and the sliced twin in
    # test_hypervolume_wfg.py; moocore takes minutes on this front)
    assert est.value == hv.hypervolume(points, ref)


def test_a_front_clearly_too_big_gets_monte_carlo_without_the_exact_run(monkeypatch):
    # 9-D sphere, 400 rows: the table predicts 7 s (QHV-II: 113 rows took 0.19 s, 160 rows
    # 0.59 s in bench_hv_cost)
    points = _sphere(400, 9, seed=3)
    ref = np.full(9, 1.1)
    assert hv.exact_cost_seconds(400, 9) > 10 * BUDGET
    sizes = []
    exact_front = hv._exact_front
    monkeypatch.setattr(hv, "_exact_front",
                        lambda f, r: sizes.append(f.shape[0]) or exact_front(f, r))
    est = hv.hypervolume_auto(points, ref, budget_seconds=BUDGET, n_samples=5_000, rng=0)
    assert not est.exact and est.method == "monte-carlo" and est.n_samples == 5_000
    assert sizes and max(sizes) < 100                     # only small probes ran
    assert est.ci_low < est.value < est.ci_high


def test_the_cost_model_grows_with_rows_and_objectives():
    for k in range(4, 13):
        assert hv.exact_cost_seconds(200, k) < hv.exact_cost_seconds(400, k)
        assert hv.exact_cost_seconds(100, k) < hv.exact_cost_seconds(100, k + 1)
    assert hv.exact_cost_seconds(1000, 3) < 0.01
