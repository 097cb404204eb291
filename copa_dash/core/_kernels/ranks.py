"""Compiled rank (empirical CDF) transform.

Inputs are validated by :mod:`copa_dash.core.ranks`; nothing here checks anything.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def cdf_columns(y, population):
    """Return u[i, k] = #{j in population : y[j, k] < y[i, k]} / N_pop[k].

    ``y`` is (N, K) contiguous float64 oriented to minimisation, ``population`` a bool
    vector of length N. NaN cells give NaN and are left out of their column's population.
    Every column must hold at least one population row with a value (the caller checks).

    One argsort per column, then a single pass over the sorted values in groups of
    equal values: O(N log N) per column.
    """
    n, k_count = y.shape
    u = np.empty((n, k_count), dtype=np.float64)
    values = np.empty(n, dtype=np.float64)
    rows = np.empty(n, dtype=np.int64)
    for k in range(k_count):
        m = 0
        n_pop = 0
        for i in range(n):
            v = y[i, k]
            if np.isnan(v):
                u[i, k] = np.nan
            else:
                values[m] = v
                rows[m] = i
                m += 1
                if population[i]:
                    n_pop += 1
        order = np.argsort(values[:m])
        below = 0  # population members strictly smaller than the current group
        start = 0
        while start < m:
            v = values[order[start]]
            stop = start
            in_group = 0
            while stop < m and values[order[stop]] == v:
                if population[rows[order[stop]]]:
                    in_group += 1
                stop += 1
            share = below / n_pop
            for t in range(start, stop):
                u[rows[order[t]], k] = share
            below += in_group
            start = stop
    return u
