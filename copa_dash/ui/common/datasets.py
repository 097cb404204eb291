"""Open the dataset a page's URL names, or build the page that says why it cannot."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import OpenedDataset, open_dataset
from copa_dash.ui.common.alerts import alert


def open_or_explain(ref: str, settings, title: str) -> tuple[OpenedDataset | None, html.Div | None]:
    """``(opened, None)``, or ``(None, page)`` where ``page`` is headed ``title`` and shows why
    ``ref`` does not open (unknown name, expired upload, bad table) with a link back home."""
    try:
        return open_dataset(ref, settings), None
    except InvalidInputError as exc:
        return None, html.Div(className="page", children=[
            html.H2(title), alert(str(exc), "error"),
            dcc.Link("Back to the dataset list", href="/")])
