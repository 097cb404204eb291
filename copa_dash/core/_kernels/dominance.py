"""Compiled Pareto-dominance kernels: the non-dominated mask and non-dominated sorting.

Every function takes an (N, K) C-contiguous float64 array oriented to minimisation and
checks nothing; :mod:`copa_dash.core.dominance` validates. ``a`` dominates ``b`` iff
``a <= b`` everywhere and ``a < b`` somewhere; equal rows never dominate each other.

Strategy of :func:`nondominated_mask` (no single algorithm wins on every input):

1. A block-nested-loops (BNL) pass with a move-to-front window (the dominating row
   swaps with the first) of at most
   :func:`filter_capacity` rows. On random data few rows are non-dominated, the window never
   fills, and this pass alone gives the exact answer in about N * (a few comparisons).
2. When the window overflows, K <= 3 stops at once (the exact methods are cheap);
   K >= 4 keeps the full window and sets aside the rows it does not dominate, and
   gives up when most rows are set aside (a large front).
   Every discarded row is strictly dominated by a kept row (window or undecided), so the
   front of the kept rows is the front of all rows.
3. The kept rows go to an exact O(M log M) method: a sort and sweep for K = 2, a sort
   and a Fenwick tree of prefix minima for K = 3, and a k-d tree orthant query for
   K >= 4 (exact, output-sensitive, fast when the front is large).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .dominance_sorting import stable_argsort
from .dominance_tree import nondominated_mask_kdtree
from .loops import tie_run_end


@njit(cache=True)
def all_finite(points):
    """Return True when no cell of the 2-D array is NaN or infinite (one pass, no copy)."""
    n, k = points.shape
    for i in range(n):
        for d in range(k):
            v = points[i, d]
            if v - v != 0.0:
                return False
    return True


@njit(cache=True)
def dominates(a, b):
    """Return True when row ``a`` dominates row ``b`` (minimisation)."""
    strict = False
    for d in range(a.shape[0]):
        if a[d] > b[d]:
            return False
        if a[d] < b[d]:
            strict = True
    return strict


@njit(cache=True)
def bnl_filter(points, capacity, set_aside):
    """One BNL pass with a move-to-front (swap) window of at most ``capacity`` rows.

    Returns ``(kept, n_kept, exact)``: the first ``n_kept`` entries of ``kept`` are row
    indices whose front equals the front of all rows; ``exact`` is True when they are
    exactly the non-dominated rows (the window never overflowed). On overflow the pass
    stops at once (``set_aside`` False), or keeps going with the full window and sets
    aside the rows it does not dominate (``set_aside`` True) until most rows are set
    aside, a sign of a large front.
    """
    n, k = points.shape
    window = np.empty((capacity, k), dtype=np.float64)
    window_rows = np.empty(capacity, dtype=np.int64)
    beaten = np.zeros(capacity, dtype=np.bool_)
    undecided = np.empty(n, dtype=np.int64)
    n_window = 0
    n_undecided = 0
    full_since = -1
    for i in range(n):
        dominated = False
        n_beaten = 0
        for j in range(n_window):
            le = True  # window row <= row i
            ge = True  # window row >= row i
            for d in range(k):  # branch-free: cheaper than early exits on random data
                a = window[j, d]
                b = points[i, d]
                le &= a <= b
                ge &= a >= b
            if le and not ge:
                dominated = True
                if j > 0:  # bring the dominating row to the front (swap with the first)
                    window_rows[0], window_rows[j] = window_rows[j], window_rows[0]
                    for d in range(k):
                        window[0, d], window[j, d] = window[j, d], window[0, d]
                break
            if ge and not le:
                beaten[j] = True
                n_beaten += 1
        if dominated:
            continue
        if n_beaten > 0:
            kept = 0
            for j in range(n_window):
                if beaten[j]:
                    beaten[j] = False
                    continue
                if kept != j:
                    window_rows[kept] = window_rows[j]
                    for d in range(k):
                        window[kept, d] = window[j, d]
                kept += 1
            n_window = kept
        if n_window < capacity:
            window_rows[n_window] = i
            for d in range(k):
                window[n_window, d] = points[i, d]
            n_window += 1
            continue
        if full_since < 0:
            full_since = i
        seen = i - full_since + 1
        # A large front: most rows pass the window, so filtering costs more than it saves.
        if not set_aside or (2 * seen >= capacity and 3 * n_undecided >= seen):
            for t in range(i, n):
                undecided[n_undecided] = t
                n_undecided += 1
            break
        undecided[n_undecided] = i
        n_undecided += 1
    kept = np.empty(n_window + n_undecided, dtype=np.int64)
    kept[:n_window] = window_rows[:n_window]
    kept[n_window:] = undecided[:n_undecided]
    return kept, n_window + n_undecided, n_undecided == 0


@njit(cache=True)
def filter_capacity(n):
    """BNL window size for n rows: about 2 sqrt(n), within [32, 1024].

    Filling the window costs about capacity^2 / 2 comparisons, small next to the
    O(N log N) exact methods it may save; random data rarely has a front this large.
    """
    return min(1024, max(32, int(2.0 * np.sqrt(n))))


@njit(cache=True)
def sorted_runs_front_2d(points, order, c0, c1):
    """Front of the 2-D rows (columns ``c0``, ``c1``) given ``order`` sorting column c0.

    Rows with equal c0 form a run; the run's rows with its smallest c1 are on the front
    iff that value is below the smallest c1 of all earlier runs. O(N) after the sort.
    """
    n = order.shape[0]
    mask = np.zeros(points.shape[0], dtype=np.bool_)
    best_before = np.inf
    start = 0
    while start < n:
        v = points[order[start], c0]
        stop = start + 1
        run_best = points[order[start], c1]
        while stop < n and points[order[stop], c0] == v:
            run_best = min(run_best, points[order[stop], c1])
            stop += 1
        if run_best < best_before:
            for t in range(start, stop):
                if points[order[t], c1] == run_best:
                    mask[order[t]] = True
            best_before = run_best
        start = stop
    return mask


@njit(cache=True)
def nondominated_mask_1d(values):
    """Mask of the rows holding the smallest value (all ties are on the front)."""
    n = values.shape[0]
    mask = np.zeros(n, dtype=np.bool_)
    if n == 0:
        return mask
    best = values[0]
    for i in range(1, n):
        best = min(best, values[i])
    for i in range(n):
        mask[i] = values[i] == best
    return mask


@njit(cache=True)
def nondominated_mask_2d(points):
    """Exact front of 2-objective rows: sort by the first column and sweep, O(N log N)."""
    order = stable_argsort(points[:, 0].copy())
    return sorted_runs_front_2d(points, order, 0, 1)


@njit(cache=True)
def nondominated_mask_3d(points):
    """Exact front of 3-objective rows, O(N log N) (Kung, Luccio and Preparata 1975).

    Sweep the rows by the first column, in runs of equal values. A Fenwick tree indexed
    by the rank of the second column holds prefix minima of the third column over the
    earlier runs: a row is dominated by an earlier run iff the prefix minimum up to its
    rank is <= its third value. Rows of one run are compared in 2-D among themselves.
    """
    n = points.shape[0]
    mask = np.ones(n, dtype=np.bool_)
    order0 = stable_argsort(points[:, 0].copy())
    order1 = stable_argsort(points[:, 1].copy())
    rank = np.empty(n, dtype=np.int64)
    r = 0
    for t in range(n):
        if t > 0 and points[order1[t], 1] != points[order1[t - 1], 1]:
            r += 1
        rank[order1[t]] = r + 1  # Fenwick trees count from 1
    size = r + 1
    tree = np.full(size + 1, np.inf)
    start = 0
    while start < n:
        stop = tie_run_end(points, order0, start, 0)
        for t in range(start, stop):
            i = order0[t]
            best = np.inf
            j = rank[i]
            while j > 0:
                best = min(best, tree[j])
                j -= j & (-j)
            if best <= points[i, 2]:
                mask[i] = False
        if stop - start > 1:
            run = order0[start:stop].copy()
            sub = np.empty((stop - start, 2), dtype=np.float64)
            for t in range(stop - start):
                sub[t, 0] = points[run[t], 1]
                sub[t, 1] = points[run[t], 2]
            run_front = nondominated_mask_2d(sub)
            for t in range(stop - start):
                if not run_front[t]:
                    mask[run[t]] = False
        for t in range(start, stop):
            i = order0[t]
            value = points[i, 2]
            j = rank[i]
            while j <= size:
                tree[j] = min(tree[j], value)
                j += j & (-j)
        start = stop
    return mask


@njit(cache=True)
def nondominated_mask_exact(points):
    """Exact front by the number of objectives, without the BNL pre-filter."""
    k = points.shape[1]
    if k == 1:
        return nondominated_mask_1d(points[:, 0].copy())
    if k == 2:
        return nondominated_mask_2d(points)
    if k == 3:
        return nondominated_mask_3d(points)
    return nondominated_mask_kdtree(points)


@njit(cache=True)
def nondominated_mask(points):
    """Boolean mask of the non-dominated rows of ``points`` (N, K), min-oriented.

    BNL pre-filter, then an exact method on the rows it keeps (see the module notes).
    Callable from other compiled code.
    """
    return filtered_nondominated_mask(points, filter_capacity(points.shape[0]))


@njit(cache=True)
def filtered_nondominated_mask(points, capacity):
    """:func:`nondominated_mask` with a BNL window of ``capacity`` rows (>= 1)."""
    n, k = points.shape
    mask = np.zeros(n, dtype=np.bool_)
    if n == 0:
        return mask
    if k == 1:
        return nondominated_mask_1d(points[:, 0].copy())
    kept, n_kept, exact = bnl_filter(points, capacity, k >= 4)
    if exact:
        for t in range(n_kept):
            mask[kept[t]] = True
        return mask
    sub = np.empty((n_kept, k), dtype=np.float64)
    for t in range(n_kept):
        for d in range(k):
            sub[t, d] = points[kept[t], d]
    sub_mask = nondominated_mask_exact(sub)
    for t in range(n_kept):
        if sub_mask[t]:
            mask[kept[t]] = True
    return mask
