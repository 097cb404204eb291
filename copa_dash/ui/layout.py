"""The page shell (header, navigation, error banner) and page registration."""

from __future__ import annotations

import dash
from dash import dcc, html

NAV_LINKS = (("Datasets", "/"), ("Explore", "/explore"))


def shell() -> html.Div:
    """Header and navigation around the page container."""
    return html.Div(className="shell", children=[
        html.Header(className="header", children=[
            dcc.Link("copa-dash", href="/", className="brand"),
            html.Nav([dcc.Link(label, href=href, className="nav-link") for label, href in NAV_LINKS]
                     + [dcc.Link(label, href=href, className="nav-link")
                        for label, href in _extra_links()]),
        ]),
        html.Div(id="global-error"),
        dash.page_container,
    ])


def _extra_links():
    return [(page["name"], page["path"]) for page in dash.page_registry.values()
            if page.get("nav") and page["path"] not in ("/", "/explore")]


def register_pages(app: dash.Dash, settings) -> None:
    """Register every page module and its callbacks, then set the shell as the layout."""
    from .callbacks import explore as explore_callbacks
    from .pages import explore, landing

    dash.register_page("landing", path="/", name="Datasets", title="copa-dash",
                       layout=landing.layout)
    dash.register_page("explore", path=explore.PATH, name="Explore",
                       title="copa-dash: explore", layout=explore.layout)
    explore_callbacks.register_callbacks(app)
    _register_optional_pages(app)
    app.layout = shell


def _register_optional_pages(app: dash.Dash) -> None:
    """Pages of later features register themselves when their module is present."""
    import importlib

    for name in ("rankings", "systems", "generalization", "posets", "upload"):
        try:
            module = importlib.import_module(f"{__package__}.pages.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__package__}.pages.{name}":
                continue
            raise
        module.register(app)
