"""Waits that prove an action took effect in the page, for the browser tests: a figure redrawn
from a new answer (not the one on show before the action), and Dash's renderer with no callback
left to run. A wait on a state that was already true before a click passes before the click's
answer has come back, and what is read next belongs to the old view (tests/e2e, session 20)."""

from __future__ import annotations

from tests.e2e.app_under_test import wait_until

# Plotly.react, which dcc.Graph calls with every new figure, sets gd.data to the new figure's
# array: a mark on the array on show is gone once a new answer is drawn (a restyle or a resize
# keeps the array, and so the mark)
_MARK = """
const gd = document.querySelector(arguments[0] + ' .js-plotly-plot');
if (!gd || !gd.data) { return false; }
gd.data.copaSeen = true;
return true;
"""
_REDRAWN = """
const gd = document.querySelector(arguments[0] + ' .js-plotly-plot');
return !!(gd && gd.data && gd.data.length && !gd.data.copaSeen)
    ? {data: gd.data, layout: gd.layout} : null;
"""

# The renderer's callback queues (dash-renderer's store, as dash[testing]'s redux_state_rqs
# reads them): a callback asked for, waiting for its inputs, sent, or answered but not yet
# applied. A follow-up callback is queued in the same step that applies the outputs it
# depends on, so all empty means nothing more is coming.
_IDLE = """
const callbacks = window.store && window.store.getState().callbacks;
if (!callbacks) { return false; }
return ['requested', 'prioritized', 'blocked', 'executing', 'watched', 'executed']
    .every(queue => !callbacks[queue] || callbacks[queue].length === 0);
"""


def figure_after(dash_duo, graph_id: str, action, timeout: float = 60) -> dict:
    """Run ``action()`` and return the plotly data and layout of the dcc.Graph ``graph_id``
    once a figure sent after it is drawn (the figure on show before it does not count).

    The page is let settle first (no callback left to run), so that a figure still on its
    way from before the action is not taken for the action's answer.

    Raises AssertionError when no new figure is drawn within ``timeout`` s."""
    wait_until(lambda: callbacks_idle(dash_duo)
               and dash_duo.driver.execute_script(_MARK, f"#{graph_id}"), timeout=timeout)
    action()
    drawn = {}

    def redrawn() -> bool:
        drawn.update(dash_duo.driver.execute_script(_REDRAWN, f"#{graph_id}") or {})
        return bool(drawn)

    try:
        wait_until(redrawn, timeout=timeout)
    except AssertionError:
        raise AssertionError(f"{graph_id} was not drawn again within {timeout} s") from None
    return drawn


def callbacks_idle(dash_duo) -> bool:
    """Whether Dash's renderer has no callback to send, in flight or to apply."""
    return bool(dash_duo.driver.execute_script(_IDLE))
