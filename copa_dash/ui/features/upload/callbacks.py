"""Thin callbacks of the upload page."""

from __future__ import annotations

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.client_identity import current_client
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.first_view import prepare_in_background
from copa_dash.services.inputs import Objective, Roles
from copa_dash.services.objectives import TWO_OBJECTIVES
from copa_dash.services.uploads import (
    MIN_OBJECTIVES,
    decode_data_url,
    restage_upload,
    save_upload,
    stage_pasted,
    stage_upload,
)
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.changed_only import changed_only
from copa_dash.ui.common.messages import two_objectives
from copa_dash.ui.common.my_uploads import MY_UPLOADS
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.signed_in import signed_in_user
from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.ids import UploadMoreIds as MID
from copa_dash.ui.features.upload.ids import UploadReadIds as RID
from copa_dash.ui.features.upload.layout import preview_table
from copa_dash.ui.features.upload.owner_panel import register_owner_panel
from copa_dash.ui.features.upload.proposal_form import (
    grouped_roles,
    proposal_controls,
    shows_direction,
)
from copa_dash.ui.features.upload.read_panel import what_we_read
from copa_dash.ui.features.upload.saved_summary import (
    navigation,
    register_saved_navigation,
)
from copa_dash.ui.features.upload.source_callbacks import register_source_callbacks

SINGLE_ROLES = ("system", "seed", "task", "split", "config", "budget")


def roles_from_mapping(id_column, columns, roles, directions) -> Roles:
    """The user's mapping as Roles.

    Raises
    ------
    InvalidInputError
        If no objective is chosen or a single-column role is given to two columns.
    """
    objectives, metadata, single, undecided = [], [], {}, []
    for column, role, direction in zip(columns, roles, directions):
        if column == id_column or role == "ignore":
            continue
        if role == "objective" and direction is None:
            undecided.append(column)
        elif role == "objective":
            objectives.append(Objective(column, direction))
        elif role == "metadata":
            metadata.append(column)
        elif role in SINGLE_ROLES:
            if role in single:
                raise InvalidInputError(
                    f"two columns have the role '{role}' ({single[role]} and {column}): keep one")
            single[role] = column
    if undecided:
        raise InvalidInputError(
            f"choose min or max for {', '.join(map(repr, undecided))} (lower or higher is "
            f"better?), or make {'it' if len(undecided) == 1 else 'them'} metadata. Nothing "
            "was saved.")
    if not objectives:
        raise InvalidInputError(
            f"{TWO_OBJECTIVES}. No column has the role 'objective' now. Nothing was saved.")
    return Roles(id=id_column, objectives=tuple(objectives), metadata=tuple(metadata), **single)


def undecided_objectives(id_column, columns, roles, directions=None) -> list:
    """The objectives of the mapping with no direction yet (Save stays off while any is)."""
    return [c for c, r, d in zip(columns, roles, directions or ["max"] * len(columns))
            if r == "objective" and c != id_column and d is None]


def objectives_check(id_column, columns, roles, directions=None) -> html.Div:
    """What the mapping's objectives allow, shown live above the save button."""
    chosen = [c for c, r in zip(columns, roles) if r == "objective" and c != id_column]
    open_ = undecided_objectives(id_column, columns, roles, directions)
    if open_:
        return alert(f"Choose min or max for {', '.join(map(repr, open_))}: no word or unit in "
                     f"the name says whether lower or higher is better (or make "
                     f"{'it' if len(open_) == 1 else 'them'} metadata). Save is off until "
                     "then.")
    if len(chosen) >= MIN_OBJECTIVES:
        return alert(f"{len(chosen)} objectives: {', '.join(chosen)}.", "info")
    now = f"only {chosen[0]!r} is one now" if chosen else "none is chosen"
    return alert(f"{two_objectives(now)} Set another numeric column's role to objective before saving.")


def register_callbacks(app) -> None:
    """Attach the upload page's callbacks to ``app``."""
    register_owner_panel(app)
    register_saved_navigation(app)
    _register_staging(app)

    # the three callbacks below write one value per column: only the changed ones are sent
    # (changed_only), or a wide export re-rendered every row on each change
    @app.callback(Output({"type": ID.ROLE, "column": ALL}, "disabled"),
                  Input(ID.ID_COLUMN, "value"), State({"type": ID.ROLE, "column": ALL}, "id"),
                  State({"type": ID.ROLE, "column": ALL}, "disabled"),
                  prevent_initial_call=True)
    def lock_id_row(id_column, role_ids, locked):
        return changed_only([i["column"] == id_column for i in role_ids], locked)

    @app.callback(Output({"type": ID.DIRECTION_CELL, "column": ALL}, "hidden"),
                  Input(ID.ID_COLUMN, "value"), Input({"type": ID.ROLE, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"),
                  State({"type": ID.DIRECTION_CELL, "column": ALL}, "hidden"),
                  prevent_initial_call=True)
    def show_directions(id_column, roles, role_ids, hidden):
        return changed_only([not shows_direction(i["column"], role, id_column)
                             for i, role in zip(role_ids, roles)], hidden)

    @app.callback(Output(ID.CHECK, "children"), Output(ID.SAVE, "disabled"),
                  Input(ID.ID_COLUMN, "value"),
                  Input({"type": ID.ROLE, "column": ALL}, "value"),
                  Input({"type": ID.DIRECTION, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"))
    def check_objectives(id_column, roles, directions, role_ids):
        columns = [i["column"] for i in role_ids]
        return (objectives_check(id_column, columns, roles, directions),
                bool(undecided_objectives(id_column, columns, roles, directions)))

    @app.callback(Output({"type": ID.ROLE, "column": ALL}, "value"),
                  Input(MID.MORE_ROLE, "value"), Input(MID.FAMILIES, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"), State(MID.GROUPS, "data"),
                  prevent_initial_call=True)
    def take_groups(more_role, families, roles, role_ids, groups):
        if not groups:
            raise PreventUpdate
        by_more = ctx.triggered_id == MID.MORE_ROLE
        return changed_only(grouped_roles([i["column"] for i in role_ids], roles, groups,
                                          more_role=more_role if by_more else None,
                                          families=None if by_more else (families or [])),
                            roles)

    @app.callback(Output(ID.RESULT, "children", allow_duplicate=True),
                  Output(ID.SAVE_ERROR, "children", allow_duplicate=True),
                  Output(RID.GO, "data"),
                  Output(MY_UPLOADS, "data", allow_duplicate=True),
                  Input(ID.SAVE, "n_clicks"), State(ID.STAGED, "data"), State(ID.ID_COLUMN, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "value"),
                  State({"type": ID.ROLE, "column": ALL}, "id"),
                  State({"type": ID.DIRECTION, "column": ALL}, "value"),
                  State(ID.NAME, "value"), State(ID.SHARED, "value"), State(RID.RUNS, "value"),
                  State(MY_UPLOADS, "data"), prevent_initial_call=True)
    def save(n_clicks, staged, id_column, roles, role_ids, directions, name, shared, runs, owned):
        if not n_clicks or not staged:
            raise PreventUpdate
        try:
            mapping = roles_from_mapping(id_column, [i["column"] for i in role_ids], roles, directions)
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
