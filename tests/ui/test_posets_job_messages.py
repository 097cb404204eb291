"""The Posets page's message line: "cancelled" after a cancel (cleared when the view changes:
tests/ui/test_posets_open.py)."""

from __future__ import annotations

import json

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.ui.features.posets.ids import PosetsIds as ID
from copa_dash.ui.features.posets.job_messages import CANCELLED


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    root = tmp_path_factory.mktemp("posets")
    app = create_app(Settings(data_dir=root / "data", cache_dir=root / "cache"))
    return app, app.server.test_client()


def _call(app, client, inputs):
    name = next(k for k, spec in app.callback_map.items()
                if f"{ID.ALERT}.children@" in k
                and [(i["id"], i["property"]) for i in spec["inputs"]] == [i for i, _ in inputs])
    body = {"output": name, "outputs": {"id": ID.ALERT, "property": "children"},
            "inputs": [{"id": i, "property": p, "value": v} for (i, p), v in inputs],
            "state": [], "changedPropIds": [f"{inputs[0][0][0]}.{inputs[0][0][1]}"]}
    answer = client.post("/_dash-update-component", data=json.dumps(body),
                         content_type="application/json")
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()["response"][ID.ALERT]["children"]


def test_cancel_says_cancelled(client):
    app, test_client = client
    assert CANCELLED in json.dumps(_call(app, test_client, [((ID.CANCEL, "n_clicks"), 1)]))
