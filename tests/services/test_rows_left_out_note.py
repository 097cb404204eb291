"""The note on rows left out for a missing objective: one wording, right in the singular."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.data.filters import RowFilter
from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services.catalog import OpenedDataset
from copa_dash.services.explorer import explore
from copa_dash.services.objectives import missing_counts, rows_left_out_note
from copa_dash.services.selection import Preferences


def test_singular_and_plural():
    assert rows_left_out_note(1) == ("1 row is left out because a chosen objective is missing "
                                     "for it.")
    assert rows_left_out_note(2).startswith("2 rows are left out")
    assert rows_left_out_note(1, hint="drop that objective to include them").endswith(
        "; drop that objective to include it.")
    assert rows_left_out_note(5, hint="drop that objective to include them").endswith(
        "missing for them; drop that objective to include them.")


def test_the_note_names_the_objectives_that_cost_the_rows():
    """F16/F22: "18 rows are left out ..." did not say which objective to drop."""
    nan = np.nan
    frame = pd.DataFrame({"m": list("abcdef"), "acc": [.9, .8, .7, .6, .5, .4],
                          "size": [1., nan, 3, nan, 5, 6], "dims": [nan, nan, 3., 4, 5, 6],
                          "ok": [1., 2, 3, 4, 5, 6]})
    table = EvalTable(frame, Roles("m", (Objective("acc", "max"), Objective("size", "min"),
                                         Objective("dims", "min"), Objective("ok", "min"))))
    # by hand: size misses rows b, d; dims misses a, b
    assert missing_counts(table, ["acc", "size", "dims"]) == [("size", 2), ("dims", 2)]
    assert missing_counts(table, ["ok", "dims"]) == [("dims", 2)]
    assert rows_left_out_note(3, missing=[("size", 2), ("dims", 2)]) == (
        "3 rows are left out because a chosen objective is missing for them: 'size' (2 rows), "
        "'dims' (2 rows); drop those objectives to include them.")
    assert rows_left_out_note(1, missing=[("size", 1)]).endswith(
        "missing for it: 'size'; drop it to include it.")
    many = [(f"t{k}", 10 - k) for k in range(6)]
    assert rows_left_out_note(9, missing=many).count("rows)") == 4
    # one row missing two objectives (torchvision's export read as exported): "(1 row)"
    assert rows_left_out_note(1, missing=[("Acc@1", 1), ("Acc@5", 1)]) == (
        "1 row is left out because a chosen objective is missing for it: 'Acc@1' (1 row), "
        "'Acc@5' (1 row); drop those objectives to include it.")
    assert "and 2 more" in rows_left_out_note(9, missing=many)
    # the Explore page's note (the explorer service): a, b, d left out
    opened = OpenedDataset(ref="t", cache_id="t", table=table, title="t", description="",
                           source="", licence="", default_view=None, kind="uploaded")
    result = explore(opened, Preferences(objectives=("acc", "size", "dims"),
                                         directions=("max", "min", "min")), RowFilter())
    assert result.notes[0] == (
        "3 rows are left out because a chosen objective is missing for them: 'size' (2 rows), "
        "'dims' (2 rows); drop those objectives to include them.")


def test_rows_the_constraints_exclude_anyway_are_not_named():
    """Newcomer's pass (session 18): amlb-2022's one-task view said "2 rows are left out"
    for rows of other tasks, which no constraint lets through; the note counts only the
    rows that pass the constraints (counted here with pandas)."""
    from copa_dash.services.catalog import open_dataset

    opened = open_dataset("amlb-2022")
    objectives = list(opened.table.objective_names)
    frame = opened.table.frame
    missing = frame[objectives].isna().any(axis=1)
    task = "Amazon_employee_access"
    assert missing.sum() >= 1 and not missing[frame["dataset"] == task].any()
    directions = tuple(o.direction for o in opened.table.roles.objectives)
    preferences = Preferences(objectives=tuple(objectives), directions=directions)
    one_task = explore(opened, preferences, RowFilter(sets={"dataset": [task]}))
    assert not any("left out" in n for n in one_task.notes)
    every = explore(opened, preferences, RowFilter())
    assert any(n.startswith(f"{int(missing.sum())} row") and "left out" in n
               for n in every.notes)
