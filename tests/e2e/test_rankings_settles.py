"""Rankings settles: after the page opens and after a tab switch, no element is marked
loading at all (issue 33: the tabs carried ``data-dash-is-loading`` for good)."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import graph_figure, screenshot, wait_until

pytestmark = pytest.mark.browser

MARKED = "return [...document.querySelectorAll('[data-dash-is-loading]')].map(e => e.id || e.className);"
PENDING = "return document.querySelector('._dash-loading-callback') !== null;"


def _settled(dash_duo) -> bool:
    return not dash_duo.driver.execute_script(MARKED) and \
        not dash_duo.driver.execute_script(PENDING)


def _wait_settled(dash_duo, timeout: float = 40) -> None:
    try:
        wait_until(lambda: _settled(dash_duo), timeout=timeout)
    except AssertionError:
        raise AssertionError("still marked loading: "
                             f"{dash_duo.driver.execute_script(MARKED)}") from None


def test_rankings_settles_after_opening_and_after_a_tab_switch(dash_duo, app):
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/rankings?dataset=amlb-2022", timeout=30)
    graph_figure(dash_duo, "rankings-bump", timeout=60)
    _wait_settled(dash_duo)
    dash_duo.find_element("#rankings-tabs label:has(input[value='benchmark'])").click()
    graph_figure(dash_duo, "rankings-boxes", timeout=60)
    assert dash_duo.find_element("#rankings-boxes").is_displayed()
    assert not dash_duo.find_element("#rankings-bump").is_displayed()
    _wait_settled(dash_duo)
    screenshot(dash_duo, "rankings-benchmark-tab")
    dash_duo.find_element("#rankings-tabs label:has(input[value='ranks'])").click()
    wait_until(lambda: dash_duo.find_element("#rankings-bump").is_displayed(), timeout=10)
    _wait_settled(dash_duo)
    assert "tab=ranks" in dash_duo.driver.current_url
    screenshot(dash_duo, "rankings-ranks-tab")
    assert dash_duo.get_logs() == []
