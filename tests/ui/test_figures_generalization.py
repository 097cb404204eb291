"""Figures of the validation -> test view: the drawn staircases enclose exactly the reported
hypervolumes and the shaded polygon exactly the gap (shoelace areas against brute force)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from copa_dash.core._reference.indicators import hypervolume_brute
from copa_dash.services import generalization as gap
from copa_dash.ui.features.generalization import figures


def _area(xs, ys) -> float:
    x, y = np.asarray(xs, float), np.asarray(ys, float)
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("directions", [("min", "min"), ("max", "min"), ("max", "max")])
def test_staircase_area_is_the_hypervolume(seed, directions):
    rng = np.random.default_rng(seed)
    points = rng.integers(0, 8, (12, 2)).astype(float)
    maximise = np.array([d == "max" for d in directions])
    ref = np.where(maximise, -1.0, 8.0) if seed % 2 else np.where(maximise, 2.0, 5.0)
    xs, ys = figures.staircase(points, ref, maximise)
    sign = np.where(maximise, -1.0, 1.0)
    expected = hypervolume_brute(points * sign, ref * sign)
    if expected == 0:
        assert xs == []
        return
    assert _area(xs + [ref[0]], ys + [ref[1]]) == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(6))
def test_gap_polygon_area_is_the_gap_and_panels_hold_every_row(seed):
    rng = np.random.default_rng(seed)
    n = 40
    val = rng.integers(0, 10, (n, 2)).astype(float)
    test = np.clip(val + rng.integers(-3, 4, (n, 2)), 0, 10)
    frame = pd.DataFrame({"id": [f"r{i}" for i in range(n)], "val_a": val[:, 0],
                          "val_b": val[:, 1], "test_a": test[:, 0], "test_b": test[:, 1]})
    report = gap.build_report(frame, gap.GapSpec("id", ("a", "b"), ("max", "min")))
    (search,) = report.searches
    fronts = search.fronts
    xs, ys = figures.gap_polygon(test[fronts.optimistic_mask], test[fronts.pessimistic_mask],
                                 report.ref, fronts.maximise)
    assert _area(xs, ys) == pytest.approx(fronts.gap, abs=1e-9)
    figure = figures.search_panels(report, search)
    by_name = {}
    for trace in figure["data"]:
        if trace.get("customdata"):
            by_name.setdefault(trace["name"], set()).update(c[0] for c in trace["customdata"])
    ids = report.runs.ids[search.rows]
    assert by_name["optimistic front"] == set(ids[fronts.optimistic_mask])
    assert by_name["pessimistic front"] == set(ids[fronts.pessimistic_mask])
    assert by_name["validation front"] | by_name["other configurations (validation)"] == set(ids)
    assert by_name["test-only front (not knowable in practice)"] == set(ids[search.test_front])
    data, columns = figures.front_table(report, search)
    assert len(data) == fronts.validation_mask.sum() and len(columns) == 7


def test_budget_chart_and_summary_table_follow_the_summaries():
    frame = pd.DataFrame({"id": [f"r{i}" for i in range(8)], "sys": ["x"] * 4 + ["y"] * 4,
                          "budget": [1, 1, 2, 2] * 2, "val_a": [1, 2, 3, 4, 2, 3, 1, 4],
                          "val_b": [4, 3, 2, 1, 3, 2, 4, 1], "test_a": [2, 2, 3, 4, 1, 3, 1, 4],
                          "test_b": [4, 3, 1, 1, 3, 3, 4, 2]})
    spec = gap.GapSpec("id", ("a", "b"), ("min", "min"), system="sys", budget="budget")
    report = gap.build_report(frame, spec)
    chart = figures.budget_figure(report)
    assert len(chart["data"]) == 2 * 4  # two systems x (3 HVs + gap)
    gap_x = next(t for t in chart["data"] if t["name"] == "x: approximation gap")
    assert gap_x["x"] == [1, 2]
    assert gap_x["y"] == [s.gap for s in report.summaries if s.system == "x"]
    rows, _ = figures.summary_table(report)
    assert [r["system"] for r in rows] == ["x", "x", "y", "y"]
    assert rows[0]["gap"] == f"{report.summaries[0].gap:.4f}"  # one seed: no ± part


def test_panel_titles_fit_their_panel_at_a_1024_px_window():
    """Issue 33: at 1024 x 768 the three panels' titles ran into each other. Each line of a
    panel's title stays within ~20 characters (a panel is ~150 px wide there), in the three
    title annotations above the panels."""
    rng = np.random.default_rng(0)
    val = rng.random((30, 2))
    frame = pd.DataFrame({"id": [f"r{i}" for i in range(30)], "val_a": val[:, 0],
                          "val_b": val[:, 1], "test_a": val[:, 0] * 0.9, "test_b": val[:, 1]})
    report = gap.build_report(frame, gap.GapSpec("id", ("a", "b"), ("max", "max")))
    layout = figures.search_panels(report, report.searches[0])["layout"]
    titles = [a["text"] for a in layout["annotations"] if a.get("yanchor") == "bottom"]
    assert len(titles) == 3
    lines = [line.replace("<b>", "").replace("</b>", "") for t in titles for line in t.split("<br>")]
    assert max(map(len, lines)) <= 22, lines
    assert layout["margin"]["t"] >= 15 * max(t.count("<br>") + 1 for t in titles)


def test_budget_chart_titles_fit_their_panels_and_the_legend_has_its_own_margin():
    """Issue 33, F20: at 1024 px the two panel titles overlapped and the legend covered the
    "budget" titles. Each title line stays within its panel's share of ~560 px (at ~6.5 px a
    character), and the legend hangs from the bottom of the figure, below the axis titles."""
    frame = pd.DataFrame({"id": [f"r{i}" for i in range(8)], "sys": ["x"] * 4 + ["y"] * 4,
                          "budget": [1, 1, 2, 2] * 2, "val_a": [1, 2, 3, 4, 2, 3, 1, 4],
                          "val_b": [4, 3, 2, 1, 3, 2, 4, 1], "test_a": [2, 2, 3, 4, 1, 3, 1, 4],
                          "test_b": [4, 3, 1, 1, 3, 3, 4, 2]})
    spec = gap.GapSpec("id", ("a", "b"), ("min", "min"), system="sys", budget="budget")
    layout = figures.budget_figure(gap.build_report(frame, spec))["layout"]
    for note, axis in zip(layout["annotations"], ("xaxis", "xaxis2")):
        low, high = layout[axis]["domain"]
        plain = [line.replace("<b>", "").replace("</b>", "") for line in note["text"].split("<br>")]
        assert max(len(line) for line in plain) * 6.5 <= (high - low) * 560 + 40, plain
    legend = layout["legend"]
    assert legend["yref"] == "container" and legend["y"] == 0 and legend["yanchor"] == "bottom"
    assert layout["margin"]["b"] >= 60 + 22 * 2      # axis title, then 8 entries in 3 a line
