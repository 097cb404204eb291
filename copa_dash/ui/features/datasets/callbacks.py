"""Callbacks of the Datasets page: the catalogue's search and row click, and the
"Your uploads" section (list, confirmed delete)."""

from __future__ import annotations

from copa_dash.ui.features.datasets.catalogue import register_catalogue
from copa_dash.ui.features.datasets.mine import register_mine


def register_callbacks(app) -> None:
    """Attach the Datasets page's callbacks to ``app``."""
    register_catalogue(app)
    register_mine(app)
