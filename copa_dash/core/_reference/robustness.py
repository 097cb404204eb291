"""Reference twin of :mod:`copa_dash.core._kernels.robustness`: the full reference ranking
for every weight vector, no pruning."""

from __future__ import annotations

import numpy as np

from .criteria import copa_ranking


def top_rows(u, eligible, weights, p, depth) -> np.ndarray:
    """(T, depth): the first ``depth`` rows of the reference ranking of the eligible rows for
    each weight row (-1 where fewer rows can be ranked)."""
    out = np.full((len(weights), depth), -1, dtype=np.int64)
    for t, w in enumerate(np.asarray(weights, dtype=float)):
        order = copa_ranking(u, w, p, eligible)[:depth]
        out[t, :len(order)] = order
    return out
