"""The explorer's URL state round-trips and survives hand-edited links."""

import math
from urllib.parse import parse_qs

from copa_dash.ui.state import ExploreState, parse_query, to_query


def _parse(query: str) -> dict:
    parsed = parse_qs(query, keep_blank_values=True)
    return {k: v[0] if len(v) == 1 else v for k, v in parsed.items()}


def test_state_round_trips_through_the_query_string():
    state = ExploreState(
        dataset="open-llm-leaderboard-v2", objectives=(("ifeval", "max"), ("co2 cost", "min")),
        focus=("co2 cost",), alpha=0.3, p=math.inf, population="filtered",
        ranges=(("co2 cost", None, 5.0), ("params", 1.0, 70.0)),
        sets=(("type", ("chat", "base")),), axes="cdf", x="co2 cost", y="ifeval", compare=True)
    assert parse_query(_parse(to_query(state))) == state


def test_weights_mode_round_trips_and_p_is_readable():
    state = ExploreState(dataset="d", objectives=(("a", "min"), ("b", "max")),
                         weights=(("a", 0.25), ("b", 0.75)), p=2.0, x="a", y="b")
    query = to_query(state)
    assert "p=2" in query and "w=a:0.25" in query
    assert parse_query(_parse(query)) == state


def test_malformed_values_fall_back_to_defaults():
    state = parse_query({"dataset": "d", "alpha": "lots", "p": "0.2", "axes": "3d",
                         "obj": ["a:sideways", "b:max"], "pop": "x"})
    assert state.alpha == 0.5
    assert state.p == 1.0
    assert state.axes == "raw"
    assert state.objectives == (("b", "max"),)
    assert state.population == "all"
