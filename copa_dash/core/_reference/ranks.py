"""Reference twin of :mod:`copa_dash.core._kernels.ranks`: the definition, written as loops."""

from __future__ import annotations

import math

import numpy as np


def cdf_columns(y, population):
    """u[i, k] = #{j in population, y[j, k] not NaN : y[j, k] < y[i, k]} / N_pop[k]; O(N^2 K)."""
    y = np.asarray(y, dtype=np.float64)
    n, k_count = y.shape
    u = np.full((n, k_count), np.nan)
    for k in range(k_count):
        pop = [float(y[j, k]) for j in range(n) if population[j] and not math.isnan(y[j, k])]
        for i in range(n):
            if not math.isnan(y[i, k]):
                u[i, k] = sum(1 for v in pop if v < y[i, k]) / len(pop)
    return u
