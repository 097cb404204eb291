"""Long ids in tables (issue 19) in headless Chromium at 1400 x 1000: on one line, cut with an
ellipsis, the full name on hover - Explore's HTML table (a ``title``) and the Rankings
DataTable (its tooltip). Screenshot: tests/e2e/screenshots/table-ids-explore.png."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.e2e.app_under_test import open_page, screenshot, texts_of, wait_until

pytestmark = pytest.mark.browser
DATASET = "decodingtrust"        # 55 rows, ids up to 81 characters
LONG = "hf/efficient-llm/llama-2-13b-chat-gptq-larger-caliset-llama2-temp@3bit_128g_1seed"


def test_a_long_id_is_one_ellipsised_line_with_its_full_name_on_hover(dash_duo, app):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    search = dash_duo.wait_for_element("#explore-table-search", timeout=60)
    search.send_keys("temp@3bit_128g_1seed", Keys.ENTER)
    cell = f"#explore-table td.id-cell[title='{LONG}']"
    dash_duo.wait_for_element(cell, timeout=60)
    look = dash_duo.driver.execute_script(
        "const td = document.querySelector(arguments[0]);"
        "td.scrollIntoView();"
        "const s = getComputedStyle(td);"
        "return {white: s.whiteSpace, cut: s.textOverflow, full: td.scrollWidth,"
        "        shown: td.clientWidth, height: td.getBoundingClientRect().height,"
        "        line: parseFloat(s.lineHeight) || 20, text: td.textContent};", cell)
    # shown shortened in the middle (its head, "…", its tail), the whole name on hover
    head, tail = look["text"].split("…")[0], look["text"].split("…")[-1]
    assert "…" in look["text"] and len(look["text"]) < len(LONG)
    assert LONG.startswith(head) and LONG.endswith(tail) and len(head) >= 8 and len(tail) >= 8
    assert look["white"] == "nowrap" and look["cut"] == "ellipsis"   # and never wrapped
    assert look["full"] <= look["shown"] + 1           # the shortened name fits its cell
    assert look["height"] < 2 * look["line"] + 8       # on one line
    screenshot(dash_duo, "table-ids-explore")

    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/rankings?dataset={DATASET}&group=rows",
                           timeout=30)
    wait_until(lambda: any(len(t) > 24 for t in texts_of(
        dash_duo, "#rankings-table td[data-dash-column='entry']")), timeout=60)
    cell = next(c for c in dash_duo.driver.find_elements(
        "css selector", "#rankings-table td[data-dash-column='entry']") if len(c.text) > 24)
    shown = dash_duo.driver.execute_script(
        "const s = getComputedStyle(arguments[0]);"
        "return [s.whiteSpace, s.textOverflow, arguments[0].scrollWidth > arguments[0].clientWidth];",
        cell)
    assert shown[:2] == ["nowrap", "ellipsis"]
    full = cell.text
    ActionChains(dash_duo.driver).move_to_element(cell).perform()
    wait_until(lambda: full in dash_duo.find_element(".dash-tooltip").text, timeout=10)
