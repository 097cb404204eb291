"""Help's worked example for Upload (issue 33: Upload had none): the table it pastes reads as
its steps say, through the same reader and proposal as the page."""

from __future__ import annotations

from copa_dash.data.io import read_pasted_text
from copa_dash.data.proposal import propose
from copa_dash.ui.features.help import layout as help_layout
from tests.ui.dash_tree import text


def test_the_pasted_table_reads_as_the_steps_say():
    read = read_pasted_text(help_layout.UPLOAD_TABLE)
    proposal = propose(read.frame, units=read.units, labels=read.labels)
    guess = {name: (proposal.column(name).role, proposal.column(name).direction,
                    proposal.column(name).unit) for name in read.frame.columns}
    assert guess == {"model": ("id", None, None), "accuracy": ("objective", "max", "%"),
                     "latency_ms": ("objective", "min", None),
                     "params": ("objective", "min", "B")}
    assert read.frame["params"].tolist() == [7.0, 13.0, 7.2, 2.7]
    notes = " ".join(read.notes)
    assert "'%' removed" in notes and "billions" in notes


def test_every_page_of_the_work_has_a_worked_example():
    pages = [page for page, _, _ in help_layout.EXAMPLES]
    assert pages == ["Upload", "Explore", "Rankings", "Systems", "Val -> test", "Posets"]
    shown = text(help_layout.layout())
    assert "| phi-2 | 56.3% | 21 | 2.7B |" in shown


def test_the_example_says_what_copa_dash_inspect_says_of_each_column(tmp_path, capsys):
    """Tester 18 (finding 20): the example said params was marked "sure" while `copa-dash
    inspect` on that very table said "likely". The step now says each column's direction and
    sureness as the CLI's reader does (checked against the CLI's JSON, not the helper)."""
    import json

    from copa_dash.cli import main

    path = tmp_path / "example.md"
    path.write_text(help_layout.UPLOAD_TABLE)
    assert main(["inspect", str(path), "--json"]) == 0
    columns = json.loads(capsys.readouterr().out)["columns"]
    shown = text(help_layout.layout())
    words = {"max": "to maximise", "min": "to minimise"}
    for column in columns:
        if column["role"] == "objective":
            said = f"{column['name']} {words[column['direction']]} ({column['confidence']}"
            assert said in shown, (said, shown)
    assert any(c["confidence"] == "likely" for c in columns)  # the case that drifted
    assert "each marked sure" not in shown


def test_help_names_the_roles_with_the_upload_pages_words():
    # issue 33: Help said "not an objective" where the Upload page's choice is "metadata"
    import re

    from copa_dash.ui.features.upload.role_table import DIRECTION_OPTIONS, ROLE_OPTIONS
    shown = text(help_layout.layout())
    upload_words = {option["label"].split(" (")[0] for option in ROLE_OPTIONS + DIRECTION_OPTIONS}
    quoted = set(re.findall(r'min, max or "([^"]+)"', shown))
    assert quoted and quoted <= upload_words
    assert "not an objective" not in shown
