""""Help me choose" in headless Chromium: five answers, undo, apply, and a shared link replays."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from selenium.common.exceptions import WebDriverException

from copa_dash.services import elicitation as service
from copa_dash.services.catalog import open_dataset
from tests.e2e.app_under_test import screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"
BUTTONS = {"a": "#choose-this", "b": "#choose-that", "=": "#choose-tie"}


def expected(answers: str):
    opened = open_dataset(DATASET)
    problem = service.choice_problem(service.default_view_problem(opened.table, opened.default_view))
    session = service.run_session(problem, answers)
    return problem, session


def _text(dash_duo, selector: str) -> str:
    try:
        return dash_duo.find_element(selector).text
    except WebDriverException:  # re-rendered while read (a stale element is one too)
        return ""


def _wait_progress(dash_duo, start: str) -> str:
    try:
        wait_until(lambda: _text(dash_duo, "#choose-progress").startswith(start), timeout=40)
    except AssertionError:
        screenshot(dash_duo, "choose-failure")
        raise AssertionError(f"progress is {_text(dash_duo, '#choose-progress')!r}, "
                             f"not {start!r}...") from None
    return _text(dash_duo, "#choose-progress")


def _choose_param(dash_duo) -> str:
    return parse_qs(urlparse(dash_duo.driver.current_url).query).get("choose", [""])[0]


def test_five_answers_undo_apply_and_a_shared_link_replays(dash_duo, app):
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/explore?dataset={DATASET}", timeout=30)
    dash_duo.wait_for_element("#choose-open", timeout=30).click()
    _wait_progress(dash_duo, "question 1")
    problem, first = expected("")
    cards = dash_duo.find_elements(".choose-model")
    assert [c.text for c in cards] == [problem.ids[first.question.a], problem.ids[first.question.b]]
    screenshot(dash_duo, "choose-question-1")

    answers = "ab=ab"
    for k, answer in enumerate(answers, start=1):
        dash_duo.find_element(BUTTONS[answer]).click()
        _wait_progress(dash_duo, f"question {k + 1}")
    wait_until(lambda: _choose_param(dash_duo) == answers)
    _, session = expected(answers)
    pick = problem.ids[session.summary.recommendation]
    progress = _text(dash_duo, "#choose-progress")
    assert progress.startswith(f"question 6 - {100 * session.summary.probability:.0f}% sure it is {pick}")
    screenshot(dash_duo, "choose-after-5")

    dash_duo.find_element("#choose-undo").click()
    _wait_progress(dash_duo, "question 5")
    wait_until(lambda: _choose_param(dash_duo) == answers[:-1])
    dash_duo.find_element(BUTTONS[answers[-1]]).click()
    assert _wait_progress(dash_duo, "question 6") == progress

    dash_duo.find_element("#choose-apply").click()
    dash_duo.wait_for_text_to_equal("#pick-id", pick, timeout=40)
    assert "The pick above follows them" in _text(dash_duo, "#choose-applied")
    query = parse_qs(urlparse(dash_duo.driver.current_url).query)
    assert query["choose"] == [answers]
    screenshot(dash_duo, "choose-applied")

    shared = dash_duo.driver.current_url
    dash_duo.wait_for_page(url=shared, timeout=30)
    assert _wait_progress(dash_duo, "question 6") == progress
    dash_duo.wait_for_text_to_equal("#pick-id", pick, timeout=40)
    assert dash_duo.get_logs() == []
