"""Benchmark views of a long table (method x task): per-task CCDF, scaled performance,
the Friedman test and the Nemenyi critical difference.

The input of every function is one metric as a matrix ``values[t, m]``: task ``t`` (a
block), method ``m``, NaN where the method has no result on the task. The paper's §5.4
(Fig. 8, B.7-B.9) compares AutoML frameworks on AMLB with two per-task normalisations:
the scaled performance of the benchmark's authors (``norm_k`` with a reference method) and
the complementary CDF ``1 - u`` over the methods on each task. Friedman and Nemenyi
(Demšar, JMLR 2006) rank the methods within each task and compare their mean ranks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .criteria import copa_scores
from .errors import InvalidInputError
from .ranks import cdf_transform
from .validate import as_points, check_p, check_probability

__all__ = [
    "FriedmanResult",
    "aggregate_over_tasks",
    "critical_difference_groups",
    "friedman_test",
    "nemenyi_critical_difference",
    "per_task_ccdf",
    "scaled_performance",
    "within_task_ranks",
]


def _scipy_stats():
    """``scipy.stats``, imported when a statistic below first needs it.

    Why not at the top: importing it (with scipy.spatial and scipy.special) costs about
    1.5 s of CPU, and this module is imported by the app's Rankings page, so every app,
    gunicorn worker and CLI start paid it for statistics most of them never compute.
    """
    from scipy import stats
    return stats


def _oriented(values, direction, name: str = "values") -> np.ndarray:
    y = as_points(values, name=name, allow_nan=True)
    if not isinstance(direction, str) or direction.lower() not in ("min", "max"):
        raise InvalidInputError(f"'direction' must be 'min' or 'max', not {direction!r}")
    return np.ascontiguousarray(-y if direction.lower() == "max" else y)


def per_task_ccdf(values, /, *, direction: str = "min") -> np.ndarray:
    """Complementary CDF ``1 - u`` of every method on every task (higher is better).

    Parameters
    ----------
    values : array_like, shape (T, M)
        One metric: row = task, column = method; NaN where a method has no result.
    direction : {"min", "max"}, default "min"
        Whether smaller or larger values of the metric are better.

    Returns
    -------
    ndarray, shape (T, M)
        ``1 - u[t, m]`` with ``u[t, m] = #{m' on task t : y'[t, m'] < y'[t, m]} / M_t`` and
        ``M_t`` the number of methods with a result on task ``t``. NaN where ``values`` is NaN.

    Raises
    ------
    InvalidInputError
        If ``values`` is not a numeric 2-D array without infinities or ``direction`` is
        not "min"/"max".

    Notes
    -----
    The paper's §5.4 (Fig. 8 bottom): the best method on a task gets 1, tied methods share
    the larger value, the worst gets ``1/M_t`` or more. Complexity O(T M log M).

    Examples
    --------
    >>> per_task_ccdf([[0.1, 0.3, 0.2], [5.0, 5.0, float("nan")]])
    array([[1.        , 0.33333333, 0.66666667],
           [1.        , 1.        ,        nan]])
    """
    y = _oriented(values, direction)
    out = np.full(y.shape, np.nan)
    present = ~np.isnan(y).all(axis=1)
    if present.any():
        u = cdf_transform(np.ascontiguousarray(y[present].T))  # methods are the rows
        out[present] = 1.0 - u.T
    return out


def scaled_performance(values, /, reference: int, *, direction: str = "min") -> np.ndarray:
    """AMLB's scaled performance: the reference method maps to 0, the task's best to 1.

    Parameters
    ----------
    values : array_like, shape (T, M)
        One metric: row = task, column = method; NaN where a method has no result.
    reference : int
        Column of the reference method (AMLB uses a random forest).
    direction : {"min", "max"}, default "min"

    Returns
    -------
    ndarray, shape (T, M)
        ``(y'_ref - y') / (y'_ref - y'_best)`` per task, ``y'`` oriented to minimisation and
        ``y'_best`` the task's minimum. Higher is better; worse than the reference is
        negative and unbounded below. NaN where the value or the reference's value is
        missing, or where the reference is itself the best on the task (0 / 0).

    Raises
    ------
    InvalidInputError
        If ``reference`` is not a column index, or ``values``/``direction`` are malformed.

    Notes
    -----
    This is ``1 - norm_k`` (paper Eq. 6) with the nadir replaced by the reference method, per
    task. Its outliers (a method far worse than the reference) are why the paper prefers the
    CCDF. Complexity O(T M).

    Examples
    --------
    >>> scaled_performance([[0.1, 0.3, 0.2]], 1)
    array([[1. , 0. , 0.5]])
    """
    y = _oriented(values, direction)
    n_methods = y.shape[1]
    if isinstance(reference, (bool, np.bool_)) or not isinstance(reference, (int, np.integer)) \
            or not 0 <= int(reference) < n_methods:
        raise InvalidInputError(
            f"'reference' must be a method index in [0, {n_methods - 1}], not {reference!r}")
    ref = y[:, int(reference)][:, None]
    with np.errstate(all="ignore"):
        best = np.nanmin(np.where(np.isnan(y).all(axis=1, keepdims=True), 0.0, y), axis=1,
                         keepdims=True)
        span = ref - best
        out = (ref - y) / span
    out[~np.isfinite(out) | (span == 0) | np.isnan(y) | np.isnan(ref)] = np.nan
    return out


def aggregate_over_tasks(values, /, *, direction: str = "min", p=2.0) -> np.ndarray:
    """One score per method over all tasks: COPA over the per-task u, as a power mean.

    Parameters
    ----------
    values : array_like, shape (T, M)
        One metric: row = task, column = method; NaN where a method has no result.
    direction : {"min", "max"}, default "min"
    p : float or "inf", default 2
        The COPA exponent (the paper's Fig. B.9 uses p = 2 and equal weights).

    Returns
    -------
    ndarray, shape (M,)
        ``(mean_t u_tm^p)^(1/p)`` (``max_t u_tm`` for p = inf) in [0, 1), smaller is better;
        a method without a result on a task counts as the worst there (u = 1), as AMLB
        imputes failures.

    Raises
    ------
    InvalidInputError
        If ``values`` or ``p`` are malformed, or no task has a result.

    Notes
    -----
    Tasks are the objectives: ``u_tm`` is the CDF of method m over the methods on task t.
    COPA with equal weights ``1/T`` gives ``C_m = T^(-1) (sum_t u_tm^p)^(1/p)``; this returns
    ``T^(1 - 1/p) C_m``, the same order, on the scale of u ("typically top x%").
    O(T M log M).

    Examples
    --------
    >>> aggregate_over_tasks([[0.1, 0.2], [0.3, 0.2]], p=1)
    array([0.25, 0.25])
    >>> aggregate_over_tasks([[0.1, 0.2], [0.3, float("nan")]], p="inf")
    array([0., 1.])
    """
    ccdf = per_task_ccdf(values, direction=direction)
    present = ~np.isnan(ccdf).all(axis=1)
    if not present.any():
        raise InvalidInputError("'values' has no result on any task")
    u = 1.0 - ccdf[present]
    u[np.isnan(u)] = 1.0
    n_tasks = u.shape[0]
    p = check_p(p)
    scores = copa_scores(np.ascontiguousarray(u.T), np.full(n_tasks, 1.0 / n_tasks), p=p)
    return scores * n_tasks ** (1.0 - 1.0 / p)   # 1 / inf = 0: the max of u


def within_task_ranks(values, /, *, direction: str = "min") -> np.ndarray:
    """Rank of every method within every complete task, 1 = best, ties get the average rank.

    Parameters
    ----------
    values : array_like, shape (T, M)
        Tasks with a missing value are not allowed here (drop them first).
    direction : {"min", "max"}, default "min"

    Returns
    -------
    ndarray, shape (T, M)
        Fractional ranks in [1, M] (``scipy.stats.rankdata(method="average")`` per row).

    Raises
    ------
    InvalidInputError
        If ``values`` holds NaN or infinities.

    Notes
    -----
    The ranks Friedman's test and the critical-difference diagram average. O(T M log M).

    Examples
    --------
    >>> within_task_ranks([[0.1, 0.3, 0.1]])
    array([[1.5, 3. , 1.5]])
    """
    y = _oriented(values, direction)
    if np.isnan(y).any():
        raise InvalidInputError("'values' must not contain missing (NaN) values: drop the tasks "
                                "where a method has no result")
    return _scipy_stats().rankdata(y, method="average", axis=1)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test of k methods on N tasks and the Iman-Davenport correction."""

    statistic: float            # chi-square statistic, tie-corrected
    pvalue: float               # chi-square with k - 1 degrees of freedom
    f_statistic: float          # Iman-Davenport F (inf when every task ranks alike)
    f_pvalue: float             # F with (k - 1, (k - 1)(N - 1)) degrees of freedom
    mean_ranks: np.ndarray      # (k,) mean within-task rank of each method, 1 = best
    n_tasks: int
    n_methods: int


def friedman_test(values, /, *, direction: str = "min") -> FriedmanResult:
    """Friedman's rank test that all methods perform alike over the tasks.

    Parameters
    ----------
    values : array_like, shape (N, k)
        One metric: row = task (block), column = method; no missing value.
    direction : {"min", "max"}, default "min"

    Returns
    -------
    FriedmanResult

    Raises
    ------
    InvalidInputError
        With fewer than 2 tasks or 3 methods, or NaN in ``values``.

    Notes
    -----
    With within-task ranks ``r_tj`` (average ranks for ties) and ``R_j`` their mean,
    ``chi2 = 12 N / (k (k + 1)) * (sum_j R_j^2 - k (k + 1)^2 / 4)``, divided by the tie
    correction ``1 - sum_t sum_g (g^3 - g) / (N k (k^2 - 1))`` over tie groups of size g
    (as ``scipy.stats.friedmanchisquare``); p from chi-square with k - 1 df. Iman and
    Davenport's ``F = (N - 1) chi2 / (N (k - 1) - chi2)`` with (k - 1, (k - 1)(N - 1)) df is
    less conservative (Demšar 2006, Eq. 3). O(N k log k).

    Examples
    --------
    >>> r = friedman_test([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    >>> r.mean_ranks, round(r.statistic, 3), round(r.pvalue, 4)
    (array([1.25, 2.  , 2.75]), 4.5, 0.1054)
    """
    ranks = within_task_ranks(values, direction=direction)
    n, k = ranks.shape
    if n < 2 or k < 3:
        raise InvalidInputError(
            f"the Friedman test needs at least 2 tasks and 3 methods with a result on every "
            f"task, but there are {n} tasks and {k} methods")
    mean_ranks = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(mean_ranks ** 2) - k * (k + 1) ** 2 / 4.0)
    ties = 0.0
    for row in ranks:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts ** 3 - counts))
    correction = 1.0 - ties / (n * k * (k * k - 1))
    chi2 = chi2 / correction if correction > 0 else 0.0
    pvalue = float(_scipy_stats().chi2.sf(chi2, k - 1))
    denominator = n * (k - 1) - chi2
    if denominator <= 0:
        f_stat, f_p = float("inf"), 0.0
    else:
        f_stat = (n - 1) * chi2 / denominator
        f_p = float(_scipy_stats().f.sf(f_stat, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(statistic=float(chi2), pvalue=pvalue, f_statistic=float(f_stat),
                          f_pvalue=f_p, mean_ranks=mean_ranks, n_tasks=n, n_methods=k)


def nemenyi_critical_difference(n_methods: int, n_tasks: int, /, *, alpha: float = 0.05) -> float:
    """The Nemenyi critical difference of mean ranks.

    Parameters
    ----------
    n_methods : int
        k >= 2 methods compared.
    n_tasks : int
        N >= 1 tasks (blocks) the mean ranks are taken over.
    alpha : float, default 0.05
        Family-wise significance level, in (0, 1).

    Returns
    -------
    float
        ``CD = q_alpha / sqrt(2) * sqrt(k (k + 1) / (6 N))``: two methods whose mean ranks
        differ by at least CD perform differently at level alpha.

    Raises
    ------
    InvalidInputError
        If k < 2, N < 1 or alpha is not in (0, 1).

    Notes
    -----
    ``q_alpha`` is the upper-alpha quantile of the studentized range of k means with infinite
    degrees of freedom (``scipy.stats.studentized_range``); ``q_alpha / sqrt(2)`` is Demšar's
    (2006) table (2.850 for k = 6 at alpha = 0.05). O(1) plus one quantile evaluation.

    Examples
    --------
    >>> round(nemenyi_critical_difference(6, 50), 4)
    1.0663
    """
    k, n = _count(n_methods, "n_methods", 2), _count(n_tasks, "n_tasks", 1)
    alpha = check_probability(alpha, name="alpha")
    q = float(_scipy_stats().studentized_range.ppf(1.0 - alpha, k, np.inf))
    return float(q / np.sqrt(2.0) * np.sqrt(k * (k + 1) / (6.0 * n)))


def _count(value, name: str, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or int(value) < minimum:
        raise InvalidInputError(f"'{name}' must be a whole number >= {minimum}, not {value!r}")
    return int(value)


def critical_difference_groups(mean_ranks, /, cd: float) -> list[tuple[int, ...]]:
    """Groups of methods whose mean ranks are all within less than ``cd`` of each other.

    Parameters
    ----------
    mean_ranks : array_like, shape (k,)
    cd : float
        The critical difference (> 0).

    Returns
    -------
    list of tuple of int
        Maximal runs of methods, in order of mean rank, whose largest and smallest mean
        ranks differ by less than ``cd`` (not significantly different by Nemenyi); runs of
        a single method and runs inside a longer one are left out. These are the bars of a
        critical-difference diagram. Each tuple lists method indices, best first.

    Raises
    ------
    InvalidInputError
        If ``cd`` is not positive or ``mean_ranks`` is not a finite vector.

    Notes
    -----
    Sort by mean rank; from each method extend right while the difference stays below
    ``cd``; keep runs not contained in the previous one. O(k log k + k^2) at worst.

    Examples
    --------
    >>> critical_difference_groups([1.0, 1.5, 3.0, 3.2], 1.0)
    [(0, 1), (2, 3)]
    """
    r = as_points(mean_ranks, name="mean_ranks")[:, 0]
    try:
        cd = float(cd)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'cd' must be a positive number, not {cd!r}") from None
    if not np.isfinite(cd) or cd <= 0:
        raise InvalidInputError(f"'cd' must be a positive number, but it is {cd}")
    order = np.argsort(r, kind="stable")
    sorted_r = r[order]
    groups, last_end = [], -1
    for start in range(len(order)):
        end = start
        while end + 1 < len(order) and sorted_r[end + 1] - sorted_r[start] < cd:
            end += 1
        if end > start and end > last_end:
            groups.append(tuple(int(i) for i in order[start:end + 1]))
            last_end = end
    return groups
