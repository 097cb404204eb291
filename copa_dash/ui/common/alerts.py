"""Messages in the page: one look for every page's warnings, errors and notes."""

from __future__ import annotations

from dash import html


def alert(text, kind: str = "warning") -> html.Div:
    """A message box; ``kind`` is ``"warning"`` (the user can fix it), ``"error"`` or ``"info"``."""
    return html.Div(text, className=f"alert alert-{kind}")
