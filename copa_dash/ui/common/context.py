"""One working context across pages, and the first start's compile progress, in the shell.

The dataset follows the user. The shell keeps, in the browser (``localStorage``), the last
dataset a page's link named (``dataset=``). A dataset page (:data:`DATASET_PAGES`) opened
with no dataset in its link (the navigation links, a typed address) gets the last one added
to its link, and so draws it; every dataset page shows a bar under the header naming the
dataset, with a link to switch; the header's links to dataset pages carry it too. Done in
the browser (a clientside callback) so a move
between pages costs no extra request.

While numba kernels compile (the first start on an empty cache, see
:mod:`copa_dash.core.jit`), a line under the header says so, polled every two seconds
until nothing compiles.
"""

from __future__ import annotations

from dash import ALL, Input, Output, State, dcc, html

from copa_dash.services.warmup import compile_progress

DATASET_PAGES = ("/explore", "/rankings", "/systems", "/generalization", "/posets")


class ContextIds:
    """Component ids of the shell's context pieces."""

    URL = "context-url"
    LAST = "context-last-dataset"
    BAR = "context-bar"
    NAME = "context-dataset-name"
    COMPILE = "context-compile"
    COMPILE_POLL = "context-compile-poll"
    NAV = "nav-link"


def nav_link(label: str, href: str) -> dcc.Link:
    """A header link; on dataset pages it carries the last dataset (see the module notes)."""
    return dcc.Link(label, href=href, className="nav-link", id={"type": ContextIds.NAV, "path": href})


def context_bar() -> list:
    """The shell's pieces: location, the browser-local last dataset, the dataset bar and
    the compile-progress line."""
    return [
        dcc.Location(id=ContextIds.URL, refresh=False),
        dcc.Store(id=ContextIds.LAST, storage_type="local"),
        html.Div(id=ContextIds.BAR, className="context-bar", style={"display": "none"},
                 children=[
                     html.Span("Dataset: "), html.Strong(id=ContextIds.NAME),
                     html.Span(" - it stays with you on every page. "),
                     dcc.Link("Switch dataset", href="/", className="context-switch"),
                 ]),
        html.Div(id=ContextIds.COMPILE, className="context-compile", role="status"),
        dcc.Interval(id=ContextIds.COMPILE_POLL, interval=2000, n_intervals=0),
    ]


# pathname, search, last -> (search, last, bar style, dataset name)
_FOLLOW_DATASET = """
function (pathname, search, last) {
    const pages = PAGES;
    const params = new URLSearchParams(search || '');
    const named = params.get('dataset');
    const hidden = {display: 'none'};
    if (!pages.includes(pathname)) {
        return [window.dash_clientside.no_update, window.dash_clientside.no_update, hidden, ''];
    }
    if (named) {
        return [window.dash_clientside.no_update, named, {}, named];
    }
    if (last) {
        params.set('dataset', last);
        return ['?' + params.toString(), window.dash_clientside.no_update, {}, last];
    }
    return [window.dash_clientside.no_update, window.dash_clientside.no_update,
            {}, 'the page\\'s example (pick another on the Datasets page)'];
}
""".replace("PAGES", str(list(DATASET_PAGES)))


_NAV_HREFS = """
function (last, ids) {
    const pages = PAGES;
    return ids.map(id => (last && pages.includes(id.path))
        ? id.path + '?dataset=' + encodeURIComponent(last) : id.path);
}
""".replace("PAGES", str(list(DATASET_PAGES)))


def register_context_callbacks(app) -> None:
    """The clientside dataset follower, the header links and the compile-progress poll."""
    app.clientside_callback(
        _NAV_HREFS, Output({"type": ContextIds.NAV, "path": ALL}, "href"),
        Input(ContextIds.LAST, "data"), State({"type": ContextIds.NAV, "path": ALL}, "id"))
    app.clientside_callback(
        _FOLLOW_DATASET,
        Output(ContextIds.URL, "search"), Output(ContextIds.LAST, "data"),
        Output(ContextIds.BAR, "style"), Output(ContextIds.NAME, "children"),
        Input(ContextIds.URL, "pathname"), Input(ContextIds.URL, "search"),
        State(ContextIds.LAST, "data"))

    @app.callback(Output(ContextIds.COMPILE, "children"),
                  Output(ContextIds.COMPILE_POLL, "disabled"),
                  Input(ContextIds.COMPILE_POLL, "n_intervals"))
    def show_compile_progress(_):
        text = compile_progress()
        return text, not text
