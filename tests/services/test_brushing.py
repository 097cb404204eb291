"""A brushed u-range as a raw-value constraint (services/brushing.py) keeps exactly the rows
whose u lies in the range: checked by brute force on seeded tables with ties, both directions."""

from __future__ import annotations

import numpy as np
import pytest

from copa_dash.core.ranks import cdf_transform
from copa_dash.services.brushing import brushed_axis, brushed_range
from copa_dash.services.selection import Preferences, SelectionProblem


def _problem(raw, directions):
    u = cdf_transform(raw, directions)
    n = raw.shape[0]
    prefs = Preferences(tuple(f"o{k}" for k in range(raw.shape[1])), tuple(directions))
    return SelectionProblem("d", prefs, np.arange(n), np.arange(n), raw, u, np.ones(n, bool),
                            0, n)


@pytest.mark.parametrize("seed", range(12))
def test_the_range_keeps_exactly_the_rows_brushed(seed):
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 9, size=(40, 3)).astype(float)     # ties on purpose
    directions = ["min", "max", "min"]
    problem = _problem(raw, directions)
    for k in range(3):
        low, high = np.sort(rng.random(2))
        found = brushed_range(problem, k, high, low)          # either order
        inside = (problem.u[:, k] >= low) & (problem.u[:, k] <= high)
        if not inside.any():
            assert found is None
            continue
        kept = (raw[:, k] >= found[0]) & (raw[:, k] <= found[1])
        np.testing.assert_array_equal(kept, inside)


def test_the_axis_is_the_one_inside_the_box_nearest_its_middle():
    assert brushed_axis(0.9, 1.1, 4) == 1
    assert brushed_axis(1.2, 1.8, 4) is None
    assert brushed_axis(-0.3, 0.2, 4) == 0
    assert brushed_axis(3.1, 2.6, 4) == 3
