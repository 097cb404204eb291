"""The landing page: the bundled datasets and the ones shared on this instance."""

from __future__ import annotations

from urllib.parse import quote

import dash
from dash import dcc, html

from copa_dash.services.catalog import catalog
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.datasets.mine import mine_section

INTRO = ("copa-dash helps you choose one model among many that trade off accuracy, cost, "
         "fairness or robustness. It makes objectives comparable by their ranks (COPA), lets you "
         "say what matters with alpha and p, and shows where the pick sits on the Pareto front.")


def layout(**_query):
    """Cards of the datasets, each opening its default view in the explorer."""
    entries = catalog(current_settings())
    cards = [html.Div(className="card", children=[
        html.H3(dcc.Link(entry.title, href=f"/explore?dataset={quote(entry.ref)}")),
        html.P(f"{entry.n_rows} rows · {entry.kind}", className="help"),
        html.P(entry.description),
    ]) for entry in entries]
    return html.Div(className="page", children=[
        html.H2("Choose a dataset to explore"),
        html.P(INTRO),
        mine_section(),  # the user's own tables first: 23 bundled cards follow
        html.H3("Bundled and shared datasets"),
        html.P("Public leaderboards and benchmark tables shipped with copa-dash, and uploads "
               "their owners listed on this instance; each opens its default view.",
               className="help"),
        html.Div(cards, className="cards"),
    ])


def register_page() -> None:
    """Register the landing page with Dash; it has no callbacks."""
    dash.register_page("landing", path="/", name="Datasets", title="copa-dash", layout=layout)
