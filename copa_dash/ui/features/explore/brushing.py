"""Brushing on Explore's parallel coordinates: a range dragged on an axis becomes a range
constraint on that objective (services/brushing.py says why it keeps exactly the brushed rows),
written into the constraint boxes, so it is listed, kept in the link and undone like any other.

The brush is read by the page's one view callback (:func:`~.callbacks.update_view`), which
writes the boxes and draws the new view in the same response: a callback of its own that
only wrote the boxes cost a second round trip, the view callback running after it (see
docs/benchmarks.md, "28 Nov 2026, session 13").

Every brush that reaches the server redraws the parallel figure (:func:`redrawn`), even when
the view it asks for is the one shown: Plotly keeps a dragged box as a persistent selection
with handles, and a next drag that starts on it moves or resizes that box instead of drawing
a new one (on a table with few lines, a second drag often keeps the same rows, so nothing else
redrew the figure, and the third drag then changed nothing: issue 33, session 14). A brush
that holds no axis, or no row passing the other constraints, says so on the figure
(:func:`~.parallel_axes.brush_note`) and leaves the constraints as they are.
"""

from __future__ import annotations

from dash import no_update
from dash.exceptions import PreventUpdate

from copa_dash.services.brushing import brushed_axis, brushed_range, passing_other_constraints
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.explore import figures, parallel_axes, view_memo
from copa_dash.ui.features.explore.figures import shown_axes
from copa_dash.ui.features.explore.ids import ExploreIds as ID

# the property the view callback reads the brush from
BRUSH_TRIGGER = f"{ID.PARALLEL}.selectedData"


NO_AXIS = ("The box you dragged crosses no axis, so no constraint changed: drag a box across "
           "one axis, from the top to the bottom of the range to keep.")


def no_row_note(column: str, u_low: float, u_high: float) -> str:
    """What the page says when a brush on ``column`` over u in [u_low, u_high] holds no row
    passing the other constraints.

    >>> no_row_note("time_train_s", 0.62, 0.41)
    'No row passing the other constraints lies where you dragged on time_train_s (where 41% to 62% of rows are better than it), so no constraint changed: drag across the lines on that axis.'
    """
    low, high = sorted((float(u_low), float(u_high)))
    return (f"No row passing the other constraints lies where you dragged on {column} (where "
            f"{max(low, 0):.0%} to {min(high, 1):.0%} of rows are better than it), so no "
            "constraint changed: drag across the lines on that axis.")


def brushed_bounds(selected, query: str | None) -> tuple[tuple[str, float, float] | None,
                                                         str | None]:
    """The constraint a brush asks for: ``((column, low, high), None)`` in the objective's own
    units, from Plotly's ``selectedData`` of the parallel-coordinates figure drawn for the
    view ``query`` (the page's query store); ``(None, note)`` with the words to show when the
    box holds no axis, or no row passing the view's other constraints. PreventUpdate when
    ``selectedData`` holds no box (a click, or Plotly clearing the box when the figure is
    redrawn) or the view has nothing drawn.

    The figure draws the objectives :func:`~.figures.shown_axes` lists, in that order (past
    a dozen objectives, the focus first), so the brushed axis is looked up there. The rows
    read are those passing every constraint but the brushed column's own range
    (:func:`~copa_dash.services.brushing.passing_other_constraints`), so a drag can widen a
    range again.
    """
    box = (selected or {}).get("range") or {}
    if not query or "x" not in box or "y" not in box:
        raise PreventUpdate
    state = view_memo.state_of(query)
    result = view_memo.exploration(state)
    if isinstance(result, str):
        raise PreventUpdate
    preferences = result.problem.preferences
    objective = brushed_objective(*box["x"], preferences)
    if objective is None:
        return None, NO_AXIS
    column = preferences.objectives[objective]
    frame = open_dataset(state.dataset, current_settings()).table.frame
    considered = passing_other_constraints(frame, result.problem, state.row_filter(), column)
    found = brushed_range(result.problem, objective, *box["y"], considered=considered)
    if found is None:
        return None, no_row_note(column, *box["y"])
    return (column, found[0], found[1]), None


def apply_brush(controls: dict, selected, query: str | None) -> tuple[dict, tuple, str | None]:
    """The view's controls after a brush, the constraint boxes' outputs and the note to show
    (:func:`brushed_bounds`): the brushed range in its column's boxes, or the controls as
    they were and ``no_update`` in every box when the brush held nothing."""
    bounds, note = brushed_bounds(selected, query)
    if bounds is None:
        return controls, ([no_update] * len(controls["range_ids"]),) * 2, note
    changed, shown = with_brush(controls, bounds)
    return changed, shown, None


def redrawn(parallel, result, ranges, note: str | None) -> dict:
    """The parallel figure to send after a brush: the one already drawn for the new view, or
    drawn anew when the view did not change (``parallel`` is then ``no_update`` or a patch),
    without Plotly's selection box and with ``note`` written on it (:func:`~.parallel_axes.brush_note`)."""
    figure = parallel if isinstance(parallel, dict) else figures.parallel_figure(result, ranges)
    layout = dict(figure["layout"], selections=[])
    if note:
        layout["annotations"] = [*layout.get("annotations", []), parallel_axes.brush_note(note)]
    return dict(figure, layout=layout)


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
