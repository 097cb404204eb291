"""Rankings on the Open LLM leaderboard (2,921 rows): the pin picker holds a short list and
finds an entry by typing (issue 33: indexing every entry in the browser cost seconds per open)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from copa_dash.services import rankings
from copa_dash.services.catalog import open_dataset
from tests.e2e.app_under_test import open_page, texts_of, wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"


def test_pin_picker_searches_on_the_server(dash_duo, app):
    entries = rankings.entry_names(open_dataset(DATASET).table, group="system")
    assert len(entries) > 1000
    target = entries[-1]                      # far beyond the first options
    open_page(dash_duo, app, f"/rankings?dataset={DATASET}")
    wait_until(lambda: dash_duo.driver.find_elements(By.CSS_SELECTOR, "#rankings-table td"),
               timeout=90)
    dash_duo.find_element("#rankings-pins").click()

    def options():
        return texts_of(dash_duo, ".dash-dropdown-options .dash-dropdown-option")

    wait_until(lambda: len(options()) > 0, timeout=30)
    dash_duo.find_element(".dash-dropdown-search").send_keys(target)
    wait_until(lambda: target in options(), timeout=30)
    dash_duo.driver.find_element(
        By.XPATH, f"//*[contains(@class,'dash-dropdown-option')][normalize-space()='{target}']"
    ).click()
    wait_until(lambda: f"pin={target}".replace("/", "%2F") in dash_duo.driver.current_url
               or f"pin={target}" in dash_duo.driver.current_url, timeout=30)
