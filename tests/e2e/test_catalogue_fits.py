"""Tester 18 (finding 11): at 1024 x 768 the Datasets catalogue was wider than the window
("Objectives" cut, the last column behind a scroll), and between 1100 and 1380 px its fixed
widths (1,307 px) overflowed the page. At each width the table fits its box, no header is
cut, and the date gives way only below 1180 px."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import screenshot, wait_until

pytestmark = pytest.mark.browser
TABLE = "#datasets-table"
MEASURE = """
const box = document.querySelector(arguments[0] + ' .dash-spreadsheet-container');
const heads = [...document.querySelectorAll(arguments[0] + ' th')]
  .filter(e => getComputedStyle(e).display !== 'none');
const cut = heads.filter(e => e.scrollWidth > e.clientWidth).map(e => e.innerText.trim());
const name = e => e.getAttribute('data-dash-column');
return {over: box.scrollWidth - box.clientWidth, cut: cut,
        columns: heads.map(name), right: Math.max(...heads.map(e => e.getBoundingClientRect().right)),
        window: document.documentElement.clientWidth};
"""


def test_the_catalogue_fits_the_window_at_every_width(dash_duo, app):
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app)
    dash_duo.wait_for_element(f"{TABLE} td[data-dash-column='title']", timeout=30)
    for width, height in ((1400, 1000), (1280, 800), (1150, 800), (1024, 768)):
        dash_duo.driver.set_window_size(width, height)
        wait_until(lambda width=width: dash_duo.driver.execute_script(
            "return window.innerWidth;") == width, timeout=10)
        seen = dash_duo.driver.execute_script(MEASURE, TABLE)
        assert seen["over"] <= 0, (width, seen)
        assert seen["cut"] == [], (width, seen)
        assert seen["right"] <= seen["window"], (width, seen)
        assert ("date" in seen["columns"]) is (width >= 1180), (width, seen)
        assert {"title", "learn", "n_objectives", "source", "origin"} <= set(seen["columns"])
        if (width, height) in ((1400, 1000), (1024, 768)):
            screenshot(dash_duo, f"catalogue-fits-{width}")
