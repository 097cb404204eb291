"""The depth job's message line: "cancelled" after a cancel. (Clearing it when the view
changes is the drawing callback's: it answers every change, with the new view's message or
none.)"""

from __future__ import annotations

from dash import Input, Output

from copa_dash.ui.common.alerts import alert
from copa_dash.ui.features.posets.ids import PosetsIds as ID

CANCELLED = ("Cancelled: the depth was stopped before it finished, so nothing new was "
             "computed. Change a setting (or reload the page) to compute it again.")


def register_job_messages(app) -> None:
    """Attach the cancel message to ``app``."""

    @app.callback(Output(ID.ALERT, "children", allow_duplicate=True),
                  Input(ID.CANCEL, "n_clicks"), prevent_initial_call=True)
    def say_cancelled(clicks):
        return alert(CANCELLED, "info") if clicks else None
