"""Inner loops that several kernels share, written once as small compiled functions.

numba compiles each call site with the callee inlined by LLVM (they are tiny, and
``cache=True`` keeps their machine code with the caller's), so a kernel that calls them runs
as the hand-written loop did; ``benchmarks/bench_pareto.py --quick`` and the kernels'
benchmarks measure that (docs/benchmarks.md). The staircase search (``search_sorted``) and
the subset helpers take arrays or run in kernels that call them once or more per row: numba
inlines them in its own IR (``inline="always"``), so no call and no reference counting of
the arrays is left (``benchmarks/bench_kernel_ab.py`` compares them with the written-in
loops). Not here, measured: the staircase's splice (one helper call per array cost HV3D and
the 3-D layers 4 % of their CPU time against one loop over all arrays).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit


@njit(cache=True)
def row_le(a, i, b, j):
    """True when ``a[i, d] <= b[j, d]`` for every column d (stops at the first that is not)."""
    for d in range(a.shape[1]):
        if a[i, d] > b[j, d]:
            return False
    return True


@njit(cache=True)
def row_below(points, i, ref):
    """True when ``points[i, d] < ref[d]`` for every column d: row i strictly inside the
    reference point's box (a NaN is not inside)."""
    for d in range(points.shape[1]):
        if not points[i, d] < ref[d]:
            return False
    return True


@njit(cache=True)
def row_has_nan(values, i):
    """True when row ``i`` of ``values`` holds a NaN."""
    for d in range(values.shape[1]):
        if np.isnan(values[i, d]):
            return True
    return False


@njit(cache=True)
def tie_run_end(points, order, start, column):
    """End (exclusive) of the run of ``order`` from ``start`` whose rows share the value of
    ``points[order[start], column]``; ``order`` sorts that column."""
    n = order.shape[0]
    v = points[order[start], column]
    stop = start + 1
    while stop < n and points[order[stop], column] == v:
        stop += 1
    return stop


@njit(cache=True)
def rows_where(points, keep):
    """A new C-contiguous float64 array of the rows of ``points`` where ``keep`` is True, in
    their order (a reference point's inside rows, a front's rows)."""
    n, k = points.shape
    m = 0
    for i in range(n):
        m += keep[i]
    out = np.empty((m, k), dtype=np.float64)
    m = 0
    for i in range(n):
        if keep[i]:
            for d in range(k):
                out[m, d] = points[i, d]
            m += 1
    return out


@njit(cache=True)
def clamp_row(src, j, i, dst, m, k):
    """Write into ``dst[m, :k]`` row ``j`` of ``src`` clamped to row ``i`` (the larger value
    in each of the first ``k`` columns: the part of row i's box that row j also covers).

    Returns True when row j is <= row i in every one of those columns, so the clamp is row i
    itself (row j's box covers row i's whole box).
    """
    le = True
    for d in range(k):
        a = src[j, d]
        b = src[i, d]
        if a > b:
            le = False
            dst[m, d] = a
        else:
            dst[m, d] = b
    return le


@njit(cache=True, inline="always")
def search_sorted(a, lo, hi, value, right):
    """``lo + np.searchsorted(a[lo:hi], value, "right" if right else "left")`` for
    ``a[lo:hi]`` sorted increasing: the first index t in ``[lo, hi)`` with ``a[t] > value``
    (right) or ``a[t] >= value`` (left), ``hi`` when none. Callers pass ``right`` as a
    constant, which the compiler folds once this is inlined."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < value or (right and a[mid] == value):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def lowest_row(mask):
    """Index of the lowest set bit of ``mask`` > 0: the first row of the row set ``mask``
    (inclusion-exclusion over a few boxes, WFG's and QHV-II's)."""
    low = mask & -mask
    row = 0
    while (1 << row) != low:
        row += 1
    return row


@njit(cache=True, inline="always")
def odd_size(mask):
    """True when the row set ``mask`` has an odd number of rows: its inclusion-exclusion
    term is added, else subtracted. Branch-free: the parity of the bits, folded in halves."""
    mask ^= mask >> 32
    mask ^= mask >> 16
    mask ^= mask >> 8
    mask ^= mask >> 4
    mask ^= mask >> 2
    mask ^= mask >> 1
    return mask & 1 == 1
