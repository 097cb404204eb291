"""Reference twin of :mod:`copa_dash.core._kernels.sweep`: one full selection per alpha."""

from __future__ import annotations

import numpy as np

from .criteria import copa_select


def alpha_sweep_select(u, in_focus, a, b, p, eligible) -> np.ndarray:
    """Selected row for every grid point: the reference selection with w = (a on F, b off F)."""
    in_focus = np.asarray(in_focus, dtype=bool)
    out = np.empty(len(a), dtype=np.int64)
    for t in range(len(a)):
        w = np.where(in_focus, a[t], b[t])
        out[t] = copa_select(u, w, p, eligible)
    return out
