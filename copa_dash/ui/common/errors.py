"""One place that turns unexpected callback errors into a logged traceback and a generic message."""

from __future__ import annotations

import logging

from dash import html, set_props

from copa_dash.core.errors import InvalidInputError

logger = logging.getLogger("copa_dash.ui")


def report_callback_error(error: Exception) -> None:
    """Known input errors show their message; anything else is logged, and the page says
    something went wrong without showing a stack trace."""
    if isinstance(error, InvalidInputError):
        set_props("global-error", {"children": html.Div(str(error), className="alert alert-warning")})
        return
    logger.exception("unexpected error in a callback", exc_info=error)
    set_props("global-error", {"children": html.Div(
        "Something went wrong while updating the page; the error was logged. "
        "Try another setting or reload the page.", className="alert alert-error")})
