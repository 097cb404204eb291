"""Upload your own table: preview, role mapping with guessed directions, save, explore."""

from __future__ import annotations

import dash
import numpy as np
import pandas as pd
from dash import dash_table, dcc, html

from copa_dash.services.source_uploads import available_kinds
from copa_dash.ui.common.my_uploads import my_uploads_store
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.table_ids import TOOLTIP_ARGS, id_tooltips
from copa_dash.ui.features.upload.ids import UploadIds, UploadReadIds
from copa_dash.ui.features.upload.owner_panel import owner_panel
from copa_dash.ui.features.upload.paste_box import paste_box
from copa_dash.ui.features.upload.saved_summary import saved_summary
from copa_dash.ui.features.upload.source_form import source_form

PATH = "/upload"


def layout(saved=None, **_query):
    """The drop zone, then (after a file) its preview and the role mapping; at
    ``?saved=ID`` (Back from the explorer after "Save and explore") the saved upload's
    summary above them."""
    settings = current_settings()
    limit_mb = settings.max_upload_bytes / 2**20
    return html.Div(className="page", children=[
        html.H2("Upload a table of models"),
        html.Div(saved_summary(saved, settings) if isinstance(saved, str) and saved else None),
        html.P("One row per model (or per run). Drop the file as exported - CSV or TSV (any "
               "separator, decimal commas), Excel (.xlsx), JSON, Parquet - or paste a Markdown or "
               "LaTeX table. We propose what each column is, say what we adjusted, and ask "
               "what we could not guess. Limits on this instance: "
               f"{limit_mb:.0f} MB, {settings.max_rows:,} rows, {settings.max_columns:,} columns."),
        html.Div(className="upload-sources", children=[
            dcc.Upload(id=UploadIds.FILE, className="drop-zone", max_size=-1, children=html.Div(
                ["Drag and drop a file here, or ", html.A("choose a file")])),
            paste_box(),
            source_form(available_kinds(settings)),
        ]),
        dcc.Store(id=UploadReadIds.GO),  # saved_summary: Back lands on the summary
        html.Div(id=UploadIds.ALERT),
        dcc.Store(id=UploadIds.STAGED),
        html.Div(id=UploadIds.PREVIEW),
        html.Div(id=UploadIds.MAPPING),
        html.Div(id=UploadIds.SAVE_ERROR),
        html.Div(id=UploadIds.RESULT),
        my_uploads_store(),
        owner_panel(),
    ])


# the preview draws this many columns: a wide export drew all of them (the lead's newcomer
# pass saw ~1 s for a 215-column file, not re-measured here; a table no one reads sideways);
# the role form below lists every column
PREVIEW_COLUMNS = 20


def preview_table(frame) -> html.Div:
    """The first rows and first ``PREVIEW_COLUMNS`` columns of the upload, rendered as text,
    and how many columns the preview leaves out."""
    head = frame.iloc[:8, :PREVIEW_COLUMNS]
    head = head.apply(lambda column: column.map(_cell_text if column.dtype.kind == "f" else
                                                _text_cell))
    hidden = frame.shape[1] - head.shape[1]
    note = html.P(f"The first {head.shape[1]} of {frame.shape[1]} columns are shown here; the "
                  f"other {hidden} are listed with their roles below.", className="help",
                  id=UploadIds.PREVIEW_NOTE) if hidden else None
    return html.Div([_preview(head), note])


def _cell_text(value) -> str:
    """A float as a reader checks it: six significant digits, whole numbers without ``.0``,
    a missing cell empty (BBOB's export showed ``562.066666666667``, ``7.0`` and ``nan``).

    >>> [_cell_text(v) for v in (562.066666666667, 7.0, float("nan"), float("inf"), 2e-4)]
    ['562.067', '7', '', 'inf', '0.0002']
    """
    if _missing(value):
        return ""
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def _text_cell(value) -> str:
    return "" if _missing(value) else str(value)


def _missing(value) -> bool:
    missing = pd.isna(value)            # an array for a list cell: not missing
    return isinstance(missing, bool | np.bool_) and bool(missing)


def _preview(head) -> dash_table.DataTable:
    records = head.to_dict("records")
    return dash_table.DataTable(
        data=records, columns=[{"name": str(c), "id": str(c)} for c in head.columns],
        tooltip_data=id_tooltips(records, *map(str, head.columns), longer_than=20), **TOOLTIP_ARGS,
        style_table={"overflowX": "auto"}, style_cell={"fontSize": 12, "maxWidth": 180,
                                                        "overflow": "hidden", "textOverflow": "ellipsis"})


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("upload", path=PATH, name="Upload", title="copa-dash: upload",
                       layout=layout, nav=True)
