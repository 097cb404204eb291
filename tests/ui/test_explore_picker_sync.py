"""An objective tick is one request: the view's callback answers the pickers and the weights'
shares too (explore/picker_sync.py; docs/benchmarks.md, session 17)."""

from __future__ import annotations

import json

import dash
from dash import no_update

from copa_dash.ui.features.explore import callbacks, picker_sync, table_query
from copa_dash.ui.features.explore.ids import ExploreIds as ID


def _tick(column: str) -> str:
    """The prop id Dash reports when an objective's box fires."""
    return json.dumps({"column": column, "type": ID.OBJECTIVES}, separators=(",", ":")) + ".value"


def _controls(ticked, focus=("a",), x="a", y="b", log=()):
    names = ["a", "b", "c"]
    return {"objectives": [[n] if n in ticked else [] for n in names], "focus": list(focus),
            "x": x, "y": y, "log": list(log), "weights": [1, 1, 2],
            "weight_ids": [{"type": ID.WEIGHT, "column": n} for n in names]}


def test_a_tick_is_answered_by_the_view_callback_alone():
    app = dash.Dash(__name__)
    callbacks.register_callbacks(app)
    readers = [key for key, spec in app.callback_map.items()
               if any(isinstance(i["id"], dict) and i["id"].get("type") == ID.OBJECTIVES
                      or isinstance(i["id"], str) and ID.OBJECTIVES in i["id"]
                      for i in spec["inputs"])]
    assert len(readers) == 1 and f"{ID.FRONT}.figure" in readers[0]
    for output in (f"{ID.FOCUS}.options", f"{ID.X}.value", f"{ID.FOCUS_NOTE}.children",
                   f"{ID.WEIGHT_SHARES}.children"):
        assert output in readers[0]


def test_unticking_the_focus_moves_focus_axes_and_says_so():
    controls, outputs, sort_key = picker_sync.after_tick(
        [_tick("a")], _controls(["b", "c"]), table_query.RANKING, None)
    assert (controls["focus"], controls["x"], controls["y"]) == (["b"], "b", "c")
    options = [{"label": n, "value": n} for n in ("b", "c")]
    assert outputs[:6] == (options, options, options, ["b"], "b", "c")
    assert outputs[7] is no_update and sort_key == table_query.RANKING    # the ranking stays
    assert outputs[8]["focus"] == {"wanted": ["a"], "shown": ["b"]}
    assert outputs[9].startswith("'a' is unticked")


def test_a_tick_away_from_the_focus_sends_only_what_changed():
    controls, outputs, _ = picker_sync.after_tick(
        [_tick("c")], _controls(["a", "b"]), table_query.RANKING, None)
    assert (controls["focus"], controls["x"], controls["y"]) == (["a"], "a", "b")
    assert outputs[3:6] == (no_update,) * 3 and outputs[9] == ""


def test_the_sort_of_an_unticked_objective_falls_back_to_the_ranking():
    sort_of_c = next(o["value"] for o in table_query.sort_options(["a", "b", "c"])
                     if o["value"] != table_query.RANKING and "c" in str(o["value"]))
    _, outputs, sort_key = picker_sync.after_tick(
        [_tick("c")], _controls(["a", "b"]), sort_of_c, None)
    assert sort_key == table_query.RANKING and outputs[7] == table_query.RANKING


def test_the_log_ticks_come_back_with_the_axes():
    _, outputs, _ = picker_sync.after_tick(
        [_tick("a")], _controls(["b", "c"], log=["x"]), None, None)
    memory = outputs[8]
    back, _, _ = picker_sync.after_tick(
        [_tick("a")], _controls(["a", "b", "c"], focus=["b"], x="b", y="c", log=[]), None, memory)
    assert (back["focus"], back["x"], back["y"], back["log"]) == (["a"], "a", "b", ["x"])


def test_other_changes_send_no_picker_and_no_share():
    controls = _controls(["a", "b"])
    same, outputs, sort_key = picker_sync.after_tick([f"{ID.ALPHA}.value"], controls, "x", None)
    assert same is controls and outputs == picker_sync.UNCHANGED and sort_key == "x"
    assert picker_sync.weight_shares([f"{ID.ALPHA}.value"], controls) is no_update


def test_the_shares_are_written_at_opening_and_after_a_weight_or_a_tick():
    controls = _controls(["a", "c"])
    weight = json.dumps({"column": "c", "type": ID.WEIGHT}, separators=(",", ":")) + ".value"
    for triggered in ([], ["."], [weight], [_tick("b")]):
        assert picker_sync.weight_shares(triggered, controls) == "Normalised: a 33%, c 67%"
