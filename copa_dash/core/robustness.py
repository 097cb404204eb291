"""How sure is a COPA pick: rank acceptability, local stability, what flips it, leave one out.

See docs/methods.md, "How sure is this pick?". Rank acceptability is SMAA-2's (Lahdelma and
Salminen 2001) with COPA's criterion: weights drawn uniformly on the simplex (Dirichlet(1)),
the share of draws in which each row ranks first and in the top three. Noise and missing
scores are in :mod:`copa_dash.core.robustness_noise`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._kernels import criteria as _criteria_kernels
from ._kernels import robustness as _kernels
from .criteria import check_u, focus_indices, raise_no_candidate, weights_from_alpha
from .errors import InvalidInputError
from .sweep import alpha_sweep
from .validate import check_mask, check_p, check_weights

__all__ = [
    "MAX_SAMPLES",
    "P_GRID",
    "Acceptability",
    "Flip",
    "alpha_flips",
    "leave_one_out",
    "p_flips",
    "rank_acceptability",
    "simplex_draws",
    "weight_flips",
]

MAX_SAMPLES = 1_000_000
#: the p values scanned by :func:`p_flips`: steps of 0.01 up to 10, then geometric to 1000
P_GRID = np.unique(np.concatenate([np.round(np.linspace(1.0, 10.0, 901), 2),
                                   np.geomspace(10.0, 1000.0, 201)[1:]]))


@dataclass(frozen=True)
class Acceptability:
    """Outcome of :func:`rank_acceptability` (arrays are read-only).

    Attributes
    ----------
    rank1, top3 : ndarray, shape (N,)
        Share of the draws in which each row ranks first / in the first ``depth`` (three).
    central_weights : ndarray, shape (N, K)
        Mean of the draws that rank the row first; NaN for a row never first.
    n_samples : int
        Number of weight draws T.
    seed : int or None
        The seed the draws came from (None when a Generator was passed).
    radius : float or None
        None for draws on the whole simplex; else the local radius (see
        :func:`simplex_draws`).
    """

    rank1: np.ndarray
    top3: np.ndarray
    central_weights: np.ndarray
    n_samples: int
    seed: int | None
    radius: float | None = None

    def stderr(self, share) -> np.ndarray:
        """Monte Carlo standard error of a share: ``sqrt(s (1 - s) / T)``."""
        share = np.asarray(share, dtype=float)
        return np.sqrt(share * (1.0 - share) / self.n_samples)


@dataclass(frozen=True)
class Flip:
    """The nearest change of one setting that changes the pick.

    Attributes
    ----------
    setting : str
        ``"alpha"``, ``"p"`` or ``"weight"``.
    objective : int
        Column of the weight changed (``-1`` for alpha and p).
    start, to : float
        The setting now, and the nearest grid value where the pick changes.
    row : int
        The row picked there.
    """

    setting: str
    objective: int
    start: float
    to: float
    row: int

    @property
    def distance(self) -> float:
        return abs(self.to - self.start)


def simplex_draws(n_objectives: int, n_samples: int, rng=None, *, center=None,
                  radius=None) -> np.ndarray:
    """Weight vectors uniform on the simplex, or on a small simplex around ``center``.

    Parameters
    ----------
    n_objectives : int
        K.
    n_samples : int
        T, 1 to ``MAX_SAMPLES``.
    rng : Generator, int or None
        Seed or generator.
    center : array_like, shape (K,), optional
        The current weights (normalised); with ``radius``, draws are local.
    radius : float in (0, 1], optional
        Local draws are ``(1 - radius) * center + radius * d`` with ``d`` ~ Dirichlet(1):
        uniform on a copy of the simplex shrunk by ``radius`` around ``center``, so no
        weight moves by more than ``radius``. ``radius = 1`` is the whole simplex.

    Returns
    -------
    ndarray, shape (T, K), C-contiguous
        Rows sum to 1.

    Examples
    --------
    >>> w = simplex_draws(3, 4, 0)
    >>> w.shape, bool(np.allclose(w.sum(axis=1), 1))
    ((4, 3), True)
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) \
            or not 1 <= n_samples <= MAX_SAMPLES:
        raise InvalidInputError(
            f"'samples' must be an integer from 1 to {MAX_SAMPLES:,}, not {n_samples!r}")
    gen = np.random.default_rng(rng)
    draws = gen.dirichlet(np.ones(n_objectives), size=int(n_samples))
    if radius is not None:
        radius = float(radius)
        if not 0.0 < radius <= 1.0:
            raise InvalidInputError(f"'radius' must lie in (0, 1], but it is {radius}")
        w0 = check_weights(center, n_objectives, name="weights")
        draws = (1.0 - radius) * w0 + radius * draws
    return np.ascontiguousarray(draws)


def rank_acceptability(u, /, *, p, eligible=None, samples: int = 10_000, rng=0, depth: int = 3,
                       center=None, radius=None) -> Acceptability:
    """Share of random weight vectors under which each row ranks first and in the top three.

    Parameters
    ----------
    u : array_like, shape (N, K)
        CDF values; rows with a NaN are never ranked.
    p : float or "inf"
        The view's exponent.
    eligible : bool array_like, shape (N,), optional
        The view's rows (default: all).
    samples : int, default 10,000
        Number of weight draws T.
    rng : Generator, int or None, default 0
        Seed (the same seed gives the same draws and the same answer).
    depth : int, default 3
        "Top" means the first ``depth`` rows.
    center, radius : optional
        Local variant: draws near ``center`` (see :func:`simplex_draws`).

    Returns
    -------
    Acceptability
        Per row, the share of draws that rank it first and in the top ``depth``.

    Raises
    ------
    InvalidInputError
        If ``u``, ``p``, ``eligible``, ``samples``, ``depth`` or ``center``/``radius`` is
        invalid, or no eligible row is free of missing values.

    Notes
    -----
    For each draw the first ``depth`` rows of the COPA ranking are found with the selection
    rule's tie-breaks (C at p = 8, sum of u, table order), so the share of rank 1 is the
    share of draws whose :func:`copa_select` is the row. Only rows that fewer than
    ``depth`` rows precede under every weight vector can reach the top (see
    :mod:`._kernels.robustness`); they are found once, O(N^2 K) at worst, then each draw
    costs O(R K) for R such rows. Each share ``s`` is a mean of T Bernoulli draws: its
    standard error is ``sqrt(s (1 - s) / T)`` (:meth:`Acceptability.stderr`).

    Examples
    --------
    >>> u = [[0.0, 0.5], [0.5, 0.0], [0.5, 0.5]]
    >>> a = rank_acceptability(u, p=1, samples=4000, rng=1)
    >>> [round(float(s), 1) for s in a.rank1]
    [0.5, 0.5, 0.0]
    >>> a.top3.tolist()
    [1.0, 1.0, 1.0]
    """
    arr, mask, p = _inputs(u, eligible, p)
    depth = int(depth)
    if depth < 1:
        raise InvalidInputError(f"'depth' must be at least 1, not {depth}")
    seed = int(rng) if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) else None
    weights = simplex_draws(arr.shape[1], samples, rng, center=center, radius=radius)
    candidates = _kernels.top_candidates(arr, mask, depth)
    if candidates.size == 0:
        raise_no_candidate(arr, mask)
    top = _kernels.top_rows(arr, candidates, weights, p, depth)
    n_rows, k_count = arr.shape
    first = top[:, 0]
    wins = np.bincount(first, minlength=n_rows)
    in_top = np.bincount(top[top >= 0], minlength=n_rows)
    sums = np.zeros((n_rows, k_count))
    np.add.at(sums, first, weights)
    with np.errstate(invalid="ignore", divide="ignore"):
        central = np.where(wins[:, None] > 0, sums / wins[:, None], np.nan)
    parts = (wins / weights.shape[0], in_top / weights.shape[0], central)
    for part in parts:
        part.setflags(write=False)
    return Acceptability(*parts, n_samples=int(weights.shape[0]), seed=seed,
                         radius=None if radius is None else float(radius))


def picks_for_weights(u, weights, p, candidates) -> np.ndarray:
    """:func:`copa_select` for each row of ``weights`` (T, K), in one compiled pass; inputs
    already checked, ``candidates`` from ``top_candidates(u, eligible, 1)``. -1 where nothing
    can be selected."""
    return _kernels.top_rows(u, candidates, np.ascontiguousarray(weights, dtype=np.float64),
                             p, 1)[:, 0]


def weight_flips(u, /, weights, *, p, eligible=None, n_grid: int = 2001) -> list[Flip]:
    """For each objective, the nearest weight (others rescaled) at which the pick changes.

    Parameters
    ----------
    u, p, eligible
        As for :func:`rank_acceptability`.
    weights : array_like, shape (K,)
        The current weights (normalised to sum 1).
    n_grid : int, default 2001
        The weight of objective k is scanned on ``linspace(0, 1, n_grid)`` (steps of 0.0005);
        the other weights keep their proportions and share ``1 - w_k``.

    Returns
    -------
    list of Flip
        Up to two per objective (the nearest change above and below the current weight),
        nearest first. Empty when no single weight changes the pick.

    Notes
    -----
    ``w(t) = t e_k + (1 - t) w_{-k} / (1 - w_k)``: a line through the current weights to the
    corner of objective k. When the others all weigh 0 they share ``1 - t`` equally.
    O(K n_grid R K) after the pruning of :func:`rank_acceptability`.
    """
    arr, mask, p = _inputs(u, eligible, p)
    w0 = check_weights(weights, arr.shape[1])
    pick = _pick(arr, w0, p, mask)
    grid = np.linspace(0.0, 1.0, int(n_grid))
    candidates = _kernels.top_candidates(arr, mask, 1)
    flips = []
    for k in range(arr.shape[1]):
        rest = np.delete(w0, k)
        rest = rest / rest.sum() if rest.sum() > 0 else np.full(rest.size, 1.0 / rest.size)
        line = np.empty((grid.size, arr.shape[1]))
        line[:, k] = grid
        line[:, np.arange(arr.shape[1]) != k] = (1.0 - grid)[:, None] * rest
        picks = picks_for_weights(arr, line, p, candidates)
        flips += _nearest_changes("weight", k, float(w0[k]), grid, picks, pick)
    return sorted(flips, key=lambda f: (f.distance, f.objective))


def alpha_flips(u, /, focus, alpha, *, p, eligible=None, n_alphas: int = 10_001) -> list[Flip]:
    """The nearest alpha below and above the current one at which the pick changes.

    Uses :func:`copa_dash.core.sweep.alpha_sweep` on ``linspace(0, 1, n_alphas)`` (steps of
    1e-4 by default); the pick is :func:`copa_select` at the exact current alpha. Returns
    up to two :class:`Flip` (``setting="alpha"``), nearest first.
    """
    arr, mask, p = _inputs(u, eligible, p)
    chosen = focus_indices(focus, arr.shape[1])
    w0 = weights_from_alpha(arr.shape[1], chosen, alpha)
    pick = _pick(arr, w0, p, mask)
    result = alpha_sweep(arr, chosen, p=p, n_alphas=n_alphas, eligible=mask)
    flips = _nearest_changes("alpha", -1, float(alpha), result.alphas, result.selected, pick)
    return sorted(flips, key=lambda f: f.distance)


def p_flips(u, /, weights, *, p, eligible=None) -> list[Flip]:
    """The nearest p below and above the current one (on :data:`P_GRID`, then inf) at which
    the pick changes; ``to = inf`` for p = inf. Up to two :class:`Flip`, nearest first
    (``distance`` compares p on its own scale; inf is farther than any finite p)."""
    arr, mask, p = _inputs(u, eligible, p)
    w0 = check_weights(weights, arr.shape[1])
    pick = _pick(arr, w0, p, mask)
    grid = np.append(P_GRID, np.inf)
    candidates = _kernels.top_candidates(arr, mask, 1)
    sub = np.ascontiguousarray(arr[candidates])
    every = np.ones(sub.shape[0], dtype=bool)
    picks = np.array([candidates[_criteria_kernels.copa_select(sub, w0, float(q), every)]
                      for q in grid], dtype=np.int64)
    return sorted(_nearest_changes("p", -1, p, grid, picks, pick), key=lambda f: f.distance)


def leave_one_out(u, /, weights, *, p, eligible=None) -> np.ndarray:
    """The pick with each objective left out, weights renormalised over the rest, same p.

    Returns
    -------
    ndarray of int64, shape (K,)
        Row picked without objective k; -1 where no row can be picked (K = 1). Rows with a
        NaN only in the dropped column become selectable, as in a view without it. When the
        other objectives all weigh 0, they get equal weights.
    """
    arr = check_u(u)
    mask = check_mask(eligible, arr.shape[0], name="eligible")
    p = check_p(p)
    w0 = check_weights(weights, arr.shape[1])
    out = np.full(arr.shape[1], -1, dtype=np.int64)
    for k in range(arr.shape[1]):
        if arr.shape[1] == 1:
            break
        rest = np.delete(w0, k)
        rest = rest / rest.sum() if rest.sum() > 0 else np.full(rest.size, 1.0 / rest.size)
        sub = np.ascontiguousarray(np.delete(arr, k, axis=1))
        out[k] = _criteria_kernels.copa_select(sub, rest, p, mask)
    return out


def _inputs(u, eligible, p):
    arr = check_u(u)
    return arr, check_mask(eligible, arr.shape[0], name="eligible"), check_p(p)


def _pick(arr, w, p, mask) -> int:
    index = int(_criteria_kernels.copa_select(arr, w, p, mask))
    if index < 0:
        raise_no_candidate(arr, mask)
    return index


def _nearest_changes(setting, objective, start, grid, picks, pick) -> list[Flip]:
    """The grid value nearest ``start`` on each side where ``picks`` differs from ``pick``."""
    changed = (picks != pick) & (picks >= 0)
    out = []
    above = np.flatnonzero(changed & (grid > start))
    if above.size:
        i = above[0]
        out.append(Flip(setting, objective, start, float(grid[i]), int(picks[i])))
    below = np.flatnonzero(changed & (grid < start))
    if below.size:
        i = below[-1]
        out.append(Flip(setting, objective, start, float(grid[i]), int(picks[i])))
    return out


def describe_flip(flip: Flip, names, ids) -> str:
    """The flip in words: "cost weight from 0.30 to 0.41 picks B" (two decimals, or as
    many more, up to four, as it takes to show the grid value exactly and unlike the start)."""
    def exact(d, v):
        return math.isinf(v) or abs(float(f"{v:.{d}f}") - v) < 1e-9

    digits = next((d for d in (2, 3, 4) if exact(d, flip.to) and (
        math.isinf(flip.start) or f"{flip.start:.{d}f}" != f"{flip.to:.{d}f}")), 4)

    def fmt(v):
        return "inf" if math.isinf(v) else f"{v:.{digits}f}"

    what = f"{names[flip.objective]} weight" if flip.setting == "weight" else flip.setting
    return f"{what} from {fmt(flip.start)} to {fmt(flip.to)} picks {ids[flip.row]}"
