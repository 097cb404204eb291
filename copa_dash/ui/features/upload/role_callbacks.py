"""Callbacks of the role tables (:mod:`.role_table`): turn a table's pages, write a shown
row's change into the store of the mapping, and take the "More columns" groups.

Each writes the live check and the save button's state itself (one request per change), and
reaches only the rows shown (a page of each table), never every column's components.
"""

from __future__ import annotations

from dash import ALL, MATCH, Input, Output, Patch, State, ctx, no_update
from dash.exceptions import PreventUpdate

from copa_dash.ui.common.changed_only import changed_only
from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.ids import UploadMoreIds as MID
from copa_dash.ui.features.upload.ids import UploadTableIds as TID
from copa_dash.ui.features.upload.mapping_check import check_and_lock
from copa_dash.ui.features.upload.proposal_form import grouped_roles, more_summary
from copa_dash.ui.features.upload.role_table import (
    last_page,
    mapping_lists,
    page_of,
    shows_direction,
    table_rows,
)

_ROLES = {"type": ID.ROLE, "column": ALL}
_DIRECTIONS = {"type": ID.DIRECTION, "column": ALL}
_CELLS = {"type": ID.DIRECTION_CELL, "column": ALL}


def shown_over(mapping: dict, role_ids, roles, direction_ids, directions) -> dict:
    """``mapping`` with the shown rows' roles and directions (the components are the newest:
    a save clicked before a change reached the store still saves what is shown).

    >>> m = {"columns": ["a", "b"], "roles": {"a": "metadata", "b": "objective"},
    ...      "directions": {"a": None, "b": "max"}}
    >>> shown_over(m, [{"column": "a"}], ["objective"], [{"column": "a"}], ["min"])["roles"]
    {'a': 'objective', 'b': 'objective'}
    """
    return {"columns": mapping["columns"],
            "roles": {**mapping["roles"], **{i["column"]: r for i, r in zip(role_ids, roles)}},
            "directions": {**mapping["directions"],
                           **{i["column"]: d for i, d in zip(direction_ids, directions)}}}


def _patch(old: dict, new: dict):
    """A Patch of the store writing the roles and directions that changed (``no_update``
    when none did)."""
    patch, changed = Patch(), False
    for key in ("roles", "directions"):
        for column, value in new[key].items():
            if old[key].get(column) != value:
                patch[key][column], changed = value, True
    return patch if changed else no_update


def register_role_tables(app) -> None:
    """Attach the role tables' callbacks to ``app``."""

    @app.callback(Output({"type": TID.ROWS, "table": MATCH}, "children"),
                  Output({"type": TID.WHERE, "table": MATCH}, "children"),
                  Output({"type": TID.PAGE, "table": MATCH}, "data"),
                  Output({"type": TID.PREVIOUS, "table": MATCH}, "disabled"),
                  Output({"type": TID.NEXT, "table": MATCH}, "disabled"),
                  Input({"type": TID.PREVIOUS, "table": MATCH}, "n_clicks"),
                  Input({"type": TID.NEXT, "table": MATCH}, "n_clicks"),
                  Input({"type": TID.FIND, "table": MATCH}, "value"),
                  State({"type": TID.PAGE, "table": MATCH}, "data"),
                  State(TID.MAPPING, "data"), State(TID.NOTES, "data"),
                  State(ID.ID_COLUMN, "value"), prevent_initial_call=True)
    def turn_page(_previous, _next, find, page, mapping, notes, id_column):
        if not mapping or not notes:
            raise PreventUpdate
        table = ctx.triggered_id["table"]
        step = {TID.PREVIOUS: -1, TID.NEXT: 1}.get(ctx.triggered_id["type"])
        page = 0 if step is None else (page or 0) + step      # a new search starts at its top
        columns = notes["tables"][table]
        shown, page, words = page_of(columns, find, page)
        return (table_rows(shown, mapping, notes, id_column), words, page, page == 0,
                page == last_page(columns, find))

    @app.callback(Output(TID.MAPPING, "data", allow_duplicate=True),
                  Output(_CELLS, "hidden"), Output(_ROLES, "disabled"),
                  Output(ID.CHECK, "children"), Output(ID.SAVE, "disabled"),
                  Output(MID.MORE_SUMMARY, "children"),
                  Input(ID.ID_COLUMN, "value"), Input(_ROLES, "value"),
                  Input(_DIRECTIONS, "value"),
                  State(_ROLES, "id"), State(_DIRECTIONS, "id"), State(_CELLS, "hidden"),
                  State(_ROLES, "disabled"), State(TID.MAPPING, "data"),
                  State(MID.GROUPS, "data"), prevent_initial_call=True)
    def shown_rows_changed(id_column, roles, directions, role_ids, direction_ids, hidden,
                           locked, mapping, groups):
        if not mapping:
            raise PreventUpdate
        new = shown_over(mapping, role_ids, roles, direction_ids, directions)
        columns = [i["column"] for i in role_ids]
        return (_patch(mapping, new),
                changed_only([not shows_direction(c, r, id_column)
                              for c, r in zip(columns, roles)], hidden),
                changed_only([c == id_column for c in columns], locked),
                *check_and_lock(id_column, *mapping_lists(new)),
                more_summary((groups or {}).get("more", []), new["roles"]))

    @app.callback(Output(_ROLES, "value"), Output(TID.MAPPING, "data", allow_duplicate=True),
                  Output(ID.CHECK, "children", allow_duplicate=True),
                  Output(ID.SAVE, "disabled", allow_duplicate=True),
                  Output(MID.MORE_SUMMARY, "children", allow_duplicate=True),
                  Input(MID.MORE_ROLE, "value"), Input(MID.FAMILIES, "value"),
                  State(_ROLES, "value"), State(_ROLES, "id"), State(_DIRECTIONS, "value"),
                  State(_DIRECTIONS, "id"), State(TID.MAPPING, "data"),
                  State(MID.GROUPS, "data"), State(ID.ID_COLUMN, "value"),
                  prevent_initial_call=True)
    def take_groups(more_role, families, roles, role_ids, directions, direction_ids, mapping,
                    groups, id_column):
        if not groups or not mapping:
            raise PreventUpdate
        old = shown_over(mapping, role_ids, roles, direction_ids, directions)
        columns, before, _ = mapping_lists(old)
        by_more = ctx.triggered_id == MID.MORE_ROLE
        after = grouped_roles(columns, before, groups,
                              more_role=more_role if by_more else None,
                              families=None if by_more else (families or []))
        new = {**old, "roles": dict(zip(columns, after))}
        return (changed_only([new["roles"][i["column"]] for i in role_ids], roles),
                _patch(mapping, new), *check_and_lock(id_column, *mapping_lists(new)),
                more_summary(groups.get("more", []), new["roles"]))
