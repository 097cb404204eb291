"""Compiled non-dominated sorting by one k-d tree that keeps the largest layer of each node.

Inputs are (N, K) C-contiguous float64 arrays oriented to minimisation, K >= 2; nothing
here checks (:mod:`copa_dash.core.dominance` validates).

The layer of a row is the length of the longest chain of rows dominating it: 0 when no
row dominates it, else one more than the largest layer among the rows that do (peeling
fronts gives the same numbers, METHODS.md "Non-dominated sorting"). With the distinct
rows numbered in lexicographic order, row t dominates row s iff ``t < s`` and
``y[t, j] <= y[s, j]`` for every objective j >= 1 (the order settles objective 0). So
walking the rows in that order, the layer of s is

    layer(s) = 1 + max { layer(t) : t already placed, y[t, 1:] <= y[s, 1:] }   (-1 if none),

a dominance-maximum query in K - 1 dimensions over the rows placed so far. One k-d tree
is built over all distinct rows on objectives 1..K-1 (median splits on the widest side,
tight boxes: :func:`~.dominance_tree.build_kdtree`); each node keeps the largest layer of
its placed rows (-1 while it has none). A query walks the tree depth first and skips a
node whose largest layer cannot beat the best found so far, or whose lower corner is not
<= the row; a node whose upper corner is <= the row answers with its largest layer at
once (every placed row in it dominates s). It stops as soon as the best is the largest
layer there is. Placing s then raises the largest layer of its leaf and of the ancestors
below it (O(log N)).

This is the dominance-maximum form of ENS-NDT (Gustavsson and Syberfeldt 2018,
Evolutionary Computation 26(1), "A New Algorithm Using the Non-Dominated Tree to Improve
Non-Dominated Sorting": ENS with a tree per front): one tree with layer maxima answers
what ENS's binary search over the fronts asks, in one walk, and its memory is O(N K)
whatever the number of layers. Building O(N K log N); a query is output-sensitive
(worst case O(N) on a single front, where every row must prove its orthant empty of
placed rows), which is why the layers use it only for K <= 6 above the bitsets' row
limit (:mod:`.dominance_layers`, measured in docs/benchmarks.md).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .dominance_sorting import distinct_sorted_rows
from .dominance_tree import MAX_DEPTH, build_kdtree

LEAF_SIZE = 16


@njit(cache=True)
def layer_tree_layers(points):
    """0-based layer of every row of ``points`` (N, K), min-oriented, K >= 2.

    Duplicates share the layer of their first copy. See the module notes for the
    method: O(N K log N) to build, one output-sensitive tree walk per distinct row.

    Examples
    --------
    >>> import numpy as np
    >>> layer_tree_layers(np.array([[1.0, 1, 1, 1], [2, 2, 2, 2], [1, 2, 1, 2], [0, 3, 3, 3]]))
    array([0, 2, 1, 0])
    """
    return tree_layers(points, np.int64(LEAF_SIZE))  # int64, not a literal: one compile


@njit(cache=True)
def tree_layers(points, leaf_size):
    """:func:`layer_tree_layers` with leaves of at most ``leaf_size`` rows."""
    n, k = points.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order, y, distinct = distinct_sorted_rows(points)
    m = y.shape[0]
    rest = np.ascontiguousarray(y[:, 1:])
    tree, perm, start, stop, child, _, _, n_nodes = build_kdtree(rest, leaf_size)
    d = k - 1
    parent = np.full(n_nodes, -1, dtype=np.int64)
    leaf_of = np.empty(m, dtype=np.int64)  # leaf holding tree position t
    for v in range(n_nodes):
        c = child[v]
        if c >= 0:
            parent[c] = v
            parent[c + 1] = v
        else:
            for t in range(start[v], stop[v]):
                leaf_of[t] = v
    position = np.empty(m, dtype=np.int64)  # tree position of distinct row s
    for t in range(m):
        position[perm[t]] = t
    best_of_node = np.full(n_nodes, -1, dtype=np.int64)
    low = np.full((n_nodes, d), np.inf)  # box of the node's placed rows
    high = np.full((n_nodes, d), -np.inf)
    layer_at = np.full(m, -1, dtype=np.int64)  # layer of the row at tree position t
    rank = np.empty(m, dtype=np.int64)
    stack = np.empty(2 * MAX_DEPTH, dtype=np.int64)
    top_layer = -1
    for s in range(m):
        p = rest[s]
        best = -1
        if top_layer >= 0:
            stack[0] = 0
            depth = 1
            while depth > 0:
                depth -= 1
                v = stack[depth]
                if best_of_node[v] <= best:
                    continue
                skip = False
                inside = True
                for j in range(d):
                    if low[v, j] > p[j]:
                        skip = True
                        break
                    if high[v, j] > p[j]:
                        inside = False
                if skip:
                    continue
                if inside:
                    best = best_of_node[v]
                    if best == top_layer:
                        break
                    continue
                c = child[v]
                if c >= 0:  # the child holding the larger layer is walked first
                    if best_of_node[c] >= best_of_node[c + 1]:
                        stack[depth] = c + 1
                        stack[depth + 1] = c
                    else:
                        stack[depth] = c
                        stack[depth + 1] = c + 1
                    depth += 2
                    continue
                for t in range(start[v], stop[v]):
                    r = layer_at[t]
                    if r > best:
                        le = True
                        for j in range(d):
                            le &= tree[t, j] <= p[j]
                        if le:
                            best = r
                if best == top_layer:
                    break
        r = best + 1
        rank[s] = r
        if r > top_layer:
            top_layer = r
        t = position[s]
        layer_at[t] = r
        v = leaf_of[t]
        while v >= 0:
            changed = False
            if best_of_node[v] < r:
                best_of_node[v] = r
                changed = True
            for j in range(d):
                x = p[j]
                if x < low[v, j]:
                    low[v, j] = x
                    changed = True
                if x > high[v, j]:
                    high[v, j] = x
                    changed = True
            if not changed:
                break
            v = parent[v]
    out = np.empty(n, dtype=np.int64)  # order is a permutation: every entry is set
    for t in range(n):
        out[order[t]] = rank[distinct[t]]
    return out
