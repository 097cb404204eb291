"""Callbacks of the Datasets page (the list of the browser's own uploads)."""

from __future__ import annotations

from copa_dash.ui.features.datasets.mine import register_mine


def register_callbacks(app) -> None:
    """Attach the Datasets page's callbacks to ``app``."""
    register_mine(app)
