"""The "add a constraint on..." list of Explore: a numeric column chosen there gets its min/max
boxes appended to the constraint rows (which columns are offered:
services/constraint_columns.py). The view callback reads the new boxes like the others."""

from __future__ import annotations

from dash import Input, Output, Patch, State
from dash.exceptions import PreventUpdate

from copa_dash.services.catalog import open_dataset
from copa_dash.services.constraint_columns import observed_range
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.explore.controls import range_row
from copa_dash.ui.features.explore.ids import ExploreIds as ID


def add_constraint(column, options, ref) -> tuple:
    """The constraint rows with ``column``'s boxes appended (a patch), the list without it,
    and the list emptied for the next choice. PreventUpdate when nothing was chosen or the
    column holds no number."""
    if not column or not ref:
        raise PreventUpdate
    found = observed_range(open_dataset(ref, current_settings()).table.frame, column)
    if found is None:
        raise PreventUpdate
    rows = Patch()
    rows.append(range_row(found))
    return rows, [o for o in options or () if o["value"] != column], None


def register(app) -> None:
    """Attach the list's callback to ``app``."""
    app.callback(Output(ID.RANGE_ROWS, "children"), Output(ID.ADD_CONSTRAINT, "options"),
                 Output(ID.ADD_CONSTRAINT, "value"), Input(ID.ADD_CONSTRAINT, "value"),
                 State(ID.ADD_CONSTRAINT, "options"), State(ID.REF, "data"),
                 prevent_initial_call=True)(add_constraint)
