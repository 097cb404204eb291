"""Brushing on Explore's parallel coordinates: a range dragged on an axis becomes a range
constraint on that objective (services/brushing.py says why it keeps exactly the brushed rows),
written into the constraint boxes, so it is listed, kept in the link and undone like any other."""

from __future__ import annotations

from dash import ALL, Input, Output, State, no_update
from dash.exceptions import PreventUpdate

from copa_dash.services.brushing import brushed_axis, brushed_range
from copa_dash.ui.features.explore import view_memo
from copa_dash.ui.features.explore.ids import ExploreIds as ID


def brush_to_constraint(selected, range_ids, query):
    """(min values, max values) for the constraint boxes ``range_ids`` from Plotly's
    ``selectedData`` of the parallel-coordinates figure; PreventUpdate when the drag is not a
    range on one axis, or keeps no row."""
    box = (selected or {}).get("range") or {}
    if not query or "x" not in box or "y" not in box:
        raise PreventUpdate
    result = view_memo.exploration(view_memo.state_of(query))
    if isinstance(result, str):
        raise PreventUpdate
    names = list(result.problem.preferences.objectives)
    axis = brushed_axis(*box["x"], len(names))
    found = None if axis is None else brushed_range(result.problem, axis, *box["y"])
    if found is None:
        raise PreventUpdate
    column = names[axis]
    lows = [found[0] if i["column"] == column else no_update for i in range_ids]
    highs = [found[1] if i["column"] == column else no_update for i in range_ids]
    return lows, highs


def register(app) -> None:
    """Attach the brush callback to ``app``."""
    app.callback(Output({"type": ID.RANGE_MIN, "column": ALL}, "value"),
                 Output({"type": ID.RANGE_MAX, "column": ALL}, "value"),
                 Input(ID.PARALLEL, "selectedData"),
                 State({"type": ID.RANGE_MIN, "column": ALL}, "id"), State(ID.QUERY, "data"),
                 prevent_initial_call=True)(brush_to_constraint)
