"""A background job that was lost (its Celery worker died, or Redis went away) is said so in
the page, with a button that runs it again, instead of a spinner for ever.

The job manager (:class:`copa_dash.ui.background.FailoverManager`) hands Dash an error whose
message starts with :data:`copa_dash.services.jobs.JOB_LOST`; the app's error handler
(:mod:`copa_dash.ui.common.errors`) shows :func:`lost_job_alert`. "Run it again" presses the
button that started the job (the Systems page's "Run the test") or, when the job started
with the page itself (the Posets page's depth), reloads the page: its view is in the URL, so
the same job starts again.
"""

from __future__ import annotations

from dash import Input, Output, State, html

from copa_dash.services.jobs import JOB_LOST

RERUN = "lost-job-rerun"

# A clientside callback: pressing a button needs no server round trip, and a reload must
# come from the browser anyway.
_RERUN_JS = """
function(clicks, target) {
    if (!clicks) { return window.dash_clientside.no_update; }
    const button = target ? document.getElementById(target) : null;
    if (button && button.tagName === 'BUTTON') {
        window.setTimeout(() => button.click(), 0);
    } else {
        window.location.reload();
    }
    return null;
}
"""


def is_lost_job(error: Exception) -> bool:
    """True for the error of a job the manager reported lost."""
    return JOB_LOST in str(error)


def lost_reason(error: Exception) -> str:
    """Why the job was lost, in the manager's words (the text after the marker)."""
    text = str(error)
    return text[text.index(JOB_LOST) + len(JOB_LOST):].split("\n", 1)[0].strip()


def lost_job_alert(error: Exception, trigger) -> html.Div:
    """The message and its "Run it again" button; ``trigger`` is the id of the component
    that started the job (a button is pressed again; anything else reloads the page)."""
    target = trigger if isinstance(trigger, str) else ""
    return html.Div(className="alert alert-warning lost-job", children=[
        html.Span(f"The background job was lost ({lost_reason(error)}), so nothing was "
                  "computed. Your settings are kept: "),
        html.Button("Run it again", id=RERUN, value=target, n_clicks=0,
                    className="button"),
    ])


def register(app) -> None:
    """The "Run it again" button's clientside callback (it clears the message too)."""
    app.clientside_callback(
        _RERUN_JS, Output("global-error", "children", allow_duplicate=True),
        Input(RERUN, "n_clicks"), State(RERUN, "value"), prevent_initial_call=True)
