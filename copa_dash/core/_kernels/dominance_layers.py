"""Compiled non-dominated sorting: layer 1 is the front, layer 2 the front of the rest, ...

Inputs are (N, K) C-contiguous float64 arrays oriented to minimisation; nothing here
checks (:mod:`copa_dash.core.dominance` validates).

Strategy of :func:`nondominated_layers` (the row limits are by K, K >= 8 using the 8-D
entry; every limit is a crossover measured on this project's 2-core machine in CPU time,
interleaved, docs/benchmarks.md "Non-dominated sorting: where the layers switch
algorithm"):

1. K = 2, 3 (:func:`peeled_layers`): peel the front with the fast
   :func:`~.dominance.nondominated_mask`, then place the other rows in lexicographic
   order with ENS-BS (Zhang, Tian, Cheng and Jin 2015, IEEE TEVC 19(2)): binary search
   for the first layer that does not dominate the row, answered by its newest row for
   K = 2 and by a 2-D staircase per layer for K = 3 (both O(log) per test,
   O(N log N log L) in all).
2. K >= 4 up to ``BITSET_UNTIL_ROWS`` (12,000 rows at 4-D to 16,000 from 6-D): every
   row ranked at once by dominance-set bitsets (:mod:`.dominance_bitsets`),
   O(K N^2 / 64) word operations whatever the layers look like. Their N^2 / 16 bytes
   leave the processor's caches above these sizes (4-D x 20,000: 1.1x moocore's time,
   against 0.35 at 8,000 rows).
3. K >= 4 above that, up to ``TREE_UNTIL_ROWS`` (any size at 4-6-D, 70,000 rows at 7-D,
   20,000 from 8-D): the layer-maximum k-d tree (:mod:`.dominance_layer_tree`): rows in
   lexicographic order, each asks one tree over objectives 1..K-1 for the largest layer
   among the placed rows below it. O(N K) memory; 0.45-0.65 of moocore's CPU time from
   20,000 to 100,000 rows at 4-6-D, where peeling fronts cost one mask pass per layer
   (40 at 4-D x 100,000: 1.2-2.0x moocore).
4. K >= 7 above that (:func:`peeled_layers`): few, large layers, so fronts are peeled
   with the mask until at most ``PEEL_UNTIL_ROWS`` rows remain (and the last front was
   no larger than the rest), and the bitsets rank the rest (8-D x 100,000: 9 layers,
   0.52 of moocore; the tree 0.70-0.75: its K - 1 = 7 dimensions prune less).

Why the bitsets replaced Best Order Sort (Roy, Islam and Deb 2016), which this module ran
before: Best Order Sort compares a row with the members of whole layers, so it grows like
N^2 / L and was quadratic in a big layer (a front-heavy table); the bitsets cost
(K - 1) N^2 / 128 word operations plus a binary search over the layers per row.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .dominance import dominates, nondominated_mask
from .dominance_bitsets import bitset_layers
from .dominance_layer_tree import layer_tree_layers
from .dominance_sorting import lexicographic_order, stable_argsort
from .loops import search_sorted

# K >= 4, by K (K >= 8 uses the last entry); measured crossovers, module notes.
# Most rows the dominance-set bitsets rank at once; above it the layer-maximum k-d tree.
BITSET_UNTIL_ROWS = np.array([0, 0, 0, 0, 12_000, 14_000, 16_000, 16_000, 16_000],
                             dtype=np.int64)
# Most rows the k-d tree ranks at once; above it layers are peeled first.
TREE_UNTIL_ROWS = np.array([0, 0, 0, 0, 2**62, 2**62, 2**62, 70_000, 20_000], dtype=np.int64)
# Most remaining rows at which peeling (K >= 7 above TREE_UNTIL_ROWS) stops and the
# bitsets rank the rest.
PEEL_UNTIL_ROWS = 4_000


@njit(cache=True)
def _gather(points, rows):
    out = np.empty((rows.shape[0], points.shape[1]), dtype=np.float64)
    for t in range(rows.shape[0]):
        for d in range(points.shape[1]):
            out[t, d] = points[rows[t], d]
    return out


@njit(cache=True)
def _ens_layers_3d(points, order):
    """0-based layers of 3-objective rows by ENS-BS with one staircase per layer.

    Layer r's staircase, ``[offset[r], offset[r] + count[r])`` of the pool arrays
    ``xs, ys, zs``, holds the layer's rows that are minimal in (y1, y2), sorted by y1
    (increasing) with y2 decreasing, each with the smallest y0 among rows sharing its
    (y1, y2); every layer row has y0 <= the new row's (lexicographic order). A layer
    dominates the row iff the last stair with y1 <= p1 has y2 <= p2, strictly smaller in
    one of them or in y0. A layer that outgrows its block moves to a block twice as
    large at the end of the pool (amortised O(1) per row).

    The staircase search and insertion are not compiled calls: a call of a compiled
    function with array arguments costs two atomic reference-count updates per array
    (the same finding as in ``hypervolume_wfg``), and ENS-BS makes about log2(L) + 1
    searches per row. The searches are :func:`.loops.search_sorted`, which numba inlines
    into this loop (``inline="always"``); the insertion is written in.
    Without calls, this loop takes half the CPU time on random 3-D x 1,000 rows (0.16 ms
    instead of 0.35 ms for 967 rows in 21 layers).
    """
    n = order.shape[0]
    layer_of = np.empty(n, dtype=np.int64)
    size = 4 * n + 64
    xs = np.empty(size, dtype=np.float64)
    ys = np.empty(size, dtype=np.float64)
    zs = np.empty(size, dtype=np.float64)
    used = 0
    offset = np.empty(n, dtype=np.int64)
    capacity = np.empty(n, dtype=np.int64)
    count = np.empty(n, dtype=np.int64)
    n_layers = 0
    for t in range(n):
        i = order[t]
        p0 = points[i, 0]
        p1 = points[i, 1]
        p2 = points[i, 2]
        lo = 0
        hi = n_layers
        while lo < hi:  # first layer that does not dominate the row
            mid = (lo + hi) >> 1
            off = offset[mid]
            j = search_sorted(xs, off, off + count[mid], p1, True) - 1  # last y1 <= p1
            dominated = False
            if j >= off and ys[j] <= p2:
                dominated = ys[j] < p2 or xs[j] < p1 or zs[j] < p0
            if dominated:
                lo = mid + 1
            else:
                hi = mid
        if lo == n_layers:
            n_layers += 1
            offset[lo] = used
            capacity[lo] = 0
            count[lo] = 0
        m = count[lo]
        if m == capacity[lo]:  # move the layer to a larger block at the end of the pool
            grown = max(8, 2 * m)
            if used + grown > size:
                size = 2 * (used + grown)
                xs2 = np.empty(size, dtype=np.float64)
                ys2 = np.empty(size, dtype=np.float64)
                zs2 = np.empty(size, dtype=np.float64)
                xs2[:used] = xs[:used]
                ys2[:used] = ys[:used]
                zs2[:used] = zs[:used]
                xs, ys, zs = xs2, ys2, zs2
            old = offset[lo]
            for u in range(m):
                xs[used + u] = xs[old + u]
                ys[used + u] = ys[old + u]
                zs[used + u] = zs[old + u]
            offset[lo] = used
            capacity[lo] = grown
            used += grown
        layer_of[i] = lo
        # insert (p1, p2) with y0 = p0 into the staircase of layer lo
        off = offset[lo]
        end = off + m
        st = search_sorted(xs, off, end, p1, False)  # first stair with y1 >= p1
        if st > off and ys[st - 1] <= p2:
            continue  # a stair with smaller y1 is at least as good
        if st < end and xs[st] == p1 and ys[st] <= p2:
            continue  # an equal or better stair with a y0 no larger
        e = st
        while e < end and ys[e] >= p2:  # stairs the new row covers (it dominates them)
            e += 1
        # the splice stairs[st:e] = [row], as in hypervolume.staircase_insert, one loop over
        # the three arrays: a helper called per array cost 4 % (bench_kernel_ab.py)
        removed = e - st
        if removed == 0:
            for u in range(end, st, -1):
                xs[u] = xs[u - 1]
                ys[u] = ys[u - 1]
                zs[u] = zs[u - 1]
            m += 1
        elif removed > 1:
            for u in range(st + 1, end - removed + 1):
                xs[u] = xs[u + removed - 1]
                ys[u] = ys[u + removed - 1]
                zs[u] = zs[u + removed - 1]
            m -= removed - 1
        xs[st] = p1
        ys[st] = p2
        zs[st] = p0
        count[lo] = m
    return layer_of


@njit(cache=True)
def _ens_layers_scan(points, order):
    """0-based layers by ENS-BS, testing a layer by scanning its rows newest first
    (for K = 2 the newest row alone decides: layers are staircases in that order)."""
    n, k = points.shape
    layer_of = np.empty(n, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)  # newest row of each layer
    previous = np.empty(n, dtype=np.int64)  # the row added to its layer before it
    n_layers = 0
    for t in range(n):
        i = order[t]
        lo = 0
        hi = n_layers
        while lo < hi:
            mid = (lo + hi) >> 1
            j = last[mid]
            dominated = False
            while j >= 0:
                if dominates(points[j], points[i]):
                    dominated = True
                    break
                if k == 2:
                    break
                j = previous[j]
            if dominated:
                lo = mid + 1
            else:
                hi = mid
        if lo == n_layers:
            n_layers += 1
        previous[i] = last[lo]
        last[lo] = i
        layer_of[i] = lo
    return layer_of


@njit(cache=True)
def nondominated_layers(points):
    """Layer of every row (1 = front) of ``points`` (N, K), min-oriented.

    K = 1 gives dense ranks; see the module notes for K >= 2. Callable from other
    compiled code.
    """
    n, k = points.shape
    layers = np.zeros(n, dtype=np.int64)
    if n == 0:
        return layers
    if k == 1:
        order = stable_argsort(points[:, 0].copy())
        layer = 1
        for t in range(n):
            if t > 0 and points[order[t], 0] != points[order[t - 1], 0]:
                layer += 1
            layers[order[t]] = layer
        return layers
    kk = min(k, BITSET_UNTIL_ROWS.shape[0] - 1)
    if k >= 4 and n <= TREE_UNTIL_ROWS[kk]:
        if n <= BITSET_UNTIL_ROWS[kk]:
            layer_of = bitset_layers(points)
        else:
            layer_of = layer_tree_layers(points)
        for t in range(n):
            layers[t] = layer_of[t] + 1
        return layers
    return peeled_layers(points, PEEL_UNTIL_ROWS)


@njit(cache=True)
def peeled_layers(points, peel_until):
    """Layers (1 = front) of ``points`` (N, K >= 2) with the first fronts peeled by
    :func:`~.dominance.nondominated_mask` and the rest ranked at once.

    K = 2, 3: one front is peeled, the rest placed by ENS-BS. K >= 4: fronts are peeled
    until at most ``peel_until`` rows remain and the last front peeled was no larger than
    the rest (a front-heavy table keeps peeling), then the bitsets rank the rest.
    """
    n, k = points.shape
    layers = np.zeros(n, dtype=np.int64)
    remaining = np.arange(n)
    layer = 0
    while True:
        sub = points if layer == 0 else _gather(points, remaining)
        front = nondominated_mask(sub)
        layer += 1
        n_front = 0
        for t in range(remaining.shape[0]):
            if front[t]:
                layers[remaining[t]] = layer
                n_front += 1
        rest = np.empty(remaining.shape[0] - n_front, dtype=np.int64)
        m = 0
        for t in range(remaining.shape[0]):
            if not front[t]:
                rest[m] = remaining[t]
                m += 1
        remaining = rest
        if m == 0:
            return layers
        if k <= 3 or (m <= peel_until and n_front <= m):
            break
    rest_points = _gather(points, remaining)
    if k >= 4:
        layer_of = bitset_layers(rest_points)
    else:
        order = lexicographic_order(rest_points)
        if k == 3:
            layer_of = _ens_layers_3d(rest_points, order)
        else:
            layer_of = _ens_layers_scan(rest_points, order)
    for t in range(remaining.shape[0]):
        layers[remaining[t]] = layer + 1 + layer_of[t]
    return layers


def layers_method(n: int, k: int) -> str:
    """Which method :func:`nondominated_layers` uses for N rows in K objectives (for the
    benchmarks' notes): "dense ranks" (K = 1), "ens" (K = 2, 3: peel one front, then
    ENS-BS), "bitsets", "tree" or "peel" (then the bitsets)."""
    if k == 1:
        return "dense ranks"
    if k <= 3:
        return "ens"
    kk = min(k, BITSET_UNTIL_ROWS.shape[0] - 1)
    if n <= BITSET_UNTIL_ROWS[kk]:
        return "bitsets"
    return "tree" if n <= TREE_UNTIL_ROWS[kk] else "peel"
