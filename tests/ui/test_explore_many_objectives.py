"""Explore stays readable with many objectives (issue 29): past a dozen, the pick card folds
the rest under "N more objectives" and the parallel coordinates draw a dozen axes (the focus
first), the pick's line through the same axes; every value shown is the exploration's."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import explorer, selection
from copa_dash.services.catalog import OpenedDataset
from copa_dash.ui.features.explore import figures, panels

N_OBJECTIVES, N_ROWS = 30, 40


def _explore(focus=()):
    rng = np.random.default_rng(29)
    names = [f"group{k:02d}-acc" for k in range(N_OBJECTIVES)]
    frame = pd.DataFrame(rng.random((N_ROWS, N_OBJECTIVES)), columns=names)
    frame.insert(0, "model", [f"m{i}" for i in range(N_ROWS)])
    table = build_eval_table(frame, Roles(id="model", objectives=tuple(
        Objective(n, "max") for n in names)))
    opened = OpenedDataset(ref="wide", cache_id="wide", table=table, title="wide",
                           description="", source="", licence="", default_view=None,
                           kind="uploaded")
    prefs = selection.Preferences(objectives=tuple(names), directions=("max",) * len(names),
                                  focus=tuple(focus))
    return explorer.explore(opened, prefs, RowFilter())


def test_the_pick_card_folds_objectives_past_a_dozen():
    result = _explore()
    _, body = panels.pick_card_text(result)
    table, folded = body.split('<details class="more-objectives">')
    assert table.count("<tr><td>") == panels.CARD_ROWS
    assert f"<summary>{N_OBJECTIVES - panels.CARD_ROWS} more objectives</summary>" in folded
    assert folded.count("<tr><td>") == N_OBJECTIVES - panels.CARD_ROWS
    assert "group29-acc" in folded and "group29-acc" not in table


def test_parallel_coordinates_draw_a_dozen_axes_focus_first_and_the_pick_through_them():
    result = _explore(focus=("group20-acc",))
    figure = figures.parallel_figure(result)
    trace = figure["data"][0]
    axes = trace["customdata"][:trace["customdata"].index(None)]   # full names, as hovered
    assert len(axes) == figures.AXES_SHOWN and axes[0] == "group20-acc"
    assert axes[1:] == [f"group{k:02d}-acc" for k in range(figures.AXES_SHOWN - 1)]
    assert "12 of 30 objectives shown" in figure["layout"]["annotations"][0]["text"]
    # the pick's line: its u on exactly those axes (independent: by column name)
    path = figure["layout"]["shapes"][0]["path"].split()
    objectives = list(result.problem.preferences.objectives)
    expected = [result.problem.u[result.pick, objectives.index(a)] for a in axes]
    assert [float(p.split(",")[1]) for p in path] == [float(f"{u:.6g}") for u in expected]


def test_a_dozen_objectives_or_fewer_are_all_drawn():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.random((10, 3)), columns=["a", "b", "c"])
    frame.insert(0, "model", [f"m{i}" for i in range(10)])
    table = build_eval_table(frame, Roles(id="model", objectives=tuple(
        Objective(n, "min") for n in "abc")))
    opened = OpenedDataset(ref="t", cache_id="t", table=table, title="t", description="",
                           source="", licence="", default_view=None, kind="uploaded")
    result = explorer.explore(opened, selection.Preferences(
        objectives=("a", "b", "c"), directions=("min",) * 3), RowFilter())
    figure = figures.parallel_figure(result)
    assert figure["layout"]["annotations"] == []
    assert "<details" not in panels.pick_card_text(result)[1]
