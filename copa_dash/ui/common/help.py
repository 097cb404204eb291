"""Plain-words help text beside a control or a figure, the same look on every page."""

from __future__ import annotations

from dash import html


def help_text(text: str) -> html.P:
    """A short explanation in the page's small grey help style."""
    return html.P(text, className="help")
