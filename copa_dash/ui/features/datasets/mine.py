"""The Datasets page's "Your uploads" section: what this browser uploaded (owner tokens in
its localStorage), each a link to the explorer and a Delete button that asks first
(``dcc.ConfirmDialog``: the browser's own confirm box) before the upload is removed."""

from __future__ import annotations

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.uploads import delete_upload, my_uploads
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.my_uploads import MY_UPLOADS, delete_question, my_uploads_store
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.signed_in import signed_in_user
from copa_dash.ui.features.datasets.ids import DatasetsIds as ID

EMPTY = "None yet: upload a table of your own models on the upload page."


def mine_section() -> html.Div:
    """Filled from the browser's store once the page is in it."""
    return html.Div(className="mine", children=[
        html.H3("Your uploads"),
        html.P([("Tables uploaded from this browser (they also head the table above, listed "
                 "as 'your upload'); only you see them here. Rename them on the "),
                dcc.Link("upload page", href="/upload"), "."], className="help"),
        html.Div(id=ID.MINE),
        html.Div(id=ID.MESSAGE),
        dcc.ConfirmDialog(id=ID.CONFIRM),
        dcc.Store(id=ID.PENDING),
        my_uploads_store(),
    ])


def mine_list(infos: list[dict]) -> html.Div | html.Ul:
    """One line per owned upload: a link to the explorer, rows, date, and Delete."""
    if not infos:
        return html.P(EMPTY, className="help")
    return html.Ul(className="my-uploads", children=[html.Li([
        dcc.Link(info.get("name") or f"upload {info['id'][:8]}",
                 href=dataset_link("explore", info["id"])),
        html.Span(f" · {int(info.get('n_rows') or 0):,} rows · uploaded "
                  f"{str(info.get('created') or '')[:10]}"
                  + (" · listed for everyone" if info.get("shared") else " · private") + " ",
                  className="help"),
        html.Button("Delete", id={"type": ID.DELETE, "index": info["id"]},
                    className="button button-danger button-small"),
    ]) for info in infos])


def _name(infos: list[dict], dataset_id: str) -> str:
    info = next((i for i in infos if i["id"] == dataset_id), {})
    return info.get("name") or f"upload {dataset_id[:8]}"


def register_mine(app) -> None:
    """Attach the list, the confirmation and the deletion to ``app``."""

    @app.callback(Output(ID.MINE, "children"), Input(MY_UPLOADS, "modified_timestamp"),
                  State(MY_UPLOADS, "data"))
    def show(_stamp, owned):
        return mine_list(my_uploads(current_settings(), owned, user=signed_in_user()))

    @app.callback(Output(ID.CONFIRM, "displayed"), Output(ID.CONFIRM, "message"),
                  Output(ID.PENDING, "data"), Input({"type": ID.DELETE, "index": ALL}, "n_clicks"),
                  State(MY_UPLOADS, "data"), prevent_initial_call=True)
    def ask(clicks, owned):
        """A Delete click opens the confirmation (a freshly drawn button, 0 clicks, does not)."""
        if not isinstance(ctx.triggered_id, dict) or not any(clicks or ()):
            raise PreventUpdate
        dataset_id = ctx.triggered_id["index"]
        name = _name(my_uploads(current_settings(), owned, user=signed_in_user()), dataset_id)
        return True, delete_question(name), dataset_id

    @app.callback(Output(MY_UPLOADS, "data", allow_duplicate=True),
                  Output(ID.MESSAGE, "children"), Input(ID.CONFIRM, "submit_n_clicks"),
                  State(ID.PENDING, "data"), State(MY_UPLOADS, "data"),
                  prevent_initial_call=True)
    def delete(_confirmed, dataset_id, owned):
        """Only the confirmation's OK deletes; Cancel never reaches here."""
        owned = dict(owned or {})
        user = signed_in_user()
        if not dataset_id or (dataset_id not in owned and not user):
            return no_update, alert("That upload is no longer yours to delete.")
        try:
            removed = delete_upload(current_settings(), dataset_id, owned.pop(dataset_id, None),
                                    user=user)
        except InvalidInputError as exc:
            return no_update, alert(str(exc))
        return owned, alert(f"Deleted {removed.get('name') or dataset_id[:8]!r}.", "info")
