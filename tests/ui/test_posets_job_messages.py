"""The Posets page after a Cancel: the message line says "cancelled", and the controls say
what is shown (issue 33: the depth radio stayed on "exact" while the page showed the
approximate depth drawn before, or nothing). Cleared when the view changes:
tests/ui/test_posets_open.py; in the browser: tests/e2e/test_posets_cancel_controls.py."""

from __future__ import annotations

import json

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.ui.features.posets.ids import PosetsIds as ID
from copa_dash.ui.features.posets.job_messages import NOTHING_DRAWN

DRAWN = {"dataset": "amlb-2022", "method": "", "task": "task", "criteria": ["a", "b"],
         "ties": "drop", "missing": "worst", "mode": "approx", "tolerance": 0.02}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    root = tmp_path_factory.mktemp("posets")
    app = create_app(Settings(data_dir=root / "data", cache_dir=root / "cache"))
    return app, app.server.test_client()


def _cancel(app, client, drawn) -> dict:
    """The answer of the Cancel callback (the one reading the drawn view) to one click."""
    name = next(k for k, spec in app.callback_map.items()
                if [(i["id"], i["property"]) for i in spec["inputs"]] == [(ID.CANCEL, "n_clicks")]
                and [(i["id"], i["property"]) for i in spec["state"]] == [(ID.DRAWN, "data")])
    outputs = [dict(zip(("id", "property"), o.rsplit(".", 1)))
               for o in name.strip(".").split("...")]
    for output in outputs:          # "posets-alert.children@<hash>": the id and the property
        output["property"] = output["property"].split("@")[0]
    body = {"output": name, "outputs": outputs,
            "inputs": [{"id": ID.CANCEL, "property": "n_clicks", "value": 1}],
            "state": [{"id": ID.DRAWN, "property": "data", "value": drawn}],
            "changedPropIds": [f"{ID.CANCEL}.n_clicks"]}
    answer = client.post("/_dash-update-component", data=json.dumps(body),
                         content_type="application/json")
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()["response"]


def test_cancel_sets_every_control_back_to_the_depth_drawn(client):
    app, test_client = client
    answer = _cancel(app, test_client, DRAWN)
    assert answer[ID.MODE]["value"] == "approx"          # not the "exact" just cancelled
    assert answer[ID.METHOD]["value"] is None             # "" is the dropdown's no choice
    assert answer[ID.TASK]["value"] == "task"
    assert answer[ID.CRITERIA]["value"] == ["a", "b"]
    assert answer[ID.MISSING]["value"] == "worst"
    assert answer[ID.TOLERANCE]["value"] == 0.02
    assert answer[ID.RESTORED]["data"] == DRAWN     # the drawing callback then says so


def test_cancel_with_nothing_drawn_ticks_no_depth_and_says_cancelled(client):
    app, test_client = client
    answer = _cancel(app, test_client, None)
    assert answer[ID.MODE]["value"] is None
    assert ID.METHOD not in answer                        # the rest is left as it is
    assert NOTHING_DRAWN in json.dumps(answer[ID.ALERT]["children"])
