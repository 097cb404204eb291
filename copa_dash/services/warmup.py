"""Compile the numba kernels on tiny inputs, page by page: at once, or in the background.

:func:`warm_up_kernels` runs every step now (``copa-dash compile``, the Docker image build).
:func:`warm_up_in_background` is what the app does at start-up: the server answers at once,
kernels a request needs before they are ready answer through their numpy twins (see
:mod:`copa_dash.core.jit`), and the steps below compile one after the other in a
background thread, the explorer's first (it is the page a newcomer opens first).
:func:`compile_progress` says, in words, what is still compiling.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np

from ..core import criteria, elicitation, jit, ranks, robustness, sweep
from ..core.dominance import nondominated_layers, nondominated_mask
from ..core.generalization import validation_test_fronts
from ..core.hypervolume import exact_method, hypervolume, hypervolume_mc
from ..core.indicators import system_indicators
from ..core.posets import task_posets, ufg_depth
from ..core.significance import pareto_improvement_test

logger = logging.getLogger("copa_dash")


def _rows_each_side_of_qhv(n_objectives: int = 8, up_to: int = 1024) -> tuple[int, int]:
    """Front sizes at ``n_objectives`` for which :func:`~copa_dash.core.hypervolume.exact_method`
    picks the WFG kernel (the size just below the switch) and QHV-II (the switch): asked of the
    rule itself, so a re-tuned threshold keeps both kernels in the warm-up."""
    first_qhv = next(n for n in range(2, up_to) if exact_method(n, n_objectives) == "qhv")
    return first_qhv - 1, first_qhv


#: Front sizes at K = 8 for which the WFG kernel and QHV-II are compiled.
_HIGH_DIM_ROWS = _rows_each_side_of_qhv()
_POINTS = np.array([[1.0, 3.0, 2.0], [2.0, 1.0, 3.0], [3.0, 2.0, 1.0], [2.0, 2.0, 2.0]])


def _explore() -> None:
    """Selection, ranking, sweep and front of the explorer and ``copa-dash select``."""
    u = ranks.cdf_transform(_POINTS)
    for p in (1.0, 2.0, np.inf):
        weights = criteria.weights_from_alpha(3, [0], 0.5)
        criteria.copa_select(u, weights, p=p)
        criteria.copa_ranking(u, weights, p=p)
        sweep.alpha_sweep(u, [0], p=p, n_alphas=5)
    for k in (2, 3, 4):
        nondominated_mask(_POINTS[:, :k] if k <= 3 else np.hstack([_POINTS, _POINTS[:, :1]]))


def _robustness() -> None:
    """The explorer's "How sure is this pick?" panel and ``copa-dash robustness``."""
    u = ranks.cdf_transform(_POINTS)
    for p in (1.0, 2.0, np.inf):
        robustness.rank_acceptability(u, p=p, samples=4)
        robustness.rank_acceptability(u, p=p, samples=4, depth=1, center=[0.5, 0.3, 0.2],
                                      radius=0.1)


def _fronts() -> None:
    """Layers and exact hypervolume (explorer's summary view, systems, val -> test)."""
    for k in (2, 3):
        nondominated_layers(_POINTS[:, :k])
        hypervolume(_POINTS[:, :k], np.full(k, 4.0))


def _systems() -> None:
    systems = np.array([0, 0, 1, 1])
    for k in (2, 3):
        system_indicators(_POINTS[:, :k], system_index=systems, n_systems=2)
        pareto_improvement_test(_POINTS[:, :k], run_index=np.array([0, 1, 2, 3]),
                                run_side=np.array([0, 0, 1, 1]), n_permutations=4, rng=0)


def _high_dimensional_hypervolume() -> None:
    """The hypervolume of 8 objectives (Systems on DecodingTrust or HELM): the WFG kernel
    (under 30 rows), QHV-II (from 30) and the Monte-Carlo count; about 16 s of compiling
    cold, which such a page otherwise paid at its first use."""
    sphere = np.random.default_rng(0).random((_HIGH_DIM_ROWS[-1], 8))
    sphere /= np.linalg.norm(sphere, axis=1, keepdims=True)     # all non-dominated
    for n in _HIGH_DIM_ROWS:
        hypervolume(sphere[:n], np.full(8, 1.1))
    hypervolume_mc(sphere[:4], np.full(8, 1.1), n_samples=64, rng=0)


def _generalization() -> None:
    for k in (2, 3):
        validation_test_fronts(_POINTS[:, :k], _POINTS[::-1, :k].copy())


def _choose() -> None:
    """The "Help me choose" kernels (about 6 s of CPU cold): one answer that resamples."""
    settings = elicitation.ElicitationSettings(n_particles=50, ess_fraction=1.0)
    state = elicitation.start(ranks.cdf_transform(_POINTS), settings=settings)
    question = elicitation.next_question(state)
    elicitation.summarize(elicitation.add_answer(state, question.a, question.b, "a"))


def _posets() -> None:
    relations = task_posets(np.vstack([_POINTS, _POINTS[::-1]])[:, :2],
                            method_index=np.array([0, 1, 2, 3] * 2),
                            task_index=np.array([0] * 4 + [1] * 4)).relations
    ufg_depth(relations)


#: (label, step) in the order the background thread runs them
WARM_UP_STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("explorer kernels", _explore),
    ("'How sure is this pick?' kernels", _robustness),
    ("front and hypervolume kernels", _fronts),
    ("systems kernels", _systems),
    ("val -> test kernels", _generalization),
    ("posets kernels", _posets),
    ("Help me choose kernels", _choose),
    ("hypervolume kernels for many objectives", _high_dimensional_hypervolume),
)


def warm_up_kernels() -> float:
    """Compile (or load from the cache) every kernel now; returns the seconds it took."""
    start = time.perf_counter()
    for _, step in WARM_UP_STEPS:
        step()
    elapsed = time.perf_counter() - start
    logger.info("numba kernels warmed up in %.2f s", elapsed)
    return elapsed


def warm_up_in_background(*, progress: bool = True) -> None:
    """Switch this process to background compiles and queue every warm-up step."""
    jit.configure(mode="background", progress=progress)
    for label, step in WARM_UP_STEPS:
        jit.submit(label, step, priority=1)


def compile_progress() -> str:
    """One sentence on what is still compiling (empty when nothing is)."""
    return jit.status().describe()


def compile_ready() -> str:
    """How far the first start's compiling is, in words ("4 of 16 parts ready"); empty
    when nothing compiles."""
    status = jit.status()
    return status.ready if status.busy else ""
