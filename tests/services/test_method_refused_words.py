"""A method or criterion the core refuses on these values (Delta over an ideal of 0, SAW over
a 0) is said with the objective's and the row's names, on the Rankings service, the selection
service, the command line and the notebook alike; the core's own message gave 0-based
positions ("objective 1 has 0 in row 0"), and for SAW named max-normalisation."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash import notebook
from copa_dash.cli import main
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services.rankings import rank_view

# error is 0 for model a: Delta, (y - ideal) / |ideal|, divides by 0 on that column
FRAME = pd.DataFrame({"model": ["a", "b", "c"], "time": [3.0, 2.0, 1.0],
                      "error": [0.0, 0.1, 0.2]})
TABLE = EvalTable(FRAME, Roles("model", (Objective("time", "min"), Objective("error", "min"))))


@pytest.mark.parametrize("criteria, label, by", [
    ("mean,delta", "delta", "its best value"),
    ("delta:a", "delta:a", "the value of a"),
])
def test_delta_over_a_zero_names_the_objective_and_the_entry(criteria, label, by):
    assert FRAME["error"].min() == 0                      # the premise: the ideal is 0
    with pytest.raises(InvalidInputError) as refused:
        rank_view(TABLE, criteria=criteria)
    text = str(refused.value)
    assert text.startswith(f"criterion {label!r}: Delta divides by {by} in each objective, "
                           "and that is 0 for error, so Delta is undefined here.")
    assert "objective 1" not in text and "objective 0" not in text


def test_an_entry_with_no_zero_is_ranked():
    view = rank_view(TABLE, criteria="delta:b")          # b: time 2, error 0.1
    # Delta against b by hand: sum_k w_k (y_k - y_b,k) / |y_b,k| with w = (1/2, 1/2)
    expected = [((3 - 2) / 2 + (0.0 - 0.1) / 0.1) / 2, 0.0, ((1 - 2) / 2 + (0.2 - 0.1) / 0.1) / 2]
    assert view.scores[:, 0] == pytest.approx(expected)


def test_the_command_line_says_the_same_and_exits_2(tmp_path, capsys):
    path = tmp_path / "zero.csv"
    FRAME.to_csv(path, index=False)
    status = main(["rank", str(path), "--id", "model", "--objective", "time:min",
                   "--objective", "error:min", "--criteria", "delta"])
    assert status == 2
    err = capsys.readouterr().err
    assert "criterion 'delta': Delta divides by its best value in each objective, and that " \
           "is 0 for error" in err, err


@pytest.mark.parametrize("method, words", [
    ("saw", ("SAW works with ratios of values (each against its objective's best), so it "
            "needs values above 0; error is 0 for a.")),
    ("delta", ("Delta divides by its best value in each objective, and that is 0 for error, "
              "so Delta is undefined here.")),
])
def test_a_pick_by_a_refused_method_says_why_in_names(method, words, tmp_path, capsys):
    path = tmp_path / "zero.csv"
    FRAME.to_csv(path, index=False)
    status = main(["select", str(path), "--id", "model", "--objective", "time:min",
                   "--objective", "error:min", "--method", method])
    assert status == 2
    assert capsys.readouterr().err.strip() == f"copa-dash select: {words}"
    with pytest.raises(InvalidInputError) as refused:
        notebook.select(FRAME, {"time": "min", "error": "min"}, id="model", method=method)
    assert str(refused.value) == words
