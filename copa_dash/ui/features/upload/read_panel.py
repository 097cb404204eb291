"""The "What we read" panel: every adjustment the reader made, and every guess, once."""

from __future__ import annotations

from dash import html

from copa_dash.ui.features.upload.ids import UploadReadIds as RID


def what_we_read(staged) -> html.Div:
    """The notes of a staged upload (reading, then guessing) as a short list of sentences."""
    source = "the pasted text" if staged.filename == "pasted.txt" else staged.filename
    return html.Div(id=RID.READ_NOTES, className="what-we-read", children=[
        html.H3("What we read"),
        html.P(f"{source}: {len(staged.frame):,} rows, {staged.frame.shape[1]} columns.",
               className="help"),
        html.Ul([html.Li(note) for note in staged.notes]),
    ])
