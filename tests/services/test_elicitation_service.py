"""The "Help me choose" service: the default view's models, replayable sessions, cards."""

from __future__ import annotations

import numpy as np
import pytest

from copa_dash.cli import build_parser
from copa_dash.cli.preferences import build
from copa_dash.core import criteria
from copa_dash.core import elicitation as core
from copa_dash.core.errors import InvalidInputError
from copa_dash.services import elicitation as service
from copa_dash.services import selection
from copa_dash.services.catalog import open_dataset

FAST = core.ElicitationSettings(n_particles=500, seed=2)


def helm_problem(dataset_id=""):
    opened = open_dataset("helm-classic")
    return service.choice_problem(service.default_view_problem(
        opened.table, opened.default_view, dataset_id=dataset_id))


@pytest.mark.parametrize("name", ["open-llm-leaderboard-v2", "helm-classic"])
def test_default_view_is_what_rank_dataset_scores(name):
    opened = open_dataset(name)
    ours = service.default_view_problem(opened.table, opened.default_view)
    args = build_parser().parse_args(["rank", "--dataset", name])
    table, prefs, row_filter = build(args)
    theirs = selection.build_problem(table, prefs, row_filter)
    assert ours.preferences.objectives == theirs.preferences.objectives
    assert ours.preferences.directions == theirs.preferences.directions
    np.testing.assert_array_equal(ours.u, theirs.u)
    np.testing.assert_array_equal(ours.eligible, theirs.eligible)


def test_candidates_are_exactly_the_eligible_front():
    problem = helm_problem()
    sel = problem.selection
    eligible = np.flatnonzero(sel.eligible)
    dominated = {int(j) for j in eligible for i in eligible
                 if (sel.u[i] <= sel.u[j]).all() and (sel.u[i] < sel.u[j]).any()}
    assert sorted(problem.positions.tolist()) == sorted(set(eligible.tolist()) - dominated)


def test_kept_states_give_the_same_session_as_a_replay():
    kept = helm_problem(dataset_id="test-helm")
    fresh = helm_problem()
    for n in range(1, 5):
        a = service.run_session(kept, "ab=a"[:n], settings=FAST, confident=1.0)
    b = service.run_session(fresh, "ab=a", settings=FAST, confident=1.0)
    assert np.array_equal(a.state.theta, b.state.theta)
    assert a.question == b.question and a.summary.recommendation == b.summary.recommendation
    step = service.answer(fresh, service.run_session(fresh, "ab=", settings=FAST, confident=1.0),
                          "a", confident=1.0)
    assert np.array_equal(step.state.mass, b.state.mass) and step.answers == "ab=a"


def test_session_is_done_when_sure_or_out_of_questions():
    problem = helm_problem()
    session = service.run_session(problem, "aa", settings=FAST, max_questions=2)
    assert session.done and session.question is None
    sure = service.run_session(problem, "", settings=FAST, confident=0.01)
    assert sure.done and sure.summary.probability >= 0.01


def test_cards_put_the_largest_difference_first_and_preferences_name_columns():
    problem = helm_problem()
    rows = service.compare(problem, 0, 1)
    gaps = [r["gap"] for r in rows]
    assert gaps == sorted(gaps, reverse=True)
    k = problem.objectives.index(rows[0]["objective"])
    assert rows[0]["a"] == problem.raw[0, k] and rows[0]["top_b"] == pytest.approx(100 * problem.u[1, k])
    assert list(service.preferences(problem, service.run_session(problem, "a", settings=FAST))
                ["weights"]) == list(problem.objectives)


@pytest.mark.parametrize("answers", ["", "a", "ab", "b=ab", "abba"])
def test_applied_preferences_make_copa_pick_the_recommendation(answers):
    opened = open_dataset("decodingtrust")
    problem = service.choice_problem(service.default_view_problem(opened.table, opened.default_view))
    session = service.run_session(problem, answers, settings=FAST, confident=1.0)
    prefs = service.preferences(problem, session)
    assert prefs["selects"]
    sel = problem.selection
    weights = [prefs["weights"][n] for n in problem.objectives]
    # on every eligible row, not only the front: the page's pick is the recommendation
    pick = criteria.copa_select(sel.u, weights, p=prefs["p"], eligible=sel.eligible)
    assert sel.ids[pick] == problem.ids[session.summary.recommendation]
    if prefs["use_alpha"]:
        focus = [problem.objectives.index(f) for f in prefs["focus"]]
        w = criteria.weights_from_alpha(len(weights), focus, prefs["alpha"])
        assert criteria.copa_select(sel.u, w, p=prefs["p"], eligible=sel.eligible) == pick


def test_bad_answers_are_named():
    with pytest.raises(InvalidInputError, match="'a', 'b' and '='"):
        service.check_answers("abx")
    with pytest.raises(InvalidInputError, match="at most"):
        service.check_answers("a" * 41)
    assert service.undo("ab=") == "ab="[:-1]
