"""Upload your own table: preview, role mapping with guessed directions, save, explore."""

from __future__ import annotations

import dash
from dash import dash_table, dcc, html

from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.features.upload.ids import UploadIds

PATH = "/upload"
ROLE_OPTIONS = [
    {"label": "objective", "value": "objective"},
    {"label": "system", "value": "system"},
    {"label": "seed", "value": "seed"},
    {"label": "task", "value": "task"},
    {"label": "split", "value": "split"},
    {"label": "config", "value": "config"},
    {"label": "budget", "value": "budget"},
    {"label": "metadata (filter on it)", "value": "metadata"},
    {"label": "ignore", "value": "ignore"},
]


def layout(**_query):
    """The drop zone, then (after a file) its preview and the role mapping."""
    settings = current_settings()
    limit_mb = settings.max_upload_bytes / 2**20
    return html.Div(className="page", children=[
        html.H2("Upload a table of models"),
        html.P("One row per model (or run); numeric columns become objectives. CSV, TSV, Parquet, "
               "JSON (records or columns) and Excel (.xlsx) are read. Limits on this instance: "
               f"{limit_mb:.0f} MB, {settings.max_rows:,} rows, {settings.max_columns:,} columns."),
        dcc.Upload(id=UploadIds.FILE, className="drop-zone", max_size=-1,
                   children=html.Div(["Drag and drop a file here, or ", html.A("choose a file")])),
        html.Div(id=UploadIds.ALERT),
        dcc.Store(id=UploadIds.STAGED),
        html.Div(id=UploadIds.PREVIEW),
        html.Div(id=UploadIds.MAPPING),
        html.Div(id=UploadIds.SAVE_ERROR),
        html.Div(id=UploadIds.RESULT),
    ])


def preview_table(frame) -> dash_table.DataTable:
    """The first rows of the upload, rendered as text."""
    head = frame.head(8).astype(str)
    return dash_table.DataTable(
        data=head.to_dict("records"), columns=[{"name": str(c), "id": str(c)} for c in head.columns],
        style_table={"overflowX": "auto"}, style_cell={"fontSize": 12, "maxWidth": 180,
                                                        "overflow": "hidden", "textOverflow": "ellipsis"})


ROW_NUMBER_LABEL = "row number (row 1, row 2, ...)"
ROW_NUMBER_NOTE = (
    "No column names the rows: an id must be text (such as a model name) or id numbers (a "
    "column named like id or run), with a different value in every row. Measurements such as "
    "a score are not used as names. So the rows are numbered in file order: row 1, row 2, ... "
    "and those names label them in every page. Pick a column here instead if one names them.")


def mapping_controls(frame, proposed, row_ids: str) -> html.Div:
    """Id column (or the row number, chosen as ``row_ids``), and for each column its role
    and (for objectives) its direction.

    Every column has a row, the id's too (disabled while it is the id), so choosing
    another id keeps the first one as metadata rather than dropping it.
    """
    objective_dirs = {o.name: o.direction for o in proposed.objectives}
    roles = {getattr(proposed, r): r for r in ("system", "seed", "task", "split", "config", "budget")
             if getattr(proposed, r, None)}
    rows = []
    for column in frame.columns:
        column = str(column)
        role = ("objective" if column in objective_dirs else roles.get(column)
                or ("metadata" if column in proposed.metadata or column == proposed.id
                    else "ignore"))
        rows.append(html.Tr([
            html.Td(column),
            html.Td(dcc.Dropdown(id={"type": UploadIds.ROLE, "column": column}, options=ROLE_OPTIONS,
                                 value=role, clearable=False, className="role-pick",
                                 disabled=column == proposed.id)),
            html.Td(dcc.RadioItems(id={"type": UploadIds.DIRECTION, "column": column}, inline=True,
                                   options=[{"label": "min", "value": "min"},
                                            {"label": "max", "value": "max"}],
                                   value=objective_dirs.get(column, "max"))),
        ]))
    id_options = [{"label": str(c), "value": str(c)} for c in frame.columns]
    id_options.append({"label": ROW_NUMBER_LABEL, "value": row_ids})
    generated = proposed.id == row_ids
    return html.Div([
        html.H3("Roles"),
        html.P("Directions are guessed from the names (loss, error, time, cost -> min; accuracy, "
               "score, f1 -> max): check them. At least two objectives: a Pareto front needs "
               "something to trade off.", className="help"),
        html.Label("Id column (one unique name per row)"),
        dcc.Dropdown(id=UploadIds.ID_COLUMN, value=proposed.id, clearable=False,
                     options=id_options),
        html.P(ROW_NUMBER_NOTE if generated else "", id=UploadIds.ID_NOTE,
               className="alert alert-info" if generated else "help"),
        html.Table(className="mapping-table", children=[
            html.Thead(html.Tr([html.Th("column"), html.Th("role"), html.Th("direction")])),
            html.Tbody(rows)]),
        html.Label("Name (optional)"),
        dcc.Input(id=UploadIds.NAME, type="text", maxLength=200, placeholder="my sweep"),
        dcc.Checklist(id=UploadIds.SHARED, value=[], options=[
            {"label": "list it on this instance's landing page (otherwise only its link opens it)",
             "value": "shared"}]),
        html.Div(id=UploadIds.CHECK),
        html.Button("Save and explore", id=UploadIds.SAVE, className="button"),
    ])


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("upload", path=PATH, name="Upload", title="copa-dash: upload",
                       layout=layout, nav=True)
