"""The Systems page's Run button waits for form values in range (the range said), the message
line is cleared on Run and says "cancelled" after a cancel. Driven through Dash's own
callback endpoint of the full app."""

from __future__ import annotations

import json

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.ui.features.systems.ids import SystemsIds as ID
from copa_dash.ui.features.systems.run_guard import CANCELLED, run_check


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("guard")
    return create_app(Settings(data_dir=root / "data", cache_dir=root / "cache"))


def _call(app, inputs: dict, outputs: list[tuple[str, str]]):
    name = next(k for k, spec in app.callback_map.items()
                if [(i["id"], i["property"]) for i in spec["inputs"]] == list(inputs)
                and all(f"{i}.{p}" in k for i, p in outputs))
    spec = app.callback_map[name]
    many = isinstance(spec["output"], (list, tuple))
    described = [{"id": o.component_id, "property": o.component_property.split("@")[0]}
                 for o in (spec["output"] if many else [spec["output"]])]
    body = {"output": name, "outputs": described if many else described[0],
            "inputs": [{"id": i, "property": p, "value": v} for (i, p), v in inputs.items()],
            "state": [], "changedPropIds": [f"{i}.{p}" for i, p in inputs]}
    answer = app.server.test_client().post("/_dash-update-component", data=json.dumps(body),
                                           content_type="application/json")
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()["response"]


def _texts(node) -> str:
    return json.dumps(node)


@pytest.mark.parametrize(("permutations", "seed"), [(0, 1), (1_000_001, 1), (2.5, 1),
                                                    (None, 1), (100, -1), (100, None)])
def test_out_of_range_values_keep_run_disabled_and_say_the_range(app, permutations, seed):
    response = _call(app, {(ID.PERMUTATIONS, "value"): permutations, (ID.SEED, "value"): seed},
                     [(ID.RUN, "disabled"), (ID.TEST_ALERT, "children")])
    assert response[ID.RUN]["disabled"] is True
    assert run_check(permutations, seed) in _texts(response[ID.TEST_ALERT])


def test_values_in_range_enable_run_and_clear_the_message(app):
    response = _call(app, {(ID.PERMUTATIONS, "value"): 5000, (ID.SEED, "value"): 0},
                     [(ID.RUN, "disabled"), (ID.TEST_ALERT, "children")])
    assert response[ID.RUN]["disabled"] is False
    assert response[ID.TEST_ALERT]["children"] is None


def test_cancel_says_cancelled_and_run_clears_stale_errors(app):
    cancelled = _call(app, {(ID.CANCEL, "n_clicks"): 1}, [(ID.TEST_ALERT, "children")])
    assert CANCELLED in _texts(cancelled[ID.TEST_ALERT])
    cleared = _call(app, {(ID.RUN, "n_clicks"): 2}, [(ID.TEST_ALERT, "children")])
    assert cleared[ID.TEST_ALERT]["children"] is None
