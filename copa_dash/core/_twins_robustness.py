"""Numpy twins of :mod:`copa_dash.core._kernels.robustness` (see :mod:`._twins`).

They answer while the kernels compile, and are the plain numpy implementation the benchmark
(``benchmarks/bench_robustness.py``) compares the kernels with: the same rows, the same
tie rule, the same result.
"""

from __future__ import annotations

import numpy as np

from . import _twins as _base
from ._kernels.ties import TIE_RTOL


def top_candidates(u, eligible, depth):
    """Eligible rows without NaN that fewer than ``depth`` rows precede (table order)."""
    k = u.shape[1]
    valid = np.flatnonzero(np.asarray(eligible) & ~np.isnan(u).any(axis=1))
    m = valid.shape[0]
    if float(m) * m * max(k, 1) > _base._MAX_PAIR_WORK:
        raise _base.TwinDeclined(f"{m} rows is too many for the numpy twin")
    y = u[valid]
    keep = np.zeros(m, dtype=bool)
    step = max(1, _base._CHUNK_CELLS // max(m * k, 1))
    later = np.arange(m)
    for lo in range(0, m, step):
        block = y[lo:lo + step]
        le = (y[None, :, :] <= block[:, None, :]).all(axis=2)
        lt = (y[None, :, :] < block[:, None, :]).any(axis=2)
        own = np.arange(lo, lo + block.shape[0])[:, None]
        precede = le & (lt | (later[None, :] < own)) & (later[None, :] != own)
        keep[lo:lo + step] = precede.sum(axis=1) < depth
    return valid[keep].astype(np.int64)


def top_rows(u, candidates, weights, p, depth):
    """(T, depth): the first ``depth`` rows of the ranking for each weight row, vectorised
    over the weights; a draw with a tie on C goes through the tie-breaks one by one."""
    n_draws = weights.shape[0]
    n_cand = candidates.shape[0]
    out = np.full((n_draws, depth), -1, dtype=np.int64)
    if n_cand == 0:
        return out
    uc = u[candidates]
    step = max(1, _base._CHUNK_CELLS // max(n_cand * u.shape[1], 1))
    for lo in range(0, n_draws, step):
        w = weights[lo:lo + step]
        c = _base._criterion(w[:, None, :] * uc[None, :, :], p)
        rows = np.arange(w.shape[0])
        for d in range(min(depth, n_cand)):
            best = c.min(axis=1)
            band = c <= (best * (1.0 + TIE_RTOL))[:, None]
            winner = np.argmin(c, axis=1)
            for t in np.flatnonzero(band.sum(axis=1) > 1):
                members = np.flatnonzero(band[t])
                winner[t] = members[_base.pick_from_band(u, w[t], candidates[members],
                                                   members.shape[0])]
            out[lo:lo + step, d] = candidates[winner]
            c[rows, winner] = np.inf
    return out



#: looked up by :mod:`.jit` beside :data:`._twins.TWINS`
TWINS = {
    "robustness.top_candidates": top_candidates,
    "robustness.top_rows": top_rows,
}
