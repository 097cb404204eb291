"""Explore's "add a constraint on..." list (issue 33, session 15): a numeric column that is no
objective has no boxes until it is chosen in the list; chosen, its min/max boxes appear, a
maximum typed there goes into the link and the ranked table keeps only the rows under it
(counted on the table's frame, not by the page); its remove button takes the row and its
range away and offers the column again."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.keys import Keys

from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.explore import view_memo
from tests.e2e.app_under_test import count_of, open_page, screenshot, texts_of, wait_until

pytestmark = pytest.mark.browser
DATASET, COLUMN, CUT = "fairness-adult-sex", "tpr", 0.55   # tpr: no objective, 0.36 to 0.82


def _passing(dash_duo) -> int:
    note = dash_duo.find_element("#explore-table-note").text
    return int(re.match(r"(\d+) rows? pass", note).group(1))


def _offered(dash_duo) -> list[str]:
    """The texts of the open menu's options (one script: :func:`texts_of`)."""
    return texts_of(dash_duo, ".dash-dropdown-options .dash-dropdown-option")


def test_a_column_added_from_the_list_gets_boxes_and_its_range_shrinks_the_table(dash_duo, app):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    dash_duo.wait_for_contains_text("#explore-table-note", "pass the constraints", timeout=60)
    before = _passing(dash_duo)
    query = urlsplit(dash_duo.driver.current_url).query
    assert count_of(dash_duo, f'[id*="range-max"][id*=\'"{COLUMN}"\']') == 0
    offered_before = re.search(r"\((\d+)\)$", dash_duo.find_element(
        "label[for=explore-add-constraint]").get_attribute("textContent")).group(1)
    dash_duo.driver.execute_script(
        "document.getElementById('explore-add-constraint').closest('details').open = true;")
    dash_duo.find_element("#explore-add-constraint").click()
    dash_duo.find_element(".dash-dropdown-search").send_keys(COLUMN)   # searched by name
    options = ".dash-dropdown-options .dash-dropdown-option"
    wait_until(lambda: _offered(dash_duo) == [f"{COLUMN} (observed 0.3594 to 0.8154)"],
               timeout=10)
    dash_duo.find_element(options).click()
    box_id = f'{{"column":"{COLUMN}","type":"explore-range-max"}}'
    wait_until(lambda: dash_duo.driver.execute_script(
        "return !!document.getElementById(arguments[0]);", box_id), timeout=15)
    box = dash_duo.driver.execute_script("return document.getElementById(arguments[0]);", box_id)
    assert box.get_attribute("placeholder") == "max 0.8154"
    box.send_keys(str(CUT), Keys.ENTER)
    wait_until(lambda: any(item.startswith(f"{COLUMN}:") for item in parse_qs(
        urlsplit(dash_duo.driver.current_url).query).get("range", [])), timeout=30)
    wait_until(lambda: _passing(dash_duo) < before, timeout=30)
    # independent count: the rows the view ranked before whose tpr, read from the frame by
    # their id, is at most the cut
    result = view_memo.exploration(view_memo.state_of(query))
    table = open_dataset(DATASET, current_settings()).table
    tpr = table.frame.set_index(table.roles.id)[COLUMN]
    ranked = [str(i) for i in result.problem.ids[result.ranking]]
    expected = sum(float(tpr.loc[type(tpr.index[0])(i)]) <= CUT for i in ranked)
    assert 0 < _passing(dash_duo) == expected < before
    dash_duo.find_element("#explore-add-constraint").click()      # no longer offered
    dash_duo.find_element(".dash-dropdown-search").send_keys(COLUMN)
    wait_until(lambda: not [o for o in _offered(dash_duo) if o.startswith(f"{COLUMN} ")],
               timeout=10)
    dash_duo.find_element(".dash-dropdown-search").send_keys(Keys.ESCAPE)
    screenshot(dash_duo, "explore-added-constraint")

    # its remove button takes the row and its range away and offers the column again
    remove_id = f'{{"column":"{COLUMN}","type":"explore-range-remove"}}'
    dash_duo.driver.execute_script("document.getElementById(arguments[0]).click();", remove_id)
    wait_until(lambda: not dash_duo.driver.execute_script(
        "return !!document.getElementById(arguments[0]);", box_id), timeout=15)
    wait_until(lambda: not any(item.startswith(f"{COLUMN}:") for item in parse_qs(
        urlsplit(dash_duo.driver.current_url).query).get("range", [])), timeout=30)
    wait_until(lambda: _passing(dash_duo) == before, timeout=30)
    assert dash_duo.find_element("label[for=explore-add-constraint]").text.endswith(
        f"({offered_before})")
    dash_duo.find_element("#explore-add-constraint").click()
    dash_duo.find_element(".dash-dropdown-search").send_keys(COLUMN)
    wait_until(lambda: _offered(dash_duo) == [f"{COLUMN} (observed 0.3594 to 0.8154)"],
               timeout=10)
    dash_duo.find_element(".dash-dropdown-search").send_keys(Keys.ESCAPE)
    assert dash_duo.get_logs() == []
