"""The explorer's callbacks: one reads the controls, each part renders from one memoised
exploration per view, the table's pager reads the view's store."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import dash

from copa_dash.services import explorer
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore import callbacks, panels, view_memo
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
    assert callbacks.pick_outputs(result) == (False, *panels.pick_card_text(result))
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


def test_a_view_is_explored_once_and_its_callers_share_the_result(monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return explorer.explore(*args, **kwargs)

    monkeypatch.setattr(view_memo, "explore", counted)
    view_memo._recent_views.clear()
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

    monkeypatch.setattr(view_memo, "explore", slow)
    view_memo._recent_views.clear()
    state = _state(alpha=0.21)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: view_memo.exploration(state), range(4)))
    assert len(calls) == 1 and all(r is results[0] for r in results)


def test_an_input_error_reaches_the_callbacks_as_its_message():
    message = view_memo.exploration(_state(objectives=(("bbh", "max"),), focus=("bbh",)))
    assert isinstance(message, str) and "two" in message.lower()
