"""Compiled AHP priority vector (paper App. A, steps 2a-2c) without forming the matrix.

Inputs are validated by :mod:`copa_dash.core.baselines`; nothing here checks anything.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

_MAX_ITER = 10_000
_RTOL = 1e-14


@njit(cache=True)
def ahp_priorities(log_z):
    """Principal eigenvector, summing to 1, of App. A's pairwise matrix for one objective.

    ``log_z`` holds ln z of the max-normalised values (length n >= 1). The matrix is
    ``A_ij = 1 + 8 (l_i - l_j) / D`` when ``l_i >= l_j`` and ``1 / A_ji`` otherwise, with
    ``D = max l - min l`` (every entry 1 when D = 0, so the answer is uniform).

    Power iteration from the uniform vector: A is entry-wise positive, so its Perron root
    is simple and strictly dominant and the iteration converges (about 20 steps on real
    columns). Each product ``A x`` splits, in sorted order of l, into the part with
    ``l_j <= l_i``, ``(1 + c l_i) sum x_j - c sum l_j x_j`` with c = 8 / D (prefix sums,
    O(n)), and the reciprocal part, summed directly: O(n^2 / 2) per step, O(n) memory.
    """
    n = log_z.shape[0]
    out = np.full(n, 1.0 / n)
    lo = log_z.min()
    span = log_z.max() - lo
    if span == 0.0:
        return out
    c = 8.0 / span
    order = np.argsort(log_z, kind="mergesort")
    ls = np.empty(n)
    for t in range(n):
        ls[t] = log_z[order[t]] - lo
    # end[t]: one past the last position whose value equals ls[t] (ties share a group)
    end = np.empty(n, dtype=np.int64)
    t = n - 1
    while t >= 0:
        s = t
        while s > 0 and ls[s - 1] == ls[t]:
            s -= 1
        for r in range(s, t + 1):
            end[r] = t + 1
        t = s - 1
    x = np.full(n, 1.0 / n)
    y = np.empty(n)
    pre0 = np.empty(n + 1)
    pre1 = np.empty(n + 1)
    for _ in range(_MAX_ITER):
        pre0[0] = 0.0
        pre1[0] = 0.0
        for t in range(n):
            pre0[t + 1] = pre0[t] + x[t]
            pre1[t + 1] = pre1[t] + ls[t] * x[t]
        total = 0.0
        for t in range(n):
            e = end[t]
            acc = (1.0 + c * ls[t]) * pre0[e] - c * pre1[e]
            for j in range(e, n):
                acc += x[j] / (1.0 + c * (ls[j] - ls[t]))
            y[t] = acc
            total += acc
        diff = 0.0
        big = 0.0
        for t in range(n):
            y[t] /= total
            d = abs(y[t] - x[t])
            if d > diff:
                diff = d
            if y[t] > big:
                big = y[t]
            x[t] = y[t]
        if diff <= _RTOL * big:
            break
    for t in range(n):
        out[order[t]] = x[t]
    return out
