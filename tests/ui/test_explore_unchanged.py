"""The view callback answers ``no_update`` for the small outputs the page already shows
(explore/unchanged.py), so an objective tick's answer carries only what moved; what moved is
still sent."""

from __future__ import annotations

import dash
from dash import no_update

from copa_dash.ui.features.explore import callbacks, unchanged
from copa_dash.ui.features.explore.ids import ExploreIds as ID

PICK = (False, "row-7", "<p>card</p>", False, "row-7")
TABLE = ("<table></table>", "12 rows pass the constraints", 0, "page 1 of 1", True, True)
LOG = ([{"label": "log x", "value": "x"}], ["x"])


def _page(pick=PICK, table=TABLE, log=LOG) -> dict:
    """The States' values as the page sends them back (JSON: lists, not tuples)."""
    shown = {"pick": pick, "table": table, "log": log}
    controls = {name: None for name in unchanged.STATES} | {"log": list(log[1]), "alpha": 0.5}
    for group, k in unchanged.SHOWN:
        controls[f"shown_{group}_{k}"] = shown[group][k]
    page = unchanged.read_page(controls)
    assert controls == {"log": list(log[1]), "alpha": 0.5}    # the States taken out
    return page


def test_what_the_page_shows_already_is_answered_no_update():
    answer = unchanged.keep_shown({"pick": PICK, "table": TABLE, "log": LOG, "front": {"data": []}},
                                  _page())
    assert [v is no_update for v in answer["pick"]] == [True, True, False, True, True]
    # the table's HTML and page index are not compared; its note, pager and buttons are
    assert [v is no_update for v in answer["table"]] == [False, True, False, True, True, True]
    assert answer["log"] == (no_update, no_update)      # a list of dicts, compared as JSON
    assert answer["front"] == {"data": []}               # never compared


def test_what_moved_is_sent():
    moved_pick = (False, "row-9", "<p>other</p>", False, "row-9")
    answer = unchanged.keep_shown(
        {"pick": moved_pick, "table": TABLE[:4] + (False, False), "log": (LOG[0], [])}, _page())
    assert answer["pick"] == (no_update, "row-9", "<p>other</p>", no_update, "row-9")
    assert answer["table"][4:] == (False, False)
    assert answer["log"] == (no_update, [])
    # a message view hides the card the page shows
    hidden = unchanged.keep_shown({"pick": (True, "", "", True, "")}, _page())
    assert hidden["pick"] == (True, "", "", True, "")


def test_the_view_callback_reads_what_the_page_shows():
    app = dash.Dash(__name__)
    callbacks.register_callbacks(app)
    view = next(spec for key, spec in app.callback_map.items() if f"{ID.FRONT}.figure" in key)
    states = {(s["id"], s["property"]) for s in view["state"]}
    assert {(ID.PICK, "hidden"), (ID.TABLE_NEXT, "disabled"), (ID.LOG, "options")} <= states
    inputs = {(s["id"], s["property"]) for s in view["inputs"]}
    assert not {(s.component_id, s.component_property) for s in unchanged.SHOWN.values()} & inputs
