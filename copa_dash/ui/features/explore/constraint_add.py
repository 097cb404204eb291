"""The "add a constraint on..." list of Explore and the way back.

A numeric column chosen in the list gets its min/max boxes appended to the constraint rows;
the remove button of a row that is not an objective takes the row (its constraint with it)
away and puts the column back in the list, in its place. The list hides while it offers
nothing. Which columns are offered: services/constraint_columns.py. The view callback reads
the boxes present, so a removed row's range leaves the view and its link."""

from __future__ import annotations

from dash import ALL, Input, Output, Patch, State, ctx
from dash.exceptions import PreventUpdate

from copa_dash.services.catalog import open_dataset
from copa_dash.services.constraint_columns import observed_range
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.explore.controls import (
    add_label,
    add_options,
    other_candidates,
    range_row,
)
from copa_dash.ui.features.explore.ids import ExploreIds as ID


def add_constraint(column, options, ref) -> tuple:
    """The constraint rows with ``column``'s boxes appended (a patch), the list without it,
    emptied for the next choice, its label's count and whether it hides (nothing left).
    PreventUpdate when nothing was chosen or the column holds no number."""
    if not column or not ref:
        raise PreventUpdate
    found = observed_range(open_dataset(ref, current_settings()).table.frame, column)
    if found is None:
        raise PreventUpdate
    rows = Patch()
    rows.append(range_row(found, removable=True))
    left = [o for o in options or () if o["value"] != column]
    return rows, left, None, add_label(len(left)), not left


def remove_constraint(column, row_columns, options, ref) -> tuple:
    """The constraint rows without ``column``'s (a patch: ``row_columns`` are the rows' columns
    in order), the list with ``column`` back in its place (the panel's order), its label and
    whether it hides."""
    if not ref or column not in row_columns:
        raise PreventUpdate
    table = open_dataset(ref, current_settings()).table
    found = observed_range(table.frame, column)
    rows = Patch()
    del rows[row_columns.index(column)]
    offered = [o for o in options or () if o["value"] != column]
    if found is not None:
        order = {name: i for i, name in enumerate(other_candidates(table))}
        offered = sorted(offered + add_options([found]),
                         key=lambda o: order.get(o["value"], len(order)))
    return rows, offered, None, add_label(len(offered)), not offered


def constraint_list(chosen, removals, row_ids, options, ref) -> tuple:
    """One callback for the rows and the list (both change on an addition and a removal):
    which of the two the user did decides. A remove button that appears (n_clicks 0) is no
    click."""
    if ctx.triggered_id == ID.ADD_CONSTRAINT:
        return add_constraint(chosen, options, ref)
    if not isinstance(ctx.triggered_id, dict) or not ctx.triggered[0].get("value"):
        raise PreventUpdate
    return remove_constraint(ctx.triggered_id["column"], [i["column"] for i in row_ids or ()],
                             options, ref)


def register(app) -> None:
    """Attach the list's callback to ``app``."""
    app.callback(Output(ID.RANGE_ROWS, "children"), Output(ID.ADD_CONSTRAINT, "options"),
                 Output(ID.ADD_CONSTRAINT, "value"), Output(ID.ADD_CONSTRAINT_LABEL, "children"),
                 Output(ID.ADD_CONSTRAINT_BOX, "hidden"),
                 Input(ID.ADD_CONSTRAINT, "value"),
                 Input({"type": ID.RANGE_REMOVE, "column": ALL}, "n_clicks"),
                 State({"type": ID.RANGE_MIN, "column": ALL}, "id"),
                 State(ID.ADD_CONSTRAINT, "options"), State(ID.REF, "data"),
                 prevent_initial_call=True)(constraint_list)
