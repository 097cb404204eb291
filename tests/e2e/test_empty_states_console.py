"""A page's empty state (its dataset does not fit the page) logs nothing in the browser's
console (issue 33: Posets on open-llm-leaderboard-v2 logged Dash's "A nonexistent object was
used in an `Input` ... posets-method" each time: a callback of the full page fired on the
empty state, which lacks its controls)."""

from __future__ import annotations

import time

import pytest

from tests.e2e.app_under_test import none_loading, open_page, screenshot, wait_until

pytestmark = pytest.mark.browser

# each page on a shipped dataset it does not apply to (the tester's pass, issue 33)
EMPTY_STATES = ("/posets?dataset=open-llm-leaderboard-v2", "/posets?dataset=decodingtrust",
                "/systems?dataset=open-llm-leaderboard-v2", "/systems?dataset=decodingtrust",
                "/generalization?dataset=amlb-2022")


def test_no_page_logs_a_console_error_on_its_empty_state(dash_duo, app):
    open_page(dash_duo, app, EMPTY_STATES[0])
    for path in EMPTY_STATES:
        dash_duo.wait_for_page(url=f"{dash_duo.server.url}{path}", timeout=30)
        dash_duo.wait_for_element(".empty-state", timeout=30)
        wait_until(lambda: none_loading(dash_duo), timeout=30)
        time.sleep(1.0)      # a callback fired by the layout reports after the first render
        assert dash_duo.get_logs() == [], path
    screenshot(dash_duo, "posets-empty-state-no-console-error")
