"""Slow, obviously-correct twin of :mod:`copa_dash.core.generalization`; for tests only.

Fronts from the full pairwise dominance matrices, hypervolumes by brute-force grid count.
Inputs are (N, K) float64 arrays oriented to minimisation.
"""

from __future__ import annotations

import numpy as np

from .dominance import dominance_matrix
from .indicators import hypervolume_brute


def validation_test_fronts(val: np.ndarray, test: np.ndarray, ref: np.ndarray) -> dict:
    """Masks and hypervolumes straight from the definitions (paper Eqs. 1-2)."""
    n = val.shape[0]
    validation = ~dominance_matrix(val).any(axis=0)
    rows = np.flatnonzero(validation)
    beats = dominance_matrix(test[rows])  # beats[a, b]: row a dominates row b on test
    optimistic = np.zeros(n, dtype=bool)
    pessimistic = np.zeros(n, dtype=bool)
    for t, i in enumerate(rows):
        optimistic[i] = not beats[:, t].any()
        pessimistic[i] = not beats[t, :].any()
    hv_opt = hypervolume_brute(test[optimistic], ref)
    hv_pess = hypervolume_brute(test[pessimistic], ref)
    return {"validation_mask": validation, "optimistic_mask": optimistic,
            "pessimistic_mask": pessimistic, "hv_val": hypervolume_brute(val[validation], ref),
            "hv_opt": hv_opt, "hv_pess": hv_pess, "gap": hv_opt - hv_pess}


def front_weakly_dominates(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For every row y of b: does some row x of a satisfy x <= y everywhere? Loops."""
    return np.array([any(all(x[k] <= y[k] for k in range(len(y))) for x in a) for y in b],
                    dtype=bool)
