"""Compiled sorting for the Pareto kernels: a stable float argsort and lexicographic order.

numba's own ``np.argsort`` is several times slower than numpy's on large arrays, so
large inputs go through an LSD radix sort on the order-preserving integer image of the
floats (8-bit digits, passes whose digit is constant are skipped).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

RADIX_MIN_SIZE = 48


@njit(cache=True)
def radix_argsort(values):
    """Stable argsort of finite float64 ``values`` by LSD radix sort, O(8 N).

    Each float maps to a uint64 that sorts the same way (flip all bits of negatives,
    the sign bit of the others); -0.0 sorts just before 0.0, which compares equal.
    """
    n = values.shape[0]
    keys = np.empty(n, dtype=np.uint64)
    raw = values.copy().view(np.uint64)
    top = np.uint64(1) << np.uint64(63)
    for i in range(n):
        b = raw[i]
        keys[i] = ~b if b & top else b | top
    order = np.arange(n)
    keys_buffer = np.empty(n, dtype=np.uint64)
    order_buffer = np.empty(n, dtype=np.int64)
    count = np.empty(257, dtype=np.int64)
    digit_mask = np.uint64(255)
    for shift in range(0, 64, 8):
        s = np.uint64(shift)
        count[:] = 0
        for i in range(n):
            count[((keys[i] >> s) & digit_mask) + 1] += 1
        constant = False
        for d in range(1, 257):
            if count[d] == n:
                constant = True
                break
        if constant:
            continue
        for d in range(1, 257):
            count[d] += count[d - 1]
        for i in range(n):
            d = (keys[i] >> s) & digit_mask
            position = count[d]
            count[d] = position + 1
            keys_buffer[position] = keys[i]
            order_buffer[position] = order[i]
        keys, keys_buffer = keys_buffer, keys
        order, order_buffer = order_buffer, order
    return order


@njit(cache=True)
def insertion_argsort(values):
    """Stable argsort by insertion, O(N^2): for the few values below RADIX_MIN_SIZE."""
    n = values.shape[0]
    order = np.arange(n)
    for t in range(1, n):
        row = order[t]
        v = values[row]
        u = t
        while u > 0 and values[order[u - 1]] > v:
            order[u] = order[u - 1]
            u -= 1
        order[u] = row
    return order


@njit(cache=True)
def stable_argsort(values):
    """Stable argsort of finite float64 values (1-D, C-contiguous): insertion sort when
    tiny, else radix. Callers pass ``column.copy()`` so one compiled version serves."""
    if values.shape[0] < RADIX_MIN_SIZE:
        return insertion_argsort(values)
    return radix_argsort(values)


@njit(cache=True)
def merge_sort_rows(points, order, first_column):
    """Stable bottom-up merge sort of the row indices ``order`` by their values from
    column ``first_column`` on, compared lexicographically; returns a new array."""
    n = order.shape[0]
    k = points.shape[1]
    order = order.copy()
    buffer = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a = lo
            b = mid
            out = lo
            while a < mid and b < hi:
                take_b = False
                for d in range(first_column, k):
                    x = points[order[a], d]
                    y = points[order[b], d]
                    if x < y:
                        break
                    if y < x:
                        take_b = True
                        break
                if take_b:
                    buffer[out] = order[b]
                    b += 1
                else:
                    buffer[out] = order[a]
                    a += 1
                out += 1
            while a < mid:
                buffer[out] = order[a]
                a += 1
                out += 1
            while b < hi:
                buffer[out] = order[b]
                b += 1
                out += 1
        order, buffer = buffer, order
        width *= 2
    return order


@njit(cache=True)
def lexicographic_order(points):
    """Stable row order sorting ``points`` lexicographically (first column first).

    A stable argsort of the first column, then a merge sort of each run of ties by
    the other columns. Any row that dominates another comes before it. O(N log N).
    """
    n = points.shape[0]
    order = stable_argsort(points[:, 0].copy())
    start = 0
    while start < n:
        v = points[order[start], 0]
        stop = start + 1
        while stop < n and points[order[stop], 0] == v:
            stop += 1
        if stop - start > 1 and points.shape[1] > 1:
            order[start:stop] = merge_sort_rows(points, order[start:stop], 1)
        start = stop
    return order


@njit(cache=True)
def distinct_sorted_rows(points):
    """The distinct rows of ``points`` (N, K) in lexicographic order, and where each went.

    Returns ``(order, rows, distinct)``: ``order`` the stable lexicographic row order
    (:func:`lexicographic_order`), ``rows`` (m, K) the distinct rows in that order, the
    first copy of each kept, -0.0 stored as 0.0 (equal values, one bit pattern: the radix
    sort orders -0.0 before 0.0), and ``distinct[t]`` the index in ``rows`` of the sorted
    row ``points[order[t]]``. Shared by the layers' bitsets and the hypervolume's
    ``unique_front``. O(N log N + N K).
    """
    n, k = points.shape
    order = lexicographic_order(points)
    rows = np.empty((n, k), dtype=np.float64)
    distinct = np.empty(n, dtype=np.int64)
    m = 0
    for t in range(n):
        i = order[t]
        if m > 0:
            same = True
            for d in range(k):
                if points[i, d] != rows[m - 1, d]:
                    same = False
                    break
            if same:
                distinct[t] = m - 1
                continue
        for d in range(k):
            rows[m, d] = points[i, d] + 0.0  # -0.0 + 0.0 is 0.0
        distinct[t] = m
        m += 1
    return order, rows[:m], distinct
