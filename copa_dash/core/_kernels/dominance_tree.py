"""Compiled k-d tree orthant queries: the exact non-dominated mask for K >= 4 objectives.

A row p is dominated iff some row q != p lies in the closed orthant {q <= p}. The tree
is built once over all rows (median splits on the widest column, tight bounding boxes),
and each row asks whether its orthant holds another row: a node whose lower corner is
not <= p is skipped, a node whose upper corner is <= p answers at once. Inputs are
(N, K) C-contiguous float64 arrays oriented to minimisation; nothing here checks.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

LEAF_SIZE = 16
MAX_DEPTH = 128


@njit(cache=True, inline="always")
def root_stack():
    """``(stack, top)`` of a depth-first walk that starts at the root, node 0: pop with
    ``top -= 1; v = stack[top]`` while ``top > 0``. Holds ``MAX_DEPTH`` nodes: median
    splits make the tree at most log2 N deep, and a walk keeps one pending node a level."""
    stack = np.empty(MAX_DEPTH, dtype=np.int64)
    stack[0] = 0
    return stack, 1


@njit(cache=True, inline="always")
def push_children(stack, top, c):
    """Push node ``c``'s pair ``c``, ``c + 1`` so that ``c`` (the lower half) pops first;
    returns the new ``top``."""
    stack[top] = c + 1
    stack[top + 1] = c
    return top + 2


@njit(cache=True)
def _swap_rows(rows, perm, i, j):
    perm[i], perm[j] = perm[j], perm[i]
    for d in range(rows.shape[1]):
        rows[i, d], rows[j, d] = rows[j, d], rows[i, d]


@njit(cache=True)
def _select(rows, perm, d, lo, hi, kth):
    """Reorder ``rows[lo:hi]`` (and ``perm``) so that row ``kth`` holds the kth value
    of column d, smaller values before it and larger after (Hoare's selection)."""
    left = lo
    right = hi - 1
    while right > left:
        a = rows[left, d]
        b = rows[(left + right) >> 1, d]
        c = rows[right, d]
        if a > b:
            a, b = b, a
        if b > c:
            b = c
            b = max(b, a)
        pivot = b
        i = left
        j = right
        while i <= j:
            while rows[i, d] < pivot:
                i += 1
            while rows[j, d] > pivot:
                j -= 1
            if i <= j:
                _swap_rows(rows, perm, i, j)
                i += 1
                j -= 1
        if kth <= j:
            right = j
        elif kth >= i:
            left = i
        else:
            break


@njit(cache=True)
def build_kdtree(points, leaf_size):
    """Build the tree: ``(rows, perm, start, stop, child, lower, upper, n_nodes)``.

    ``rows`` is a copy of ``points`` in tree order (``rows[t] = points[perm[t]]``), so a
    leaf's rows are contiguous. Node ``v`` covers ``rows[start[v]:stop[v]]``;
    ``child[v]`` is the first of its two children (-1 for a leaf); ``lower``/``upper``
    are its tight bounding box, computed bottom-up. Splits are at the median of the
    widest side of the node's cell. O(N K log N) time, O(N K) memory.
    """
    n, k = points.shape
    rows = points.copy()
    perm = np.arange(n)
    max_nodes = 2 * (n // max(leaf_size // 2, 1) + 1) + 1
    start = np.empty(max_nodes, dtype=np.int64)
    stop = np.empty(max_nodes, dtype=np.int64)
    child = np.full(max_nodes, -1, dtype=np.int64)
    lower = np.empty((max_nodes, k), dtype=np.float64)  # cells first, boxes at the end
    upper = np.empty((max_nodes, k), dtype=np.float64)
    for d in range(k):
        lower[0, d] = np.inf
        upper[0, d] = -np.inf
    for t in range(n):
        for d in range(k):
            x = rows[t, d]
            lower[0, d] = min(lower[0, d], x)
            upper[0, d] = max(upper[0, d], x)
    start[0] = 0
    stop[0] = n
    n_nodes = 1
    stack, top = root_stack()
    while top > 0:
        top -= 1
        v = stack[top]
        lo = start[v]
        hi = stop[v]
        if hi - lo <= leaf_size:
            continue
        split = 0
        spread = upper[v, 0] - lower[v, 0]
        for d in range(1, k):
            if upper[v, d] - lower[v, d] > spread:
                spread = upper[v, d] - lower[v, d]
                split = d
        if spread <= 0.0:  # identical rows: one leaf, answered by the box tests
            continue
        mid = (lo + hi) // 2
        _select(rows, perm, split, lo, hi, mid)
        value = rows[mid, split]
        c = n_nodes
        n_nodes += 2
        child[v] = c
        start[c] = lo
        stop[c] = mid
        start[c + 1] = mid
        stop[c + 1] = hi
        for d in range(k):
            lower[c, d] = lower[v, d]
            upper[c, d] = upper[v, d]
            lower[c + 1, d] = lower[v, d]
            upper[c + 1, d] = upper[v, d]
        upper[c, split] = value
        lower[c + 1, split] = value
        top = push_children(stack, top, c)
    for v in range(n_nodes - 1, -1, -1):  # children come after their parent
        c = child[v]
        if c >= 0:
            for d in range(k):
                lower[v, d] = min(lower[c, d], lower[c + 1, d])
                upper[v, d] = max(upper[c, d], upper[c + 1, d])
            continue
        for d in range(k):
            lower[v, d] = rows[start[v], d]
            upper[v, d] = rows[start[v], d]
        for t in range(start[v] + 1, stop[v]):
            for d in range(k):
                x = rows[t, d]
                if x < lower[v, d]:
                    lower[v, d] = x
                elif x > upper[v, d]:
                    upper[v, d] = x
    return rows, perm, start, stop, child, lower, upper, n_nodes


@njit(cache=True)
def orthant_has_other(tree_points, start, stop, child, lower, upper, p):
    """Return True when some row of the tree is <= ``p`` and differs from it.

    ``tree_points`` are the rows in tree order (leaves contiguous). Depth-first, lower
    child first, so dominated rows usually meet a dominating row early.
    """
    k = p.shape[0]
    stack, top = root_stack()
    while top > 0:
        top -= 1
        v = stack[top]
        inside = True
        strict = False
        skip = False
        for d in range(k):
            low = lower[v, d]
            if low > p[d]:
                skip = True
                break
            if low < p[d]:
                strict = True
            if upper[v, d] > p[d]:
                inside = False
        if skip:
            continue
        if inside:
            if strict:
                return True
            continue  # every row of the node equals p
        c = child[v]
        if c >= 0:
            top = push_children(stack, top, c)
            continue
        for t in range(start[v], stop[v]):
            le = True
            strict = False
            for d in range(k):  # branch-free over the columns
                x = tree_points[t, d]
                le &= x <= p[d]
                strict |= x < p[d]
            if le and strict:
                return True
    return False


@njit(cache=True)
def nondominated_mask_kdtree(points):
    """Exact non-dominated mask by one k-d tree orthant query per row.

    Build O(N K log N); a query is output-sensitive (a dominated row stops at its first
    dominating row; a front row must prove its orthant empty). Exact for any K.
    """
    return kdtree_mask(points, np.int64(LEAF_SIZE))  # int64, not a literal: one compile


@njit(cache=True)
def kdtree_mask(points, leaf_size):
    """:func:`nondominated_mask_kdtree` with leaves of at most ``leaf_size`` rows."""
    n = points.shape[0]
    tree_points, perm, start, stop, child, lower, upper, _ = build_kdtree(points, leaf_size)
    mask = np.empty(n, dtype=np.bool_)
    for t in range(n):
        mask[perm[t]] = not orthant_has_other(
            tree_points, start, stop, child, lower, upper, tree_points[t])
    return mask
