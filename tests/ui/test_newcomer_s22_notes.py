"""Session 22's newcomer pass: Explore's notes on one view are one compact block (issue 33).

HELM Classic's calibration table, uploaded, has three notes on its first view (rows left out,
two columns left out of the first view, why this pair); at 1024 x 768 they stood one above the
other between the figure and the pick card. Now the first shows and the rest sit behind one
"2 more notes on this view" line, every word still in the page.
"""

from __future__ import annotations

from dash import html

from copa_dash.services.explorer import explore
from copa_dash.services.views.explore import ExploreView
from copa_dash.ui.common.alerts import view_notes
from copa_dash.ui.features.explore import callbacks
from tests.services.test_default_view import _upload
from tests.ui.test_newcomer_s21_average import _opened


def _texts(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    children = getattr(node, "children", None)
    children = children if isinstance(children, (list, tuple)) else [children]
    return [t for c in children if c is not None for t in _texts(c)]


def test_the_helm_upload_shows_one_note_and_the_rest_behind_a_line():
    table = _upload("helm_classic_calibration.tsv")
    opened = _opened(table)
    view = ExploreView.default_for(opened)
    notes = explore(opened, view.preferences(), view.row_filter()).notes
    assert len(notes) >= 3, notes
    first, more = view_notes(None, notes)
    assert first.children == notes[0] and "alert-info" in first.className
    assert isinstance(more, html.Details) and more.className == "more-notes"
    assert more.children[0].children == f"{len(notes) - 1} more notes on this view"
    shown = _texts(more)
    assert all(note in shown for note in notes[1:])       # every word reachable


def test_the_tasks_note_comes_first_and_one_note_stands_alone():
    box = html.Div("rows of 2 tasks", className="alert alert-warning task-note")
    first, more = view_notes(box, ["a note"])
    assert first is box and more.children[0].children == "1 more note on this view"
    assert [b.children for b in view_notes(None, ["only"])] == ["only"]
    assert view_notes(None, []) == []


def test_the_explore_callback_draws_its_notes_through_view_notes(monkeypatch):
    """The figures' callback (another helper's file) calls this one function."""
    seen = []
    monkeypatch.setattr(callbacks, "view_notes",
                        lambda tasks, notes: seen.append(list(notes)) or ["drawn"])
    table = _upload("helm_classic_calibration.tsv")
    opened = _opened(table)
    view = ExploreView.default_for(opened)
    result = explore(opened, view.preferences(), view.row_filter())
    out = callbacks._full_draw(result, view, None)
    assert out["alert"] == ["drawn"] and seen and seen[0][:len(result.notes)] == list(result.notes)
