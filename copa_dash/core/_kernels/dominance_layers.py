"""Compiled non-dominated sorting: layer 1 is the front, layer 2 the front of the rest, ...

Inputs are (N, K) C-contiguous float64 arrays oriented to minimisation; nothing here
checks (:mod:`copa_dash.core.dominance` validates).

Strategy of :func:`nondominated_layers`:

1. Peel the first front with the fast :func:`~.dominance.nondominated_mask`.
2. K = 2, 3: place the other rows in lexicographic order with ENS-BS (Zhang, Tian, Cheng
   and Jin 2015, IEEE TEVC 19(2)): binary search for the first layer that does not
   dominate the row, answered by its newest row for K = 2 and by a 2-D staircase per
   layer for K = 3 (both O(log) per test, O(N log N log L) in all).
3. K >= 4: peel more layers while many rows remain; once at most
   ``BEST_ORDER_MAX_ROWS[K]`` rows remain (and the last peeled layer was at most half of
   the rows before it), rank them all at once by Best Order Sort (Roy, Islam and Deb
   2016, GECCO companion "Best Order Sort: a new algorithm to non-dominated sorting for
   evolutionary multi-objective optimization"): the rows are visited in the sorted order
   of every objective in turn, and a row is ranked at its first visit by comparing it
   only with the rows already seen *in that objective's order* (every row that
   dominates it is among them), layer by layer until a layer has none that dominates
   it. Rows are first seen early in some objective, so each is compared with about
   N / (K + 1) rows instead of the N / 2 of a lexicographic scan.

Why the switch: Best Order Sort compares a row with whole layers, so it grows like
N^2 / L; peeling costs one mask pass per layer, like N L. The row limits below are the
measured crossovers on uniform random rows; the half-of-the-rows condition keeps a large
layer (a front-heavy table) on the peeling path, where Best Order Sort would be quadratic in
that layer.

Small tables skip step 1 (:func:`_best_order_at_once`): up to ``DIRECT_MAX_ROWS`` rows
(K >= 4) Best Order Sort ranks every row at once, unless a sample of 64 evenly spaced rows
is front-heavy (more than ``DIRECT_MAX_FRONT_SHARE[K]`` non-dominated; a front gives 1.0),
where Best Order Sort is quadratic in the big layer and the peel path stays. From 7
objectives up to 1,000 rows no sample is taken. The sample costs 5-15 microseconds.

The measurements behind these limits (``python benchmarks/bench_pareto.py``, layers against
moocore): docs/benchmarks.md, "Non-dominated sorting: where the layers switch algorithm".
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .dominance import dominates, nondominated_mask
from .dominance_sorting import distinct_sorted_rows, lexicographic_order, stable_argsort

# Most remaining rows that Best Order Sort ranks at once, by K (K >= 8 uses the last);
# measured crossovers with peeling on uniform random rows (module notes).
BEST_ORDER_MAX_ROWS = np.array([0, 0, 0, 0, 20_000, 12_000, 6_000, 4_000, 4_000],
                               dtype=np.int64)


# Best Order Sort on all rows at once, without peeling the front first (module notes):
# for K >= 7 up to DIRECT_ALWAYS_ROWS rows, else for at most DIRECT_MAX_ROWS rows whose
# sample of DIRECT_SAMPLE_ROWS rows has at most DIRECT_MAX_FRONT_SHARE[K] non-dominated
# rows (K >= 8 uses the last).
DIRECT_ALWAYS_ROWS = 1_000
DIRECT_MAX_ROWS = 2_000
DIRECT_SAMPLE_ROWS = 64
DIRECT_MAX_FRONT_SHARE = np.array([0.0, 0.0, 0.0, 0.0, 0.6, 0.75, 0.85, 0.97, 0.97])


@njit(cache=True)
def sample_front_share(points, s):
    """Share of non-dominated rows among ``s`` rows of ``points`` taken at an even stride.

    O(s^2 K) (5-15 microseconds for s = 64): a cheap look at how front-heavy the
    table is. Equal rows count as non-dominated.
    """
    n = points.shape[0]
    s = min(s, n)
    if s == 0:
        return 0.0
    step = n // s
    kept = 0
    for a in range(s):
        i = a * step
        dominated = False
        for b in range(s):
            j = b * step
            if j != i and dominates(points[j], points[i]):
                dominated = True
                break
        if not dominated:
            kept += 1
    return kept / s


@njit(cache=True)
def _best_order_at_once(points):
    """Should Best Order Sort rank all rows of ``points`` (K >= 4) without peeling?"""
    n, k = points.shape
    if k >= 7 and n <= DIRECT_ALWAYS_ROWS:
        return True
    if n > DIRECT_MAX_ROWS:
        return False
    limit = DIRECT_MAX_FRONT_SHARE[min(k, DIRECT_MAX_FRONT_SHARE.shape[0] - 1)]
    return sample_front_share(points, DIRECT_SAMPLE_ROWS) <= limit


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

    The staircase search and insertion are written into this loop, not called: a call
    of a compiled function with array arguments costs two atomic reference-count
    updates per array (the same finding as in ``hypervolume_wfg``), and ENS-BS makes
    about log2(L) + 1 of them per row. Written in, this loop takes half the CPU time
    on random 3-D x 1,000 rows (0.16 ms instead of 0.35 ms for 967 rows in 21 layers).
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
            a = off
            b = off + count[mid]
            while a < b:  # last stair with y1 <= p1
                c = (a + b) >> 1
                if xs[c] <= p1:
                    a = c + 1
                else:
                    b = c
            j = a - 1
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
        a = off
        b = end
        while a < b:  # first stair with y1 >= p1
            c = (a + b) >> 1
            if xs[c] < p1:
                a = c + 1
            else:
                b = c
        st = a
        if st > off and ys[st - 1] <= p2:
            continue  # a stair with smaller y1 is at least as good
        if st < end and xs[st] == p1 and ys[st] <= p2:
            continue  # an equal or better stair with a y0 no larger
        e = st
        while e < end and ys[e] >= p2:  # stairs the new row covers (it dominates them)
            e += 1
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
def best_order_layers(points):
    """0-based layer of every row of ``points`` (N, K), min-oriented, by Best Order Sort.

    Duplicates share the layer of their first copy (they are removed before sorting, and
    -0.0 is stored as 0.0, so
    ``lists[j]`` orders distinct rows by objective j with ties in lexicographic order,
    and a row that weakly dominates another comes before it in every list). A row is
    ranked at its first visit in any list: layer r is the first whose members seen so
    far in that list (a linked list per objective and layer) hold none that is <= the
    row in every objective. O(K N log N) sorting plus O(K N^2) comparisons at worst.
    """
    n, k = points.shape
    order, y, distinct = distinct_sorted_rows(points)
    m = y.shape[0]
    lists = np.empty((k, m), dtype=np.int64)
    for t in range(m):
        lists[0, t] = t  # already in lexicographic order
    for j in range(1, k):  # stable: ties stay in lexicographic order
        lists[j, :] = stable_argsort(y[:m, j].copy())
    rank = np.full(m, -1, dtype=np.int64)
    head = np.full((k, m), -1, dtype=np.int64)  # newest member of (objective, layer)
    older = np.empty((k, m), dtype=np.int64)  # the member added before it
    n_layers = 0
    n_ranked = 0
    for position in range(m):
        for j in range(k):
            s = lists[j, position]
            r = rank[s]
            if r < 0:
                r = 0
                while r < n_layers:
                    t = head[j, r]
                    dominated = False
                    while t >= 0:
                        le = True  # distinct rows: <= everywhere means dominates
                        for d in range(k):
                            if y[t, d] > y[s, d]:
                                le = False
                                break
                        if le:
                            dominated = True
                            break
                        t = older[j, t]
                    if not dominated:
                        break
                    r += 1
                rank[s] = r
                if r == n_layers:
                    n_layers += 1
                n_ranked += 1
            older[j, s] = head[j, r]
            head[j, r] = s
        if n_ranked == m:
            break
    out = np.empty(n, dtype=np.int64)
    for t in range(n):
        out[order[t]] = rank[distinct[t]]
    return out


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
    if k >= 4 and _best_order_at_once(points):
        layer_of = best_order_layers(points)
        for t in range(n):
            layers[t] = layer_of[t] + 1
        return layers
    remaining = np.arange(n)
    layer = 0
    best_order_max = BEST_ORDER_MAX_ROWS[min(k, BEST_ORDER_MAX_ROWS.shape[0] - 1)]
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
        if k <= 3 or (m <= best_order_max and n_front <= m):
            break
    rest_points = _gather(points, remaining)
    if k >= 4:
        layer_of = best_order_layers(rest_points)
    else:
        order = lexicographic_order(rest_points)
        if k == 3:
            layer_of = _ens_layers_3d(rest_points, order)
        else:
            layer_of = _ens_layers_scan(rest_points, order)
    for t in range(remaining.shape[0]):
        layers[remaining[t]] = layer + 1 + layer_of[t]
    return layers
