"""Callbacks of the "Help me choose" panel: answer, undo, and apply the learnt preferences.

The answers live in the panel's store and in the view's URL (``choose=ab=a``): each question
follows from the answers before it, so the string replays the session on a shared link.
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs

from dash import ALL, Input, Output, State, ctx, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import elicitation as service
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.common.url_sync import view_link
from copa_dash.ui.features.explore import choose_panel
from copa_dash.ui.features.explore.choose_panel import ChooseIds as CH
from copa_dash.ui.features.explore.ids import ExploreIds as ID
from copa_dash.ui.features.explore.layout import PATH
from copa_dash.ui.features.explore.state import (
    ExploreState,
    format_p,
    nearest_p_stop,
    parse_query,
    to_query,
)
from copa_dash.ui.features.explore.view_state import preferences_and_filter

ACTIONS = {f"{CH.THIS}.n_clicks": "a", f"{CH.THAT}.n_clicks": "b", f"{CH.TIE}.n_clicks": "=",
           f"{CH.UNDO}.n_clicks": "undo"}


def view_of(query: str) -> ExploreState:
    """The explorer's state from its query string."""
    return parse_query({k: v[0] if len(v) == 1 else v for k, v in parse_qs(query or "").items()})


def problem_of(state: ExploreState) -> service.ChoiceProblem:
    """The models the panel asks about: the front of the view's eligible rows."""
    opened = open_dataset(state.dataset, current_settings())
    prefs, row_filter = preferences_and_filter(state, opened.table)
    return service.view_choice_problem(opened, prefs, row_filter, cache=current_cache())


def step(problem, answers: str, action: str | None) -> service.Session:
    """The session after ``action`` (an answer, "undo" or None) on top of ``answers``."""
    if action == "undo":
        return service.run_session(problem, service.undo(answers))
    session = service.run_session(problem, answers)
    if action in ("a", "b", "=") and session.question is not None:
        session = service.answer(problem, session, action)
    return session


def panel_outputs(problem, session: service.Session) -> tuple:
    """Cards, progress line and the buttons' disabled flags for ``session``."""
    summary = session.summary
    pick = problem.ids[summary.recommendation]
    progress = choose_panel.progress_text(len(session.answers), summary.probability, pick,
                                          len(summary.credible_set), session.done, summary.p)
    if session.question is None:
        rec = summary.recommendation
        cards = choose_panel.cards(service.compare(problem, rec, rec), pick, pick)[:1]
    else:
        q = session.question
        cards = choose_panel.cards(service.compare(problem, q.a, q.b),
                                   problem.ids[q.a], problem.ids[q.b])
    finished = session.question is None
    return cards, progress, finished, finished, finished, not session.answers, not session.answers


def register(app) -> None:
    """Attach the panel's callbacks to ``app``."""

    @app.callback(
        Output(CH.ANSWERS, "data"), Output(CH.CARDS, "children"), Output(CH.PROGRESS, "children"),
        Output(CH.THIS, "disabled"), Output(CH.THAT, "disabled"), Output(CH.TIE, "disabled"),
        Output(CH.UNDO, "disabled"), Output(CH.APPLY, "disabled"),
        Output(ID.QUERY, "data", allow_duplicate=True), Output(ID.SHARE, "value", allow_duplicate=True),
        Input(CH.THIS, "n_clicks"), Input(CH.THAT, "n_clicks"), Input(CH.TIE, "n_clicks"),
        Input(CH.UNDO, "n_clicks"), Input(CH.OPEN, "n_clicks"),
        State(CH.ANSWERS, "data"), State(ID.QUERY, "data"),
        prevent_initial_call="initial_duplicate")
    def answer(_this, _that, _tie, _undo, opened, answers, query):
        """One answer (or undo) and the next question; the URL keeps the answers. On the
        page's first load only a link with answers fills the panel."""
        action = next((ACTIONS[t] for t in ctx.triggered_prop_ids if t in ACTIONS), None)
        if action is None and not opened and not answers:
            raise PreventUpdate
        state = view_of(query)
        try:
            problem = problem_of(state)
            session = step(problem, answers or "", action)
        except InvalidInputError as exc:
            return (no_update, [], alert(str(exc), "warning"), True, True, True, True, True,
                    no_update, no_update)
        shown = panel_outputs(problem, session)
        return (session.answers, *shown, *view_link(PATH, to_query(replace(state, choose=session.answers))))

    app.clientside_callback(
        """function(n, style) {
            const shown = style && style.display === 'block';
            return [{display: shown ? 'none' : 'block'}, shown ? 'choose-open' : 'choose-open shown'];
        }""", Output(CH.BODY, "style"), Output(CH.OPEN, "className"), Input(CH.OPEN, "n_clicks"),
        State(CH.BODY, "style"), prevent_initial_call=True)

    @app.callback(
        Output(ID.MODE, "value", allow_duplicate=True), Output(ID.FOCUS, "value", allow_duplicate=True),
        Output(ID.ALPHA, "value", allow_duplicate=True),
        Output({"type": ID.WEIGHT, "column": ALL}, "value", allow_duplicate=True),
        Output(ID.P_SLIDER, "value", allow_duplicate=True), Output(ID.P_INPUT, "value", allow_duplicate=True),
        Output(CH.APPLIED, "children"),
        Input(CH.APPLY, "n_clicks"), State(CH.ANSWERS, "data"), State(ID.QUERY, "data"),
        State({"type": ID.WEIGHT, "column": ALL}, "id"),
        State({"type": ID.WEIGHT, "column": ALL}, "value"), prevent_initial_call=True)
    def apply(_clicks, answers, query, weight_ids, weight_values):
        """Set focus + alpha (when they fit) or the weights, and p, to what the answers say."""
        problem = problem_of(view_of(query))
        prefs = service.preferences(problem, service.run_session(problem, answers or ""))
        weights = [prefs["weights"].get(i["column"], v) for i, v in zip(weight_ids, weight_values)]
        mode = "alpha" if prefs["use_alpha"] else "weights"
        focus = prefs["focus"] if prefs["use_alpha"] else no_update
        alpha = prefs["alpha"] if prefs["use_alpha"] else no_update
        return (mode, focus, alpha, weights, nearest_p_stop(prefs["p"]), format_p(prefs["p"]),
                choose_panel.applied_text(prefs))
