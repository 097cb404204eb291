"""The landing page: one catalogue of every dataset the user can open, then their uploads."""

from __future__ import annotations

import dash
from dash import html

from copa_dash.ui.features.datasets.catalogue import catalogue_section
from copa_dash.ui.features.datasets.mine import mine_section

INTRO = ("copa-dash helps you choose one model among many that trade off accuracy, cost, "
         "fairness or robustness. It makes objectives comparable by their ranks (COPA), lets you "
         "say what matters with alpha and p, and shows where the pick sits on the Pareto front.")


def layout(**_query):
    """The catalogue first (search, sort, click a row to explore), "Your uploads" below."""
    return html.Div(className="page page-wide", children=[
        html.H2("Choose a dataset to explore"),
        html.P(INTRO, className="intro"),
        catalogue_section(),
        mine_section(),
    ])


def register_page() -> None:
    """Register the landing page with Dash (its callbacks are in ``callbacks.py``)."""
    dash.register_page("landing", path="/", name="Datasets", title="copa-dash", layout=layout)
