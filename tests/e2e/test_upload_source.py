"""The upload page's source form: an Optuna study read by its storage URL opens the mapping
step with the study's objectives and directions, and saves into the explorer."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.data.source_backends import make_optuna_study
from tests.e2e.app_under_test import screenshot, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def sources_on(app):
    """The shared app with the tracker form on (as on a loopback-only instance), then off."""
    before = app.server.config["COPA_SETTINGS"]
    app.server.config["COPA_SETTINGS"] = replace(before, read_sources=True)
    yield app
    app.server.config["COPA_SETTINGS"] = before


def _checked(dash_duo, column: str):
    dom_id = json.dumps({"column": column, "type": "upload-direction"}, separators=(",", ":"))
    return dash_duo.driver.execute_script(
        "const c = document.getElementById(arguments[0]).querySelector('input:checked');"
        "return c ? c.value : null;", dom_id)


def _role(dash_duo, column: str) -> str:
    dom_id = json.dumps({"column": column, "type": "upload-role"}, separators=(",", ":"))
    return dash_duo.find_element(f"[id='{dom_id}']").text


def test_an_optuna_study_opens_the_mapping_with_its_directions_and_explores(
        dash_duo, sources_on, tmp_path):
    pytest.importorskip("optuna")
    url = make_optuna_study(tmp_path)
    dash_duo.start_server(sources_on, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_element("#upload-source-location", timeout=30)
    dash_duo.find_element("#upload-source-location").send_keys(url)
    dash_duo.find_element("#upload-source-name").send_keys("mo")
    dash_duo.find_element("#upload-source-read").click()
    dash_duo.wait_for_contains_text("#upload-alert", "6 rows", timeout=60)
    dash_duo.wait_for_contains_text("#upload-read-notes", "Read from Optuna study 'mo'",
                                    timeout=10)
    assert "3 of 9 trials left out" in dash_duo.find_element("#upload-read-notes").text
    assert (_checked(dash_duo, "accuracy"), _checked(dash_duo, "latency")) == ("max", "min")
    assert _role(dash_duo, "params_lr").startswith("metadata")
    assert _role(dash_duo, "config").startswith("config")
    screenshot(dash_duo, "upload-source-optuna")
    dash_duo.find_element("#upload-save").click()
    dash_duo.wait_for_element("#pick-id", timeout=60)
    assert "/explore?dataset=" in dash_duo.driver.current_url
    wait_until(lambda: dash_duo.find_element("#pick-id").text.startswith("trial "), timeout=60)


def test_the_form_is_absent_where_the_instance_does_not_read_sources(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_element("#upload-file", timeout=30)
    assert dash_duo.driver.find_elements("css selector", "#upload-source-read") == []
