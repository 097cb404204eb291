"""The context bar names datasets as people know them (issue 33): an upload by its own name,
never its 32-character id; a deleted upload is forgotten, so no other page is sent to it."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.data.schema import Objective, Roles
from copa_dash.services.store import open_store
from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser


def _bar(dash_duo) -> str:
    return dash_duo.driver.execute_script(
        "const e = document.getElementById('context-dataset-name'); return e ? e.textContent : '';")


def _stored(dash_duo):
    return dash_duo.driver.execute_script(
        "return JSON.parse(window.localStorage.getItem('context-last-dataset'));")


def test_an_upload_is_named_and_a_deleted_one_forgotten(dash_duo, app):
    settings = app.server.config["COPA_SETTINGS"]
    store = open_store(settings)
    frame = pd.DataFrame({"m": ["a", "b", "c"], "acc": [0.9, 0.8, 0.7], "cost": [3.0, 2.0, 1.0]})
    saved = store.save(frame, Roles(id="m", objectives=(Objective("acc", "max"),
                                                          Objective("cost", "min"))),
                       name="my sweep of three")
    ref = saved.id
    open_page(dash_duo, app, f"/rankings?dataset={ref}")
    wait_until(lambda: "my sweep of three" in _bar(dash_duo), timeout=60)
    assert ref not in _bar(dash_duo)
    screenshot(dash_duo, "context-upload-named")

    store.delete(ref, owner_token=saved.owner_token)
    dash_duo.find_element("a.nav-link[href^='/systems']").click()
    # named as this browser saw it, and said to be deleted (F7)
    wait_until(lambda: "'my sweep of three', which was deleted" in _bar(dash_duo), timeout=60)
    wait_until(lambda: not (_stored(dash_duo) or {}).get("dataset"), timeout=30)
    # the header's links no longer carry the deleted dataset
    wait_until(lambda: ref not in dash_duo.find_element(
        "a.nav-link[href^='/posets']").get_attribute("href"), timeout=30)


def test_a_bundled_table_is_named_by_its_title_and_name(dash_duo, app):
    open_page(dash_duo, app, "/rankings?dataset=dmop")
    wait_until(lambda: "Dynamic multi-objective" in _bar(dash_duo) and "(dmop)" in _bar(dash_duo),
               timeout=60)
