"""The COPA explorer in headless Chromium: the pick, alpha by keyboard, constraints, URL, console."""

from __future__ import annotations

import contextlib
import io
import json
import time
from urllib.parse import parse_qs, urlparse

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from copa_dash.cli import main
from tests.e2e.app_under_test import count_of, screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"
# The tests of what the page does with a hand-edited or reloaded link need
# no 2,900-row table: on these an Explore load costs Chromium and the app ~1.8 CPU s, not ~3
# (session 21). The view of the reloading test still picks another row than the default
# (amazon-nova-lite-v1.0, not gemini-1.5-flash-002), so a view not read back fails it.
SMALL = "chatbot-arena-price"       # 187 rows


def _cli_select(*extra, dataset: str = DATASET) -> dict:
    """What ``copa-dash select --json`` prints for the view, run in this process: the CLI's own
    code path, not the page's, without a new interpreter's 1.5 s of imports a call (11 calls)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["select", "--dataset", dataset, "--json", *extra]) == 0
    answer = [line for line in printed.getvalue().splitlines() if line.startswith("{")]
    return json.loads(answer[-1])


def _pick(dash_duo) -> str:
    return dash_duo.find_element("#pick-id").text


def _wait_for_pick_change(dash_duo, before: str, timeout: float = 15) -> str:
    end = time.time() + timeout
    while time.time() < end:
        try:
            now = _pick(dash_duo)
        except (NoSuchElementException, StaleElementReferenceException):  # re-rendered card
            now = before
        if now and now != before:
            return now
        time.sleep(0.2)
    raise AssertionError(f"the pick stayed {before!r}")


def _open(dash_duo, path: str = f"/explore?dataset={DATASET}", wait_for: str = "#pick-id"):
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}{path}", timeout=30)
    dash_duo.wait_for_element(wait_for, timeout=30)
    if wait_for == "#pick-id":  # the card's frame is in the page at once; wait for its pick
        wait_until(lambda: _pick(dash_duo) != "", timeout=30)


def test_default_view_picks_what_the_cli_prints_and_alpha_moves_it(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)
    expected = _cli_select()
    dash_duo.wait_for_text_to_equal("#pick-id", str(expected["id"]), timeout=30)
    screenshot(dash_duo, "explore-default")

    before = _pick(dash_duo)
    slider = dash_duo.driver.find_elements(By.CSS_SELECTOR, "#explore-alpha [role=slider]")[0]
    slider.click()
    slider.send_keys(Keys.END)  # alpha = 1: only CO2 cost counts
    after = _wait_for_pick_change(dash_duo, before)
    expected_after = _cli_select("--alpha", "1")
    assert after == str(expected_after["id"])
    query = parse_qs(urlparse(dash_duo.driver.current_url).query)
    assert query["alpha"] == ["1"]
    screenshot(dash_duo, "explore-alpha-1")
    assert dash_duo.get_logs() == []


def test_a_constraint_that_excludes_the_pick_gives_another_pick_that_satisfies_it(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)
    first = _cli_select()
    co2 = _focus_column()
    table_co2 = _objective_value(first["id"], co2)
    box = dash_duo.find_element(f'[id*="explore-range-max"][id*="{co2}"]')
    box.send_keys(str(table_co2 * 0.5), Keys.ENTER)
    after = _wait_for_pick_change(dash_duo, str(first["id"]))
    assert _objective_value(after, co2) <= table_co2 * 0.5
    assert after == str(_cli_select("--where", f"{co2}<={table_co2 * 0.5}")["id"])
    screenshot(dash_duo, "explore-constraint")
    assert dash_duo.get_logs() == []


def test_reloading_the_url_reproduces_the_view(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    path = (f"/explore?dataset={SMALL}&alpha=0.8&p=2&axes=cdf")
    _open(dash_duo, path)
    assert dash_duo.find_element("#explore-p").get_attribute("value") == "2"
    expected = str(_cli_select("--alpha", "0.8", "--p", "2", dataset=SMALL)["id"])
    assert expected != str(_cli_select(dataset=SMALL)["id"])   # the link's view shows
    dash_duo.wait_for_text_to_equal("#pick-id", expected, timeout=30)
    pick = _pick(dash_duo)
    url = dash_duo.driver.current_url
    dash_duo.driver.get(url)
    dash_duo.wait_for_element("#pick-id", timeout=30)
    dash_duo.wait_for_text_to_equal("#pick-id", pick, timeout=30)
    assert parse_qs(urlparse(dash_duo.driver.current_url).query)["p"] == ["2"]
    screenshot(dash_duo, "explore-url-cdf")
    assert dash_duo.get_logs() == []


def test_fewer_than_two_objectives_shows_a_plain_message(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, f"/explore?dataset={DATASET}&obj={_focus_column()}:min", "#explore-alert")
    dash_duo.wait_for_contains_text("#explore-alert", "at least two objectives", timeout=15)
    assert dash_duo.get_logs() == []


def _focus_column() -> str:
    from copa_dash.data.bundled import load_bundled

    return load_bundled(DATASET)[1].default_view.focus[0]


def _objective_value(model_id: str, column: str) -> float:
    from copa_dash.data.bundled import load_bundled

    table, _ = load_bundled(DATASET)
    frame = table.frame
    return float(frame.loc[frame[table.roles.id].astype(str) == model_id, column].iloc[0])


@pytest.mark.parametrize("dataset", ["amlb-2022", "fairness-adult-sex"])
def test_default_views_of_other_datasets_pick_what_the_cli_prints(dash_duo, app, dataset):
    """Default filters on columns that are neither objectives nor metadata (a long table's
    task) must survive the page's callbacks, so the page and the CLI agree."""
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, f"/explore?dataset={dataset}")
    expected = _cli_select(dataset=dataset)
    dash_duo.wait_for_text_to_equal("#pick-id", str(expected["id"]), timeout=30)
    screenshot(dash_duo, f"explore-{dataset}")
    assert dash_duo.get_logs() == []


def test_unticking_the_objective_on_the_x_axis_moves_the_axis_and_shows_no_error(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)
    focus = _focus_column()
    box = dash_duo.find_element(f'[id*="explore-objectives"][id*="{focus}"] input[type=checkbox]')
    box.click()
    objectives = [arg for n in ("ifeval", "bbh", "math", "gpqa", "musr", "mmlu_pro")
                  for arg in ("--objective", f"{n}:max")]
    expected = _cli_select("--all-rows", "--where", "available_on_hub==true", *objectives,
                           "--focus", "ifeval", "--alpha", "0.5", "--p", "inf")
    dash_duo.wait_for_text_to_equal("#pick-id", str(expected["id"]), timeout=30)
    time.sleep(1)
    assert dash_duo.find_element("#global-error").text == ""
    assert focus not in dash_duo.find_element("#explore-x").text
    screenshot(dash_duo, "explore-untick-axis")
    assert dash_duo.get_logs() == []


def test_ticking_the_focus_back_restores_the_focus_and_the_axes(dash_duo, app):
    """F8: untick the focus objective, tick it back: the focus, the axes and the link are
    what they were, and while it is unticked the page says what moved."""
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)
    focus = _focus_column()
    before = parse_qs(urlparse(dash_duo.driver.current_url).query)
    pick = _pick(dash_duo)
    selector = f'[id*="explore-objectives"][id*="{focus}"] input[type=checkbox]'
    dash_duo.find_element(selector).click()
    dash_duo.wait_for_contains_text("#explore-focus-note", f"'{focus}' is unticked", timeout=15)
    screenshot(dash_duo, "explore-focus-unticked")
    dash_duo.find_element(selector).click()
    wait_until(lambda: dash_duo.find_element("#explore-focus-note").text == "", timeout=15)
    wait_until(lambda: parse_qs(urlparse(dash_duo.driver.current_url).query) == before,
               timeout=15)   # focus, x, y and the log ticks as they were
    dash_duo.wait_for_text_to_equal("#pick-id", pick, timeout=30)
    assert focus in dash_duo.find_element("#explore-focus").text
    assert focus in dash_duo.find_element("#explore-x").text
    assert dash_duo.get_logs() == []


def test_names_with_markup_show_as_typed_in_the_pick_card_and_the_figure(dash_duo, app):
    """Model ids are user text: Markdown or HTML marks in them must not format the page."""
    import pandas as pd

    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.store import DatasetStore

    names = ["a_b*c*|<b>x</b>", "[link](http://e.x)", "org/model-1.5",
             '<img src=x onerror="window.copaXss=1">', "ends\\"]
    frame = pd.DataFrame({"model": names, "score": [0.9, 0.8, 0.7, 0.1, 0.05],
                          "cost": [5.0, 3.0, 1.0, 9.0, 8.0]})
    roles = Roles(id="model", objectives=(Objective("score", "max"), Objective("cost", "min")))
    dataset_id = DatasetStore(app.server.config["COPA_SETTINGS"].data_dir).save(frame, roles).id
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, f"/explore?dataset={dataset_id}&alpha=1")  # focus score only: the first row
    dash_duo.wait_for_text_to_equal("#pick-id", names[0], timeout=30)
    card = dash_duo.find_element("#explore-pick").text
    for name in names[1:3]:                     # the runners-up, as typed
        assert name in card
    assert count_of(dash_duo, "#explore-pick b, #explore-pick a:not(.term-info)") == 0
    label = dash_duo.driver.find_element(By.CSS_SELECTOR, "#explore-front .annotation-text").text
    assert label == f"COPA pick: {names[0]}"
    # the ranked table: every id in its own cell as typed, the numbers beside it in place
    wait_until(lambda: sorted(_table_column(dash_duo, 2)) == sorted(names))
    assert all(float(value) >= 0 for value in _table_column(dash_duo, 4))  # not a shifted id
    assert count_of(dash_duo, "#explore-table b, #explore-table a, img") == 0
    assert dash_duo.driver.execute_script("return window.copaXss") is None
    assert dash_duo.get_logs() == []


def test_a_hand_edited_link_says_which_settings_it_could_not_use(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, f"/explore?dataset={SMALL}&alpha=abc&obj=nope:max")
    dash_duo.wait_for_contains_text("#explore-link-notes", "alpha=abc is not a number", timeout=15)
    assert "no objective column 'nope'" in dash_duo.find_element("#explore-link-notes").text
    _open(dash_duo, f"/explore?dataset={SMALL}")  # a clean link shows no such box
    assert not dash_duo.find_element("#explore-link-notes").is_displayed()
    assert dash_duo.get_logs() == []


def test_the_p_slider_and_the_p_box_follow_each_other_and_the_pick_matches_the_cli(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)
    slider = dash_duo.driver.find_element(By.CSS_SELECTOR, "#explore-p-slider [role=slider]")
    slider.send_keys(Keys.ARROW_LEFT)                       # inf -> 16
    dash_duo.wait_for_text_to_equal("#pick-id", _cli_select("--p", "16")["id"], timeout=20)
    assert dash_duo.find_element("#explore-p").get_attribute("value") == "16"
    box = dash_duo.find_element("#explore-p")
    # select and overwrite (clear() would also leave the box: an empty box is p = inf)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("1.4", Keys.ENTER)                        # typed: the slider goes to 1.5
    dash_duo.wait_for_text_to_equal("#pick-id", _cli_select("--p", "1.4")["id"], timeout=20)
    wait_until(lambda: slider.get_attribute("aria-valuenow") == "1")  # stop index 1 = p 1.5
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("banana", Keys.ENTER)                     # not a number: a message, slider stays
    dash_duo.wait_for_contains_text("#explore-alert", "p must be a number >= 1, or inf", timeout=15)
    assert slider.get_attribute("aria-valuenow") == "1"
    slider.send_keys(Keys.ARROW_RIGHT)                      # 1.5 -> 2: the box shows 2 again
    wait_until(lambda: dash_duo.find_element("#explore-p").get_attribute("value") == "2")
    dash_duo.wait_for_text_to_equal("#pick-id", _cli_select("--p", "2")["id"], timeout=20)
    assert not dash_duo.find_element("#explore-alert").text
    assert dash_duo.get_logs() == []


def _table_column(dash_duo, n: int) -> list[str]:
    """The texts of the ranked table's n-th column, read in one go (the table is redrawn
    as a whole, so cells fetched one by one can go stale in between); an id cell's whole
    name, from its title (the cell shows it shortened)."""
    return dash_duo.driver.execute_script(
        "return Array.from(document.querySelectorAll("
        "'#explore-table tbody td:nth-child(' + arguments[0] + ')'))"
        ".map(td => td.title || td.textContent);", n)


def _column_of(dash_duo, header: str) -> int:
    """The 1-based position of the ranked table's column whose header names ``header`` (the
    focus objectives come first, so a column's position depends on the view)."""
    return dash_duo.driver.execute_script(
        "const ths = Array.from(document.querySelectorAll('#explore-table thead th'));"
        "return ths.findIndex(th => th.textContent.includes(arguments[0])) + 1;", header)


def _values(cells: list[str]) -> list[float]:
    """An objective's values from its cells ("0.4695 7.9%": the value, then its top %)."""
    return [float(c.split()[0]) for c in cells]


def test_the_ranked_table_searches_sorts_and_pages_on_the_server(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)
    expected = _cli_select()
    dash_duo.wait_for_text_to_equal("#pick-id", str(expected["id"]), timeout=30)
    wait_until(lambda: _table_column(dash_duo, 2)[:1] == [str(expected["id"])])  # rank 1: the pick
    pager = dash_duo.find_element("#explore-table-pager").text
    assert pager.startswith("page 1 of ")
    dash_duo.find_element("#explore-table-next").click()
    dash_duo.wait_for_text_to_equal("#explore-table-pager", pager.replace("page 1", "page 2"), timeout=15)
    wait_until(lambda: _table_column(dash_duo, 1)[:1] == ["16"])
    search = dash_duo.find_element("#explore-table-search")
    search.send_keys("llama, co2_cost < 1, price < 3", Keys.ENTER)
    dash_duo.wait_for_contains_text("#explore-table-note", "match the search", timeout=15)
    note = dash_duo.find_element("#explore-table-note").text
    assert "'price' is not a column" in note
    dash_duo.wait_for_text_to_equal("#explore-table", "No row matches the search.", timeout=15)
    search.clear()
    search.send_keys("llama, co2_cost < 1", Keys.ENTER)
    wait_until(lambda: "'price'" not in dash_duo.find_element("#explore-table-note").text)
    wait_until(lambda: _table_column(dash_duo, 2) and all(
        "llama" in i.lower() for i in _table_column(dash_duo, 2)))
    cost_column = _column_of(dash_duo, "co2_cost")
    assert cost_column > 2
    costs = _values(_table_column(dash_duo, cost_column))
    assert costs and all(c < 1 for c in costs)
    assert dash_duo.find_element("#explore-table-pager").text.startswith("page 1 of ")
    dash_duo.select_dcc_dropdown("#explore-table-sort", "co2_cost: best first")

    def shown_costs():
        return _values(_table_column(dash_duo, cost_column))

    wait_until(lambda: shown_costs() == sorted(shown_costs()) and shown_costs() != costs)
    assert shown_costs()[0] <= min(costs)   # the cheapest matching row leads page 1
    screenshot(dash_duo, "explore-table-search")
    assert dash_duo.get_logs() == []


def test_log_x_draws_co2_cost_on_a_log_axis_and_the_link_keeps_it(dash_duo, app):
    from tests.e2e.app_under_test import graph_figure

    def x_type():
        return graph_figure(dash_duo, "explore-front", with_data=False)["layout"]["xaxis"]["type"]

    def share():
        return dash_duo.find_element("#explore-share").get_attribute("value")

    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, f"/explore?dataset={DATASET}&x=co2_cost&y=ifeval")
    wait_until(lambda: x_type() == "log")      # co2_cost spans > 2 decades: log by default
    # ifeval has zeros: its log box is greyed and says why, never ticked over a linear axis
    wait_until(lambda: not dash_duo.find_element("#explore-log input[value=y]").is_enabled())
    assert "values \u2264 0" in dash_duo.find_element("#explore-log").text
    dash_duo.find_element("#explore-log input[value=x]").click()
    wait_until(lambda: x_type() == "linear")
    wait_until(lambda: "log=none" in share())
    dash_duo.driver.get(share())               # a linear axis stays linear in the link
    dash_duo.wait_for_element("#pick-id", timeout=30)
    wait_until(lambda: x_type() == "linear")
    dash_duo.find_element("#explore-log input[value=x]").click()
    wait_until(lambda: x_type() == "log")
    wait_until(lambda: "log=x" in share())
    screenshot(dash_duo, "explore-log-x")
    dash_duo.driver.get(share())
    dash_duo.wait_for_element("#pick-id", timeout=30)
    wait_until(lambda: x_type() == "log")
    assert dash_duo.find_element("#explore-log input[value=x]").is_selected()
    dash_duo.find_element("#explore-axes input[value=cdf]").click()   # log is for raw values
    wait_until(lambda: not dash_duo.find_element("#explore-log input[value=x]").is_enabled())
    assert dash_duo.get_logs() == []


def test_the_address_bar_follows_the_view_and_back_returns_to_the_previous_dataset(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo)

    def address() -> dict:
        return parse_qs(urlparse(dash_duo.driver.current_url).query)

    # the page writes the whole view into the address bar as it opens
    wait_until(lambda: "obj" in address() and address()["dataset"] == [DATASET])
    first_pick = _pick(dash_duo)
    dash_duo.select_dcc_dropdown("#explore-dataset", "Chatbot Arena Elo vs API price (January 2025)")
    wait_until(lambda: address().get("dataset") == ["chatbot-arena-price"] and "obj" in address())
    wait_until(lambda: _pick(dash_duo) not in ("", first_pick))
    dash_duo.driver.back()
    wait_until(lambda: address().get("dataset") == [DATASET], timeout=20)
    wait_until(lambda: _pick(dash_duo) == first_pick, timeout=30)
    time.sleep(1)  # nothing pulls the address forward again once the old view is back
    assert address().get("dataset") == [DATASET]
    assert DATASET in dash_duo.find_element("#explore-share").get_attribute("value")
    assert dash_duo.get_logs() == []
