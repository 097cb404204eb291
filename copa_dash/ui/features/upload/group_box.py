"""The group box of "Your uploads": share the chosen upload with one of your groups, see who
it is shared with, unshare (:mod:`copa_dash.services.upload_groups`).

Shown only behind a login proxy that names the user and their groups
(``COPA_TRUSTED_USER_HEADER`` and ``COPA_TRUSTED_GROUPS_HEADER``, from
``COPA_TRUSTED_PROXY``); elsewhere it is in the page but hidden, and owner tokens work alone.
The upload it acts on is the one picked in the panel's dropdown.
"""

from __future__ import annotations

from dash import Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.upload_groups import (
    share_with_group,
    shared_groups,
    shared_with_text,
    unshare_group,
)
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.ids import PageIds
from copa_dash.ui.common.my_uploads import MY_UPLOADS
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.signed_in import signed_in_groups, signed_in_user

HELP = ("Members of a group you share an upload with see it in the catalogue on the Datasets "
        "page; nobody else does (unless it is listed for everyone). Only you can unshare it.")


class GroupIds(PageIds, prefix="upload-group"):
    """Ids of the group box."""

    BOX: str
    PICK: str
    SHARE: str
    UNSHARE: str
    SHARED: str
    MESSAGE: str


def group_box() -> html.Div:
    """The box, hidden unless the proxy names the user and the groups header is set."""
    settings = current_settings()
    user = signed_in_user() if settings.trusted_groups_header else None
    groups = signed_in_groups() if user else ()
    return html.Div(id=GroupIds.BOX, className="group-box", hidden=not user, children=[
        html.H4("Share with a group"),
        html.P(HELP if groups else "Your sign-in names no group of yours, so there is none "
               "to share with.", className="help"),
        html.Div(className="owner-controls", children=[
            dcc.Dropdown(id=GroupIds.PICK, options=list(groups), clearable=False,
                         value=groups[0] if len(groups) == 1 else None,
                         placeholder="choose one of your groups", className="owner-pick"),
            html.Button("Share with this group", id=GroupIds.SHARE, className="button"),
            html.Button("Unshare", id=GroupIds.UNSHARE, className="button"),
        ]),
        html.P("Choose one of your uploads above to see who it is shared with.",
               id=GroupIds.SHARED, className="help shared-with"),
        html.Div(id=GroupIds.MESSAGE),
    ])


def _shared_line(dataset_id: str | None) -> str:
    if not dataset_id:
        return "Choose one of your uploads above to see who it is shared with."
    try:
        return shared_with_text(shared_groups(current_settings(), dataset_id))
    except InvalidInputError:  # deleted meanwhile
        return "That upload is gone."


def _sentence(message: str) -> str:
    """A service's message as a sentence: capital first, a full stop last."""
    message = message.strip()
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def register_group_box(app, *, pick: str, listing: str, relist) -> None:
    """Attach the box's two callbacks to ``app``.

    ``pick`` is the id of the panel's dropdown of the user's uploads, ``listing`` that of its
    list, which ``relist(owned)`` draws again after a change (it says who each is shared with).
    """

    @app.callback(Output(GroupIds.SHARED, "children"), Input(pick, "value"))
    def show(dataset_id):
        return _shared_line(dataset_id)

    @app.callback(Output(GroupIds.SHARED, "children", allow_duplicate=True),
                  Output(GroupIds.MESSAGE, "children"),
                  Output(listing, "children", allow_duplicate=True),
                  Input(GroupIds.SHARE, "n_clicks"), Input(GroupIds.UNSHARE, "n_clicks"),
                  State(pick, "value"), State(GroupIds.PICK, "value"), State(MY_UPLOADS, "data"),
                  prevent_initial_call=True)
    def act(_share, _unshare, dataset_id, group, owned):
        if not dataset_id:
            return no_update, alert("Choose one of your uploads first."), no_update
        token = (owned or {}).get(dataset_id)
        settings, user = current_settings(), signed_in_user()
        try:
            if ctx.triggered_id == GroupIds.SHARE:
                info = share_with_group(settings, dataset_id, group, owner_token=token,
                                        user=user, groups=signed_in_groups())
                done = f"Shared with {group}: its members see it in the catalogue."
            elif ctx.triggered_id == GroupIds.UNSHARE:
                info = unshare_group(settings, dataset_id, group, owner_token=token, user=user)
                done = f"No longer shared with {group}."
            else:
                raise PreventUpdate
        except InvalidInputError as exc:
            return no_update, alert(_sentence(str(exc))), no_update
        return shared_with_text(info.get("groups")), alert(done, "info"), relist(owned)
