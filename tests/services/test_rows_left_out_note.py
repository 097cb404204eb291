"""The note on rows left out for a missing objective: one wording, right in the singular."""

from __future__ import annotations

from copa_dash.services.objectives import rows_left_out_note


def test_singular_and_plural():
    assert rows_left_out_note(1) == ("1 row is left out because a chosen objective is missing "
                                     "for it.")
    assert rows_left_out_note(2).startswith("2 rows are left out")
    assert rows_left_out_note(1, hint="drop that objective to include them").endswith(
        "; drop that objective to include it.")
    assert rows_left_out_note(5, hint="drop that objective to include them").endswith(
        "missing for them; drop that objective to include them.")
