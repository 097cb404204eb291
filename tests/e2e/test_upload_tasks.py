"""The AutoML benchmark slice (one row per framework, task and fold) dropped as exported: the
upload keeps its 0 s durations when asked, and Explore says its pick compares runs on
different tasks, with a one-click restriction to one task kept in the link (tester G2)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.app_under_test import count_of, open_upload_with, screenshot, wait_until

pytestmark = pytest.mark.browser
AMLB = Path(__file__).parents[1] / "data" / "messy" / "amlb2019_1h_slice.csv"


def _choose(dash_duo, column: str, direction: str) -> None:
    dom_id = json.dumps({"column": column, "type": "upload-direction"}, separators=(",", ":"))
    box = dash_duo.driver.find_element(By.CSS_SELECTOR,
                                       f"[id='{dom_id}'] input[value='{direction}']")
    dash_duo.driver.execute_script("arguments[0].click()", box)


def test_amlb_slice_keeps_zeros_and_explore_says_the_pick_spans_tasks(dash_duo, app):
    open_upload_with(dash_duo, app, AMLB)
    dash_duo.wait_for_contains_text("#upload-read-notes", "read as missing", timeout=30)
    box = dash_duo.find_element("#upload-keep-zeros input")
    assert not box.is_selected()
    box.click()
    dash_duo.wait_for_contains_text("#upload-read-notes", "Kept 0 as a value in 'duration'",
                                    timeout=30)
    assert dash_duo.find_element("#upload-keep-zeros input").is_selected()
    for column in ("models", "result", "imp_result"):
        _choose(dash_duo, column, "max")
    wait_until(lambda: dash_duo.find_element("#upload-save").is_enabled(), timeout=10)
    dash_duo.find_element("#upload-save").click()
    dash_duo.wait_for_element("#pick-id", timeout=30)
    note = dash_duo.wait_for_element(".task-note", timeout=30)
    # vehicle (multiclass) has no auc, an objective of the first view: its rows drop out
    assert note.text.startswith("These rows come from 2 tasks: ")
    assert [a.text for a in note.find_elements("css selector", ".task-restrict")] == \
        ["australian", "credit-g"]
    assert "the pick compares a run on one task with runs on others" in note.text
    screenshot(dash_duo, "explore-amlb2019-task-note")
    posets = dash_duo.find_element(".task-note .task-posets")
    assert urlsplit(posets.get_attribute("href")).path == "/posets"
    explore = dash_duo.driver.current_url
    dataset = parse_qs(urlsplit(explore).query)["dataset"][0]
    for page, words in (("rankings", "a system's mean mixes its runs on different tasks"),
                        ("systems", "each system's front and indicators pool its runs")):
        dash_duo.driver.get(f"{dash_duo.server.url}/{page}?dataset={dataset}")
        dash_duo.wait_for_contains_text(".task-note", words, timeout=30)
        screenshot(dash_duo, f"{page}-amlb2019-task-note")
    dash_duo.driver.get(f"{dash_duo.server.url}/posets?dataset={dataset}")
    dash_duo.wait_for_element("#posets-alert, .js-plotly-plot", timeout=30)
    assert count_of(dash_duo, ".task-note") == 0  # it ranks per task
    dash_duo.driver.get(explore)
    dash_duo.wait_for_element(".task-note", timeout=30)
    dash_duo.find_element(".task-note .task-restrict").click()
    wait_until(lambda: "in=task" in dash_duo.driver.current_url, timeout=20)
    query = parse_qs(urlsplit(dash_duo.driver.current_url).query)
    assert query["in"] == ["task:australian"]
    wait_until(lambda: count_of(dash_duo, ".task-note") == 0, timeout=30)
    assert dash_duo.get_logs() == []
