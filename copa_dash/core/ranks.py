"""CDF (rank) transform of objective columns and the uncertainty of the estimate.

COPA (papers/copa-comparing-the-incomparable.txt, §3.1-3.2) replaces every objective by its
empirical CDF over a population of rows, so that ``u = 0.18`` reads "18% of the population is
strictly better". See METHODS.md, "COPA".
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from ._kernels import ranks as _kernels
from .errors import InvalidInputError
from .validate import check_mask, check_probability, oriented_points

__all__ = ["average_ranks", "cdf_transform", "dkw_epsilon", "rank_correlations", "u_interval",
           "u_standard_error"]


def cdf_transform(points, /, directions=None, *, population=None) -> np.ndarray:
    """Empirical CDF of every objective column (the rank transform of COPA, Eq. 9).

    Parameters
    ----------
    points : array_like, shape (N, K)
        Objective values, one row per model; NaN marks a missing value.
    directions : None, "min", "max" or sequence of them, optional
        Direction of each objective (None: all minimised). Columns to maximise are negated
        before ranking, so the best row always gets 0.
    population : bool array_like, shape (N,), optional
        Rows that make up the population the CDF is estimated on (default: all rows).
        Rows outside it still get a value, counted against the population.

    Returns
    -------
    ndarray, shape (N, K)
        ``u[i, k] = #{j in population : y'[j, k] < y'[i, k]} / N_pop[k]`` in [0, 1] (below
        1 for population rows; a row outside can be worse than all of it); NaN where
        ``points`` is NaN.

    Raises
    ------
    InvalidInputError
        If ``points`` is not a numeric 2-D array without infinities, ``directions`` or
        ``population`` is malformed, or a column has no value inside the population.

    Notes
    -----
    ``y'`` is the value oriented to minimisation. Tied rows share the smaller value (the
    strict ``<``), so ``u = (rankdata(y', method="min") - 1) / N`` when the population is
    every row. NaN cells are left out of their column's population, so ``N_pop`` is counted
    per column. The estimate is unbiased with variance ``u (1 - u) / N`` (Prop. 3.1).
    Complexity: one O(N log N) argsort per column, then one compiled O(N) pass.

    Examples
    --------
    >>> cdf_transform([[3.0, 0.9], [1.0, 0.5], [3.0, 0.7]], ["min", "max"])
    array([[0.33333333, 0.        ],
           [0.        , 0.66666667],
           [0.33333333, 0.33333333]])

    With the first two rows as the population, the third is counted against them only:

    >>> cdf_transform([[3.0, 0.9], [1.0, 0.5], [3.0, 0.7]], ["min", "max"],
    ...               population=[True, True, False])[2]
    array([0.5, 0.5])
    """
    y = oriented_points(points, directions, allow_nan=True, min_rows=1)
    mask = check_mask(population, y.shape[0], name="population")
    if not mask.any():
        raise InvalidInputError("'population' must select at least one row")
    counts = (~np.isnan(y[mask])).sum(axis=0)
    empty = np.flatnonzero(counts == 0)
    if empty.size:
        raise InvalidInputError(
            f"'points' column {int(empty[0])} has no value inside the population: "
            "every value there is missing (NaN)")
    y_t = np.ascontiguousarray(y.T)
    return _kernels.cdf_columns(y_t, np.argsort(y_t, axis=1), mask)


def u_standard_error(u, n_population) -> np.ndarray:
    """Standard error of the CDF estimate, ``sqrt(u (1 - u) / N)`` (Prop. 3.1).

    Parameters
    ----------
    u : array_like
        CDF values in [0, 1]; NaN is passed through.
    n_population : int or array_like of int
        Population size N, broadcastable against ``u`` (e.g. one size per column).

    Returns
    -------
    ndarray
        Standard errors, same shape as the broadcast of ``u`` and ``n_population``.

    Raises
    ------
    InvalidInputError
        If ``u`` lies outside [0, 1] or ``n_population`` is not a positive count.

    Notes
    -----
    ``N * u_hat`` is Binomial(N, u), so ``Var(u_hat) = u (1 - u) / N``; the plug-in uses
    the estimate itself. The largest value, ``0.5 / sqrt(N)``, is at the median.

    Examples
    --------
    >>> u_standard_error([0.0, 0.5, 0.9], 100)
    array([0.  , 0.05, 0.03])
    """
    arr = np.array(u, dtype=np.float64, copy=True)
    if ((arr < 0) | (arr > 1)).any():
        raise InvalidInputError("'u' must lie in [0, 1]")
    n = _population_sizes(n_population)
    try:
        return np.sqrt(arr * (1.0 - arr) / n)
    except ValueError as exc:
        raise InvalidInputError(f"'n_population' does not broadcast against 'u': {exc}") from None


def u_interval(u, n_population, *, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score confidence interval of each CDF value, inside [0, 1].

    Parameters
    ----------
    u : array_like
        CDF values in [0, 1]; NaN is passed through.
    n_population : int or array_like of int
        Population size N, broadcastable against ``u``.
    confidence : float, default 0.95
        Two-sided coverage, in (0, 1).

    Returns
    -------
    (low, high) : tuple of ndarray
        The bounds, same shape as the broadcast of ``u`` and ``n_population``.

    Raises
    ------
    InvalidInputError
        ``u`` outside [0, 1], ``n_population`` not a positive count, ``confidence`` not
        in (0, 1).

    Notes
    -----
    ``N u_hat`` is Binomial(N, u) (Prop. 3.1, METHODS.md "Uncertainty"). The interval is the
    set of u whose score test accepts u_hat, with z the normal quantile of the confidence:

        centre = (u_hat + z^2 / (2N)) / (1 + z^2 / N)
        half   = z / (1 + z^2 / N) * sqrt(u_hat (1 - u_hat) / N + z^2 / (4 N^2))

    Unlike the Wald interval ``u_hat +- z sqrt(u_hat (1 - u_hat) / N)``, which leaves [0, 1]
    on small tables (u = 1/3 of 3 rows: -0.20 to 0.87) and has zero width at u = 0, it stays
    inside [0, 1] by construction (the bounds are clipped only against rounding). O(size).

    Examples
    --------
    >>> low, high = u_interval([0.0, 1 / 3], 3)
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.0615], [0.5615, 0.7923])
    """
    arr = np.array(u, dtype=np.float64, copy=True)
    if ((arr < 0) | (arr > 1)).any():
        raise InvalidInputError("'u' must lie in [0, 1]")
    confidence = check_probability(confidence, name="confidence")
    n = _population_sizes(n_population)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    try:
        shrink = 1.0 + z * z / n
        centre = (arr + z * z / (2.0 * n)) / shrink
        half = z / shrink * np.sqrt(arr * (1.0 - arr) / n + z * z / (4.0 * n * n))
    except ValueError as exc:
        raise InvalidInputError(f"'n_population' does not broadcast against 'u': {exc}") from None
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def dkw_epsilon(n_population, *, delta: float = 0.05):
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz band of an empirical CDF.

    Parameters
    ----------
    n_population : int or array_like of int
        Population size N (positive).
    delta : float, default 0.05
        The band holds for every value at once with probability at least ``1 - delta``.

    Returns
    -------
    float or ndarray
        ``sqrt(ln(2 / delta) / (2 N))``; a float for a scalar N.

    Raises
    ------
    InvalidInputError
        If ``delta`` is not in (0, 1) or ``n_population`` is not a positive count.

    Notes
    -----
    DKW with Massart's constant: ``P(sup |F_hat - F| > eps) <= 2 exp(-2 N eps^2)``.

    Examples
    --------
    >>> round(dkw_epsilon(1000), 4)
    0.0429
    """
    delta = check_probability(delta, name="delta")
    n = _population_sizes(n_population)
    eps = np.sqrt(np.log(2.0 / delta) / (2.0 * n))
    return float(eps) if eps.ndim == 0 else eps


def _population_sizes(n_population) -> np.ndarray:
    try:
        n = np.array(n_population, dtype=np.float64, copy=True)
    except (TypeError, ValueError):
        raise InvalidInputError("'n_population' must be a positive count") from None
    if not np.isfinite(n).all() or (n < 1).any() or (n != np.round(n)).any():
        raise InvalidInputError("'n_population' must be a positive whole number")
    return n


def average_ranks(values, /) -> np.ndarray:
    """Ranks 1..N of each column of ``values``, tied values sharing their average rank.

    Parameters
    ----------
    values : array_like, shape (N,) or (N, K)
        Finite numbers (NaN is not ranked: leave such rows out first).

    Returns
    -------
    ndarray of float64, the shape of ``values``
        ``scipy.stats.rankdata(values, axis=0)`` (method "average"), without importing
        scipy.stats (about 1.5 CPU s), which the app needs nowhere else on a page's first
        view.

    Examples
    --------
    >>> average_ranks([3.0, 1.0, 3.0, 2.0]).tolist()
    [3.5, 1.0, 3.5, 2.0]
    """
    x = np.asarray(values, dtype=np.float64)
    columns = x.reshape(x.shape[0], -1)
    ranks = np.empty_like(columns)
    for k in range(columns.shape[1]):
        order = np.argsort(columns[:, k], kind="stable")
        ordered = columns[order, k]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        ends = np.r_[starts[1:], ordered.size]
        ranks[order, k] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks.reshape(x.shape)


def rank_correlations(matrix, /) -> np.ndarray:
    """Spearman's rho between every two columns of ``matrix``: Pearson's correlation of their
    average ranks (:func:`average_ranks`).

    Parameters
    ----------
    matrix : array_like, shape (N, K)
        Finite numbers, N >= 2.

    Returns
    -------
    ndarray, shape (K, K)
        rho in [-1, 1]; NaN in the rows and columns of a constant column (no order to
        compare).

    Examples
    --------
    >>> m = np.array([[1., 4, 1], [2, 3, 0], [3, 2, 1], [4, 1, 0]])
    >>> np.round(rank_correlations(m), 3).tolist()
    [[1.0, -1.0, -0.447], [-1.0, 1.0, 0.447], [-0.447, 0.447, 1.0]]
    """
    ranks = average_ranks(np.asarray(matrix, dtype=np.float64))
    ranks -= ranks.mean(axis=0)
    norms = np.sqrt((ranks ** 2).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (ranks.T @ ranks) / np.outer(norms, norms)
    return np.clip(rho, -1.0, 1.0)

