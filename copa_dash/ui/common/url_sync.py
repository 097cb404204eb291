"""What every page does with its URL: the dataset picker opens the new dataset's default
view, and the view's link is written into the page's share box, which the address bar
follows (``assets/url_sync.js``).

The page's own callback writes the share box (:func:`share_url`) in the same response that
redraws the view. A separate callback chained on the view's query store, as before, cost
every slider move a second pass through Dash's callback machinery: about 30 ms in the
explorer (``benchmarks/bench_explore_browser.py``).
"""

from __future__ import annotations

import re

from dash import Input, Output, State, dcc, get_relative_path, html, no_update
from dash.exceptions import PreventUpdate, UnsupportedRelativePath
from flask import has_request_context, request

from copa_dash.services.views.links import dataset_link

# an origin as a browser sends it: scheme, host and an optional port, nothing else
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+")


def share_url(path: str, query: str) -> str:
    """The absolute link of a page's view, e.g. ``https://host/explore?dataset=x&alpha=0.5``.

    The origin is the one the browser sees: the request's ``Origin`` header, which browsers
    send with every callback request and which a reverse proxy passes on unchanged; without
    it, the host the request reached. The path carries the app's URL prefix, if it has one.
    Outside a request (unit tests), the link is relative.
    """
    origin = ""
    if has_request_context():
        header = request.headers.get("Origin", "")
        origin = header if valid_origin(header) else request.host_url.rstrip("/")
        path = _prefixed(path)
    return f"{origin}{path}?{query}" if query else f"{origin}{path}"


def valid_origin(header: str) -> bool:
    """True for an origin as browsers send it: scheme, host and an optional port, nothing
    else (not ``null``, no path, no line break)."""
    return _ORIGIN.fullmatch(header or "") is not None


def _prefixed(path: str) -> str:
    """``path`` under the app's ``requests_pathname_prefix`` (``/`` when it has none)."""

    try:
        return get_relative_path(path)
    # no Dash app in this process (a bare Flask request): dash's CONFIG has no
    # requests_pathname_prefix (AttributeError); a path without a leading "/": left as given
    except (AttributeError, UnsupportedRelativePath):
        return path


def view_link_outputs(query: str, share: str) -> tuple[Output, Output]:
    """The two outputs that record a page's view: the store of its query string and its share
    box. A page's drawing callback returns :func:`view_link` into them."""
    return Output(query, "data"), Output(share, "value")


def view_link(path: str, query) -> tuple:
    """The values of :func:`view_link_outputs`: the query string and the view's absolute link
    (``no_update`` for both when ``query`` is ``no_update``)."""
    if query is no_update:
        return no_update, no_update
    return query, share_url(path, query)


def share_box(share: str, path: str, query: str) -> list:
    """The share row's box and copy button, filled with the view's link as the page opens.

    The box is a read-only one-row ``dcc.Textarea``, styled as a line (``assets/style.css``):
    it writes a new link into the document in the same render as the answer that brings it.
    Dash 4's ``dcc.Input`` writes its value only in an effect after the page is painted,
    after the figures' draw, and the address bar and the header's links, which follow the
    box (``assets/url_sync.js``), waited for it (docs/benchmarks.md, session 22 (2)).
    """
    return [html.Label("link to this view", htmlFor=share, className="visually-hidden"),
            dcc.Textarea(id=share, readOnly=True, className="share-link", rows=1, wrap="off",
                         spellCheck=False, value=share_url(path, query)),
            dcc.Clipboard(target_id=share, title="copy the link")]


def register_url_sync(app, *, path: str, nav: str, dataset: str, ref: str) -> None:
    """Attach the dataset picker's callback of a page: picking another dataset opens its
    default view.

    Parameters
    ----------
    path : str
        The page's path, e.g. ``"/rankings"``.
    nav, dataset, ref : str
        Ids of the page's ``dcc.Location`` (refresh="callback-nav"), dataset dropdown and store
        of the open dataset's reference.
    """
    @app.callback(Output(nav, "href"), Input(dataset, "value"), State(ref, "data"),
                  prevent_initial_call=True)
    def change_dataset(chosen, current):
        """Picking another dataset opens its default view."""
        if not chosen or chosen == current:
            raise PreventUpdate
        return dataset_link(path.strip("/"), chosen)
