"""The frame every page drawn from its URL shares: the location the view follows and the store
of its query, around the page's own stores, controls and results."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.ui.common.alerts import empty_state

# the store of the page's notes on the working context; the shell's bar shows them
PAGE_NOTES = "context-page-notes"


def view_page(nav: str, query_store: str, query: str, children: list,
              context_notes: list[str] | None = None) -> html.Div:
    """The page: ``dcc.Location`` ``nav`` (a callback may navigate with it), the store
    ``query_store`` holding the view's ``query`` (without ``?``), the store of what the page
    says about the working context (``context_notes``, shown in the shell's context bar, see
    :mod:`copa_dash.ui.common.working_context`), then ``children`` (the page's stores, its
    ``html.Aside`` of controls and its ``html.Main`` of results)."""
    return html.Div(className="explore", children=[
        dcc.Location(id=nav, refresh="callback-nav"),
        dcc.Store(id=query_store, data=query),
        dcc.Store(id=PAGE_NOTES, data=context_notes or []),
        *children,
    ])


def empty_state_page(nav: str, query_store: str, query: str, *, stores: list,
                     picker, title: str, description: str, message,
                     links: list = (), message_id: str | None = None) -> html.Div:
    """A page whose dataset cannot be shown (no systems, no validation/test pairs, ...), in
    one shape for every page: the controls column with the dataset ``picker`` and what the
    dataset is, and beside it the shared empty state (:func:`~copa_dash.ui.common.alerts.
    empty_state`): the ``message`` saying why, and ``links`` to go on from, in one box
    (id ``message_id``); no tabs, tables or empty figure frames under it."""
    return view_page(nav, query_store, query, children=[
        *stores,
        html.Aside(className="controls", children=[
            html.H4("Dataset"), picker,
            html.Details([html.Summary(f"About: {title}"), html.P(description)]),
        ]),
        html.Main(className="results", children=[
            empty_state(message, links, component_id=message_id)]),
    ])
