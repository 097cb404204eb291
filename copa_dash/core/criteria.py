"""The COPA criterion (Eq. 11), preference weights from alpha, selection and ranking.

See METHODS.md, "COPA", and papers/copa-comparing-the-incomparable.txt, §3.3.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._kernels import criteria as _kernels
from ._kernels.criteria import TIE_RTOL, TIEBREAK_P
from .errors import InvalidInputError
from .validate import as_points, check_mask, check_p, check_weights

__all__ = ["TIEBREAK_P", "TIE_RTOL", "TieBreak", "copa_ranking", "copa_scores", "copa_select",
           "copa_tie", "weights_from_alpha"]

#: the rules of :func:`copa_select`, in the order they are tried
TIE_RULES = ("p8", "sum", "order")


def weights_from_alpha(n_objectives, focus, alpha) -> np.ndarray:
    """Weights that give the focus objectives a share ``alpha`` of the importance.

    Parameters
    ----------
    n_objectives : int
        Number of objectives K (at least 1).
    focus : sequence of int
        Column indices of the focus set F (distinct, in ``[0, K)``).
    alpha : float
        Importance of the focus set, in [0, 1].

    Returns
    -------
    ndarray, shape (K,)
        ``alpha / |F|`` on every focus objective, ``(1 - alpha) / (K - |F|)`` on the others.

    Raises
    ------
    InvalidInputError
        If ``n_objectives`` is not a positive integer, ``focus`` holds a non-integer, a
        repeated or an out-of-range index, or ``alpha`` is not in [0, 1].

    Notes
    -----
    The weights sum to 1. When F is empty or holds every objective, alpha cannot split the
    importance and the weights are equal, ``1 / K`` (alpha then has no effect). The paper's
    LLM example with seven objectives and F = {0} gives ``[alpha, (1 - alpha) / 6, ...]``.

    Examples
    --------
    >>> weights_from_alpha(4, [0, 2], 0.8)
    array([0.4, 0.1, 0.4, 0.1])
    """
    k_count = _positive_int(n_objectives, "n_objectives")
    chosen = focus_indices(focus, k_count)
    try:
        alpha = float(alpha)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'alpha' must be a number in [0, 1], not {alpha!r}") from None
    if not 0.0 <= alpha <= 1.0:
        raise InvalidInputError(f"'alpha' must lie in [0, 1], but it is {alpha}")
    n_focus = chosen.size
    if n_focus in (0, k_count):
        return np.full(k_count, 1.0 / k_count)
    w = np.full(k_count, (1.0 - alpha) / (k_count - n_focus))
    w[chosen] = alpha / n_focus
    return w


def copa_scores(u, /, weights, *, p) -> np.ndarray:
    """The COPA criterion of every row, weights inside the power (Eq. 11).

    Parameters
    ----------
    u : array_like, shape (N, K)
        CDF values (see :func:`copa_dash.core.ranks.cdf_transform`); NaN allowed.
    weights : array_like, shape (K,)
        Non-negative weights; normalised to sum 1.
    p : float or "inf"
        Exponent in [1, inf].

    Returns
    -------
    ndarray, shape (N,)
        ``C_i = (sum_k |w_k u_ik|^p)^(1/p)``, ``max_k w_k u_ik`` for ``p = inf``; NaN for a
        row with a NaN.

    Raises
    ------
    InvalidInputError
        If ``u`` is not a 2-D array of non-negative values, or ``weights`` / ``p`` are invalid.

    Notes
    -----
    Unlike the usual weighted norm ``(sum_k w_k |u_k|^p)^(1/p)``, the weights are applied
    before the power, so ``w = [0.75, 0.25]`` reads "top-25% in the first objective is
    worth top-75% in the second". p = 1 is the weighted mean rank, p = inf the weighted
    Tchebycheff problem. Computed as ``m (sum (w_k u_k / m)^p)^(1/p)`` with
    ``m = max_k w_k u_k`` so that large p neither underflows nor overflows. O(N K).

    Examples
    --------
    >>> copa_scores([[0.2, 0.6], [0.4, 0.4]], [0.75, 0.25], p=1)
    array([0.3, 0.4])
    >>> copa_scores([[0.2, 0.6], [0.4, 0.4]], [0.75, 0.25], p="inf")
    array([0.15, 0.3 ])
    """
    arr, w, p = _criterion_inputs(u, weights, p)
    return _kernels.copa_scores(arr, w, p)


def copa_select(u, /, weights, *, p, eligible=None) -> int:
    """Row with the smallest COPA criterion among the eligible rows (Eq. 10).

    Parameters
    ----------
    u : array_like, shape (N, K)
        CDF values; rows with a NaN are never selected.
    weights : array_like, shape (K,)
        Non-negative weights; normalised to sum 1.
    p : float or "inf"
        Exponent in [1, inf].
    eligible : bool array_like, shape (N,), optional
        Rows that may be selected (default: all), e.g. those that pass the constraints.

    Returns
    -------
    int
        Index of the selected row.

    Raises
    ------
    InvalidInputError
        If an input is invalid, or no eligible row is free of missing values.

    Notes
    -----
    Ties are broken by, in order: the smaller C at ``p = 8``, the smaller sum of u, then
    table order. Values that agree to a relative ``TIE_RTOL`` (1e-12) count as tied, so that
    rows tied in exact arithmetic stay tied whatever the rounding. O(N K).

    Examples
    --------
    >>> u = [[0.5, 0.0], [0.0, 0.5], [0.25, 0.25]]
    >>> copa_select(u, [0.5, 0.5], p="inf")
    2
    >>> copa_select(u, [0.5, 0.5], p=1)
    2
    """
    arr, w, p = _criterion_inputs(u, weights, p)
    mask = check_mask(eligible, arr.shape[0], name="eligible")
    index = int(_kernels.copa_select(arr, w, p, mask))
    if index < 0:
        raise_no_candidate(arr, mask)
    return index


def copa_ranking(u, /, weights, *, p, eligible=None) -> np.ndarray:
    """Eligible rows ordered by the COPA criterion, best first.

    Parameters
    ----------
    u : array_like, shape (N, K)
        CDF values; rows with a NaN are left out of the ranking.
    weights : array_like, shape (K,)
        Non-negative weights; normalised to sum 1.
    p : float or "inf"
        Exponent in [1, inf].
    eligible : bool array_like, shape (N,), optional
        Rows to rank (default: all).

    Returns
    -------
    ndarray of int64
        Indices of the eligible rows without NaN, best first; its first entry is
        :func:`copa_select`'s answer.

    Raises
    ------
    InvalidInputError
        If an input is invalid.

    Notes
    -----
    The ranking is the sequence of selections: select, remove the row, select again, with
    the tie-breaks of :func:`copa_select`. O(N log N) plus the sizes of the tie bands.

    Examples
    --------
    >>> copa_ranking([[0.5, 0.0], [0.0, 0.5], [0.25, 0.25], [0.5, 0.5]], [0.5, 0.5], p=2)
    array([2, 0, 1, 3])
    """
    arr, w, p = _criterion_inputs(u, weights, p)
    mask = check_mask(eligible, arr.shape[0], name="eligible")
    return _kernels.copa_ranking(arr, w, p, mask)


@dataclass(frozen=True)
class TieBreak:
    """The rows tied with the selection on the criterion, and the rule that chose among them.

    Attributes
    ----------
    selected : int
        The selected row (:func:`copa_select`'s answer).
    tied : ndarray of int64
        Every eligible row whose C agrees with the smallest C to ``TIE_RTOL``, the selected
        row included, in table order; one row when there is no tie.
    rule : {"none", "p8", "sum", "order"}
        ``"none"``: no tie. Otherwise the first rule left with one row: the smaller C at
        ``p = TIEBREAK_P``, the smaller sum of u, or table order (the rows tie on both).
    """

    selected: int
    tied: np.ndarray
    rule: str


def copa_tie(u, /, weights, *, p, eligible=None) -> TieBreak:
    """The rows tied for the selection, and which of :func:`copa_select`'s rules broke the tie.

    Parameters
    ----------
    u, weights, p, eligible
        As for :func:`copa_select`.

    Returns
    -------
    TieBreak

    Raises
    ------
    InvalidInputError
        As :func:`copa_select`.

    Notes
    -----
    The same bands as the kernel: ``c <= c_min (1 + TIE_RTOL)`` for C, then for C at
    ``p = 8`` within it, then for the sum of u within that. O(N K).

    Examples
    --------
    >>> t = copa_tie([[0.5, 0.0], [0.0, 0.5], [0.25, 0.75]], [0.5, 0.5], p="inf")
    >>> t.selected, t.tied.tolist(), t.rule
    (0, [0, 1], 'order')
    """
    arr, w, p = _criterion_inputs(u, weights, p)
    mask = check_mask(eligible, arr.shape[0], name="eligible")
    c = np.where(mask, _kernels.copa_scores(arr, w, p), np.nan)
    if np.isnan(c).all():
        raise_no_candidate(arr, mask)
    band = np.flatnonzero(c <= np.nanmin(c) * (1.0 + TIE_RTOL))
    if band.size == 1:
        return TieBreak(int(band[0]), band.astype(np.int64), "none")
    left = band
    for rule, values in (("p8", lambda rows: _kernels.copa_scores(
            np.ascontiguousarray(arr[rows]), w, TIEBREAK_P)),
                         ("sum", lambda rows: arr[rows].sum(axis=1))):
        v = values(left)
        left = left[v <= v.min() * (1.0 + TIE_RTOL)]
        if left.size == 1:
            return TieBreak(int(left[0]), band.astype(np.int64), rule)
    return TieBreak(int(left.min()), band.astype(np.int64), "order")


def check_u(u, /, *, name: str = "u") -> np.ndarray:
    """Return ``u`` as a contiguous float64 (N, K) copy; non-negative values or NaN."""
    arr = as_points(u, name=name, allow_nan=True, min_rows=1)
    if (arr < 0).any():
        raise InvalidInputError(f"'{name}' must be non-negative (CDF values lie in [0, 1])")
    return arr


def focus_indices(focus, n_objectives: int, /) -> np.ndarray:
    """Return the focus set as a sorted int64 array of distinct column indices."""
    if isinstance(focus, (str, bytes)) or not hasattr(focus, "__iter__"):
        raise InvalidInputError("'focus' must be a sequence of objective column indices")
    out = []
    for value in focus:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            raise InvalidInputError(f"'focus' must hold column indices (integers), not {value!r}")
        if not 0 <= int(value) < n_objectives:
            raise InvalidInputError(
                f"'focus' index {int(value)} is out of range for {n_objectives} objectives")
        out.append(int(value))
    if len(set(out)) != len(out):
        raise InvalidInputError("'focus' must not repeat an objective")
    return np.array(sorted(out), dtype=np.int64)


def raise_no_candidate(u: np.ndarray, mask: np.ndarray, /) -> None:
    """Raise the error for a selection with nothing to select."""
    if not mask.any():
        raise InvalidInputError("'eligible' selects no row: nothing to select from")
    raise InvalidInputError(
        f"none of the {int(mask.sum())} eligible rows can be selected: each has a missing "
        "(NaN) value in 'u'")


def _criterion_inputs(u, weights, p):
    arr = check_u(u)
    return arr, check_weights(weights, arr.shape[1]), check_p(p)


def _positive_int(value, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value < 1:
        raise InvalidInputError(f"'{name}' must be a positive integer, not {value!r}")
    return int(value)
