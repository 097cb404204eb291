"""Log axes by default when an objective spans more than two decades (issue 19)."""

import numpy as np

from copa_dash.services import explorer
from copa_dash.services.catalog import open_dataset
from copa_dash.services.views.log_axes import default_log_axes, spans_decades
from copa_dash.ui.features.explore.figures import front_figure
from copa_dash.ui.features.explore.state import parse_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter


def test_spans_decades_needs_positive_values_over_two_decades():
    assert spans_decades([0.5, 1.0, 51.0])
    assert not spans_decades([0.5, 1.0, 49.0])
    assert not spans_decades([0.0, 1.0, 1000.0])          # zero: a log axis cannot show it
    assert not spans_decades([np.nan, 5.0])


def test_open_llm_starts_with_log_x_for_co2_and_says_so_on_the_axis():
    opened = open_dataset("open-llm-leaderboard-v2")
    co2 = opened.table.matrix(["co2_cost"])
    assert co2.max() / co2.min() > 100                    # the data this default is for
    state = with_defaults(parse_query({"dataset": ["open-llm-leaderboard-v2"]}), opened,
                          given={"dataset"})
    assert state.x == "co2_cost" and state.log == ("x",)
    assert default_log_axes(opened.table, state.y, state.y) == ()
    kept = with_defaults(parse_query({"dataset": ["open-llm-leaderboard-v2"], "log": ["none"]}),
                         opened, given={"dataset", "log"})
    assert kept.log == ()


def test_front_figure_axis_title_says_log_scale():
    opened = open_dataset("open-llm-leaderboard-v2")
    state = with_defaults(parse_query({"dataset": ["open-llm-leaderboard-v2"]}), opened,
                          given={"dataset"})
    prefs, row_filter = preferences_and_filter(state, opened.table)
    result = explorer.explore(opened, prefs, row_filter)
    layout = front_figure(result, mode="raw", x=state.x, y=state.y, log=state.log)["layout"]
    assert layout["xaxis"]["type"] == "log"
    assert layout["xaxis"]["title"]["text"].endswith(", log scale")
    assert layout["yaxis"]["type"] == "linear"
    assert "log scale" not in layout["yaxis"]["title"]["text"]
