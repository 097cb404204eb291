"""Compiled rank (empirical CDF) transform.

Inputs are validated by :mod:`copa_dash.core.ranks`; nothing here checks anything.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit


@njit(cache=True)
def cdf_columns(y_t, order, population):
    """Return u[i, k] = #{j in population : y[j, k] < y[i, k]} / N_pop[k], shape (N, K).

    ``y_t`` is the (K, N) contiguous float64 transpose of the values oriented to
    minimisation, ``order[k]`` the ascending argsort of ``y_t[k]`` with NaN last (numpy's
    order), ``population`` a bool vector of length N. NaN cells give NaN and are left out
    of their column's population; every column must hold at least one population row with
    a value (the caller checks).

    One pass per column over the sorted order, in groups of equal values: a group shares
    the number of population members strictly below it. O(N) per column after the sort
    (numpy's SIMD argsort is several times faster than a compiled one, so the caller sorts).
    """
    k_count, n = y_t.shape
    u = np.empty((n, k_count), dtype=np.float64)
    for k in range(k_count):
        n_pop = 0
        for i in range(n):
            if population[i] and not np.isnan(y_t[k, i]):
                n_pop += 1
        below = 0  # population members strictly smaller than the current group
        start = 0
        while start < n:
            v = y_t[k, order[k, start]]
            if np.isnan(v):
                for t in range(start, n):
                    u[order[k, t], k] = np.nan
                break
            stop = start
            in_group = 0
            while stop < n and y_t[k, order[k, stop]] == v:
                if population[order[k, stop]]:
                    in_group += 1
                stop += 1
            share = below / n_pop
            for t in range(start, stop):
                u[order[k, t], k] = share
            below += in_group
            start = stop
    return u
