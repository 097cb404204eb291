"""The owner token in the browser: an upload is kept in localStorage, listed under "Your
uploads" on the upload and Datasets pages, renamed and deleted with it; another browser
(empty localStorage) sees none of it. No console errors: the pages pass the CSP."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

import pytest
import requests

from tests.e2e.app_under_test import open_page, screenshot, texts_of, wait_until

pytestmark = pytest.mark.browser

CSV = "model,accuracy,training_time\nm1,0.91,120\nm2,0.88,30\nm3,0.93,400\nm4,0.85,10\n"


def _owned(dash_duo) -> dict:
    return json.loads(dash_duo.driver.execute_script(
        "return window.localStorage.getItem('my-uploads')") or "null") or {}


def _pick(dash_duo, label: str) -> None:
    dash_duo.find_element("#upload-mine-pick").click()
    dash_duo.find_element(".dash-dropdown-search").send_keys(label)
    wait_until(lambda: texts_of(dash_duo, ".dash-dropdown-options .dash-dropdown-option")
               == [label])
    dash_duo.find_element(".dash-dropdown-options .dash-dropdown-option").click()


def test_owner_token_kept_in_the_browser_renames_lists_and_deletes(dash_duo, app, tmp_path):
    path = tmp_path / "sweep.csv"
    path.write_text(CSV)
    open_page(dash_duo, app, "/upload")
    dash_duo.wait_for_contains_text("#upload-mine-list", "Nothing uploaded", timeout=30)
    dash_duo.find_element("#upload-file input[type=file]").send_keys(str(path))
    dash_duo.wait_for_element("#upload-save", timeout=30)
    name_box = dash_duo.find_element("#upload-name")  # proposed: the file's name
    dash_duo.clear_input(name_box)
    name_box.send_keys("my sweep")
    dash_duo.find_element("#upload-save").click()
    # "Save and explore" opens the explorer on the new dataset
    wait_until(lambda: "/explore?dataset=" in dash_duo.driver.current_url, timeout=30)
    # the address bar may already carry the view's other settings (log=..., alpha=...)
    dataset_id = parse_qs(urlparse(dash_duo.driver.current_url).query)["dataset"][0]

    owned = _owned(dash_duo)
    assert list(owned) == [dataset_id] and len(owned[dataset_id]) >= 43
    assert owned[dataset_id] not in dash_duo.driver.current_url  # never in a link
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_contains_text("#upload-mine-list", "my sweep", timeout=30)
    dash_duo.driver.execute_script("document.querySelector('.owner-panel').scrollIntoView()")
    screenshot(dash_duo, "upload-your-uploads")

    _pick(dash_duo, "my sweep")
    dash_duo.find_element("#upload-mine-name").send_keys("final sweep")
    dash_duo.find_element("#upload-mine-rename").click()
    dash_duo.wait_for_contains_text("#upload-mine-message", "Renamed to 'final sweep'",
                                    timeout=30)
    dash_duo.wait_for_contains_text("#upload-mine-list", "final sweep", timeout=30)
    api = f"{dash_duo.server_url}/api/datasets/{dataset_id}"
    assert requests.get(api, timeout=10).json()["name"] == "final sweep"

    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/", timeout=30)
    dash_duo.wait_for_contains_text("#datasets-mine", "final sweep", timeout=30)
    mine = dash_duo.find_element("#datasets-mine a")
    assert mine.get_attribute("href").endswith(f"/explore?dataset={dataset_id}")
    screenshot(dash_duo, "datasets-your-uploads")

    # another browser: nothing of this user's upload
    saved = dash_duo.driver.execute_script("return window.localStorage.getItem('my-uploads')")
    dash_duo.driver.execute_script("window.localStorage.clear()")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/", timeout=30)
    dash_duo.wait_for_contains_text("#datasets-mine", "None yet", timeout=30)
    assert "final sweep" not in dash_duo.find_element("body").text
    dash_duo.driver.execute_script("window.localStorage.setItem('my-uploads', arguments[0])",
                                   saved)

    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_contains_text("#upload-mine-list", "final sweep", timeout=30)
    _pick(dash_duo, "final sweep")
    # Delete asks first (a newcomer's pass: one click removed the table for good); Cancel
    # keeps it, OK deletes
    dash_duo.find_element("#upload-mine-delete").click()
    wait_until(lambda: dash_duo.driver.switch_to.alert.text.startswith("Delete 'final sweep'?"))
    dash_duo.driver.switch_to.alert.dismiss()
    time.sleep(1.0)
    assert requests.get(api, timeout=10).status_code == 200
    assert "final sweep" in dash_duo.find_element("#upload-mine-list").text
    dash_duo.find_element("#upload-mine-delete").click()
    wait_until(lambda: dash_duo.driver.switch_to.alert.text.startswith("Delete 'final sweep'?"))
    dash_duo.driver.switch_to.alert.accept()
    dash_duo.wait_for_contains_text("#upload-mine-message", "Deleted 'final sweep'", timeout=30)
    dash_duo.wait_for_contains_text("#upload-mine-list", "Nothing uploaded", timeout=30)
    assert _owned(dash_duo) == {}
    assert requests.get(api, timeout=10).status_code == 404
    assert dash_duo.get_logs() == []  # no console error, no CSP violation
