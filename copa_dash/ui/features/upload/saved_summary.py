"""What the upload page shows at ``/upload?saved=ID``: the saved upload's summary.

"Save and explore" replaces the upload page's history entry with that address before it opens
the explorer (:func:`register_saved_navigation`), so Back from the explorer lands on the saved
table's name, size and link instead of an empty drop zone (issue 33).
"""

from __future__ import annotations

from urllib.parse import quote

from dash import Input, dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import dataset_label, open_dataset
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.features.upload.ids import UploadReadIds

PATH = "/upload"


def back_address(dataset_id: str) -> str:
    """The upload page's address for a saved upload (what Back from the explorer opens)."""
    return f"{PATH}?saved={quote(dataset_id)}"


def navigation(dataset_id: str) -> dict:
    """What "Save and explore" hands the page (:func:`register_saved_navigation`): the
    explorer's address to open and the summary's address to leave behind for Back."""
    return {"go": dataset_link("explore", dataset_id), "back": back_address(dataset_id)}


def saved_summary(dataset_id: str, settings) -> html.Div:
    """The saved upload in words: its name, rows and objectives, and its explorer link; a
    plain message when no upload has that id (deleted, or a mistyped link)."""
    name = dataset_label(dataset_id, settings)
    if name is None:
        return alert("No saved upload has this id any more (it may have been deleted): drop a "
                     "file or paste a table below to start again.", "warning")
    try:
        table = open_dataset(dataset_id, settings).table
    except InvalidInputError as exc:
        return alert(str(exc), "warning")
    link = dataset_link("explore", dataset_id)
    objectives = ", ".join(f"{o.name} ({o.direction})" for o in map(table.objective,
                                                                     table.objective_names))
    return html.Div(id=UploadReadIds.SAVED, className="alert alert-info", children=[
        html.Strong(f"Saved: {name}"),
        f" - {table.n_rows:,} rows; objectives {objectives}. ",
        dcc.Link("Explore it", href=link, id=f"{UploadReadIds.SAVED}-link"),
        html.Br(), "Its link (keep it: the dataset is private to whoever holds it): ",
        html.Code(link),
        html.Br(), "Drop another file or paste a table below to upload more.",
    ])


def register_saved_navigation(app) -> None:
    """After a save, the address bar's current entry becomes the saved upload's summary
    (``replaceState``), then the explorer opens as a new page load (its top, fresh state).
    Back then loads the summary, also where the browser kept the old page in its
    back-forward cache."""
    app.clientside_callback(
        """function(go) {
            if (!go || !go.go) { return; }
            window.history.replaceState(null, '', go.back);
            // a page the browser keeps in its back-forward cache would come back as it was
            // left (the form, mid-upload): load the summary instead
            window.addEventListener('pageshow', e => { if (e.persisted) { location.reload(); } });
            window.location.assign(go.go);
        }""", Input(UploadReadIds.GO, "data"), prevent_initial_call=True)
