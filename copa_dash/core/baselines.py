"""Baselines COPA is compared with: Sum, Delta, norm, max-normalisation, SAW, AHP, weighted p-norm.

See METHODS.md, "Baselines", and papers/copa-comparing-the-incomparable.txt §2 (Eq. 6) and
App. A (Eqs. 12-16). Every score is oriented so that the SMALLEST value is best.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._kernels import baselines as _ahp_kernels
from ._kernels import criteria as _criteria_kernels
from .errors import InvalidInputError, MethodNotApplicableError
from .ranks import cdf_transform
from .validate import as_points, check_mask, check_p, check_weights, parse_directions

__all__ = ["AHP_MAX_ROWS", "METHODS", "NORMALISATIONS", "baseline_scores", "baseline_select",
           "normalised_objectives"]

METHODS = ("sum", "delta", "norm", "maxnorm", "saw", "ahp", "pnorm")
NORMALISATIONS = ("delta", "norm", "maxnorm", "ahp")
AHP_MAX_ROWS = 5_000


def normalised_objectives(points, /, directions=None, *, method, reference=None) -> np.ndarray:
    """Objective values normalised column by column, oriented so that smaller is better.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw objective values; NaN marks a missing value (it stays NaN and is left out of
        the column's ideal, nadir, maximum and pairwise comparisons).
    directions : None, "min", "max" or sequence of them, optional
        Direction of each objective (None: all minimised).
    method : {"delta", "norm", "maxnorm", "ahp"}
        ``delta``: ``(y_k - ideal_k) / |ideal_k|`` in the objective's own direction
        (Eq. 6; ``(ideal_k - y_k) / |ideal_k|`` for ``max``). ``norm``:
        ``(y'_k - ideal'_k) / (nadir'_k - ideal'_k)``, 0 for a constant column.
        ``maxnorm``: Eq. 14, ``y / min_h y`` for ``min`` and ``max_h y / y`` for ``max``
        (>= 1). ``ahp``: App. A's priority vectors, one per column, each summing to 1.
    reference : int, optional
        ``delta`` only: row whose values replace the ideal (MTL practice).

    Returns
    -------
    ndarray, shape (N, K)
        Each row's normalised value per objective, oriented so that smaller is better.

    Raises
    ------
    InvalidInputError
        If the method is unknown; ``delta`` meets an ideal (or reference value) of 0 or a
        missing reference value; ``maxnorm`` / ``ahp`` meet a value <= 0; ``ahp`` has more
        than ``AHP_MAX_ROWS`` values in a column; a column has no value at all. The value
        problems (a value <= 0, an ideal of 0) raise its subclass
        :class:`~copa_dash.core.errors.MethodNotApplicableError`, whose attributes name the
        column and the row, so that a caller can say why in its own words.

    Notes
    -----
    ``y'`` is the value oriented to minimisation (``-y`` for ``max``). Every output is
    already "smaller is better": Eq. 14 is the paper's minimisation variant of max
    normalisation, and in AHP a larger ``z`` (worse) gets a larger priority, so nothing
    is negated. AHP: ``A_ij = 1 + 8 (ln z_i - ln z_j) / (ln max z - ln min z)`` for
    ``z_i >= z_j`` and ``1 / A_ji`` otherwise, principal eigenvector by power iteration,
    O(N^2) time per iteration and O(N) memory (about 1 s per column at N = 5,000).

    Examples
    --------
    >>> normalised_objectives([[2.0, 10.0], [4.0, 5.0]], ["min", "max"], method="maxnorm")
    array([[1., 1.],
           [2., 2.]])
    """
    method = _method(method, NORMALISATIONS)
    raw = as_points(points, allow_nan=True, min_rows=1)
    maximise = parse_directions(directions, raw.shape[1])
    _require_values(raw)
    ref = _reference_row(reference, raw.shape[0], method)
    if method == "delta":
        return _delta(raw, maximise, ref)
    if method == "norm":
        return _norm(raw, maximise)
    z = _max_normalised(raw, maximise, method)
    if method == "maxnorm":
        return z
    return _ahp(z)


def baseline_scores(points, /, directions, weights, *, method, reference=None,
                    p=None) -> np.ndarray:
    """Score of every row under a baseline method; the smallest score is best.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Raw objective values; a row with a NaN scores NaN.
    directions : None, "min", "max" or sequence of them
        Direction of each objective.
    weights : array_like, shape (K,)
        Non-negative weights, normalised to sum 1 (the same w as COPA).
    method : {"sum", "delta", "norm", "maxnorm", "saw", "ahp", "pnorm"}
        ``sum``: ``sum_k w_k y'_k`` on raw values. ``delta`` / ``norm`` / ``maxnorm``: the
        normalisation of :func:`normalised_objectives`, aggregated by the weighted sum (or
        by Eq. 11 when ``p`` is given). ``saw``: Eq. 15, the weighted sum of Eq. 14 values
        (the same numbers as ``maxnorm`` with ``p=None``). ``ahp``: Eq. 16, the weighted sum
        of the AHP priorities. ``pnorm``: the usual weighted p-norm of COPA's u,
        ``(sum_k w_k u_k^p)^(1/p)`` (paper Fig. B.2), ``max_{k: w_k > 0} u_k`` for inf.
    reference : int, optional
        ``delta`` only: row that replaces the ideal.
    p : float or "inf", optional
        Required by ``pnorm``. For ``delta``, ``norm`` and ``maxnorm``, aggregate with
        COPA's criterion ``(sum_k (w_k phi_k)^p)^(1/p)`` instead of the weighted sum (the
        paper's Eq. 7 comparison of normalisations uses p = inf); not accepted by the
        other methods.

    Returns
    -------
    ndarray, shape (N,)

    Raises
    ------
    InvalidInputError
        For an unknown method, a misplaced or missing ``reference`` / ``p``, or the
        conditions listed in :func:`normalised_objectives`.

    Notes
    -----
    Signs: every method is oriented to minimisation, so argmin is best and nothing is
    negated (Eqs. 14-16 are already minimisation problems). Delta with a reference row can
    be negative (better than the reference); COPA's criterion needs non-negative values,
    so that combination with ``p`` is refused. O(N K), except AHP (see
    :func:`normalised_objectives`).

    Examples
    --------
    >>> pts = [[1.0, 30.0], [2.0, 20.0], [4.0, 10.0]]
    >>> baseline_scores(pts, "min", [0.5, 0.5], method="sum")
    array([15.5, 11. ,  7. ])
    >>> baseline_scores(pts, "min", [0.5, 0.5], method="norm")
    array([0.5       , 0.41666667, 0.5       ])
    """
    method = _method(method, METHODS)
    raw = as_points(points, allow_nan=True, min_rows=1)
    maximise = parse_directions(directions, raw.shape[1])
    w = check_weights(weights, raw.shape[1])
    _reference_row(reference, raw.shape[0], method)
    if p is not None and method in ("sum", "saw", "ahp"):
        raise InvalidInputError(f"'p' is not used by method {method!r}; leave it out")
    if method == "pnorm":
        if p is None:
            raise InvalidInputError("method 'pnorm' needs 'p' (a number >= 1 or 'inf')")
        return _usual_weighted_norm(cdf_transform(raw, maximise), w, check_p(p))
    if method == "sum":
        oriented = np.where(maximise, -raw, raw)
        return oriented @ w
    phi = normalised_objectives(raw, maximise, method="maxnorm" if method == "saw" else method,
                                reference=reference)
    if p is None:
        return phi @ w
    p = check_p(p)
    if (phi < 0).any():
        raise InvalidInputError(
            "'p' needs non-negative normalised values, but Delta relative to the reference "
            "row is negative for rows better than it; leave 'p' out (weighted sum)")
    return _criteria_kernels.copa_scores(np.ascontiguousarray(phi), w, p)


def baseline_select(points, /, directions, weights, *, method, eligible=None, reference=None,
                    p=None) -> int:
    """Row with the smallest baseline score among the eligible rows.

    Parameters
    ----------
    points, directions, weights, method, reference, p
        As in :func:`baseline_scores`.
    eligible : bool array_like, shape (N,), optional
        Rows that may be selected (default: all).

    Returns
    -------
    int
        Index of the selected row; equal scores go to the first in table order.

    Raises
    ------
    InvalidInputError
        As :func:`baseline_scores`, or when no eligible row has a score.

    Examples
    --------
    >>> baseline_select([[1.0, 30.0], [2.0, 20.0], [4.0, 10.0]], "min", [0.5, 0.5],
    ...                 method="norm")
    1
    """
    scores = baseline_scores(points, directions, weights, method=method, reference=reference,
                             p=p)
    mask = check_mask(eligible, scores.shape[0], name="eligible")
    usable = mask & ~np.isnan(scores)
    if not usable.any():
        if not mask.any():
            raise InvalidInputError("'eligible' selects no row: nothing to select from")
        raise InvalidInputError(
            f"none of the {int(mask.sum())} eligible rows can be selected: each has a "
            "missing (NaN) value")
    candidates = np.flatnonzero(usable)
    return int(candidates[np.argmin(scores[candidates])])


def _method(method, allowed) -> str:
    if not isinstance(method, str) or method.lower() not in allowed:
        raise InvalidInputError(f"'method' must be one of {', '.join(allowed)}; got {method!r}")
    return method.lower()


def _require_values(raw: np.ndarray) -> None:
    empty = np.flatnonzero(np.isnan(raw).all(axis=0))
    if empty.size:
        raise InvalidInputError(
            f"'points' objective {int(empty[0])} has no value: every value is missing (NaN)")


def _reference_row(reference, n_rows: int, method: str):
    if reference is None:
        return None
    if method != "delta":
        raise InvalidInputError(f"'reference' is only used by method 'delta', not {method!r}")
    if isinstance(reference, (bool, np.bool_)) or not isinstance(reference, numbers.Integral) \
            or not 0 <= reference < n_rows:
        raise InvalidInputError(
            f"'reference' must be a row index from 0 to {n_rows - 1}, not {reference!r}")
    return int(reference)


def _delta(raw, maximise, ref):
    oriented = np.where(maximise, -raw, raw)
    if ref is None:
        ideal = np.nanmin(oriented, axis=0)
        where = "the ideal (best) value"
    else:
        ideal = oriented[ref].copy()
        missing = np.flatnonzero(np.isnan(ideal))
        if missing.size:
            raise InvalidInputError(
                f"'reference' row {ref} has no value in objective {int(missing[0])}")
        where = f"the value of reference row {ref}"
    zero = np.flatnonzero(ideal == 0)
    if zero.size:
        raise MethodNotApplicableError(
            f"Delta is undefined for objective {int(zero[0])}: {where} is 0, and Delta "
            "divides by it; choose another reference row or another method",
            method="delta", reason="zero_ideal", column=int(zero[0]), row=ref, value=0.0,
            columns=tuple(int(k) for k in zero))
    return (oriented - ideal) / np.abs(ideal)


def _norm(raw, maximise):
    oriented = np.where(maximise, -raw, raw)
    ideal = np.nanmin(oriented, axis=0)
    span = np.nanmax(oriented, axis=0) - ideal
    out = (oriented - ideal) / np.where(span > 0, span, 1.0)
    out[:, span == 0] = np.where(np.isnan(oriented[:, span == 0]), np.nan, 0.0)
    return out


def _max_normalised(raw, maximise, method):
    bad = np.argwhere(raw <= 0)
    if bad.size:
        i, k = (int(v) for v in bad[np.argmin(bad[:, 1] * raw.shape[0] + bad[:, 0])])
        raise MethodNotApplicableError(
            f"method {method!r} needs positive values (max-normalisation divides by them), "
            f"but objective {k} has {raw[i, k]:g} in row {i}",
            method=method, reason="not_positive", column=k, row=i, value=float(raw[i, k]),
            n_rows=int((bad[:, 1] == k).sum()),
            columns=tuple(int(c) for c in np.unique(bad[:, 1])))
    return np.where(maximise, np.nanmax(raw, axis=0) / raw, raw / np.nanmin(raw, axis=0))


def _ahp(z):
    counts = (~np.isnan(z)).sum(axis=0)
    if counts.max() > AHP_MAX_ROWS:
        raise InvalidInputError(
            f"AHP compares every pair of rows (O(N^2)) and is limited to {AHP_MAX_ROWS} rows; "
            f"this table has {int(counts.max())}: filter it first or use another method")
    out = np.full(z.shape, np.nan)
    for k in range(z.shape[1]):
        has = ~np.isnan(z[:, k])
        out[has, k] = _ahp_kernels.ahp_priorities(np.ascontiguousarray(np.log(z[has, k])))
    return out


def _usual_weighted_norm(u, w, p):
    used = w > 0
    uu = u[:, used]
    m = np.max(uu, axis=1)
    if np.isinf(p):
        return m
    scale = np.where(m > 0, m, 1.0)
    return m * (((uu / scale[:, None]) ** p) @ w[used]) ** (1.0 / p)
