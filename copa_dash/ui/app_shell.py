"""The page shell (header, navigation, error banner) and the registration of every page."""

from __future__ import annotations

import dash
from dash import dcc, html

from copa_dash.ui.common import lost_job
from copa_dash.ui.common.context import context_bar, nav_link, register_context_callbacks
from copa_dash.ui.features.datasets import callbacks as datasets_callbacks
from copa_dash.ui.features.datasets import layout as datasets_layout
from copa_dash.ui.features.explore import callbacks as explore_callbacks
from copa_dash.ui.features.explore import layout as explore_layout
from copa_dash.ui.features.generalization import callbacks as generalization_callbacks
from copa_dash.ui.features.generalization import layout as generalization_layout
from copa_dash.ui.features.help import layout as help_layout
from copa_dash.ui.features.posets import callbacks as posets_callbacks
from copa_dash.ui.features.posets import layout as posets_layout
from copa_dash.ui.features.rankings import callbacks as rankings_callbacks
from copa_dash.ui.features.rankings import layout as rankings_layout
from copa_dash.ui.features.systems import callbacks as systems_callbacks
from copa_dash.ui.features.systems import layout as systems_layout
from copa_dash.ui.features.upload import callbacks as upload_callbacks
from copa_dash.ui.features.upload import layout as upload_layout

# (layout module, callbacks module or None), in the order of the work (pick a table, bring your
# own, explore it, then the deeper views, help last): the menu follows this order; a new page is
# one line here
PAGES = (
    (datasets_layout, datasets_callbacks),
    (upload_layout, upload_callbacks),
    (explore_layout, explore_callbacks),
    (rankings_layout, rankings_callbacks),
    (systems_layout, systems_callbacks),
    (generalization_layout, generalization_callbacks),
    (posets_layout, posets_callbacks),
    (help_layout, None),
)
# pages in the menu even though they do not register with nav=True (the landing page's and
# Explore's register_page predate the flag)
ALWAYS_IN_MENU = ("/", "/explore")


def shell() -> html.Div:
    """Header and navigation around the page container."""
    return html.Div(className="shell", children=[
        html.Header(className="header", children=[
            dcc.Link("copa-dash", href="/", className="brand"),
            html.Nav([nav_link(label, href) for label, href in menu_links()]),
        ]),
        *context_bar(),
        html.Div(id="global-error"),
        dash.page_container,
    ])


def menu_links() -> list[tuple[str, str]]:
    """(label, path) of the menu, in the order of :data:`PAGES`.

    Dash's page registry is ordered by module name (Datasets, Explore, Val -> test, Help, ...),
    which is not the order anyone works in, so the order is taken from ``PAGES``: each page is
    found in the registry by its layout function.
    """
    links = []
    for layout_module, _ in PAGES:
        page = next((page for page in dash.page_registry.values()
                     if page.get("layout") is getattr(layout_module, "layout", None)), None)
        if page is not None and (page.get("nav") or page["path"] in ALWAYS_IN_MENU):
            links.append((page["name"], page["path"]))
    return links


def register_pages(app: dash.Dash, settings) -> None:
    """Register every page and its callbacks, then set the shell as the layout."""
    for layout_module, callbacks_module in PAGES:
        layout_module.register_page()
        if callbacks_module is not None:
            callbacks_module.register_callbacks(app)
    lost_job.register(app)
    register_context_callbacks(app)
    app.layout = shell
