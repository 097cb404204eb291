"""explore/robustness_panel.after_the_answer: the "How sure" work of a new view starts once the
view's answer is sent (its kernels hold the interpreter and would slow the answer down), right
away outside a request, and a failure to start never reaches the view's answer."""

from __future__ import annotations

import flask

from copa_dash.ui.features.explore.robustness_panel import after_the_answer


def _app(ran, work):
    app = flask.Flask("after-the-answer")

    @app.route("/")
    def index():
        after_the_answer(work)
        ran.append("answered")
        return "the view"

    return app


def test_the_work_runs_once_the_answer_is_sent():
    ran = []
    response = _app(ran, lambda: ran.append("work")).test_client().get("/")
    assert response.data == b"the view"
    assert ran == ["answered"]                 # not while the answer is being made
    response.close()                            # the server has sent it
    assert ran == ["answered", "work"]


def test_outside_a_request_the_work_runs_at_once():
    ran = []
    after_the_answer(lambda: ran.append("work"))
    assert ran == ["work"]


def test_a_failing_start_is_logged_not_raised(caplog):
    def broken():
        raise RuntimeError("no thread")

    response = _app([], broken).test_client().get("/")
    assert response.status_code == 200
    response.close()
    assert "could not start" in caplog.text
