"""The Datasets page's "Your uploads" section: what this browser uploaded (owner tokens in
its localStorage), each a link to the explorer."""

from __future__ import annotations

from dash import Input, Output, State, dcc, html

from copa_dash.services.uploads import my_uploads
from copa_dash.ui.common.my_uploads import MY_UPLOADS, my_uploads_store, uploads_list
from copa_dash.ui.common.settings_access import current_settings

MINE = "datasets-mine"


def mine_section() -> html.Div:
    """Filled from the browser's store once the page is in it."""
    return html.Div(className="mine", children=[
        html.H3("Your uploads"),
        html.P([("Tables uploaded from this browser; only you see them here (rename or delete "
                 "them on the "), dcc.Link("upload page", href="/upload"), ")."],
               className="help"),
        html.Div(id=MINE),
        my_uploads_store(),
    ])


def register_mine(app) -> None:
    """Attach the section's callback to ``app``."""

    @app.callback(Output(MINE, "children"), Input(MY_UPLOADS, "modified_timestamp"),
                  State(MY_UPLOADS, "data"))
    def show(_stamp, owned):
        return uploads_list(my_uploads(current_settings(), owned),
                            empty="None yet: upload a table of your own models on the "
                                  "upload page.")
