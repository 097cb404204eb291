"""An upload's notes on objectives its view leaves out are worked out once per table and set
of unticked objectives (``explorer._left_out_notes``): the same words as computed afresh, and
the average's row-by-row check not repeated on every slider move."""

import gc
from dataclasses import replace

import numpy as np
import pandas as pd

from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services import explorer
from copa_dash.services.catalog import OpenedDataset
from copa_dash.services.default_view import derived_note, mostly_missing_note
from copa_dash.services.views.explore import ExploreView


def _upload_with_an_average_and_a_sparse_score(n=40, seed=3):
    rng = np.random.default_rng(seed)
    a, b, c = rng.random(n), rng.random(n), rng.random(n)
    sparse = np.where(np.arange(n) < 5, rng.random(n), np.nan)      # 35 of 40 rows missing
    frame = pd.DataFrame({"m": [f"m{i}" for i in range(n)], "Average": (a + b + c) / 3,
                          "A": a, "B": b, "C": c, "rare": sparse, "cost": rng.random(n) * 9})
    objectives = (Objective("Average", "max"), Objective("A", "max"), Objective("B", "max"),
                  Objective("C", "max"), Objective("rare", "max"), Objective("cost", "min"))
    table = EvalTable(frame, Roles("m", objectives))
    return OpenedDataset(ref="u", cache_id="left-out-notes", table=table, title="u",
                         description="", source="", licence="", default_view=None,
                         kind="uploaded")


def _left_out(notes):
    return tuple(n for n in notes if n.startswith("Left out of the first view"))


def test_the_notes_say_what_the_view_leaves_out_in_the_words_computed_afresh():
    opened = _upload_with_an_average_and_a_sparse_score()
    view = ExploreView.default_for(opened)
    assert "Average" not in view.objectives and "rare" not in view.objectives
    notes = explorer.explore(opened, view.preferences(), view.row_filter()).notes
    # computed here from the table alone: 35 of 40 rows lack 'rare'; 'Average' is the mean
    # of A, B and C in every row, hence between their smallest and largest
    assert mostly_missing_note([("rare", 35)], 40) in notes
    assert derived_note("Average") in notes


def test_a_second_answer_on_the_same_table_does_not_check_the_average_again(monkeypatch):
    opened = _upload_with_an_average_and_a_sparse_score()
    view = ExploreView.default_for(opened)
    calls = []
    real = explorer.derived_aggregate
    monkeypatch.setattr(explorer, "derived_aggregate",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    first = _left_out(explorer.explore(opened, view.preferences(), view.row_filter()).notes)
    assert len(first) == 2
    moved = view.preferences()
    for alpha in (0.2, 0.9):        # slider moves: the same objectives unticked
        again = explorer.explore(opened, replace(moved, alpha=alpha), view.row_filter()).notes
        assert _left_out(again) == first
    assert len(calls) == 1
    # another set of unticked objectives is another entry: ticking the average drops its note
    ticked = replace(moved, objectives=tuple(moved.objectives) + ("Average",),
                     directions=tuple(moved.directions) + ("max",))
    notes = explorer.explore(opened, ticked, view.row_filter()).notes
    assert derived_note("Average") not in notes and len(calls) == 2


def test_what_is_kept_goes_with_the_table():
    gc.collect()
    opened = _upload_with_an_average_and_a_sparse_score()
    view = ExploreView.default_for(opened)
    explorer.explore(opened, view.preferences(), view.row_filter())
    before = len(explorer._LEFT_OUT_NOTES)
    assert before >= 1
    del opened, view
    gc.collect()
    assert len(explorer._LEFT_OUT_NOTES) == before - 1
