"""The staircase search ``search_sorted`` against numpy's ``searchsorted`` (the independent
source)."""

import numpy as np
import pytest

from copa_dash.core._kernels.loops import search_sorted


@pytest.mark.parametrize("seed", range(6))
def test_search_left_and_right_are_searchsorted_on_the_slice(seed):
    rng = np.random.default_rng(seed)
    a = np.sort(rng.integers(0, 6, size=int(rng.integers(0, 15))).astype(np.float64))  # ties
    for _ in range(40):
        lo = int(rng.integers(0, a.shape[0] + 1))
        hi = int(rng.integers(lo, a.shape[0] + 1))
        value = float(rng.integers(-1, 7))
        for right, side in ((False, "left"), (True, "right")):
            expected = lo + np.searchsorted(a[lo:hi], value, side)
            assert search_sorted(a, lo, hi, value, right) == expected
