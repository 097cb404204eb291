"""Compiled hypervolume kernels: exact 2-D, 3-D and any-K, and the Monte-Carlo count.

Inputs are C-contiguous float64, oriented to minimisation, with a reference point ``ref``
of matching length; :mod:`copa_dash.core.hypervolume` validates. Rows that do not
strictly dominate ``ref`` (some coordinate >= ref) add nothing and are skipped, so the
kernels can be called on any rows from other compiled code.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .dominance import nondominated_mask
from .dominance_sorting import distinct_sorted_rows, stable_argsort
from .dominance_tree import build_kdtree, orthant_has_other
from .loops import clamp_row, row_below, rows_where, search_sorted


@njit(cache=True)
def inside_rows(points, ref):
    """Copy of the rows that strictly dominate ``ref`` (every coordinate below it)."""
    n = points.shape[0]
    keep = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        keep[i] = row_below(points, i, ref)
    return rows_where(points, keep)


@njit(cache=True)
def hv2d(points, ref):
    """Exact 2-D hypervolume: sort by the first objective and sweep, O(N log N).

    Each row, in increasing first value, adds the strip ``(r0 - x) * (y_best - y)``
    when its second value beats the best so far. Rows in any order; duplicates,
    dominated rows and rows outside the reference box are fine.
    """
    order = stable_argsort(points[:, 0].copy())
    best = ref[1]
    volume = 0.0
    for t in range(order.shape[0]):
        i = order[t]
        x = points[i, 0]
        y = points[i, 1]
        if x < ref[0] and y < best:
            volume += (ref[0] - x) * (best - y)
            best = y
    return volume


@njit(cache=True)
def staircase_insert(xs, ys, m, x, y, r0, r1):
    """Add (x, y) to the 2-D staircase ``xs[:m]`` (increasing), ``ys[:m]`` (decreasing).

    Returns ``(m, gain)``: the new length and the area the row adds inside
    ``[., r0] x [., r1]``. The arrays must have room for one more stair.
    """
    s = search_sorted(xs, 0, m, x, False)  # first stair with xs >= x
    if s > 0 and ys[s - 1] <= y:
        return m, 0.0
    if s < m and xs[s] == x and ys[s] <= y:
        return m, 0.0
    height = ys[s - 1] if s > 0 else r1
    left = x
    gain = 0.0
    e = s
    while e < m and ys[e] >= y:  # stairs the new row covers
        gain += (xs[e] - left) * (height - y)
        left = xs[e]
        height = ys[e]
        e += 1
    right = xs[e] if e < m else r0
    gain += (right - left) * (height - y)
    # the splice stairs[s:e] = [row], one loop over both arrays (see _ens_layers_3d)
    removed = e - s
    if removed == 0:
        for u in range(m, s, -1):
            xs[u] = xs[u - 1]
            ys[u] = ys[u - 1]
    elif removed > 1:
        for u in range(s + 1, m - removed + 1):
            xs[u] = xs[u + removed - 1]
            ys[u] = ys[u + removed - 1]
    xs[s] = x
    ys[s] = y
    return m + 1 - removed, gain


@njit(cache=True)
def hv3d(points, ref):
    """Exact 3-D hypervolume by a sweep on the third objective (HV3D, Beume et al. 2009).

    Rows are added in increasing z to a 2-D staircase of (x, y), kept as arrays sorted
    by x (and so by decreasing y). A new row either is covered (its predecessor is <=
    it) or replaces the contiguous run of stairs it covers, and the covered area grows
    by exactly what it adds; the volume accumulates area times the gap to the next z.
    O(N log N) searches plus staircase shifts (memmoves), O(N^2) in the worst case.
    """
    n = points.shape[0]
    order = stable_argsort(points[:, 2].copy())
    xs = np.empty(n + 1, dtype=np.float64)
    ys = np.empty(n + 1, dtype=np.float64)
    m = 0
    area = 0.0
    volume = 0.0
    for t in range(n):
        i = order[t]
        z = points[i, 2]
        if z >= ref[2]:
            break
        if points[i, 0] < ref[0] and points[i, 1] < ref[1]:
            m, gain = staircase_insert(xs, ys, m, points[i, 0], points[i, 1], ref[0], ref[1])
            area += gain
        z_next = points[order[t + 1], 2] if t + 1 < n else ref[2]
        z_next = min(z_next, ref[2])
        volume += area * (z_next - z)
    return volume


@njit(cache=True)
def unique_front(points):
    """The non-dominated rows with duplicates dropped (duplicates add no volume)."""
    front = rows_where(points, nondominated_mask(points))
    if front.shape[0] < 2:
        return front
    return distinct_sorted_rows(front)[1]


@njit(cache=True)
def box_volume(rows, row, k, ref):
    """Volume of the box between ``rows[row, :k]`` and ``ref[:k]`` (product of the gaps).

    The one box-volume loop of the exact kernels (:func:`hv_slices` and the WFG kernel
    of :mod:`.hypervolume_wfg`, which passes a frame row and the current depth ``k``).
    """
    volume = 1.0
    for d in range(k):
        volume *= ref[d] - rows[row, d]
    return volume


@njit(cache=True)
def hv_slices(points, ref):
    """Exact hypervolume for any K >= 1 (rows inside the box, unique, non-dominated).

    WFG-style (While, Bradstreet and Barone 2012, IEEE TEVC 16(1)) exclusive volumes on
    slices of the last objective: with rows sorted by it, ``HV = sum_i (r_K - z_i) *
    (box_{K-1}(p_i) - HV_{K-1}(front(limit_i)))``, where ``limit_i`` clamps the earlier
    rows to ``p_i`` (componentwise max). Recursion ends in :func:`hv3d`/:func:`hv2d`.
    Exponential in K in the worst case, like every exact algorithm.
    """
    n, k = points.shape
    if n == 0:
        return 0.0
    if k == 1:
        best = points[0, 0]
        for i in range(1, n):
            best = min(best, points[i, 0])
        return ref[0] - best
    if k == 2:
        return hv2d(points, ref)
    if k == 3:
        return hv3d(points, ref)
    if n == 1:
        return box_volume(points, 0, k, ref)
    order = stable_argsort(points[:, k - 1].copy())
    head = np.empty((n, k - 1), dtype=np.float64)
    for t in range(n):
        for d in range(k - 1):
            head[t, d] = points[order[t], d]
    sub_ref = ref[:k - 1].copy()
    limit = np.empty((n, k - 1), dtype=np.float64)
    volume = 0.0
    for i in range(n):
        exclusive = box_volume(head, i, k - 1, sub_ref)
        m = 0
        covered = False
        for j in range(i):
            if clamp_row(head, j, i, limit, m, k - 1):  # an earlier slice covers this box
                covered = True
                break
            m += 1
        if covered:
            continue
        if m > 0:
            exclusive -= hv_slices(unique_front(limit[:m].copy()), sub_ref)
        volume += (ref[k - 1] - points[order[i], k - 1]) * exclusive
    return volume


@njit(cache=True)
def hypervolume(points, ref):
    """Exact hypervolume of any rows (N, K) w.r.t. ``ref``; callable from compiled code."""
    inside = inside_rows(points, ref)
    k = inside.shape[1]
    if inside.shape[0] == 0:
        return 0.0
    if k == 2:
        return hv2d(inside, ref)
    if k == 3:
        return hv3d(inside, ref)
    return hv_slices(unique_front(inside), ref)


@njit(cache=True)
def count_dominated_samples(front, samples):
    """Number of sample rows that some row of ``front`` weakly dominates.

    A k-d tree over the front answers each sample with one orthant query (samples equal
    to a front row have probability zero under continuous sampling).
    """
    n_samples = samples.shape[0]
    if front.shape[0] == 0:
        return 0
    tree_rows, _, start, stop, child, lower, upper, _ = build_kdtree(front, np.int64(8))
    count = 0
    for s in range(n_samples):
        if orthant_has_other(tree_rows, start, stop, child, lower, upper, samples[s]):
            count += 1
    return count
