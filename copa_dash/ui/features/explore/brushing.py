"""Brushing on Explore's parallel coordinates: a range dragged on an axis becomes a range
constraint on that objective (services/brushing.py says why it keeps exactly the brushed rows),
written into the constraint boxes, so it is listed, kept in the link and undone like any other.

The brush is read by the page's one view callback (:func:`~.callbacks.update_view`), which
writes the boxes and draws the new view in the same response: a callback of its own that
only wrote the boxes cost a second round trip, the view callback running after it (see
docs/benchmarks.md, "28 Nov 2026, session 13").
"""

from __future__ import annotations

from dash import no_update
from dash.exceptions import PreventUpdate

from copa_dash.services.brushing import brushed_axis, brushed_range
from copa_dash.ui.features.explore import view_memo
from copa_dash.ui.features.explore.figures import shown_axes
from copa_dash.ui.features.explore.ids import ExploreIds as ID

# the property the view callback reads the brush from
BRUSH_TRIGGER = f"{ID.PARALLEL}.selectedData"


def brushed_bounds(selected, query: str | None) -> tuple[str, float, float]:
    """The constraint a brush asks for: (column, low, high) in the objective's own units,
    from Plotly's ``selectedData`` of the parallel-coordinates figure drawn for the view
    ``query`` (the page's query store). PreventUpdate when the drag is not a range on one
    axis, or keeps no row.

    The figure draws the objectives :func:`~.figures.shown_axes` lists, in that order (past
    a dozen objectives, the focus first), so the brushed axis is looked up there.
    """
    box = (selected or {}).get("range") or {}
    if not query or "x" not in box or "y" not in box:
        raise PreventUpdate
    result = view_memo.exploration(view_memo.state_of(query))
    if isinstance(result, str):
        raise PreventUpdate
    preferences = result.problem.preferences
    objective = brushed_objective(*box["x"], preferences)
    found = None if objective is None else brushed_range(result.problem, objective, *box["y"])
    if found is None:
        raise PreventUpdate
    return preferences.objectives[objective], found[0], found[1]


def brushed_objective(x_low: float, x_high: float, preferences) -> int | None:
    """The objective (its index in ``preferences.objectives``) drawn on the axis a brush of
    x extent [x_low, x_high] was drawn on, None when the brush holds no axis.

    >>> from types import SimpleNamespace as NS
    >>> brushed_objective(0.8, 1.2, NS(objectives=tuple("abc"), focus=("c",)))
    1
    >>> names = tuple(f"m{k}" for k in range(20))        # past a dozen: the focus first
    >>> brushed_objective(-0.2, 0.3, NS(objectives=names, focus=("m15",)))
    15
    """
    axes = shown_axes(preferences)
    shown = brushed_axis(x_low, x_high, len(axes))
    return None if shown is None else int(axes[shown])


def with_brush(controls: dict, bounds: tuple[str, float, float]) -> tuple[dict, tuple]:
    """The view's controls with the brushed range written into its column's boxes, and the
    boxes' outputs (the new values there, ``no_update`` in every other box)."""
    column, low, high = bounds
    hit = [i["column"] == column for i in controls["range_ids"]]
    lows = [low if h else v for h, v in zip(hit, controls["range_min"])]
    highs = [high if h else v for h, v in zip(hit, controls["range_max"])]
    shown = ([low if h else no_update for h in hit], [high if h else no_update for h in hit])
    return dict(controls, range_min=lows, range_max=highs), shown
