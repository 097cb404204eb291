"""Compiled permutation loop of the Pareto-improvement test (METHODS.md, "Significance").

Every function takes C-contiguous float64 arrays oriented to minimisation (labels int8,
offsets and counts int64/float64) and checks nothing; :mod:`copa_dash.core.significance`
validates. A label vector gives each used run its side: 0 baseline, 1 candidate.
Hypervolumes come from :mod:`copa_dash.core._kernels.hypervolume` (``hv2d``, ``hv3d``), so
the loops serve K = 2 and 3; K >= 4 runs from Python (see :mod:`..significance`).
Twins: ``_reference/significance.py``.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .hypervolume import hv2d, hv3d


@njit(cache=True)
def pooled_side_points(rows, run_start, labels, side):
    """Rows of the runs labelled ``side``, pooled (run r owns rows run_start[r]:run_start[r+1])."""
    n = 0
    for r in range(labels.shape[0]):
        if labels[r] == side:
            n += run_start[r + 1] - run_start[r]
    out = np.empty((n, rows.shape[1]), dtype=np.float64)
    m = 0
    for r in range(labels.shape[0]):
        if labels[r] == side:
            for i in range(run_start[r], run_start[r + 1]):
                for d in range(rows.shape[1]):
                    out[m, d] = rows[i, d]
                m += 1
    return out


@njit(cache=True)
def mean_side_points(sums, counts, labels, side):
    """Per-config means over the runs labelled ``side``; configs the side lacks are skipped.

    ``sums[r, c]`` is the sum of run r's rows with config c, ``counts[r, c]`` their number;
    runs are added in index order, so a set of runs always gives the same floats.
    """
    n_runs, n_configs, k = sums.shape
    acc = np.zeros((n_configs, k), dtype=np.float64)
    cnt = np.zeros(n_configs, dtype=np.float64)
    for r in range(n_runs):
        if labels[r] == side:
            for c in range(n_configs):
                if counts[r, c] > 0:
                    cnt[c] += counts[r, c]
                    for d in range(k):
                        acc[c, d] += sums[r, c, d]
    n = 0
    for c in range(n_configs):
        if cnt[c] > 0:
            n += 1
    out = np.empty((n, k), dtype=np.float64)
    m = 0
    for c in range(n_configs):
        if cnt[c] > 0:
            for d in range(k):
                out[m, d] = acc[c, d] / cnt[c]
            m += 1
    return out


@njit(cache=True)
def hypervolume_2d_3d(points, ref):
    """Exact HV of any 2- or 3-objective rows (dominated or outside r: fine)."""
    if points.shape[1] == 2:
        return hv2d(points, ref)
    return hv3d(points, ref)


@njit(cache=True)
def _hv_delta(side1, side0, ref):
    """``HV(side1) - HV(side0)``, the first side's computed first."""
    hv1 = hypervolume_2d_3d(side1, ref)
    return hv1 - hypervolume_2d_3d(side0, ref)


@njit(cache=True)
def pooled_deltas(rows, run_start, labels, ref):
    """``HV(side 1) - HV(side 0)`` for every label vector (row of ``labels``), K = 2 or 3."""
    out = np.empty(labels.shape[0], dtype=np.float64)
    for b in range(labels.shape[0]):
        out[b] = _hv_delta(pooled_side_points(rows, run_start, labels[b], 1),
                           pooled_side_points(rows, run_start, labels[b], 0), ref)
    return out


@njit(cache=True)
def mean_deltas(sums, counts, labels, ref):
    """As :func:`pooled_deltas` with each side's front built from per-config means."""
    out = np.empty(labels.shape[0], dtype=np.float64)
    for b in range(labels.shape[0]):
        out[b] = _hv_delta(mean_side_points(sums, counts, labels[b], 1),
                           mean_side_points(sums, counts, labels[b], 0), ref)
    return out
