"""Posets when every task has the same depth (issue 33: an upload with 7 criteria gave every
task depth 0, and the headline named all 55 tasks as most central and again as most
outlying): the headline says in plain words that no task is more central, why, and what to
try, and names no task as an extreme."""

from __future__ import annotations

import pandas as pd

from copa_dash.services import posets
from copa_dash.ui.features.posets import callbacks as page
from tests.ui.test_posets_task_names import _texts

CRITERIA = (("a", "min"), ("b", "min"))


def _view(rows):
    frame = pd.DataFrame(rows, columns=["opt", "prob", "a", "b"])
    data = posets.poset_table(frame, method="opt", task="prob", criteria=CRITERIA)
    return posets.compute_depth_view(data)


def test_equal_depths_are_said_in_words_and_no_task_is_named_twice():
    # on every task each method is better on one criterion and worse on the other
    rows = [(m, t, i + k, 5 - i - k) for k, t in enumerate(("t1", "t2", "t3"))
            for i, m in enumerate(("A", "B", "C"))]
    view = _view(rows)
    assert view.depths.tolist() == [0.0, 0.0, 0.0]        # what the core computes here
    drawn = page._views(view, 3)
    headline = " ".join(_texts(drawn["headline"]))
    assert "no task is more central than another" in headline
    assert "no method is better than another on all 2 criteria" in headline
    assert "direction" in headline and "Try:" in headline
    assert "Most central" not in headline and "most outlying" not in headline
    assert "t1" not in headline
    for figure in ("central", "outlying"):
        assert "Most" not in drawn[figure]["layout"]["title"]["text"]


def test_differing_depths_still_name_the_extremes():
    rows = [("SGD", "p1", 2, 2), ("Momentum", "p1", 1, 1), ("Adam", "p1", 0, 3),
            ("SGD", "p2", 2, 2), ("Momentum", "p2", 0, 3), ("Adam", "p2", 1, 1),
            ("SGD", "p3", 2, 2), ("Momentum", "p3", 3, 3), ("Adam", "p3", 1, 1)]
    drawn = page._views(_view(rows), 3)
    headline = " ".join(_texts(drawn["headline"]))
    assert "Most central: " in headline and "p2 (depth 1.000)" in headline
    assert posets.equal_depths_sentence(_view(rows)) == ""
