"""Slow, obviously-correct twins of :mod:`copa_dash.core._kernels.hypervolume`.

Plain numpy on float64 arrays oriented to minimisation; for tests and benchmarks.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np


def _inside(points: np.ndarray, ref: np.ndarray) -> np.ndarray:
    y = np.asarray(points, dtype=np.float64).reshape(-1, np.asarray(ref).shape[0])
    return y[(y < ref).all(axis=1)]


def hypervolume_inclusion_exclusion(points: np.ndarray, ref: np.ndarray) -> float:
    """Volume of the union of boxes [p, ref] by inclusion-exclusion. O(2^N K): N <= ~14.

    ``HV = sum over non-empty subsets S of (-1)^(|S|+1) prod_k (ref_k - max_{p in S} p_k)``.
    """
    ref = np.asarray(ref, dtype=np.float64)
    y = _inside(points, ref)
    total = 0.0
    for size in range(1, y.shape[0] + 1):
        sign = 1.0 if size % 2 else -1.0
        for subset in combinations(range(y.shape[0]), size):
            total += sign * np.prod(ref - y[list(subset)].max(axis=0))
    return float(total)


def hypervolume_grid(points: np.ndarray, ref: np.ndarray) -> float:
    """Volume by cutting the box into grid cells at every coordinate and summing the cells
    whose lower corner some row weakly dominates. O(N^K * N K): small N and K only."""
    ref = np.asarray(ref, dtype=np.float64)
    y = _inside(points, ref)
    if y.shape[0] == 0:
        return 0.0
    k = ref.shape[0]
    edges = [np.unique(np.append(y[:, d], ref[d])) for d in range(k)]
    lows = np.meshgrid(*[e[:-1] for e in edges], indexing="ij")
    widths = np.meshgrid(*[np.diff(e) for e in edges], indexing="ij")
    corners = np.stack([g.reshape(-1) for g in lows], axis=1)
    volumes = np.prod(np.stack([w.reshape(-1) for w in widths], axis=1), axis=1)
    covered = (y[None, :, :] <= corners[:, None, :]).all(axis=2).any(axis=1)
    return float(volumes[covered].sum())


def count_dominated_samples(front: np.ndarray, samples: np.ndarray) -> int:
    """Number of samples that some front row weakly dominates (and differs from)."""
    front = np.asarray(front, dtype=np.float64)
    samples = np.asarray(samples, dtype=np.float64)
    if front.shape[0] == 0:
        return 0
    le = (front[None, :, :] <= samples[:, None, :]).all(axis=2)
    lt = (front[None, :, :] < samples[:, None, :]).any(axis=2)
    return int((le & lt).any(axis=1).sum())


def hypervolume_qhv(points: np.ndarray, ref: np.ndarray) -> float:
    """QHV-II's split written as a plain recursion (twin of ``_kernels.hypervolume_qhv``).

    In the box ``[lo, hi]`` the row with the largest clamped box ``[max(q, lo), hi]`` (the
    pivot p') counts whole; the rest of the box is the K disjoint boxes
    ``{x : x_i >= p'_i (i < j), x_j < p'_j}``, each holding the other rows with
    ``q_j < p'_j`` (Jaszkiewicz 2018, section 3). Rows outside ``ref`` add nothing.
    """
    ref = np.asarray(ref, dtype=np.float64)
    y = _inside(points, ref)
    return _qhv_box(y, np.full(ref.shape[0], -np.inf), ref)


def _qhv_box(rows: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:
    if rows.shape[0] == 0:
        return 0.0
    clamped = np.maximum(rows, lo)
    volumes = np.prod(hi - clamped, axis=1)
    best = int(np.argmax(volumes))
    pivot = clamped[best]
    others = np.delete(rows, best, axis=0)
    total = float(volumes[best])
    for j in range(lo.shape[0]):
        sub_lo = np.where(np.arange(lo.shape[0]) < j, pivot, lo)
        sub_hi = hi.copy()
        sub_hi[j] = pivot[j]
        if sub_hi[j] > sub_lo[j]:
            total += _qhv_box(others[others[:, j] < pivot[j]], sub_lo, sub_hi)
    return total
