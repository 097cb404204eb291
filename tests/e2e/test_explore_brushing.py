"""Brushing on Explore's parallel coordinates (issue 33, HiPlot's and optuna-dashboard's main
gesture): a range dragged on an axis becomes a range constraint on that objective, shown in the
constraint boxes and kept in the link; the constraint keeps exactly the rows whose u on that
axis lies in the dragged range (checked against the service on the same view)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from benchmarks._gestures import drag_on_axis
from copa_dash.services.brushing import brushed_range
from copa_dash.ui.features.explore import view_memo
from tests.e2e.app_under_test import graph_figure, open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "dmop"


def _drag(dash_duo, k: int, u_low: float, u_high: float) -> None:
    """Drag a box across axis k of the Explore page's parallel coordinates (the gesture
    bench_every_control.py times)."""
    graph = dash_duo.driver.find_element("css selector", "#explore-parallel .js-plotly-plot")
    drag_on_axis(dash_duo.driver, graph, k, u_low, u_high)


def test_a_range_dragged_on_an_axis_becomes_its_constraint(dash_duo, app):
    open_page(dash_duo, app, f"/explore?dataset={DATASET}")
    figure = graph_figure(dash_duo, "explore-parallel", timeout=90)
    assert figure["layout"]["dragmode"] == "select"
    dash_duo.driver.execute_script(
        "document.querySelector('#explore-parallel').scrollIntoView({block: 'center'});")
    query = urlsplit(dash_duo.driver.current_url).query
    state = view_memo.state_of(query)
    result = view_memo.exploration(state)
    names = list(result.problem.preferences.objectives)
    k = 1
    _drag(dash_duo, k, 0.1, 0.6)
    column = names[k]
    wait_until(lambda: any(item.startswith(f"{column}:") for item in
                           parse_qs(urlsplit(dash_duo.driver.current_url).query).get("range", [])),
               timeout=30)
    expected = brushed_range(result.problem, k, 0.1, 0.6)
    low = dash_duo.driver.execute_script(
        "return document.getElementById(arguments[0]).value;",
        f'{{"column":"{column}","type":"explore-range-min"}}')
    high = dash_duo.driver.execute_script(
        "return document.getElementById(arguments[0]).value;",
        f'{{"column":"{column}","type":"explore-range-max"}}')
    # the brush's pixels map back to u within a pixel or two: every kept row has u in the
    # dragged range, and every row well inside it is kept
    u = result.problem.u[:, k]
    raw = result.problem.raw[:, k]
    kept = (raw >= float(low)) & (raw <= float(high))
    assert expected is not None and kept.any()
    assert np.all((u[kept] >= 0.1 - 0.02) & (u[kept] <= 0.6 + 0.02))
    assert np.all(kept[(u >= 0.1 + 0.02) & (u <= 0.6 - 0.02)])
    screenshot(dash_duo, "explore-brushed")
