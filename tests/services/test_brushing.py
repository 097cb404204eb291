"""A brushed u-range as a raw-value constraint (services/brushing.py) keeps exactly the rows
whose u lies in the range: checked by brute force on seeded tables with ties, both directions;
the rows it reads are those passing the other constraints (so a range can widen again)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.ranks import cdf_transform
from copa_dash.data.filters import RowFilter
from copa_dash.services.brushing import brushed_axis, brushed_range, passing_other_constraints
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


def _table_problem(seed):
    """A seeded table (ties on purpose) with a text column, and its problem over every row."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 9, size=(60, 3)).astype(float)
    frame = pd.DataFrame(raw, columns=["o0", "o1", "o2"])
    frame["group"] = rng.choice(["a", "b", "c"], size=60)
    return frame, _problem(raw, ["min", "max", "min"])


@pytest.mark.parametrize("seed", range(8))
def test_the_rows_read_are_those_passing_the_other_constraints(seed):
    frame, problem = _table_problem(seed)
    row_filter = RowFilter(ranges={"o1": (2.0, 5.0), "o2": (None, 6.0)}, sets={"group": ("a", "b")})
    got = passing_other_constraints(frame, problem, row_filter, "o1")
    # independent: row by row, every constraint but the one on o1
    expected = [frame.o2[i] <= 6.0 and frame.group[i] in ("a", "b") for i in range(len(frame))]
    assert got.tolist() == expected
    # the brushed column's own range never counts; no other constraint: every row
    assert passing_other_constraints(frame, problem, RowFilter(ranges={"o1": (2.0, 5.0)}),
                                     "o1") is None


@pytest.mark.parametrize("seed", range(8))
def test_a_brush_keeps_exactly_the_brushed_rows_among_those_considered(seed):
    frame, problem = _table_problem(seed)
    rng = np.random.default_rng(100 + seed)
    considered = frame.group.isin(["a", "c"]).to_numpy()
    for k in range(3):
        low, high = np.sort(rng.random(2))
        found = brushed_range(problem, k, low, high, considered=considered)
        inside = considered & (problem.u[:, k] >= low) & (problem.u[:, k] <= high)
        if not inside.any():
            assert found is None
            continue
        kept = considered & (problem.raw[:, k] >= found[0]) & (problem.raw[:, k] <= found[1])
        np.testing.assert_array_equal(kept, inside)


def test_a_second_brush_on_a_constrained_axis_can_widen_its_range_again():
    frame, problem = _table_problem(3)
    k, column = 0, "o0"
    first = brushed_range(problem, k, 0.3, 0.5)
    view = RowFilter(ranges={column: first})             # the first brush, now a constraint
    problem = replace(problem, eligible=view.mask(frame))
    considered = passing_other_constraints(frame, problem, view, column)
    wider = brushed_range(problem, k, 0.0, 1.0, considered=considered)
    assert wider == (float(frame[column].min()), float(frame[column].max()))
    assert wider[0] < first[0] and wider[1] > first[1]
    # had it read only the rows the first range keeps, it could never leave that range
    assert brushed_range(problem, k, 0.0, 1.0, considered=problem.eligible) == first


def test_a_brush_over_rows_another_constraint_leaves_out_holds_no_row():
    frame, problem = _table_problem(5)
    k = 2
    view = RowFilter(ranges={"o0": (0.0, 0.0)}, sets={"group": ("a",)})   # a few rows
    considered = passing_other_constraints(frame, problem, view, "o2")
    u_out = problem.u[~considered, k]
    u_in = problem.u[considered, k]
    gap = sorted(set(u_out) - set(u_in))                 # u held only by left-out rows
    assert gap
    assert brushed_range(problem, k, gap[0], gap[0], considered=considered) is None
    assert brushed_range(problem, k, gap[0], gap[0]) is not None     # without the others: kept
