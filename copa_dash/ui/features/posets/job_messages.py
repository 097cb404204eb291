"""The depth job's message line: "cancelled" after a cancel, cleared when the view changes
(a new depth starts), so an error of an earlier view never stays beside a new result."""

from __future__ import annotations

from dash import Input, Output

from copa_dash.ui.common.alerts import alert
from copa_dash.ui.features.posets.ids import PosetsIds as ID

CANCELLED = ("Cancelled: the depth was stopped before it finished, so nothing new was "
             "computed. Change a setting (or reload the page) to compute it again.")


def register_job_messages(app, compute_inputs) -> None:
    """Attach the cancel message and the clearing on a new computation to ``app``."""

    @app.callback(Output(ID.ALERT, "children", allow_duplicate=True),
                  Input(ID.CANCEL, "n_clicks"), prevent_initial_call=True)
    def say_cancelled(clicks):
        return alert(CANCELLED, "info") if clicks else None

    @app.callback(Output(ID.ALERT, "children", allow_duplicate=True), inputs=compute_inputs,
                  prevent_initial_call=True)
    def clear_on_change(*_values):
        return None
