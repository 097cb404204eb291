"""The frame every page drawn from its URL shares: the location the view follows and the store
of its query, around the page's own stores, controls and results."""

from __future__ import annotations

from dash import dcc, html


def view_page(nav: str, query_store: str, query: str, children: list) -> html.Div:
    """The page: ``dcc.Location`` ``nav`` (a callback may navigate with it), the store
    ``query_store`` holding the view's ``query`` (without ``?``), then ``children`` (the page's
    stores, its ``html.Aside`` of controls and its ``html.Main`` of results)."""
    return html.Div(className="explore", children=[
        dcc.Location(id=nav, refresh="callback-nav"),
        dcc.Store(id=query_store, data=query),
        *children,
    ])
