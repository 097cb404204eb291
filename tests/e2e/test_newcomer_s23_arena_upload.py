"""Session 23's newcomer dropped Chatbot Arena's merge with the Open LLM Leaderboard as
exported (issue 33): the page named the rows by the 98-character ``id`` and proposed the
average beside one of the benchmarks it averages. Now the Id picker holds ``key``, the note
under it says why, and "Save and explore" lands on a pick named by the model key."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from selenium.webdriver.common.by import By

from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
ARENA = Path(__file__).parents[1] / "data" / "messy" / "arena_merged_openllm.csv"


def test_the_arena_merge_is_named_by_its_model_key(dash_duo, app):
    keys = set(pd.read_csv(ARENA)["key"])                   # the premise, pandas alone
    open_page(dash_duo, app, "/upload")
    dash_duo.wait_for_element("#upload-paste-text", timeout=30)
    dash_duo.driver.find_element(By.CSS_SELECTOR, "#upload-file input[type=file]").send_keys(
        str(ARENA))
    dash_duo.wait_for_contains_text("#upload-id-note", "'id' spells out 'key'", timeout=60)
    dash_duo.wait_for_contains_text(
        "#upload-check", "3 objectives: model_average_score, metadata_params_billions, "
        "arena_score", timeout=20)
    assert "stands for the evaluations-* columns" in dash_duo.find_element(
        "#upload-read-notes").text
    screenshot(dash_duo, "newcomer-s23-arena-proposal")
    dash_duo.find_element("#upload-save").click()
    pick = dash_duo.wait_for_element("#pick-id", timeout=60)
    wait_until(lambda: pick.text.strip() != "", timeout=60)
    name = pick.text.strip()
    assert len(name) <= 45 and name.split(" · ")[0] in keys, name
    screenshot(dash_duo, "newcomer-s23-arena-explored")
