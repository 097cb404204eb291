"""Slow, obviously-correct twins of :mod:`copa_dash.core._kernels.significance`; tests only.

Inputs are min-oriented float64 arrays laid out as the kernels read them: pooled rows
grouped by run with offsets ``run_start``, or per-(run, config) sums and counts.
Hypervolumes by brute-force grid count.
"""

from __future__ import annotations

import itertools

import numpy as np

from .indicators import hypervolume_brute


def pooled_side_points(rows, run_start, labels, side) -> np.ndarray:
    """Twin: the rows of every run labelled ``side``, in run order."""
    parts = [rows[run_start[r]:run_start[r + 1]] for r in range(len(labels)) if labels[r] == side]
    return np.concatenate(parts) if parts else np.empty((0, rows.shape[1]))


def mean_side_points(sums, counts, labels, side) -> np.ndarray:
    """Twin: per-config means over the runs labelled ``side`` (configs it lacks skipped)."""
    chosen = np.asarray(labels) == side
    total = sums[chosen].sum(axis=0)
    n = counts[chosen].sum(axis=0)
    return total[n > 0] / n[n > 0, None]


def pooled_deltas(rows, run_start, labels, ref) -> np.ndarray:
    """Twin of the pooled loop: HV(side 1) - HV(side 0) per label vector."""
    return np.array([hypervolume_brute(pooled_side_points(rows, run_start, lab, 1), ref)
                     - hypervolume_brute(pooled_side_points(rows, run_start, lab, 0), ref)
                     for lab in labels])


def mean_deltas(sums, counts, labels, ref) -> np.ndarray:
    """Twin of the config-means loop."""
    return np.array([hypervolume_brute(mean_side_points(sums, counts, lab, 1), ref)
                     - hypervolume_brute(mean_side_points(sums, counts, lab, 0), ref)
                     for lab in labels])


def all_labelings(labels) -> np.ndarray:
    """Every distinct assignment of the runs to sides with the same side sizes."""
    labels = np.asarray(labels)
    n, n1 = labels.size, int((labels == 1).sum())
    out = []
    for ones in itertools.combinations(range(n), n1):
        lab = np.zeros(n, dtype=np.int8)
        lab[list(ones)] = 1
        out.append(lab)
    return np.array(out)


def exact_p_value(observed: float, null: np.ndarray) -> float:
    """Share of the full permutation distribution at least as extreme: #{|D| >= |d|} / M."""
    tol = abs(observed) * 100 * np.finfo(np.float64).eps
    return float(np.mean(np.abs(null) >= abs(observed) - tol))
