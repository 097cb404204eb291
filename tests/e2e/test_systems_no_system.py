"""The Systems page in headless Chromium on a table without a system column (issue 19): the
message that says what a system column is and how to give one, no figure frame, no console
error (the page's callbacks have nothing to draw into and stay quiet)."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import count_of, open_page, screenshot

pytestmark = pytest.mark.browser


def test_no_system_column_shows_the_message_and_no_empty_frames(dash_duo, app):
    open_page(dash_duo, app, "/systems?dataset=decodingtrust")
    dash_duo.wait_for_contains_text("#systems-alert", "no system column (the system each row "
                                    "belongs to)", timeout=30)
    assert "role 'system'" in dash_duo.find_element("#systems-alert").text
    assert count_of(dash_duo, ".js-plotly-plot, .dash-graph, .dash-table-container, "
                              "#systems-tabs") == 0
    screenshot(dash_duo, "systems-no-system-column")
    assert dash_duo.get_logs() == []
