"""Slow, obviously-correct twins of the per-system indicators; for tests only.

Plain numpy on (N, K) float64 arrays oriented to minimisation. The hypervolume here is
a brute-force grid count (exponential in K), not an algorithm the app uses.
"""

from __future__ import annotations

import itertools

import numpy as np

from .dominance import dominance_matrix


def niche_counts(points: np.ndarray, sigma: float) -> np.ndarray:
    """Twin of ``_kernels.indicators.niche_counts``: ``#{x : ||x - x_i|| < sigma} - 1``."""
    y = np.asarray(points, dtype=np.float64)
    counts = np.zeros(y.shape[0], dtype=np.int64)
    for i in range(y.shape[0]):
        for j in range(y.shape[0]):
            if np.linalg.norm(y[j] - y[i]) < sigma:
                counts[i] += 1
        counts[i] -= 1
    return counts


def hypervolume_brute(points: np.ndarray, ref: np.ndarray) -> float:
    """Exact hypervolume by the grid of all coordinates: sum the covered cells.

    A cell between consecutive grid values is covered iff some point weakly dominates its
    lower corner. O(N^K * N K): small inputs only.
    """
    y = np.asarray(points, dtype=np.float64).reshape(-1, len(ref))
    r = np.asarray(ref, dtype=np.float64)
    y = y[(y < r).all(axis=1)]
    if y.shape[0] == 0:
        return 0.0
    grids = [np.unique(np.append(y[:, k], r[k])) for k in range(r.size)]
    total = 0.0
    for cell in itertools.product(*[range(g.size - 1) for g in grids]):
        lower = np.array([g[c] for g, c in zip(grids, cell)])
        if (y <= lower).all(axis=1).any():
            total += float(np.prod([g[c + 1] - g[c] for g, c in zip(grids, cell)]))
    return total


def radar_area(values) -> float:
    """Polygon area by the surveyor's formula over the regular n-gon of radius 1."""
    r = np.nan_to_num(np.asarray(values, dtype=np.float64), nan=0.0)
    n = r.size
    theta = 2 * np.pi * np.arange(n) / n
    x, y = r * np.cos(theta), r * np.sin(theta)
    area = 0.5 * sum(x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i] for i in range(n))
    return float(area / (0.5 * n * np.sin(2 * np.pi / n)))


def system_indicators(z: np.ndarray, system_index: np.ndarray, n_systems: int,
                      sigma: float) -> dict[str, np.ndarray]:
    """Every indicator from the definitions, on normalised points ``z`` (r = 1).

    Rows with ``system_index == -1`` are ignored. Returns arrays of length ``n_systems``
    with NaN where an indicator is undefined.
    """
    used = system_index >= 0
    zu, su = z[used], system_index[used]
    global_front = ~dominance_matrix(zu).any(axis=0)
    front_points = zu[global_front]
    out = {name: np.full(n_systems, np.nan) for name in
           ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area")}
    for s in range(n_systems):
        rows = zu[su == s]
        if rows.shape[0] == 0:
            continue
        front = rows[~dominance_matrix(rows).any(axis=0)]
        out["hv"][s] = hypervolume_brute(front, np.ones(z.shape[1]))
        out["onvg"][s] = front.shape[0]
        out["onvgr"][s] = front.shape[0] / rows.shape[0]
        if front.shape[0] >= 2:
            nc = niche_counts(front, sigma).astype(float)
            d_nc = np.sqrt(((nc - nc.mean()) ** 2).sum() / (front.shape[0] - 1))
            out["ud_bar"][s] = 1.0 - 1.0 / (1.0 + d_nc)
            span_p = front_points.max(axis=0) - front_points.min(axis=0)
            if (span_p > 0).all():
                out["os"][s] = float(np.prod((front.max(axis=0) - front.min(axis=0)) / span_p))
    out["onvg_hat"] = out["onvg"] / np.nanmax(out["onvg"])
    for s in range(n_systems):
        if not np.isnan(out["onvg"][s]):
            out["area"][s] = radar_area([out[a][s] for a in
                                         ("hv", "onvg_hat", "onvgr", "ud_bar", "os")])
    return out
