"""Crafted bodies of POST /_dash-update-component: 400 with a generic text, no traceback."""

from __future__ import annotations

import json
import logging
import random

import pytest

from .conftest import SAME_ORIGIN

CALLBACK = "/_dash-update-component"
CRAFTED = [
    "[]", "null", "1", '"x"', "{}", '{"output": 1}', '{"output": null}', '{"output": ["a"]}',
    '{"inputs": [], "state": []}',
    '{"output": "x..y", "outputs": [], "inputs": []}',
    '{"output": "..explore-alpha.value...", "outputs": [], "inputs": [], "changedPropIds": []}',
]


def _post(client, body):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(CALLBACK, data=data, content_type="application/json",
                       headers={"Origin": SAME_ORIGIN})


def _real_body(full_app):
    """A well-formed request for the datasets page's table callback."""
    name = next(k for k in full_app.callback_map if k.startswith("..datasets-table.data"))
    spec = full_app.callback_map[name]
    items = [{**item, "value": None} for item in spec["inputs"]]
    state = [{**item, "value": None} for item in spec["state"]]
    outputs = [{"id": o.component_id, "property": o.component_property}
               for o in spec["output"]]
    return {"output": name, "outputs": outputs, "inputs": items, "state": state,
            "changedPropIds": []}


def _mutations(body, rng):
    """Bodies a fuzzer makes from a real one: fields dropped, retyped, shortened."""
    for key in list(body):
        yield {k: v for k, v in body.items() if k != key}
        for junk in (None, 7, "s", [], {}, [[1]], [{"id": 5}], [{"property": 1}]):
            yield {**body, key: junk}
    yield {**body, "inputs": body["inputs"][:-1]}
    yield {**body, "state": [*body["state"], body["state"][0]]}
    yield {**body, "output": body["output"] + "x"}
    for _ in range(20):
        text = json.dumps(body)
        cut = rng.randrange(1, len(text))
        yield text[:cut]


@pytest.mark.parametrize("body", CRAFTED)
def test_a_crafted_body_is_a_400_without_a_traceback(client, caplog, body):
    caplog.set_level(logging.WARNING)
    answer = _post(client, body)
    assert answer.status_code == 400
    assert answer.get_json() == {"error": "malformed callback request: reload the page"}
    assert all(record.exc_info is None for record in caplog.records)
    assert "Traceback" not in caplog.text


def test_fuzzed_bodies_never_give_a_500_or_a_traceback(client, full_app, caplog):
    caplog.set_level(logging.WARNING)
    body = _real_body(full_app)
    assert _post(client, body).status_code in (200, 204)  # the real one still works
    statuses = [_post(client, mutated).status_code
                for mutated in _mutations(body, random.Random(3))]
    assert len(statuses) > 40 and max(statuses) < 500, statuses
    assert all(record.exc_info is None for record in caplog.records)
