"""What an objective tick changes besides the view, worked out inside the view's callback.

Ticking an objective changes the objectives the focus, axis and sort pickers offer (an
unticked focus or axis is replaced until it is ticked again: :mod:`.focus_repair`), and the
weights' shares. These used to be two callbacks of their own, and the view's callback waited
for the pickers' answer: three requests and three passes of Dash's renderer a tick, where the
view's response can carry them (docs/benchmarks.md, session 17). No dash callback here: the
view callback calls :func:`after_tick` and :func:`weight_shares` and returns what they give.
"""

from __future__ import annotations

import json

from dash import Output, State, no_update

from copa_dash.ui.features.explore import focus_repair, panels, table_query
from copa_dash.ui.features.explore.ids import ExploreIds as ID

# the pickers' outputs, in the order of after_tick's second value
PICKER_OUTPUTS = (Output(ID.FOCUS, "options"), Output(ID.X, "options"), Output(ID.Y, "options"),
                  Output(ID.FOCUS, "value"), Output(ID.X, "value"), Output(ID.Y, "value"),
                  Output(ID.TABLE_SORT, "options"), Output(ID.TABLE_SORT, "value"),
                  Output(ID.FOCUS_MEMORY, "data"), Output(ID.FOCUS_NOTE, "children"))
UNCHANGED = (no_update,) * len(PICKER_OUTPUTS)
MEMORY = {"memory": State(ID.FOCUS_MEMORY, "data")}
SHARES_OUTPUT = Output(ID.WEIGHT_SHARES, "children")


def _kinds(triggered) -> set[str]:
    """The pattern types (``explore-objectives``, ...) of the triggered per-column controls."""
    kinds = set()
    for prop in triggered:
        ident = prop.rpartition(".")[0]
        if ident.startswith("{"):
            kinds.add(json.loads(ident).get("type"))
    return kinds


def after_tick(triggered, controls: dict, sort_key, memory) -> tuple[dict, tuple, str | None]:
    """The controls the view is read from, the pickers' outputs and the table's sort key.

    When an objective's box fired (``triggered``: the callback's triggered prop ids), the
    focus, x and y are repaired for the objectives ticked now, and the "log x/y" ticks given
    back with displaced axes (:func:`.focus_repair.repair`); the pickers offer the ticked
    objectives; the table's sort stays unless its objective went. What did not change is
    ``no_update``: the browser then works through fewer changed props. Otherwise the controls
    are returned as they are and nothing is sent.

    Parameters
    ----------
    triggered : iterable of str
        ``ctx.triggered_prop_ids`` of the view's callback.
    controls : dict
        The view callback's controls (``objectives``, ``focus``, ``x``, ``y``, ``log``, ...).
    sort_key : str or None
        The table's sort now.
    memory : dict or None
        The focus memory store (what :func:`.focus_repair.repair` returned last).
    """
    if ID.OBJECTIVES not in _kinds(triggered):
        return controls, UNCHANGED, sort_key
    names = [v for values in controls["objectives"] for v in (values or [])]
    options = [{"label": n, "value": n} for n in names]
    shown = (controls["focus"], controls["x"], controls["y"], memory)
    focus, x, y, memory, note, log = focus_repair.repair(names, *shown, controls["log"])
    sorts = table_query.sort_options(names)
    sort_value = sort_key if sort_key in {o["value"] for o in sorts} else table_query.RANKING
    changed = tuple(no_update if new == old else new
                    for new, old in zip((focus, x, y, memory), shown))
    outputs = (options, options, options, *changed[:3], sorts,
               no_update if sort_value == sort_key else sort_value, changed[3], note)
    repaired = dict(controls, focus=focus, x=x, y=y,
                    log=controls["log"] if log is None else log)
    return repaired, outputs, sort_value


def weight_shares(triggered, controls: dict):
    """The weights' shares in words (:func:`.panels.weight_shares_text`) when the page opens
    or a weight or an objective's box fired; ``no_update`` after any other change."""
    moved = set(triggered) - {"."}
    if moved and not _kinds(moved) & {ID.WEIGHT, ID.OBJECTIVES}:
        return no_update
    columns = [i["column"] for i in controls["weight_ids"]]
    return panels.weight_shares_text(columns, controls["weights"], controls["objectives"])
