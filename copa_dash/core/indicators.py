"""Per-system quality indicators and the radar chart area.

The framework of papers/utility-fairness-moo-evaluation.txt, Section III: every system
(a method owning many rows) is summarised by HV, ONVG, ONVG^, ONVGR, UD_bar and OS on
objectives normalised over all systems' rows, and by the area of its radar polygon.
Formulas and decided choices: METHODS.md, "Per-system indicators and radar".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._kernels import indicators as _kernels
from .dominance import nondominated_mask
from .errors import InvalidInputError
from .hypervolume import hypervolume, hypervolume_auto
from .ranks import cdf_transform
from .validate import as_points, check_mask, oriented_points

__all__ = [
    "RADAR_AXES",
    "UNDEFINED_KINDS",
    "SystemIndicators",
    "Undefined",
    "normalized_objectives",
    "radar_area",
    "system_indicators",
]

RADAR_AXES = ("hv", "onvg_hat", "onvgr", "ud_bar", "os")
"""Radar axes in the paper's order (Fig. 9): convergence-diversity, capacity, diversity."""

NORMALIZATIONS = ("minmax", "cdf")


# the values of every system, each NaN with a reason where it is undefined
_INDICATORS = ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area")

UNDEFINED_KINDS = ("no_rows", "few_front_points", "flat_objective")
"""Every :attr:`Undefined.kind`, the cases in which an indicator has no value."""


@dataclass(frozen=True)
class Undefined:
    """Why one indicator of one system has no value: a kind and the numbers behind it.

    The core gives no sentence: objectives are column positions here, and only a caller
    that knows their names can say which one is meant
    (:func:`copa_dash.services.systems.undefined_words`).

    Attributes
    ----------
    kind : str
        One of :data:`UNDEFINED_KINDS`: ``"no_rows"``, the system has no used row;
        ``"few_front_points"``, UD_bar and OS need at least 2 points on the system's own
        front and it has ``n_front``; ``"flat_objective"``, the front of all systems has
        a single value in the objectives ``objectives``, so OS divides by a zero span.
    n_front : int
        Points on the system's own front (``"few_front_points"``; 0 otherwise).
    objectives : tuple of int
        0-based column positions of the flat objectives (``"flat_objective"``; empty
        otherwise), in column order.

    Examples
    --------
    >>> Undefined("flat_objective", objectives=(2,)).objectives
    (2,)
    """

    kind: str
    n_front: int = 0
    objectives: tuple = ()


@dataclass(frozen=True)
class SystemIndicators:
    """Indicators of ``n_systems`` systems; arrays are indexed by system.

    Attributes
    ----------
    hv, onvg, onvg_hat, onvgr, ud_bar, os, area : ndarray, shape (S,)
        The indicators (``onvg`` counts as floats); NaN where undefined.
    reasons : tuple of dict
        ``reasons[s][name]``, an :class:`Undefined`, says why indicator ``name`` of
        system ``s`` is NaN.
    front_mask : ndarray of bool, shape (N,)
        Rows on their own system's front X = ND(S).
    global_front_mask : ndarray of bool, shape (N,)
        Rows on the front P of all used rows.
    normalized : ndarray, shape (N, K)
        The normalised, min-oriented objectives (NaN for unused rows); r = 1.
    normalize : str
        ``"minmax"`` or ``"cdf"``.
    sigma : float
        Niche radius of UD.
    hv_ci_low, hv_ci_high : ndarray, shape (S,)
        95% interval of ``hv``: equal to ``hv`` where it is exact, the Monte-Carlo
        interval where ``hv_samples > 0``.
    hv_samples : ndarray of int, shape (S,)
        0 where ``hv`` is exact, else the number of Monte-Carlo samples behind it.
    """

    hv: np.ndarray
    onvg: np.ndarray
    onvg_hat: np.ndarray
    onvgr: np.ndarray
    ud_bar: np.ndarray
    os: np.ndarray
    area: np.ndarray
    reasons: tuple
    front_mask: np.ndarray
    global_front_mask: np.ndarray
    normalized: np.ndarray
    normalize: str
    sigma: float
    hv_ci_low: np.ndarray = field(default=None)
    hv_ci_high: np.ndarray = field(default=None)
    hv_samples: np.ndarray = field(default=None)

    def hv_is_estimate(self, system: int, /) -> bool:
        """True when ``hv[system]`` is a Monte-Carlo estimate, not the exact volume."""
        return self.hv_samples is not None and bool(self.hv_samples[system] > 0)

    def radar_values(self, system: int, /) -> np.ndarray:
        """The five radar values of ``system`` in :data:`RADAR_AXES` order (NaN kept)."""
        return np.array([getattr(self, name)[system] for name in RADAR_AXES])

    def reason(self, system: int, name: str, /) -> Undefined | None:
        """Why indicator ``name`` of ``system`` is undefined, or None when it is defined."""
        return self.reasons[system].get(name)


def normalized_objectives(points, /, directions=None, *, normalize: str = "minmax",
                          rows=None) -> np.ndarray:
    """Objectives oriented to minimisation and scaled to [0, 1] over the chosen rows.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Objective values.
    directions : None, "min", "max" or sequence of them, optional
        Per-column direction; None minimises every column.
    normalize : {"minmax", "cdf"}
        ``"minmax"``: ``(y' - min) / (max - min)`` per column, so the ideal maps to 0 and
        the nadir to 1 (a constant column maps to 0). ``"cdf"``: COPA's
        ``u = #{j : y'_j < y'_i} / N`` (:func:`copa_dash.core.ranks.cdf_transform`).
    rows : bool array_like, shape (N,), optional
        Rows that define the scale (default: all); the other rows come back as NaN.

    Returns
    -------
    ndarray, shape (N, K)
        Values in [0, 1], 0 the best; NaN in the rows outside ``rows``.

    Raises
    ------
    InvalidInputError
        Bad ``points``, ``directions`` or ``normalize``, or no row selected.

    Examples
    --------
    Each column's best value maps to 0 and its worst to 1, whatever its direction:

    >>> normalized_objectives([[1.0, 10.0], [3.0, 30.0], [2.0, 20.0]], ["min", "max"])
    array([[0. , 1. ],
           [1. , 0. ],
           [0.5, 0.5]])
    """
    y = oriented_points(points, directions)
    if normalize not in NORMALIZATIONS:
        raise InvalidInputError(
            f"'normalize' must be one of {NORMALIZATIONS}, but it is {normalize!r}")
    used = check_mask(rows, y.shape[0], name="rows")
    if not used.any():
        raise InvalidInputError("'points' must have at least one row to normalise over")
    out = np.full(y.shape, np.nan)
    sub = y[used]
    if normalize == "cdf":
        out[used] = cdf_transform(sub)
    else:
        low, span = sub.min(axis=0), np.ptp(sub, axis=0)
        out[used] = np.where(span > 0, (sub - low) / np.where(span > 0, span, 1.0), 0.0)
    return out


def _check_system_index(system_index, n_rows: int, n_systems) -> tuple[np.ndarray, int]:
    if isinstance(n_systems, bool) or not isinstance(n_systems, (int, np.integer)) \
            or n_systems < 1:
        raise InvalidInputError(f"'n_systems' must be a positive integer, not {n_systems!r}")
    idx = np.asarray(system_index)
    if idx.ndim != 1 or idx.shape[0] != n_rows:
        raise InvalidInputError(
            f"'system_index' must be a 1-D array of length {n_rows} (one system per row)")
    if idx.size and not np.issubdtype(idx.dtype, np.integer):
        raise InvalidInputError("'system_index' must hold integers")
    idx = idx.astype(np.int64)
    if idx.size and (idx.min() < -1 or idx.max() >= n_systems):
        raise InvalidInputError(
            f"'system_index' values must be in [-1, {n_systems - 1}] (-1: row not used)")
    if not (idx >= 0).any():
        raise InvalidInputError("'system_index' must assign at least one row to a system")
    return idx, int(n_systems)


def system_indicators(points, /, directions=None, *, system_index, n_systems,
                      normalize: str = "minmax", sigma: float = 0.1,
                      hv_budget_seconds: float | None = None) -> SystemIndicators:
    """HV, ONVG, ONVG^, ONVGR, UD_bar, OS and radar area of every system.

    Parameters
    ----------
    points : array_like, shape (N, K)
        Objective values of all systems' rows.
    directions : None, "min", "max" or sequence of them
        Per-column direction; None minimises every column.
    system_index : int array_like, shape (N,)
        System of each row, in ``0 .. n_systems - 1``; ``-1`` leaves a row out entirely.
    n_systems : int
        Number of systems (a system without rows gets NaN everywhere).
    normalize : {"minmax", "cdf"}
        Scale of the objectives, computed over all used rows (:func:`normalized_objectives`).
    sigma : float
        Niche radius of UD in normalised units (default 0.1), > 0.
    hv_budget_seconds : float, optional
        None (default): every system's HV is exact. A number: each system's HV is exact
        when :func:`copa_dash.core.hypervolume.hypervolume_auto`'s measured cost model
        predicts at most this many seconds for its front (then bit-identical to the
        exact value), else a seeded Monte-Carlo estimate (100,000 samples) with its 95%
        interval in ``hv_ci_low``/``hv_ci_high`` and ``hv_samples > 0``.

    Returns
    -------
    SystemIndicators

    Raises
    ------
    InvalidInputError
        Bad ``points``, ``directions``, ``system_index``, ``n_systems``, ``normalize`` or
        ``sigma``.

    Notes
    -----
    With z the normalised points, r = (1, ..., 1), X = ND(S) a system's own front and
    P = ND(all used rows) (paper Eqs. 2-9; METHODS.md):

    - ``hv`` = HV(X; r); points with some z_k = 1 add nothing (they do not strictly
      dominate r).
    - ``onvg`` = |X|, ``onvg_hat`` = |X| / max_s |X_s|, ``onvgr`` = |X| / |S|.
    - ``ud_bar`` = 1 - 1 / (1 + D_nc), D_nc the sample s.d. (denominator |X| - 1) of the
      niche counts ``nc_i = #{x in X : ||x - x_i|| < sigma} - 1``; needs |X| >= 2.
    - ``os`` = prod_k (max_X z_k - min_X z_k) / (max_P z_k - min_P z_k); needs |X| >= 2
      and P spread in every objective. It exceeds 1 when X reaches past P's nadir.
    - ``area`` = :func:`radar_area` of the five radar values, undefined ones as 0.

    Cost: the fronts O(N log N) for K <= 3; HV per system (exact, or bounded by
    ``hv_budget_seconds`` per system); UD O(|X|^2 K).

    Examples
    --------
    >>> res = system_indicators([[0, 4], [4, 0], [2, 2], [1, 3], [3, 3]], "min",
    ...                         system_index=[0, 0, 0, 1, 1], n_systems=2)
    >>> res.onvg.tolist(), res.onvgr.tolist(), res.onvg_hat.tolist()
    ([3.0, 1.0], [1.0, 0.5], [1.0, 0.3333333333333333])
    >>> float(res.hv[0]), res.reason(1, "os")
    (0.25, Undefined(kind='few_front_points', n_front=1, objectives=()))
    """
    raw = as_points(points)
    idx, n_systems = _check_system_index(system_index, raw.shape[0], n_systems)
    sigma = _check_sigma(sigma)
    used = idx >= 0
    z = normalized_objectives(raw, directions, normalize=normalize, rows=used)
    ref = np.ones(z.shape[1])

    global_front = np.zeros(raw.shape[0], dtype=bool)
    global_front[used] = nondominated_mask(z[used])
    span_p = np.ptp(z[global_front], axis=0)

    values = _no_values(n_systems)
    reasons = tuple({} for _ in range(n_systems))
    front_mask = np.zeros(raw.shape[0], dtype=bool)
    for s in range(n_systems):
        rows = np.flatnonzero(idx == s)
        if rows.size == 0:
            for name in _INDICATORS:
                reasons[s][name] = Undefined("no_rows")
            continue
        own_front = rows[nondominated_mask(z[rows])]
        front_mask[own_front] = True
        x = np.ascontiguousarray(z[own_front])
        _system_hv(values, s, x, ref, hv_budget_seconds)
        values["onvg"][s] = x.shape[0]
        values["onvgr"][s] = x.shape[0] / rows.size
        if x.shape[0] < 2:
            for name in ("ud_bar", "os"):
                reasons[s][name] = Undefined("few_front_points", n_front=int(x.shape[0]))
            continue
        _spread(values, reasons[s], s, x, sigma, span_p)

    _relative_and_area(values)
    return SystemIndicators(
        **values, reasons=reasons, front_mask=front_mask, global_front_mask=global_front,
        normalized=z, normalize=normalize, sigma=sigma)


def _check_sigma(sigma) -> float:
    try:
        sigma = float(sigma)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'sigma' must be a positive number, not {sigma!r}") from None
    if not (np.isfinite(sigma) and sigma > 0):
        raise InvalidInputError(f"'sigma' must be a positive number, not {sigma!r}")
    return sigma


def _no_values(n_systems: int) -> dict:
    """Every indicator NaN for every system (no HV samples) until computed."""
    values = {name: np.full(n_systems, np.nan)
              for name in (*_INDICATORS, "hv_ci_low", "hv_ci_high")}
    values["hv_samples"] = np.zeros(n_systems, dtype=np.int64)
    return values


def _spread(values: dict, reasons: dict, s: int, x, sigma: float, span_p) -> None:
    """UD-bar and OS of system ``s`` from its own front ``x`` (2 points or more), in place;
    OS left NaN with the reason where the front of all systems is flat in an objective."""
    nc = _kernels.niche_counts(x, sigma).astype(np.float64)
    d_nc = float(np.sqrt(np.sum((nc - nc.mean()) ** 2) / (x.shape[0] - 1)))
    values["ud_bar"][s] = 1.0 - 1.0 / (1.0 + d_nc)
    flat = np.flatnonzero(span_p <= 0)
    if flat.size:
        reasons["os"] = Undefined("flat_objective", objectives=tuple(int(k) for k in flat))
    else:
        values["os"][s] = float(np.prod(np.ptp(x, axis=0) / span_p))


def _relative_and_area(values: dict) -> None:
    """ONVG relative to the largest, and the radar area, of every system with rows, in place."""
    has_rows = ~np.isnan(values["onvg"])
    values["onvg_hat"][has_rows] = values["onvg"][has_rows] / values["onvg"][has_rows].max()
    for s in np.flatnonzero(has_rows):
        values["area"][s] = radar_area([values[name][s] for name in RADAR_AXES])


def _system_hv(values: dict, s: int, x: np.ndarray, ref: np.ndarray, budget) -> None:
    """Fill ``hv``, its interval and sample count of system ``s`` from its front ``x``."""
    if budget is None:
        value = low = high = hypervolume(x, ref)
        samples = 0
    else:
        # seeded per system: the same table shows the same estimate on every visit
        est = hypervolume_auto(x, ref, budget_seconds=budget, rng=s)
        value, low, high, samples = est.value, est.ci_low, est.ci_high, est.n_samples
    values["hv"][s], values["hv_ci_low"][s], values["hv_ci_high"][s] = value, low, high
    values["hv_samples"][s] = samples


def radar_area(values, /) -> float:
    """Area of a radar polygon relative to the regular polygon of radius 1.

    Parameters
    ----------
    values : array_like, shape (n,)
        Radii on n >= 3 equally spaced axes, in order (the paper's five: HV, ONVG^,
        ONVGR, UD_bar, OS). NaN (an undefined indicator) counts as 0.

    Returns
    -------
    float
        Surveyor's-formula area divided by ``(n/2) sin(2 pi / n)``: 1 for the ideal
        system (all radii 1), 0 when any two neighbouring radii are 0 everywhere.

    Raises
    ------
    InvalidInputError
        Fewer than 3 values, a negative or infinite value.

    Notes
    -----
    With radii r_i at angles 2 pi i / n the polygon's area is
    ``(1/2) sin(2 pi / n) sum_i r_i r_{i+1}`` (paper Eq. 10), so the normalised area is
    ``sum_i r_i r_{i+1} / n``. METHODS.md divides by the regular pentagon instead of the
    paper's min-max scaling over systems, so the area of one system does not depend on
    the others. O(n).

    Examples
    --------
    The paper's Fig. 13 table, System 1:

    >>> round(radar_area([0.75, 0.84, 0.48, 0.97, 0.003]), 2)
    0.3
    """
    r = np.array(values, dtype=np.float64).reshape(-1)
    if r.size < 3:
        raise InvalidInputError(f"'values' must have at least 3 axes, but it has {r.size}")
    r = np.nan_to_num(r, nan=0.0, posinf=np.inf, neginf=-np.inf)
    if not np.isfinite(r).all() or (r < 0).any():
        raise InvalidInputError("'values' must be non-negative and finite (NaN counts as 0)")
    return float(np.dot(r, np.roll(r, -1)) / r.size)
