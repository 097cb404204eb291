"""One place that turns unexpected callback errors into a logged traceback and a generic message."""

from __future__ import annotations

import logging

from dash import set_props

from copa_dash.core.errors import InvalidInputError
from copa_dash.ui.common.alerts import alert

logger = logging.getLogger("copa_dash.ui")


def report_callback_error(error: Exception) -> None:
    """Known input errors show their message; anything else is logged, and the page says
    something went wrong without showing a stack trace."""
    if isinstance(error, InvalidInputError):
        set_props("global-error", {"children": alert(str(error))})
        return
    logger.exception("unexpected error in a callback", exc_info=error)
    set_props("global-error", {"children": alert(
        "Something went wrong while updating the page; the error was logged. "
        "Try another setting or reload the page.", "error")})
