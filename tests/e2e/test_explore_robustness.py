"""Explore's "How sure is this pick?" panel in headless Chromium: the same numbers as
``copa-dash robustness`` on the same view, and it follows the view."""

from __future__ import annotations

import json
import threading
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from copa_dash.cli import main
from copa_dash.ui.features.explore.robustness_panel import BARS
from tests.e2e.app_under_test import open_page, screenshot, wait_until
from tests.e2e.settle import callbacks_idle

pytestmark = pytest.mark.browser
DATASET = "decodingtrust"


def _cli(capsys, *extra) -> dict:
    capsys.readouterr()                    # the server's start-up lines
    assert main(["robustness", "--dataset", DATASET, "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def _body(dash_duo) -> str:
    """The panel's text, folded sections included (their summaries show the first line)."""
    return " ".join(dash_duo.find_element("#explore-robust-body").get_attribute("textContent")
                    .split())


def _panel_rows(dash_duo) -> list[tuple[str, str]]:
    rows = dash_duo.driver.find_elements(By.CSS_SELECTOR, "#explore-robust-body .robust-row")
    return [(r.find_element(By.CSS_SELECTOR, ".robust-id").get_attribute("title"),
             r.find_element(By.CSS_SELECTOR, ".robust-share").text) for r in rows]


def _verdict(dash_duo) -> str:
    found = dash_duo.driver.find_elements(By.CSS_SELECTOR, "#explore-robust-body .robust-verdict")
    return found[0].text if found else ""


def test_panel_shows_the_clis_numbers_and_follows_alpha(dash_duo, app, capsys):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    wait_until(lambda: _verdict(dash_duo) != "", timeout=60)
    expected = _cli(capsys)
    assert _verdict(dash_duo).startswith(f"{expected['pick']} stays the pick")
    assert dash_duo.find_element("#pick-id").text == expected["pick"]
    shown = _panel_rows(dash_duo)
    assert [name for name, _ in shown] == [a["id"] for a in expected["acceptability"][:BARS]]
    for (_, text), row in zip(shown, expected["acceptability"]):
        assert text.startswith(f"{100 * row['rank1']:.1f}% ± {100 * row['rank1_se']:.1f} first")
    body = _body(dash_duo)
    for name, pick in expected["leave_one_out"].items():
        assert f"without {name}: {pick}" in body
    for flip in expected["flips"]:
        assert flip["text"] in body
    screenshot(dash_duo, "explore-robustness")

    slider = dash_duo.driver.find_elements(By.CSS_SELECTOR, "#explore-alpha [role=slider]")[0]
    slider.click()
    slider.send_keys(Keys.END)
    after = _cli(capsys, "--alpha", "1")
    wait_until(lambda: "without" in _body(dash_duo)
               and _verdict(dash_duo).startswith(f"{after['pick']} stays"), timeout=60)
    screenshot(dash_duo, "explore-robustness-alpha-1")
    assert dash_duo.get_logs() == []


@pytest.mark.parametrize("dataset, heading", [("chatbot-arena-price", "Missing scores"),
                                              ("fairness-adult-sex", "Under noise")])
def test_panel_shows_missing_scores_and_noise_where_the_table_has_them(dash_duo, app, capsys,
                                                                       dataset, heading):
    open_page(dash_duo, app, f"/explore?dataset={dataset}")
    wait_until(lambda: _verdict(dash_duo) != "", timeout=90)
    capsys.readouterr()
    assert main(["robustness", "--dataset", dataset, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    body = _body(dash_duo)
    assert heading in body
    if expected["missing"]:
        m = expected["missing"]
        assert (f"{m['rows']} models miss a score: {m['always_dominated']} are dominated "
                "(another model is as good on every objective and better on one)") in body
        assert f"{m['maybe_dominated']} only for some values, {m['never_dominated']} never" in body
    if expected["membership"]:
        first = expected["membership"]["rows"][0]
        assert (f"{first['id']}: on the front {100 * first['front']:.0f}%, picked "
                f"{100 * first['pick']:.0f}%") in body
    screenshot(dash_duo, f"explore-robustness-{dataset}")
    assert dash_duo.get_logs() == []


def test_the_pick_and_how_sure_it_is_come_in_one_line_above_the_whole_figure(dash_duo, app, capsys):
    """The first screen (1400 x 1000) holds the answer and the whole scatter: the line above
    the figure names the CLI's pick and says the panel's verdict; the card and the panel,
    whose height depends on the table (an upload's missing scores, notes), come below it."""
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    wait_until(lambda: _verdict(dash_duo) != "", timeout=60)
    expected = _cli(capsys)
    line = " ".join(dash_duo.find_element("#explore-pick-line").text.split())
    verdict = " ".join(_verdict(dash_duo).split())
    assert line.startswith(f"COPA pick: {expected['pick']} — it ")
    assert verdict.startswith(f"{expected['pick']} ")
    assert f"— it{verdict[len(expected['pick']):]}" in line
    box = dash_duo.driver.execute_script(
        "const r = document.getElementById('explore-front').getBoundingClientRect();"
        "const card = document.getElementById('explore-pick').getBoundingClientRect();"
        "return [r.top + window.scrollY, r.bottom + window.scrollY, card.top + window.scrollY,"
        "        window.innerHeight];")
    _figure_top, figure_bottom, card_top, screen = box
    assert figure_bottom <= screen, box           # the whole scatter on the first screen
    assert card_top >= figure_bottom, box         # the card under it
    screenshot(dash_duo, "explore-pick-line")


def test_a_new_view_never_shows_the_last_picks_share(dash_duo, app, monkeypatch):
    """While the panel works out a new view, the line above the figure says so and the last
    view's panel is greyed: the new pick never stands beside the last pick's share (a
    newcomer saw "it stays the pick for 41%" beside a pick whose own share was 92%). The
    service is slowed here so that the in-between state lasts long enough to be read."""
    from copa_dash.ui.features.explore import robustness_panel

    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    wait_until(lambda: _verdict(dash_duo) != "", timeout=60)
    line = "#explore-robust-verdict"
    before = dash_duo.find_element(line).text
    assert before != robustness_panel.WAITING_WORDS
    real = robustness_panel.result_of
    monkeypatch.setattr(robustness_panel, "result_of",
                        lambda query: (time.sleep(4), real(query))[1])
    # a view the cache does not hold (an earlier test may have worked out alpha = 1 already,
    # and a view the cache holds is shown at once, with the figure)
    monkeypatch.setattr(robustness_panel, "kept_result_of", lambda query: None)
    slider = dash_duo.driver.find_elements(By.CSS_SELECTOR, "#explore-alpha [role=slider]")[0]
    slider.click()
    slider.send_keys(Keys.END)
    # the view's answer (its link) comes with the waiting words; the panel's own answer is held
    # 4 s after it (a 3 s bound on the view's answer failed when a loaded machine was slower)
    wait_until(lambda: "alpha=1" in _share(dash_duo), timeout=60)
    assert dash_duo.find_element(line).text == robustness_panel.WAITING_WORDS
    assert "robust-stale" in dash_duo.find_element("#explore-robust-body").get_attribute("class")
    wait_until(lambda: dash_duo.find_element(line).text != robustness_panel.WAITING_WORDS,
               timeout=30)
    assert "robust-stale" not in dash_duo.find_element("#explore-robust-body").get_attribute(
        "class")
    assert dash_duo.get_logs() == []


BOXES = "input[type=checkbox][name*='explore-objectives']"
# the callback requests the page made since the mark ``arguments[0]`` (performance.now())
REQUESTS_SINCE = """
return performance.getEntriesByType('resource')
    .filter(e => e.name.includes('_dash-update-component') && e.startTime >= arguments[0])
    .length;
"""


def _settled_verdict(dash_duo) -> str:
    """The line's verdict once the panel is not being worked out."""
    line = "#explore-robust-verdict"
    wait_until(lambda: dash_duo.find_element(line).text not in ("", _waiting())
               and "robust-stale" not in dash_duo.find_element("#explore-robust-body")
               .get_attribute("class"), timeout=60)
    return dash_duo.find_element(line).text


def _share(dash_duo) -> str:
    """The view's link (its share box), which the view's answer writes."""
    return dash_duo.find_element("#explore-share").get_attribute("value")


def _waiting() -> str:
    from copa_dash.ui.features.explore import robustness_panel
    return robustness_panel.WAITING_WORDS


def test_a_view_seen_before_fills_the_panel_in_the_views_own_answer(dash_duo, app):
    """An objective unticked and ticked back: the view ticked back is in the cache, so the
    view's one request fills the panel too (before, a second request after the figure was
    drawn did, issue 33's tick under 300 ms), and it is the first view's panel again."""
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    first = _settled_verdict(dash_duo)
    shown_first = _share(dash_duo)
    dash_duo.driver.find_elements(By.CSS_SELECTOR, BOXES)[1].click()
    # the view's answer has come (its link), so the verdict read next is the new view's: the
    # first view's settled verdict stays on show until then (0.2 s idle, seconds under load)
    wait_until(lambda: _share(dash_duo) != shown_first, timeout=60)
    assert _settled_verdict(dash_duo) != first       # a view of one objective fewer
    wait_until(lambda: callbacks_idle(dash_duo), timeout=60)   # its panel's request is back
    mark = dash_duo.driver.execute_script("return performance.now();")
    dash_duo.driver.find_elements(By.CSS_SELECTOR, BOXES)[1].click()
    wait_until(lambda: _share(dash_duo) == shown_first, timeout=60)
    assert _settled_verdict(dash_duo) == first
    # the renderer queues a callback that follows the answer (the panel's, had the view not
    # been in the cache) in the step that applies the answer: with nothing queued, no second
    # request is coming
    wait_until(lambda: callbacks_idle(dash_duo), timeout=60)
    assert dash_duo.driver.execute_script(REQUESTS_SINCE, mark) == 1
    assert dash_duo.find_element("#explore-robust-verdict").text == first
    assert dash_duo.get_logs() == []


def test_a_slow_answer_for_a_view_left_meanwhile_is_dropped(dash_duo, app, monkeypatch):
    """A view the cache does not hold is worked out after the figure; if the page moves on
    to a view seen before while that is slow, the late answer must not replace the panel of
    the view shown (its pick, and its share, are another view's)."""
    from copa_dash.ui.features.explore import robustness_panel

    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    first = _settled_verdict(dash_duo)
    shown_first = dash_duo.find_element("#explore-share").get_attribute("value")
    first_query = shown_first.split("?", 1)[1]
    real_result, real_kept = robustness_panel.result_of, robustness_panel.kept_result_of
    answered = threading.Event()         # the slow answer has left the server

    def slow_result(query):
        time.sleep(4)
        try:
            return real_result(query)
        finally:
            answered.set()

    monkeypatch.setattr(robustness_panel, "result_of", slow_result)
    # only the first view counts as worked out: the unticked one is slow
    monkeypatch.setattr(robustness_panel, "kept_result_of",
                        lambda query: real_kept(query) if query == first_query else None)
    box = dash_duo.driver.find_elements(By.CSS_SELECTOR, BOXES)[1]
    box.click()
    wait_until(lambda: dash_duo.find_element("#explore-robust-verdict").text == _waiting(),
               timeout=60)
    dash_duo.driver.find_elements(By.CSS_SELECTOR, BOXES)[1].click()
    wait_until(lambda: _share(dash_duo) == shown_first, timeout=60)
    assert _settled_verdict(dash_duo) == first
    # the slow answer has left the server and the page has applied (or dropped) it: a fixed
    # 6 s ran out before it under load, and the test then passed without seeing it
    wait_until(answered.is_set, timeout=120)
    wait_until(lambda: callbacks_idle(dash_duo), timeout=60)
    assert dash_duo.find_element("#explore-robust-verdict").text == first
    assert "robust-stale" not in dash_duo.find_element("#explore-robust-body").get_attribute(
        "class")
    assert dash_duo.get_logs() == []
