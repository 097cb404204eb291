"""The share box as a read-only one-row textarea (session 22 (2)), in headless Chromium at
1400 x 1000: a new view's link reaches the box, the address bar and the header's links; the
copy button copies the box's current link; the link can be selected; the box is one line,
as the input it replaced was. Screenshots: tests/e2e/screenshots/share-box-*.png."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "dmop"
EXPLORE = f"/explore?dataset={DATASET}&obj=migd:min&obj=migd_stage1:min&obj=mhvd:min"

# what the copy button hands the clipboard, recorded (headless Chromium has no clipboard to
# read back from)
STUB_CLIPBOARD = """
window.__copied = [];
navigator.clipboard.writeText = (text) => { window.__copied.push(text); return Promise.resolve(); };
"""

# the box selected as a person would (click in, select all): what is selected, and its size
SELECT = """
const box = document.getElementById(arguments[0]);
box.focus(); box.select();
const r = box.getBoundingClientRect();
return {selected: box.value.substring(box.selectionStart, box.selectionEnd),
        tag: box.tagName, height: r.height, width: r.width,
        label: document.querySelector('label[for="' + arguments[0] + '"]').textContent};
"""


def _share(dash_duo) -> str:
    return dash_duo.find_element("#explore-share").get_attribute("value")


def _objectives(link: str) -> list:
    return parse_qs(urlsplit(link).query).get("obj", [])


def test_a_new_views_link_is_copied_selected_and_followed(dash_duo, app):
    open_page(dash_duo, app, EXPLORE)
    wait_until(lambda: "obj=migd_stage1" in _share(dash_duo), timeout=60)
    dash_duo.driver.execute_script(STUB_CLIPBOARD)

    dash_duo.find_element('[id*="explore-objectives"][id*="migd_stage1"] input[type=checkbox]').click()
    wait_until(lambda: _objectives(_share(dash_duo)) == ["migd:min", "mhvd:min"], timeout=60)
    link = _share(dash_duo)
    # the address bar and the header's links follow the box (url_sync.js, context.js)
    wait_until(lambda: _objectives(dash_duo.driver.current_url) == ["migd:min", "mhvd:min"])
    wait_until(lambda: "ctx_obj=migd_stage1" not in dash_duo.find_element(
        "a.nav-link[href^='/rankings']").get_attribute("href")
        and "ctx_obj=mhvd" in dash_duo.find_element(
        "a.nav-link[href^='/rankings']").get_attribute("href"))
    assert dash_duo.find_element("a.nav-link[href^='/explore']").get_attribute(
        "href").endswith(urlsplit(link).query)

    dash_duo.find_element(".share-row [title='copy the link']").click()
    wait_until(lambda: dash_duo.driver.execute_script("return window.__copied.length") > 0)
    assert dash_duo.driver.execute_script("return window.__copied") == [link]

    shown = dash_duo.driver.execute_script(SELECT, "explore-share")
    assert shown["selected"] == link and shown["tag"] == "TEXTAREA"
    assert shown["label"] == "link to this view"
    assert 20 < shown["height"] < 40 and shown["width"] > 600     # one line, the row's width
    screenshot(dash_duo, "share-box-explore")
    assert dash_duo.get_logs() == []
