"""Compile every numba kernel on tiny inputs at start-up, so no request pays a JIT compile."""

from __future__ import annotations

import logging
import time

import numpy as np

from ..core import criteria, ranks, sweep
from ..core.dominance import nondominated_layers, nondominated_mask
from ..core.generalization import validation_test_fronts
from ..core.hypervolume import hypervolume
from ..core.indicators import system_indicators
from ..core.posets import task_posets, ufg_depth
from ..core.significance import pareto_improvement_test

logger = logging.getLogger("copa_dash")


def warm_up_kernels() -> float:
    """Call each compiled kernel once on tiny arrays; returns the seconds it took."""

    start = time.perf_counter()
    points = np.array([[1.0, 3.0, 2.0], [2.0, 1.0, 3.0], [3.0, 2.0, 1.0], [2.0, 2.0, 2.0]])
    u = ranks.cdf_transform(points)
    for p in (1.0, 2.0, np.inf):
        weights = criteria.weights_from_alpha(3, [0], 0.5)
        criteria.copa_select(u, weights, p=p)
        criteria.copa_ranking(u, weights, p=p)
        sweep.alpha_sweep(u, [0], p=p, n_alphas=5)
    for k in (2, 3, 4):
        nondominated_mask(points[:, :k] if k <= 3 else np.hstack([points, points[:, :1]]))
        nondominated_layers(points[:, :min(k, 3)])
        ref = np.full(min(k, 3), 4.0)
        hypervolume(points[:, :min(k, 3)], ref)
    _warm_up_feature_kernels(points)
    elapsed = time.perf_counter() - start
    logger.info("numba kernels warmed up in %.2f s", elapsed)
    return elapsed


def _warm_up_feature_kernels(points: np.ndarray) -> None:
    """The kernels behind the systems, val -> test, rankings and posets views."""

    systems = np.array([0, 0, 1, 1])
    for k in (2, 3):
        system_indicators(points[:, :k], system_index=systems, n_systems=2)
        pareto_improvement_test(points[:, :k], run_index=np.array([0, 1, 2, 3]),
                                run_side=np.array([0, 0, 1, 1]), n_permutations=4, rng=0)
        validation_test_fronts(points[:, :k], points[::-1, :k].copy())
    relations = task_posets(np.vstack([points, points[::-1]])[:, :2],
                            method_index=np.array([0, 1, 2, 3] * 2),
                            task_index=np.array([0] * 4 + [1] * 4)).relations
    ufg_depth(relations)
