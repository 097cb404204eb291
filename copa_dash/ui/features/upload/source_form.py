"""The form beside the file drop that reads a table where results live: an Optuna study, an
MLflow experiment or an lm-eval folder (shown only where the instance reads them)."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.ui.features.upload.ids import UploadSourceIds as SID


def source_form(kinds) -> html.Div | None:
    """The kind, where it is, its study or experiment name, and the button; None without
    kinds (sources off on this instance, or no extra installed)."""
    if not kinds:
        return None
    first = kinds[0]
    return html.Div(className="source-form", children=[
        html.Label("Or read it where the results live", htmlFor=SID.SOURCE_KIND),
        dcc.Dropdown(id=SID.SOURCE_KIND, value=first.value, clearable=False,
                     options=[{"label": k.label, "value": k.value} for k in kinds]),
        dcc.Input(id=SID.SOURCE_LOCATION, type="text", debounce=False, className="source-where",
                  placeholder=first.location),
        dcc.Input(id=SID.SOURCE_NAME, type="text", className="source-name",
                  placeholder=first.name or "", disabled=first.name is None),
        html.Button("Read", id=SID.SOURCE_READ, className="button"),
    ])


def placeholders(kinds, value) -> tuple[str, str, bool]:
    """The location and name boxes' placeholders for the chosen kind, and whether the name
    box is off (lm-eval needs no name)."""
    kind = next((k for k in kinds if k.value == value), kinds[0])
    return kind.location, kind.name or "", kind.name is None
