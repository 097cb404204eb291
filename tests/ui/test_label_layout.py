"""The front figure's labels: inside the plot (off the tick labels and the alpha colour bar),
clear of each other and of the marked points, on synthetic points at the plot's edges and on
real views with the pick at the figure's right edge."""

import re
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from copa_dash.services import explorer
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.short_labels import short_label
from copa_dash.ui.features.explore import figures, label_layout
from copa_dash.ui.features.explore.label_layout import Box, place_labels, text_size, to_pixels
from copa_dash.ui.features.explore.state import parse_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter

W, H = label_layout.PLOT_WIDTH, label_layout.PLOT_HEIGHT
LONG = "<b>COPA pick</b>: meta-llama/Llama-3.3-70B-Instruct (Sum, norm pick it too)"


def _box(point, size, placed):
    x, y = to_pixels(*point)
    w, h = size
    return Box(x + placed.ax - w / 2, y + placed.ay - h / 2, x + placed.ax + w / 2,
               y + placed.ay + h / 2)


def _check(points, sizes, placed, marked=()):
    boxes = [_box(p, s, q) for p, s, q in zip(points, sizes, placed)]
    assert boxes == [q.box for q in placed]
    for box in boxes:
        assert box.inside(W, H), box
        for fx, fy in list(points) + list(marked):
            x, y = to_pixels(fx, fy)
            assert not box.overlaps(Box(x - 11, y - 11, x + 11, y + 11)), (box, x, y)
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)


@pytest.mark.parametrize("points", [
    [(1.0, 0.5), (0.97, 0.53), (0.0, 0.0)],            # the pick at the right edge, a baseline beside
    [(1.0, 1.0), (0.0, 1.0), (1.0, 0.0), (0.0, 0.0)],  # every corner
    [(0.5, 0.5), (0.52, 0.5), (0.48, 0.52), (0.5, 0.47)],  # four labelled points close together
])
def test_labels_stay_inside_the_plot_and_clear_of_each_other(points):
    sizes = [text_size(LONG, 13)] + [text_size("Sum, Delta", 13)] * (len(points) - 1)
    marked = [(0.9, 0.45), (0.95, 0.6)]
    placed = place_labels(points, sizes, marked)
    _check(points, sizes, placed, marked)


def test_a_label_at_the_right_edge_points_left_and_one_at_the_top_points_down():
    (right,) = place_labels([(1.0, 0.5)], [text_size(LONG, 13)])
    assert right.ax < 0 and right.box.right <= W
    (top,) = place_labels([(0.5, 1.0)], [text_size("Sum", 13)])
    assert top.ay > 0


def test_the_text_size_counts_what_is_shown():
    assert text_size("<b>ab</b> &amp; c", 12) == text_size("ab x c", 12)
    assert text_size("abcd", 13)[0] > text_size("ab", 13)[0]


def _figure(name, **changes):
    opened = open_dataset(name)
    state = replace(with_defaults(parse_query({"dataset": name}), opened), compare=True, **changes)
    prefs, row_filter = preferences_and_filter(state, opened.table)
    result = explorer.explore(opened, prefs, row_filter, compare=True)
    return result, figures.front_figure(result, mode=state.axes, x=state.x, y=state.y,
                                        log=state.log), state


def _annotation_boxes(layout):
    """Each label's estimated box, read back from the figure's own layout."""
    xr, yr = layout["xaxis"]["range"], layout["yaxis"]["range"]
    out = []
    for a in layout["annotations"]:
        point = ((a["x"] - xr[0]) / (xr[1] - xr[0]), (a["y"] - yr[0]) / (yr[1] - yr[0]))
        size = text_size(a["text"], a["font"]["size"])
        out.append((point, _box(point, size, label_layout.Placed(a["ax"], a["ay"], None))))
    return out


@pytest.mark.parametrize("name, changes", [
    # the pick has the best ifeval: it sits at the figure's right edge, by the colour bar
    ("open-llm-leaderboard-v2", dict(focus=("ifeval",), alpha=1.0, x="ifeval", y="co2_cost")),
    ("open-llm-leaderboard-v2", {}),
    ("chatbot-arena-price", {}),
    ("llm-perf", {}),
    ("amlb-2022", dict(axes="cdf")),
])
def test_every_label_of_a_real_view_fits_the_plot_and_no_two_overlap(name, changes):
    result, figure, _ = _figure(name, **changes)
    boxes = _annotation_boxes(figure["layout"])
    assert len(boxes) >= 1
    for point, box in boxes:
        assert box.inside(W, H), (point, box)
    for (_, a), (_, b) in combinations(boxes, 2):
        assert not a.overlaps(b)
    pick_point, _pick_box = boxes[-1]
    # named as Rankings and Posets label it (a long id: head, "…", tail; session 21)
    assert short_label(result.problem.ids[result.pick]) in figure["layout"]["annotations"][-1][
        "text"]
    if changes.get("x") == "ifeval":
        assert pick_point[0] > 0.95 and figure["layout"]["annotations"][-1]["ax"] < 0


def _methods_named(text: str) -> list[str]:
    if text.startswith("<b>COPA pick</b>"):
        found = re.search(r"\(([^()]*) picks? it too\)$", text)
        return found.group(1).split(", ") if found else []
    return text.split(", ")


@pytest.mark.parametrize("changes", [dict(focus=("ifeval",), alpha=1.0, x="ifeval", y="co2_cost"),
                                     {}])
def test_each_baseline_is_named_once_at_the_row_it_picks(changes):
    result, figure, state = _figure("open-llm-leaderboard-v2", **changes)
    annotations = figure["layout"]["annotations"]
    where = {}
    for a in annotations:
        for label in _methods_named(a["text"]):
            assert label not in where, label
            where[label] = (a["x"], a["y"])
    picked = {explorer.BASELINE_LABELS[b.method]: b.position for b in result.baselines
              if b.position is not None and b.method != "copa"}
    assert set(where) == set(picked) and picked
    xs, ys, _, _ = figures.axis_values(result, state.axes, state.x, state.y)
    log = figures.log_axes(result, state.axes, state.x, state.y, state.log)
    for label, row in picked.items():
        expected = figures._at(float(xs[row]), float(ys[row]), log)
        assert where[label] == (expected["x"], expected["y"]), label
        if row == result.pick:      # named in the pick's own label
            assert label in _methods_named(annotations[-1]["text"])


@pytest.mark.parametrize("log", [False, True])
def test_the_label_placers_axis_range_is_the_figures(log):
    rng = np.random.default_rng(3)
    for values in (rng.lognormal(size=500), np.array([np.nan, 2.0, 2.0]),
                   np.append(rng.lognormal(size=50), np.nan), np.array([np.nan, np.nan])):
        np.testing.assert_allclose(figures._axis_range(values, log),
                                   figures.fixed_range(values, log=log)["range"], rtol=1e-12)
