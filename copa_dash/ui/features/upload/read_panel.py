"""The "What we read" panel: every adjustment the reader made, and every guess, once."""

from __future__ import annotations

from dash import dcc, html

from copa_dash.ui.features.upload.ids import UploadReadIds as RID
from copa_dash.ui.features.upload.proposal_form import id_note


def what_we_read(staged) -> html.Div:
    """The notes of a staged upload (reading, then guessing) as a short list of sentences."""
    source = "the pasted text" if staged.filename == "pasted.txt" else staged.filename
    return html.Div(id=RID.READ_NOTES, className="what-we-read", children=[
        html.H3("What we read"),
        html.P(f"{source}: {len(staged.frame):,} rows, {staged.frame.shape[1]} columns.",
               className="help"),
        # the note on row names is said under the Id picker instead (proposal_form.id_note)
        html.Ul([html.Li(note) for note in staged.notes if note != id_note(staged.proposal)]),
        *keep_zeros_box(staged),
    ])


def keep_zeros_box(staged) -> list:
    """The "Keep 0 as a value" box, when a 0 in a time or amount column was read as missing
    (or was kept on request): ticking it reads the file again, and the save keeps the 0s."""
    if not (staged.zeros_missing or staged.keep_zeros):
        return []
    columns = ", ".join(map(repr, staged.zeros_missing or staged.zeros_kept)) \
        or "time or amount columns"
    return [dcc.Checklist(
        id=RID.KEEP_ZEROS, className="keep-zeros",
        options=[{"label": f" Keep 0 as a value in {columns} (a 0 that was really measured: "
                           "a run that took no time, a model of no size)", "value": "keep"}],
        value=["keep"] if staged.keep_zeros else [])]
