"""Thin callbacks of the upload page."""

from __future__ import annotations

from urllib.parse import quote

from dash import ALL, Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.inputs import Objective, Roles
from copa_dash.services.objectives import TWO_OBJECTIVES
from copa_dash.services.uploads import (
    MIN_OBJECTIVES,
    decode_data_url,
    finalize_upload,
    stage_upload,
)
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.messages import two_objectives
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.layout import mapping_controls, preview_table

SINGLE_ROLES = ("system", "seed", "task", "split", "config", "budget")


def roles_from_mapping(id_column, columns, roles, directions) -> Roles:
    """The user's mapping as Roles.

    Raises
    ------
    InvalidInputError
        If no objective is chosen or a single-column role is given to two columns.
    """
    objectives, metadata, single = [], [], {}
    for column, role, direction in zip(columns, roles, directions):
        if column == id_column or role == "ignore":
            continue
        if role == "objective":
            objectives.append(Objective(column, direction or "max"))
        elif role == "metadata":
            metadata.append(column)
        elif role in SINGLE_ROLES:
            if role in single:
                raise InvalidInputError(
                    f"two columns have the role '{role}' ({single[role]} and {column}): keep one")
            single[role] = column
    if not objectives:
        raise InvalidInputError(
            f"{TWO_OBJECTIVES}. No column has the role 'objective' now. Nothing was saved.")
    return Roles(id=id_column, objectives=tuple(objectives), metadata=tuple(metadata), **single)


def objectives_check(id_column, columns, roles) -> html.Div:
    """What the mapping's objectives allow, shown live above the save button."""
    chosen = [c for c, r in zip(columns, roles) if r == "objective" and c != id_column]
    if len(chosen) >= MIN_OBJECTIVES:
        return alert(f"{len(chosen)} objectives: {', '.join(chosen)}.", "info")
    now = f"only {chosen[0]!r} is one now" if chosen else "none is chosen"
    return alert(f"{two_objectives(now)} Set another numeric column's role to objective before saving.")


def register_callbacks(app) -> None:
    """Attach the upload page's callbacks to ``app``."""

    @app.callback(Output(ID.ALERT, "children"), Output(ID.PREVIEW, "children"),
                  Output(ID.MAPPING, "children"), Output(ID.STAGED, "data"),
                  Output(ID.RESULT, "children", allow_duplicate=True),
                  Output(ID.SAVE_ERROR, "children", allow_duplicate=True),
                  Input(ID.FILE, "contents"), State(ID.FILE, "filename"), prevent_initial_call=True)
    def stage(contents, filename):
        settings = current_settings()
        try:
            data = decode_data_url(contents, settings.max_upload_bytes)
            staged = stage_upload(settings, filename or "upload.csv", data)
        except InvalidInputError as exc:
            return alert(str(exc)), None, None, None, None, None
        note = alert(f"{filename}: {len(staged.frame):,} rows, {staged.frame.shape[1]} columns. "
                      "Check the roles below, then save.", "info")
        return (note, preview_table(staged.frame),
                mapping_controls(staged.frame, staged.proposed, staged.row_ids),
                {"token": staged.token, "filename": staged.filename}, None, None)

    @app.callback(Output({"type": ID.ROLE, "column": ALL}, "disabled"),
                  Input(ID.ID_COLUMN, "value"), State({"type": ID.ROLE, "column": ALL}, "id"),
                  prevent_initial_call=True)
    def lock_id_row(id_column, role_ids):
        return [i["column"] == id_column for i in role_ids]

    @app.callback(Output(ID.CHECK, "children"), Input(ID.ID_COLUMN, "value"),
                  Input({"type": ID.ROLE, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"))
    def check_objectives(id_column, roles, role_ids):
        return objectives_check(id_column, [i["column"] for i in role_ids], roles)

    @app.callback(Output(ID.RESULT, "children", allow_duplicate=True),
                  Output(ID.SAVE_ERROR, "children", allow_duplicate=True),
                  Input(ID.SAVE, "n_clicks"), State(ID.STAGED, "data"), State(ID.ID_COLUMN, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"),
                  State({"type": ID.DIRECTION, "column": ALL}, "value"),
                  State(ID.NAME, "value"), State(ID.SHARED, "value"), prevent_initial_call=True)
    def save(n_clicks, staged, id_column, roles, role_ids, directions, name, shared):
        if not n_clicks or not staged:
            raise PreventUpdate
        try:
            mapping = roles_from_mapping(id_column, [i["column"] for i in role_ids], roles, directions)
            dataset_id = finalize_upload(current_settings(), staged["token"], staged["filename"],
                                         mapping, name=name, shared=bool(shared))
        except InvalidInputError as exc:  # nothing was stored; an earlier link stays shown
            return no_update, alert(str(exc))
        link = f"/explore?dataset={quote(dataset_id)}"
        return html.Div(className="alert alert-info", children=[
            "Saved. Its link (keep it: the dataset is private to whoever holds it): ",
            dcc.Link(link, href=link, id="upload-explore-link"),
        ]), None
