"""The brush as the view callback reads it (explore/brushing.py): the axis a brush holds is
the objective drawn there (past a dozen objectives the focus is drawn first), and the brushed
range replaces that column's constraint boxes, and only them."""

from __future__ import annotations

from types import SimpleNamespace as NS

from dash import no_update

from copa_dash.ui.features.explore.brushing import brushed_objective, with_brush
from copa_dash.ui.features.explore.figures import shown_axes

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
