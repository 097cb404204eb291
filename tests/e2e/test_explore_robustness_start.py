"""Explore's "How sure" panel of a view nobody worked out yet: its work starts on the server's
background thread once the view is answered, and the panel's own request (sent after the
figure is drawn) reads the result instead of computing it (issue 33: the panel of a new view
came a full computation after the drawing)."""

from __future__ import annotations

import threading
import time

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.app_under_test import open_page, wait_until

pytestmark = pytest.mark.browser
BOXES = "input[type=checkbox][name*='explore-objectives']"
# an alpha no other test opens: every view of this test is new to the app's cache
ALPHA = "0.37"


def test_a_new_views_panel_is_worked_out_in_the_background(dash_duo, app, monkeypatch):
    from copa_dash.services import robustness
    from copa_dash.ui.features.explore import robustness_panel

    computed, real_compute = [], robustness._compute

    def recording(table, prefs, *args):
        computed.append((prefs.objectives, threading.current_thread().name))
        return real_compute(table, prefs, *args)

    real_result = robustness_panel.result_of

    def late(query):
        # the panel's request comes late (as on a slow browser): the background job has
        # begun by then whatever the machine's load, so the test cannot pass by a race
        time.sleep(1.5)
        return real_result(query)

    monkeypatch.setattr(robustness, "_compute", recording)
    monkeypatch.setattr(robustness_panel, "result_of", late)
    open_page(dash_duo, app, f"/explore?dataset=decodingtrust&alpha={ALPHA}")
    settled = _settled(dash_duo)
    dash_duo.driver.find_elements(By.CSS_SELECTOR, BOXES)[1].click()
    wait_until(lambda: _settled(dash_duo) != settled, timeout=60)
    views = [objectives for objectives, _ in computed]
    assert len(views) == 2 and len(views[1]) == len(views[0]) - 1, computed
    # each view worked out once, on the background thread, none in a request's thread
    assert {thread for _, thread in computed} == {"copa-dataset-prep"}, computed
    verdict = dash_duo.find_element("#explore-robust-verdict").text
    assert verdict.startswith("it stays the pick for"), verdict
    assert dash_duo.get_logs() == []


def _settled(dash_duo) -> str:
    """The verdict line once the panel is not being worked out ('' meanwhile)."""
    from copa_dash.ui.features.explore import robustness_panel

    line = dash_duo.find_element("#explore-robust-verdict").text
    body = dash_duo.find_element("#explore-robust-body").get_attribute("class")
    if line in ("", robustness_panel.WAITING_WORDS) or "robust-stale" in body:
        return ""
    return line
