"""The Datasets page in headless Chromium at 1400 x 1000 (issue 19): the search box and at least
ten datasets on the first screen; typing in the search keeps the matching rows; a header click
sorts; a click on a row opens the explorer on that dataset; an upload this browser owns heads
the catalogue, marked, and its Delete asks first (Cancel keeps it, OK removes it)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import requests
from selenium.webdriver.common.by import By

from copa_dash.data.schema import Objective, Roles
from copa_dash.services.catalog import catalog, search_catalog
from copa_dash.services.store import open_store
from tests.e2e.app_under_test import graph_figure, screenshot, texts_of, wait_until

pytestmark = pytest.mark.browser
TABLE = "#datasets-table"


def _column(dash_duo, column_id: str) -> list[str]:
    return texts_of(dash_duo, f"{TABLE} td[data-dash-column='{column_id}']")


def _bottoms(dash_duo) -> list[float]:
    return dash_duo.driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' tbody tr'))"
        ".filter(r => r.querySelector('td'))"
        ".map(r => r.getBoundingClientRect().bottom + window.scrollY);", TABLE)


def test_search_sort_and_a_row_click_open_the_explorer(dash_duo, app):
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app)
    dash_duo.wait_for_element(f"{TABLE} td[data-dash-column='title']", timeout=30)
    total = len(catalog())
    wait_until(lambda: len(_column(dash_duo, "title")) == total)
    viewport = dash_duo.driver.execute_script("return window.innerHeight")
    box = dash_duo.find_element("#datasets-search").rect
    assert box["y"] + box["height"] < viewport
    assert sum(b <= viewport for b in _bottoms(dash_duo)) >= 10    # ten datasets on screen one
    assert all(t.strip() for t in _column(dash_duo, "learn"))
    screenshot(dash_duo, "datasets-catalogue")

    search = dash_duo.find_element("#datasets-search")
    search.send_keys("llm")
    expected = {e.title for e in search_catalog(catalog(), "llm")}
    assert 2 <= len(expected) < total
    wait_until(lambda: set(_column(dash_duo, "title")) == expected)
    dash_duo.wait_for_contains_text("#datasets-count", f"{len(expected)} of {total}", timeout=30)

    before = [int(v.replace(",", "")) for v in _column(dash_duo, "n_rows")]
    dash_duo.find_element(f"{TABLE} th[data-dash-column='n_rows'] .column-header--sort").click()
    wait_until(lambda: [int(v.replace(",", "")) for v in _column(dash_duo, "n_rows")]
               == sorted(before))
    screenshot(dash_duo, "datasets-catalogue-search-sort")

    first = _column(dash_duo, "title")[0]
    ref = next(e.ref for e in catalog() if e.title == first)
    link = dash_duo.find_element(f"{TABLE} td[data-dash-column='title'] a")  # keyboard users
    assert link.text == first and link.get_attribute("target") == "_self"
    assert link.get_attribute("href").endswith(f"/explore?dataset={ref}")
    dash_duo.find_element(f"{TABLE} td[data-dash-column='domain']").click()  # any cell of it
    wait_until(lambda: dash_duo.driver.current_url.endswith(f"/explore?dataset={ref}")
               or f"/explore?dataset={ref}&" in dash_duo.driver.current_url, timeout=30)
    dash_duo.wait_for_contains_text("#context-dataset-name", first, timeout=30)
    assert graph_figure(dash_duo, "explore-front", timeout=60)["data"]
    assert dash_duo.get_logs() == []


def test_an_own_upload_is_marked_and_deleting_it_asks_first(dash_duo, app):
    settings = app.server.config["COPA_SETTINGS"]
    frame = pd.DataFrame({"m": ["a", "b", "c"], "acc": [0.9, 0.8, 0.7], "cost": [3.0, 2.0, 1.0]})
    saved = open_store(settings).save(
        frame, Roles(id="m", objectives=(Objective("acc", "max"), Objective("cost", "min"))),
        name="catalogue sweep")
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app)
    dash_duo.wait_for_element(TABLE, timeout=30)
    dash_duo.driver.execute_script("window.localStorage.setItem('my-uploads', arguments[0])",
                                   json.dumps({saved.id: saved.owner_token}))
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/", timeout=30)
    wait_until(lambda: _column(dash_duo, "title")[:1] == ["catalogue sweep"], timeout=30)
    assert _column(dash_duo, "origin")[0] == "your upload"
    assert _column(dash_duo, "n_rows")[0] == "3" and _column(dash_duo, "n_objectives")[0] == "2"
    dash_duo.wait_for_contains_text("#datasets-mine", "catalogue sweep", timeout=30)
    mine = dash_duo.find_element("#datasets-mine a")
    assert mine.get_attribute("href").endswith(f"/explore?dataset={saved.id}")

    api = f"{dash_duo.server_url}/api/datasets/{saved.id}"
    dash_duo.find_element("#datasets-mine button").click()
    wait_until(lambda: dash_duo.driver.switch_to.alert.text.startswith("Delete 'catalogue sweep'?"))
    dash_duo.driver.switch_to.alert.dismiss()                       # Cancel: nothing happens
    assert requests.get(api, timeout=10).status_code == 200
    assert "catalogue sweep" in dash_duo.find_element("#datasets-mine").text

    dash_duo.find_element("#datasets-mine button").click()
    wait_until(lambda: dash_duo.driver.switch_to.alert.text.startswith("Delete 'catalogue sweep'?"))
    dash_duo.driver.switch_to.alert.accept()                        # OK: deleted
    dash_duo.wait_for_contains_text("#datasets-mine-message", "Deleted 'catalogue sweep'",
                                    timeout=30)
    dash_duo.wait_for_contains_text("#datasets-mine", "None yet", timeout=30)
    assert requests.get(api, timeout=10).status_code == 404
    wait_until(lambda: "catalogue sweep" not in _column(dash_duo, "title"))


def test_a_click_on_a_header_name_sorts_not_only_its_icon(dash_duo, app):
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app)
    wait_until(lambda: len(_column(dash_duo, "title")) == len(catalog()), timeout=30)
    before = [int(v.replace(",", "")) for v in _column(dash_duo, "n_rows")]
    header = dash_duo.find_element(f"{TABLE} th[data-dash-column='n_rows']")
    name = header.find_element(By.CSS_SELECTOR, ".column-header-name")
    assert "pointer" in name.value_of_css_property("cursor")
    name.click()
    wait_until(lambda: [int(v.replace(",", "")) for v in _column(dash_duo, "n_rows")]
               == sorted(before))
    name.click()                                    # again: descending, as with the icon
    wait_until(lambda: [int(v.replace(",", "")) for v in _column(dash_duo, "n_rows")]
               == sorted(before, reverse=True))
