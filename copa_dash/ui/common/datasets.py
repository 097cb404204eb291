"""Open the dataset a page's URL names, or build the page that says why it cannot."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import OpenedDataset, dataset_label, is_upload_id, open_dataset
from copa_dash.ui.common.alerts import empty_state


def open_or_explain(ref: str, settings, title: str) -> tuple[OpenedDataset | None, html.Div | None]:
    """``(opened, None)``, or ``(None, page)`` where ``page`` is headed ``title`` and shows why
    ``ref`` does not open (unknown name, expired upload, bad table) with a link back home."""
    try:
        return open_dataset(ref, settings), None
    except InvalidInputError as exc:
        message = str(exc)
        if is_upload_id(ref) and dataset_label(ref, settings) is None:
            # a deleted upload: words a user can act on, not the store's "no dataset has the id"
            message = GONE_UPLOAD
        return None, html.Div(className="page", children=[
            html.H2(title), empty_state(message, [dcc.Link("Choose a dataset in the catalogue",
                                                           href="/")], kind="error")])


GONE_UPLOAD = ("This link names an upload that is no longer on this instance: it was deleted, "
               "so there is nothing to show. The dataset bar above names it if this browser "
               "saw it. Choose a dataset in the catalogue.")
