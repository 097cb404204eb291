"""The running instance's Settings, as the app factory stored them on the Flask server."""

from __future__ import annotations

import flask

from copa_dash.config import Settings
from copa_dash.services.cache import get_cache


def current_settings() -> Settings:
    """Settings of the app serving this request (from the environment outside a request)."""
    if flask.has_app_context():
        settings = flask.current_app.config.get("COPA_SETTINGS")
        if settings is not None:
            return settings
    return Settings.from_env()


def current_cache():
    """The per-dataset analysis cache shared by every worker."""

    return get_cache(current_settings())
