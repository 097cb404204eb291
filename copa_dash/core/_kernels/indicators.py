"""Compiled kernels of the per-system indicators (METHODS.md, "Per-system indicators").

Every function takes C-contiguous float64 arrays oriented to minimisation and checks
nothing; :mod:`copa_dash.core.indicators` validates. Twins: ``_reference/indicators.py``.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit


@njit(cache=True)
def niche_counts(points, sigma):
    """Niche count of every row: the other rows closer than ``sigma`` (Euclidean).

    ``nc_i = #{x in X : ||x - x_i|| < sigma} - 1`` (utility-fairness paper, Eq. 4): the
    row itself is always within ``sigma`` and is not counted. O(N^2 K).
    """
    n, k = points.shape
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            d2 = 0.0
            for d in range(k):
                diff = points[i, d] - points[j, d]
                d2 += diff * diff
            if np.sqrt(d2) < sigma:
                counts[i] += 1
                counts[j] += 1
    return counts
