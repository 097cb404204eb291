"""The group box of "Your uploads" in Chromium, behind a (simulated) login proxy: the owner
shares an upload with one of their groups, sees who it is shared with, unshares it; members
of the group see it in the Datasets catalogue, others do not; without the proxy's headers the
box is hidden.

The browser sends the proxy's headers itself (Chrome DevTools ``Network.setExtraHTTPHeaders``)
and the app believes them from 127.0.0.1, the address dash_duo's server sees.
"""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from copa_dash.data.schema import Objective, Roles
from copa_dash.services.store import open_store
from tests.e2e.app_under_test import open_page, screenshot, texts_of, wait_until

pytestmark = pytest.mark.browser

USER, GROUPS = "X-Forwarded-User", "X-Forwarded-Groups"
NAME = "ana's grouped runs"


@pytest.fixture
def proxied(app):
    """The app under test believing the user and groups headers from 127.0.0.1."""
    old = app.server.config["COPA_SETTINGS"]
    app.server.config["COPA_SETTINGS"] = dataclasses.replace(
        old, trusted_proxy=("127.0.0.1",), trusted_user_header=USER,
        trusted_groups_header=GROUPS)
    try:
        yield app.server.config["COPA_SETTINGS"]
    finally:
        app.server.config["COPA_SETTINGS"] = old


def _as(dash_duo, user: str | None, groups: str = "") -> None:
    dash_duo.driver.execute_cdp_cmd("Network.enable", {})
    headers = {USER: user, GROUPS: groups} if user else {}
    dash_duo.driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": headers})


def _pick(dash_duo, dropdown: str, label: str) -> None:
    dash_duo.find_element(dropdown).click()
    dash_duo.find_element(".dash-dropdown-search").send_keys(label)
    wait_until(lambda: texts_of(dash_duo, ".dash-dropdown-options .dash-dropdown-option")
               == [label])
    dash_duo.find_element(".dash-dropdown-options .dash-dropdown-option").click()


def _catalogue(dash_duo) -> str:
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/", timeout=30)
    dash_duo.wait_for_element("#datasets-table td[data-dash-column='title']", timeout=30)
    return dash_duo.find_element("#datasets-table").text


def _upload_page(dash_duo) -> None:
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/upload", timeout=30)
    dash_duo.wait_for_contains_text("#upload-mine-list", NAME, timeout=30)


def _ana_on_her_upload(dash_duo, shared: str) -> None:
    """Ana (groups ml-team and staff) on the upload page, her upload chosen, the box saying
    ``shared``."""
    _as(dash_duo, "ana", "ml-team, staff")
    _upload_page(dash_duo)
    _pick(dash_duo, "#upload-mine-pick", NAME)
    dash_duo.wait_for_text_to_equal("#upload-group-shared", shared, timeout=30)


def test_the_owner_shares_an_upload_with_a_group_and_takes_it_back(dash_duo, app,
                                                                   proxied):
    frame = pd.DataFrame({"model": ["a", "b", "c"], "accuracy": [0.9, 0.8, 0.7],
                          "cost": [3.0, 2.0, 1.0]})
    roles = Roles(id="model", objectives=(Objective("accuracy", "max"),
                                          Objective("cost", "min")))
    saved = open_store(proxied).save(frame, roles, name=NAME, owner_user="ana")
    open_page(dash_duo, app, "/")
    assert NAME not in _catalogue(dash_duo)          # nobody signed in: not listed

    _ana_on_her_upload(dash_duo, "Shared with no group.")
    assert dash_duo.find_element("#upload-group-box").is_displayed()
    _pick(dash_duo, "#upload-group-pick", "ml-team")
    dash_duo.find_element("#upload-group-share").click()
    dash_duo.wait_for_text_to_equal("#upload-group-shared", "Shared with the group ml-team.",
                                    timeout=30)
    dash_duo.wait_for_contains_text("#upload-mine-list", "shared with ml-team", timeout=30)
    dash_duo.driver.execute_script("document.querySelector('.group-box').scrollIntoView()")
    screenshot(dash_duo, "upload-group-box")
    assert open_store(proxied).info(saved.id)["groups"] == ["ml-team"]

    _as(dash_duo, "bob", "ml-team")
    assert NAME in _catalogue(dash_duo)
    _as(dash_duo, "carl", "sales")
    assert NAME not in _catalogue(dash_duo)

    _ana_on_her_upload(dash_duo, "Shared with the group ml-team.")
    _pick(dash_duo, "#upload-group-pick", "ml-team")
    dash_duo.find_element("#upload-group-unshare").click()
    dash_duo.wait_for_text_to_equal("#upload-group-shared", "Shared with no group.", timeout=30)
    dash_duo.wait_for_contains_text("#upload-group-message", "No longer shared with ml-team",
                                    timeout=30)
    _as(dash_duo, "bob", "ml-team")
    assert NAME not in _catalogue(dash_duo)
    assert dash_duo.get_logs() in ([], None)


def test_without_the_proxy_headers_the_group_box_is_hidden(dash_duo, app):
    open_page(dash_duo, app, "/upload")
    dash_duo.wait_for_contains_text("#upload-mine-list", "Nothing uploaded", timeout=30)
    assert not dash_duo.find_element("#upload-group-box").is_displayed()

