"""A ``mean`` beside the quantile columns of one measure is not "an average of the other
scores" (session 23's newcomer walk: BBOB's IOHanalyzer export, whose ``mean`` runtime lies
between its ``2%`` ... ``98%`` runtimes in every row). The proposal's note and the first
view's note say it is one more summary of that measure; a leaderboard's average keeps its
words."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.data.guessed_table import guessed_table
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import propose
from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services.catalog import OpenedDataset
from copa_dash.services.default_view import first_view
from copa_dash.services.explorer import explore
from copa_dash.services.views.explore import ExploreView

BBOB = "tests/data/messy/bbob_ert_iohanalyzer.csv"
QUANTILES = ["2%", "5%", "10%", "25%", "50%", "75%", "90%", "95%", "98%"]


def test_bbob_premise_the_mean_runtime_lies_between_its_extreme_quantiles():
    raw = pd.read_csv(BBOB)                                      # pandas alone
    finite = raw[np.isfinite(raw["mean"])]
    assert ((finite["mean"] >= finite["2%"]) & (finite["mean"] <= finite["98%"])).all()


def test_the_proposal_calls_bbob_mean_a_summary_of_the_quantiles_measure():
    read = read_table_report(BBOB)
    notes = " ".join(propose(read.frame, units=read.units, labels=read.labels).notes)
    assert ("'mean' lies between the other 11 minimised objectives in 100% of 160 rows: it is "
            "one more summary of the measure the quantiles '2%' ... '98%' describe, so weighing "
            "it beside them counts that measure twice.") in notes
    assert "reads as their average" not in notes


def test_the_first_view_and_explore_say_the_same_of_bbob_mean():
    table = guessed_table(read_table_report(BBOB)).table
    view = first_view(table)
    assert view.derived == "mean"
    said = view.left_out_note("page")
    assert ("'mean' is one more summary of the measure the quantiles '2%' ... '98%' describe"
            in said) and "average of the other scores" not in said
    opened = OpenedDataset(ref="bbob", cache_id="bbob-statistic-words", table=table,
                           title="bbob", description="", source="", licence="",
                           default_view=None, kind="uploaded")
    page = ExploreView.default_for(opened)
    notes = explore(opened, page.preferences(), page.row_filter()).notes
    assert any("'mean' is one more summary of the measure" in n for n in notes)


def test_a_leaderboard_average_keeps_its_words():
    rng = np.random.default_rng(5)
    a, b = rng.random(30), rng.random(30)
    frame = pd.DataFrame({"m": [f"m{i}" for i in range(30)], "Average": (a + b) / 2,
                          "A": a, "B": b, "cost": rng.random(30)})
    objectives = (Objective("Average", "max"), Objective("A", "max"), Objective("B", "max"),
                  Objective("cost", "min"))
    view = first_view(EvalTable(frame, Roles("m", objectives)))
    assert view.derived == "Average"
    assert "'Average' reads as an average of the other scores" in view.left_out_note("page")
