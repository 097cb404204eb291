"""Posets after a Cancel: the controls say what is shown (issue 33, finding 7 of the
newcomer pass: the depth radio stayed on "exact" while the page showed the approximate depth
drawn before, or nothing)."""

from __future__ import annotations

import pytest

from copa_dash.ui.features.posets.job_messages import NOTHING_DRAWN, SET_BACK
from tests.e2e.app_under_test import open_page, screenshot, wait_until
from tests.e2e.test_posets_page import _upload_synthetic

pytestmark = pytest.mark.browser


def _ticked(dash_duo) -> list[str]:
    """The depth choices ticked (none, or one)."""
    return [box.get_attribute("value")
            for box in dash_duo.find_elements("#posets-mode input") if box.is_selected()]


def _start_and_cancel_exact(dash_duo) -> None:
    """Tick 'exact' (a job of well over a minute here), wait until it runs, cancel it."""
    row = dash_duo.find_element("#posets-progress-row")
    dash_duo.find_element("#posets-mode input[value='exact']").click()
    dash_duo.wait_for_contains_text("#posets-progress-text", "Computing the exact depth",
                                    timeout=40)
    wait_until(row.is_displayed, timeout=40)
    dash_duo.find_element("#posets-cancel").click()
    wait_until(lambda: not row.is_displayed(), timeout=30)


def test_cancel_of_exact_sets_the_choice_back_to_the_depth_shown(dash_duo, app):
    ref = _upload_synthetic(app)
    open_page(dash_duo, app, f"/posets?dataset={ref}")
    dash_duo.wait_for_contains_text("#posets-headline", "within ±", timeout=60)
    shown = dash_duo.find_element("#posets-headline").text
    assert _ticked(dash_duo) == ["auto"]
    _start_and_cancel_exact(dash_duo)
    # the drawn (approximate) depth's choice is ticked again, and the line says so
    wait_until(lambda: _ticked(dash_duo) == ["auto"], timeout=30)
    dash_duo.wait_for_contains_text("#posets-alert", SET_BACK, timeout=30)
    wait_until(lambda: dash_duo.find_element("#posets-headline").text == shown, timeout=30)
    assert "mode=auto" in dash_duo.find_element("#posets-share").get_attribute("value")
    screenshot(dash_duo, "posets-cancel-set-back")
    # the choice is usable as before: 'approximate' draws its depth and clears the line
    dash_duo.find_element("#posets-mode input[value='approx']").click()
    wait_until(lambda: "mode=approx" in dash_duo.driver.current_url, timeout=60)
    wait_until(lambda: SET_BACK not in dash_duo.find_element("#posets-alert").text, timeout=30)


def test_cancel_with_no_depth_drawn_ticks_no_choice(dash_duo, app):
    ref = _upload_synthetic(app)
    open_page(dash_duo, app, f"/posets?dataset={ref}&mode=exact")
    row = dash_duo.wait_for_element("#posets-progress-row", timeout=30)
    wait_until(row.is_displayed, timeout=40)
    dash_duo.find_element("#posets-cancel").click()
    dash_duo.wait_for_contains_text("#posets-alert", NOTHING_DRAWN, timeout=30)
    wait_until(lambda: _ticked(dash_duo) == [], timeout=30)
    wait_until(lambda: not row.is_displayed(), timeout=30)   # the job's end, told apart
    assert dash_duo.find_element("#posets-headline").text == ""
    screenshot(dash_duo, "posets-cancel-nothing-drawn")
    dash_duo.find_element("#posets-mode input[value='approx']").click()
    dash_duo.wait_for_contains_text("#posets-headline", "within ±", timeout=60)
    assert _ticked(dash_duo) == ["approx"]
