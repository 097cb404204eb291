"""Boundary checks shared by every public function of the core.

Public functions validate and normalise their arguments here, once, and then call
kernels that never check anything. Every error names the argument it is about.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .errors import InvalidInputError
from .numbers import read_number

MIN = "min"
MAX = "max"


def as_points(points, /, *, name: str = "points", allow_nan: bool = False,
              min_rows: int = 0) -> np.ndarray:
    """Return ``points`` as a new C-contiguous float64 array of shape (N, K).

    A 1-D input is read as N points of one objective.

    Raises
    ------
    InvalidInputError
        If the input is not numeric, not 1-D or 2-D, has no column, has fewer
        than ``min_rows`` rows, or holds infinities (or NaN when not allowed).
    """
    try:
        arr = np.array(points, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"'{name}' must be numeric: {exc}") from None
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise InvalidInputError(
            f"'{name}' must be a 2-D array (rows x objectives), but it has {arr.ndim} dimensions")
    if arr.shape[1] == 0:
        raise InvalidInputError(f"'{name}' must have at least one objective column")
    if arr.shape[0] < min_rows:
        raise InvalidInputError(
            f"'{name}' must have at least {min_rows} rows, but it has {arr.shape[0]}")
    if np.isinf(arr).any():
        raise InvalidInputError(f"'{name}' must not contain infinite values")
    if not allow_nan and np.isnan(arr).any():
        raise InvalidInputError(f"'{name}' must not contain missing (NaN) values")
    return np.ascontiguousarray(arr)


def parse_directions(directions, n_objectives: int, /) -> np.ndarray:
    """Return directions as a bool array, True where the objective is maximised.

    Parameters
    ----------
    directions : None, str or sequence of {"min", "max"} or bool
        None means every objective is minimised; a single string applies to all.
    n_objectives : int
        Number of objective columns the directions must match.
    """
    if directions is None:
        return np.zeros(n_objectives, dtype=bool)
    if isinstance(directions, str):
        directions = [directions] * n_objectives
    if not isinstance(directions, (Sequence, np.ndarray)):
        raise InvalidInputError("'directions' must be a sequence of 'min'/'max'")
    if len(directions) != n_objectives:
        raise InvalidInputError(
            f"'directions' must have length {n_objectives}, but it has length {len(directions)}")
    out = np.zeros(n_objectives, dtype=bool)
    for k, d in enumerate(directions):
        if isinstance(d, (bool, np.bool_)):
            out[k] = bool(d)
        elif isinstance(d, str) and d.lower() in (MIN, MAX):
            out[k] = d.lower() == MAX
        else:
            raise InvalidInputError(
                f"'directions[{k}]' must be 'min' or 'max', but it is {d!r}")
    return out


def orient(points: np.ndarray, maximise: np.ndarray, /) -> np.ndarray:
    """Return a copy of ``points`` oriented to minimisation (max columns negated)."""
    out = np.array(points, dtype=np.float64, copy=True)
    out[:, maximise] *= -1.0
    return np.ascontiguousarray(out)


def oriented_points(points, directions=None, /, *, name: str = "points",
                    allow_nan: bool = False, min_rows: int = 0) -> np.ndarray:
    """Validate ``points`` and ``directions`` and return the min-oriented copy."""
    arr = as_points(points, name=name, allow_nan=allow_nan, min_rows=min_rows)
    return orient(arr, parse_directions(directions, arr.shape[1]))


def check_ref_point(ref, n_objectives: int, /, *, name: str = "ref") -> np.ndarray:
    """Return the reference point as a float64 vector of length ``n_objectives``."""
    if (isinstance(ref, np.ndarray) and ref.dtype == np.float64 and ref.ndim == 1
            and ref.shape[0] == n_objectives):  # fast path: a few floats, checked one by one
        arr = ref.copy()
        for value in arr.tolist():
            if not math.isfinite(value):
                raise InvalidInputError(f"'{name}' must be finite")
        return arr
    try:
        arr = np.array(ref, dtype=np.float64, copy=True).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'{name}' must be a numeric vector") from None
    if arr.shape[0] != n_objectives:
        raise InvalidInputError(
            f"'{name}' must have length {n_objectives}, but it has length {arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise InvalidInputError(f"'{name}' must be finite")
    return arr


def check_weights(weights, n_objectives: int, /, *, name: str = "weights") -> np.ndarray:
    """Return non-negative weights normalised to sum 1.

    Raises
    ------
    InvalidInputError
        If a weight is negative or not finite, the length is wrong, or all are 0.
    """
    w = check_ref_point(weights, n_objectives, name=name)
    if (w < 0).any():
        raise InvalidInputError(f"'{name}' must be non-negative")
    total = w.sum()
    if total <= 0:
        raise InvalidInputError(f"'{name}' must not all be zero")
    return w / total


def format_p(p: float, /) -> str:
    """p as the front ends write it: ``inf``, or the shortest decimal (:func:`check_p` reads both).

    Examples
    --------
    >>> format_p(2.0), format_p(2.5), format_p(float("inf"))
    ('2', '2.5', 'inf')
    """
    return "inf" if np.isinf(p) else f"{p:g}"


def check_p(p, /, *, name: str = "p") -> float:
    """Return p as a float in [1, inf]; a string is read by :func:`~copa_dash.core.numbers.read_number`
    (so 'inf', 'infinity' and '∞' are accepted)."""
    try:
        p = read_number(p, p) if isinstance(p, str) else float(p)
        p = float(p)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'{name}' must be a number >= 1 or 'inf', not {p!r}") from None
    if np.isnan(p) or p < 1:
        raise InvalidInputError(f"'{name}' must be >= 1 (or 'inf'), but it is {p}")
    return p


def check_probability(value, /, *, name: str) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (a level: alpha, delta, confidence).

    Raises
    ------
    InvalidInputError
        If it is not a number, or not in (0, 1); the message names the argument.

    Examples
    --------
    >>> check_probability("0.05", name="alpha")
    0.05
    """
    value = _as_float(value, name, "a number in (0, 1)")
    if not 0.0 < value < 1.0:
        raise InvalidInputError(f"'{name}' must lie in (0, 1), but it is {value}")
    return value


def check_non_negative(value, /, *, name: str) -> float:
    """Return ``value`` as a finite float >= 0 (a budget, a margin, a noise level), else
    raise InvalidInputError naming the argument (``check_non_negative("0.5", name="margin")``
    is 0.5)."""
    out = _as_float(value, name, "a number")
    if not np.isfinite(out) or out < 0:
        raise InvalidInputError(f"'{name}' must be finite and >= 0, not {value!r}")
    return out


def _as_float(value, name: str, expected: str) -> float:
    """``float(value)``, or InvalidInputError "'name' must be <expected>, not <value>"."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'{name}' must be {expected}, not {value!r}") from None


def check_mask(mask, n_rows: int, /, *, name: str = "mask") -> np.ndarray:
    """Return a boolean row mask of length ``n_rows`` (None means all rows)."""
    if mask is None:
        return np.ones(n_rows, dtype=bool)
    arr = np.asarray(mask)
    if arr.dtype != bool:
        raise InvalidInputError(f"'{name}' must be a boolean array")
    arr = arr.reshape(-1)
    if arr.shape[0] != n_rows:
        raise InvalidInputError(
            f"'{name}' must have length {n_rows}, but it has length {arr.shape[0]}")
    return arr.copy()
