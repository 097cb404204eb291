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
