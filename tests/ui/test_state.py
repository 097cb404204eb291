"""The explorer's URL state round-trips and survives hand-edited links."""

import math
from urllib.parse import parse_qs

from copa_dash.ui.features.explore.state import ExploreState, parse_query, to_query


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


def test_nearest_p_stop_takes_the_closest_stop_and_the_smaller_on_a_tie():
    from copa_dash.ui.features.explore.state import P_STOPS, nearest_p_stop

    assert [nearest_p_stop(p) for p in P_STOPS] == list(range(len(P_STOPS)))
    assert P_STOPS[nearest_p_stop(1.4)] == 1.5
    assert P_STOPS[nearest_p_stop(3.0)] == 2.0          # 2 and 4 are as close: the smaller
    assert P_STOPS[nearest_p_stop(100.0)] == 16.0
    assert P_STOPS[nearest_p_stop(1e7)] == math.inf


def test_the_slider_gives_p_unless_the_box_was_entered_or_names_a_p_at_its_stop():
    from copa_dash.ui.features.explore.state import P_STOPS
    from copa_dash.ui.features.explore.view_state import p_from_controls

    two, four = P_STOPS.index(2.0), P_STOPS.index(4.0)
    # the slider moved to 2 while the request still carries the box's old text
    assert p_from_controls("inf", two, box_entered=False) == 2.0
    assert p_from_controls("banana", two, box_entered=False) == 2.0
    # a p move's reply was dropped because alpha moved first: the box still says 2, the
    # slider shows 4, and the view must use the 4 the user sees
    assert p_from_controls("2", four, box_entered=False) == 4.0
    # a typed 2.2 moved the slider to its nearest stop (2): the typed value stays exact
    assert p_from_controls("2.2", two, box_entered=False) == 2.2
    # the box was just entered: its p, even when the slider shows another stop
    assert p_from_controls("3", four, box_entered=True) == 3.0
    assert p_from_controls("inf", two, box_entered=True) == math.inf
    assert p_from_controls("", two, box_entered=True) == math.inf
    assert math.isnan(p_from_controls("banana", two, box_entered=True))


def test_the_p_box_and_slider_follow_each_other():
    from copa_dash.ui.features.explore.state import P_STOPS
    from copa_dash.ui.features.explore.view_state import p_controls_sync

    def sync(box, stop, entered=False):
        return p_controls_sync(box, stop, box_entered=entered)

    two, four, inf = P_STOPS.index(2.0), P_STOPS.index(4.0), P_STOPS.index(math.inf)
    # any change but the box's own writes the slider's stop into the box, unless the box
    # names a p at that stop
    assert sync("inf", two) == ("2", None)
    assert sync("banana", inf) == ("inf", None)
    assert sync("2", four) == ("4", None)                       # a dropped reply, repaired
    assert sync("2.2", two) == (None, None)
    assert sync("1.4", P_STOPS.index(1.5)) == (None, None)
    # Enter in the box (or leaving it) moves the slider to the nearest stop
    assert sync("3.9", two, entered=True) == (None, four)
    assert sync("3", four, entered=True) == (None, two)         # 2 and 4 tie: the smaller
    assert sync("1e9", two, entered=True) == (None, inf)
    assert sync("Infinity", two, entered=True) == (None, inf)
    assert sync("", two, entered=True) == (None, inf)           # empty is inf, as in the view
    assert sync("2.2", two, entered=True) == (None, None)       # already there
    # text that is not a p of 1 or more moves nothing (the page says what to type)
    for text in ("banana", "0.5", "-3"):
        assert sync(text, two, entered=True) == (None, None)


def test_log_axes_round_trip_and_unknown_values_are_dropped():
    state = parse_query({"dataset": "d", "log": ["y", "x", "z"]})
    assert state.log == ("x", "y")
    assert "log=x&log=y" in to_query(state)
    assert parse_query(parse_qs(to_query(state))).log == ("x", "y")
    assert "log=none" in to_query(parse_query({"dataset": "d"}))          # linear stays linear
    assert parse_query(parse_qs("dataset=d&log=none")).log == ()


def test_leaving_the_p_box_by_moving_the_slider_lets_the_slider_win():
    from copa_dash.ui.features.explore.callbacks import P_TRIGGERS, _box_entered

    slider, submit, blur = P_TRIGGERS
    assert _box_entered([submit]) and _box_entered([blur])
    assert not _box_entered([blur, slider])
    assert not _box_entered([slider]) and not _box_entered(["."])
