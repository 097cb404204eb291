"""Every page draws a view's notes through one function (issue 33, session 22).

``ui.common.alerts.view_notes`` shows the first note and puts the rest behind one "n more
notes on this view" line (session 22's newcomer pass: on Explore three or four notes pushed
the pick card down at 1024 x 768; on Rankings three stood above the bump chart of a BBOB
upload). A page that built its own list of info boxes, one per note, would stack them again:
this reads every page's modules (with ``ast``, as tests/test_layers.py reads imports) for a
list or generator of ``alert(..., "info")`` calls.
"""

from __future__ import annotations

import ast
from pathlib import Path

from dash import html

from copa_dash.ui.common.alerts import view_notes

FEATURES = Path(__file__).resolve().parents[2] / "copa_dash" / "ui" / "features"


def _stacked_info_boxes(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            continue
        call = node.elt
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "alert" and \
                any(isinstance(a, ast.Constant) and a.value == "info" for a in call.args):
            lines.append(node.lineno)
    return lines


def test_no_page_stacks_its_notes_one_box_each():
    found = {str(p.relative_to(FEATURES)): lines for p in sorted(FEATURES.rglob("*.py"))
             if (lines := _stacked_info_boxes(p))}
    assert found == {}, f"draw these notes with ui.common.alerts.view_notes: {found}"


def test_the_check_sees_a_stacked_list(tmp_path):
    sample = tmp_path / "callbacks.py"
    sample.write_text('notes = [alert(n, "info") for n in view.notes]\n', encoding="utf-8")
    assert _stacked_info_boxes(sample) == [1]


def test_a_task_note_comes_first_then_the_notes_behind_one_line():
    box = html.Div("rows of 2 tasks", className="alert alert-warning task-note")
    first, more = view_notes(box, ["mean of 55 tasks", "rows left out"])
    assert first is box
    assert more.children[0].children == "2 more notes on this view"
    assert [c.children for c in more.children[1:]] == ["mean of 55 tasks", "rows left out"]
