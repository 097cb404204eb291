"""An Open LLM export's "Average ⬆️" is the mean of the six benchmark scores beside it: an
upload's first view leaves it out of the objectives (weighed with its parts it counts each
benchmark twice) and the Explore page and the CLI's description say so; it stays one tick
away (session 21 newcomer pass, issue 33)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.services.catalog import OpenedDataset
from copa_dash.services.default_view import first_view
from copa_dash.services.explorer import explore
from copa_dash.services.views.explore import ExploreView
from tests.services.test_default_view import MESSY, _upload

FILE = "llmeval_openllm_v2_contents_head.csv"
SCORES = ["IFEval", "BBH", "MATH Lvl 5", "GPQA", "MUSR", "MMLU-PRO"]
AVERAGE = "Average ⬆️"


def test_the_average_is_the_mean_of_the_six_scores_in_the_export():
    """The independent check of the premise: in the raw file (pandas alone), the average is
    the row mean of the six normalised scores."""
    raw = pd.read_csv(MESSY / FILE)
    assert np.allclose(raw[SCORES].mean(axis=1), raw[AVERAGE], atol=0.01)


def _opened(table) -> OpenedDataset:
    # a cache id of its own per table: the analysis cache is keyed by it
    return OpenedDataset(ref="openllm", cache_id=f"s21-average-{len(table.frame)}-"
                         f"{len(table.objective_names)}", table=table,
                         title="Open LLM", description="", source="", licence="",
                         default_view=None, kind="uploaded")


def test_an_upload_opens_without_the_average_and_says_why():
    table = _upload(FILE)
    assert AVERAGE in table.objective_names and set(SCORES) <= set(table.objective_names)
    view = first_view(table)
    assert view.derived == AVERAGE and AVERAGE not in view.objectives
    assert set(SCORES) <= set(view.objectives)
    # still a quality against a cost on the axes
    assert view.x in SCORES and view.y in ("CO₂ cost (kg)", "#Params (B)")
    said = f"'{AVERAGE}' reads as an average of the other scores"
    assert said in view.describe() and view.to_dict()["derived"] == AVERAGE
    page = ExploreView.default_for(_opened(table))
    assert page.objective_names == view.objectives
    notes = explore(_opened(table), page.preferences(), page.row_filter()).notes
    assert sum(said in note for note in notes) == 1


def test_ticking_the_average_again_drops_the_note():
    table = _upload(FILE)
    page = ExploreView.default_for(_opened(table))
    prefs = page.preferences()
    with_average = type(prefs)(objectives=(*prefs.objectives, AVERAGE),
                               directions=(*prefs.directions, "max"), focus=prefs.focus,
                               alpha=prefs.alpha, p=prefs.p)
    notes = explore(_opened(table), with_average, page.row_filter()).notes
    assert not any("reads as an average" in note for note in notes)


def test_the_first_view_says_why_its_pair_is_on_the_axes_while_it_is_on_show():
    """A fairness upload opened on 12 objectives with accuracy against |1 - CV| and nothing
    saying why; the note names the pair and the reason while the view is the first one."""
    table = _upload("fairness_adult_sex.csv")
    view = first_view(table)
    page = ExploreView.default_for(_opened(table))
    notes = explore(_opened(table), page.preferences(), page.row_filter()).notes
    opening = [n for n in notes if n.startswith("This upload opens on")]
    expected = (f"This upload opens on accuracy against {view.y} (a quality against a "
                f"fairness measure: {view.y} is a distance from parity), with the focus on "
                "accuracy; the other 11 objectives share the rest of the weight.")
    assert opening == [expected]
    prefs = page.preferences()
    other = type(prefs)(objectives=prefs.objectives, directions=prefs.directions,
                        focus=(prefs.objectives[1],), alpha=prefs.alpha, p=prefs.p)
    notes = explore(_opened(table), other, page.row_filter()).notes
    assert not any(n.startswith("This upload opens on") for n in notes)
    moved = type(prefs)(objectives=prefs.objectives, directions=prefs.directions,
                        focus=prefs.focus, alpha=0.7, p=prefs.p)
    notes = explore(_opened(table), moved, page.row_filter()).notes
    assert not any(n.startswith("This upload opens on") for n in notes)


def test_only_a_column_that_lies_within_its_siblings_and_is_named_an_average_is_left_out():
    from copa_dash.data.schema import EvalTable, Objective, Roles
    from copa_dash.services.default_view import derived_aggregate

    frame = pd.DataFrame({"m": list("abcd"), "mean": [2., 5, 7, 3], "A": [1., 4, 6, 2],
                          "B": [3., 6, 8, 4], "mean_reward": [2., 5, 7, 3]})
    def left_out(*names):
        objectives = tuple(Objective(n, "max") for n in names)
        return derived_aggregate(EvalTable(frame, Roles("m", objectives)), objectives)

    assert left_out("mean", "A", "B") == "mean"
    assert left_out("mean_reward", "A", "B") == ""      # a reward's mean, not of A and B
    assert left_out("mean", "A") == ""                  # one sibling: nothing to count twice
    frame.loc[0, "mean"] = 9.0                           # outside in 1 of 4 rows (< 95%)
    assert left_out("mean", "A", "B") == ""
