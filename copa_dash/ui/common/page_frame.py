"""The frame every page drawn from its URL shares: the location the view follows and the store
of its query, around the page's own stores, controls and results."""

from __future__ import annotations

from dash import dcc, html

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
