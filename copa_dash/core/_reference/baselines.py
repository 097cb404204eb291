"""Reference twin of :mod:`copa_dash.core._kernels.baselines`: App. A of the COPA paper, literally.

Builds the full pairwise matrix with the paper's if/else and takes the eigenvector of the
largest eigenvalue with ``numpy.linalg.eig``. O(n^2) memory, O(n^3) time: small n only.
"""

from __future__ import annotations

import math

import numpy as np


def ahp_matrix(z) -> np.ndarray:
    """Pairwise comparison matrix of one objective's max-normalised values z (App. A, 2a)."""
    z = [float(v) for v in z]
    n = len(z)
    span = math.log(max(z)) - math.log(min(z))
    a = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            if z[i] >= z[j]:
                a[i, j] = 1.0 if span == 0 else (math.log(z[i]) - math.log(z[j])) / span * 8 + 1
    for i in range(n):
        for j in range(n):
            if z[i] < z[j]:
                a[i, j] = 1.0 / a[j, i]
    return a


def ahp_priorities(z) -> np.ndarray:
    """Principal eigenvector (App. A, 2b), normalised to sum 1 (2c). The kernel takes ln z."""
    a = ahp_matrix(z)
    values, vectors = np.linalg.eig(a)
    v = np.real(vectors[:, int(np.argmax(np.real(values)))])
    return v / v.sum()
