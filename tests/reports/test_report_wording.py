"""The Explore page's decision report speaks the table's words (column names, row ids, plain
method names), states the axes the page showed and the "Help me choose" answers given."""

import html
import re
from urllib.parse import parse_qs

import pytest

from copa_dash.reports import DecisionView, decision_facts, decision_html
from copa_dash.services import elicitation
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore import choose_callbacks, report_panel
from copa_dash.ui.features.explore.state import parse_query, with_defaults

LLM = "open-llm-leaderboard-v2"
INTERNAL = [r"maxnorm", r"objective \d", r"\brow \d", r"'saw'|'ahp'"]


def _text(page: str) -> str:
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.DOTALL)
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    return re.sub(r" ([.,;:])", r"\1", text)       # "<code>x</code>." reads "x."


def _state(query: str):
    given = parse_qs(query)
    opened = open_dataset(LLM)
    return opened, with_defaults(parse_query(given), opened, given=set(given))


@pytest.fixture(scope="module")
def llm_page():
    query = f"dataset={LLM}&axes=raw&x=co2_cost&y=ifeval&log=x&choose=ab="
    page, _name = report_panel.report_file(query, "html")
    return _state(query), _text(page.decode())


def test_the_report_uses_names_not_indices(llm_page):
    _, text = llm_page
    for pattern in INTERNAL:
        assert not re.search(pattern, text), pattern
    # SAW and AHP cannot run: the report says why with the column's name and a row's id
    assert text.count("cannot run here") == 2
    assert "SAW works with ratios of values" in text and "ifeval is 0 for" in text
    assert "weighted sum of each value's ratio to its objective's best" in text


def test_the_report_states_the_axes_the_page_showed(llm_page):
    _, text = llm_page
    assert "The axes the explorer showed: raw values; x = co2_cost on a log scale, y = ifeval." \
        in text


def test_the_report_lists_the_questions_the_panel_asked_and_the_answers(llm_page):
    (_, state), text = llm_page
    assert 'Answers given in "Help me choose"' in text
    # the panel's own steps, one answer at a time, as the page asks them
    problem = choose_callbacks.problem_of(state)
    answers, asked = "", []
    for action in "ab=":
        session = choose_callbacks.step(problem, answers, None)
        a, b = problem.ids[session.question.a], problem.ids[session.question.b]
        asked.append((f"{a} or {b}?", {"a": a, "b": b, "=": "can't tell"}[action]))
        answers = choose_callbacks.step(problem, answers, action).answers
    assert elicitation.answered_questions(problem, "ab=") == tuple(asked)
    for question, answer in asked:
        assert f"{question} {answer}" in text


def test_a_report_without_page_axes_says_it_chose_them():
    opened = open_dataset(LLM)
    facts = decision_facts(opened, DecisionView(LLM))
    text = _text(decision_html(facts))
    assert "Axes chosen for this report (the first focus objective against the next): raw " \
           "values; x = co2_cost on a log scale, y = ifeval." in text
    assert facts.axes.from_page is False


def test_the_cdf_axes_of_the_page_reach_the_figure():
    query = f"dataset={LLM}&axes=cdf&x=bbh&y=math"
    opened, state = _state(query)
    facts = decision_facts(opened, report_panel.view_of(state))
    problem = facts.exploration.problem
    names = list(problem.preferences.objectives)
    assert (facts.axes.mode, facts.axes.x, facts.axes.y) == ("cdf", "bbh", "math")
    assert (facts.axes.xs == problem.u[:, names.index("bbh")]).all()
    assert "top x% in" in facts.axes.x_title


def test_a_pick_over_two_tasks_says_so_beside_it_and_one_task_says_nothing():
    # amlb-2022 restricted to two of its datasets: 10 frameworks x 2 tasks (the frame says
    # which tasks the candidates come from; the report must name both)
    opened = open_dataset("amlb-2022")
    two = ("Australian", "Amazon_employee_access")
    facts = decision_facts(opened, DecisionView("amlb-2022", sets=(("dataset", two),)))
    frame = opened.table.frame
    assert set(frame.loc[frame["dataset"].isin(two), "dataset"]) == set(two)
    text = _text(decision_html(facts))
    assert ("Several tasks. These rows come from 2 tasks (Amazon_employee_access, Australian): "
            "the pick compares a run on one task with runs on others.") in text
    assert "copa-dash depth" in text
    alone = _text(decision_html(decision_facts(opened, DecisionView("amlb-2022"))))
    assert "Several tasks" not in alone and "These rows come from" not in alone
