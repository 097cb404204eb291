"""Posets' depth bars write each task's depth where it can be read: beside the bar (exact
depth) or beside the end of its error whisker (approximate), never under the whisker, where
the value of each bar was crossed out by its own error bar (session 20, a screenshot of
Posets on the synthetic table after Cancel)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from copa_dash.services import posets
from copa_dash.ui.features.posets import figures

# Example B.2 of the paper (tests/services/test_posets_service.py): three methods, three tasks
ROWS = [("SGD", "p1", 2, 2), ("Momentum", "p1", 1, 1), ("Adam", "p1", 0, 3),
        ("SGD", "p2", 2, 2), ("Momentum", "p2", 0, 3), ("Adam", "p2", 1, 1),
        ("SGD", "p3", 2, 2), ("Momentum", "p3", 3, 3), ("Adam", "p3", 1, 1)]


def _view(exact: bool):
    """The example's exact depths; as an approximate view (a table this small is always
    worked out exactly), the same depths with an error bound of 0.05."""
    frame = pd.DataFrame(ROWS, columns=["opt", "prob", "a", "b"])
    data = posets.poset_table(frame, method="opt", task="prob",
                              criteria=(("a", "min"), ("b", "min")))
    view = posets.compute_depth_view(data)
    return view if exact else dataclasses.replace(view, exact=False, error_bound=0.05)


def test_an_exact_depth_is_written_at_its_bar_with_no_whisker():
    figure = figures.depth_figure(_view(exact=True))
    (bars,) = figure["data"]
    assert "error_x" not in bars and bars["textposition"] == "outside"
    assert bars["text"] == [f"{d:.3f}" for d in bars["x"]]


def test_an_approximate_depth_is_written_past_its_whisker():
    view = _view(exact=False)
    assert not view.exact and view.error_bound > 0
    bars, values = figures.depth_figure(view)["data"]
    assert "text" not in bars and bars["error_x"]["value"] == pytest.approx(view.error_bound)
    # one value a task, on the task's row, starting where the whisker ends
    assert values["y"] == bars["y"] and values["mode"] == "text"
    assert values["textposition"] == "middle right"
    assert values["x"] == pytest.approx([d + view.error_bound for d in bars["x"]])
    assert values["text"] == [f"{d:.3f}" for d in bars["x"]]
    assert values["hoverinfo"] == "skip"


def test_the_axis_reaches_past_the_longest_whisker():
    view = _view(exact=False)
    figure = figures.depth_figure(view)
    low, high = figure["layout"]["xaxis"]["range"]
    assert low == 0 and high > max(figure["data"][0]["x"]) + view.error_bound


@pytest.mark.parametrize("exact", [True, False])
def test_the_bars_fill_the_rows_deepest_on_top(exact):
    """A fixed range, not autorange: the value labels' text trace padded it, leaving a bar's
    height of empty plot above the first task."""
    figure = figures.depth_figure(_view(exact=exact))
    n = len(figure["data"][0]["y"])
    assert figure["layout"]["yaxis"]["range"] == [n - 0.5, -0.5]
    assert figure["layout"]["yaxis"]["autorange"] is False
