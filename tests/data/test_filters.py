"""Row filters: --where conditions, ranges and value sets on raw values."""

import numpy as np
import pandas as pd
import pytest

import copa_dash.cli.preferences as cli_preferences
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.filters import (
    Condition,
    RowFilter,
    filter_from_view,
    filter_from_where,
    parse_condition,
)
from copa_dash.services import elicitation

FRAME = pd.DataFrame({
    "model": ["a", "b", "c", "d"],
    "score": [0.1, 0.5, np.nan, 0.9],
    "type": ["chat", "base", "chat", None],
    "on_hub": [True, False, True, True],
})


@pytest.mark.parametrize("text, expected", [
    ("score>=0.5", [False, True, False, True]),
    ("score < 0.5", [True, False, False, False]),
    ("score != 0.5", [True, False, False, True]),
    ("type == chat", [True, False, True, False]),
    ("type != 'chat'", [False, True, False, False]),
])
def test_conditions_select_the_expected_rows_and_never_missing_values(text, expected):
    mask = filter_from_where([text], FRAME.columns).mask(FRAME)
    assert mask.tolist() == expected


def test_parse_condition_reads_numbers_and_strings():
    assert parse_condition("score <= 2", FRAME.columns) == Condition("score", "<=", 2.0)
    assert parse_condition("type==chat", FRAME.columns) == Condition("type", "==", "chat")


@pytest.mark.parametrize("text, message", [
    ("score", "write COLUMN OP VALUE"),
    ("nope > 1", "the column 'nope'"),
    ("type > chat", "needs a number"),
])
def test_bad_conditions_say_what_to_change(text, message):
    with pytest.raises(InvalidInputError, match=message):
        parse_condition(text, FRAME.columns)


def test_ranges_and_sets_combine_and_booleans_match_as_text():
    row_filter = RowFilter(ranges={"score": (0.2, None)}, sets={"on_hub": [True], "type": ["base", "chat"]})
    assert row_filter.mask(FRAME).tolist() == [False, False, False, False]
    assert RowFilter(sets={"on_hub": ["true"]}).mask(FRAME).tolist() == [True, False, True, True]
    assert RowFilter(ranges={"score": (None, 0.5)}).mask(FRAME).tolist() == [True, True, False, False]


@pytest.mark.parametrize("first, second", [
    (RowFilter(sets={"type": [None]}), RowFilter(sets={"type": ["None"]})),
    (RowFilter(sets={"type": [float("nan")]}), RowFilter(sets={"type": ["nan"]})),
    (RowFilter(sets={"on_hub": [True]}), RowFilter(sets={"on_hub": [False]})),
    (RowFilter(ranges={"score": (0.2, None)}), RowFilter(ranges={"score": (None, 0.2)})),
])
def test_filters_that_pass_other_rows_never_share_a_key(first, second):
    """The explorer keeps constraint masks by this key: one key, one mask."""
    frame = FRAME.assign(type=["None", None, "nan", "1"])
    assert first.mask(frame).tolist() != second.mask(frame).tolist()
    assert first.key() != second.key()
    # the key reads values as the mask does: True, "true" and "True" are one value
    assert RowFilter(sets={"on_hub": [True, "true"]}).key() == RowFilter(sets={"on_hub": ["True"]}).key()


def test_an_empty_filter_passes_every_row_and_an_unknown_column_is_named():
    assert RowFilter().mask(FRAME).all()
    with pytest.raises(InvalidInputError, match="missing_col"):
        RowFilter(ranges={"missing_col": (0, 1)}).mask(FRAME)


def test_filter_from_view_reads_ranges_with_one_bound_and_value_sets():
    frame = pd.DataFrame({"size": [1.0, 5.0, 12.0, None], "type": ["chat", "base", "chat", "chat"]})
    view = {"size": {"max": 10}, "type": ["chat"]}
    f = filter_from_view(view)
    assert f.ranges == {"size": (None, 10)} and f.sets == {"type": ["chat"]}
    # row 0 only: row 1 is base, row 2 above 10, row 3 has no size
    np.testing.assert_array_equal(f.mask(frame), [True, False, False, False])
    assert filter_from_view({}).is_empty


def test_cli_and_elicitation_read_a_view_through_the_one_function():
    """The CLI's preferences and the elicitation service used two copies of this reader."""
    assert cli_preferences.filter_from_view is filter_from_view
    assert elicitation.filter_from_view is filter_from_view
    assert not hasattr(cli_preferences, "view_filter")
    assert not hasattr(elicitation, "view_row_filter")


@pytest.mark.parametrize("typed, canonical", [
    ("score=0.5", "score==0.5"),
    ("type = chat", "type == chat"),
    ("score <= '0.5'", "score<=0.5"),
    ("score < ∞", "score < inf"),
])
def test_a_single_equals_quotes_and_infinity_read_as_their_canonical_form(typed, canonical):
    assert parse_condition(typed, FRAME.columns) == parse_condition(canonical, FRAME.columns)
    assert (filter_from_where([typed], FRAME.columns).mask(FRAME).tolist()
            == filter_from_where([canonical], FRAME.columns).mask(FRAME).tolist())


@pytest.mark.parametrize("text", ["cost<2", "cost <= 2", "cost=2", "cost == 2", "cost != 2",
                                  "cost>'1'", "cost >= -inf", "cost < ∞", "cost>1e0"])
def test_the_explorer_search_and_where_keep_the_same_rows_for_one_condition(text):
    from copa_dash.ui.features.explore import table_query
    frame = pd.DataFrame({"id": ["a", "b", "c", "d"], "cost": [0.5, 1.0, 2.0, 3.0]})
    kept = table_query.search(frame, text, {"cost": "cost"})
    assert kept.notes == ()
    expected = filter_from_where([text], frame.columns).mask(frame)
    assert kept.frame["id"].tolist() == frame["id"][expected].tolist()
    assert 0 < int(expected.sum()) <= len(frame)
