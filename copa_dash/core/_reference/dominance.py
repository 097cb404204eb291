"""Slow, obviously-correct twins of :mod:`copa_dash.core._kernels.dominance`.

Plain numpy on (N, K) float64 arrays oriented to minimisation; for tests and benchmarks.
"""

from __future__ import annotations

import numpy as np


def dominance_matrix(points: np.ndarray) -> np.ndarray:
    """``D[a, b]`` is True iff row a dominates row b: <= everywhere and < somewhere. O(N^2 K)."""
    y = np.asarray(points, dtype=np.float64)
    le = (y[:, None, :] <= y[None, :, :]).all(axis=2)
    lt = (y[:, None, :] < y[None, :, :]).any(axis=2)
    return le & lt


def nondominated_mask(points: np.ndarray) -> np.ndarray:
    """Rows that no row dominates, by comparing every pair. O(N^2 K)."""
    y = np.asarray(points, dtype=np.float64)
    if y.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    return ~dominance_matrix(y).any(axis=0)


def nondominated_layers(points: np.ndarray) -> np.ndarray:
    """Layer numbers by repeated peeling: layer 1 is the front, then the front of the rest."""
    y = np.asarray(points, dtype=np.float64)
    layers = np.zeros(y.shape[0], dtype=np.int64)
    remaining = np.arange(y.shape[0])
    layer = 1
    while remaining.size:
        front = nondominated_mask(y[remaining])
        layers[remaining[front]] = layer
        remaining = remaining[~front]
        layer += 1
    return layers


def longest_chain_layers(points: np.ndarray) -> np.ndarray:
    """0-based layer of every row as the length of the longest chain of rows dominating it.

    Row s is in layer 0 when nothing dominates it, else one more than the largest layer
    among the rows that dominate it (peeling gives the same layers: a row of layer r is
    dominated by one of layer r - 1). Rows are taken in order of how many rows are <= them
    in every objective, which puts every dominating row first. O(N^2 K) memory and time.
    """
    y = np.asarray(points, dtype=np.float64)
    n = y.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    dominates = dominance_matrix(y)
    weakly_below = (y[:, None, :] <= y[None, :, :]).all(axis=2).sum(axis=0)
    rank = np.zeros(n, dtype=np.int64)
    for s in np.argsort(weakly_below, kind="stable"):
        dominators = np.flatnonzero(dominates[:, s])
        rank[s] = rank[dominators].max() + 1 if dominators.size else 0
    return rank


def lexicographic_order(points: np.ndarray) -> np.ndarray:
    """Stable lexicographic row order (first column most significant)."""
    y = np.asarray(points, dtype=np.float64)
    return np.lexsort(y.T[::-1])


def stable_argsort(values: np.ndarray) -> np.ndarray:
    """numpy's stable argsort."""
    return np.argsort(np.asarray(values, dtype=np.float64), kind="stable")


def all_finite(points: np.ndarray) -> bool:
    """True when no cell is NaN or infinite."""
    return bool(np.isfinite(points).all())


def layer_tree_layers(points: np.ndarray, leaf_size: int = 2) -> np.ndarray:
    """0-based layers by the layer-maximum k-d tree, written plainly (recursive, Python).

    The twin of :func:`copa_dash.core._kernels.dominance_layer_tree.layer_tree_layers`:
    the distinct rows (``np.unique``, lexicographic) are placed in order; the layer of a
    row is one more than the largest layer among the placed rows that are <= it in
    objectives 1..K-1 (-1 when there is none), asked of a k-d tree whose nodes keep the
    largest layer of their placed rows. Its tree is split at the median of objectives
    1..K-1 in turn (the kernel splits the widest side) and its nodes keep the box of all
    their rows (the kernel: of their placed rows), so the two share the idea and no code.
    Duplicates take the layer of their copy. O(N^2) at worst; for tests.
    """
    y = np.asarray(points, dtype=np.float64) + 0.0  # -0.0 and 0.0: one value
    n, k = y.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    rows, back = np.unique(y, axis=0, return_inverse=True)
    rest = rows[:, 1:]
    d = k - 1
    path = [[] for _ in range(rows.shape[0])]  # the nodes from the root to each row's leaf

    def build(ids, depth):
        node = {"best": -1, "low": rest[ids].min(axis=0), "high": rest[ids].max(axis=0)}
        for i in ids:
            path[i].append(node)
        if len(ids) <= leaf_size or d == 0:
            node["rows"] = ids
            return node
        ids = sorted(ids, key=lambda i: rest[i, depth % d])
        half = len(ids) // 2
        node["children"] = [build(ids[:half], depth + 1), build(ids[half:], depth + 1)]
        return node

    root = build(list(range(rows.shape[0])), 0)
    layer = np.full(rows.shape[0], -1, dtype=np.int64)

    def best_below(node, p, best):
        if node["best"] <= best or (node["low"] > p).any():
            return best
        if "rows" in node:
            for i in node["rows"]:
                if layer[i] > best and (rest[i] <= p).all():
                    best = int(layer[i])
            return best
        for child in node["children"]:
            best = best_below(child, p, best)
        return best

    for s in range(rows.shape[0]):
        layer[s] = best_below(root, rest[s], -1) + 1
        for node in path[s]:
            node["best"] = max(node["best"], int(layer[s]))
    return layer[back.reshape(-1)]
