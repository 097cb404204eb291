"""The paste box beside the file drop: a Markdown or LaTeX table, or cells copied from a sheet."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.ui.features.upload.ids import UploadReadIds as RID

PLACEHOLDER = ("| model | accuracy | params |\n|---|---|---|\n| a | 56.5% | 7B |\n| b | 61.1% | 13B |"
               "\n\nor a LaTeX tabular, or cells copied from a spreadsheet")


def paste_box() -> html.Div:
    """A text area and its button; the text is read by the same reader as a file."""
    return html.Div(className="paste-box", children=[
        dcc.Textarea(id=RID.PASTE_TEXT, placeholder=PLACEHOLDER, className="paste-text"),
        html.Button("Read the pasted table", id=RID.PASTE_READ, className="button"),
    ])
