"""The lost-job message: the manager's reason in words, and what "Run it again" presses."""

from __future__ import annotations

from dash.exceptions import BackgroundCallbackError

from copa_dash.services.jobs import lost_result
from copa_dash.ui.common.lost_job import RERUN, is_lost_job, lost_job_alert, lost_reason


def _dash_error(result: dict) -> BackgroundCallbackError:
    """The exception Dash raises for a background callback's error result."""
    error = result["background_callback_error"]
    return BackgroundCallbackError(
        f"An error occurred inside a background callback: {error['msg']}\n{error['tb']}")


def test_a_lost_job_is_recognised_with_its_reason():
    error = _dash_error(lost_result("its worker stopped before it finished"))
    assert is_lost_job(error)
    assert lost_reason(error) == "its worker stopped before it finished"
    assert not is_lost_job(BackgroundCallbackError("An error occurred: ZeroDivisionError"))


def test_run_it_again_presses_the_button_that_started_the_job_or_reloads():
    error = _dash_error(lost_result("no background worker is running"))
    alert = lost_job_alert(error, "systems-run")
    text, button = alert.children
    assert "was lost (no background worker is running)" in text.children
    assert button.id == RERUN and button.value == "systems-run"
    # a job started by a pattern-matching id or by the page load: the button reloads
    assert lost_job_alert(error, {"type": "x", "index": 1}).children[1].value == ""
    assert lost_job_alert(error, None).children[1].value == ""
