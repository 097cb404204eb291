"""The explorer's callbacks: one reads the controls, each part renders from one memoised
exploration per view, the table's pager reads the view's store."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import replace

import dash
import pytest
from dash._callback_context import context_value
from dash._utils import AttributeDict

from copa_dash.services import explorer
from copa_dash.services.catalog import open_dataset
from copa_dash.services.views import memo
from copa_dash.ui.features.explore import callbacks, panels, view_memo
from copa_dash.ui.features.explore.callbacks import _table_page
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from copa_dash.ui.features.explore.state import parse_query, to_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter

DATASET = "open-llm-leaderboard-v2"
PREV, NEXT = f"{ID.TABLE_PREV}.n_clicks", f"{ID.TABLE_NEXT}.n_clicks"


def _state(**changes):
    opened = open_dataset(DATASET)
    state = with_defaults(parse_query({"dataset": DATASET}), opened, given={"dataset"})
    return replace(state, **changes)


def test_one_callback_reads_the_controls_and_the_table_pager_none():
    app = dash.Dash(__name__)
    callbacks.register_callbacks(app)
    reading = [key for key, spec in app.callback_map.items()
               if any(i["id"] == ID.ALPHA for i in spec["inputs"] + spec["state"])]
    assert len(reading) == 1 and f"{ID.PICK_ID}.children" in reading[0]
    pager = [spec for key, spec in app.callback_map.items() if f"{ID.TABLE_PAGER}.children@" in key]
    assert len(pager) == 1
    assert {i["id"] for i in pager[0]["inputs"] + pager[0]["state"]} == {
        ID.QUERY, ID.TABLE_SEARCH, ID.TABLE_SORT, ID.TABLE_PREV, ID.TABLE_NEXT, ID.TABLE_PAGE}


def test_the_view_callbacks_parts_render_the_pick_the_figures_and_a_message():
    state = _state(alpha=0.45)
    result = view_memo.exploration(state)
    pick_id, body = panels.pick_card_text(result)
    assert callbacks.pick_outputs(result) == (False, pick_id, body, False, pick_id)
    drawn = callbacks.figure_outputs(result, state, None)
    assert drawn["front"]["data"] and drawn["drawn"]["key"] == callbacks.drawn_key(state)
    moved = replace(state, alpha=0.55)
    patched = callbacks.figure_outputs(view_memo.exploration(moved), moved, drawn["drawn"])
    assert patched["alert"] is dash.no_update          # a slider move: no redraw, no new notes
    shown = callbacks.message_outputs("p must be a number")
    assert shown["pick"][0] is True and shown["table"] == callbacks.EMPTY_TABLE


def test_the_table_steps_with_the_pager_restarts_on_a_search_and_stays_otherwise():
    assert callbacks.table_page_asked([NEXT], 2) == 3
    assert callbacks.table_page_asked([PREV], 2) == 1
    assert callbacks.table_page_asked([f"{ID.TABLE_SEARCH}.value"], 4) == 0
    assert callbacks.table_page_asked([f"{ID.TABLE_SORT}.value"], 4) == 0
    assert callbacks.table_page_asked([f"{ID.QUERY}.data"], 4) == 4   # a slider reorders
    assert callbacks.table_page_asked([f"{ID.QUERY}.data"], None) == 0


@pytest.fixture()
def explore_calls(monkeypatch) -> list:
    """The explorations computed while a test runs (one item each), the view memo empty first."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return explorer.explore(*args, **kwargs)

    monkeypatch.setattr(memo, "explore", counted)
    memo._recent_views.clear()
    return calls


def test_a_view_is_explored_once_and_its_callers_share_the_result(explore_calls):
    calls = explore_calls
    state = _state(alpha=0.37)
    query = to_query(state)
    assert view_memo.state_of(query) == state          # the store gives the state back
    first = view_memo.exploration(state)
    assert view_memo.exploration(view_memo.state_of(query)) is first
    assert len(calls) == 1
    moved = replace(state, alpha=0.9)
    other = view_memo.exploration(moved)
    opened = open_dataset(DATASET)
    assert len(calls) == 2
    assert other.pick == explorer.explore(opened, *preferences_and_filter(moved, opened.table)).pick


def test_callers_asking_for_a_new_view_at_once_compute_it_once(monkeypatch):
    calls = []

    def slow(*args, **kwargs):
        calls.append(1)
        time.sleep(0.2)                      # the others arrive while it computes
        return explorer.explore(*args, **kwargs)

    monkeypatch.setattr(memo, "explore", slow)
    memo._recent_views.clear()
    state = _state(alpha=0.21)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: view_memo.exploration(state), range(4)))
    assert len(calls) == 1 and all(r is results[0] for r in results)


def test_an_input_error_reaches_the_callbacks_as_its_message():
    message = view_memo.exploration(_state(objectives=(("bbh", "max"),), focus=("bbh",)))
    assert isinstance(message, str) and "two" in message.lower()


def _fired(prop_id: str, render, *args):
    """Run a callback function as Dash would after ``prop_id`` changed (Dash's documented way
    to unit test a callback that reads ``ctx``)."""
    def run():
        context_value.set(AttributeDict(triggered_inputs=[{"prop_id": prop_id, "value": None}]))
        return render(*args)
    return copy_context().run(run)


def test_the_pager_renders_the_table_page_of_the_view_in_the_store_from_the_views_exploration(
        explore_calls):
    calls = explore_calls
    state = _state(alpha=0.63)
    shown = view_memo.exploration(state)               # what the view callback draws from
    callbacks.figure_outputs(shown, state, None)
    opened = open_dataset(DATASET)
    result = explorer.explore(opened, *preferences_and_filter(state, opened.table))  # no memo
    query = to_query(state)
    stepped = _fired(NEXT, callbacks.render_table, query, "", None, None, 1, 2)
    assert stepped == _table_page(result, 3, "", None) and stepped[3].startswith("page 4 of ")
    back = _fired(PREV, callbacks.render_table, query, "", None, 1, 1, 3)
    assert back[2] == 2
    searched = _fired(f"{ID.TABLE_SEARCH}.value", callbacks.render_table, query, "llama", None,
                      1, 1, 3)
    assert searched[2] == 0 and "match the search" in searched[1]
    assert callbacks.pick_outputs(shown) == callbacks.pick_outputs(result)
    assert len(calls) == 1             # the figures, the card and every table page: one exploration
    answered = to_query(replace(state, choose="ab"))   # "Help me choose" answers explore nothing new
    _fired(NEXT, callbacks.render_table, answered, "", None, None, 1, 0)
    assert len(calls) == 1


def test_a_view_with_a_message_shows_no_pick_and_an_empty_table_page():
    query = to_query(_state(objectives=(("bbh", "max"),), focus=("bbh",)))
    assert _fired(NEXT, callbacks.render_table, query, "", None, None, 1, 4) == callbacks.EMPTY_TABLE
    assert callbacks.pick_outputs("a message") == (True, "", "", True, "")
    assert callbacks.table_outputs("a message", 2, "", None) == callbacks.EMPTY_TABLE


def test_the_view_callback_reads_each_control_once():
    app = dash.Dash(__name__)
    callbacks.register_callbacks(app)
    view = next(spec for key, spec in app.callback_map.items() if f"{ID.FRONT}.figure" in key)
    read = [str(i["id"]) for i in view["inputs"] + view["state"]]
    assert len(read) == len(callbacks.CONTROLS) + len(callbacks.TABLE_VIEW) + len(callbacks.BRUSH)
    assert ID.PARALLEL in read
    assert len({(str(i["id"]), i["property"]) for i in view["inputs"] + view["state"]}) == len(read)
    assert {ID.ALPHA, ID.P_SLIDER, ID.REF} <= set(read)
    patterns = [json.loads(i)["type"] for i in read if i.startswith("{")]   # pattern ids as JSON
    assert sorted(patterns) == sorted([*callbacks.PER_COLUMN.values(), *callbacks.COLUMN_IDS.values()])
