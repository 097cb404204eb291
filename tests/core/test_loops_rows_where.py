"""``loops.rows_where`` against numpy's boolean indexing (the independent source)."""

import numpy as np
import pytest

from copa_dash.core._kernels.loops import rows_where


@pytest.mark.parametrize(("n", "k", "share"), [(0, 3, 0.5), (1, 2, 1.0), (40, 4, 0.3),
                                               (40, 4, 0.0), (300, 6, 0.9)])
def test_rows_where_matches_boolean_indexing(n, k, share):
    rng = np.random.default_rng(n * 10 + k)
    points = rng.random((n, k))
    points[rng.random((n, k)) < 0.05] = np.nan
    keep = rng.random(n) < share
    got = rows_where(points, keep)
    assert got.shape == (int(keep.sum()), k)
    np.testing.assert_array_equal(got, points[keep])


@pytest.mark.parametrize(("k", "cols"), [(2, 2), (5, 4), (8, 8)])
def test_clamp_row_is_the_elementwise_maximum_and_says_when_j_is_below_i(k, cols):
    from copa_dash.core._kernels.loops import clamp_row

    rng = np.random.default_rng(k)
    src = rng.random((6, k))
    src[3, :cols] = np.minimum(src[3, :cols], src[4, :cols])       # row 3 <= row 4
    dst = np.full((2, k), -1.0)
    for j, i in ((0, 1), (3, 4), (4, 4)):
        covered = clamp_row(src, j, i, dst, 1, cols)
        np.testing.assert_array_equal(dst[1, :cols], np.maximum(src[j, :cols], src[i, :cols]))
        assert covered == bool(np.all(src[j, :cols] <= src[i, :cols]))
    assert (dst[0] == -1.0).all()                                   # other rows untouched
