"""Compiled COPA criterion, selection and ranking.

Inputs are validated by :mod:`copa_dash.core.criteria`: ``u`` is (N, K) contiguous float64
with non-negative values or NaN, ``w`` non-negative float64 of length K, ``p`` a float in
[1, inf], ``eligible`` a bool vector of length N. Nothing here checks anything.

Ties. Two criterion values are tied when they agree to the relative tolerance ``TIE_RTOL``:
the band of a minimum ``c`` is ``[c, c * (1 + TIE_RTOL)]``. The selection rule is, in order:
the rows inside the band of the smallest C; of those, the rows inside the band of the
smallest C at ``p = TIEBREAK_P``; of those, the rows inside the band of the smallest sum of
u; of those, the first in table order. The tolerance absorbs rounding (a few ulp) so that
exactly tied rows computed along different float paths (the alpha sweep) stay tied.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .ties import TIE_RTOL, TIEBREAK_P


@njit(cache=True)
def row_criterion(u, i, w, p):
    """C of row i: ``(sum_k (w_k u_ik)^p)^(1/p)``, ``max_k w_k u_ik`` for p = inf; NaN if any u is.

    Computed as ``m * (sum_k (w_k u_ik / m)^p)^(1/p)`` with ``m = max_k w_k u_ik``, which
    neither underflows nor overflows for any p.
    """
    k_count = u.shape[1]
    m = 0.0
    for k in range(k_count):
        x = w[k] * u[i, k]
        if np.isnan(x):
            return np.nan
        if x > m:
            m = x
    if m == 0.0 or np.isinf(p):
        return m
    s = 0.0
    for k in range(k_count):
        s += (w[k] * u[i, k] / m) ** p
    return m * s ** (1.0 / p)


@njit(cache=True)
def row_sum(u, i):
    """Sum of u over the columns of row i, added left to right."""
    s = 0.0
    for k in range(u.shape[1]):
        s += u[i, k]
    return s


@njit(cache=True)
def copa_scores(u, w, p):
    """C of every row (NaN where the row has a NaN)."""
    n = u.shape[0]
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        out[i] = row_criterion(u, i, w, p)
    return out


@njit(cache=True)
def criteria_and_band_limit(u, rows, n_rows, w, p, out):
    """``out[t]`` = C of row ``rows[t]`` (:func:`row_criterion`) for t < n_rows; returns the
    limit of the tie band, the smallest of them times ``1 + TIE_RTOL`` (inf if none is finite)."""
    best = np.inf
    for t in range(n_rows):
        out[t] = row_criterion(u, rows[t], w, p)
        if out[t] < best:
            best = out[t]
    return best * (1.0 + TIE_RTOL)


@njit(cache=True)
def pick_from_band(u, w, rows, n_rows):
    """Position in ``rows[:n_rows]`` of the winner of the tie-breaks (C at p = 8, sum u, order).

    ``rows[:n_rows]`` are row indices already inside the band of the smallest C.
    """
    if n_rows == 1:
        return 0
    c8 = np.empty(n_rows, dtype=np.float64)
    limit8 = criteria_and_band_limit(u, rows, n_rows, w, TIEBREAK_P, c8)
    sums = np.full(n_rows, np.inf)
    best_sum = np.inf
    for t in range(n_rows):
        if c8[t] <= limit8:
            sums[t] = row_sum(u, rows[t])
            if sums[t] < best_sum:
                best_sum = sums[t]
    limit_sum = best_sum * (1.0 + TIE_RTOL)
    winner = -1
    for t in range(n_rows):
        if sums[t] <= limit_sum and (winner < 0 or rows[t] < rows[winner]):
            winner = t
    return winner


@njit(cache=True)
def copa_select(u, w, p, eligible):
    """Index of the selected row, or -1 when no eligible row has a finite C."""
    n = u.shape[0]
    c = np.full(n, np.nan)
    best = np.inf
    for i in range(n):
        if eligible[i]:
            c[i] = row_criterion(u, i, w, p)
            if c[i] < best:
                best = c[i]
    if best == np.inf:
        return -1
    limit = best * (1.0 + TIE_RTOL)
    band = np.empty(n, dtype=np.int64)
    n_band = 0
    for i in range(n):
        if c[i] <= limit:
            band[n_band] = i
            n_band += 1
    return band[pick_from_band(u, w, band, n_band)]


@njit(cache=True)
def copa_ranking(u, w, p, eligible):
    """Eligible rows with a finite C, best first: repeated selection among the rows left.

    Sorting by C makes the band of the current minimum a run of the sorted order, so the
    cost is O(N log N) plus the sizes of the tie bands (O(N^2) only if every row ties).
    """
    n = u.shape[0]
    c = np.empty(n, dtype=np.float64)
    valid = np.empty(n, dtype=np.int64)
    n_valid = 0
    for i in range(n):
        if eligible[i]:
            c[i] = row_criterion(u, i, w, p)
            if not np.isnan(c[i]):
                valid[n_valid] = i
                n_valid += 1
    valid = valid[:n_valid]
    order = valid[np.argsort(c[valid], kind="mergesort")]
    taken = np.zeros(n_valid, dtype=np.bool_)
    out = np.empty(n_valid, dtype=np.int64)
    band_rows = np.empty(n_valid, dtype=np.int64)
    band_pos = np.empty(n_valid, dtype=np.int64)
    first = 0
    for r in range(n_valid):
        while taken[first]:
            first += 1
        limit = c[order[first]] * (1.0 + TIE_RTOL)
        n_band = 0
        t = first
        while t < n_valid and c[order[t]] <= limit:
            if not taken[t]:
                band_rows[n_band] = order[t]
                band_pos[n_band] = t
                n_band += 1
            t += 1
        winner = pick_from_band(u, w, band_rows, n_band)
        taken[band_pos[winner]] = True
        out[r] = band_rows[winner]
    return out
