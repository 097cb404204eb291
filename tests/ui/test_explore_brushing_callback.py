"""The brush as the view callback reads it (explore/brushing.py): the axis a brush holds is
the objective drawn there (past a dozen objectives the focus is drawn first), and the brushed
range replaces that column's constraint boxes, and only them; the rows it reads are those
passing the view's other constraints (a range set by one drag can be widened by the next); a
brush that holds no axis or no row says so on the figure; and the figure sent after every
brush carries no selection box (Plotly's persistent box made the next drag move it)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace as NS

import numpy as np
import pytest
from dash import no_update
from dash.exceptions import PreventUpdate

from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore import brushing, figures, view_memo
from copa_dash.ui.features.explore.brushing import brushed_objective, with_brush
from copa_dash.ui.features.explore.figures import shown_axes
from copa_dash.ui.features.explore.state import parse_query, to_query, with_defaults

NAMES = tuple(f"m{k}" for k in range(20))


def test_the_brushed_axis_is_the_objective_drawn_there():
    preferences = NS(objectives=NAMES, focus=("m15", "m3"))
    drawn = shown_axes(preferences).tolist()
    assert drawn[:3] == [15, 3, 0]
    for k, objective in enumerate(drawn):
        assert brushed_objective(k - 0.3, k + 0.3, preferences) == objective
    assert brushed_objective(0.3, 0.6, preferences) is None       # between two axes
    few = NS(objectives=("a", "b", "c"), focus=("c",))
    assert [brushed_objective(k - 0.1, k + 0.1, few) for k in range(3)] == [0, 1, 2]


def test_the_brush_replaces_its_column_boxes_only():
    controls = {"range_ids": [{"column": c} for c in "abc"], "range_min": [1.0, None, 3.0],
                "range_max": [2.0, None, None], "alpha": 0.5}
    changed, shown = with_brush(controls, ("b", 4.5, 7.25))
    assert changed["range_min"] == [1.0, 4.5, 3.0] and changed["range_max"] == [2.0, 7.25, None]
    assert changed["alpha"] == 0.5 and controls["range_min"] == [1.0, None, 3.0]   # not mutated
    assert shown == ([no_update, 4.5, no_update], [no_update, 7.25, no_update])


AMLB = "amlb-2022"        # its default view: 3 objectives, one task (a set constraint)


def _amlb(**changes):
    opened = open_dataset(AMLB)
    state = replace(with_defaults(parse_query({"dataset": AMLB}), opened, given={"dataset"}),
                    **changes)
    return opened, state, view_memo.exploration(state)


def _brush(k, u_low, u_high):
    return {"points": [], "range": {"x": [k - 0.07, k + 0.07], "y": [u_low, u_high]}}


def _task_rows(opened, state, result):
    """The scored rows passing the view's set constraints (the task), by hand."""
    frame = opened.table.frame
    keep = np.ones(len(frame), dtype=bool)
    for column, values in state.sets:
        keep &= frame[column].astype(str).isin([str(v) for v in values]).to_numpy()
    return keep[result.problem.rows]


def test_a_brush_reads_the_rows_passing_the_other_constraints_and_can_widen_again():
    opened, state, result = _amlb()
    assert state.sets and not state.ranges
    k = 1
    column = result.problem.preferences.objectives[k]
    task = _task_rows(opened, state, result)
    u, raw = result.problem.u[:, k], result.problem.raw[:, k]
    (bounds, note) = brushing.brushed_bounds(_brush(k, 0.1, 0.6), to_query(state))
    inside = task & (u >= 0.1) & (u <= 0.6)
    assert note is None and bounds == (column, raw[inside].min(), raw[inside].max())
    # the range is now the view's; a drag over the whole axis widens it to the task's rows
    narrowed = replace(state, ranges=((column, bounds[1], bounds[2]),))
    (wider, note) = brushing.brushed_bounds(_brush(k, 0.0, 1.0), to_query(narrowed))
    assert note is None and wider == (column, raw[task].min(), raw[task].max())
    assert wider[1] < bounds[1] and wider[2] > bounds[2]


def test_a_brush_that_holds_no_axis_or_no_row_says_so_and_changes_nothing():
    opened, state, result = _amlb()
    query = to_query(state)
    assert brushing.brushed_bounds(_brush(0.5, 0.1, 0.6), query) == (None, brushing.NO_AXIS)
    k = 1
    column = result.problem.preferences.objectives[k]
    held = np.sort(result.problem.u[_task_rows(opened, state, result), k])
    gaps = np.diff(held)
    assert gaps.max() > 0.02
    low = held[int(np.argmax(gaps))] + gaps.max() / 4       # inside the widest gap
    high = low + gaps.max() / 2
    bounds, note = brushing.brushed_bounds(_brush(k, low, high), query)
    assert bounds is None and note == brushing.no_row_note(column, low, high)
    controls = {"range_ids": [{"column": column}], "range_min": [None], "range_max": [None]}
    kept, boxes, said = brushing.apply_brush(controls, _brush(k, low, high), query)
    assert kept is controls and boxes == ([no_update], [no_update]) and said == note
    with pytest.raises(PreventUpdate):          # Plotly clearing its box: no brush at all
        brushing.brushed_bounds({"points": []}, query)


def test_the_figure_sent_after_a_brush_has_no_selection_box_and_shows_the_note():
    _, state, result = _amlb()
    drawn = figures.parallel_figure(result, state.ranges)
    again = brushing.redrawn(no_update, result, state.ranges, None)    # the view unchanged
    assert again["layout"]["selections"] == [] and again["data"] == drawn["data"]
    noted = brushing.redrawn(drawn, result, state.ranges, "nothing there")
    assert noted["layout"]["selections"] == []
    assert noted["layout"]["annotations"][-1]["text"] == "nothing there"
    assert "selections" not in drawn["layout"]                           # not mutated
    assert len(noted["layout"]["annotations"]) == len(drawn["layout"]["annotations"]) + 1
