"""Explore's ranked table fits its panel at 1400 x 1000 on the Open LLM leaderboard's seven
objectives (issue 33: it was 1,563 px wide in a 978 px panel, the top % columns off screen),
and it carries the "on the front" column."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser


def test_ranked_table_fits_its_panel_with_seven_objectives(dash_duo, app):
    open_page(dash_duo, app, "/explore?dataset=open-llm-leaderboard-v2")
    wait_until(lambda: dash_duo.driver.find_elements("css selector", "#explore-table td"),
               timeout=90)
    edges = dash_duo.driver.execute_script(
        "const t = document.querySelector('#explore-table table');"
        "t.scrollIntoView();"
        "const m = document.querySelector('main.results');"
        "return [t.getBoundingClientRect().right, m.getBoundingClientRect().right,"
        "        Array.from(t.querySelectorAll('th')).map(h => h.textContent)];")
    table_right, panel_right, headers = edges
    assert table_right <= panel_right
    assert "on the front" in headers and not any(h.startswith("top %") for h in headers)
    screenshot(dash_duo, "explore-ranked-table")
