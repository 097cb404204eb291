"""Thin callbacks of the upload page."""

from __future__ import annotations

from dash import ALL, Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.client_identity import current_client
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.first_view import prepare_in_background
from copa_dash.services.uploads import (
    decode_data_url,
    restage_upload,
    save_upload,
    stage_pasted,
    stage_upload,
)
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.my_uploads import MY_UPLOADS
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.signed_in import signed_in_user
from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.ids import UploadReadIds as RID
from copa_dash.ui.features.upload.ids import UploadTableIds as TID
from copa_dash.ui.features.upload.layout import preview_table
from copa_dash.ui.features.upload.mapping_check import roles_from_mapping
from copa_dash.ui.features.upload.owner_panel import register_owner_panel
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from copa_dash.ui.features.upload.read_panel import what_we_read
from copa_dash.ui.features.upload.role_callbacks import register_role_tables, shown_over
from copa_dash.ui.features.upload.role_table import mapping_lists
from copa_dash.ui.features.upload.saved_summary import (
    navigation,
    register_saved_navigation,
)
from copa_dash.ui.features.upload.source_callbacks import register_source_callbacks


def register_callbacks(app) -> None:
    """Attach the upload page's callbacks to ``app``."""
    register_owner_panel(app)
    register_saved_navigation(app)
    _register_staging(app)
    register_role_tables(app)

    @app.callback(Output(ID.RESULT, "children", allow_duplicate=True),
                  Output(ID.SAVE_ERROR, "children", allow_duplicate=True),
                  Output(RID.GO, "data"),
                  Output(MY_UPLOADS, "data", allow_duplicate=True),
                  Input(ID.SAVE, "n_clicks"), State(ID.STAGED, "data"), State(ID.ID_COLUMN, "value"),
                  State(TID.MAPPING, "data"),
                  State({"type": ID.ROLE, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"),
                  State({"type": ID.DIRECTION, "column": ALL}, "value"),
                  State({"type": ID.DIRECTION, "column": ALL}, "id"),
                  State(ID.NAME, "value"), State(ID.SHARED, "value"), State(RID.RUNS, "value"),
                  State(MY_UPLOADS, "data"), prevent_initial_call=True)
    def save(n_clicks, staged, id_column, table, roles, role_ids, directions, direction_ids,
             name, shared, runs, owned):
        if not n_clicks or not staged or not table:
            raise PreventUpdate
        # every column's role from the store, the rows shown read from the page itself
        table = shown_over(table, role_ids, roles, direction_ids, directions)
        try:
            mapping = roles_from_mapping(id_column, *mapping_lists(table))
            saved = save_upload(current_settings(), staged["token"], staged["filename"],
                                mapping, name=name, shared=bool(shared),
                                average=runs == "average", owner_user=signed_in_user(),
                                keep_zeros=bool(staged.get("keep_zeros")))
        except InvalidInputError as exc:  # nothing was stored; an earlier link stays shown
            return no_update, alert(str(exc)), no_update, no_update
        prepare_in_background(current_settings(), saved.id)   # its first Explore view
        link = dataset_link("explore", saved.id)
        return html.Div(className="alert alert-info", children=[
            "Saved. Its link (keep it: the dataset is private to whoever holds it): ",
            dcc.Link(link, href=link, id="upload-explore-link"),
            html.Br(), ("This browser keeps its owner token: rename or delete it under "
                        "\"Your uploads\" below."),
        ]), None, navigation(saved.id), {**(owned or {}), saved.id: saved.owner_token}


def _register_staging(app) -> None:
    """A file, a paste, a tracker source or the keep-zeros choice stages the table: its
    preview, the role form and what was read replace the page's previous ones."""
    staged_outputs = (Output(ID.ALERT, "children", allow_duplicate=True),
                      Output(ID.PREVIEW, "children", allow_duplicate=True),
                      Output(ID.MAPPING, "children", allow_duplicate=True),
                      Output(ID.STAGED, "data", allow_duplicate=True),
                      Output(ID.RESULT, "children", allow_duplicate=True),
                      Output(ID.SAVE_ERROR, "children", allow_duplicate=True))

    @app.callback(*staged_outputs, Input(ID.FILE, "contents"), State(ID.FILE, "filename"),
                  prevent_initial_call=True)
    def stage(contents, filename):
        settings = current_settings()
        try:
            data = decode_data_url(contents, settings.max_upload_bytes)
            return _shown(stage_upload(settings, filename or "upload.csv", data,
                                       client=current_client(settings).key))
        except InvalidInputError as exc:
            return alert(str(exc)), None, None, None, None, None

    @app.callback(*staged_outputs, Input(RID.PASTE_READ, "n_clicks"),
                  State(RID.PASTE_TEXT, "value"), prevent_initial_call=True)
    def stage_paste(n_clicks, text):
        if not n_clicks:
            raise PreventUpdate
        try:
            settings = current_settings()
            return _shown(stage_pasted(settings, text or "", client=current_client(settings).key))
        except InvalidInputError as exc:
            return alert(str(exc)), None, None, None, None, None

    register_source_callbacks(app, staged_outputs, _shown)

    @app.callback(*staged_outputs, Input(RID.KEEP_ZEROS, "value"), State(ID.STAGED, "data"),
                  prevent_initial_call=True)
    def keep_zeros(value, staged):
        keep = "keep" in (value or [])
        if not staged or keep == bool(staged.get("keep_zeros")):
            raise PreventUpdate
        try:
            return _form_kept(_shown(restage_upload(current_settings(), staged["token"],
                                                    staged["filename"], keep_zeros=keep)))
        except InvalidInputError as exc:
            return alert(str(exc)), no_update, no_update, no_update, None, None


def _form_kept(shown: tuple) -> tuple:
    """The page's parts for the same file read again (keep zeros ticked or not): the notes,
    the preview and the staged store change; the role form stays as the user set it (the
    columns are the same, and rebuilding it put every edited role back to its guess)."""
    return (*shown[:2], no_update, *shown[3:])


def _shown(staged):
    """The page's parts for a staged upload: what we read, the preview, the proposal form."""
    note = alert(f"{len(staged.frame):,} rows, {staged.frame.shape[1]} columns read. Check what "
                 "we read and the roles below, then save.", "info")
    return (note, [what_we_read(staged), preview_table(staged.frame)], proposal_controls(staged),
            {"token": staged.token, "filename": staged.filename,
             "keep_zeros": staged.keep_zeros}, None, None)
