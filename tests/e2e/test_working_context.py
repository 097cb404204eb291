"""The working context in headless Chromium at 1400 x 1000 (issue 19): objectives, a flipped
direction and constraints chosen on Explore open Rankings, Systems and Posets with them where
those pages can use them, the context bar says in plain words what a page could not use, and a
shared link with its own settings wins. Screenshots: tests/e2e/screenshots/context-*.png."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.e2e.app_under_test import open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "dmop"
# three objectives (mhvd flipped to max), a range and a set of values
EXPLORE = (f"/explore?dataset={DATASET}&obj=migd:min&obj=migd_stage1:min&obj=mhvd:max"
           "&focus=migd&alpha=0.5&p=inf&range=migd::0.5&in=problem:FDA1|FDA2&axes=raw")
CHOSEN = ["migd", "migd_stage1", "mhvd"]


def _query(dash_duo) -> dict:
    return parse_qs(urlsplit(dash_duo.driver.current_url).query)


def _notes(dash_duo) -> str:
    return dash_duo.driver.execute_script(
        "const a = document.getElementById('context-link-note');"
        "const b = document.getElementById('context-page-notes-text');"
        "return (a ? a.textContent : '') + ' | ' + (b ? b.textContent : '');")


def _visit(dash_duo, path: str, key: str, expected) -> dict:
    """Click the header's link to ``path``; wait until the page's own link (the address bar
    follows its share box) has ``key`` = ``expected``."""
    dash_duo.find_element(f"a.nav-link[href^='{path}']").click()
    wait_until(lambda: urlsplit(dash_duo.driver.current_url).path == path
               and "ctx_obj" not in dash_duo.driver.current_url
               and _query(dash_duo).get(key) == expected, timeout=60)
    return _query(dash_duo)


def test_explore_settings_follow_to_the_other_pages_and_a_link_wins(dash_duo, app):
    open_page(dash_duo, app, EXPLORE)
    dash_duo.wait_for_contains_text("#context-dataset-name", DATASET, timeout=30)
    # the header's Rankings link carries the context once Explore's view is drawn
    wait_until(lambda: "ctx_range" in dash_duo.find_element(
        "a.nav-link[href^='/rankings']").get_attribute("href"), timeout=60)

    query = _visit(dash_duo, "/rankings", "obj", CHOSEN)
    assert query["in"] == ["problem:FDA1|FDA2"]                    # the set applies
    wait_until(lambda: "Range constraints (migd <= 0.5) do not apply on Rankings" in _notes(dash_duo))
    notes = _notes(dash_duo)
    assert "your direction for mhvd (max) is not used here" in notes
    assert "objectives migd, migd_stage1, mhvd" in notes
    screenshot(dash_duo, "context-rankings")

    _visit(dash_duo, "/systems", "obj", CHOSEN)
    wait_until(lambda: "do not apply on Systems: it compares every row of each system"
               in _notes(dash_duo))
    assert "migd <= 0.5; problem is FDA1 or FDA2" in _notes(dash_duo)
    assert "Not here" not in _notes(dash_duo)
    screenshot(dash_duo, "context-systems")

    _visit(dash_duo, "/posets", "crit", ["migd|migd_stage1|mhvd"])
    wait_until(lambda: "do not apply on Posets" in _notes(dash_duo))

    # Val -> test cannot open this dataset at all: its own page says why
    dash_duo.find_element("a.nav-link[href^='/generalization']").click()
    wait_until(lambda: urlsplit(dash_duo.driver.current_url).path == "/generalization"
               and "validation" in dash_duo.find_element("#_pages_content").text.lower(),
               timeout=60)

    # Explore opened on the same dataset with no settings of its own (the Datasets page's
    # link) comes back with the context, and its link check calls nothing unknown
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/explore?dataset={DATASET}", timeout=30)
    wait_until(lambda: _query(dash_duo).get("obj") == ["migd:min", "migd_stage1:min", "mhvd:max"]
               and _query(dash_duo).get("range") == ["migd::0.5"], timeout=60)
    assert "not a setting of this page" not in dash_duo.find_element("#_pages_content").text

    # a shared link with its own settings wins over the remembered context
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/rankings?dataset={DATASET}"
                               "&obj=migd&obj=migd_stage2", timeout=30)
    # the address already holds obj as typed: wait for the page to write its view (with "in")
    wait_until(lambda: "in" in _query(dash_duo), timeout=60)
    assert _query(dash_duo).get("obj") == ["migd", "migd_stage2"]
    assert _query(dash_duo)["in"] == ["problem:FDA1"]      # the dataset's default, not the context's
    wait_until(lambda: "This link carries its own settings" in _notes(dash_duo))


def test_back_leaves_a_page_whose_bare_link_was_completed(dash_duo, app):
    """A bare link (``/rankings``) completed with the remembered dataset replaces the address
    instead of adding to the history, so Back goes to the page before it; pushed, Back landed
    on the bare link, which was completed again, and the user could not leave by Back."""
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    dash_duo.wait_for_contains_text("#context-dataset-name", DATASET, timeout=30)
    dash_duo.driver.get(dash_duo.server_url + "/rankings")
    wait_until(lambda: _query(dash_duo).get("dataset") == [DATASET], timeout=60)
    dash_duo.wait_for_contains_text("#context-dataset-name", DATASET, timeout=30)
    dash_duo.driver.back()
    wait_until(lambda: urlsplit(dash_duo.driver.current_url).path == "/explore", timeout=30)
    dash_duo.wait_for_contains_text("#context-dataset-name", DATASET, timeout=30)
