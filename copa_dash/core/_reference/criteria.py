"""Reference twin of :mod:`copa_dash.core._kernels.criteria`: the definitions, as plain loops.

The criterion is the textbook formula ``(sum_k (w_k u_k)^p)^(1/p)`` (no rescaling), so keep
p moderate (it underflows for large p on small u). Selection follows the rule stated in the
kernel module literally: filter by the band of each key in turn, then take the first row.
"""

from __future__ import annotations

import math

import numpy as np

from .._kernels.ties import TIE_RTOL, TIEBREAK_P


def criterion(row, w, p) -> float:
    """C of one row; NaN if any value is NaN."""
    terms = [float(wk) * float(x) for wk, x in zip(w, row)]
    if any(math.isnan(t) for t in terms):
        return math.nan
    if math.isinf(p):
        return max(terms)
    return sum(t ** p for t in terms) ** (1.0 / p)


def copa_scores(u, w, p) -> np.ndarray:
    """C of every row."""
    return np.array([criterion(row, w, p) for row in np.asarray(u, dtype=float)])


def _band(rows, key):
    best = min(key[i] for i in rows)
    return [i for i in rows if key[i] <= best * (1.0 + TIE_RTOL)]


def copa_select(u, w, p, eligible) -> int:
    """Selected row index, or -1 when no eligible row has a finite C."""
    u = np.asarray(u, dtype=float)
    c = {i: criterion(u[i], w, p) for i in range(len(u)) if eligible[i]}
    rows = [i for i, v in c.items() if not math.isnan(v)]
    if not rows:
        return -1
    rows = _band(rows, c)
    rows = _band(rows, {i: criterion(u[i], w, TIEBREAK_P) for i in rows})
    rows = _band(rows, {i: sum(float(x) for x in u[i]) for i in rows})
    return min(rows)


def copa_ranking(u, w, p, eligible) -> np.ndarray:
    """Eligible rows with a finite C, best first: select, remove, repeat."""
    left = np.array(eligible, dtype=bool, copy=True)
    out = []
    while True:
        i = copa_select(u, w, p, left)
        if i < 0:
            return np.array(out, dtype=np.int64)
        out.append(i)
        left[i] = False
