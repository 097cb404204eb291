"""How sure is a pick when the scores are noisy or missing.

Noise: the probability that each row is on the Pareto front and that it is COPA's pick, over
score tables drawn from runs (a bootstrap of each system's runs) or from a stated
uncertainty per metric (normal draws). Missing scores: which dominance relations and which
picks hold for every filling of the missing cells within each column's observed range, and
which only for some. See docs/methods.md, "How sure is this pick?".
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from .criteria import copa_select
from .dominance import nondominated_mask
from .errors import InvalidInputError
from .ranks import cdf_transform
from .validate import check_mask, check_p, check_weights, parse_directions

__all__ = ["FillingPicks", "Membership", "MissingRelations", "bootstrap_means",
           "front_membership", "missing_relations", "normal_draws", "picks_over_fillings"]


@dataclass(frozen=True)
class Membership:
    """Outcome of :func:`front_membership`.

    Attributes
    ----------
    front, pick : ndarray, shape (N,)
        Share of the drawn tables in which each row is non-dominated (among the eligible
        rows) / is COPA's pick.
    n_samples : int
        Number of drawn tables S; a share's standard error is ``sqrt(s (1 - s) / S)``.
    """

    front: np.ndarray
    pick: np.ndarray
    n_samples: int

    def stderr(self, share) -> np.ndarray:
        share = np.asarray(share, dtype=float)
        return np.sqrt(share * (1.0 - share) / self.n_samples)


def normal_draws(values, scale, /, samples: int, rng=0) -> np.ndarray:
    """Score tables drawn as ``values + scale * Z``, Z standard normal per cell.

    Parameters
    ----------
    values : array_like, shape (N, K)
        The reported scores.
    scale : array_like, shape (N, K)
        The standard deviation of each score's draw (a standard error, or a CI half-width
        over 1.96); NaN or 0 where nothing is stated: the score is then kept as reported.
    samples : int
        S, 1 to 100,000.
    rng : Generator, int or None

    Returns
    -------
    ndarray, shape (S, N, K)
    """
    y = np.asarray(values, dtype=np.float64)
    s = np.nan_to_num(np.asarray(scale, dtype=np.float64), nan=0.0)
    if y.shape != s.shape or y.ndim != 2:
        raise InvalidInputError("'scale' must have the shape of 'values' (rows x objectives)")
    if (s < 0).any():
        raise InvalidInputError("'scale' must be non-negative (a standard deviation)")
    _check_samples(samples)
    gen = np.random.default_rng(rng)
    return y[None] + s[None] * gen.standard_normal((int(samples), *y.shape))


def bootstrap_means(values, groups, /, samples: int, rng=0) -> np.ndarray:
    """Score tables of group means, each group's runs resampled with replacement.

    Parameters
    ----------
    values : array_like, shape (R, K)
        One row per run (a system's seed).
    groups : array_like of int, shape (R,)
        Group (system) of each run, numbered 0 .. G-1.
    samples : int
    rng : Generator, int or None

    Returns
    -------
    ndarray, shape (S, G, K)
        For each draw, each group's mean over ``n_g`` runs drawn with replacement from its
        own ``n_g`` runs. A group with one run keeps its value.
    """
    y = np.asarray(values, dtype=np.float64)
    g = np.asarray(groups, dtype=np.int64)
    _check_samples(samples)
    gen = np.random.default_rng(rng)
    n_groups = int(g.max()) + 1
    out = np.empty((int(samples), n_groups, y.shape[1]))
    for group in range(n_groups):
        runs = y[g == group]
        if runs.shape[0] == 0:
            raise InvalidInputError(f"group {group} has no run")
        picks = gen.integers(0, runs.shape[0], (int(samples), runs.shape[0]))
        out[:, group] = runs[picks].mean(axis=1)
    return out


def front_membership(samples, /, directions, weights, *, p, eligible=None,
                     population=None) -> Membership:
    """Share of drawn score tables in which each row is non-dominated and is the COPA pick.

    Parameters
    ----------
    samples : array_like, shape (S, N, K)
        Drawn tables (from :func:`normal_draws` or :func:`bootstrap_means`), raw values.
    directions : sequence of {"min", "max"}
    weights : array_like, shape (K,)
    p : float or "inf"
    eligible : bool array_like, shape (N,), optional
        Rows that may be on the front and be picked (the view's rows).
    population : bool array_like, shape (N,), optional
        Rows the CDF is computed over in each draw (default: all rows).

    Returns
    -------
    Membership

    Notes
    -----
    Each draw is a complete analysis: the front of the eligible rows, u over the
    population, and :func:`copa_select` with its tie rule. O(S (front + N K log N)).
    """
    arr = np.asarray(samples, dtype=np.float64)
    if arr.ndim != 3 or arr.shape[0] < 1:
        raise InvalidInputError("'samples' must be an array of drawn tables (S, N, K)")
    _, n_rows, k_count = arr.shape
    parse_directions(directions, k_count)
    w = check_weights(weights, k_count)
    p = check_p(p)
    mask = check_mask(eligible, n_rows, name="eligible")
    pop = check_mask(population, n_rows, name="population")
    rows = np.flatnonzero(mask)
    if rows.size == 0:
        raise InvalidInputError("'eligible' selects no row")
    front = np.zeros(n_rows)
    pick = np.zeros(n_rows)
    for table in arr:
        front[rows] += nondominated_mask(table[rows], list(directions))
        u = cdf_transform(table, list(directions), population=pop)
        pick[copa_select(u, w, p=p, eligible=mask)] += 1
    return Membership(front / arr.shape[0], pick / arr.shape[0], int(arr.shape[0]))


@dataclass(frozen=True)
class MissingRelations:
    """Dominance between rows with missing cells and every row, over all fillings.

    ``rows`` are the rows with a missing cell; for each (r, j): ``always_dominated[r, j]``
    is True when row j dominates ``rows[r]`` for every filling, ``maybe_dominated`` for at
    least one; ``always_dominates`` / ``maybe_dominates`` the same with the roles swapped.
    """

    rows: np.ndarray
    always_dominated: np.ndarray
    maybe_dominated: np.ndarray
    always_dominates: np.ndarray
    maybe_dominates: np.ndarray


def missing_relations(points, /, directions) -> MissingRelations:
    """Which dominance relations hold for every filling of the missing cells, and which for some.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw values; NaN marks a missing score.
    directions : sequence of {"min", "max"}

    Returns
    -------
    MissingRelations

    Notes
    -----
    A filling puts each missing cell anywhere in its column's observed range
    ``[lo_k, hi_k]`` (oriented to minimisation), independently. a dominates b for every
    filling iff it does with a's missing cells at ``hi`` and b's at ``lo`` (the filling
    least favourable to a: every gap only shrinks elsewhere); for some filling iff it does
    with a's at ``lo`` and b's at ``hi``. O(M N K) for M rows with a missing cell.

    Examples
    --------
    >>> m = missing_relations([[1.0, 1.0], [2.0, float("nan")], [3.0, 3.0]], ["min", "min"])
    >>> m.rows.tolist(), m.always_dominated.tolist(), m.maybe_dominated.tolist()
    ([1], [[True, False, False]], [[True, False, False]])
    """
    y = _oriented(points, directions)
    lo = np.nanmin(y, axis=0)
    hi = np.nanmax(y, axis=0)
    missing = np.isnan(y)
    rows = np.flatnonzero(missing.any(axis=1))
    best = np.where(missing, lo, y)
    worst = np.where(missing, hi, y)
    self_pair = rows[:, None] == np.arange(y.shape[0])[None, :]

    def dominates(a, b):  # a (M, K) against b (N, K): (M, N)
        le = (a[:, None, :] <= b[None, :, :]).all(axis=2)
        lt = (a[:, None, :] < b[None, :, :]).any(axis=2)
        return le & lt & ~self_pair

    def dominated(a, b):  # b (N, K) dominates a (M, K): (M, N)
        le = (b[None, :, :] <= a[:, None, :]).all(axis=2)
        lt = (b[None, :, :] < a[:, None, :]).any(axis=2)
        return le & lt & ~self_pair

    return MissingRelations(
        rows=rows,
        always_dominated=dominated(best[rows], worst),
        maybe_dominated=dominated(worst[rows], best),
        always_dominates=dominates(worst[rows], best),
        maybe_dominates=dominates(best[rows], worst))


@dataclass(frozen=True)
class FillingPicks:
    """COPA's pick over fillings of the missing cells (see :func:`picks_over_fillings`).

    ``rows`` the rows picked under some filling, ``shares`` the share of fillings picking
    each (same order, largest first), ``n_fillings`` how many were tried, ``exhaustive``
    True when they were every combination of the candidate values.
    """

    rows: np.ndarray
    shares: np.ndarray
    n_fillings: int
    exhaustive: bool


def picks_over_fillings(points, /, directions, weights, *, p, eligible=None,
                        max_fillings: int = 4096, rng=0) -> FillingPicks:
    """COPA's pick under fillings of the missing cells within each column's observed range.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw values with NaN for missing scores.
    directions, weights, p
        The view's.
    eligible : bool array_like, shape (N,), optional
    max_fillings : int, default 4096
        Every combination is tried when there are at most this many; else this many drawn
        at random (seeded by ``rng``), and ``exhaustive`` is False.

    Notes
    -----
    u depends only on how values compare, so each missing cell takes the column's distinct
    observed values and the midpoints between neighbours (``2 m - 1`` candidates for m
    distinct values); two missing cells of one column placed in the same gap tie. Each
    filling gets u over all rows and :func:`copa_select`.
    """
    raw = np.asarray(points, dtype=np.float64)
    y = _oriented(raw, directions)
    w = check_weights(weights, y.shape[1])
    p = check_p(p)
    mask = check_mask(eligible, y.shape[0], name="eligible")
    cells = np.argwhere(np.isnan(raw))
    choices = []
    for _, k in cells:
        values = np.unique(raw[~np.isnan(raw[:, k]), k])
        choices.append(np.sort(np.concatenate([values, (values[1:] + values[:-1]) / 2])))
    total = math.prod(len(c) for c in choices)   # Python ints: np.prod overflowed int64
    exhaustive = total <= max_fillings
    if exhaustive:
        fillings = itertools.product(*choices)
    else:
        gen = np.random.default_rng(rng)
        fillings = ([c[gen.integers(len(c))] for c in choices] for _ in range(max_fillings))
    counts: dict[int, int] = {}
    n = 0
    for filling in fillings:
        table = raw.copy()
        if len(cells):
            table[cells[:, 0], cells[:, 1]] = filling
        u = cdf_transform(table, list(directions))
        row = copa_select(u, w, p=p, eligible=mask)
        counts[row] = counts.get(row, 0) + 1
        n += 1
    order = sorted(counts, key=lambda r: (-counts[r], r))
    return FillingPicks(np.array(order, dtype=np.int64),
                        np.array([counts[r] / n for r in order]), n, exhaustive)


def _oriented(points, directions) -> np.ndarray:
    y = np.array(points, dtype=np.float64, copy=True)
    if y.ndim != 2:
        raise InvalidInputError("'points' must be a 2-D array (rows x objectives)")
    maximise = parse_directions(directions, y.shape[1])
    y[:, maximise] *= -1.0
    return y


def _check_samples(samples) -> None:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) \
            or not 1 <= samples <= 100_000:
        raise InvalidInputError(f"'samples' must be an integer from 1 to 100,000, not {samples!r}")
