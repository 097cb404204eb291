"""The permutation test's Run button: kept disabled while a form value is out of range (with
the range stated), and the message line cleared on a new run and set to "cancelled" after a
cancel, so no stale error stays beside a result it does not belong to."""

from __future__ import annotations

from dash import Input, Output

from copa_dash.services.systems import MAX_PERMUTATIONS
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.features.systems.ids import SystemsIds as ID

CANCELLED = ("Cancelled: the test was stopped before it finished, so nothing was computed. "
             "Your settings are kept; run it again when you like.")


def _whole(value) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if float(value).is_integer() else None


def run_check(permutations, seed) -> str | None:
    """Why Run cannot start with these form values (None when it can).

    Examples
    --------
    >>> run_check(5000, 0) is None
    True
    >>> run_check(0, 0)
    'permutations must be a whole number from 1 to 1,000,000; Run waits for one.'
    >>> run_check(10, -1)
    'the random seed must be a whole number of 0 or more; Run waits for one.'
    """
    count = _whole(permutations)
    if count is None or not 1 <= count <= MAX_PERMUTATIONS:
        return (f"permutations must be a whole number from 1 to {MAX_PERMUTATIONS:,}; "
                "Run waits for one.")
    number = _whole(seed)
    if number is None or number < 0:
        return "the random seed must be a whole number of 0 or more; Run waits for one."
    return None


def register_run_guard(app) -> None:
    """Attach the range check, the clearing on Run and the message on Cancel to ``app``."""

    @app.callback(Output(ID.RUN, "disabled", allow_duplicate=True),
                  Output(ID.TEST_ALERT, "children", allow_duplicate=True),
                  Input(ID.PERMUTATIONS, "value"), Input(ID.SEED, "value"),
                  prevent_initial_call=True)
    def guard(permutations, seed):
        problem = run_check(permutations, seed)
        return problem is not None, alert(problem) if problem else None

    @app.callback(Output(ID.TEST_ALERT, "children", allow_duplicate=True),
                  Input(ID.RUN, "n_clicks"), prevent_initial_call=True)
    def clear_on_run(_clicks):
        return None

    @app.callback(Output(ID.TEST_ALERT, "children", allow_duplicate=True),
                  Input(ID.CANCEL, "n_clicks"), prevent_initial_call=True)
    def say_cancelled(clicks):
        return alert(CANCELLED, "info") if clicks else None
