"""Why a normalisation cannot run, said with the table's names: the reason comes from the
core's refusal, and every name and number in it is checked against the table itself."""

import re

import numpy as np
import pytest

from copa_dash.core.baselines import normalised_objectives
from copa_dash.core.errors import InvalidInputError, MethodNotApplicableError
from copa_dash.services import explorer, method_limits
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore.state import parse_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter

INTERNAL = re.compile(r"maxnorm|objective \d|row \d|'\w+'")


def _explore(name):
    opened = open_dataset(name)
    state = with_defaults(parse_query({"dataset": name}), opened)
    prefs, row_filter = preferences_and_filter(state, opened.table)
    return explorer.explore(opened, prefs, row_filter, compare=True)


def test_saw_and_ahp_say_why_they_cannot_run_on_the_open_llm_leaderboard():
    result = _explore("open-llm-leaderboard-v2")
    problem = result.problem
    names = problem.preferences.objectives
    refused = {b.method: b for b in result.baselines if b.position is None}
    assert set(refused) == {"saw", "ahp"}
    for method, label in (("saw", "SAW"), ("ahp", "AHP")):
        message = refused[method].message
        assert message.startswith(f"{label} works with ratios of values") and "above 0" in message
        assert not INTERNAL.search(message), message
        # the objective, the row and the count it names are the table's, found independently
        failing = [j for j in range(len(names)) if (problem.raw[:, j] <= 0).any()]
        k = failing[0]
        bad = np.flatnonzero(problem.raw[:, k] <= 0)
        others = f" and {bad.size - 1} other rows" if bad.size > 2 else \
            (" and 1 other row" if bad.size == 2 else "")
        assert (f"; {names[k]} is {problem.raw[bad[0], k]:g} for {problem.ids[bad[0]]}"
                f"{others}.") in message
        rest = [names[j] for j in failing[1:]]
        assert rest and (", ".join(rest[:-1]) + " and " + rest[-1]) + " have values of 0 or " \
            "below too." in message


@pytest.mark.parametrize("name", ["chatbot-arena-price", "llm-perf"])
def test_saw_and_ahp_run_where_every_value_is_positive(name):
    result = _explore(name)
    problem = result.problem
    by_method = {b.method: b for b in result.baselines}
    assert by_method["saw"].position is not None and by_method["saw"].message == ""
    assert by_method["ahp"].position is not None and by_method["ahp"].message == ""
    # SAW's pick, from METHODS.md's formula written out here: min -> y / min y, max -> max y / y
    raw = problem.raw
    maximise = np.array(problem.preferences.directions) == "max"
    z = np.where(maximise, raw.max(axis=0) / raw, raw / raw.min(axis=0))
    scores = np.where(problem.eligible, z @ problem.preferences.weight_vector(), np.inf)
    assert by_method["saw"].position == int(np.argmin(scores))


def test_delta_with_a_zero_ideal_names_the_objective():
    with pytest.raises(MethodNotApplicableError) as caught:
        normalised_objectives([[0.0, 1.0], [2.0, 3.0]], ["min", "min"], method="delta")
    text = method_limits.why_not(caught.value, "delta", ["latency", "cost"], ["m1", "m2"])
    assert text == ("Delta divides by its best value in each objective, and that is 0 for "
                    "latency, so Delta is undefined here.")


def test_a_refusal_the_core_does_not_explain_is_passed_on_as_it_is():
    error = InvalidInputError("'eligible' selects no row: nothing to select from")
    assert method_limits.why_not(error, "saw", ["a"], ["r"]) == str(error)


def test_the_core_error_carries_every_failing_objective_and_count():
    raw = [[1.0, 0.0, 5.0], [2.0, -1.0, 0.0], [3.0, 4.0, 6.0]]
    with pytest.raises(MethodNotApplicableError) as caught:
        normalised_objectives(raw, "min", method="maxnorm")
    e = caught.value
    assert (e.reason, e.column, e.row, e.value, e.n_rows, e.columns) == \
        ("not_positive", 1, 0, 0.0, 2, (1, 2))
    assert "objective 1 has 0 in row 0" in str(e)    # the core's own message is unchanged


def test_ahp_on_a_big_table_says_it_is_skipped_and_why():
    text = method_limits.too_many_rows("ahp", 3000, 5100)
    assert text.startswith("AHP compares every pair of rows, which takes too long above 3,000")
    assert "this table has 5,100" in text
