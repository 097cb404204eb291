"""Brushing on Explore's parallel coordinates (issue 33, HiPlot's and optuna-dashboard's main
gesture): a range dragged on an axis becomes a range constraint on that objective, shown in the
constraint boxes and kept in the link; the constraint keeps exactly the rows passing the view's
other constraints whose u on that axis lies in the dragged range (checked against the service
on the same view); consecutive drags each replace it, and a drag that holds nothing says so."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from benchmarks._gestures import drag_on_axis
from copa_dash.services.brushing import brushed_range
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore import view_memo
from tests.e2e.app_under_test import graph_figure, none_loading, open_page, screenshot, wait_until
from tests.e2e.settle import callbacks_idle

pytestmark = pytest.mark.browser
DATASET = "dmop"


# Where the figure's plot area is on screen
_PLACE_JS = ("const g = document.querySelector('#explore-parallel .nsewdrag');"
             "const r = g && g.getBoundingClientRect();"
             "return r ? [r.left, r.top, r.width, r.height] : null;")


def _settled(dash_duo, timeout: float = 30) -> None:
    """Wait until no callback is pending and the plot area stayed in place between two looks.
    A drag goes to pixels computed just before it: a panel above the figure filled in late (the
    "How sure" answer comes in a request of its own) would move the figure under the pointer,
    and the drag would start elsewhere than the test meant."""
    last = [None]

    def still() -> bool:
        place = dash_duo.driver.execute_script(_PLACE_JS)
        # a request that only fills a dcc.Store marks no component as loading: the renderer's
        # own queues say whether an answer is still to come (tests/e2e/settle.py)
        idle = none_loading(dash_duo) and callbacks_idle(dash_duo)
        same = idle and place is not None and place == last[0]
        last[0] = place if idle else None
        return same

    wait_until(still, timeout=timeout)


def _drag(dash_duo, k: float, u_low: float, u_high: float) -> None:
    """Drag a box across axis k of the Explore page's parallel coordinates (the gesture
    bench_every_control.py times), once the page is settled."""
    _settled(dash_duo)
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
    # dragged range, and every row well inside it is kept, among the rows passing the view's
    # other constraints (there was none on this column: the rows the view kept)
    assert not [r for r in state.ranges if r[0] == column]
    u = result.problem.u[:, k]
    raw = result.problem.raw[:, k]
    others = result.problem.eligible
    kept = (raw >= float(low)) & (raw <= float(high)) & others
    assert expected is not None and kept.any()
    assert np.all((u[kept] >= 0.1 - 0.02) & (u[kept] <= 0.6 + 0.02))
    assert np.all(kept[others & (u >= 0.1 + 0.02) & (u <= 0.6 - 0.02)])
    screenshot(dash_duo, "explore-brushed")


AMLB = "amlb-2022"   # its default view: 3 objectives, one task, a handful of front lines


def _range_in_link(dash_duo, column: str):
    """The range the share link holds on ``column``, as (low, high) floats, or None."""
    for item in parse_qs(urlsplit(dash_duo.driver.current_url).query).get("range", []):
        name, low, high = item.rsplit(":", 2)
        if name == column:
            return float(low), float(high)
    return None


def _boxes(dash_duo, column: str) -> tuple[str, str]:
    return tuple(dash_duo.driver.execute_script(
        "return document.getElementById(arguments[0]).value;",
        f'{{"column":"{column}","type":"explore-range-{end}"}}') for end in ("min", "max"))


def _parallel_layout(dash_duo, key: str):
    return dash_duo.driver.execute_script(
        "const g = document.querySelector('#explore-parallel .js-plotly-plot');"
        "return g && g.layout ? g.layout[arguments[0]] : null;", key)


def test_consecutive_drags_on_one_axis_each_replace_its_constraint(dash_duo, app):
    """Issue 33 (session 14): on amlb-2022 a second drag of the same range left Plotly's
    selection box on the figure (the view did not change, so nothing redrew it), and the next
    drag, starting on that box, resized it instead of drawing a range: nothing changed. Every
    drag now replaces the axis's range (moved, widened again past the rows the last one kept),
    and one that holds no row, or no axis, says so on the figure."""
    open_page(dash_duo, app, f"/explore?dataset={AMLB}")
    graph_figure(dash_duo, "explore-parallel", timeout=90)
    dash_duo.driver.execute_script(
        "document.querySelector('#explore-parallel').scrollIntoView({block: 'center'});")
    state = view_memo.state_of(urlsplit(dash_duo.driver.current_url).query)
    result = view_memo.exploration(state)
    problem = result.problem
    k = 1
    column = problem.preferences.objectives[k]
    # the rows a brush reads: the task's (the view's set constraint), by hand
    frame = open_dataset(AMLB).table.frame
    task = np.ones(len(frame), dtype=bool)
    for name, values in state.sets:
        task &= frame[name].astype(str).isin([str(v) for v in values]).to_numpy()
    task = task[problem.rows]
    u, raw = problem.u[:, k], problem.raw[:, k]

    def expected(low, high):
        inside = task & (u >= low) & (u <= high)
        # a drag's edges map back to u within a pixel or two: none may sit near a row
        assert not np.any(task & (np.abs(u - low) < 0.015) | task & (np.abs(u - high) < 0.015))
        return (float(raw[inside].min()), float(raw[inside].max())) if inside.any() else None

    seen = []
    for low, high in [(0.1, 0.58), (0.1, 0.58), (0.15, 0.7), (0.0, 1.0), (0.3, 0.8)]:
        want = expected(low, high)
        _drag(dash_duo, k, low, high)
        try:
            wait_until(lambda w=want: _range_in_link(dash_duo, column) == w, timeout=30)
        except AssertionError:
            raise AssertionError(f"after a drag over u {low}-{high} the link holds "
                                 f"{_range_in_link(dash_duo, column)}, not {want}") from None
        # the figure drawn after the brush holds no selection box a next drag could move
        wait_until(lambda: not _parallel_layout(dash_duo, "selections"), timeout=30)
        assert tuple(float(v) for v in _boxes(dash_duo, column)) == want
        seen.append(want)
    assert seen[0] == seen[1] and len(set(seen)) == 4           # a repeat; every other drag new
    assert seen[3] == (float(raw[task].min()), float(raw[task].max()))   # widened again
    assert seen[3][0] < seen[2][0] and seen[3][1] > seen[2][1]
    screenshot(dash_duo, "explore-brushed-again")

    # a drag over no line of the axis, then one between two axes: said on the figure, the
    # constraint as it was
    held = np.sort(u[task])
    gap = int(np.argmax(np.diff(held)))
    low, high = held[gap] + 0.02, held[gap + 1] - 0.02
    assert high - low > 0.05 and expected(low, high) is None
    for x, words in [(k, f"No row passing the other constraints lies where you dragged on {column}"),
                     (0.5, "crosses no axis")]:
        _drag(dash_duo, x, low, high)
        wait_until(lambda w=words: any(w in (a.get("text") or "").replace("<br>", " ")
                                       for a in _parallel_layout(dash_duo, "annotations") or ()),
                   timeout=30)
        assert _range_in_link(dash_duo, column) == seen[-1]
        assert tuple(float(v) for v in _boxes(dash_duo, column)) == seen[-1]
    screenshot(dash_duo, "explore-brush-holds-nothing")
