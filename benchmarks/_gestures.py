"""Pointer gestures a browser test or benchmark makes on the app's figures, written once.

``tests/e2e/test_explore_brushing.py`` checks what a drag does and
``bench_every_control.py`` times it: both drag through :func:`drag_on_axis`, so the timed
gesture is the tested one.
"""

from __future__ import annotations

# where a parallel-coordinates axis value lies on screen: the plot area's left/top edge in
# the viewport plus Plotly's linear-to-pixel map of the figure's x (axis index) and y (u)
_AXIS_POINTS_JS = (
    "const g = arguments[0], xa = g._fullLayout.xaxis, ya = g._fullLayout.yaxis;"
    "const r = g.querySelector('.nsewdrag').getBoundingClientRect();"
    "return [r.left + xa.l2p(arguments[1]), r.top + ya.l2p(arguments[2]),"
    "        r.top + ya.l2p(arguments[3])];")


def drag_on_axis(driver, graph, k: int, u_low: float, u_high: float) -> None:
    """Drag a box across axis ``k`` of the parallel-coordinates figure ``graph`` (its
    ``.js-plotly-plot`` element) from ``u_low`` to ``u_high``.

    The pointer moves in viewport pixels (W3C pointer actions), not by element offsets,
    which selenium takes from an element's visible centre; the box is 50 px wide around
    the axis, and passes through one point 10 px below the start so that Plotly sees a
    drag rather than a click.
    """
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    x, y0, y1 = driver.execute_script(_AXIS_POINTS_JS, graph, k, u_low, u_high)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(int(x - 25), int(y0))
    actions.pointer_action.pointer_down()
    actions.pointer_action.move_to_location(int(x), int(y0 + 10))
    actions.pointer_action.move_to_location(int(x + 25), int(y1))
    actions.pointer_action.pointer_up()
    actions.perform()
