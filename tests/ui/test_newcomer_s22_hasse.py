"""Session 22's newcomer pass: Hasse diagram labels a user can read with ten methods on a level.

With amlb-2022's ten frameworks on one level the labels read "Au…Gluon", "H2…utoML" (two rows,
a 2-character margin, issue 33). They now stagger over up to four rows (two above the node, two
below), and shorten only when even four rows cannot hold them.
"""

from __future__ import annotations

import itertools

from copa_dash.services.posets import HasseLayout
from copa_dash.ui.features.posets.figures import (
    HASSE_LABEL_CHARS,
    ROWS,
    hasse_figure,
    hasse_labels,
)

# the bundled amlb-2022 table's frameworks (datasets/amlb-2022.csv)
AMLB = ("AutoGluon", "GAMA", "H2OAutoML", "RandomForest", "TPOT", "TunedRandomForest",
        "autosklearn", "flaml", "lightautoml", "mljarsupervised")


def _one_level(names) -> HasseLayout:
    n = len(names)
    return HasseLayout(methods=tuple(names), level=(0,) * n,
                       x=tuple(float(k - (n - 1) / 2) for k in range(n)), edges=())


def _assert_rows_apart(layout, labels, positions, width):
    """Labels in one row of one level keep a character between them (the room model)."""
    per_unit = HASSE_LABEL_CHARS / (width + 0.6)
    for level in set(layout.level):
        for row in ROWS:
            nodes = sorted((layout.x[j], len(labels[j])) for j in range(len(labels))
                           if layout.level[j] == level and positions[j] == row)
            for (xa, la), (xb, lb) in itertools.pairwise(nodes):
                assert (la + lb) / 2 + 1 <= (xb - xa) * per_unit, (labels, positions)


def test_ten_amlb_methods_on_a_level_are_named_in_full():
    layout = _one_level(AMLB)
    labels, positions = hasse_labels(layout)
    assert labels == list(AMLB), labels          # no "Au…Gluon"
    assert set(positions) == set(ROWS)           # four rows: two above, two below
    _assert_rows_apart(layout, labels, positions, 10)


def test_the_outer_rows_are_a_text_trace_a_line_further_out():
    figure = hasse_figure(_one_level(AMLB), title="t", color="#000")
    nodes, outer = figure["data"]
    assert outer["mode"] == "text" and outer["hoverinfo"] == "skip"
    shown = [t for t in nodes["text"] if t] + outer["text"]
    assert sorted(shown) == sorted(AMLB)         # every name once, none twice
    ups = [y for y, pos in zip(outer["y"], outer["textposition"]) if pos == "top center"]
    downs = [y for y, pos in zip(outer["y"], outer["textposition"]) if pos == "bottom center"]
    assert ups and downs and min(ups) > 0 > max(downs)   # beyond the nodes (at y = 0)
    assert nodes["hovertext"][0].startswith("<b>AutoGluon</b>")


def test_a_level_four_rows_cannot_hold_is_shortened_and_still_apart():
    names = [f"method_number_{k}_with_a_long_name" for k in range(14)]
    layout = _one_level(names)
    labels, positions = hasse_labels(layout)
    assert len(set(labels)) == len(labels)
    assert all(len(label) < len(name) for label, name in zip(labels, names))
    _assert_rows_apart(layout, labels, positions, 14)


def test_a_level_with_room_keeps_one_row_and_no_extra_trace():
    figure = hasse_figure(_one_level(AMLB[:3]), title="t", color="#000")
    assert len(figure["data"]) == 1
    assert figure["data"][0]["textposition"] == ["top center"] * 3
