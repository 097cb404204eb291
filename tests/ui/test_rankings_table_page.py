"""The Rankings table paged, sorted and filtered on the server (issue 33): the shown page is
checked against the whole rank table computed from the ranking service and sorted and
filtered with pandas, and the CSV download still carries the whole table."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.services import rankings
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.rankings import table_page
from copa_dash.ui.features.rankings.callbacks import rank_view, table_answer
from copa_dash.ui.features.rankings.ids import RankingsIds as ID
from copa_dash.ui.features.rankings.state import parse_query, with_defaults

DATASET = "open-llm-leaderboard-v2"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("rankings-table")
    app = create_app(Settings(data_dir=root / "data", cache_dir=root / "cache"))
    return app, app.server.test_client()


@pytest.fixture(scope="module")
def state():
    return with_defaults(parse_query({"dataset": DATASET}), open_dataset(DATASET))


@pytest.fixture(scope="module")
def expected(served, state) -> pd.DataFrame:
    """The whole rank table from the service's ranks, in its order (largest changes first),
    built here without the page's table code."""
    app, _ = served
    with app.server.test_request_context():
        view = rank_view(state)
    ranks = view.ranks(state.ties)
    order = rankings.change_order(view, ties=state.ties)
    frame = pd.DataFrame(ranks[order], columns=[f"r{j}" for j in range(ranks.shape[1])])
    frame.insert(0, "entry", [str(view.ids[i]) for i in order])
    frame["moves"] = ranks[order].max(axis=1) - ranks[order].min(axis=1)
    return frame


def _answer(app, state, **table) -> dict:
    with app.server.test_request_context():
        return table_answer(state, **{"page": 0, "sort_by": [], "filter_query": "", **table})


def test_the_first_page_is_15_rows_of_the_whole_table_in_its_order(served, state, expected):
    app, _ = served
    answer = _answer(app, state)
    assert len(expected) == 2142
    assert [r["entry"] for r in answer["data"]] == list(expected["entry"][:15])
    assert [r["r0"] for r in answer["data"]] == list(expected["r0"][:15])
    assert answer["pages"] == -(-2142 // 15) == 143
    assert answer["count"] == "2142 entries."
    # what the browser receives: the page, not the table (about 750 kB before)
    assert len(json.dumps([answer["data"], answer["tooltips"]])) < 20_000


@pytest.mark.parametrize("column,direction", [("r0", "desc"), ("moves", "asc"),
                                              ("entry", "asc")])
def test_a_sorted_page_is_the_pandas_sorted_table(served, state, expected, column, direction):
    app, _ = served
    answer = _answer(app, state, page=3, sort_by=[{"column_id": column, "direction": direction}])
    ordered = expected.sort_values(column, ascending=direction == "asc", kind="stable")
    assert [r["entry"] for r in answer["data"]] == list(ordered["entry"][45:60])
    assert answer["page"] == 3


def test_a_filtered_page_is_the_pandas_filtered_table(served, state, expected):
    app, _ = served
    query = '{entry} icontains "qwen" && {r0} <= 1000'
    answer = _answer(app, state, page=1, filter_query=query,
                     sort_by=[{"column_id": "r0", "direction": "asc"}])
    chosen = expected[expected["entry"].str.contains("qwen", case=False, regex=False)
                      & (expected["r0"] <= 1000)].sort_values("r0", kind="stable")
    assert 15 < len(chosen) < len(expected)
    assert [r["entry"] for r in answer["data"]] == list(chosen["entry"][15:30])
    assert answer["pages"] == -(-len(chosen) // 15)
    assert answer["count"] == f"{len(chosen)} of 2142 entries match the filter."


def test_a_page_past_the_end_is_the_last_and_a_bad_filter_is_named(served, state, expected):
    app, _ = served
    answer = _answer(app, state, page=10_000, filter_query="{r0} ~ 3 && {nope} = 1")
    assert answer["page"] == 142
    assert [r["entry"] for r in answer["data"]] == list(expected["entry"][142 * 15:])
    assert answer["count"] == ("2142 of 2142 entries match the filter (ignored, not understood: "
                               "{r0} ~ 3; {nope} eq 1).")
    # a number expected, text given: ignored and said, not a traceback
    text = _answer(app, state, filter_query="{r0} > abc")
    assert "ignored, not understood: {r0} gt abc" in text["count"]


def test_a_bad_view_gives_an_empty_table_not_a_traceback(served, state):
    from dataclasses import replace

    app, _ = served
    answer = _answer(app, replace(state, criteria=("no-such-criterion",)))
    assert answer["data"] == [] and answer["pages"] == 1


@pytest.mark.parametrize("query,expected_rows", [
    ('{entry} contains "b"', ["ab", "b"]), ("{entry} eq ab", ["ab"]),
    ("{r0} = 2", ["b"]), ("{r0} >= 2 && {r0} != 3", ["b"]), ("{entry} s= B", []),
    ("{entry} ieq B", ["b"]), ("{entry} datestartswith a", ["ab"]), ("", ["ab", "b", "c"]),
])
def test_the_filter_reads_what_the_filter_row_writes(query, expected_rows):
    rows = [{"entry": "ab", "r0": 3.0}, {"entry": "b", "r0": 2.0}, {"entry": "c", "r0": np.nan}]
    columns = [{"id": "entry", "type": "text"}, {"id": "r0", "type": "numeric"}]
    shown = table_page.shown_page(rows, columns, page=0, filter_query=query)
    assert [r["entry"] for r in shown.rows] == expected_rows


def test_empty_cells_sort_last_both_ways():
    rows = [{"v": 2.0}, {"v": None}, {"v": 1.0}]
    columns = [{"id": "v", "type": "numeric"}]
    for direction, order in (("asc", [1.0, 2.0, None]), ("desc", [2.0, 1.0, None])):
        shown = table_page.shown_page(rows, columns, page=0,
                                      sort_by=[{"column_id": "v", "direction": direction}])
        assert [r["v"] for r in shown.rows] == order


def _post(client, app, name: str, values: dict, sets: dict) -> dict:
    """One callback of the page through Dash's endpoint, its inputs and states from
    ``values`` and the set filters' dropdowns (a pattern: one per column) from ``sets``."""
    spec = app.callback_map[name]

    def one(s):
        if "ALL" not in str(s["id"]):
            return {"id": s["id"], "property": s["property"], "value": values.get(s["id"])}
        return [{"id": {"type": ID.SET_FILTER, "column": c}, "property": s["property"],
                 "value": list(v) if s["property"] == "value" else
                 {"type": ID.SET_FILTER, "column": c}} for c, v in sets.items()]

    def items(specs):
        return [one(s) for s in specs]

    body = {"output": name, "outputs": {"id": name.split(".")[0], "property": "data"},
            "inputs": items(spec["inputs"]), "state": items(spec["state"]),
            "changedPropIds": [f"{ID.DOWNLOAD_BUTTON}.n_clicks"]}
    answer = client.post("/_dash-update-component", data=json.dumps(body),
                         content_type="application/json")
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()["response"]


def test_the_csv_download_is_still_the_whole_table(served, state, expected):
    app, client = served
    values = {ID.REF: DATASET, ID.CRITERIA: list(state.criteria),
              ID.OBJECTIVES: list(state.objectives), ID.FOCUS: [], ID.ALPHA: state.alpha,
              ID.TIES: state.ties, ID.GROUP: state.group, ID.DOWNLOAD_BUTTON: 1}
    sent = _post(client, app, f"{ID.DOWNLOAD}.data", values,
                 dict(state.sets))[ID.DOWNLOAD]["data"]
    frame = pd.read_csv(io.StringIO(sent["content"]))
    assert sent["filename"].endswith(".csv")
    assert list(frame["entry"]) == list(expected["entry"])
    assert list(frame["mean (raw)"]) == list(expected["r0"])
    assert list(frame["moves (max - min rank)"]) == list(expected["moves"])


def test_the_whole_table_is_built_once_per_view_not_per_page(served, state):
    """A page turn reuses the rows of its view (the chart's top and pins do not change the
    table); another view (raw ties) gets its own rows."""
    from dataclasses import replace

    from copa_dash.ui.features.rankings.callbacks import whole_table

    app, _ = served
    with app.server.test_request_context():
        first = whole_table(state)
        assert whole_table(replace(state, top=5, pins=("x",), by="copa:inf")) is first
        kept = whole_table(replace(state, ties="keep"))
    assert kept is not first and len(kept[0]) == len(first[0])
