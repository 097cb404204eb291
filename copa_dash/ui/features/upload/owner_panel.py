"""The upload page's "Your uploads" panel: rename or delete what this browser uploaded,
with the owner tokens kept in its localStorage (:mod:`copa_dash.ui.common.my_uploads`).
Delete asks first (the browser's confirm box, as the Datasets page's list does): a deleted
table cannot be brought back."""

from __future__ import annotations

from dash import Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.uploads import delete_upload, my_uploads, rename_upload
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.ids import PageIds
from copa_dash.ui.common.my_uploads import (
    MY_UPLOADS,
    OWNER_TOKEN_HELP,
    delete_question,
    uploads_list,
)
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.signed_in import signed_in_user
from copa_dash.ui.features.upload.group_box import group_box, register_group_box


class MineIds(PageIds, prefix="upload-mine"):
    """Ids of this panel."""

    LIST: str
    PICK: str
    NAME: str
    RENAME: str
    DELETE: str
    CONFIRM: str
    MESSAGE: str


def owner_panel() -> html.Div:
    """The panel: the list, then one upload to act on, a new name, two buttons."""
    return html.Div(className="card owner-panel", children=[
        html.H3("Your uploads"),
        html.P(OWNER_TOKEN_HELP, className="help"),
        html.Div(id=MineIds.LIST),
        html.Div(className="owner-controls", children=[
            dcc.Dropdown(id=MineIds.PICK, placeholder="choose one of your uploads",
                         className="owner-pick"),
            dcc.Input(id=MineIds.NAME, type="text", maxLength=200, placeholder="new name",
                      className="owner-name"),
            html.Button("Rename", id=MineIds.RENAME, className="button"),
            html.Button("Delete", id=MineIds.DELETE, className="button button-danger"),
        ]),
        dcc.ConfirmDialog(id=MineIds.CONFIRM),
        html.Div(id=MineIds.MESSAGE),
        group_box(),  # behind a login proxy that names groups only
    ])


def _listing(owned):
    """The list and the dropdown's options, from the store's ``{id: token}``."""
    infos = my_uploads(current_settings(), owned, user=signed_in_user())
    options = [{"label": info.get("name") or f"upload {info['id'][:8]}", "value": info["id"]}
               for info in infos]
    return uploads_list(infos, empty="Nothing uploaded from this browser yet."), options


def register_owner_panel(app) -> None:
    """Attach the panel's callbacks (and its group box's) to ``app``."""
    register_group_box(app, pick=MineIds.PICK, listing=MineIds.LIST,
                       relist=lambda owned: _listing(owned)[0])

    @app.callback(Output(MineIds.LIST, "children"), Output(MineIds.PICK, "options"),
                  Input(MY_UPLOADS, "modified_timestamp"), State(MY_UPLOADS, "data"))
    def show(_stamp, owned):
        return _listing(owned)

    @app.callback(Output(MineIds.CONFIRM, "displayed"), Output(MineIds.CONFIRM, "message"),
                  Output(MineIds.MESSAGE, "children", allow_duplicate=True),
                  Input(MineIds.DELETE, "n_clicks"), State(MineIds.PICK, "value"),
                  State(MineIds.PICK, "options"), State(MY_UPLOADS, "data"),
                  prevent_initial_call=True)
    def ask(_clicks, dataset_id, options, owned):
        """Delete opens the confirmation; only its OK deletes (:func:`act`)."""
        if not dataset_id or (dataset_id not in (owned or {}) and not signed_in_user()):
            return False, no_update, alert("Choose one of your uploads first.")
        name = next((o["label"] for o in options or () if o["value"] == dataset_id),
                    dataset_id[:8])
        return True, delete_question(name), None

    @app.callback(Output(MY_UPLOADS, "data", allow_duplicate=True),
                  Output(MineIds.MESSAGE, "children"), Output(MineIds.PICK, "value"),
                  Output(MineIds.LIST, "children", allow_duplicate=True),
                  Output(MineIds.PICK, "options", allow_duplicate=True),
                  Input(MineIds.RENAME, "n_clicks"), Input(MineIds.CONFIRM, "submit_n_clicks"),
                  State(MineIds.PICK, "value"), State(MineIds.NAME, "value"),
                  State(MY_UPLOADS, "data"), prevent_initial_call=True)
    def act(_rename, _confirmed, dataset_id, name, owned):
        owned = dict(owned or {})
        user = signed_in_user()
        if not dataset_id or (dataset_id not in owned and not user):
            return no_update, alert("Choose one of your uploads first."), *[no_update] * 3
        settings = current_settings()
        try:
            if ctx.triggered_id == MineIds.CONFIRM:
                removed = delete_upload(settings, dataset_id, owned.pop(dataset_id, None),
                                        user=user)
                done, picked = f"Deleted {removed.get('name') or dataset_id[:8]!r}.", None
            elif ctx.triggered_id == MineIds.RENAME:
                renamed = rename_upload(settings, dataset_id, owned.get(dataset_id), name,
                                        user=user)
                done, picked = f"Renamed to {renamed.get('name') or '(no name)'!r}.", dataset_id
            else:
                raise PreventUpdate
        except InvalidInputError as exc:
            return no_update, alert(str(exc)), *[no_update] * 3
        return owned, alert(done, "info"), picked, *_listing(owned)
