"""Compiled exact hypervolume for K >= 4 by QHV-II (Jaszkiewicz 2018), no recursion.

Quick hypervolume splits the space, not the objectives. In a box ``[lo, hi]`` (at the
start ``lo = -inf``, ``hi = ref``) every row q stands for its box clamped into it,
``[max(q, lo), hi]``. The row whose clamped box is the largest (the pivot, p') is counted
whole, and the rest of the box, the points x with ``x_j < p'_j`` for some j, is cut into K
disjoint boxes by the first such j:

    box_j = { x in [lo, hi] : x_i >= p'_i for i < j,  x_j < p'_j },
    i.e.  lo_j = (p'_0, ..., p'_{j-1}, lo_j, ..., lo_{K-1}),
          hi_j = (hi_0, ..., hi_{j-1}, p'_j, hi_{j+1}, ..., hi_{K-1}),

    HV(rows in [lo, hi]) = vol(p', hi) + sum_j HV(rows with q_j < p'_j, in box_j)

(Jaszkiewicz, "Improved quick hypervolume algorithm", Computers & Operations Research 90,
2018, section 3; the K-box split is what makes QHV-II faster than QHV's 2^K - 2 boxes). A
row reaches box_j only when its own box meets it (``q_j < p'_j``; the other upper bounds are
those of the parent, which it already beats), so the sets shrink quickly; a box with one to four
rows is summed by inclusion-exclusion (at most 15 products of K clamped widths) instead of
being split into up to K more boxes: 0.4 of the CPU time at 10-D x 100, 0.6 at 7-D x 300
(sphere fronts). Every split adds positive volumes; the closed forms subtract, so the
volumes differ from WFG's and moocore's in the last 12-14 digits (tests: 1e-12 relative).

Why this and not WFG (``hypervolume_wfg``): measured on this machine, one process, CPU
time, QHV-II (without the closed forms for 3-4 rows) took 0.35-0.45 of our WFG kernel's time
on 6-8-D sphere fronts of 100-300 rows; with them, 0.12-0.33 of pygmo's WFG from 7 to 10
objectives (docs/benchmarks.md,
"Hypervolume, 4 to 10 objectives"). Tried and dropped: removing the rows whose clamped box
another row's covers in each new box (1.4-4x slower: the test costs more than the smaller
sets save).

Why no recursion: numba's on-disk cache cannot reload a recursive function, so the boxes
wait on an explicit stack (depth-first; their row lists sit in one index arena in the
same order, so the box popped is always the one whose list is on top and its children's
lists are moved down over it). Memory: the arena holds at most the lists of the boxes on
the stack, grown by doubling; the rows are never copied, only their indices.

Rows that are not strictly inside ``ref`` add nothing and are skipped; dominated rows and
duplicates are allowed (a duplicate of the pivot reaches no box). The slow twin is
:func:`copa_dash.core._reference.hypervolume.hypervolume_qhv` (the same split written as
a plain recursion), checked in ``tests/core/test_hypervolume_qhv.py`` together with
inclusion-exclusion, the grid twin, moocore and the WFG kernel.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .loops import lowest_row, odd_size, row_below


@njit(cache=True)
def _grow_index(values, used, need):
    """``values`` with room for ``need`` entries (the first ``used`` kept)."""
    if need <= values.shape[0]:
        return values
    grown = np.empty(max(need, 2 * values.shape[0]), dtype=np.int64)
    grown[:used] = values[:used]
    return grown


@njit(cache=True)
def _grow_bounds(values, used):
    """``values`` (rows of box bounds) with room for one more row."""
    if used < values.shape[0]:
        return values
    grown = np.empty((2 * values.shape[0], values.shape[1]), dtype=np.float64)
    grown[:used] = values[:used]
    return grown


@njit(cache=True)
def hv_qhv(points, ref):
    """Exact hypervolume of ``points`` (N, K) w.r.t. ``ref`` by QHV-II's box splitting.

    Rows not strictly inside ``ref`` are skipped; dominated rows and duplicates allowed.
    """
    n, k = points.shape
    arena = np.empty(max(1024, 4 * n * k), dtype=np.int64)
    m0 = 0
    for i in range(n):
        if row_below(points, i, ref):
            arena[m0] = i
            m0 += 1
    if m0 == 0:
        return 0.0
    offsets = np.empty(64, dtype=np.int64)
    counts = np.empty(64, dtype=np.int64)
    los = np.empty((64, k), dtype=np.float64)
    his = np.empty((64, k), dtype=np.float64)
    offsets[0] = 0
    counts[0] = m0
    for d in range(k):
        los[0, d] = -np.inf
        his[0, d] = ref[d]
    top = 1
    lo = np.empty(k, dtype=np.float64)
    hi = np.empty(k, dtype=np.float64)
    pivot = np.empty(k, dtype=np.float64)
    corners = np.empty((16, k), dtype=np.float64)
    total = 0.0
    while top > 0:
        top -= 1
        off = offsets[top]
        m = counts[top]
        for d in range(k):
            lo[d] = los[top, d]
            hi[d] = his[top, d]
        if m == 1:
            q = arena[off]
            volume = 1.0
            for d in range(k):
                volume *= hi[d] - max(points[q, d], lo[d])
            total += volume
            continue
        if m == 2:
            a = arena[off]
            b = arena[off + 1]
            va = 1.0
            vb = 1.0
            both = 1.0
            for d in range(k):
                xa = max(points[a, d], lo[d])
                xb = max(points[b, d], lo[d])
                va *= hi[d] - xa
                vb *= hi[d] - xb
                both *= hi[d] - max(xa, xb)
            total += va + vb - both
            continue
        if m == 3:  # inclusion-exclusion: 7 boxes instead of a split into up to K boxes
            a = arena[off]
            b = arena[off + 1]
            c = arena[off + 2]
            va = 1.0
            vb = 1.0
            vc = 1.0
            vab = 1.0
            vac = 1.0
            vbc = 1.0
            vabc = 1.0
            for d in range(k):
                xa = max(points[a, d], lo[d])
                xb = max(points[b, d], lo[d])
                xc = max(points[c, d], lo[d])
                va *= hi[d] - xa
                vb *= hi[d] - xb
                vc *= hi[d] - xc
                vab *= hi[d] - max(xa, xb)
                vac *= hi[d] - max(xa, xc)
                vbc *= hi[d] - max(xb, xc)
                vabc *= hi[d] - max(max(xa, xb), xc)
            total += va + vb + vc - vab - vac - vbc + vabc
            continue
        if m == 4:  # inclusion-exclusion over the 15 non-empty subsets
            for mask in range(1, 16):
                row = lowest_row(mask)
                rest = mask & (mask - 1)  # without its lowest row
                q = arena[off + row]
                volume = 1.0
                for d in range(k):
                    x = max(points[q, d], lo[d])
                    if rest:
                        x = max(x, corners[rest, d])
                    corners[mask, d] = x
                    volume *= hi[d] - x
                total += volume if odd_size(mask) else -volume
            continue
        best = -1.0
        chosen = 0
        for t in range(m):
            q = arena[off + t]
            volume = 1.0
            for d in range(k):
                volume *= hi[d] - max(points[q, d], lo[d])
            if volume > best:
                best = volume
                chosen = t
        total += best
        p = arena[off + chosen]
        for d in range(k):
            pivot[d] = max(points[p, d], lo[d])
        end = off + m  # the children's lists go here, then move down over this list
        arena = _grow_index(arena, end, end + k * (m - 1))
        for j in range(k):
            if pivot[j] <= lo[j]:  # box_j is empty
                continue
            start = end
            for t in range(m):
                q = arena[off + t]
                if t != chosen and points[q, j] < pivot[j]:
                    arena[end] = q
                    end += 1
            if end == start:
                continue
            offsets = _grow_index(offsets, top, top + 1)
            counts = _grow_index(counts, top, top + 1)
            los = _grow_bounds(los, top)
            his = _grow_bounds(his, top)
            offsets[top] = start - m
            counts[top] = end - start
            for d in range(k):
                los[top, d] = pivot[d] if d < j else lo[d]
                his[top, d] = pivot[d] if d == j else hi[d]
            top += 1
        for u in range(off + m, end):
            arena[u - m] = arena[u]
    return total
