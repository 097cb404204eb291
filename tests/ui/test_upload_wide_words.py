"""A wide upload's words (issue 33): the "More columns" heading follows the roles chosen, the
live check counts the objectives and folds the names past a few, and the preview draws the
first columns and says how many it leaves out."""

from __future__ import annotations

import pandas as pd
from dash import html

from copa_dash.ui.features.upload.ids import UploadIds
from copa_dash.ui.features.upload.layout import PREVIEW_COLUMNS, preview_table
from copa_dash.ui.features.upload.mapping_check import NAMES_SHOWN, objectives_check
from copa_dash.ui.features.upload.proposal_form import more_summary
from tests.ui.dash_tree import find

MORE = [f"race-g{i}" for i in range(5)]


def test_the_more_columns_heading_says_what_they_are_taken_as_now():
    metadata = dict.fromkeys(MORE, "metadata")
    assert more_summary(MORE, metadata) == (
        "More columns (5): left as metadata - a short set of objectives is proposed above")
    taken = dict.fromkeys(MORE, "objective")
    assert more_summary(MORE, taken) == "More columns (5): all taken as objectives"
    assert "metadata" not in more_summary(MORE, taken)
    one_left = {**taken, "race-g3": "metadata"}
    assert more_summary(MORE, one_left) == (
        "More columns (5): 4 taken as objectives, the other 1 not")
    # the short set's objectives are not counted as "more"
    assert more_summary(MORE, {**metadata, "accuracy": "objective"}).endswith("proposed above")


def test_the_live_check_counts_many_objectives_and_folds_their_names():
    columns = ["model", *(f"accuracy-g{i:03d}" for i in range(99))]
    check = objectives_check("model", columns, ["id", *["objective"] * 99], ["max"] * 100)
    head, folded = check.children
    assert check.className == "alert alert-info"
    assert head.startswith("99 objectives: accuracy-g000, ") and "accuracy-g008" not in head
    assert head.count("accuracy-g") == NAMES_SHOWN
    assert isinstance(folded, html.Details) and not getattr(folded, "open", False)
    assert folded.children[0].children == f"and {99 - NAMES_SHOWN} more"
    rest = folded.children[1].children
    assert rest.startswith("accuracy-g008, ") and rest.endswith("accuracy-g098.")
    assert rest.count("accuracy-g") == 99 - NAMES_SHOWN


def test_a_few_objectives_are_all_named_in_one_line():
    columns = ["model", *(f"s{i}" for i in range(NAMES_SHOWN))]
    check = objectives_check("model", columns, ["id", *["objective"] * NAMES_SHOWN])
    assert check.children == f"{NAMES_SHOWN} objectives: " + ", ".join(columns[1:]) + "."


def test_the_preview_of_a_wide_table_draws_its_first_columns_and_counts_the_rest():
    frame = pd.DataFrame([[i * j for j in range(215)] for i in range(12)],
                         columns=[f"c{j}" for j in range(215)])
    preview = preview_table(frame)
    table = preview.children[0]
    assert [c["name"] for c in table.columns] == [f"c{j}" for j in range(PREVIEW_COLUMNS)]
    assert len(table.data) == 8 and set(table.data[0]) == {f"c{j}" for j in range(20)}
    note = find(preview, UploadIds.PREVIEW_NOTE)
    assert note.children == (f"The first {PREVIEW_COLUMNS} of 215 columns are shown here; the "
                             f"other {215 - PREVIEW_COLUMNS} are listed with their roles below.")


def test_the_preview_of_a_narrow_table_shows_every_column_and_no_note():
    frame = pd.DataFrame({"model": ["a", "b"], "score": [1, 2]})
    preview = preview_table(frame)
    assert [c["name"] for c in preview.children[0].columns] == ["model", "score"]
    assert preview.children[1] is None
