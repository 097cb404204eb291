"""The EU-locale export of a leaderboard (';', decimal commas, a title line, a BOM, '61,1M')
dropped as exported: the page says what it read, proposes the right objectives and directions,
and "Save and explore" lands in the explorer with the pick the command line makes."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from copa_dash.cli import main
from tests.e2e.app_under_test import (
    count_of,
    graph_figure,
    open_page,
    screenshot,
    texts_of,
    wait_until,
)

pytestmark = pytest.mark.browser
EU_EXPORT = Path(__file__).parents[1] / "data" / "messy" / "imagenet_eu.csv"


def _direction(dash_duo, column: str) -> str | None:
    dom_id = json.dumps({"column": column, "type": "upload-direction"}, separators=(",", ":"))
    # one script: an empty find_elements waited out the 2 s implicit wait (session 21)
    return dash_duo.driver.execute_script(
        "const box = document.querySelector(arguments[0]); return box ? box.value : null;",
        f"[id='{dom_id}'] input:checked")


def test_the_eu_export_lands_in_the_explorer_with_a_sensible_pick(dash_duo, app):
    open_page(dash_duo, app, "/upload")
    dash_duo.wait_for_element("#upload-paste-text", timeout=30)
    screenshot(dash_duo, "upload-messy-empty")
    dash_duo.driver.find_element(By.CSS_SELECTOR, "#upload-file input[type=file]").send_keys(
        str(EU_EXPORT))
    dash_duo.wait_for_contains_text("#upload-read-notes", "',' as the decimal mark", timeout=30)
    notes = dash_duo.find_element("#upload-read-notes").text
    assert "Skipped 1 line above the table" in notes and "unit M" in notes
    assert dash_duo.find_element("#upload-name").get_attribute("value") == "imagenet_eu"
    assert [_direction(dash_duo, c) for c in ("Acc@1", "Acc@5", "Params", "GFLOPS")] == [
        "max", "max", "min", "min"]
    dash_duo.wait_for_contains_text("#upload-check", "4 objectives", timeout=10)
    screenshot(dash_duo, "upload-messy-proposal")
    dash_duo.driver.execute_script("arguments[0].scrollIntoView({block: 'start'})",
                                   dash_duo.find_element("#upload-mapping"))
    screenshot(dash_duo, "upload-messy-roles")

    dash_duo.find_element("#upload-save").click()
    pick = dash_duo.wait_for_element("#pick-id", timeout=30)
    assert "/explore?dataset=" in dash_duo.driver.current_url
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        # the one default view of an upload, the command line's default for a file too
        main(["select", str(EU_EXPORT), "--json"])
    cli = json.loads(out.getvalue())
    expected = cli["id"]
    dash_duo.wait_for_text_to_equal("#pick-id", expected, timeout=30)
    assert pick.text == expected
    # and the page shows the pair the command line names: a quality against a cost
    assert (cli["view"]["x"], cli["view"]["y"]) == ("Acc@1", "Params")
    layout = graph_figure(dash_duo, "explore-front")["layout"]
    titles = [str(layout[a]["title"].get("text", "")) for a in ("xaxis", "yaxis")]
    assert titles[0].startswith("Acc@1") and titles[1].startswith("Params"), titles
    screenshot(dash_duo, "upload-messy-explored")
    assert dash_duo.get_logs() == []


PASTED = """| model | overall | coding | price ($/M tokens) |
|---|---|---|---|
| gemini-exp-1206 | 1321 | 1368 | 5.00 |
| chatgpt-4o-latest | 1318 | 1351 | 5.00 |
| deepseek-v3 | 1304 | 1330 | 0.27 |
| gpt-4o-mini | 1272 | 1283 | 0.15 |
"""


def test_a_pasted_table_asks_for_the_directions_nobody_can_guess(dash_duo, app):
    open_page(dash_duo, app, "/upload")
    dash_duo.wait_for_element("#upload-paste-text", timeout=30).send_keys(PASTED)
    dash_duo.find_element("#upload-paste-read").click()
    dash_duo.wait_for_contains_text("#upload-read-notes", "Read as a Markdown table", timeout=30)
    assert dash_duo.find_element("#upload-name").get_attribute("value") == "pasted table"
    assert [_direction(dash_duo, c) for c in ("overall", "coding", "price ($/M tokens)")] == [
        None, None, "min"]
    dash_duo.wait_for_contains_text("#upload-check", "Choose min or max for 'overall', 'coding'",
                                    timeout=30)
    assert "Save is off until then" in dash_duo.find_element("#upload-check").text
    wait_until(lambda: not dash_duo.find_element("#upload-save").is_enabled())
    dash_duo.find_element("#upload-save").click()         # off: nothing is saved
    assert count_of(dash_duo, "#upload-explore-link") == 0
    sure = texts_of(dash_duo, "td.confidence")
    assert sure.count("unsure: choose") == 2 and "sure" in sure
    overall = json.dumps({"column": "overall", "type": "upload-direction"}, separators=(",", ":"))
    dash_duo.driver.find_element(By.CSS_SELECTOR, f"[id='{overall}'] input[value='max']").click()
    wait_until(lambda: "'coding'" in dash_duo.find_element("#upload-check").text
               and "'overall'" not in dash_duo.find_element("#upload-check").text)
    dash_duo.driver.execute_script("arguments[0].scrollIntoView({block: 'start'})",
                                   dash_duo.find_element("#upload-mapping"))
    screenshot(dash_duo, "upload-messy-pasted-undecided")
    assert dash_duo.get_logs() == []
