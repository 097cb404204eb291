"""The view callback's small outputs that the page already shows, answered ``no_update``.

Dash's renderer applies a callback's answer one component at a time, and each component it
updates is a pass of the page's store over every connected component, whether the new value
differs or not. An objective tick or a direction change mostly leaves the pick card's
visibility and id, the table's note, pager and buttons and the log-axes choices as they
are; :func:`keep_shown` answers those ``no_update`` when the value the page sends back
(:data:`SHOWN`, read as ``State``, and the log axes' value, a control already) equals the new one, so the answer carries only what moved.

Only small values are compared (booleans, short strings, the log choices): the figures and
the HTML bodies are not sent back to the server for this.
"""

from __future__ import annotations

import json

from dash import State, no_update
from plotly.utils import PlotlyJSONEncoder

from copa_dash.ui.features.explore.ids import ExploreIds as ID

# (output group of the view callback, position in the group) -> the State it is compared with
SHOWN = {
    ("pick", 0): State(ID.PICK, "hidden"),
    ("pick", 1): State(ID.PICK_ID, "children"),
    ("pick", 3): State(ID.PICK_LINE, "hidden"),
    ("pick", 4): State(ID.PICK_LINE_ID, "children"),
    ("table", 1): State(ID.TABLE_NOTE, "children"),
    ("table", 3): State(ID.TABLE_PAGER, "children"),
    ("table", 4): State(ID.TABLE_PREV, "disabled"),
    ("table", 5): State(ID.TABLE_NEXT, "disabled"),
    ("log", 0): State(ID.LOG, "options"),
}
# the callback's argument names for the States above
STATES = {f"shown_{group}_{k}": state for (group, k), state in SHOWN.items()}
# outputs whose page value the callback reads already as a control: (group, position) -> key
READ_AS_CONTROL = {("log", 1): "log"}


def read_page(controls: dict) -> dict:
    """What the page shows of the outputs :func:`keep_shown` compares: the :data:`STATES`
    taken out of the view callback's ``controls`` (so the view's state is built from the
    controls alone) and the :data:`READ_AS_CONTROL` values read there."""
    shown = {name: controls.pop(name) for name in STATES if name in controls}
    for (group, k), key in READ_AS_CONTROL.items():
        if key in controls:
            shown[f"shown_{group}_{k}"] = controls[key]
    return shown


def _as_sent(value):
    """``value`` as the page holds it: through JSON (tuples as lists, numpy as Python)."""
    return json.loads(json.dumps(value, cls=PlotlyJSONEncoder))


def keep_shown(outputs: dict, shown: dict) -> dict:
    """``outputs`` (the view callback's answer, by group) with each value listed in
    :data:`SHOWN` or :data:`READ_AS_CONTROL` replaced by ``no_update`` where it equals the
    page's (``shown``, from :func:`read_page`).

    Examples
    --------
    >>> out = keep_shown({"pick": (False, "a", "<p>", False, "a"), "front": {}},
    ...                  {"shown_pick_0": False, "shown_pick_1": "b", "shown_pick_3": False,
    ...                   "shown_pick_4": "b"})
    >>> [v is no_update for v in out["pick"]]
    [True, False, False, True, False]
    """
    answer = dict(outputs)
    for group in {group for group, _ in [*SHOWN, *READ_AS_CONTROL]}:
        values = answer.get(group)
        if not isinstance(values, (tuple, list)):
            continue
        values = list(values)
        for k, value in enumerate(values):
            name = f"shown_{group}_{k}"
            if name in shown and value is not no_update and _as_sent(value) == shown[name]:
                values[k] = no_update
        answer[group] = tuple(values)
    return answer


__all__ = ["READ_AS_CONTROL", "SHOWN", "STATES", "keep_shown", "read_page"]
