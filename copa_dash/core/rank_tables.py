"""Rank the rows of a table under several criteria at once (the paper's bump charts).

The comparative analyses of the paper (§5.3, Figs. 6, 7, B.5, B.6, B.10) rank the same
models under COPA with several p, the mean of raw values, Delta against a reference model
and the mean of ``norm_k``, and read how much the ranking moves. This module computes the
score of every row under every criterion (:func:`criterion_scores`) and turns a score
matrix into ranks (:func:`rank_table`), either untied as in the paper's figures (by COPA at
p = 8, then the sum of u, then table order; App. B.4) or with ties kept (Fig. B.5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .baselines import baseline_scores
from .criteria import TIE_RTOL, TIEBREAK_P, copa_scores
from .errors import InvalidInputError
from .ranks import cdf_transform
from .validate import as_points, check_p, check_weights, parse_directions

__all__ = [
    "CRITERION_KINDS",
    "Criterion",
    "RankTable",
    "criterion_scores",
    "rank_rows",
    "rank_spread",
    "rank_table",
    "tie_break_keys",
]

CRITERION_KINDS = ("copa", "mean", "norm", "delta", "objective")


@dataclass(frozen=True)
class Criterion:
    """One way of scoring the rows (smaller score is better).

    ``kind`` is one of:

    - ``"copa"``: the COPA criterion ``C`` of the rows' u with exponent ``p`` (Eq. 11);
    - ``"mean"``: the weighted mean of the raw values oriented to minimisation (the
      leaderboards' average; the ``Sum`` baseline);
    - ``"norm"``: the weighted mean of ``norm_k`` (Eq. 6, ideal -> 0, nadir -> 1);
    - ``"delta"``: the weighted mean relative change to the ideal, or to the row
      ``reference`` (the multi-task learning Delta of §4);
    - ``"objective"``: the single objective column ``objective``.
    """

    kind: str
    p: float = math.inf
    reference: int | None = None
    objective: int | None = None

    def __post_init__(self):
        if self.kind not in CRITERION_KINDS:
            raise InvalidInputError(
                f"criterion kind must be one of {', '.join(CRITERION_KINDS)}, not {self.kind!r}")
        if self.kind == "copa":
            object.__setattr__(self, "p", check_p(self.p))
        if self.kind == "objective" and self.objective is None:
            raise InvalidInputError("an 'objective' criterion needs the objective's column index")


def _index(value, n: int, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not 0 <= int(value) < n:
        raise InvalidInputError(f"'{name}' must be an index in [0, {n - 1}], not {value!r}")
    return int(value)


def criterion_scores(points, /, directions, weights, criteria: Sequence[Criterion]) -> np.ndarray:
    """Score of every row under every criterion (smaller is better).

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw objective values of the rows, no missing value.
    directions : None, str or sequence of {"min", "max"}
        Direction of each objective.
    weights : array_like, shape (K,)
        Non-negative weights (normalised to sum 1), shared by every criterion but
        ``"objective"``.
    criteria : sequence of Criterion

    Returns
    -------
    ndarray, shape (N, C)
        Column c holds every row's score under ``criteria[c]``. ``u`` (for COPA) is the CDF of
        each objective over the N rows.

    Raises
    ------
    InvalidInputError
        If an input is malformed, or a criterion is undefined on these rows (Delta with an
        ideal or reference value of 0; the message says which).

    Notes
    -----
    COPA: ``C_i = (sum_k |w_k u_ik|^p)^(1/p)``; mean: ``sum_k w_k y'_ik``; norm:
    ``sum_k w_k (y'_ik - min y'_k) / (max y'_k - min y'_k)``; Delta:
    ``sum_k w_k (y_ik - r_k) / |r_k|`` signed so that worse is positive, ``r`` the ideal or
    the reference row; objective: ``y'_ik``. See METHODS.md. O(N K C) plus one sort per
    objective.

    Examples
    --------
    >>> y = [[1.0, 4.0], [2.0, 2.0], [4.0, 1.0]]
    >>> criterion_scores(y, "min", [0.5, 0.5], [Criterion("copa", p=1), Criterion("mean"),
    ...                                          Criterion("objective", objective=1)])
    array([[0.33333333, 2.5       , 4.        ],
           [0.33333333, 2.        , 2.        ],
           [0.33333333, 2.5       , 1.        ]])
    """
    raw = as_points(points, min_rows=1)
    n, k = raw.shape
    maximise = parse_directions(directions, k)
    dirs = ["max" if m else "min" for m in maximise]
    w = check_weights(weights, k)
    criteria = tuple(criteria)
    if not criteria:
        raise InvalidInputError("'criteria' must hold at least one criterion")
    u = cdf_transform(raw, dirs)
    out = np.empty((n, len(criteria)))
    for c, criterion in enumerate(criteria):
        if not isinstance(criterion, Criterion):
            raise InvalidInputError(f"'criteria[{c}]' must be a Criterion, not {criterion!r}")
        if criterion.kind == "copa":
            out[:, c] = copa_scores(u, w, p=criterion.p)
        elif criterion.kind == "objective":
            column = _index(criterion.objective, k, "objective")
            out[:, c] = -raw[:, column] if maximise[column] else raw[:, column]
        elif criterion.kind == "delta":
            reference = None
            if criterion.reference is not None:
                reference = _index(criterion.reference, n, "reference")
            out[:, c] = baseline_scores(raw, dirs, w, method="delta", reference=reference)
        else:
            method = "sum" if criterion.kind == "mean" else "norm"
            out[:, c] = baseline_scores(raw, dirs, w, method=method)
    if not np.isfinite(out).all():
        bad = [c for c in range(out.shape[1]) if not np.isfinite(out[:, c]).all()]
        raise InvalidInputError(
            f"criteria {bad} are undefined for some rows (a division by zero)")
    return out


def tie_break_keys(points, /, directions, weights) -> np.ndarray:
    """The paper's tie-breaks of every row: COPA at p = 8 and the sum of u.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw objective values.
    directions : None, str or sequence of {"min", "max"}
    weights : array_like, shape (K,)

    Returns
    -------
    ndarray, shape (N, 2)
        ``[C_8, sum_k u_k]`` per row (smaller is better), as in
        :func:`copa_dash.core.criteria.copa_select`.

    Examples
    --------
    >>> tie_break_keys([[1.0, 3.0], [3.0, 1.0], [2.0, 2.0]], "min", [0.5, 0.5])
    array([[0.33333333, 0.66666667],
           [0.33333333, 0.66666667],
           [0.18175129, 0.66666667]])
    """
    raw = as_points(points, min_rows=1)
    maximise = parse_directions(directions, raw.shape[1])
    u = cdf_transform(raw, ["max" if m else "min" for m in maximise])
    w = check_weights(weights, raw.shape[1])
    return np.column_stack([copa_scores(u, w, p=TIEBREAK_P), u.sum(axis=1)])


def _band_limit(value: float) -> float:
    """Largest value tied with ``value`` (relative tolerance TIE_RTOL, any sign)."""
    return value + TIE_RTOL * abs(value)


def _untied_order(score: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Rows best first: repeated selection of the smallest score, tie bands resolved by the
    keys in turn (each within its own band), then by table order."""
    order = list(np.argsort(score, kind="stable"))
    out = []
    while order:
        limit = _band_limit(score[order[0]])
        band_end = 1
        while band_end < len(order) and score[order[band_end]] <= limit:
            band_end += 1
        candidates = order[:band_end]
        for key in keys.T:
            if len(candidates) == 1:
                break
            best = min(key[i] for i in candidates)
            candidates = [i for i in candidates if key[i] <= _band_limit(best)]
        winner = min(candidates)
        out.append(winner)
        order.remove(winner)
    return np.array(out, dtype=np.int64)


def rank_table(scores, /, tie_keys=None, *, ties: str = "break") -> np.ndarray:
    """Ranks (1 = best) of the rows under each column of ``scores``.

    Parameters
    ----------
    scores : array_like, shape (N, C)
        Smaller is better; no missing value.
    tie_keys : array_like, shape (N, T), optional
        Secondary keys (smaller is better) that break ties in order, e.g.
        :func:`tie_break_keys`; table order breaks what they leave.
    ties : {"break", "keep"}, default "break"
        ``"break"``: ranks 1..N, ties broken by ``tie_keys`` then table order (the paper's
        figures). ``"keep"``: tied rows share the best rank, ``1 + #rows strictly better``
        (Fig. B.5).

    Returns
    -------
    ndarray of int64, shape (N, C)

    Raises
    ------
    InvalidInputError
        If ``scores`` or ``tie_keys`` are malformed or ``ties`` is unknown.

    Notes
    -----
    Two values are tied when they agree to a relative ``TIE_RTOL`` (1e-12), the tolerance of
    :mod:`copa_dash.core.criteria`: values equal in exact arithmetic but computed along
    different float paths stay tied. Breaking repeats "take the smallest score; among the
    rows tied with it, the smallest first key; ...; the first in table order", so a COPA
    column is ordered exactly as :func:`copa_dash.core.criteria.copa_ranking` orders it.
    O(N log N) per column plus the sizes of the tie bands.

    Examples
    --------
    >>> s = [[0.5], [0.2], [0.5], [0.9]]
    >>> rank_table(s, ties="keep")[:, 0]
    array([2, 1, 2, 4])
    >>> rank_table(s, [[0.3], [0.0], [0.1], [0.0]])[:, 0]
    array([3, 1, 2, 4])
    """
    s = as_points(scores, name="scores")
    n, c_count = s.shape
    if ties not in ("break", "keep"):
        raise InvalidInputError(f"'ties' must be 'break' or 'keep', not {ties!r}")
    keys = np.empty((n, 0)) if tie_keys is None else as_points(tie_keys, name="tie_keys")
    if keys.shape[0] != n:
        raise InvalidInputError(
            f"'tie_keys' must have {n} rows like 'scores', but it has {keys.shape[0]}")
    ranks = np.empty((n, c_count), dtype=np.int64)
    for c in range(c_count):
        column = s[:, c]
        if ties == "keep":
            ordered = np.sort(column)
            limits = ordered + TIE_RTOL * np.abs(ordered)   # band end of each sorted value
            # strictly better: values whose tie band ends below this row's value
            better = np.searchsorted(np.maximum.accumulate(limits), column, side="left")
            ranks[:, c] = better + 1
        else:
            ranks[_untied_order(column, keys), c] = np.arange(1, n + 1)
    return ranks


def rank_spread(ranks, /) -> np.ndarray:
    """How far each row's rank moves across the criteria: max rank - min rank.

    Examples
    --------
    >>> rank_spread([[1, 3, 2], [2, 1, 1]])
    array([2, 1])
    """
    r = as_points(ranks, name="ranks")
    return (r.max(axis=1) - r.min(axis=1)).astype(np.int64)


@dataclass(frozen=True)
class RankTable:
    """Scores and ranks of N rows under C criteria."""

    scores: np.ndarray        # (N, C), smaller is better
    ranks: np.ndarray         # (N, C) int, 1 = best, as asked (ties broken or kept)
    tied_ranks: np.ndarray    # (N, C) int, ties kept (1 + rows strictly better)
    tie_keys: np.ndarray      # (N, 2) C at p = 8 and sum of u
    spread: np.ndarray        # (N,) max - min of ``ranks``


def rank_rows(points, /, directions, weights, criteria: Sequence[Criterion], *,
              ties: str = "break") -> RankTable:
    """Scores and ranks of every row under every criterion (see :func:`rank_table`).

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw objective values, no missing value.
    directions : None, str or sequence of {"min", "max"}
    weights : array_like, shape (K,)
    criteria : sequence of Criterion
    ties : {"break", "keep"}, default "break"

    Returns
    -------
    RankTable

    Raises
    ------
    InvalidInputError
        As :func:`criterion_scores` and :func:`rank_table`.

    Notes
    -----
    Ties are broken by COPA at p = 8 and then the sum of u with the same weights, as in the
    paper's App. B.4. O(N K C + C N log N).

    Examples
    --------
    >>> y = [[1.0, 4.0], [2.0, 2.0], [4.0, 1.0]]
    >>> t = rank_rows(y, "min", [0.5, 0.5], [Criterion("copa", p=1), Criterion("mean")])
    >>> t.ranks
    array([[2, 2],
           [1, 1],
           [3, 3]])
    >>> t.tied_ranks
    array([[1, 2],
           [1, 1],
           [1, 2]])
    """
    scores = criterion_scores(points, directions, weights, criteria)
    keys = tie_break_keys(points, directions, weights)
    tied = rank_table(scores, ties="keep")
    ranks = tied if ties == "keep" else rank_table(scores, keys, ties=ties)
    return RankTable(scores=scores, ranks=ranks, tied_ranks=tied, tie_keys=keys,
                     spread=rank_spread(ranks))
