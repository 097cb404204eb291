"""The depth job's message line and its controls after a Cancel.

The controls are set back to the view that is drawn (issue 33:
after Cancel of an exact depth the radio still said "exact" while the page showed the
approximate depth drawn before, or nothing): with a depth drawn, every control takes that
depth's value again, and the drawing callback, finding it stored, draws it and says
:data:`SET_BACK`; with none drawn, the depth choice is left empty (:data:`NOTHING_DRAWN`),
so no control names a depth the page does not show, and picking one computes it. One
callback says "cancelled" and sets the controls: two answering the same click could arrive
in either order. (Clearing
the line when the view changes is the drawing callback's: it answers every change, with
the new view's message or none.)"""

from __future__ import annotations

from dash import Input, Output, State, no_update

from copa_dash.ui.common.alerts import alert
from copa_dash.ui.features.posets.ids import PosetsIds as ID

SET_BACK = ("Cancelled: the depth was stopped before it finished. The page shows the depth "
            "drawn before, and the settings on the left are set back to it.")
NOTHING_DRAWN = ("Cancelled: the depth was stopped before it finished, so no depth is shown "
                 "and no choice of depth is ticked. Pick one under 'Depth' to compute it.")
# the controls a drawn view's arguments (callbacks.job_arguments) set back, key -> id
CONTROLS = {"method": ID.METHOD, "task": ID.TASK, "criteria": ID.CRITERIA, "ties": ID.TIES,
            "missing": ID.MISSING, "mode": ID.MODE, "tolerance": ID.TOLERANCE}


def controls_after_cancel(drawn: dict | None) -> dict:
    """The control values after a Cancel, ``drawn`` being the drawn view's arguments (or
    None when no depth is drawn), and what the message line says.

    Examples
    --------
    >>> after = controls_after_cancel(None)
    >>> after["mode"] is None and after["method"] is no_update
    True
    >>> after = controls_after_cancel({"method": "", "task": "t", "criteria": ["a"],
    ...     "ties": "drop", "missing": "drop", "mode": "auto", "tolerance": 0.01, "dataset": "d"})
    >>> after["mode"], after["method"], after["criteria"]
    ('auto', None, ['a'])
    """
    if not drawn:
        return {**{key: no_update for key in CONTROLS}, "mode": None,
                "alert": alert(NOTHING_DRAWN, "info")}
    return {**{key: drawn[key] if drawn[key] != "" else None for key in CONTROLS},
            "alert": no_update}        # the drawing callback says SET_BACK when it redraws


def register_job_messages(app) -> None:
    """Attach the controls set back on Cancel, and the cancel message, to ``app``."""

    @app.callback(output={**{key: Output(target, "value", allow_duplicate=True)
                             for key, target in CONTROLS.items()},
                          "alert": Output(ID.ALERT, "children", allow_duplicate=True),
                          "restored": Output(ID.RESTORED, "data", allow_duplicate=True)},
                  inputs={"clicks": Input(ID.CANCEL, "n_clicks")},
                  state={"drawn": State(ID.DRAWN, "data")}, prevent_initial_call=True)
    def set_back(clicks, drawn):
        """The controls say what is shown: the drawn depth's settings, or no depth."""
        if not clicks:
            return {key: no_update for key in (*CONTROLS, "alert", "restored")}
        return {**controls_after_cancel(drawn), "restored": drawn or None}
