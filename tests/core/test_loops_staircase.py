"""The staircase loops ``splice_one``, ``search_left`` and ``search_right`` against Python's
list slice assignment and numpy's ``searchsorted`` (the independent sources)."""

import numpy as np
import pytest

from copa_dash.core._kernels.loops import search_left, search_right, splice_one


@pytest.mark.parametrize("seed", range(6))
def test_splice_one_is_list_slice_assignment(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        end = int(rng.integers(0, 9))
        start = int(rng.integers(0, end + 1))
        stop = int(rng.integers(start, end + 1))
        used = list(rng.random(end))
        a = np.full(end + 1, -7.0)                      # room for one more entry
        a[:end] = used
        splice_one(a, start, stop, end, 0.5)
        used[start:stop] = [0.5]
        assert len(used) == end + 1 - (stop - start)
        np.testing.assert_array_equal(a[:len(used)], used)


@pytest.mark.parametrize("seed", range(6))
def test_search_left_and_right_are_searchsorted_on_the_slice(seed):
    rng = np.random.default_rng(seed)
    a = np.sort(rng.integers(0, 6, size=int(rng.integers(0, 15))).astype(np.float64))  # ties
    for _ in range(40):
        lo = int(rng.integers(0, a.shape[0] + 1))
        hi = int(rng.integers(lo, a.shape[0] + 1))
        value = float(rng.integers(-1, 7))
        assert search_left(a, lo, hi, value) == lo + np.searchsorted(a[lo:hi], value, "left")
        assert search_right(a, lo, hi, value) == lo + np.searchsorted(a[lo:hi], value, "right")
