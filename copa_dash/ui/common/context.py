"""One working context across pages, and the first start's compile progress, in the shell.

The dataset follows the user, and with it the working context: the objectives, directions
and constraints chosen on Explore (:mod:`copa_dash.ui.common.working_context` holds their
codec and says how they travel). The shell keeps, in the browser (``localStorage``), the last
dataset a page's link named (``dataset=``) and Explore's settings for it. A dataset page
(:data:`DATASET_PAGES`) opened with no dataset in its link (the navigation links, a typed
address) gets the last one added to its link, and so draws it; a link with no settings of
its own gets the context too (``ctx_`` keys), which the page's ``state.apply_context``
takes what it can use of. Every dataset page shows a bar under the header naming the
dataset, with a link to switch and the page's notes on the context (what it applied, what it
could not and why); the header's links to dataset pages carry it too. Done in the browser
(``assets/context.js``, clientside callbacks) so a move between pages costs no extra
request.

While numba kernels compile (the first start on an empty cache, see
:mod:`copa_dash.core.jit`), a line under the header says so, polled every two seconds
until nothing compiles.
"""

from __future__ import annotations

from dash import ALL, ClientsideFunction, Input, Output, State, dcc, html, no_update

from copa_dash.services.catalog import dataset_label, is_upload_id
from copa_dash.services.warmup import compile_progress
from copa_dash.ui.common.my_uploads import MY_UPLOADS
from copa_dash.ui.common.page_frame import PAGE_NOTES
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.working_context import KEYS, PREFIX

DATASET_PAGES = ("/explore", "/rankings", "/systems", "/generalization", "/posets")
CONTEXT_SOURCE = "/explore"     # the page whose objectives and constraints are the context
SEEN_NAMES = 50                 # uploads whose names the browser keeps, to name them once deleted


class ContextIds:
    """Component ids of the shell's context pieces."""

    URL = "context-url"
    LAST = "context-last-dataset"
    SEEN = "context-seen-names"
    BAR = "context-bar"
    NAME = "context-dataset-name"
    REF = "context-dataset-ref"
    CONFIG = "context-config"
    LINK_NOTE = "context-link-note"
    PAGE_NOTES = "context-page-notes-text"
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
        # "callback-nav": when the follower adds the dataset (and the context) to the link,
        # the page is drawn again from it (with refresh=False Dash only pushes the address,
        # and the page, drawn from the link as it was, replaced it again)
        dcc.Location(id=ContextIds.URL, refresh="callback-nav"),
        dcc.Store(id=ContextIds.LAST, storage_type="local"),
        dcc.Store(id=ContextIds.SEEN, storage_type="local"),
        dcc.Store(id=ContextIds.CONFIG, data=_config()),
        dcc.Store(id=ContextIds.REF),
        html.Div(id=ContextIds.BAR, className="context-bar", style={"display": "none"},
                 children=[
                     html.Span("Dataset: "), html.Strong(id=ContextIds.NAME),
                     html.Span(" - it stays with you on every page, and so do the objectives "
                               "and constraints you choose on Explore, where a page can use "
                               "them. "),
                     dcc.Link("Switch dataset", href="/", className="context-switch"),
                     html.Div(className="context-notes", children=[
                         html.Span(id=ContextIds.LINK_NOTE),
                         html.Span(id=ContextIds.PAGE_NOTES)]),
                 ]),
        html.Div(id=ContextIds.COMPILE, className="context-compile", role="status"),
        dcc.Interval(id=ContextIds.COMPILE_POLL, interval=2000, n_intervals=0),
    ]


def dataset_name_and_memory(ref, settings, seen=None):
    """(what the bar calls dataset ``ref``, what the browser should remember, the names it
    has seen): its name (:func:`~copa_dash.services.catalog.dataset_label`), and, for a
    dataset that no longer exists (a deleted upload, a mistyped name), words saying so -- with
    the name the browser saw it under, if it did -- while the browser forgets it, so no other
    page is sent to it again. ``seen`` (``{ref: name}``, browser-local) learns each upload's
    name, so a link to it after a delete can still name it."""
    seen = dict(seen or {})
    if not ref:
        return "the page's example (pick another on the Datasets page)", no_update, no_update
    label = dataset_label(ref, settings)
    if label is None:
        if ref in seen:
            return (f"{seen[ref]!r}, which was deleted: choose another with Switch dataset",
                    {}, no_update)
        gone = ("a dataset that was deleted (or was never on this instance): choose another "
                "with Switch dataset")
        return gone, {}, no_update
    if is_upload_id(ref) and seen.get(ref) != label:
        # the last few only: the store lives in the browser, it should not grow for ever
        seen = dict(list({**{k: v for k, v in seen.items() if k != ref}, ref: label}.items())
                    [-SEEN_NAMES:])
        return label, no_update, seen
    return label, no_update, no_update


def forget_if_gone(last, settings):
    """The browser's last dataset (``{dataset, query, explore}``), emptied when it names an
    upload that is gone (just deleted on the Upload or Datasets page): the header's links
    then stop carrying it. ``no_update`` otherwise."""
    ref = last.get("dataset") if isinstance(last, dict) else last
    if ref and is_upload_id(ref) and dataset_label(ref, settings) is None:
        return {}
    return no_update


def _config() -> dict:
    """What ``assets/context.js`` needs of the codec, handed over so it is written once."""
    return {"pages": list(DATASET_PAGES), "prefix": PREFIX, "keys": list(KEYS),
            "source": CONTEXT_SOURCE, "store": ContextIds.LAST}


def register_context_callbacks(app) -> None:
    """The clientside dataset and context follower, the header links, the bar's notes and
    the compile-progress poll (the first three are functions of ``assets/context.js``)."""
    # no outputs: the links are set (set_props) where they differ, so a change of the store
    # whose links Explore's answer has already set (context.js's capture) leaves the
    # document alone, instead of marking the eight links loading after the figures' draw
    app.clientside_callback(
        ClientsideFunction("copa_context", "syncNav"),
        Input(ContextIds.LAST, "data"), State({"type": ContextIds.NAV, "path": ALL}, "id"),
        State({"type": ContextIds.NAV, "path": ALL}, "href"), State(ContextIds.CONFIG, "data"))
    app.clientside_callback(
        ClientsideFunction("copa_context", "follow"),
        Output(ContextIds.URL, "search"), Output(ContextIds.LAST, "data"),
        Output(ContextIds.BAR, "style"), Output(ContextIds.REF, "data"),
        Output(ContextIds.LINK_NOTE, "children"),
        Input(ContextIds.URL, "pathname"), Input(ContextIds.URL, "search"),
        State(ContextIds.LAST, "data"), State(ContextIds.CONFIG, "data"))
    app.clientside_callback(
        ClientsideFunction("copa_context", "pageNotes"),
        Output(ContextIds.PAGE_NOTES, "children"), Input(PAGE_NOTES, "data"))

    @app.callback(Output(ContextIds.NAME, "children"),
                  Output(ContextIds.LAST, "data", allow_duplicate=True),
                  Output(ContextIds.SEEN, "data"),
                  Input(ContextIds.REF, "data"), State(ContextIds.SEEN, "data"),
                  prevent_initial_call=True)
    def name_the_dataset(ref, seen):
        return dataset_name_and_memory(ref, current_settings(), seen)

    # a delete (Upload or Datasets page) changes the browser's list of own uploads: if the
    # dataset the header's links carry went with it, they drop it at once
    @app.callback(Output(ContextIds.LAST, "data", allow_duplicate=True),
                  Input(MY_UPLOADS, "data"), State(ContextIds.LAST, "data"),
                  prevent_initial_call=True)
    def forget_a_deleted_dataset(_owned, last):
        return forget_if_gone(last, current_settings())

    @app.callback(Output(ContextIds.COMPILE, "children"),
                  Output(ContextIds.COMPILE_POLL, "disabled"),
                  Input(ContextIds.COMPILE_POLL, "n_intervals"))
    def show_compile_progress(_):
        text = compile_progress()
        return text, not text
