"""A newcomer's first minutes in headless Chromium at 1400 x 1000 (issue 19): the dataset
picked on Explore follows to every other page, an (i) opens the Help page at its term, the
Explore scatter and the Systems radar are on the first screen, and the Open LLM scatter's
CO2 axis is logarithmic. Screenshots of every page go to tests/e2e/screenshots/newcomer-*."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import graph_figure, none_loading, open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"
TITLE = "Open LLM Leaderboard v2"  # the bar names it by its title (once)
OTHER_PAGES = ("/rankings", "/systems", "/generalization", "/posets")


def _top(dash_duo, element_id: str) -> float:
    return dash_duo.driver.execute_script(
        "const e = document.getElementById(arguments[0]);"
        "return e ? e.getBoundingClientRect().top + window.scrollY : 1e9;", element_id)


def test_the_dataset_follows_the_user_and_explore_starts_readable(dash_duo, app):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    wait_until(lambda: graph_figure(dash_duo, "explore-front")["data"], timeout=60)
    layout = graph_figure(dash_duo, "explore-front")["layout"]
    assert layout["xaxis"]["type"] == "log"
    assert layout["xaxis"]["title"]["text"].startswith("co2_cost")
    assert "log scale" in layout["xaxis"]["title"]["text"]
    assert _top(dash_duo, "explore-front") < 1000 - 300       # the scatter is on the first screen
    dash_duo.wait_for_contains_text("#context-dataset-name", TITLE, timeout=10)
    screenshot(dash_duo, "newcomer-explore")
    for path in OTHER_PAGES:
        dash_duo.find_element(f"a.nav-link[href^='{path}']").click()
        wait_until(lambda path=path: dash_duo.driver.current_url.split("?")[0].endswith(path)
                   and f"dataset={DATASET}" in dash_duo.driver.current_url, timeout=20)
        dash_duo.wait_for_contains_text("#context-dataset-name", TITLE, timeout=20)
        wait_until(lambda: dash_duo.driver.execute_script(
                       "return document.getElementById('explore-front') === null;")
                   and none_loading(dash_duo), timeout=60)
        screenshot(dash_duo, f"newcomer{path.replace('/', '-')}")


def test_an_info_mark_opens_the_help_page_at_its_term(dash_duo, app):
    open_page(dash_duo, app, "/explore?dataset=decodingtrust")
    mark = dash_duo.wait_for_element("a.term-info[href='/help#term-alpha']", timeout=30)
    assert "alpha:" in mark.get_attribute("title")
    mark.click()
    wait_until(lambda: dash_duo.driver.current_url.endswith("/help#term-alpha"), timeout=20)
    entry = dash_duo.wait_for_element("#term-alpha", timeout=20)
    assert entry.text == "alpha"
    for term in ("DKW band", "CDF population", "ONVGR", "UD_bar", "nadir", "union-free generic"):
        dash_duo.wait_for_contains_text(".glossary", term, timeout=5)
    screenshot(dash_duo, "newcomer-help")


def test_systems_radar_is_on_the_first_screen(dash_duo, app):
    open_page(dash_duo, app, "/systems?dataset=fairness-adult-sex")
    wait_until(lambda: graph_figure(dash_duo, "systems-radar")["data"], timeout=60)
    assert _top(dash_duo, "systems-radar") < 1000 - 300
    dash_duo.wait_for_element("a.term-info[href='/help#term-onvgr']", timeout=10)
    screenshot(dash_duo, "newcomer-systems-own")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/", timeout=30)
    screenshot(dash_duo, "newcomer-landing")
