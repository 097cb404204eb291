"""Compiled alpha sweep: COPA's selection for every alpha of a grid in one pass.

Inputs are validated by :mod:`copa_dash.core.sweep`. ``u`` is (N, K) contiguous float64
(non-negative or NaN), ``in_focus`` a bool vector of length K, ``a[t]`` / ``b[t]`` the weight
of every focus / other objective at grid point t, ``p`` in [1, inf], ``eligible`` bool (N,).

Why it is fast. With the weights split into a focus part and a rest part, the criterion of a
row only depends on alpha through (a, b):

    C^p = a^p S_F + b^p S_R,   S_F = sum_{k in F} u_k^p,  S_R = sum_{k not in F} u_k^p
    C   = max(a M_F, b M_R)    for p = inf,  M_F = max_{k in F} u_k,  M_R likewise,

and the first tie-break, C at p = 8, likewise through (S8_F, S8_R). Each row is reduced to
five numbers: key1 = (S_F, S_R) (or (M_F, M_R)), key2 = (S8_F, S8_R) and the sum of u. Row j
*beats* row i when j is no larger in all five and, in addition, either j comes first in the
table or its sum of u is smaller beyond the tie tolerance. Every float operation of the scan
is monotone in these numbers, so a beaten row can never be selected and never changes which
row is: C_j <= C_i, C8_j <= C8_i puts j in every tie band that i is in, and then j wins the
sum-of-u or the table-order break. Only the rows that no row beats are scanned; on real
tables that is a few dozen of thousands, and each costs three flops per alpha.

Exactness. The scan applies the selection rule of :mod:`copa_dash.core._kernels.criteria`
(bands of relative width TIE_RTOL on C, on C at p = 8 and on the sum of u, then table order),
evaluated on the reduced form. It agrees with the direct evaluation up to rounding, which the
tolerance absorbs. When ``(w u)^q`` could underflow (q = max(p, 8) large or values tiny), the
reduced sums would lose rows to zero, so the kernel scans with the direct, rescaled criterion
instead (slower, same rule, same pruning done on logarithms).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .criteria import (
    TIE_RTOL,
    TIEBREAK_P,
    criteria_and_band_limit,
    pick_from_band,
    row_sum,
)
from .loops import row_has_nan, row_le

# (w u)^q above exp(-600) ~ 1e-261 leaves a wide margin above the subnormal range (1e-308).
_LOG_SAFE = -600.0


@njit(cache=True)
def _group_power_sum(u, i, in_focus, focus_side, q):
    """sum_{k in side} u_ik^q (the max for q = inf), added left to right."""
    s = 0.0
    for k in range(u.shape[1]):
        if in_focus[k] == focus_side:
            x = u[i, k]
            if np.isinf(q):
                if x > s:
                    s = x
            else:
                s += x ** q
    return s


@njit(cache=True)
def _group_log_power_sum(u, i, in_focus, focus_side, q):
    """ln sum_{k in side} u_ik^q (ln max for q = inf) without underflow; -inf for all zeros."""
    m = 0.0
    for k in range(u.shape[1]):
        if in_focus[k] == focus_side and u[i, k] > m:
            m = u[i, k]
    if m == 0.0:
        return -np.inf
    if np.isinf(q):
        return np.log(m)
    s = 0.0
    for k in range(u.shape[1]):
        if in_focus[k] == focus_side:
            s += (u[i, k] / m) ** q
    return q * np.log(m) + np.log(s)


@njit(cache=True)
def _usable_rows(u, eligible):
    n = u.shape[0]
    rows = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(n):
        if eligible[i] and not row_has_nan(u, i):
            rows[count] = i
            count += 1
    return rows[:count]


@njit(cache=True)
def _fast_path_is_safe(u, rows, a, b, p):
    """True when no term (w u)^q, q = max(p, 8), can fall near the subnormal range."""
    u_min = np.inf
    for i in rows:
        for k in range(u.shape[1]):
            if 0.0 < u[i, k] < u_min:
                u_min = u[i, k]
    w_min = np.inf
    for t in range(a.shape[0]):
        if 0.0 < a[t] < w_min:
            w_min = a[t]
        if 0.0 < b[t] < w_min:
            w_min = b[t]
    if u_min == np.inf or w_min == np.inf:
        return True
    q = TIEBREAK_P if np.isinf(p) else max(p, TIEBREAK_P)
    return q * np.log(w_min * u_min) > _LOG_SAFE


@njit(cache=True)
def _unbeaten(keys, sums, rows):
    """Positions (into ``rows``) of the rows that no other row beats (see module docstring).

    Sorting by (keys..., sum, index) puts every row after all rows that beat it, so one
    pass that compares each row with the survivors so far is enough (beating is
    transitive). O(R log R + R * survivors).
    """
    r_count = rows.shape[0]
    order = np.argsort(rows, kind="mergesort")
    order = order[np.argsort(sums[order], kind="mergesort")]
    for c in range(keys.shape[1] - 1, -1, -1):
        order = order[np.argsort(keys[order, c], kind="mergesort")]
    kept = np.empty(r_count, dtype=np.int64)
    n_kept = 0
    for i in order:
        beaten = False
        for s in range(n_kept):
            j = kept[s]
            if sums[j] > sums[i]:
                continue
            if not (sums[j] * (1.0 + TIE_RTOL) < sums[i] or rows[j] < rows[i]):
                continue
            if row_le(keys, j, keys, i):
                beaten = True
                break
        if not beaten:
            kept[n_kept] = i
            n_kept += 1
    return kept[:n_kept]


@njit(cache=True)
def _collect_band(values, limit, out):
    """Write the positions s with values[s] <= limit into ``out``; return how many."""
    count = 0
    for s in range(values.shape[0]):
        if values[s] <= limit:
            out[count] = s
            count += 1
    return count


@njit(cache=True)
def alpha_sweep_select(u, in_focus, a, b, p, eligible):
    """Selected row for every grid point (all -1 when no eligible row is free of NaN)."""
    n_alphas = a.shape[0]
    selected = np.full(n_alphas, -1, dtype=np.int64)
    rows = _usable_rows(u, eligible)
    r_count = rows.shape[0]
    if r_count == 0:
        return selected
    fast = _fast_path_is_safe(u, rows, a, b, p)
    keys = np.empty((r_count, 4), dtype=np.float64)
    sums = np.empty(r_count, dtype=np.float64)
    for s in range(r_count):
        i = rows[s]
        sums[s] = row_sum(u, i)
        if fast:
            keys[s, 0] = _group_power_sum(u, i, in_focus, True, p)
            keys[s, 1] = _group_power_sum(u, i, in_focus, False, p)
            keys[s, 2] = _group_power_sum(u, i, in_focus, True, TIEBREAK_P)
            keys[s, 3] = _group_power_sum(u, i, in_focus, False, TIEBREAK_P)
        else:
            keys[s, 0] = _group_log_power_sum(u, i, in_focus, True, p)
            keys[s, 1] = _group_log_power_sum(u, i, in_focus, False, p)
            keys[s, 2] = _group_log_power_sum(u, i, in_focus, True, TIEBREAK_P)
            keys[s, 3] = _group_log_power_sum(u, i, in_focus, False, TIEBREAK_P)
    cand = _unbeaten(keys, sums, rows)
    c_count = cand.shape[0]
    if fast:
        _scan_reduced(keys, sums, rows, cand, a, b, p, selected)
    else:
        cand_rows = np.empty(c_count, dtype=np.int64)
        for s in range(c_count):
            cand_rows[s] = rows[cand[s]]
        _scan_direct(u, in_focus, cand_rows, a, b, p, selected)
    return selected


@njit(cache=True)
def _scan_reduced(keys, sums, rows, cand, a, b, p, selected):
    c_count = cand.shape[0]
    k1f = np.empty(c_count)
    k1r = np.empty(c_count)
    k2f = np.empty(c_count)
    k2r = np.empty(c_count)
    cs = np.empty(c_count)
    ci = np.empty(c_count, dtype=np.int64)
    for s in range(c_count):
        k1f[s] = keys[cand[s], 0]
        k1r[s] = keys[cand[s], 1]
        k2f[s] = keys[cand[s], 2]
        k2r[s] = keys[cand[s], 3]
        cs[s] = sums[cand[s]]
        ci[s] = rows[cand[s]]
    infinite = np.isinf(p)
    grow1 = 1.0 + TIE_RTOL if infinite else np.exp(p * np.log1p(TIE_RTOL))
    grow2 = np.exp(TIEBREAK_P * np.log1p(TIE_RTOL))
    values = np.empty(c_count)
    band = np.empty(c_count, dtype=np.int64)
    v2 = np.empty(c_count)
    for t in range(a.shape[0]):
        if infinite:
            wa = a[t]
            wb = b[t]
        else:
            wa = a[t] ** p
            wb = b[t] ** p
        best = np.inf
        for s in range(c_count):
            if infinite:
                x = wa * k1f[s]
                y = wb * k1r[s]
                v = x if x > y else y
            else:
                v = wa * k1f[s] + wb * k1r[s]
            values[s] = v
            if v < best:
                best = v
        n_band = _collect_band(values, best * grow1, band)
        if n_band == 1:
            selected[t] = ci[band[0]]
            continue
        wa8 = a[t] ** TIEBREAK_P
        wb8 = b[t] ** TIEBREAK_P
        best2 = np.inf
        for m in range(n_band):
            s = band[m]
            v2[m] = wa8 * k2f[s] + wb8 * k2r[s]
            if v2[m] < best2:
                best2 = v2[m]
        limit2 = best2 * grow2
        best3 = np.inf
        for m in range(n_band):
            if v2[m] <= limit2 and cs[band[m]] < best3:
                best3 = cs[band[m]]
        limit3 = best3 * (1.0 + TIE_RTOL)
        winner = -1
        for m in range(n_band):
            s = band[m]
            if v2[m] <= limit2 and cs[s] <= limit3 and (winner < 0 or ci[s] < winner):
                winner = ci[s]
        selected[t] = winner


@njit(cache=True)
def _scan_direct(u, in_focus, cand_rows, a, b, p, selected):
    c_count = cand_rows.shape[0]
    k_count = u.shape[1]
    w = np.empty(k_count)
    c = np.empty(c_count)
    band = np.empty(c_count, dtype=np.int64)
    for t in range(a.shape[0]):
        for k in range(k_count):
            w[k] = a[t] if in_focus[k] else b[t]
        limit = criteria_and_band_limit(u, cand_rows, c_count, w, p, c)
        n_band = 0
        for s in range(c_count):
            if c[s] <= limit:
                band[n_band] = cand_rows[s]
                n_band += 1
        selected[t] = band[pick_from_band(u, w, band, n_band)]
