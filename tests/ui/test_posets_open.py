"""Posets opens in one request when the depth is stored, and a wide table gets the pages'
shared empty state with a clean link (issue 33)."""

from __future__ import annotations

import json

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.ui.features.posets.ids import PosetsIds as ID

CONTROLS = {ID.REF: "deepobs", ID.METHOD: None, ID.TASK: None, ID.CRITERIA: [],
            ID.TIES: "drop", ID.MISSING: "drop", ID.MODE: "auto", ID.TOLERANCE: 0.01, ID.K: 3,
            ID.RESTORED: None}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("posets-open")
    app = create_app(Settings(data_dir=root / "data", cache_dir=root / "cache"))
    return app, app.server.test_client()


def _draw(app, client) -> dict:
    """The page's drawing callback (the one writing the job store), as the page opens."""
    name = next(k for k in app.callback_map if f"{ID.JOB}.data" in k)
    spec = app.callback_map[name]
    outputs = [dict(zip(("id", "property"), o.rsplit(".", 1)))
               for o in name.strip(".").split("...")]
    body = {"output": name, "outputs": outputs, "changedPropIds": [], **{
        kind: [{"id": i["id"], "property": i["property"], "value": CONTROLS[i["id"]]}
               for i in spec[kind]] for kind in ("inputs", "state")}}
    answer = client.post("/_dash-update-component", data=json.dumps(body),
                         content_type="application/json")
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()["response"]


def _default_criteria(app) -> list[str]:
    """deepobs's default criteria, as the page's link gives them."""
    from urllib.parse import parse_qs

    from copa_dash.ui.features.posets.layout import layout

    with app.server.test_request_context():
        page = layout(dataset="deepobs")
    query = next(c for c in page.children if getattr(c, "id", None) == ID.QUERY).data
    return parse_qs(query)["crit"][0].split("|")


def test_a_stored_depth_is_drawn_at_once_and_only_a_missing_one_starts_the_job(served,
                                                                               monkeypatch):
    from copa_dash.ui.features.posets import callbacks

    app, client = served
    CONTROLS[ID.CRITERIA] = _default_criteria(app)
    monkeypatch.setattr(callbacks, "INLINE_SECONDS", -1.0)      # no depth is quick enough
    first = _draw(app, client)
    assert first[ID.JOB]["data"]["dataset"] == "deepobs"         # nothing stored: the job
    assert ID.HEADLINE not in first                             # what is drawn stays
    with app.server.app_context():                              # the job's work, stored
        from copa_dash.ui.common.settings_access import current_settings
        from copa_dash.ui.features.posets.callbacks import _state, _view
        with app.server.test_request_context():
            _view(_state(first[ID.JOB]["data"], 3), current_settings())
    assert first[ID.ALERT]["children"] is None      # an earlier view's message cleared
    second = _draw(app, client)
    assert ID.JOB not in second                                 # no job started
    assert second[ID.ALERT]["children"] is None
    assert "Most central" in json.dumps(second[ID.HEADLINE]["children"])
    assert second[ID.FIGURES]["style"] == {}


def test_a_quick_depth_is_computed_and_drawn_in_the_same_answer(served, monkeypatch):
    """amlb-2022's default view, never computed before: drawn at once, no job (the time
    allowed is raised, so a cold numba cache's slower first call passes too)."""
    from copa_dash.ui.features.posets import callbacks

    app, client = served
    monkeypatch.setattr(callbacks, "INLINE_SECONDS", 120.0)
    CONTROLS.update({ID.REF: "amlb-2022", ID.CRITERIA: []})
    try:
        from urllib.parse import parse_qs

        from copa_dash.ui.features.posets.layout import layout

        with app.server.test_request_context():
            page = layout(dataset="amlb-2022")
        query = next(c for c in page.children if getattr(c, "id", None) == ID.QUERY).data
        CONTROLS[ID.CRITERIA] = parse_qs(query)["crit"][0].split("|")
        answer = _draw(app, client)
    finally:
        CONTROLS.update({ID.REF: "deepobs", ID.CRITERIA: _default_criteria(app)})
    assert ID.JOB not in answer
    assert "10 methods" in json.dumps(answer[ID.HEADLINE]["children"])


def test_a_bad_choice_is_said_in_the_alert_line_without_a_job(served):
    app, client = served
    CONTROLS.update({ID.CRITERIA: _default_criteria(app), ID.METHOD: "problem",
                     ID.TASK: "problem"})
    try:
        answer = _draw(app, client)
    finally:
        CONTROLS.update({ID.METHOD: None, ID.TASK: None})
    assert "columns must differ" in json.dumps(answer[ID.ALERT]["children"])
    assert ID.JOB not in answer


def test_a_wide_table_opens_on_the_shared_empty_state_with_a_clean_link(served):
    app, _ = served
    from copa_dash.ui.features.posets.layout import layout

    with app.server.test_request_context():
        page = layout(dataset="open-llm-leaderboard-v2")
    text = json.dumps(page.to_plotly_json(), default=lambda o: o.to_plotly_json())
    assert "Partial rankings need a long table" in text
    assert "has no method column and no task column" in text
    assert "choose them" not in text
    assert "posets?dataset=amlb-2022" in text                   # the long example, linked
    assert ID.CRITERIA not in text and ID.DEPTH not in text     # no controls, no frames
    query = next(c for c in page.children if getattr(c, "id", None) == ID.QUERY).data
    assert "method=" not in query and "task=" not in query


def test_the_same_column_twice_in_the_link_opens_the_page_not_an_error(served):
    """The drawing callback says what is wrong (above); the layout must not raise first."""
    app, _ = served
    from copa_dash.ui.features.posets.layout import layout

    with app.server.test_request_context():
        page = layout(dataset="deepobs", method="problem", task="problem")
    assert ID.ALERT in json.dumps(page.to_plotly_json(), default=lambda o: o.to_plotly_json())
